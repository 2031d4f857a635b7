#!/usr/bin/env bash
#
# 99_prometheus.sh — GET /metrics (flowgen(8), API) across three
# instances, each on its own [loop, loop] pair with its API on TLS and a
# bearer token, scraped every half second by Debian's Prometheus server
# (started and stopped here, its data in the scratch folder; started
# before the instances, as it first scrapes 5 to 7 s after its start,
# the period of its target discovery's updates):
#   - promtool check metrics passes on /metrics during a streams run with
#     latency and during a flows run, and the OpenMetrics form (what
#     Prometheus asks for) parses with the OpenMetrics parser;
#   - while the streams run, PromQL's sum of the instances' tx rates is
#     within 5 % of the sum of the rates each instance's `stats --json`
#     gives at the same time;
#   - after each run has ended and Prometheus has scraped again, PromQL
#     sums over the three instances equal the sums of their `stats --json`
#     figures exactly: frames sent and received, each stream's frames,
#     flows started and completed on both sides;
#   - the latency histogram's count and sum are the delays `stats` reports
#     (count = frames received, sum / count = avg_us);
#   - a scrape answers at once while the console's thread is busy with a
#     command (`wait` on a running flows run);
#   - /metrics keeps the API's rules: no token 401, POST 405; the
#     instance label is --name;
#   - while `bench latency` runs, flowgen_bench_running says so, and after
#     it the bench trial counters are the bench's own (run while the
#     server's first scrape is still to come).
# The streams run starts on the three at once when the bench is over,
# runs beside the wait for the first scrape, and is stopped once the
# checks that need it running are done; the flows run lasts 3 s from
# several.py's --at, its in-run checks made as soon as fg1's traffic runs.
# Each instance's replies to a command sent to all three (stats --json,
# wait, stop) come from three requests at once.
#
# FG_E2E_NOHUGE=1 runs flowgen with --no-huge.

. "$(dirname "$0")/lib.sh"

need_flowgen
for t in prometheus promtool curl openssl; do
	if ! command -v $t >/dev/null 2>&1; then
		fail "$t is installed" "Debian: prometheus, curl, openssl"
		finish
		exit
	fi
done
if ! python3 -c 'import prometheus_client.openmetrics.parser' 2>/dev/null; then
	fail "python3's prometheus_client is installed" "Debian: python3-prometheus-client"
	finish
	exit
fi

CFG=$(fg_loop_cfg)
EAL=()
[ "${FG_E2E_NOHUGE:-0}" = 1 ] && EAL=(-- --no-huge)

# TLS for 127.0.0.1 (the certificate names the address) and one token
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1 \
	-addext subjectAltName=IP:127.0.0.1 -keyout "$FG_TMP/key.pem" \
	-out "$FG_TMP/cert.pem" 2>/dev/null
head -c 24 /dev/urandom | base64 >"$FG_TMP/token"
TOKEN=$(head -n 1 "$FG_TMP/token")

# --- ports -----------------------------------------------------------------------

# the instances' API ports and the server's, four different ones
while :; do
	PORTS=("" "$(free_port)" "$(free_port)" "$(free_port)")
	PPORT=$(free_port)
	[ "$(printf '%s\n' "${PORTS[@]:1}" "$PPORT" | sort -u | wc -l)" = 4 ] && break
done
PURL=http://127.0.0.1:$PPORT

# --- the server (first: see above) --------------------------------------------------

cat >"$FG_TMP/prometheus.yml" <<EOF
global:
  scrape_interval: 500ms
  scrape_timeout: 500ms
scrape_configs:
  - job_name: flowgen
    scheme: https
    # flowgen's own instance label (--name) is kept
    honor_labels: true
    tls_config: {ca_file: $FG_TMP/cert.pem}
    authorization: {credentials_file: $FG_TMP/token}
    static_configs:
      - targets: [127.0.0.1:${PORTS[1]}, 127.0.0.1:${PORTS[2]}, 127.0.0.1:${PORTS[3]}]
EOF
prometheus --config.file="$FG_TMP/prometheus.yml" --storage.tsdb.path="$FG_TMP/prom" \
	--web.listen-address="127.0.0.1:$PPORT" >"$FG_TMP/prom.log" 2>&1 &
PROM_PID=$!
at_exit "kill $PROM_PID"

# prom.py URL sum|query|scraped|eqsums ... : the server's HTTP API from one
# python3 (not a curl and two python3 per query)
cat >"$FG_TMP/prom.py" <<'PY'
import json, sys, time, urllib.parse, urllib.request
URL, what = sys.argv[1], sys.argv[2]
def query(q):
    d = urllib.parse.urlencode({"query": q}).encode()
    with urllib.request.urlopen(URL + "/api/v1/query", d, timeout=10) as r:
        o = json.load(r)
    if o.get("status") != "success":
        raise RuntimeError("error: " + json.dumps(o))
    return [[r["metric"], r["value"][1]] for r in o["data"]["result"]]
def one(q):
    r = query(q)
    return r[0][1] if len(r) == 1 else "none: " + q
if what == "query":
    print(json.dumps(query(sys.argv[3])))
elif what == "sum":
    print(one(sys.argv[3]))
elif what == "scraped":
    # every instance scraped after unix time argv[3], within 15 s
    end = time.time() + 15
    while True:
        try:
            if one("count(timestamp(flowgen_build_info) > %s)" % sys.argv[3]) == "3":
                sys.exit(0)
        except Exception:
            pass
        if time.time() >= end:
            sys.exit(1)
        time.sleep(0.1)
elif what == "eqsums":
    # argv[4:]: NAME PROMQL PYEXPR triples; a line each: True, or (got, want)
    stats, a = json.load(open(sys.argv[3])), sys.argv[4:]
    for i in range(0, len(a), 3):
        try:
            want = sum(eval(a[i + 2], {}, {"s": s}) for s in stats)
            got = float(one(a[i + 1]))
            r = want > 0 and got == want or (got, want)
        except Exception as e:
            r = "%s: %s" % (type(e).__name__, e)
        print(str(r).replace("\n", " "))
PY

# promql QUERY : the query's result as JSON (list of [labels, value]) in $Q
promql()
{
	Q=$(python3 "$FG_TMP/prom.py" "$PURL" query "$1" 2>&1 | tail -n 1)
}

# promsum QUERY : the value of a query that gives one number, in $V
promsum()
{
	V=$(python3 "$FG_TMP/prom.py" "$PURL" sum "$1" 2>&1 | tail -n 1)
}

# scraped_after T : wait (up to 15 s) until Prometheus holds a scrape of
# every instance taken after unix time T
scraped_after()
{
	python3 "$FG_TMP/prom.py" "$PURL" scraped "$1"
}

# --- three instances ---------------------------------------------------------------

PIDS=()
for i in 1 2 3; do
	"$FG_BIN" -C "$CFG" -k --api "127.0.0.1:${PORTS[i]}" --name "fg$i" \
		--api-cert "$FG_TMP/cert.pem" --api-key "$FG_TMP/key.pem" \
		--api-token-file "$FG_TMP/token" "${EAL[@]}" </dev/null \
		>"$FG_TMP/out.$i" 2>"$FG_TMP/err.$i" &
	PIDS[i]=$!
	at_exit "kill ${PIDS[i]}"
done
for i in 1 2 3; do
	if wait_for '^api: listening on https://127.0.0.1:' "$FG_TMP/err.$i" 60 "${PIDS[i]}"; then
		pass "instance fg$i serves its API on TLS"
	else
		fail "instance fg$i serves its API on TLS" "$(tail -n 5 "$FG_TMP/err.$i")"
		finish
		exit
	fi
done

check_eq "promtool check config accepts the scrape config" 0 \
	"$(promtool check config "$FG_TMP/prometheus.yml" >/dev/null 2>&1; echo $?)"

# on I METHOD PATH [CURL-ARGS...] : a request to instance I with the token
on()
{
	local i=$1 m=$2 p=$3
	shift 3
	BASE=https://127.0.0.1:${PORTS[i]} http "$m" "$p" "" --cacert "$FG_TMP/cert.pem" \
		-H "Authorization: Bearer $TOKEN" "$@"
}

# cmd I COMMAND : POST /flowgen/v1/command to instance I
cmd()
{
	local i=$1
	BASE=https://127.0.0.1:${PORTS[i]} http POST /flowgen/v1/command "$(cmd_body "$2")" \
		--cacert "$FG_TMP/cert.pem" -H "Authorization: Bearer $TOKEN"
}

# oks FILE... : a line for each FILE, True when it holds a reply whose ok
# is true, else its text (one python3 for all)
oks()
{
	python3 -c '
import json, sys
for f in sys.argv[1:]:
    t = open(f).read()
    try:
        ok = json.loads(t)["ok"] is True
    except Exception:
        ok = False
    print(True if ok else t.replace("\n", " "))' "$@"
}

# par COMMAND : the command on the three at once, a curl each ("{i}" in
# COMMAND is the instance's number); instance I's reply in all.I, its
# HTTP status in all.I.st
par()
{
	local i p=()
	for i in 1 2 3; do
		curl -s -m 30 -o "$FG_TMP/all.$i" -w '%{http_code}' --cacert "$FG_TMP/cert.pem" \
			-H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
			--data-binary "$(cmd_body "${1//\{i\}/$i}")" \
			"https://127.0.0.1:${PORTS[i]}/flowgen/v1/command" >"$FG_TMP/all.$i.st" 2>/dev/null &
		p[i]=$!
	done
	for i in 1 2 3; do
		wait "${p[i]}"
	done
}

# all COMMAND : the command on the three at once (par); true when each
# answered 200 and said ok; $B their replies
all()
{
	local i r ok=0
	par "$1"
	for i in 1 2 3; do
		[ "$(cat "$FG_TMP/all.$i.st")" = 200 ] || ok=1
	done
	mapfile -t r < <(oks "$FG_TMP"/all.{1,2,3})
	[ "${r[*]}" = "True True True" ] || ok=1
	B=$(cat "$FG_TMP"/all.{1,2,3})
	return $ok
}

# jsons : each instance's `stats --json` value, read at once, as a JSON
# list in $FG_TMP/stats.json
jsons()
{
	par 'stats --json'
	python3 -c 'import json, sys; print(json.dumps([json.load(open(f))["json"] for f in sys.argv[1:]]))' \
		"$FG_TMP"/all.{1,2,3} >"$FG_TMP/stats.json"
}

for ((k = 0; k < 100; k++)); do
	curl -s -m 2 "http://127.0.0.1:$PPORT/-/ready" >/dev/null 2>&1 && break
	sleep 0.2
done
T0=$(date +%s.%N)

# --- the API's rules ------------------------------------------------------------------

BASE=https://127.0.0.1:${PORTS[1]} http GET /metrics "" --cacert "$FG_TMP/cert.pem"
check_eq "GET /metrics without the token: 401" 401 "$ST"
on 1 POST /metrics
check_eq "POST /metrics: 405" 405 "$ST"

# --- bench's progress ----------------------------------------------------------------------

# while the server's first scrape is still to come (a bench on fg1 alone;
# every run below begins with a `start`, which clears the counters; the
# bench counters, since flowgen started, are checked here)
PROF=$FG_TOP/test/data/metrics_streams.yaml

curl -s -m 120 -o "$FG_TMP/bench.json" --cacert "$FG_TMP/cert.pem" -H "Authorization: Bearer $TOKEN" \
	--data-binary "{\"command\": \"bench latency -f $PROF -m 1 --trial 2 -t learn_wait=0.2,drain=0.3 --json\"}" \
	"https://127.0.0.1:${PORTS[1]}/flowgen/v1/command" &
BENCHER=$!
sleep 1
on 1 GET /metrics
check_eq "while bench latency runs: flowgen_bench_running{test=\"latency\"} 1, others 0" "1 0" \
	"$(printf '%s\n' "$B" | awk '/^flowgen_bench_running.*test="latency"/ { t = $2 } /^flowgen_bench_running.*test="cps"/ { c = $2 } END { print t, c }')"
wait $BENCHER
on 1 GET /metrics
check_eq "after bench: trials and passed trials = the bench's own trials, none running" "True" \
	"$(python3 -c '
import json, sys
b = json.load(open(sys.argv[1]))["json"]
m = dict(l.rsplit(" ", 1) for l in sys.argv[2].splitlines() if l.startswith("flowgen_bench_"))
n, p = len(b["trials"]), sum(t["passed"] for t in b["trials"])
got = (float(m["flowgen_bench_trials_total{instance=\"fg1\"}"]), float(m["flowgen_bench_trials_passed_total{instance=\"fg1\"}"]),
       float(m["flowgen_bench_running{instance=\"fg1\",test=\"latency\"}"]))
print(n > 0 and got == (n, p, 0) or (got, n, p))' "$FG_TMP/bench.json" "$B" 2>&1)"

# --- a streams run with latency -----------------------------------------------------

# started at once on the three as soon as the bench is over, before the
# first scrapes' checks (which wait for the server's first scrape), and
# stopped once the checks that need it running are done: its length is
# theirs, not a guess (8 s runs were needed when it ran for a fixed time
# after those checks: the starts, the reads and the scrape took 5 to 6 s
# on a loaded machine, and 4 s runs had ended by the scrape)
par "start -f $PROF -m {i} -d 60 -t learn=0"
TS=$(date +%s%N)
mapfile -t R < <(oks "$FG_TMP"/all.{1,2,3})
for i in 1 2 3; do
	[ "${R[i - 1]}" = True ] || fail "streams run starts on fg$i" "$(cat "$FG_TMP/all.$i")"
done

# --- the first scrapes -----------------------------------------------------------------

if scraped_after "$T0"; then
	pass "Prometheus scrapes the three instances over TLS with the token"
else
	fail "Prometheus scrapes the three instances" "$(tail -n 5 "$FG_TMP/prom.log"; curl -s "http://127.0.0.1:$PPORT/api/v1/targets" | head -c 600)"
fi
promql 'flowgen_build_info'
check_eq "the instance label is each one's --name" "fg1 fg2 fg3" \
	"$(python3 -c 'import json, sys; print(" ".join(sorted(m["instance"] for m, v in json.loads(sys.argv[1]))))' "$Q")"

# check_scrape NAME : promtool check metrics on instance 1's /metrics (text
# format), and its OpenMetrics form parsed by the OpenMetrics parser
check_scrape()
{
	local name=$1
	on 1 GET /metrics -D "$FG_TMP/hdr"
	printf '%s\n' "$B" >"$FG_TMP/metrics.txt"
	check_eq "$name: GET /metrics 200, Prometheus' text format" "200 True" \
		"$ST $(grep -qi '^content-type: text/plain; version=0.0.4' "$FG_TMP/hdr" && echo True)"
	check_eq "$name: promtool check metrics passes" "0" \
		"$(promtool check metrics <"$FG_TMP/metrics.txt" >"$FG_TMP/promtool.out" 2>&1; echo $?)"
	[ -s "$FG_TMP/promtool.out" ] && sed 's/^/# promtool: /' "$FG_TMP/promtool.out" | head -n 10
	on 1 GET /metrics -D "$FG_TMP/hdr" -H 'Accept: application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5'
	printf '%s\n' "$B" >"$FG_TMP/metrics.om"
	check_eq "$name: the OpenMetrics form parses, ends with # EOF" "200 True ok" \
		"$ST $(grep -qi '^content-type: application/openmetrics-text; version=1.0.0' "$FG_TMP/hdr" && echo True) $(python3 -c '
import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families as p
t = open(sys.argv[1]).read()
fams = list(p(t))
print("ok" if t.endswith("# EOF\n\n") or t.endswith("# EOF\n") else "no EOF")' "$FG_TMP/metrics.om" 2>&1 | tail -n 1)"
}

# --- the streams run's checks while it runs --------------------------------------------

# the summed rate against each instance's own, read at the same time, first
# (the checks of the scrape below take over a second), once the runs have
# gone 2 s: a rate is measured over about the last second (STATS_RATE_BACK
# samples of 100 ms, src/control/stats.c; a late sampler stretches it, up
# to the ring's 1.6 s), so both reads and the scrape after them measure
# traffic only (after 1.5 s, PromQL read 7,196 frames/s against 9,031 once)
ms=$(((TS + 2000000000 - $(date +%s%N)) / 1000000))
[ "$ms" -le 0 ] || sleep "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))"
T1=$(date +%s.%N)
jsons
scraped_after "$T1"
promsum 'sum(flowgen_tx_frames_per_second)'
check_eq "streams run: PromQL's summed tx rate is within 5 % of the instances' own" "True" \
	"$(python3 -c '
import json, sys
own = sum(s["global"]["tx_pps"] for s in json.load(open(sys.argv[1])))
prom = float(sys.argv[2])
print(own > 0 and abs(prom - own) <= 0.05 * own or (prom, own))' "$FG_TMP/stats.json" "$V" 2>&1)"
check_scrape "streams run"
promsum 'flowgen_stream_latency_seconds_count{instance="fg1",stream="up"}'
check_eq "streams run: the up stream's latency histogram counts delays while it runs" "True" \
	"$(python3 -c 'import sys; print(float(sys.argv[1]) > 0)' "$V" 2>&1)"
all 'stop' || fail "streams run: stop on each instance" "$B"
all 'wait' || fail "streams run: wait on each instance" "$B"
T2=$(date +%s.%N)
jsons
scraped_after "$T2" || fail "Prometheus scraped after the streams run" "$(tail -n 3 "$FG_TMP/prom.log")"

# eq_sum NAME PROMQL PYEXPR [NAME PROMQL PYEXPR]... : for each triple, the
# PromQL sum equals the sum over the three instances' stats --json (s) of
# PYEXPR; one check each, from one python3
eq_sum()
{
	local names=() r=() i
	for ((i = 1; i <= $#; i += 3)); do
		names+=("${!i}")
	done
	mapfile -t r < <(python3 "$FG_TMP/prom.py" "$PURL" eqsums "$FG_TMP/stats.json" "$@" 2>&1)
	for i in "${!names[@]}"; do
		check_eq "${names[i]}" "True" "${r[i]:-no answer from python3}"
	done
}

eq_sum "after the streams run: sum of frames sent = the instances' tx_pkts" \
	'sum(flowgen_tx_frames_total)' 's["global"]["tx_pkts"]' \
	"after the streams run: sum of frames received = the instances' rx_pkts" \
	'sum(flowgen_rx_frames_total)' 's["global"]["rx_pkts"]' \
	"after the streams run: the up stream's frames received, summed" \
	'sum(flowgen_stream_rx_frames_total{stream="up"})' \
	'sum(l["rx"] for l in s["latency"] if l["stream"] == "up")' \
	"after the streams run: the other stream's (a quoted name) frames sent, summed" \
	'sum(flowgen_stream_tx_frames_total{stream="down \"x\""})' \
	'sum(l["tx"] for l in s["latency"] if l["stream"] == "down \"x\"")' \
	"after the streams run: the latency histograms count every delay (the frames received)" \
	'sum(flowgen_stream_latency_seconds_count)' 'sum(l["rx"] for l in s["latency"])'
promsum 'sum(flowgen_stream_latency_seconds_sum{instance="fg1",stream="up"}) / sum(flowgen_stream_latency_seconds_count{instance="fg1",stream="up"})'
check_eq "after the streams run: fg1's up stream: sum / count = stats' avg_us (its whole ns)" "True" \
	"$(python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))[0]
avg = [l["avg_us"] for l in s["latency"] if l["stream"] == "up"][0]
got = float(sys.argv[2]) * 1e6
# stats: the mean in whole ns (lat_avg_ns), shown to 3 decimals of a us
print(-0.0005 <= got - avg < 0.0015 or (got, avg))' "$FG_TMP/stats.json" "$V" 2>&1)"
promsum 'sum(flowgen_stream_latency_seconds_bucket{instance="fg1",stream="up",le="+Inf"}) - max(flowgen_stream_latency_seconds_bucket{instance="fg1",stream="up",le="8.589934592"})'
check_eq "after the streams run: no delay beyond the last edge (2^33 ns) on a loop pair" "0" "$V"

# --- a flows run over the three, started together by examples/several.py ----------------

python3 "$FG_TOP/examples/several.py" --prometheus "http://127.0.0.1:$PPORT" \
	--profile "$FG_TOP/profiles/udp_short.yaml" -m 500,1000,1500 -d 3 --at-delay 2 \
	--token-file "$FG_TMP/token" --cacert "$FG_TMP/cert.pem" \
	"https://127.0.0.1:${PORTS[1]}" "https://127.0.0.1:${PORTS[2]}" "https://127.0.0.1:${PORTS[3]}" \
	>"$FG_TMP/several.out" 2>&1 &
SEVERAL=$!
# until fg1's run has begun (several.py's --at, 2 s on): the checks below
# take 2 s at most on a loaded machine, the run lasts 3
running=no
end=$(($(date +%s) + 10))
while [ "$(date +%s)" -le $end ] && kill -0 $SEVERAL 2>/dev/null; do
	on 1 GET /metrics
	[ "$(printf '%s\n' "$B" | awk '/^flowgen_running/ { print $2 }')" = 1 ] && running=yes && break
	sleep 0.1
done
[ $running = yes ] || fail "flows run: fg1's traffic runs within 10 s of several.py's start" "$(cat "$FG_TMP/several.out")"
check_scrape "flows run"
# the console's thread of fg1 is busy in `wait` (up to the run's end)
curl -s -m 30 -o /dev/null --cacert "$FG_TMP/cert.pem" -H "Authorization: Bearer $TOKEN" \
	--data-binary '{"command": "wait"}' "https://127.0.0.1:${PORTS[1]}/flowgen/v1/command" &
WAITER=$!
sleep 0.3
t0=$(date +%s%N)
on 1 GET /metrics
t1=$(date +%s%N)
check_eq "a scrape while the console runs \`wait\`: 200 within 0.5 s, traffic running" "200 True 1" \
	"$ST $( [ $(((t1 - t0) / 1000000)) -lt 500 ] && echo True || echo "$(((t1 - t0) / 1000000))ms") $(printf '%s\n' "$B" | awk '/^flowgen_running/ { print $2 }')"
check_eq "... and \`wait\` was still running then" "running" "$(kill -0 $WAITER 2>/dev/null && echo running)"
wait $WAITER
rc=0
wait $SEVERAL || rc=$?
check_eq "examples/several.py: exit 0, PromQL's figures equal the instances' own" "0 True" \
	"$rc $(grep -q "^PromQL's figures equal the instances' own" "$FG_TMP/several.out" && echo True)"
sed 's/^/# several.py: /' "$FG_TMP/several.out"
all 'wait' || fail "flows run: wait on each instance" "$B"
T3=$(date +%s.%N)
jsons
scraped_after "$T3" || fail "Prometheus scraped after the flows run" "$(tail -n 3 "$FG_TMP/prom.log")"
check_eq "after the flows run: the three share one planned start (several.py's --at), and started then" "True" \
	"$(python3 -c '
import json, sys
st = json.load(open(sys.argv[1]))
planned = {s["global"]["start_planned"] for s in st}
print(len(planned) == 1 and None not in planned and all(s["global"]["first_frame"] >= s["global"]["start_planned"] for s in st) or [(s["global"]["start_planned"], s["global"]["first_frame"]) for s in st])' "$FG_TMP/stats.json" 2>&1)"
eq_sum "after the flows run: sum of client flows completed = the instances'" \
	'sum(flowgen_flows_completed_total{side="client"})' 's["flows"]["client"]["completed"]' \
	"after the flows run: sum of server flows completed = the instances'" \
	'sum(flowgen_flows_completed_total{side="server"})' 's["flows"]["server"]["completed"]' \
	"after the flows run: sum of flows started = the instances'" \
	'sum(flowgen_flows_started_total)' 's["flows"]["client"]["started"]' \
	"after the flows run: sum of frames sent = the instances' tx_pkts" \
	'sum(flowgen_tx_frames_total)' 's["global"]["tx_pkts"]' \
	"after the flows run: per group, summed over templates and instances" \
	'sum(sum by (group) (flowgen_flows_completed_total{side="client"}))' \
	'sum(g["client"]["completed"] for g in s["templates"])'
promsum 'sum(flowgen_flow_failures_total)'
check_eq "after the flows run: no failure of any reason on the loop pair" "0" "$V"
# one series per side and reason of flowgen(8)'s fail_reasons, as stats --json names them
promsum 'count(count by (side, reason) (flowgen_flow_failures_total))'
check_eq "flowgen_flow_failures_total: 2 sides x 8 reasons" "16" "$V"
on 1 GET /metrics
check_eq "flowgen_flow_failures_total's reasons are stats --json's fail_reasons, both sides" "True" \
	"$(python3 -c '
import json, sys
st = json.load(open(sys.argv[1]))
names = [list(s["flows"][side]["fail_reasons"]) for s in st for side in ("client", "server")]
m = set(l.split("reason=\"")[1].split("\"")[0] for l in sys.argv[2].splitlines()
        if l.startswith("flowgen_flow_failures_total{"))
print(all(n == names[0] for n in names) and set(names[0]) == m and len(m) == 8 or (names[0], sorted(m)))' \
	"$FG_TMP/stats.json" "$B" 2>&1)"

finish
