# Linux TCP clients for the flows scenarios: N connections to ADDR:PORT
# (addresses ADDR, ADDR+1, ... round robin over 8), each sends 64 bytes and
# reads until the peer closes. Prints "ok BYTES_SENT BYTES_RECEIVED" totals.
import ipaddress, socket, sys

base, port, n = ipaddress.ip_address(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
ok = sent = rcvd = 0
for i in range(n):
    c = socket.create_connection((str(base + i % 8), port), timeout=5)
    c.sendall(bytes(64))
    sent += 64
    got = 0
    while True:
        b = c.recv(4096)
        if not b:
            break
        got += len(b)
    rcvd += got
    ok += got == 512
    c.close()
print("ok %d %d %d" % (ok, sent, rcvd))
