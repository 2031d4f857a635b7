# A Linux UDP echo server for the flows scenarios: each datagram goes back
# to its sender unchanged (the echo service of RFC 862, on any port). Prints
# the number of datagrams echoed to the file named by argv[3] when it gets
# SIGTERM, or after 60 s at most. argv[4], when given, holds each answer
# back that many seconds (a server slower than the flows' plan allows:
# 67_fail_reasons.sh's table_full); the datagrams still in hand at the end
# are not counted.
import heapq, select, signal, socket, sys, time

addr, port, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
delay = float(sys.argv[4]) if len(sys.argv) > 4 else 0.0
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
if delay <= 0:
    while True:
        data, peer = s.recvfrom(65535)
        s.sendto(data, peer)
        done[0] += 1
held, seq = [], 0  # (due, order, data, peer)
while True:
    now = time.monotonic()
    while held and held[0][0] <= now:
        _, _, data, peer = heapq.heappop(held)
        s.sendto(data, peer)
        done[0] += 1
    wait = max(0.0, held[0][0] - now) if held else None
    if select.select([s], [], [], wait)[0]:
        data, peer = s.recvfrom(65535)
        heapq.heappush(held, (time.monotonic() + delay, seq, data, peer))
        seq += 1
