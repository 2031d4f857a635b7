# A Linux TCP listener for the flows scenarios: each connection reads 64
# bytes, answers 512, closes. Prints the number of complete exchanges to
# the file named by argv[3] when it gets SIGTERM, or after 60 s at most.
import signal, socket, sys, threading

addr, port, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
done = [0]
lock = threading.Lock()

def serve(c):
    try:
        got = b""
        while len(got) < 64:
            b = c.recv(64 - len(got))
            if not b:
                return
            got += b
        c.sendall(bytes(512))
        with lock:
            done[0] += 1
    finally:
        c.close()

def bye(*_):
    try:
        with open(out, "w") as f:
            f.write("%d\n" % done[0])
    except OSError:
        pass
    sys.exit(0)

signal.signal(signal.SIGTERM, bye)
signal.signal(signal.SIGALRM, bye)
signal.alarm(60)
s = socket.socket(socket.AF_INET6 if ":" in addr else socket.AF_INET)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((addr, port))
s.listen(1024)
while True:
    c, _ = s.accept()
    threading.Thread(target=serve, args=(c,), daemon=True).start()
