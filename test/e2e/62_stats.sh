#!/usr/bin/env bash
# 62_stats.sh — statistics measured by flowgen agree with what the device
# under test counted, and `stats --json` is valid JSON in every state.
#
# Router lab; a 64-byte stream from port 0 to port 1 for 4 s. flowgen's
# port 0 tx packets must match the DUT's dut0 rx packets within 1 %, and
# port 1 rx packets the DUT's dut1 tx packets, over the same interval
# (flowgen's counters are baselined with `clear`; the DUT's are read before
# and after). Each port's mbuf pool in every state: its size the config's,
# in use and available adding up to it (and the rows of `stats -p`).
# The JSON checks are read by one python3 once flowgen has quit.
. "$(dirname "$0")/lib.sh"

need_flowgen
lab_up router || finish

dut_cnt() { in_dut cat "/sys/class/net/$1/statistics/$2"; }

out=$FG_TMP/stats.out
fifo=$FG_TMP/cmd
mkfifo "$fifo"
fg -b <"$fifo" >"$out" 2>&1 &
pid=$!
exec 9>"$fifo"
say() { echo "$*" >&9; }

say "arp"
say "stats --json"
say "echo idle-done"
wait_for 'idle-done' "$out" 20 $pid
idle=$(grep '^{' "$out" | tail -n 1)
echo "$idle" >"$FG_TMP/idle.json"

rx0=$(dut_cnt dut0 rx_packets)
tx1=$(dut_cnt dut1 tx_packets)
say "clear"
# 3 kpps for 4 s after the learning phase and its 1.5 s pause: 12,000
# frames; the sample 3.5 s after start spans a second of the stream
say "start -f profiles/stl_64b.yaml -m 0.3 -d 4"
say "sleep 3.5"
say "stats --json"
say "echo running-done"
wait_for 'running-done' "$out" 20 $pid
grep '^{' "$out" | tail -n 1 >"$FG_TMP/running.json"

say "stats -w"
say "stats -p"
say "echo workers-done"
wait_for 'workers-done' "$out" 20 $pid
check_grep "stats -w prints the worker table" '^ +id +lcore +ports +tx_pkts' "$out"
check_grep "stats -w has a row for worker 0" '^ +0 +[0-9]+ +0,1 +[0-9]+' "$out"

# `wait` returns once the run and its drain are over
say "wait"
say "stop"
say "stats --json"
say "echo stopped-done"
wait_for 'stopped-done' "$out" 30 $pid
grep '^{' "$out" | tail -n 1 >"$FG_TMP/stopped.json"
drx0=$(($(dut_cnt dut0 rx_packets) - rx0))
dtx1=$(($(dut_cnt dut1 tx_packets) - tx1))
say "quit"
exec 9>&-
wait $pid
check_eq "flowgen exits 0" 0 $?

# the figures of the running and stopped samples, from one python3
mapfile -t V < <(jvals "" "=get('$FG_TMP/running.json', 'global.tx_pps', '')" \
	"=get('$FG_TMP/stopped.json', 'ports.0.tx_pkts', '')" \
	"=get('$FG_TMP/stopped.json', 'ports.1.rx_pkts', '')")
rate=${V[0]:-} ftx0=${V[1]:-} frx1=${V[2]:-}
check_ge "measured tx_pps while running is about 3 kpps (>= 2,500)" "${rate%.*}" 2500
check "measured tx_pps while running is at most 3,300" \
	awk -v r="$rate" 'BEGIN { exit !(r <= 3300) }'
check_ge "port 0 sent the stream (>= 10,000 frames)" "${ftx0:-0}" 10000
within()
{ # NAME A B : |A - B| <= 1 % of B
	local name=$1 a=$2 b=$3
	if awk -v a="$a" -v b="$b" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= b / 100) }'; then
		pass "$name ($a vs $b)"
	else
		fail "$name" "flowgen $a, DUT $b"
	fi
}
within "port 0 tx_pkts agrees with DUT dut0 rx_packets within 1 %" "$ftx0" "$drx0"
within "port 1 rx_pkts agrees with DUT dut1 tx_packets within 1 %" "$frx1" "$dtx1"

# The JSON of each state, one python3 for every check: parses(F) is
# json.tool's test, missing() lists the documented fields json_get does
# not find in a state, workers_ok(F) and mempool_ok(F) assert.
# workers_ok : every worker has each field, plausible values, and their
# packet counters are the per-port workers' counts summed.
# mempool_ok : each port's mbuf pool (flowgen(8), STATISTICS, mempool) as
# DPDK counts it: the config's 16,384 mbufs (examples/lab.yaml), in use
# and available adding up to them, the lcores' caches part of available.
eval_checks '
import json, sys
from fg_e2e_json import at, last
d = sys.argv[1]
def parses(f):
    json.load(open("%s/%s.json" % (d, f)))
    return True
def missing():
    m = ""
    for f in ("idle", "running", "stopped"):
        for k in ("global.tx_pps", "global.cpu_util", "global.queue_full", "ports.0.imissed",
                  "flows.client.started", "flows.server.distinct_src_ports", "latency",
                  "workers.0.cpu_util", "workers.0.ports"):
            try:
                at(last(open("%s/%s.json" % (d, f)).read()), k)
            except (KeyError, IndexError, ValueError, TypeError):
                m += " %s:%s" % (f, k)
    return m or True
def workers_ok(f):
    o = json.load(open("%s/%s.json" % (d, f)))
    ws = o["workers"]
    assert ws, "no workers"
    for i, w in enumerate(ws):
        for k in ("id", "lcore", "ports", "tx_pkts", "rx_pkts", "redirected",
                  "active_flows", "cpu_util", "stalls", "stalled_ms", "stall_late_ms",
                  "stall_max_ms", "at_realtime"):
            assert k in w, "worker %d lacks %s" % (i, k)
        assert 0 <= w["stall_late_ms"] <= w["stalled_ms"], w
        assert w["stalled_ms"] >= w["stalls"] * 1.0, w  # each stall is over 1 ms
        assert w["id"] == i, "ids are dense: %r" % w
        assert w["ports"] and all(0 <= p < len(o["ports"]) for p in w["ports"]), w
        assert 0 <= w["cpu_util"] <= 100, w
        assert w["tx_pkts"] >= 0 and w["rx_pkts"] >= 0, w
    assert any(w["tx_pkts"] > 0 for w in ws), "no worker sent: %r" % ws
    assert max(w["cpu_util"] for w in ws) > 0, "all workers idle: %r" % ws
    return True
def mempool_ok(f):
    o = json.load(open("%s/%s.json" % (d, f)))
    for i, p in enumerate(o["ports"]):
        m = p["mempool"]
        assert m["name"] == "pool%d" % i, m
        assert m["size"] == 16384 and m["cache_size"] == 256, m
        assert m["in_use"] + m["avail"] == m["size"], m
        assert 0 <= m["cached"] <= m["avail"], m
        assert m["in_use"] < m["size"] // 4, m
        assert p["punt_drop"] == 0 and p["punt"] >= 0, p
    return True' "$FG_TMP" \
	"stats --json parses when idle" 'parses("idle")' \
	"stats --json parses while running" 'parses("running")' \
	"stats --json parses after stop" 'parses("stopped")' \
	"documented stats --json fields present in every state" 'missing()' \
	"stats --json workers: every worker present with plausible fields" 'workers_ok("running")' \
	"stats --json idle: each port's mempool, in_use + avail = size" 'mempool_ok("idle")' \
	"stats --json running: each port's mempool, in_use + avail = size" 'mempool_ok("running")' \
	"stats --json stopped: each port's mempool, in_use + avail = size" 'mempool_ok("stopped")'
check_grep "stats -p: the ports' mbuf pools under the port table" \
	'^mbufs in use +\| +[0-9]+ \| +[0-9]+ \| +[0-9]+$' "$out"
finish
