#!/usr/bin/env python3
"""several.py — one test over several flowgen instances (README, "Several
machines"; flowgen(8), API), with the Python standard library only:
each instance gets its own share of the load over the API, all start at
one instant of the system clock (start --at), and the figures are read
back through the Prometheus server that scrapes them (GET /metrics).

    examples/several.py --prometheus URL [--profile PATH] [-m M[,M...]]
        [-d SECS] [--at-delay SECS] [--token-file F] [--cacert F | --insecure]
        URL...

Each URL is one flowgen started with --api (https://host:8443 with
--api-cert/--api-key/--api-token-file, or http://127.0.0.1:8080). PATH is
a profile on the instances' own file system (the image holds the shipped
ones under /usr/share/flowgen/profiles); -m gives one multiplier for all,
or one per instance (complementary loads). The script:
  1. reads each instance's `instance` label from its /metrics;
  2. starts the profile on every instance with one `--at`, SECS ahead;
  3. waits until every instance is idle again;
  4. waits until Prometheus has scraped every instance after the end;
  5. prints, per instance and summed, the frames sent and received and
     the client flows completed, as each instance's `stats --json` gives
     them and as PromQL gives them, and each one's first frame against
     the planned start.
It exits 0 when PromQL's figures equal the instances' own, 1 when they
differ, 2 when an instance or the server cannot be reached or refuses.
"""

import argparse
import datetime
import json
import ssl
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request


class Api:
    """A JSON-over-HTTP endpoint: a flowgen instance or the Prometheus server."""

    def __init__(self, url, token=None, ctx=None):
        self.url = url.rstrip("/")
        self.token = token
        self.ctx = ctx

    def raw(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.url + path, data=data, method=method)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        if self.token:
            req.add_header("Authorization", "Bearer " + self.token)
        try:
            with urllib.request.urlopen(req, timeout=70, context=self.ctx) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()

    def command(self, cmd):
        """POST /flowgen/v1/command; the reply object (ok, output, json, error)."""
        st, text = self.raw("POST", "/flowgen/v1/command", {"command": cmd})
        reply = json.loads(text)
        if st != 200 or not reply.get("ok"):
            raise RuntimeError("%s: %r: %s" % (self.url, cmd, reply.get("error") or reply))
        return reply

    def instance_label(self):
        st, text = self.raw("GET", "/metrics")
        if st != 200:
            raise RuntimeError("%s/metrics: HTTP %d" % (self.url, st))
        for line in text.splitlines():
            if line.startswith("flowgen_build_info{"):
                labels = line[line.index("{") + 1:line.rindex("}")]
                for part in labels.split(","):
                    k, _, v = part.partition("=")
                    if k == "instance":
                        return json.loads(v)
        raise RuntimeError("%s/metrics: no instance label" % self.url)


def promql(prom, query):
    """The query's vector as {instance: value}, or {None: value} for a sum."""
    st, text = prom.raw("GET", "/api/v1/query?" + urllib.parse.urlencode({"query": query}))
    o = json.loads(text)
    if st != 200 or o.get("status") != "success":
        raise RuntimeError("PromQL %r: %s" % (query, text[:300]))
    return {r["metric"].get("instance"): float(r["value"][1]) for r in o["data"]["result"]}


def rfc3339(t):
    return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime(
        "%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("urls", nargs="+", metavar="URL")
    ap.add_argument("--prometheus", required=True, help="the server's URL")
    ap.add_argument("--profile", default="/usr/share/flowgen/profiles/udp_short.yaml")
    ap.add_argument("-m", default="1", help="M, or M1,M2,... one per instance")
    ap.add_argument("-d", type=float, default=10, help="the run's seconds")
    ap.add_argument("--at-delay", type=float, default=2, help="seconds from now to the start")
    ap.add_argument("--token-file")
    ap.add_argument("--cacert")
    ap.add_argument("--insecure", action="store_true")
    a = ap.parse_args()

    mults = a.m.split(",")
    if len(mults) not in (1, len(a.urls)):
        ap.error("-m takes one value or one per instance")
    token = open(a.token_file).readline().strip() if a.token_file else None
    ctx = ssl.create_default_context(cafile=a.cacert) if a.cacert else None
    if a.insecure:
        ctx = ssl.create_default_context()
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
    fgs = [Api(u, token, ctx) for u in a.urls]
    prom = Api(a.prometheus)
    names = [f.instance_label() for f in fgs]
    at = time.time() + a.at_delay
    # posted at once, one thread each: an answer can take a while on a
    # loaded host, and a start that arrives after its time is refused
    errs = []

    def start(i, f):
        try:
            f.command("start -f %s -m %s -d %g --at %s"
                      % (a.profile, mults[i % len(mults)], a.d, rfc3339(at)))
        except (RuntimeError, OSError, ValueError) as e:
            errs.append(e)

    ts = [threading.Thread(target=start, args=(i, f)) for i, f in enumerate(fgs)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    if errs:
        raise RuntimeError(errs[0])
    # idle again: `wait` in slices the API's 60 s answers within
    for f in fgs:
        while not f.command("wait 30")["json"]["idle"]:
            pass
    end = time.time()
    own = [f.command("stats --json")["json"] for f in fgs]
    sel = "{instance=~\"%s\"}" % "|".join(n.replace(".", "\\\\.") for n in names)
    deadline = time.time() + 30
    while time.time() < deadline:
        seen = promql(prom, "timestamp(flowgen_build_info%s) > %f" % (sel, end))
        if len(seen) == len(names):
            break
        time.sleep(0.5)
    else:
        raise RuntimeError("Prometheus has not scraped every instance since the end")
    figs = [
        ("tx frames", "flowgen_tx_frames_total%s" % sel, lambda s: s["global"]["tx_pkts"]),
        ("rx frames", "flowgen_rx_frames_total%s" % sel, lambda s: s["global"]["rx_pkts"]),
        ("flows completed", "flowgen_flows_completed_total{side=\"client\",%s}" % sel[1:-1],
         lambda s: s["flows"]["client"]["completed"]),
    ]
    same = True
    print("start at %s (planned for every instance)" % rfc3339(at))
    print("%-20s %-16s %14s %14s" % ("instance", "figure", "stats --json", "PromQL"))
    for label, expr, get in figs:
        by = promql(prom, "sum by (instance) (%s)" % expr)
        tot_own = tot_prom = 0
        for n, s in zip(names, own):
            o, p = get(s), by.get(n, float("nan"))
            tot_own += o
            tot_prom += p
            same &= o == p
            print("%-20s %-16s %14d %14.0f" % (n, label, o, p))
        # the sum across instances, as a dashboard asks for it
        total = list(promql(prom, "sum(%s)" % expr).values())
        same &= total == [tot_own]
        print("%-20s %-16s %14d %14.0f" % ("sum", label, tot_own, total[0] if total else float("nan")))
    for n, s in zip(names, own):
        g = s["global"]
        print("%-20s planned %s, first frame %s" % (n, g.get("start_planned"), g.get("first_frame")))
    print("PromQL's figures equal the instances' own" if same else
          "PromQL's figures differ from the instances' own")
    return 0 if same else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (RuntimeError, OSError, ValueError, KeyError) as e:
        print("several: %s" % e, file=sys.stderr)
        sys.exit(2)
