#!/usr/bin/env python3
"""http_pcap.py OUT.pcap -- write the capture profiles/http_simple.yaml
replays: one HTTP/1.1 exchange over TCP between 198.18.0.1:40000 and
198.19.0.1:80 (handshake, a GET with its headers, a 200 response with a
small HTML body in two segments, FIN both ways), as tcpdump would have
recorded it on the client's link: Ethernet frames, good IPv4 and TCP
checksums, microsecond timestamps. `make` runs it (Python's standard
library only); record your own with tcpdump instead (README, "Templates
from a capture").
"""
import struct
import sys

CLI, SRV = bytes([198, 18, 0, 1]), bytes([198, 19, 0, 1])
CMAC, SMAC = bytes.fromhex("020000000001"), bytes.fromhex("020000000002")
CPORT, SPORT = 40000, 80
FIN, SYN, PSH, ACK = 0x01, 0x02, 0x08, 0x10

REQUEST = (b"GET /index.html HTTP/1.1\r\n"
           b"Host: 198.19.0.1\r\n"
           b"User-Agent: flowgen\r\n"
           b"Accept: */*\r\n\r\n")
BODY = (b"<html><head><title>flowgen</title></head>\n"
        b"<body><p>" + b"A page replayed from a capture. " * 20 + b"</p></body></html>\n")
RESPONSE = (b"HTTP/1.1 200 OK\r\n"
            b"Content-Type: text/html\r\n"
            b"Content-Length: " + str(len(BODY)).encode() + b"\r\n\r\n" + BODY)


def csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def frame(cli, seq, ack, flags, payload=b""):
    sa, da = (CLI, SRV) if cli else (SRV, CLI)
    sp, dp = (CPORT, SPORT) if cli else (SPORT, CPORT)
    tcp = struct.pack("!HHIIBBHHH", sp, dp, seq, ack, 5 << 4, flags, 64240, 0, 0) + payload
    ph = sa + da + struct.pack("!BBH", 0, 6, len(tcp))
    tcp = tcp[:16] + struct.pack("!H", csum(ph + tcp)) + tcp[18:]
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(tcp), 0, 0x4000, 64, 6, 0, sa, da)
    ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
    eth = (SMAC + CMAC if cli else CMAC + SMAC) + b"\x08\x00"
    return eth + ip + tcp


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: http_pcap.py OUT.pcap")
    c, s = 1000, 5000  # initial sequence numbers
    half = len(RESPONSE) // 2
    pkts = [  # (microseconds after the previous packet, frame)
        (0, frame(True, c, 0, SYN)),
        (180, frame(False, s, c + 1, SYN | ACK)),
        (40, frame(True, c + 1, s + 1, ACK)),
        (60, frame(True, c + 1, s + 1, PSH | ACK, REQUEST)),
        (45, frame(False, s + 1, c + 1 + len(REQUEST), ACK)),
        (1200, frame(False, s + 1, c + 1 + len(REQUEST), ACK, RESPONSE[:half])),
        (20, frame(False, s + 1 + half, c + 1 + len(REQUEST), PSH | ACK, RESPONSE[half:])),
        (35, frame(True, c + 1 + len(REQUEST), s + 1 + len(RESPONSE), ACK)),
        (90, frame(True, c + 1 + len(REQUEST), s + 1 + len(RESPONSE), FIN | ACK)),
        (70, frame(False, s + 1 + len(RESPONSE), c + 2 + len(REQUEST), FIN | ACK)),
        (30, frame(True, c + 2 + len(REQUEST), s + 2 + len(RESPONSE), ACK)),
    ]
    t = 1764633600 * 1000000  # 2025-12-02 00:00:00 UTC
    with open(sys.argv[1], "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
        for dt, fr in pkts:
            t += dt
            f.write(struct.pack("<IIII", t // 1000000, t % 1000000, len(fr), len(fr)) + fr)


if __name__ == "__main__":
    main()
