#!/usr/bin/env bash
#
# 64_record.sh — the record (flowgen(8), --record, record, stats --from,
# FILES) on [loop, loop] configs, a streams profile at 1,000 frames/s.
# Three flowgens, the first two in lanes beside the third:
#  a. kill -9: `--record FILE` with a 20 s run, killed with SIGKILL half
#     an interval after the record's 7th interval line (the lines come one
#     a second from start-up; waited for at most 8 s from the run's start,
#     a kill after that leaves fewer): the record holds at least 7
#     interval lines, every line is valid JSON, one a second at most
#     1.05 s apart, the last one taken at most 1 s before the kill, and no
#     counter goes down from one line to the next;
#  b. SIGINT in -x mode and SIGTERM with the API (traffic paused, then
#     `stats --json` printed, then the signal): the record's last line is
#     final ("exit"), taken after the signal, after the run's one "end"
#     line, and its counters are the ones flowgen printed while paused
#     (nothing sent since) with every frame received;
#  c. `stats --from FILE --json` gives the last line's "stats" as it is
#     (and --seq N the line of seq N), its text the tables of `stats`;
#     a copy of a record with garbage and a partial last line reads the
#     same, each bad line skipped with a FILE:LINE warning; `record plot`
#     draws each line's tx_pps and rx_pps against its time and marks the
#     run's end; `flowgen --json -x 'stats --from FILE'` needs no config;
#  d. `record start` at the console, `record status`, `record stop` and a
#     second start refused, over the API, with their values; a record on
#     /dev/full fails once, said on standard error and in `record status`,
#     and the traffic goes on.
# The SIGTERM run starts before the records are read back (c), and its
# pause before the kill -9 lane ends, so that its 1.5 s of traffic and the
# 0.3 s after the pause go by beside them; the pictures are checked beside
# its end.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fg_jq.sh"

need_flowgen
T0=$(date +%s.%N)
LOOP=$(fg_loop_cfg)
PROF=$FG_TOP/profiles/stl_64b.yaml

# recpys FILE NAME EXPR [NAME EXPR]... : for each pair, the check NAME
# that EXPR holds over L, every line of the record FILE parsed (a line
# that does not parse is None); g(o, k) is a line's global figure k. One
# python3 for them all, the checks in their order
recpys()
{
	eval_checks 'import json, sys
def parse(l):
    try:
        return json.loads(l)
    except ValueError:
        return None
L = [parse(l) for l in open(sys.argv[1]).read().split("\n") if l]
def g(o, k):
    return o["stats"]["global"][k]' "$@"
}

# --- a. kill -9 ------------------------------------------------------------------

R1=$FG_TMP/kill.jsonl
kill9()
{
	local pid k end
	stdbuf -oL -eL "$FG_BIN" -C "$LOOP" --record "$R1" -x "start -f $PROF -m 0.1 -d 20 -t learn=0; wait" \
		>"$FG_TMP/kill.out" 2>"$FG_TMP/kill.err" &
	pid=$!
	at_exit "kill -9 $pid"
	wait_for '^started ' "$FG_TMP/kill.out" 30 "$pid"
	# the 7th interval line, for at most 8 s; then half an interval after
	# it: the next is half a second away
	end=$((${EPOCHREALTIME/./} + 8000000))
	while [ "$(grep -c '"reason":"interval"' "$R1")" -lt 7 ] && [ "${EPOCHREALTIME/./}" -lt "$end" ]; do
		sleep 0.05
	done
	sleep 0.5
	k=$(date +%s.%N)
	kill -9 "$pid"
	wait "$pid" 2>/dev/null
	recpys "$R1" \
		"kill -9: every line of the record is valid JSON" \
		'len(L) > 0 and all(o is not None for o in L)' \
		"kill -9: at least 7 interval lines in 8 s" \
		'sum(o["reason"] == "interval" for o in L) >= 7' \
		"kill -9: one line a second (at most 1.05 s apart)" \
		'all(0.95 <= b["t"] - a["t"] <= 1.05 for a, b in zip(L[1:], L[2:]))' \
		"kill -9: the last line taken at most 1 s before the kill" \
		"$k - 1 <= L[-1]['t'] <= $k" \
		"kill -9: the run was going at the last line, no final line" \
		'L[-1]["state"] == "running" and L[-1]["run_id"] == 1 and not any(o["final"] for o in L)' \
		"kill -9: no counter goes down from a line to the next" \
		'all(all(g(b, k) >= g(a, k) for k in ("tx_pkts", "rx_pkts")) and all(q[k] >= p[k] for p, q in zip(a["stats"]["ports"], b["stats"]["ports"]) for k in ("tx_pkts", "rx_pkts", "tx_bytes", "rx_bytes")) and all(q[k] >= p[k] for p, q in zip(a["stats"]["workers"], b["stats"]["workers"]) for k in ("tx_pkts", "rx_pkts")) for a, b in zip(L, L[1:]))' \
		"kill -9: the counters grow at the rate (900-1100 frames a second)" \
		'all(900 <= g(b, "tx_pkts") - g(a, "tx_pkts") <= 1100 for a, b in zip(L[2:], L[3:]))'
}

# --- b. SIGINT in -x mode ------------------------------------------------------------

R2=$FG_TMP/int.jsonl
sigint()
{
	local pid k
	stdbuf -oL -eL "$FG_BIN" -C "$LOOP" --record "$R2" --record-interval 0.5 \
		-x "start -f $PROF -m 0.1 -t learn=0; sleep 2; pause; sleep 0.3; stats --json; wait" \
		>"$FG_TMP/int.out" 2>"$FG_TMP/int.err" &
	pid=$!
	at_exit "kill -9 $pid"
	wait_for '^\{"global"' "$FG_TMP/int.out" 30 "$pid"
	sleep 0.2
	k=$(date +%s.%N)
	kill -INT "$pid"
	pid_end "$pid" 20
	check_eq "SIGINT in -x mode: flowgen ends, status 1" 1 "$RC"
	grep '^{"global"' "$FG_TMP/int.out" | tail -n 1 >"$FG_TMP/int.stats"
	recpys "$R2" \
		"SIGINT: the last line is final, the exit's, taken after the signal" \
		"L[-1]['reason'] == 'exit' and L[-1]['final'] and L[-1]['state'] == 'idle' and L[-1]['t'] >= $k" \
		"SIGINT: the run's one end line, final, before it" \
		'[(o["reason"], o["run_id"]) for o in L if o["final"]] == [("end", 1), ("exit", 1)]' \
		"SIGINT: the last line's tx is what flowgen printed paused, every frame received" \
		"(lambda p: g(L[-1], 'tx_pkts') == p['global']['tx_pkts'] > 1500 and g(L[-1], 'rx_pkts') == g(L[-1], 'tx_pkts') and [q['tx_pkts'] for q in L[-1]['stats']['ports']] == [q['tx_pkts'] for q in p['ports']])(json.load(open('$FG_TMP/int.stats')))"
}

lane kill kill9
lane int sigint
jq_start

# --- d. the console and the API -------------------------------------------------------

# cmd COMMAND : POST /flowgen/v1/command (as 96_api.sh)
cmd()
{
	http POST /flowgen/v1/command "$(cmd_body "$1")"
}

console()
{
	printf '%s\n' "$1" >&7
}

CFG=$LOOP
R3=$FG_TMP/console.jsonl
R4=$FG_TMP/term.jsonl
if api_start; then
	pass "record: flowgen --api $PORT listens"
else
	fail "record: flowgen --api $PORT listens" "$(tail -n 5 "$FG_TMP/err")"
fi
console "record start $R3 -i 0.5"
check "record start at the console" wait_for '^recording to .*console.jsonl every 0.5 s$' "$FG_TMP/out" 20 "$FG_PID"
cmd 'record status'
check_eq "record status over the API: its value" "True True 0.5 None" \
	"$(jq_ 'o["json"]["record"]["recording"], o["json"]["record"]["file"].endswith("console.jsonl"), o["json"]["record"]["interval_s"], o["json"]["record"]["error"]' | tr -d "(),'")"
cmd "record start $FG_TMP/other.jsonl"
check_eq "a second record start is refused, saying why" "False refused True" \
	"$(jq_ 'o["ok"], o["error"]["code"], "already recording" in o["error"]["message"]' | tr -d "(),'")"
cmd "start -f $PROF -m 0.1 -d 1.5 -t learn=0,drain=0.3"
cmd 'wait'
cmd 'record stop'
check_eq "record stop over the API: its value" "True False True True None" \
	"$(jq_ 'o["ok"], o["json"]["record"]["recording"], o["json"]["record"]["lines"] >= 5, o["json"]["record"]["bytes"] > 0, o["json"]["record"]["error"]' | tr -d "(),'")"
check_eq "record stop: its text" "True" "$(jq_ 'o["output"].startswith("record stopped: ")')"
recpys "$R3" "record stop: the run's end line, then the stop's, both final" \
	'L[0]["reason"] == "start" and L[0]["seq"] == 0 and [o["seq"] for o in L] == list(range(len(L))) and [o["reason"] for o in L if o["final"]] == ["end", "stop"] and L[-1]["reason"] == "stop" and g(L[-1], "tx_pkts") == g(L[-2], "tx_pkts") >= 1400'
cmd 'record stop'
check_eq "record stop with none running: refused" "False refused" \
	"$(jq_ 'o["ok"], o["error"]["code"]' | tr -d "(),'")"

# a record that cannot be written: said once, the traffic goes on
cmd "start -f $PROF -m 0.1 -t learn=0,drain=0.3"
cmd 'record start /dev/full'
# the write fails at once (the record's first line); the error is said on
# standard error once the record has stopped on it
wait_for '^error: record: /dev/full: ' "$FG_TMP/err" 10 "$FG_PID"
cmd 'record status'
check_eq "record on /dev/full: status says it stopped on the write's error" "False write: No space left on device" \
	"$(jq_ 'o["json"]["record"]["recording"], o["json"]["record"]["error"]' | tr -d "(),'")"
cmd 'stats --json'
tx1=$(jq_ 'o["json"]["global"]["tx_pkts"]')
# until the count grows, for at most 0.5 s
end=$((${EPOCHREALTIME/./} + 500000))
while :; do
	sleep 0.05
	cmd 'stats --json'
	tx2=$(jq_ 'o["json"]["global"]["tx_pkts"]')
	[ "$tx2" -gt "$tx1" ] 2>/dev/null || [ "${EPOCHREALTIME/./}" -ge "$end" ] && break
done
check "record on /dev/full: the traffic goes on ($tx1 -> $tx2 frames)" test "$tx2" -gt "$tx1"
check_eq "record on /dev/full: said once on standard error" 1 \
	"$(grep -c '^error: record: /dev/full: write: No space left on device; recording stopped (traffic goes on)$' "$FG_TMP/err")"
cmd 'record stop'
check_eq "record stop after the error: the error in its value" "True False write: No space left on device" \
	"$(jq_ 'o["ok"], o["json"]["record"]["recording"], o["json"]["record"]["error"]' | tr -d "(),'")"
cmd 'stop'

# b. SIGTERM while serving the API: its record and run start here, and
# go on while the records are read back below
cmd "record start $R4"
check_eq "record start over the API: its value" "True True 1.0" \
	"$(jq_ 'o["ok"], o["json"]["record"]["recording"], o["json"]["record"]["interval_s"]' | tr -d "(),'")"
cmd "start -f $PROF -m 0.1 -t learn=0"
T4=$(date +%s.%N)

# --- c. reading records back (the SIGINT lane's) ----------------------------------------

lane_end int
cmd "stats --from $R2 --json"
echo "$B" >"$FG_TMP/from.json"
check_eq "stats --from --json over the API: the last line's stats" True \
	"$(python3 -c 'import json, sys; o = json.load(open(sys.argv[1])); L = open(sys.argv[2]).read().split("\n"); print(o["ok"] and o["json"] == json.loads([l for l in L if l][-1])["stats"])' "$FG_TMP/from.json" "$R2")"
cmd "stats --from $R2 --seq 2 --json -g -p"
check_eq "stats --from --seq 2 -g -p: that line's global and ports" True \
	"$(python3 -c 'import json, sys; o = json.loads(sys.argv[1]); L = [json.loads(l) for l in open(sys.argv[2]) if l.strip()]; print(o["json"] == {k: L[2]["stats"][k] for k in ("global", "ports")})' "$B" "$R2")"
cmd "stats --from $R2"
printf '%s' "$(jq_ 'o["output"]')" >"$FG_TMP/from.txt"
check_grep "stats --from: the text names the line" '^Record .*int.jsonl, line [0-9]+: seq [0-9]+, .*, run 1, idle, final$' "$FG_TMP/from.txt"
check_grep "stats --from: the tables of stats, with the figures" \
	"^tx_pkts +: $(json_get "$FG_TMP/int.stats" global.tx_pkts) " "$FG_TMP/from.txt"
check_grep "stats --from: the ports' table" '^opackets +\|' "$FG_TMP/from.txt"
cmd "stats --from $FG_TMP/none.jsonl"
check_eq "stats --from a missing file: refused" "False failed" "$(jq_ 'o["ok"], o["error"]["code"]' | tr -d "(),'")"

# b. SIGTERM: at least 1.5 s of its traffic before the pause
sleep "$(awk -v a="$T4" -v b="$(date +%s.%N)" 'BEGIN { r = 1.5 - (b - a); print (r > 0 ? r : 0) }')"
cmd 'pause'
sleep 0.3
cmd 'stats --json'
echo "$B" >"$FG_TMP/term.stats"

lane_end kill

# a copy with garbage in the middle and a partial last line
R1B=$FG_TMP/damaged.jsonl
nl=$(count_lines "$R1")
{
	head -n 3 "$R1"
	echo 'not json'
	tail -n +4 "$R1"
	head -n 2 "$R1" | tail -n 1 | cut -c1-200 | tr -d '\n'
} >"$R1B"
cmd "stats --from $R1B --json"
echo "$B" >"$FG_TMP/damaged.json"
check_eq "a damaged record: stats --from skips the partial last line" True \
	"$(python3 -c 'import json, sys; o = json.load(open(sys.argv[1])); L = [json.loads(l) for l in open(sys.argv[2]) if l.strip()]; print(o["ok"] and o["json"] == L[-1]["stats"])' "$FG_TMP/damaged.json" "$R1")"
check_eq "a damaged record: a warning per bad line, naming FILE:LINE" "True True" \
	"$(jq_ '"damaged.jsonl:4: skipped: not a record line" in o["output"], "damaged.jsonl:'$((nl + 2))': skipped: a partial last line" in o["output"]' | tr -d '(),')"
SVG=$FG_TMP/rec.svg
cmd "record plot $R1B $SVG"
check_eq "record plot: its value" "True $nl 2" \
	"$(jq_ 'o["ok"], o["json"]["points"], o["json"]["skipped"]' | tr -d "(),'")"
cmd "record plot $R3 $FG_TMP/console.svg"
# the pictures, read in a lane beside the SIGTERM below (files only)
plots()
{
	# the console's FIFO and fg_jq.sh's are not this lane's to hold open
	exec 7>&- {FG_JQW}>&- {FG_JQR}<&-
	python3 - "$R1" >"$FG_TMP/plot.json" <<-'PY'
		import json, sys
		L = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
		r = [o for o in L if o["stats"]["global"]["tx_pps"] is not None]
		print(json.dumps({"tx": [[o["t"] - L[0]["t"], o["stats"]["global"]["tx_pps"]] for o in r],
		                  "rx": [[o["t"] - L[0]["t"], o["stats"]["global"]["rx_pps"]] for o in r]}))
	PY
	svg_check "record plot: a tx_pps point per line, at its time" "$SVG" "$FG_TMP/plot.json" \
		'(lambda p: len(p) == len(o["tx"]) >= 7 and all(eq(a[0], b[0]) and eq(a[1], b[1]) for a, b in zip(p, o["tx"])))([q for q in pts() if q[2] == "tx_pps"])'
	svg_check "record plot: an rx_pps point per line" "$SVG" "$FG_TMP/plot.json" \
		'(lambda p: len(p) == len(o["rx"]) and all(eq(a[0], b[0]) and eq(a[1], b[1]) for a, b in zip(p, o["rx"])))([q for q in pts() if q[2] == "rx_pps"])'
	svg_check "record plot: the run's end marked" "$FG_TMP/console.svg" "$FG_TMP/plot.json" \
		'list(marks()) == ["end of run 1"]'
}
lane plots plots

# --- b. SIGTERM while serving the API (its run began, and was paused, above) -------------

k=$(date +%s.%N)
kill -TERM "$FG_PID"
pid_end "$FG_PID" 20
# (status 1: the signal cut the console's batch input short, as a ^C does)
check "SIGTERM ends a flowgen serving the API (status $RC)" test "$RC" != running

# c. without a config: reading needs no port
rc=0
fg_plain -C /nonexistent.yaml --json -x "stats --from $R4 -g" >"$FG_TMP/offline.out" 2>"$FG_TMP/offline.err" || rc=$?
recpys "$R4" \
	"SIGTERM: the last line is final, the exit's, taken after the signal" \
	"L[-1]['reason'] == 'exit' and L[-1]['final'] and L[-1]['t'] >= $k and [(o['reason'], o['run_id']) for o in L if o['final']] == [('end', 3), ('exit', 3)]" \
	"SIGTERM: the last line's tx is what flowgen printed paused, every frame received" \
	"(lambda p: g(L[-1], 'tx_pkts') == p['global']['tx_pkts'] > 1000 and g(L[-1], 'rx_pkts') == g(L[-1], 'tx_pkts'))(json.load(open('$FG_TMP/term.stats'))['json'])" \
	"flowgen -x 'stats --from FILE' without a config: the last line's global" \
	"json.load(open('$FG_TMP/offline.out')) == {'global': L[-1]['stats']['global']}"
check_eq "flowgen --json -x 'stats --from FILE' without a config: exit 0" 0 "$rc"
lane_end plots

echo "# 64_record.sh: $(awk -v a="$T0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"
finish
