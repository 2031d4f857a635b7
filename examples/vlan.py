#!/usr/bin/env python3
#
# vlan.py — an IEEE 802.1Q trunk for the lab (examples/lab.sh, flavour
# `vlan`) on a kernel that has neither the 8021q module nor bridge VLAN
# filtering. It joins pairs of interfaces of one network namespace with
# AF_PACKET raw sockets; each pair TRUNK:ACCESS:ID is one access port of a
# switch:
#
#   TRUNK -> ACCESS  frames tagged with ID lose the tag; frames with another
#                    tag or none are dropped (counted)
#   ACCESS -> TRUNK  untagged frames get the tag ID (priority 0); tagged
#                    ones are dropped (counted)
#
# The kernel hands a received tag over as metadata (PACKET_AUXDATA), not in
# the frame; it is read from there, and from the frame when it is still in
# it. The relay never forwards its own transmissions
# (PACKET_IGNORE_OUTGOING, and PACKET_OUTGOING frames are skipped).
#
# Counters per pair and direction go to --stats FILE (or stderr) on
# SIGTERM/SIGINT, and to --stats FILE on SIGUSR1 without stopping:
#   PAIR down rx N forwarded N untagged N wrong_tag N
#   PAIR up rx N forwarded N tagged N
# (down = trunk to access, up = access to trunk).
#
# Usage: vlan.py [--stats FILE] [--pidfile FILE] TRUNK:ACCESS:ID...

import argparse
import errno
import os
import select
import signal
import socket
import struct
import subprocess
import sys

ETH_P_ALL = 0x0003
SOL_PACKET = 263
PACKET_ADD_MEMBERSHIP = 1
PACKET_MR_PROMISC = 1
PACKET_AUXDATA = 8
PACKET_IGNORE_OUTGOING = 23
PACKET_OUTGOING = 4
TP_STATUS_VLAN_VALID = 1 << 4
AUX = struct.Struct("IIIHHHH")
TPIDS = (b"\x81\x00", b"\x88\xa8")
BURST = 64


class Stop(Exception):
    pass


def open_sock(ifname):
    # Protocol 0 first: the socket sees nothing until it is bound to ifname.
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)
    try:
        s.setsockopt(SOL_PACKET, PACKET_IGNORE_OUTGOING, 1)
    except OSError:
        pass
    s.setsockopt(SOL_PACKET, PACKET_AUXDATA, 1)
    idx = socket.if_nametoindex(ifname)
    s.setsockopt(SOL_PACKET, PACKET_ADD_MEMBERSHIP,
                 struct.pack("iHH8s", idx, PACKET_MR_PROMISC, 0, b""))
    s.bind((ifname, ETH_P_ALL))
    s.setblocking(False)
    return s


class Side:
    """One direction of one pair: frames read on rx, written to tx."""

    def __init__(self, name, rx, tx, vid, down):
        self.name = name
        self.rx = rx
        self.tx = tx
        self.vid = vid
        self.down = down  # trunk -> access
        self.c = dict(rx=0, forwarded=0, untagged=0, wrong_tag=0, tagged=0, errors=0)

    def line(self):
        keys = ("rx", "forwarded", "untagged", "wrong_tag") if self.down else \
            ("rx", "forwarded", "tagged")
        return "%s %s %s" % (self.name, "down" if self.down else "up",
                             " ".join("%s %d" % (k, self.c[k]) for k in keys + ("errors",)))

    def handle(self, frame, tci):
        """tci: the tag the kernel took off, or None."""
        self.c["rx"] += 1
        if tci is None and len(frame) >= 18 and frame[12:14] in TPIDS:
            tci = struct.unpack_from("!H", frame, 14)[0]
            frame = frame[:12] + frame[16:]
        if self.down:
            if tci is None:
                self.c["untagged"] += 1
                return
            if tci & 0xfff != self.vid:
                self.c["wrong_tag"] += 1
                return
        else:
            if tci is not None:
                self.c["tagged"] += 1
                return
            frame = frame[:12] + struct.pack("!HH", 0x8100, self.vid) + frame[12:]
        try:
            self.tx.send(frame)
            self.c["forwarded"] += 1
        except OSError as e:
            self.c["errors"] += 1
            if e.errno in (errno.ENXIO, errno.ENODEV, errno.ENETDOWN):
                raise Stop()


def report(sides, out, final):
    text = "".join(s.line() + "\n" for s in sides)
    if out:
        with open(out + ".tmp", "w") as f:
            f.write(text)
        os.replace(out + ".tmp", out)
    if final and not out:
        sys.stderr.write(text)


def main():
    ap = argparse.ArgumentParser(description="802.1Q access ports on raw sockets")
    ap.add_argument("pairs", nargs="+", metavar="TRUNK:ACCESS:ID")
    ap.add_argument("--stats", metavar="FILE")
    ap.add_argument("--pidfile", metavar="FILE",
                    help="written once every socket is bound (readiness)")
    a = ap.parse_args()
    sides = []
    for p in a.pairs:
        parts = p.split(":")
        if len(parts) != 3 or not parts[2].isdigit() or not 1 <= int(parts[2]) <= 4094:
            ap.error("'%s': want TRUNK:ACCESS:ID with ID 1-4094" % p)
        trunk, access, vid = parts[0], parts[1], int(parts[2])
        for ifn in (trunk, access):
            # frames as frames: no aggregation, complete checksums
            for feat in (["gro", "off"], ["gso", "off"], ["tso", "off"], ["tx", "off"]):
                subprocess.run(["ethtool", "-K", ifn] + feat,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        st, sa = open_sock(trunk), open_sock(access)
        sides.append(Side("%s:%s" % (trunk, access), st, sa, vid, True))
        sides.append(Side("%s:%s" % (trunk, access), sa, st, vid, False))
    by_fd = {s.rx.fileno(): s for s in sides}

    def on_stop(sig, frm):
        raise Stop()

    signal.signal(signal.SIGTERM, on_stop)
    signal.signal(signal.SIGINT, on_stop)
    signal.signal(signal.SIGUSR1, lambda sig, frm: report(sides, a.stats, False))
    if a.pidfile:
        with open(a.pidfile + ".tmp", "w") as f:
            f.write("%d\n" % os.getpid())
        os.replace(a.pidfile + ".tmp", a.pidfile)

    ancsz = socket.CMSG_SPACE(AUX.size)
    rl = [s.rx for s in sides]
    try:
        while True:
            try:
                ready, _, _ = select.select(rl, [], [], 1.0)
            except InterruptedError:
                continue
            for sock in ready:
                s = by_fd[sock.fileno()]
                for _ in range(BURST):
                    try:
                        frame, anc, flags, addr = sock.recvmsg(65536, ancsz)
                    except (BlockingIOError, InterruptedError):
                        break
                    except OSError as e:
                        s.c["errors"] += 1
                        if e.errno in (errno.ENXIO, errno.ENODEV, errno.ENETDOWN):
                            raise Stop()
                        break
                    if addr[2] == PACKET_OUTGOING:
                        continue
                    tci = None
                    for level, typ, data in anc:
                        if level == SOL_PACKET and typ == PACKET_AUXDATA and len(data) >= AUX.size:
                            st, _, _, _, _, t, _ = AUX.unpack_from(data)
                            if st & TP_STATUS_VLAN_VALID:
                                tci = t
                    s.handle(frame, tci)
    except Stop:
        pass
    report(sides, a.stats, True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
