#!/usr/bin/env python3
#
# impair.py — a userspace stand-in for `tc qdisc ... netem` on a kernel built
# without sch_netem. It bridges two interfaces of one network namespace with
# AF_PACKET raw sockets, forwarding every frame both ways, and applies
# netem-like impairments per direction:
#
#   --delay MS      constant one-way delay, counted from the kernel's receive
#                   timestamp (a heap of due times; select() sleeps until the
#                   next one with a 1 us timer slack)
#   --loss PCT      drop that share of frames
#   --duplicate PCT send that share of frames twice
#   --corrupt PCT   flip one bit of that share of the IPv4 TCP and UDP
#                   frames that carry a payload, by turns in the payload's
#                   last byte and in the L4 checksum itself, checksums left
#                   as they were (a bad link; a receiver must find it by
#                   the L4 checksum, with a payload changed or not)
#   --reorder PCT   with a delay: send that share at once while the others
#                   wait (netem's "delay D reorder PCT"); without a delay:
#                   hold the frame and send it after the next one (a swap;
#                   one that no frame follows within 10 ms leaves alone,
#                   counted as unswapped: reordered - unswapped frames
#                   arrive after a later one)
#   --dir both|ab|ba  which direction is impaired: ab = frames received on
#                   IFA and sent out of IFB, ba = the reverse
#   --udp-dport P[,P...]  impair only untagged IPv4 UDP datagrams to these
#                   destination ports (first fragments; later fragments
#                   carry no port); every other frame passes
#   --spare N       the first N frames that would be impaired, in each
#                   impaired direction, pass untouched (with --loss 100
#                   and --udp-dport: drop a port's datagrams after its
#                   first N, as a test of what a lost probe does needs)
#   --seed N        reproducible decisions (one generator per direction)
#
# ARP and IPv6 frames (the kernels' neighbour discovery) pass unimpaired,
# so the decisions of a seed follow the test traffic alone.
#
# The relay runs SCHED_FIFO (unless --no-rt) so that busy-polling processes
# on the same CPUs do not make delayed frames late; it sleeps in select()
# whenever nothing is due, so it takes little CPU.
#
# Frames keep their 802.1Q tag (the kernel hands it over as metadata; it is
# put back), and the relay never forwards its own transmissions
# (PACKET_IGNORE_OUTGOING, and PACKET_OUTGOING frames are skipped). Offloads
# (GRO, GSO, TSO, TX checksum) are turned off on both interfaces so frames
# stay frames with complete checksums.
#
# Counters per direction (rx, forwarded, dropped, duplicated, reordered,
# errors, and how late delayed frames left) go to stderr or --stats FILE on
# SIGTERM/SIGINT, and to --stats FILE on SIGUSR1 without stopping.
#
# Usage: impair.py [options] IFA IFB

import argparse
import ctypes
import errno
import heapq
import os
import random
import select
import signal
import socket
import struct
import subprocess
import sys
import time

ETH_P_ALL = 0x0003
SOL_PACKET = 263
PACKET_ADD_MEMBERSHIP = 1
PACKET_MR_PROMISC = 1
PACKET_AUXDATA = 8
PACKET_IGNORE_OUTGOING = 23
PACKET_OUTGOING = 4
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)
TP_STATUS_CSUMNOTREADY = 1 << 3
TP_STATUS_VLAN_VALID = 1 << 4
TP_STATUS_VLAN_TPID_VALID = 1 << 6
PR_SET_TIMERSLACK = 29
AUX = struct.Struct("IIIHHHH")
TS = struct.Struct("qq")
BUFSZ = 8 << 20
BURST = 64
SWAP_HOLD_NS = 10_000_000  # a held frame leaves after 10 ms without a successor


class Stop(Exception):
    pass


class Dir:
    """One direction of the bridge: frames read on rx, written to tx."""

    def __init__(self, name, rx, tx, impaired, args, seed):
        self.name = name
        self.rx = rx
        self.tx = tx
        self.on = impaired
        self.delay_ns = int(round(args.delay * 1e6)) if impaired else 0
        self.loss = args.loss / 100.0 if impaired else 0.0
        self.dup = args.duplicate / 100.0 if impaired else 0.0
        self.reorder = args.reorder / 100.0 if impaired else 0.0
        self.corrupt = args.corrupt / 100.0 if impaired else 0.0
        self.rng = random.Random(seed)
        self.held = None  # (deadline_ns, frame) for the swap reorder
        self.dports = args.udp_dport if impaired else None
        self.spare = args.spare if impaired else 0
        self.c = dict(rx=0, forwarded=0, dropped=0, duplicated=0, reordered=0,
                  errors=0, partial_csum=0, bad_stamp=0, blocked=0, pending=0,
                  corrupted=0, spared=0, unswapped=0)
        self.age_max = 0  # longest wait between kernel receive and read
        self.late_max = 0
        self.late_sum = 0
        self.late_n = 0


def l4_payload(frame):
    """(payload offset, payload length, checksum offset) of an untagged IPv4
    TCP or UDP frame with a payload, or None."""
    if len(frame) < 34 or frame[12:14] != b"\x08\x00" or frame[14] >> 4 != 4:
        return None
    ihl = (frame[14] & 15) * 4
    tot = int.from_bytes(frame[16:18], "big")
    l4 = 14 + ihl
    if tot > len(frame) - 14 or tot < ihl + 8:
        return None
    if frame[23] == 6 and tot >= ihl + 20:
        hl, ck = (frame[l4 + 12] >> 4) * 4, l4 + 16
    elif frame[23] == 17:
        hl, ck = 8, l4 + 6
    else:
        return None
    if hl < 8 or tot - ihl <= hl:
        return None
    return (l4 + hl, tot - ihl - hl, ck)


def udp_dport(frame):
    """The destination port of an untagged IPv4 UDP frame that holds the
    UDP header (not a later fragment), or None."""
    if len(frame) < 34 or frame[12:14] != b"\x08\x00" or frame[14] >> 4 != 4:
        return None
    if frame[23] != 17 or int.from_bytes(frame[20:22], "big") & 0x1FFF:
        return None
    l4 = 14 + (frame[14] & 15) * 4
    if len(frame) < l4 + 8:
        return None
    return int.from_bytes(frame[l4 + 2:l4 + 4], "big")


def ports(text):
    try:
        v = [int(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError("ports: numbers separated by commas")
    if not v or any(not 0 <= x <= 65535 for x in v):
        raise argparse.ArgumentTypeError("ports: 0-65535")
    return frozenset(v)


def offloads_off(ifname):
    for feat in (["gro", "off"], ["gso", "off"], ["tso", "off"], ["tx", "off"]):
        subprocess.run(["ethtool", "-K", ifname] + feat,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def open_sock(ifname):
    # Protocol 0 first: the socket sees nothing until it is bound to ifname.
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)
    for opt, val in ((socket.SO_RCVBUF, BUFSZ), (socket.SO_SNDBUF, BUFSZ)):
        s.setsockopt(socket.SOL_SOCKET, opt, val)
        try:  # beyond rmem_max/wmem_max (needs CAP_NET_ADMIN)
            s.setsockopt(socket.SOL_SOCKET, opt + 32, val)  # SO_*BUFFORCE
        except OSError:
            pass
    try:
        s.setsockopt(SOL_PACKET, PACKET_IGNORE_OUTGOING, 1)
    except OSError:
        pass
    s.setsockopt(SOL_PACKET, PACKET_AUXDATA, 1)
    s.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
    idx = socket.if_nametoindex(ifname)
    s.setsockopt(SOL_PACKET, PACKET_ADD_MEMBERSHIP,
             struct.pack("iHH8s", idx, PACKET_MR_PROMISC, 0, b""))
    s.bind((ifname, ETH_P_ALL))
    s.setblocking(False)
    return s


def report(dirs, out, final):
    lines = []
    for d in dirs:
        c = dict(d.c)
        c["pending"] = d.c["pending"]
        avg = d.late_sum / d.late_n / 1000.0 if d.late_n else 0.0
        kv = " ".join("%s=%d" % (k, v) for k, v in c.items())
        lines.append("%s %s late_avg_us=%.1f late_max_us=%.1f queued_max_us=%.1f impaired=%d"
                     % (d.name, kv, avg, d.late_max / 1000.0, d.age_max / 1000.0, int(d.on)))
    text = "".join(l + "\n" for l in lines)
    if out:
        tmp = out + ".tmp"
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, out)
    if not out or final:
        sys.stderr.write(text)
        sys.stderr.flush()


def main():
    ap = argparse.ArgumentParser(description="netem-like relay between two interfaces")
    ap.add_argument("ifa")
    ap.add_argument("ifb")
    ap.add_argument("--delay", type=float, default=0.0, metavar="MS")
    ap.add_argument("--loss", type=float, default=0.0, metavar="PCT")
    ap.add_argument("--duplicate", type=float, default=0.0, metavar="PCT")
    ap.add_argument("--reorder", type=float, default=0.0, metavar="PCT")
    ap.add_argument("--corrupt", type=float, default=0.0, metavar="PCT")
    ap.add_argument("--dir", choices=("both", "ab", "ba"), default="both")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--udp-dport", type=ports, default=None, metavar="P[,P...]")
    ap.add_argument("--spare", type=int, default=0, metavar="N")
    ap.add_argument("--stats", metavar="FILE")
    ap.add_argument("--pidfile", metavar="FILE",
            help="written once both sockets are bound (readiness)")
    ap.add_argument("--no-ethtool", action="store_true")
    ap.add_argument("--no-rt", action="store_true",
                    help="stay SCHED_OTHER (by default the relay asks for "
                    "SCHED_FIFO so that a due frame leaves on time, as a "
                    "kernel qdisc's timer would send it)")
    a = ap.parse_args()
    for k in ("loss", "duplicate", "reorder", "corrupt"):
        v = getattr(a, k)
        if not 0.0 <= v <= 100.0:
            ap.error("--%s must be 0-100" % k)
    if a.delay < 0:
        ap.error("--delay must be >= 0")
    if a.spare < 0:
        ap.error("--spare must be >= 0")

    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_TIMERSLACK, 1000, 0, 0, 0)
    except (OSError, AttributeError):
        pass
    if not a.no_ethtool:
        offloads_off(a.ifa)
        offloads_off(a.ifb)
    if not a.no_rt:
        try:
            os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(10))
        except (OSError, AttributeError):
            pass
    sa = open_sock(a.ifa)
    sb = open_sock(a.ifb)
    seed = a.seed if a.seed is not None else int.from_bytes(os.urandom(8), "little")
    ab = Dir("ab", sa, sb, a.dir in ("both", "ab"), a, seed * 2 + 1)
    ba = Dir("ba", sb, sa, a.dir in ("both", "ba"), a, seed * 2 + 2)
    by_fd = {sa.fileno(): ab, sb.fileno(): ba}
    dirs = (ab, ba)

    def on_stop(sig, frm):
        raise Stop()

    def on_usr1(sig, frm):
        report(dirs, a.stats, False)

    signal.signal(signal.SIGTERM, on_stop)
    signal.signal(signal.SIGINT, on_stop)
    signal.signal(signal.SIGUSR1, on_usr1)

    if a.pidfile:
        with open(a.pidfile + ".tmp", "w") as f:
            f.write("%d\n" % os.getpid())
        os.replace(a.pidfile + ".tmp", a.pidfile)

    heap = []  # (due_ns, seq, Dir, frame)
    seq = 0
    ancsz = socket.CMSG_SPACE(AUX.size) + socket.CMSG_SPACE(TS.size)
    now_ns = time.time_ns

    def send(d, frame):
        try:
            d.tx.send(frame)
            d.c["forwarded"] += 1
        except BlockingIOError:
            d.c["blocked"] += 1
            # The socket buffer is full: wait for room rather than drop.
            select.select([], [d.tx], [], 0.01)
            try:
                d.tx.send(frame)
                d.c["forwarded"] += 1
            except OSError:
                d.c["errors"] += 1
        except OSError as e:
            d.c["errors"] += 1
            if e.errno in (errno.ENXIO, errno.ENODEV, errno.ENETDOWN):
                gone_check()

    def gone_check():
        for n in (a.ifa, a.ifb):
            try:
                socket.if_nametoindex(n)
            except OSError:
                raise Stop()

    def handle(d, frame, ts):
        nonlocal seq
        d.c["rx"] += 1
        if not d.on or frame[12:14] in (b"\x08\x06", b"\x86\xdd"):
            send(d, frame)
            return
        if d.dports is not None and udp_dport(frame) not in d.dports:
            send(d, frame)
            return
        if d.spare:
            d.spare -= 1
            d.c["spared"] += 1
            send(d, frame)
            return
        pay = l4_payload(frame) if d.corrupt else None
        if pay and d.rng.random() < d.corrupt:
            frame = bytearray(frame)
            frame[pay[2] if d.c["corrupted"] % 2 else pay[0] + pay[1] - 1] ^= 0x04
            frame = bytes(frame)
            d.c["corrupted"] += 1
        n = 1
        if d.dup and d.rng.random() < d.dup:
            n += 1
            d.c["duplicated"] += 1
        if d.loss and d.rng.random() < d.loss:
            n -= 1
            d.c["dropped"] += 1
        if n == 0:
            return
        if d.delay_ns:
            if d.reorder and d.rng.random() < d.reorder:
                d.c["reordered"] += 1
                for _ in range(n):
                    send(d, frame)
                return
            due = ts + d.delay_ns
            for _ in range(n):
                seq += 1
                heapq.heappush(heap, (due, seq, d, frame))
                d.c["pending"] += 1
            return
        if d.held is not None:
            held = d.held[1]
            d.held = None
            for _ in range(n):
                send(d, frame)
            send(d, held)
            return
        if d.reorder and d.rng.random() < d.reorder:
            d.c["reordered"] += 1
            d.held = (now_ns() + SWAP_HOLD_NS, frame)
            for _ in range(n - 1):
                send(d, frame)
            return
        for _ in range(n):
            send(d, frame)

    def drain(d):
        for _ in range(BURST):
            try:
                frame, anc, flags, addr = d.rx.recvmsg(65536, ancsz)
            except BlockingIOError:
                return
            except InterruptedError:
                return
            except OSError as e:
                d.c["errors"] += 1
                if e.errno in (errno.ENXIO, errno.ENODEV, errno.ENETDOWN):
                    gone_check()
                return
            if addr[2] == PACKET_OUTGOING:
                continue
            ts = 0
            for level, typ, data in anc:
                if level == SOL_PACKET and typ == PACKET_AUXDATA and len(data) >= AUX.size:
                    st, _, _, _, _, tci, tpid = AUX.unpack_from(data)
                    if st & TP_STATUS_CSUMNOTREADY:
                        d.c["partial_csum"] += 1
                    if st & TP_STATUS_VLAN_VALID:
                        if not st & TP_STATUS_VLAN_TPID_VALID or not tpid:
                            tpid = 0x8100
                        frame = frame[:12] + struct.pack("!HH", tpid, tci) + frame[12:]
                elif level == socket.SOL_SOCKET and typ == SO_TIMESTAMPNS and len(data) >= TS.size:
                    s, ns = TS.unpack_from(data)
                    ts = s * 1_000_000_000 + ns
            now = now_ns()
            if not ts:
                ts = now
            age = now - ts
            if age < 0 or age > 1_000_000_000:
                # A stamp from another clock: count from now instead.
                d.c["bad_stamp"] += 1
                ts = now
            elif age > d.age_max:
                d.age_max = age
            handle(d, frame, ts)

    rl = [sa, sb]
    try:
        while True:
            now = now_ns()
            while heap and heap[0][0] <= now:
                due, _, d, frame = heapq.heappop(heap)
                d.c["pending"] -= 1
                send(d, frame)
                late = now_ns() - due
                d.late_sum += late
                d.late_n += 1
                if late > d.late_max:
                    d.late_max = late
            wake = heap[0][0] if heap else None
            for d in dirs:
                if d.held is not None:
                    if d.held[0] <= now:
                        send(d, d.held[1])
                        d.held = None
                        d.c["unswapped"] += 1
                    elif wake is None or d.held[0] < wake:
                        wake = d.held[0]
            if wake is None:
                timeout = None
            else:
                timeout = max(0.0, (wake - now_ns()) / 1e9)
            r, _, _ = select.select(rl, [], [], timeout)
            for s in r:
                drain(by_fd[s.fileno()])
    except Stop:
        pass
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    report(dirs, a.stats, True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
