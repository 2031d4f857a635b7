# A Linux UDP echo server for the flows scenarios: each datagram goes back
# to its sender unchanged (the echo service of RFC 862, on any port). Prints
# the number of datagrams echoed to the file named by argv[3] when it gets
# SIGTERM, or after 60 s at most.
import signal, socket, sys

addr, port, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
done = [0]

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
s = socket.socket(socket.AF_INET6 if ":" in addr else socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((addr, port))
while True:
    data, peer = s.recvfrom(65535)
    s.sendto(data, peer)
    done[0] += 1
