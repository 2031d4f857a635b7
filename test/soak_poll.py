#!/usr/bin/env python3
"""soak_poll.py — the API poller and the judge of `make soak` (test/soak.sh).

poll: polls one flowgen's HTTP API (README, "The HTTP API") with
    POST /flowgen/v1/command {"command": "stats --json"}, HZ times a
    second on a fixed schedule, over one kept-alive HTTP/1.1 connection
    with the bearer token, until the file --stop exists. Every answer is
    timed and judged (status 200, a JSON body with "ok" true and the
    statistics' "global" object); a failure is counted with its reason and
    the connection opened anew. Every EVERY seconds it writes a sample, one
    JSON line: the time since it started, flowgen's VmRSS and Threads
    (/proc/PID/status) and its open descriptors (/proc/PID/fd), the mbufs
    in use summed over the ports' pools at that instant and their mean
    over the polls since the last sample (flowgen(8), STATISTICS,
    mempool), whether the soak was stopping then (--stopping exists),
    and the figures of the last answer (global, ports without xstats,
    flows, latency, workers). At the end it writes --summary: polls,
    answers, errors (and the first reasons), reconnections, the slowest
    answer and when it came, the polls that found short_of_offer set.

judge: reads the samples, the summary and the last `stats --json` the
    console printed after the drain, and prints one line per check, "PASS
    name" or "FAIL name<TAB>reason" (tab-separated), and "FIG name value"
    lines with the figures soak.sh prints; soak.sh counts them with
    lib.sh's pass and fail. The checks are listed in test/soak.sh.

Both run with Python's standard library only.
"""
import argparse
import calendar
import http.client
import json
import os
import signal
import sys
import time


def proc_figures(pid):
    """VmRSS (kB), Threads and the open descriptors of pid; None if gone."""
    rss = thr = None
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    rss = int(line.split()[1])
                elif line.startswith("Threads:"):
                    thr = int(line.split()[1])
        fds = len(os.listdir("/proc/%d/fd" % pid))
    except (OSError, ValueError):
        return None
    return {"rss_kb": rss, "threads": thr, "fds": fds}


def pool_in_use(stats):
    """mbufs in use over the ports' pools, or None when a pool is missing."""
    n = 0
    for p in stats.get("ports", []):
        m = p.get("mempool")
        if not m:
            return None
        n += m["in_use"]
    return n


def reduced(stats):
    """The figures a sample keeps of one answer (no xstats)."""
    out = {k: stats.get(k) for k in ("global", "flows", "latency", "workers")}
    out["ports"] = [{k: v for k, v in p.items() if k != "xstats"} for p in stats.get("ports", [])]
    return out


class Poller:
    def __init__(self, a):
        self.a = a
        self.token = open(a.token_file).read().strip() if a.token_file else None
        self.conn = None
        self.body = json.dumps({"command": "stats --json"}).encode()
        self.polls = self.answers = self.errors = self.reconnects = 0
        self.reasons = []
        self.slowest_ms = self.slowest_run_ms = 0.0
        self.slowest_at = self.slowest_run_at = None
        self.over = {100: 0, 500: 0}
        self.short = []
        self.last = None
        self.window = []

    def connect(self):
        if self.conn is not None:
            self.conn.close()
            self.reconnects += 1
        self.conn = http.client.HTTPConnection("127.0.0.1", self.a.port, timeout=30)

    def error(self, t, why):
        self.errors += 1
        if len(self.reasons) < 10:
            self.reasons.append("t=%.1f s: %s" % (t, why))
        self.connect()

    def poll(self, t):
        hdr = {"Content-Type": "application/json"}
        if self.token:
            hdr["Authorization"] = "Bearer " + self.token
        self.polls += 1
        t0 = time.monotonic()
        try:
            self.conn.request("POST", "/flowgen/v1/command", self.body, hdr)
            r = self.conn.getresponse()
            data = r.read()
        except (OSError, http.client.HTTPException) as e:
            self.error(t, "%s: %s" % (type(e).__name__, e))
            return
        ms = (time.monotonic() - t0) * 1000
        if ms > self.slowest_ms:
            self.slowest_ms, self.slowest_at = ms, round(t, 1)
        if ms > self.slowest_run_ms and not os.path.exists(self.a.stopping):
            self.slowest_run_ms, self.slowest_run_at = ms, round(t, 1)
        for k in self.over:
            self.over[k] += ms > k
        if r.status != 200:
            self.error(t, "status %d: %s" % (r.status, data[:200]))
            return
        try:
            o = json.loads(data)
            stats = o["json"]
            ok = o["ok"] is True and "global" in stats
        except (ValueError, KeyError, TypeError) as e:
            self.error(t, "body: %s: %s" % (e, data[:200]))
            return
        if not ok:
            self.error(t, "not ok: %s" % data[:200])
            return
        self.answers += 1
        self.last = stats
        n = pool_in_use(stats)
        if n is not None:
            self.window.append(n)
        if stats["global"].get("short_of_offer"):
            self.short.append(round(t, 1))

    def sample(self, t, out):
        s = {"t": round(t, 1), "stopping": os.path.exists(self.a.stopping)}
        pf = proc_figures(self.a.pid)
        s.update(pf or {"rss_kb": None, "threads": None, "fds": None})
        s["mempool_in_use"] = pool_in_use(self.last) if self.last else None
        s["mempool_in_use_mean"] = (sum(self.window) / len(self.window)) if self.window else None
        s["mempool_size"] = sum(p["mempool"]["size"] for p in self.last["ports"]) \
            if self.last and s["mempool_in_use"] is not None else None
        s["polls"], s["answers"], s["errors"] = self.polls, self.answers, self.errors
        s["stats"] = reduced(self.last) if self.last else None
        self.window = []
        out.write(json.dumps(s) + "\n")
        out.flush()

    def run(self):
        a = self.a
        period = 1.0 / a.hz
        stop = []
        signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
        self.connect()
        start = time.monotonic()
        k = 0
        next_sample = a.every
        with open(a.out, "w") as out:
            while not stop and not os.path.exists(a.stop):
                t = time.monotonic() - start
                self.poll(t)
                if t >= next_sample:
                    self.sample(t, out)
                    next_sample += a.every
                k += 1
                delay = start + k * period - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
            t = time.monotonic() - start
        summary = {
            "secs": round(t, 1), "hz": a.hz, "polls": self.polls, "answers": self.answers,
            "errors": self.errors, "reasons": self.reasons, "reconnects": self.reconnects,
            "slowest_ms": round(self.slowest_ms, 1), "slowest_at": self.slowest_at,
            "slowest_running_ms": round(self.slowest_run_ms, 1),
            "slowest_running_at": self.slowest_run_at,
            "over_100ms": self.over[100], "over_500ms": self.over[500],
            "short_of_offer_at": self.short,
        }
        with open(a.summary, "w") as f:
            json.dump(summary, f)


# --- judge --------------------------------------------------------------------------


class Judge:
    def __init__(self, a):
        self.a = a
        self.name = a.name

    def check(self, name, ok, why=""):
        name = "%s: %s" % (self.name, name)
        if ok:
            print("PASS\t%s" % name)
        else:
            print("FAIL\t%s\t%s" % (name, str(why).replace("\t", " ").replace("\n", " ")[:400]))

    def fig(self, name, value):
        print("FIG\t%s\t%s" % (name, value))

    def run(self):
        a = self.a
        samples = [json.loads(line) for line in open(a.samples) if line.strip()]
        summ = json.load(open(a.summary))
        final = last_stats(open(a.final).read())
        # the traffic's time: its first test frame (stats: first_frame, after
        # a streams run's learning phase) to the `stop`
        ff = final["global"]["first_frame"]
        self.check("the run's first frame is known", ff is not None, "first_frame null")
        a.run_secs = a.stop_at - rfc3339(ff) if ff else 0
        self.fig("%s.run_secs" % self.name, "%.1f" % a.run_secs)
        running = [s for s in samples if not s["stopping"]]
        warm = [s for s in running if s["t"] >= a.warm]
        self.check("sampled every %d s while running (%d samples)" % (a.every, len(running)),
                   len(running) >= int(a.secs / a.every) - 1,
                   "%d samples in %d s" % (len(running), a.secs))
        self.check("3 samples or more after the %d s warm-up" % a.warm, len(warm) >= 3,
                   "%d samples" % len(warm))
        self.check("flowgen's status and descriptors read at every sample",
                   all(s["rss_kb"] and s["fds"] and s["threads"] for s in samples),
                   [s["t"] for s in samples if not s["rss_kb"]])
        if len(warm) >= 3:
            self.flat(warm)
        self.figures(running, warm)
        self.api(summ)
        self.counters(final, warm)
        if a.kind == "flows":
            self.flows(final)
        else:
            self.streams(final)
        if a.offer_checked:
            short = [t for t in summ["short_of_offer_at"] if a.warm <= t <= a.secs]
            self.check("short_of_offer never set after the warm-up while running",
                       not short, "%d polls found it set, first at t=%s s" %
                       (len(short), short[:1]))

    def flat(self, warm):
        a = self.a
        base = warm[0]
        lo = min(s["rss_kb"] for s in warm)
        hi = max(s["rss_kb"] for s in warm)
        self.check("RSS after warm-up within +-%g %% of its first sample (%d kB): %d..%d kB" %
                   (a.rss_pct, base["rss_kb"], lo, hi),
                   lo * 100 >= base["rss_kb"] * (100 - a.rss_pct) and
                   hi * 100 <= base["rss_kb"] * (100 + a.rss_pct),
                   "series (t:kB): %s" % " ".join("%d:%d" % (s["t"], s["rss_kb"]) for s in warm))
        for k, what in (("fds", "open descriptors"), ("threads", "threads")):
            vals = sorted({s[k] for s in warm})
            self.check("%s after warm-up exactly constant (%s)" % (what, vals[0]),
                       len(vals) == 1,
                       "values %s; series %s" % (vals, " ".join("%d:%d" % (s["t"], s[k])
                                                                for s in warm)))
        # mempool: no growth trend, the last third's mean against the first's
        means = [s["mempool_in_use_mean"] for s in warm]
        if any(m is None for m in means):
            self.check("mbufs in use read at every sample after warm-up", False,
                       "a sample without every port's mempool")
            return
        k = max(1, len(means) // 3)
        first, last = sum(means[:k]) / k, sum(means[-k:]) / k
        bound = max(a.pool_slack, first * a.pool_pct / 100)
        self.check("mbufs in use bounded: last third's mean %.1f <= first third's %.1f + %.0f" %
                   (last, first, bound), last <= first + bound,
                   "series (t:mean): %s" % " ".join("%d:%.1f" % (s["t"], s["mempool_in_use_mean"])
                                                    for s in warm))
        size = warm[0]["mempool_size"]
        top = max(s["mempool_in_use"] for s in warm)
        self.check("mbufs in use at every sample below a quarter of the pools (%d of %d at most)" %
                   (top, size), top * 4 < size, "max %d of %d" % (top, size))

    def figures(self, running, warm):
        """start (first sample), warm (first after warm-up), middle, end (last running)."""
        if not running:
            return
        mid = warm[len(warm) // 2] if warm else running[len(running) // 2]
        pts = [("start", running[0]), ("warm", warm[0] if warm else running[0]),
               ("middle", mid), ("end", running[-1])]
        for k in ("rss_kb", "fds", "threads", "mempool_in_use", "mempool_in_use_mean"):
            self.fig("%s.%s" % (self.name, k), " ".join(
                "%s@%ds=%s" % (n, s["t"], ("%.1f" % s[k]) if isinstance(s[k], float) else s[k])
                for n, s in pts))
        self.fig("%s.mempool_size" % self.name, running[-1]["mempool_size"])

    def api(self, summ):
        a = self.a
        want = a.hz * summ["secs"]
        self.fig("%s.api" % self.name, "%d polls in %.0f s, %d answered, %d errors, %d reconnects; "
                 "slowest %.1f ms at t=%s s (while running %.1f ms at t=%s s); %d over 100 ms, "
                 "%d over 500 ms" % (summ["polls"], summ["secs"], summ["answers"], summ["errors"],
                                     summ["reconnects"], summ["slowest_ms"], summ["slowest_at"],
                                     summ["slowest_running_ms"], summ["slowest_running_at"],
                                     summ["over_100ms"], summ["over_500ms"]))
        self.check("API polled %g times a second for the whole soak (%d polls in %.0f s)" %
                   (a.hz, summ["polls"], summ["secs"]), summ["polls"] >= 0.98 * want,
                   "%d polls, %.0f wanted" % (summ["polls"], want))
        self.check("every poll answered: %d of %d, 0 errors, 0 reconnects" %
                   (summ["answers"], summ["polls"]),
                   summ["answers"] == summ["polls"] and summ["errors"] == 0 and
                   summ["reconnects"] == 0,
                   "%d errors, %d reconnects: %s" % (summ["errors"], summ["reconnects"],
                                                     "; ".join(summ["reasons"])))
        self.check("slowest answer %.1f ms <= %d ms, `stop` and the drain included" % (
            summ["slowest_ms"], a.slowest_ms), summ["slowest_ms"] <= a.slowest_ms,
            "at t=%s s (while running: %.1f ms)" % (summ["slowest_at"], summ["slowest_running_ms"]))

    def counters(self, final, warm):
        """Counters that must not grow: 0 at the end, so flat all along."""
        for p in final["ports"]:
            self.fig("%s.port%d" % (self.name, p["port"]), "tx %d, rx %d, rx_unknown %d, punt %d" % (
                p["tx_pkts"], p["rx_pkts"], p["rx_unknown"], p["punt"]))
            for k in ("rx_bad", "mbuf_fail", "punt_drop", "tx_queue_full", "oerrors", "ierrors",
                      "imissed"):
                self.check("port %d %s stays 0" % (p["port"], k), p[k] == 0,
                           "%s = %s at the end; after warm-up: %s" % (
                               k, p[k], " ".join("%d:%s" % (s["t"], s["stats"]["ports"][p["port"]][k])
                                                 for s in warm)))
        for w in final["workers"]:
            self.fig("%s.worker%d" % (self.name, w["id"]), "stalls %d, stalled %.1f ms, beyond the "
                     "pacer's bound %.1f ms, longest %.1f ms" % (
                         w["stalls"], w["stalled_ms"], w["stall_late_ms"], w["stall_max_ms"]))

    def late_bound(self, final, rate):
        """Late events a stall of the machine explains (77_stall.sh): the
        pacer drops what fell due beyond its backlog bound, rate x that time."""
        ms = sum(w["stall_late_ms"] for w in final["workers"])
        return int(rate * ms / 1000 + 2) if ms > 0 else 0, ms

    def flows(self, final):
        a = self.a
        c, v = final["flows"]["client"], final["flows"]["server"]
        self.fig("%s.flows" % self.name, "started %d, completed %d, failed %d (no reply %d, reset %d, "
                 "retx %d, table full %d), active %d; server accepted %d, completed %d; late %d" % (
                     c["started"], c["completed"], c["failed"], c["fail_no_reply"], c["fail_reset"],
                     c["fail_retx"], c["fail_table_full"], c["active"], v["accepted"],
                     v["completed"], c["late"]))
        self.check("books balance: started %d = completed %d + failed %d + active %d" % (
            c["started"], c["completed"], c["failed"], c["active"]),
            c["started"] == c["completed"] + c["failed"] + c["active"], "")
        self.check("no flow active after stop and the drain", c["active"] == 0 and v["active"] == 0,
                   "client %d, server %d" % (c["active"], v["active"]))
        want = a.cps * a.run_secs
        self.check("flows started at the offer: %d of %.0f (+-2 %%)" % (c["started"], want),
                   abs(c["started"] - want) <= 0.02 * want, "")
        self.check("flows failed <= %g %% of those started (%d of %d)" % (
            a.fail_pct, c["failed"], c["started"]),
            c["failed"] * 100 <= a.fail_pct * c["started"], "")
        self.check("the server accepted each started flow that did not fail (%d)" % v["accepted"],
                   c["started"] - c["failed"] <= v["accepted"] <= c["started"], "")
        bound, ms = self.late_bound(final, a.cps)
        self.check("no late flow but what the machine's stalls explain (%d <= %d; %.1f ms beyond "
                   "the bound)" % (c["late"], bound, ms), c["late"] <= bound, "")

    def streams(self, final):
        a = self.a
        rows = final["latency"]
        self.check("a latency row per direction", len(rows) == 2, rows)
        for r in rows:
            n = "stream %s to port %d" % (r["stream"], r["port"])
            self.fig("%s.%s" % (self.name, n.replace(" ", "_")),
                     "tx %d, rx %d, lost %d, dup %d, ooo %d, late %d, tx_dropped %d, stale %d, "
                     "latency avg %s us, max %s us" % (
                         r["tx"], r["rx"], r["lost"], r["dup"], r["ooo"], r["late"],
                         r["tx_dropped"], r["stale"], r["avg_us"], r["max_us"]))
            self.check("%s: sent = received + lost (%d = %d + %d)" % (n, r["tx"], r["rx"], r["lost"]),
                       r["tx"] == r["rx"] + r["lost"], "")
            self.check("%s: nothing lost, duplicated, refused or stale" % n,
                       r["lost"] == 0 and r["dup"] == 0 and r["tx_dropped"] == 0 and r["stale"] == 0,
                       "lost %d, dup %d, tx_dropped %d, stale %d" % (r["lost"], r["dup"],
                                                                     r["tx_dropped"], r["stale"]))
            want = a.pps * a.run_secs
            self.check("%s: sent at the offer: %d of %.0f (+-2 %%)" % (n, r["tx"], want),
                       abs(r["tx"] - want) <= 0.02 * want, "")
            bound, ms = self.late_bound(final, a.pps)
            self.check("%s: no late frame but what the machine's stalls explain (%d <= %d)" % (
                n, r["late"], bound), r["late"] <= bound, "%.1f ms beyond the bound" % ms)


def rfc3339(t):
    """Seconds since the epoch of stats' "2026-12-05T07:01:02.250000000Z"."""
    day, frac = t.rstrip("Z").split(".") if "." in t else (t.rstrip("Z"), "0")
    return calendar.timegm(time.strptime(day, "%Y-%m-%dT%H:%M:%S")) + float("0." + frac)


def last_stats(text):
    """The last `stats --json` object in a console's output."""
    i = text.rfind('{"global"')
    if i < 0:
        raise SystemExit("no stats --json object")
    return json.JSONDecoder().raw_decode(text, i)[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="mode", required=True)
    p = sub.add_parser("poll")
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--token-file")
    p.add_argument("--pid", type=int, required=True)
    p.add_argument("--hz", type=float, default=10)
    p.add_argument("--every", type=float, default=10)
    p.add_argument("--out", required=True)
    p.add_argument("--summary", required=True)
    p.add_argument("--stop", required=True)
    p.add_argument("--stopping", required=True)
    j = sub.add_parser("judge")
    j.add_argument("--name", required=True)
    j.add_argument("--kind", choices=("flows", "streams"), required=True)
    j.add_argument("--samples", required=True)
    j.add_argument("--summary", required=True)
    j.add_argument("--final", required=True)
    j.add_argument("--hz", type=float, default=10)
    j.add_argument("--every", type=float, default=10)
    j.add_argument("--secs", type=float, required=True)
    j.add_argument("--warm", type=float, required=True)
    j.add_argument("--cps", type=float, default=0)
    j.add_argument("--pps", type=float, default=0)
    j.add_argument("--rss-pct", type=float, default=5)
    j.add_argument("--pool-slack", type=float, default=64)
    j.add_argument("--pool-pct", type=float, default=10)
    j.add_argument("--fail-pct", type=float, default=0.01)
    j.add_argument("--slowest-ms", type=float, default=500)
    j.add_argument("--stop-at", type=float, required=True)
    j.add_argument("--offer-checked", type=int, default=1)
    a = ap.parse_args()
    if a.mode == "poll":
        Poller(a).run()
    else:
        Judge(a).run()


if __name__ == "__main__":
    main()
