#!/usr/bin/env python3
"""otg_two.py — several flowgen instances driven as one test through the
Open Traffic Generator API (flowgen(8), API and OTG MODEL), with the
Python standard library only (urllib, json).

    examples/otg_two.py [--config FILE] [--token-file F] [--insecure] URL...

Each URL is one flowgen started with --api (http://127.0.0.1:8080, or
https://host:8443 with --api-cert/--api-key/--api-token-file on another
host). The script sets the same OTG config on every instance (FILE, or a
flow of 10,000 UDP frames at 5,000 pps from port 0 to port 1 with latency
metrics), starts the traffic on all of them at once, polls their flow
metrics until every flow has stopped, and prints one table: a row per
instance and flow, then the total. It exits 0 when every flow received
every frame it sent, 1 otherwise, 2 when an instance cannot be reached
or refuses the config (its OTG Error is printed).
"""

import argparse
import json
import ssl
import sys
import time
import urllib.error
import urllib.request

DEFAULT_CONFIG = {
    "ports": [{"name": "p1", "location": "0"}, {"name": "p2", "location": "1"}],
    "flows": [{
        "name": "udp",
        "tx_rx": {"choice": "port", "port": {"tx_name": "p1", "rx_names": ["p2"]}},
        "packet": [
            {"choice": "ethernet", "ethernet": {}},
            {"choice": "ipv4", "ipv4": {
                "src": {"choice": "value", "value": "198.18.1.10"},
                "dst": {"choice": "value", "value": "198.19.1.10"}}},
            {"choice": "udp", "udp": {}},
        ],
        "size": {"choice": "fixed", "fixed": 128},
        "rate": {"choice": "pps", "pps": 5000},
        "duration": {"choice": "fixed_packets", "fixed_packets": {"packets": 10000}},
        "metrics": {"enable": True, "loss": True, "latency": {"enable": True}},
    }],
}


class Instance:
    """One flowgen's API: JSON requests, OTG Errors raised as RuntimeError."""

    def __init__(self, url, token=None, insecure=False):
        self.url = url.rstrip("/")
        self.token = token
        self.ctx = None
        if insecure and self.url.startswith("https:"):
            self.ctx = ssl.create_default_context()
            self.ctx.check_hostname = False
            self.ctx.verify_mode = ssl.CERT_NONE

    def call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.url + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if self.token:
            req.add_header("Authorization", "Bearer " + self.token)
        try:
            with urllib.request.urlopen(req, timeout=30, context=self.ctx) as r:
                return json.loads(r.read() or b"{}")
        except urllib.error.HTTPError as e:
            raise RuntimeError("%s %s %s: %s" % (self.url, method, path, e.read().decode(errors="replace")))

    def transmit(self, state):
        return self.call("POST", "/control/state", {
            "choice": "traffic",
            "traffic": {"choice": "flow_transmit", "flow_transmit": {"state": state}}})

    def flows(self):
        return self.call("POST", "/monitor/metrics", {"choice": "flow", "flow": {}})["flow_metrics"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("urls", nargs="+", metavar="URL")
    ap.add_argument("--config", help="an OTG config (JSON) for every instance")
    ap.add_argument("--token-file", help="the bearer token of the instances")
    ap.add_argument("--insecure", action="store_true", help="accept self-signed certificates")
    ap.add_argument("--timeout", type=float, default=120, help="seconds to wait for the flows")
    a = ap.parse_args()

    config = DEFAULT_CONFIG
    if a.config:
        with open(a.config) as f:
            config = json.load(f)
    token = open(a.token_file).read().strip() if a.token_file else None
    insts = [Instance(u, token, a.insecure) for u in a.urls]
    try:
        for i in insts:
            for w in i.call("POST", "/config", config).get("warnings", []):
                print("%s: warning: %s" % (i.url, w), file=sys.stderr)
        for i in insts:
            i.transmit("start")
        end = time.monotonic() + a.timeout
        while True:
            rows = [(i, i.flows()) for i in insts]
            if all(f["transmit"] == "stopped" for _, fl in rows for f in fl):
                break
            if time.monotonic() > end:
                for i in insts:
                    i.transmit("stop")
                print("flows still running after %.0f s: stopped" % a.timeout, file=sys.stderr)
                break
            time.sleep(0.5)
    except (RuntimeError, urllib.error.URLError, OSError) as e:
        print("otg_two: %s" % e, file=sys.stderr)
        return 2

    fmt = "%-28s %-10s %12s %12s %8s %10s %10s %10s"
    print(fmt % ("instance", "flow", "frames_tx", "frames_rx", "loss %", "min ns", "avg ns", "max ns"))
    tx = rx = 0
    ok = True
    for i, fl in rows:
        for f in fl:
            lat = f.get("latency", {})
            print(fmt % (i.url[-28:], f["name"][:10], f["frames_tx"], f["frames_rx"], "%.3f" % f.get("loss", 0),
                         "%.0f" % lat.get("minimum_ns", 0), "%.0f" % lat.get("average_ns", 0),
                         "%.0f" % lat.get("maximum_ns", 0)))
            tx += f["frames_tx"]
            rx += f["frames_rx"]
            ok = ok and f["frames_tx"] > 0 and f["frames_rx"] == f["frames_tx"]
    print(fmt % ("total (%d instances)" % len(insts), "", tx, rx,
                 "%.3f" % (100.0 * (tx - rx) / tx if tx else 0), "", "", ""))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
