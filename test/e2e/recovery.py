#!/usr/bin/env python3
"""recovery.py -- how soon traffic is back at its rate after a fault, read
from a record (flowgen(8), --record: one JSON line of the figures per
interval, each with its Unix time "t").

  recovery.py RECORD KEY FAULT BACK [--frac F] [--skip N]

KEY is a dotted path into each line's "stats" object whose value only grows
(a counter): global.rx_pkts, ports.1.rx_pkts, flows.client.completed ...
FAULT and BACK are Unix times: the fault began, the device was back. The
rate of an interval is the counter's growth over the time between two
consecutive lines. Printed, as one JSON object:

  before      the median rate of the intervals that end before FAULT (the
              first N running intervals, --skip, default 2, left out: the
              learning phase and the first interval's partial second)
  during      the lowest rate of the intervals wholly inside [FAULT, BACK]
              (null when none is)
  back_s      from BACK to the end of the first interval that starts at or
              after BACK and whose rate is at least F x before (default
              0.9); null if none is
  intervals   how many intervals were read, and their longest span (s)

Nothing is judged here: the test compares the figures with its bounds.
"""
import json
import statistics
import sys


def value(stats, path):
    o = stats
    for k in path.split("."):
        o = o[int(k)] if isinstance(o, list) else o[k]
    return o


def main(argv):
    args = argv[1:]
    frac, skip = 0.9, 2
    if "--frac" in args:
        i = args.index("--frac")
        frac = float(args[i + 1])
        del args[i:i + 2]
    if "--skip" in args:
        i = args.index("--skip")
        skip = int(args[i + 1])
        del args[i:i + 2]
    if len(args) != 4:
        sys.exit(__doc__)
    path, key, fault, back = args[0], args[1], float(args[2]), float(args[3])
    pts = []
    for line in open(path):
        try:
            d = json.loads(line)
        except ValueError:
            continue
        if d.get("state") != "running":
            continue
        pts.append((d["t"], value(d["stats"], key)))
    rates = [(a[0], b[0], (b[1] - a[1]) / (b[0] - a[0]))
             for a, b in zip(pts, pts[1:]) if b[0] > a[0]]
    pre = [r for t0, t1, r in rates[skip:] if t1 <= fault]
    during = [r for t0, t1, r in rates if t0 >= fault and t1 <= back]
    before = statistics.median(pre) if pre else None
    back_s = None
    if before:
        for t0, t1, r in rates:
            if t0 >= back and r >= frac * before:
                back_s = round(t1 - back, 3)
                break
    print(json.dumps({
        "before": before,
        "during": min(during) if during else None,
        "back_s": back_s,
        "intervals": len(rates),
        "longest_s": round(max((t1 - t0 for t0, t1, _ in rates), default=0), 3),
    }))


if __name__ == "__main__":
    main(sys.argv)
