#!/usr/bin/env python3
#
# hostswap.py — watch, from inside the DUT namespace, when a tester port
# answers ARP for two sets of emulated hosts, and when the traffic towards
# the first set stops.
#
#   hostswap.py IFACE SECONDS IP_A IP_B
#
# Every 20 ms it sends an ARP request on IFACE for IP_A and for IP_B (from
# IFACE's own address and MAC) and notes the time of every reply. It also
# notes the last UDP frame leaving IFACE towards IP_A's /24 (the DUT
# forwarding the old run's stream). After SECONDS it prints one JSON object:
#   {"a_replies": [t, ...], "b_replies": [t, ...], "a_last_data": t}
# with times in seconds since the start. SIGTERM ends it early (the same
# output, for what it saw so far).

import fcntl
import json
import signal
import socket
import struct
import sys
import time

ETH_P_ALL = 0x0003
ETH_P_ARP = 0x0806
PACKET_OUTGOING = 4


def if_addr(sock, name):
    req = struct.pack("256s", name.encode()[:15])
    ip = fcntl.ioctl(sock.fileno(), 0x8915, req)[20:24]  # SIOCGIFADDR
    mac = fcntl.ioctl(sock.fileno(), 0x8927, req)[18:24]  # SIOCGIFHWADDR
    return ip, mac


def arp_request(mac, ip, target):
    eth = b"\xff" * 6 + mac + struct.pack("!H", ETH_P_ARP)
    arp = struct.pack("!HHBBH", 1, 0x0800, 6, 4, 1) + mac + ip + b"\0" * 6 + target
    return eth + arp


def main():
    iface, secs = sys.argv[1], float(sys.argv[2])
    ip_a, ip_b = socket.inet_aton(sys.argv[3]), socket.inet_aton(sys.argv[4])
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    s.bind((iface, 0))
    s.setblocking(False)
    ctl = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    my_ip, my_mac = if_addr(ctl, iface)
    reqs = [arp_request(my_mac, my_ip, ip_a), arp_request(my_mac, my_ip, ip_b)]
    t0 = time.monotonic()
    out = {"a_replies": [], "b_replies": [], "a_last_data": None}
    next_req = t0
    stop = []
    signal.signal(signal.SIGTERM, lambda sig, frm: stop.append(sig))
    while not stop:
        now = time.monotonic()
        if now - t0 >= secs:
            break
        if now >= next_req:
            for r in reqs:
                s.send(r)
            next_req = now + 0.02
        try:
            f, addr = s.recvfrom(2048)
        except BlockingIOError:
            time.sleep(0.001)
            continue
        t = round(time.monotonic() - t0, 4)
        etype = struct.unpack("!H", f[12:14])[0]
        if etype == ETH_P_ARP and len(f) >= 42 and f[20:22] == b"\0\2":
            sender = f[28:32]
            if sender == ip_a:
                out["a_replies"].append(t)
            elif sender == ip_b:
                out["b_replies"].append(t)
        elif (etype == 0x0800 and addr[2] == PACKET_OUTGOING and len(f) >= 34
              and f[23] == 17 and f[30:33] == ip_a[:3]):
            out["a_last_data"] = t
    print(json.dumps(out))


if __name__ == "__main__":
    main()
