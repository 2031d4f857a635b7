# A Linux TCP listener that misbehaves for 67_fail_reasons.sh: MODE
# "silent" accepts, reads and never answers (the connection stays open:
# the client's flow times out having heard the peer); "close" reads the
# 64-byte request and closes with a FIN before answering (the client's
# flow ends as peer_closed). Arguments: MODE ADDR PORT COUNTFILE; the
# number of connections accepted goes to COUNTFILE on SIGTERM, or after
# 120 s at most.
import signal, socket, sys, threading

mode, addr, port, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
conns = []
lock = threading.Lock()


def serve(c):
    got = b""
    while len(got) < 64:
        b = c.recv(64 - len(got))
        if not b:
            break
        got += b
    if mode == "close":
        c.shutdown(socket.SHUT_WR)
        # keep reading until the client closes too: no RST for unread data
        while c.recv(4096):
            pass
        c.close()


def bye(*_):
    try:
        with open(out, "w") as f:
            f.write("%d\n" % len(conns))
    except OSError:
        pass
    sys.exit(0)


signal.signal(signal.SIGTERM, bye)
signal.signal(signal.SIGALRM, bye)
signal.alarm(120)
s = socket.socket(socket.AF_INET)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((addr, port))
s.listen(1024)
while True:
    c, _ = s.accept()
    with lock:
        conns.append(c)  # a silent peer's sockets stay open
    threading.Thread(target=serve, args=(c,), daemon=True).start()
