#!/usr/bin/env python3
"""hostile.py — hostile frames at one of flowgen's ports, from the DUT side.

Runs inside the lab's DUT namespace on one DUT interface (dut0 or dut1) and
sends, through an AF_PACKET raw socket, frames addressed to the tester port
on the other end of the veth (its MAC is --dst): truncated Ethernet, IP and
TCP headers, bad IP and L4 checksums, IP options, fragments, oversize frames,
ARP replies nobody asked for (some claiming the gateway's own address with a
made-up MAC), random bytes, and TCP segments with random flags and sequence
numbers on the tuples of live flows. Live tuples are learned by sniffing the
tester's own TCP segments and UDP datagrams as they arrive on the same
interface; a share of each new one seen is answered at once, with junk in
the reverse direction (TCP) or a forged ICMP error about it (icmp_live,
below), so that it reaches the flow while the flow still exists.

ICMP errors (flowgen(8), ICMP ERRORS), from the gateway to the tester's
addresses: quotes cut short of the IP header and 8 bytes (icmp_trunc),
quotes of a protocol flowgen does not send (icmp_proto), quotes of a live
flow's frame as the other port sees it (icmp_other_port), and quotes of a
live flow's own frame that are forged (icmp_spoof): a TCP segment whose
sequence number is the sniffed one plus 2^31, outside any window, with a
port unreachable (a hard error) or a fragmentation needed to 576 bytes;
a UDP datagram whose quoted payload is not the flow's signature. None of
them may fail a flow or shrink its segments; "icmp_valid" counts those
whose quote can be read (all but icmp_trunc), icmp_live's included.

Standard library only. Prints one JSON object: frames sent per kind, send
errors, live tuples learned and junk segments sent on them.

  hostile.py --iface dut0 --dst 02:.. --count 2000 --pps 500 [--seed 1]
             [--gw 198.18.1.1] [--tst-ip 198.18.1.2]

With --forge-replies PORT it forges instead: each UDP datagram to PORT that
the tester's client port sends (its flowgen signature seen) is answered on
the same interface as if by the server, the signature marked as a reply;
every other answer carries the payload pattern intact ("good"), the others
with one byte of it changed ("bad"). Until --count requests were answered
or --secs passed; prints {"good": N, "bad": N}.
"""

import argparse
import json
import os
import random
import select
import socket
import struct
import sys
import time

ETH_P_ALL = 0x0003
ETH_P_IP = 0x0800
ETH_P_ARP = 0x0806
PACKET_OUTGOING = 4


def csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def mac_bytes(text):
    return bytes(int(x, 16) for x in text.split(":"))


def ip_bytes(text):
    return socket.inet_aton(text)


def eth(dst, src, etype):
    return dst + src + struct.pack("!H", etype)


def ipv4(src, dst, proto, payload, ident=0, flags_frag=0, options=b"", ttl=64,
         bad_csum=False, total_len=None):
    ihl = 5 + len(options) // 4
    tl = total_len if total_len is not None else ihl * 4 + len(payload)
    hdr = struct.pack("!BBHHHBBH4s4s", 0x40 | ihl, 0, tl, ident, flags_frag,
                      ttl, proto, 0, src, dst) + options
    c = csum(hdr)
    if bad_csum:
        c ^= 0x5A5A
    return hdr[:10] + struct.pack("!H", c) + hdr[12:] + payload


def l4_csum(src, dst, proto, seg):
    pseudo = src + dst + struct.pack("!BBH", 0, proto, len(seg))
    return csum(pseudo + seg)


def udp(src, dst, sport, dport, data, bad_csum=False):
    seg = struct.pack("!HHHH", sport, dport, 8 + len(data), 0) + data
    c = l4_csum(src, dst, 17, seg) or 0xFFFF
    if bad_csum:
        c ^= 0x5A5A
    return seg[:6] + struct.pack("!H", c) + seg[8:]


def tcp(src, dst, sport, dport, seq, ack, flags, data=b"", win=65535,
        bad_csum=False):
    seg = struct.pack("!HHIIBBHHH", sport, dport, seq, ack, 5 << 4, flags,
                      win, 0, 0) + data
    c = l4_csum(src, dst, 6, seg)
    if bad_csum:
        c ^= 0x5A5A
    return seg[:16] + struct.pack("!H", c) + seg[18:]


class Hostile:
    def __init__(self, a):
        self.a = a
        self.rnd = random.Random(a.seed)
        self.dst = mac_bytes(a.dst)
        with open("/sys/class/net/%s/address" % a.iface) as f:
            self.src = mac_bytes(f.read().strip())
        with open("/sys/class/net/%s/mtu" % a.iface) as f:
            self.mtu = int(f.read())
        self.tx = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
        self.tx.bind((a.iface, 0))
        self.rx = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                                socket.htons(ETH_P_IP))
        self.rx.bind((a.iface, ETH_P_IP))
        self.rx.setblocking(False)
        self.gw = ip_bytes(a.gw)
        self.tst = ip_bytes(a.tst_ip)
        self.sent = {}
        self.errors = {}
        self.tuples = {}   # (src, dst, sport, dport) -> last sequence number seen
        self.utuples = {}  # the same of UDP datagrams -> True
        self.live_junk = 0
        self.icmp_valid = 0
        self.kinds = a.kinds.split(",") if a.kinds else self.KINDS

    # --- frame kinds -------------------------------------------------------

    def rip(self, net):
        return ip_bytes("%s.%d" % (net, self.rnd.randint(1, 254)))

    def some_ip(self):
        """A tester-side address: its own port address or an emulated host."""
        return self.tst if self.rnd.random() < 0.5 else self.rip(
            self.a.tst_net)

    def ip_udp(self, **kw):
        s, d = self.gw, self.some_ip()
        u = udp(s, d, self.rnd.randint(1024, 65535), 4321, os.urandom(18),
                bad_csum=kw.pop("bad_l4", False))
        return eth(self.dst, self.src, ETH_P_IP) + ipv4(s, d, 17, u, **kw)

    def ip_tcp(self, flags=None, bad_l4=False, **kw):
        s, d = self.gw, self.some_ip()
        t = tcp(s, d, self.rnd.randint(1024, 65535), 8080,
                self.rnd.getrandbits(32), self.rnd.getrandbits(32),
                flags if flags is not None else self.rnd.getrandbits(8),
                bad_csum=bad_l4)
        return eth(self.dst, self.src, ETH_P_IP) + ipv4(s, d, 6, t, **kw)

    def k_trunc_eth(self):
        # Shorter than an Ethernet header: the kernel refuses those on an
        # Ethernet device, so the shortest frame it takes is a bare header.
        return eth(self.dst, self.src, ETH_P_IP)[:self.rnd.choice([14])]

    def k_trunc_ip(self):
        f = self.ip_udp()
        return f[:14 + self.rnd.randint(1, 19)]

    def k_trunc_tcp(self):
        f = self.ip_tcp()
        return f[:14 + 20 + self.rnd.randint(1, 19)]

    def k_bad_ip_len(self):
        # total length larger than the frame, or smaller than the header
        return self.ip_udp(total_len=self.rnd.choice([1500, 10, 0, 65535]))

    def k_bad_ip_csum(self):
        return self.rnd.choice([self.ip_udp, self.ip_tcp])(bad_csum=True)

    def k_bad_l4_csum(self):
        return self.rnd.choice([self.ip_udp, self.ip_tcp])(bad_l4=True)

    def k_ip_options(self):
        # Router alert + NOPs, a record-route, a bogus option length.
        opts = self.rnd.choice([b"\x94\x04\x00\x00",
                                b"\x07\x07\x04" + b"\0" * 4 + b"\x00",
                                b"\x01\x01\x01\x00",
                                b"\x44\xff\x05\x00"])
        return self.rnd.choice([self.ip_udp, self.ip_tcp])(options=opts)

    def k_fragment(self):
        ff = self.rnd.choice([0x2000, 0x2000 | 0x10, 0x0020, 0x1FFF, 0x2000 | 0x1FFF])
        return self.rnd.choice([self.ip_udp, self.ip_tcp])(
            flags_frag=ff, ident=self.rnd.getrandbits(16))

    def k_arp_reply(self):
        # Unsolicited ARP reply. A third claims the gateway's address with a
        # made-up MAC (a poisoning attempt); the rest random addresses.
        fake = bytes([0x02, 0xBA, 0xD0]) + os.urandom(3)
        if self.rnd.random() < 1 / 3:
            spa, self.gw_claims = self.gw, getattr(self, "gw_claims", 0) + 1
        else:
            spa = self.rip(self.a.tst_net)
        tpa = self.rnd.choice([self.tst, self.rip(self.a.tst_net)])
        arp = struct.pack("!HHBBH6s4s6s4s", 1, ETH_P_IP, 6, 4, 2, fake, spa,
                          self.dst, tpa)
        src = fake if self.rnd.random() < 0.5 else self.src
        return eth(self.dst, src, ETH_P_ARP) + arp

    def k_oversize(self):
        n = self.rnd.choice([1515, 1519, 1600, 2048, 4000, self.mtu + 14])
        n = min(n, self.mtu + 14)
        f = self.ip_udp()
        return f + os.urandom(max(0, n - len(f)))

    def k_random(self):
        n = self.rnd.randint(14, min(1514, self.mtu + 14))
        et = self.rnd.choice([ETH_P_IP, ETH_P_ARP, 0x86DD, 0x8100,
                              self.rnd.getrandbits(16)])
        return eth(self.dst, self.src, et) + os.urandom(n - 14)

    def k_tcp_junk(self):
        """Random flags and sequence numbers: on a live tuple if one is
        known, else on a made-up one."""
        if self.tuples:
            key = self.rnd.choice(list(self.tuples))
            return self.junk_on(key)
        return self.ip_tcp()

    def junk_on(self, key):
        # key = the tester's segment (src, dst, sport, dport); junk goes back
        s, d, sp, dp = key
        flags = self.rnd.getrandbits(8)
        data = os.urandom(self.rnd.choice([0, 0, 1, 64]))
        t = tcp(d, s, dp, sp, self.rnd.getrandbits(32),
                self.rnd.getrandbits(32), flags, data,
                win=self.rnd.getrandbits(16))
        self.live_junk += 1
        return eth(self.dst, self.src, ETH_P_IP) + ipv4(d, s, 6, t)

    # --- ICMP errors ---------------------------------------------------------

    def icmp_err(self, to, code, quote, mtu=0):
        """ICMP destination unreachable from the gateway to `to`, quoting
        the bytes of `quote` (an IP datagram or part of one)."""
        body = struct.pack("!BBHHH", 3, code, 0, 0, mtu) + quote
        body = body[:2] + struct.pack("!H", csum(body)) + body[4:]
        return eth(self.dst, self.src, ETH_P_IP) + ipv4(self.gw, to, 1, body)

    def k_icmp_trunc(self):
        s, d = self.some_ip(), self.rip(self.a.peer_net)
        q = ipv4(s, d, 17, udp(s, d, self.rnd.randint(1024, 65535), 4321,
                               os.urandom(18)))
        return self.icmp_err(s, self.rnd.choice([0, 1, 3, 4]),
                             q[:self.rnd.randint(0, 27)], mtu=576)

    def k_icmp_proto(self):
        s, d = self.some_ip(), self.rip(self.a.peer_net)
        proto, l4 = self.rnd.choice([(47, os.urandom(24)),
                                     (1, b"\x08\x00\x00\x00" + os.urandom(20))])
        self.icmp_valid += 1
        return self.icmp_err(s, self.rnd.choice([1, 3]), ipv4(s, d, proto, l4))

    def k_icmp_other_port(self):
        """A live flow's frame as the other port sends it, or a made-up
        one of the other side's hosts. Seen from the client port, the
        server's answer to --peer-gw (the NAT's address); seen from the
        server port (no --peer-gw), the request of a client of peer_net."""
        if self.tuples:
            s, d, sp, dp = self.rnd.choice(list(self.tuples))
            if self.a.peer_gw:
                a, b = d, ip_bytes(self.a.peer_gw)
            else:
                a, b = self.rip(self.a.peer_net), s
            q = ipv4(a, b, 6, tcp(a, b, dp, sp, 1, 0, 0x10))
            to = s
        else:
            to, d = self.some_ip(), self.rip(self.a.peer_net)
            q = ipv4(d, to, 17, udp(d, to, 4321, self.rnd.randint(1024, 65535), b""))
        self.icmp_valid += 1
        return self.icmp_err(to, 3, q)

    def spoof_on(self, key, udp_dgram=False):
        """A forged error about live tuple key (the tester's frame)."""
        s, d, sp, dp = key
        self.icmp_valid += 1
        if udp_dgram:
            return self.icmp_err(s, 3, ipv4(s, d, 17, udp(s, d, sp, dp, os.urandom(32))))
        seq = (self.tuples[key] + 0x80000000) & 0xFFFFFFFF
        q = ipv4(s, d, 6, tcp(s, d, sp, dp, seq, 0, 0x10))
        if self.rnd.random() < 0.5:
            return self.icmp_err(s, 3, q)
        return self.icmp_err(s, 4, q, mtu=576)

    def k_icmp_spoof(self):
        """A live flow's own frame, forged: see the module's docstring."""
        if self.tuples and (not self.utuples or self.rnd.random() < 0.5):
            return self.spoof_on(self.rnd.choice(list(self.tuples)))
        if self.utuples:
            return self.spoof_on(self.rnd.choice(list(self.utuples)), True)
        self.icmp_valid += 1
        s, d = self.some_ip(), self.rip(self.a.peer_net)
        q = ipv4(s, d, 6, tcp(s, d, self.rnd.randint(1024, 65535), 8080,
                              self.rnd.getrandbits(32), 0, 0x10))
        return self.icmp_err(s, 3, q)

    KINDS = ["trunc_eth", "trunc_ip", "trunc_tcp", "bad_ip_len",
             "bad_ip_csum", "bad_l4_csum", "ip_options", "fragment",
             "arp_reply", "oversize", "random", "tcp_junk", "icmp_trunc",
             "icmp_proto", "icmp_other_port", "icmp_spoof"]

    # --- sniffing ----------------------------------------------------------

    def sniff(self):
        """Learn live TCP and UDP tuples from the tester's frames; answer
        each new TCP one with junk right away. Returns frames to send now."""
        out = []
        for _ in range(64):
            try:
                pkt, addr = self.rx.recvfrom(4096)
            except (BlockingIOError, InterruptedError):
                break
            if addr[2] == PACKET_OUTGOING or len(pkt) < 42:
                continue
            if pkt[12:14] != b"\x08\x00" or pkt[23] not in (6, 17):
                continue
            ihl = (pkt[14] & 15) * 4
            s, d = pkt[26:30], pkt[30:34]
            if len(pkt) < 14 + ihl + 8:
                continue
            sp, dp = struct.unpack("!HH", pkt[14 + ihl:18 + ihl])
            key = (s, d, sp, dp)
            if pkt[23] == 17:
                fresh = key not in self.utuples
                self.utuples[key] = True
                if len(self.utuples) > 512:
                    self.utuples.pop(next(iter(self.utuples)))
                if fresh and self.rnd.random() < self.a.live_share / 2:
                    out.append(("icmp_live", self.spoof_on(key, True)))
                continue
            fresh = key not in self.tuples
            self.tuples[key] = struct.unpack("!I", pkt[18 + ihl:22 + ihl])[0]
            if len(self.tuples) > 512:
                self.tuples.pop(next(iter(self.tuples)))
            r = self.rnd.random()
            if fresh and r < self.a.live_share / 2:
                out.append(("tcp_live", self.junk_on(key)))
            elif fresh and r < self.a.live_share:
                out.append(("icmp_live", self.spoof_on(key)))
        return out

    # --- main loop ---------------------------------------------------------

    def send(self, kind, frame):
        try:
            self.tx.send(frame)
            self.sent[kind] = self.sent.get(kind, 0) + 1
        except OSError as e:
            k = "%s:%s" % (kind, e.strerror)
            self.errors[k] = self.errors.get(k, 0) + 1

    def run(self):
        gap = 1.0 / self.a.pps
        t_next = time.monotonic()
        n = 0
        while n < self.a.count:
            for kind, f in self.sniff():
                self.send(kind, f)
                n += 1
            now = time.monotonic()
            if now < t_next:
                select.select([self.rx], [], [], t_next - now)
                continue
            t_next += gap
            kind = self.kinds[n % len(self.kinds)]
            self.send(kind, getattr(self, "k_" + kind)())
            n += 1
        return {
            "iface": self.a.iface,
            "sent": sum(self.sent.values()),
            "kinds": self.sent,
            "errors": self.errors,
            "live_tuples": len(self.tuples),
            "live_junk": self.live_junk,
            "gw_claims": getattr(self, "gw_claims", 0),
            "icmp_valid": self.icmp_valid,
            "mtu": self.mtu,
        }


class Forger:
    """Forged UDP replies to the tester's requests (--forge-replies)."""

    MAGIC = b"FGS1"  # lat.h's signature magic, little-endian on the wire
    REPLY = 2        # its reply flag

    def __init__(self, a):
        self.a = a
        self.rx = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                                socket.htons(ETH_P_IP))
        self.rx.bind((a.iface, ETH_P_IP))
        self.tx = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
        self.tx.bind((a.iface, 0))
        self.good = self.bad = 0

    def answer(self, pkt):
        ihl = (pkt[14] & 15) * 4
        l4 = 14 + ihl
        sp, dp, ulen = struct.unpack("!HHH", pkt[l4:l4 + 6])
        pay = bytearray(pkt[l4 + 8:l4 + ulen])
        if dp != self.a.forge_replies or pay[:4] != self.MAGIC or len(pay) < 20:
            return None
        pay[17] |= self.REPLY
        if (self.good + self.bad) % 2:
            pay[len(pay) - 1] ^= 0x5A  # the pattern's last byte
            self.bad += 1
        else:
            self.good += 1
        src, dst = pkt[30:34], pkt[26:30]
        u = udp(src, dst, dp, sp, bytes(pay))
        return pkt[6:12] + pkt[0:6] + pkt[12:14] + ipv4(src, dst, 17, u)

    def run(self):
        end = time.monotonic() + self.a.secs
        while self.good + self.bad < self.a.count and time.monotonic() < end:
            r, _, _ = select.select([self.rx], [], [], 0.1)
            if not r:
                continue
            pkt, addr = self.rx.recvfrom(4096)
            if addr[2] == PACKET_OUTGOING or len(pkt) < 42 or pkt[23] != 17:
                continue
            f = self.answer(pkt)
            if f:
                self.tx.send(f)
        return {"iface": self.a.iface, "good": self.good, "bad": self.bad,
                "sent": self.good + self.bad}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--iface", required=True)
    p.add_argument("--dst", required=True, help="tester port MAC")
    p.add_argument("--gw", required=True, help="this DUT interface's address")
    p.add_argument("--tst-ip", required=True, help="the tester port's address")
    p.add_argument("--tst-net", required=True,
                   help="first three octets of the emulated hosts' /24")
    p.add_argument("--peer-net", default="198.19.0",
                   help="first three octets of the other port's hosts")
    p.add_argument("--peer-gw", default="",
                   help="where the other port's frames go (the NAT's address), "
                   "for hostile frames at the client port")
    p.add_argument("--count", type=int, default=2000)
    p.add_argument("--pps", type=float, default=500)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--live-share", type=float, default=0.5,
                   help="share of newly seen live tuples answered at once: half of it "
                   "with TCP junk, half with a forged ICMP error (UDP: half, forged errors)")
    p.add_argument("--kinds", default="",
                   help="comma-separated frame kinds (default: all): "
                   + ",".join(Hostile.KINDS))
    p.add_argument("--forge-replies", type=int, default=0, metavar="PORT",
                   help="forge replies to the UDP requests to PORT instead")
    p.add_argument("--secs", type=float, default=10,
                   help="--forge-replies: give up after this long")
    a = p.parse_args()
    r = (Forger if a.forge_replies else Hostile)(a).run()
    print(json.dumps(r, sort_keys=True))
    return 0 if r["sent"] > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
