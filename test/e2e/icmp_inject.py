#!/usr/bin/env python3
"""icmp_inject.py — ICMP errors about flowgen's UDP datagrams, as a router
beyond the DUT's NAT would send them (68_fault_icmp.sh, part c).

  icmp_inject.py beyond --iface wo --dport P [--from 198.19.1.254]
      Runs in the lab's wire namespace, on the interface that faces the
      DUT's outside link (dut1). Each UDP datagram to port P that the DUT
      sends out (translated by its NAT) is answered at once with an ICMP
      host unreachable (type 3 code 1) from --from to the datagram's source
      (the NAT's address), quoting the datagram whole. The DUT's NAT is to
      translate the error back to the client, outer header and quote alike
      (RFC 5508 REQ-3).

  icmp_inject.py untranslated --inside dut0 --outside dut1 --dport P
                 [--from 198.18.1.1]
      Runs in the DUT's namespace. Learns each client datagram to port P as
      it arrives on --inside (its flowgen signature, 18 bytes, names it),
      sees it leave --outside translated, and sends the client on --inside
      an ICMP host unreachable quoting the datagram as it left: translated,
      as a NAT without RFC 5508 REQ-3 would pass it on. "kept" counts those
      whose source port the NAT kept, "changed" the others.

Until --secs passed or SIGTERM. Standard library only. Prints one JSON
object: what was seen and sent.
"""

import argparse
import json
import select
import signal
import socket
import struct
import sys
import time

ETH_P_ALL = 0x0003
ETH_P_IP = 0x0800
PACKET_OUTGOING = 4


def csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def ipv4(src, dst, proto, payload):
    hdr = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(payload), 0, 0x4000, 64, proto, 0,
                      src, dst)
    return hdr[:10] + struct.pack("!H", csum(hdr)) + hdr[12:] + payload


def unreach(src, dst, quote):
    """ICMP host unreachable from src to dst quoting quote (RFC 792)."""
    body = struct.pack("!BBHI", 3, 1, 0, 0) + quote[:548]
    body = body[:2] + struct.pack("!H", csum(body)) + body[4:]
    return ipv4(src, dst, 1, body)


def udp_to(pkt, dport):
    """The IP datagram of an Ethernet frame pkt if it is IPv4 UDP to dport."""
    if len(pkt) < 42 or pkt[12:14] != b"\x08\x00" or pkt[23] != 17:
        return None
    ihl = (pkt[14] & 15) * 4
    if len(pkt) < 14 + ihl + 8 or struct.unpack("!H", pkt[16 + ihl:18 + ihl])[0] != dport:
        return None
    tot = struct.unpack("!H", pkt[16:18])[0]
    return pkt[14:14 + tot]


def sock(iface):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    s.bind((iface, 0))
    return s


def beyond(a, out):
    s = sock(a.iface)
    src = socket.inet_aton(a.from_ip)
    end = time.monotonic() + a.secs
    while time.monotonic() < end and not out["stop"]:
        r, _, _ = select.select([s], [], [], 0.1)
        if not r:
            continue
        pkt, addr = s.recvfrom(65535)
        if addr[2] == PACKET_OUTGOING:
            continue
        dg = udp_to(pkt, a.dport)
        if dg is None:
            continue
        out["seen"] += 1
        # back to the DUT, from the MAC the datagram was sent to
        s.send(pkt[6:12] + pkt[0:6] + b"\x08\x00" + unreach(src, dg[12:16], dg))
        out["sent"] += 1


def untranslated(a, out):
    inside, outside = sock(a.inside), sock(a.outside)
    src = socket.inet_aton(a.from_ip)
    clients = {}  # signature -> (client MAC, client address, client port)
    end = time.monotonic() + a.secs
    while time.monotonic() < end and not out["stop"]:
        r, _, _ = select.select([inside, outside], [], [], 0.1)
        for s in r:
            pkt, addr = s.recvfrom(65535)
            dg = udp_to(pkt, a.dport)
            if dg is None or len(dg) < 28 + 18:
                continue
            ihl = (dg[0] & 15) * 4
            sig = dg[ihl + 8:ihl + 8 + 18]
            sport = struct.unpack("!H", dg[ihl:ihl + 2])[0]
            if s is inside and addr[2] != PACKET_OUTGOING:
                clients[sig] = (pkt[6:12], dg[12:16], sport)
                if len(clients) > 4096:
                    clients.pop(next(iter(clients)))
                continue
            if s is not outside or addr[2] != PACKET_OUTGOING or sig not in clients:
                continue
            mac, client, cport = clients.pop(sig)
            out["seen"] += 1
            out["kept" if cport == sport else "changed"] += 1
            inside.send(mac + pkt[6:12] + b"\x08\x00" + unreach(src, client, dg))
            out["sent"] += 1


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("mode", choices=["beyond", "untranslated"])
    p.add_argument("--iface", default="wo")
    p.add_argument("--inside", default="dut0")
    p.add_argument("--outside", default="dut1")
    p.add_argument("--dport", type=int, required=True)
    p.add_argument("--from", dest="from_ip", default="")
    p.add_argument("--secs", type=float, default=30)
    a = p.parse_args()
    if not a.from_ip:
        a.from_ip = "198.19.1.254" if a.mode == "beyond" else "198.18.1.1"
    out = {"mode": a.mode, "seen": 0, "sent": 0, "kept": 0, "changed": 0, "stop": False}
    signal.signal(signal.SIGTERM, lambda *_: out.update(stop=True))
    (beyond if a.mode == "beyond" else untranslated)(a, out)
    del out["stop"]
    print(json.dumps(out, sort_keys=True), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
