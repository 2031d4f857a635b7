#!/usr/bin/env python3
"""fg_slew.py — run the system clock (CLOCK_REALTIME) fast or slow of the
TSC for a while, as chrony does while it slews out an offset, and put it
back (adjtimex(2)).

  fg_slew.py set TICK STATE   the kernel's tick (us of system clock per
                              10 ms, 10000 at rest) set to TICK: 10050 runs
                              the clock 0.5 % fast, 9950 0.5 % slow; the
                              tick and both clocks as they were go to STATE
  fg_slew.py restore STATE    the tick back as STATE has it, and the offset
                              the slew ran up taken back in one step
                              (ADJ_SETOFFSET); STATE removed. Nothing to do
                              without STATE.

Prints the tick set, or the offset taken back in ns. Exits 1 with the
reason when adjtimex refuses (no CAP_SYS_TIME).
"""
import ctypes
import os
import sys
import time

ADJ_SETOFFSET = 0x0100
ADJ_NANO = 0x2000
ADJ_TICK = 0x4000


class Timeval(ctypes.Structure):
    _fields_ = [("sec", ctypes.c_long), ("usec", ctypes.c_long)]


class Timex(ctypes.Structure):
    # struct timex of <sys/timex.h> (x86-64 and arm64: longs are 64-bit)
    _fields_ = [("modes", ctypes.c_uint), ("offset", ctypes.c_long), ("freq", ctypes.c_long),
                ("maxerror", ctypes.c_long), ("esterror", ctypes.c_long), ("status", ctypes.c_int),
                ("constant", ctypes.c_long), ("precision", ctypes.c_long),
                ("tolerance", ctypes.c_long), ("time", Timeval), ("tick", ctypes.c_long),
                ("ppsfreq", ctypes.c_long), ("jitter", ctypes.c_long), ("shift", ctypes.c_int),
                ("stabil", ctypes.c_long), ("jitcnt", ctypes.c_long), ("calcnt", ctypes.c_long),
                ("errcnt", ctypes.c_long), ("stbcnt", ctypes.c_long), ("tai", ctypes.c_int),
                ("pad", ctypes.c_int * 11)]


LIBC = ctypes.CDLL(None, use_errno=True)


def adjtimex(t):
    if LIBC.adjtimex(ctypes.byref(t)) < 0:
        e = ctypes.get_errno()
        sys.exit("adjtimex: %s" % os.strerror(e))
    return t


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "set":
        now = adjtimex(Timex())
        raw = time.clock_gettime_ns(time.CLOCK_MONOTONIC_RAW)
        with open(sys.argv[3], "w") as f:
            f.write("%d %d\n" % (now.tick, raw))
        adjtimex(Timex(modes=ADJ_TICK, tick=int(sys.argv[2])))
        print(adjtimex(Timex()).tick)
    elif len(sys.argv) == 3 and sys.argv[1] == "restore":
        try:
            tick0, raw0 = map(int, open(sys.argv[2]).read().split())
        except OSError:
            return
        tick = adjtimex(Timex()).tick
        adjtimex(Timex(modes=ADJ_TICK, tick=tick0))
        raw = time.clock_gettime_ns(time.CLOCK_MONOTONIC_RAW)
        # what the slewed tick added to the system clock since it was set
        extra = (raw - raw0) * (tick - tick0) // tick0
        back = -extra
        sec, ns = divmod(back, 10**9)  # ns in [0, 1e9), as the kernel wants
        adjtimex(Timex(modes=ADJ_SETOFFSET | ADJ_NANO, time=Timeval(sec, ns)))
        os.unlink(sys.argv[2])
        print(back)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
