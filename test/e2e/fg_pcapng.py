#!/usr/bin/env python3
"""fg_pcapng.py — the receive times of the frames in a pcapng file (what
dumpcap writes), as tshark's frame.time_epoch prints them, one a line:
seconds since the epoch and nine digits of fraction. As a module: the
frames themselves (frames()) and their IPv4 UDP headers (udp4()).

  fg_pcapng.py FILE

Reads the blocks of the pcapng format (draft-ietf-opsawg-pcapng): the
Section Header Block (its byte order), each Interface Description Block
(its if_tsresol option, 10^-6 s when absent) and each Enhanced Packet
Block (its interface, 64-bit timestamp and captured bytes). Other
blocks are skipped. A file cut short ends the list where the cut is.
tshark does the same in seconds of start-up (5 to 7 s each on a loaded
machine here); this reads ten thousand frames in a fraction of one.
"""
import struct
import sys


def frames(path):
    """The Enhanced Packet Blocks: (timestamp in ns since the epoch, the
    captured bytes) each, in the file's order."""
    out = []
    res = []  # per interface: (units per second, is a power of two)
    end = "<"
    with open(path, "rb") as f:
        data = f.read()
    pos = 0
    while pos + 12 <= len(data):
        btype = struct.unpack_from(end + "I", data, pos)[0]
        if btype == 0x0A0D0D0A:
            magic = data[pos + 8:pos + 12]
            end = "<" if magic == b"\x4d\x3c\x2b\x1a" else ">"
            res = []
        blen = struct.unpack_from(end + "I", data, pos + 4)[0]
        if blen < 12 or pos + blen > len(data):
            break
        body = data[pos + 8:pos + blen - 4]
        if btype == 1 and len(body) >= 8:
            units = 10**6
            opt = 8
            while opt + 4 <= len(body):
                code, olen = struct.unpack_from(end + "HH", body, opt)
                if code == 0:
                    break
                if code == 9 and olen >= 1:
                    v = body[opt + 4]
                    units = 2**(v & 0x7F) if v & 0x80 else 10**v
                opt += 4 + (olen + 3) // 4 * 4
            res.append(units)
        elif btype == 6 and len(body) >= 20:
            ifid, hi, lo, caplen = struct.unpack_from(end + "IIII", body, 0)
            units = res[ifid] if ifid < len(res) else 10**6
            ts = (hi << 32) | lo
            out.append((ts * 10**9 // units, body[20:20 + caplen]))
        pos += blen
    return out


def times(path):
    """The Enhanced Packet Blocks' timestamps, in ns since the epoch."""
    return [ns for ns, _ in frames(path)]


def udp4(frame):
    """An Ethernet frame's IPv4 UDP header as (source address, source
    port, destination address, destination port), the addresses dotted;
    None for anything else (another protocol, a fragment past the first,
    a frame cut short). One 802.1Q tag is stepped over."""
    off = 12
    if len(frame) >= 18 and frame[12:14] == b"\x81\x00":
        off = 16
    if len(frame) < off + 2 or frame[off:off + 2] != b"\x08\x00":
        return None
    ip = off + 2
    if len(frame) < ip + 20 or frame[ip] >> 4 != 4 or frame[ip + 9] != 17:
        return None
    if struct.unpack_from(">H", frame, ip + 6)[0] & 0x1FFF:
        return None
    l4 = ip + (frame[ip] & 0x0F) * 4
    if len(frame) < l4 + 4:
        return None
    sport, dport = struct.unpack_from(">HH", frame, l4)
    return (".".join(map(str, frame[ip + 12:ip + 16])), sport,
            ".".join(map(str, frame[ip + 16:ip + 20])), dport)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    for ns in times(sys.argv[1]):
        print("%d.%09d" % divmod(ns, 10**9))


if __name__ == "__main__":
    main()
