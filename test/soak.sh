#!/usr/bin/env bash
#
# soak.sh — long runs stay flat (`make soak`; README, "Longer runs").
#
# One hour compressed to ten minutes. A flowgen runs one profile of one
# mode at a time (flows or streams, flowgen-profile(5)), so flows and
# streams run together as two flowgen processes started together, each
# in a NAT lab of its own built by test/e2e/lib.sh (examples/lab.sh: a
# Linux router doing nftables masquerade), each with its HTTP API
# (README, "The HTTP API"; a bearer token) polled 10 times a second for
# the whole soak:
#   flows    test/data/soak_flows.yaml at -m SOAK_MULT (300): 300 UDP and
#            300 TCP flows per second, each one second long (two exchanges
#            a second apart; TCP closes with FIN);
#   streams  test/data/soak_streams.yaml: a latency stream both ways, 1,000
#            frames/s from each port, 16 fixed address pairs.
#
# The compression. The ordinary hour: 50 UDP + 50 TCP flows/s, each 6 s
# long, against Linux's default conntrack timeouts (udp_timeout 30 s,
# tcp_timeout_time_wait 120 s, ...). The ten minutes: six times the rate,
# flows one sixth as long, every DUT timeout one sixth (SOAK_TIMEOUTS:
# udp 5 s, udp stream 20 s, TCP SYN_SENT 20 s, SYN_RECV 10 s, FIN_WAIT 20
# s, CLOSE_WAIT 10 s, LAST_ACK 5 s, TIME_WAIT 20 s, established 72,000 s,
# ICMP 5 s). A table's size is its rate times its entries' lifetime, and
# it turns over once per lifetime, so both stay what the hour has:
#   flowgen's flow table    100/s x 6 s = 600/s x 1 s = 600 client flows
#                           (and 600 server flows);
#   the DUT's conntrack     UDP: the last packet at 6 s + 30 s = 36 s, 50/s x
#                           36 s = 1,800 entries; compressed 1 s + 5 s = 6 s,
#                           300/s x 6 s = 1,800. TCP: FIN at 6 s, then
#                           TIME_WAIT 120 s = 126 s, 50/s x 126 s = 6,300;
#                           compressed 1 s + 20 s = 21 s, 300/s x 21 s =
#                           6,300. 8,100 entries either way, turned over
#                           3600/36 = 600/6 = 100 times (UDP) and 3600/126
#                           = 600/21 = 28.6 times (TCP);
#   flows in all            100/s x 3600 s = 600/s x 600 s = 360,000;
#   streams                 167 frames/s for an hour = 1,000/s for ten
#                           minutes (no table: 32 fixed connections).
# The DUT's table is sampled and checked against that figure.
#
# Two seconds into the traffic, GET /metrics of each (with the token)
# gives each port's pool of 16,384 mbufs and its mbufs in use.
#
# Every SOAK_EVERY seconds (10), for each flowgen: VmRSS and Threads
# (/proc/PID/status), the open descriptors (/proc/PID/fd), the mbufs in
# use over its ports' pools (stats --json, ports[].mempool, through the
# API: at the instant and the mean of the 100 polls before; DPDK counts
# the lcores' caches as available, so in use leaves them out, flowgen(8),
# STATISTICS); and the DUT's live conntrack entries. After the warm-up (SOAK_WARM, 60 s; the DUT's
# longest entry lives 21 s): RSS within +-SOAK_RSS_PCT (5) % of its first
# post-warm-up sample; descriptors and threads exactly constant; the mbufs
# in use without a growth trend: the mean of the last third of the
# samples at most the first third's + max(64, 10 % of it), and below a
# quarter of the pools at every sample; the DUT's table within 25 % of
# the 8,100 above. Counters that must not grow are 0 at the end, so flat
# all along: every port's rx_bad, mbuf_fail, punt_drop, tx_queue_full,
# oerrors, ierrors and imissed; late flows and frames (beyond what the
# workers' own stalls beyond the pacer's bound explain, stall_late_ms x
# rate: 77_stall.sh's rule; both workers poll CPU 1, examples/lab.yaml's
# thread, and take turns on it, the pollers and the main lcores run on
# CPU 0, and the machine is shared); short_of_offer never set at a poll
# after the warm-up; the DUT's conntrack drop, early_drop and insert_failed 0.
# The API: 10 polls a second (98 % of SECS x 10 or more), every poll
# answered (status 200, ok, a stats object), no error and no reconnection,
# the slowest answer at most SOAK_SLOWEST_MS (500 ms), the polls while
# `stop` drains the flows included (the console answers the API then, as
# in `wait`; it held a poll for the drain, 999 ms, before). After `stop` and
# the drain: flows started = completed + failed + active, active 0, failed
# at most SOAK_FAIL_PCT (0.01) % of started, started at the offer (+-2 %),
# the server accepted every flow that did not fail; each stream direction
# sent = received + lost, lost 0 (the DUT is far from overloaded at these
# rates), no duplicate, refused or stale frame, sent at the offer (+-2 %).
# flowgen exits 0. test/soak_poll.py polls and judges.
#
# Then the sanitizer minute: the same two flowgens and pollers for
# SOAK_ASAN_SECS (60) on build/san/flowgen (`make SAN=address,undefined`,
# built here when older than build/flowgen) with LeakSanitizer on
# (halt_on_error=0: every report, leaks included, is gathered;
# verify_asan_link_order=0 because stdbuf preloads a library), at -m
# SOAK_ASAN_MULT (100) and the streams at 0.2 of their rate (the -O0
# sanitizer build is several times slower); no report in their output,
# exit 0, the books balance, every poll answered. SOAK_ASAN_SECS=0 skips
# it.
#
# Prints the samples as they come, the figures (RSS, descriptors, threads
# and mbufs in use at start, after warm-up, middle and end; flows; API
# polls and the slowest answer), a summary line and the verdict `soak:
# PASS ...` or `soak: FAIL ...`; exits 0 only on PASS.
# Environment: SOAK_SECS, SOAK_WARM, SOAK_MULT, SOAK_EVERY, SOAK_HZ,
# SOAK_RSS_PCT, SOAK_FAIL_PCT, SOAK_SLOWEST_MS, SOAK_ASAN_SECS,
# SOAK_ASAN_MULT.

. "$(dirname "$0")/e2e/lib.sh"

SECS=${SOAK_SECS:-600}
WARM=${SOAK_WARM:-60}
MULT=${SOAK_MULT:-300}
EVERY=${SOAK_EVERY:-10}
HZ=${SOAK_HZ:-10}
RSS_PCT=${SOAK_RSS_PCT:-5}
FAIL_PCT=${SOAK_FAIL_PCT:-0.01}
SLOWEST_MS=${SOAK_SLOWEST_MS:-500}
ASAN_SECS=${SOAK_ASAN_SECS:-60}
ASAN_MULT=${SOAK_ASAN_MULT:-100}
PPS=1000 # test/data/soak_streams.yaml's rate, from each port
FPROF=$FG_TOP/test/data/soak_flows.yaml
SPROF=$FG_TOP/test/data/soak_streams.yaml
POLL=$FG_TOP/test/soak_poll.py
# the DUT's timeouts, one sixth of Linux's defaults (the arithmetic above)
SOAK_TIMEOUTS=udp_timeout=5,udp_timeout_stream=20,icmp_timeout=5,tcp_timeout_syn_sent=20
SOAK_TIMEOUTS+=,tcp_timeout_syn_recv=10,tcp_timeout_fin_wait=20,tcp_timeout_close_wait=10
SOAK_TIMEOUTS+=,tcp_timeout_last_ack=5,tcp_timeout_time_wait=20,tcp_timeout_established=72000
[ "$WARM" -lt "$SECS" ] || WARM=$((SECS / 5))

need_root "soak: lab"
need_flowgen
command -v taskset >/dev/null || { fail "soak: taskset is installed" "Debian: util-linux"; exit 1; }

# two labs, the DUT's timeouts compressed
FG_NAT_TIMEOUT=$SOAK_TIMEOUTS lab_up nat fl || exit 1
FL_TST=$NS_TST FL_DUT=$NS_DUT
FG_NAT_TIMEOUT=$SOAK_TIMEOUTS lab_up nat st || exit 1
ST_TST=$NS_TST ST_DUT=$NS_DUT
head -c 24 /dev/urandom | base64 >"$FG_TMP/token"

# flowgen may have gone: a write to its FIFO must not kill the script
trap '' PIPE

declare -A SPID SFD SOUT SPORT SRC PPID_ PNS
# session NAME NS BIN : flowgen BIN in namespace NS, its console a FIFO,
# its API on a free port of that namespace's loopback with the token
session()
{
	local name=$1 ns=$2 bin=$3 fifo=$FG_TMP/cmd.$1 fd
	rm -f "$fifo"
	mkfifo "$fifo"
	SOUT[$name]=$FG_TMP/$name.out
	SPORT[$name]=$(ip netns exec "$ns" python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	ip netns exec "$ns" stdbuf -oL -eL "$bin" -C "$CFG" -b -k --name "soak-$name" \
		--api "${SPORT[$name]}" --api-token-file "$FG_TMP/token" \
		<"$fifo" >"${SOUT[$name]}" 2>&1 &
	SPID[$name]=$!
	at_exit "kill ${SPID[$name]} 2>/dev/null"
	exec {fd}>"$fifo"
	SFD[$name]=$fd
	PNS[$name]=$ns
}

# cmd NAME LINE : a console line to session NAME
cmd()
{
	echo "$2" >&"${SFD[$1]}" 2>/dev/null || true
}

# poller NAME : test/soak_poll.py on NAME's API from its namespace, on
# CPU 0 (the main lcores'; the workers poll CPU 1)
poller()
{
	local n=$1
	rm -f "$FG_TMP/stop.$n"
	ip netns exec "${PNS[$n]}" taskset -c 0 python3 "$POLL" poll --port "${SPORT[$n]}" \
		--token-file "$FG_TMP/token" --pid "${SPID[$n]}" --hz "$HZ" --every "$EVERY" \
		--out "$FG_TMP/$n.samples" --summary "$FG_TMP/$n.summary" \
		--stop "$FG_TMP/stop.$n" --stopping "$FG_TMP/stopping" 2>"$FG_TMP/$n.poll.err" &
	PPID_[$n]=$!
	at_exit "kill ${PPID_[$n]} 2>/dev/null"
}

# finish_session NAME SECS : quit, wait at most SECS for the exit; SRC[NAME]
# its exit status or "hang"
finish_session()
{
	local n=$1 i rc=0 fd=${SFD[$1]}
	cmd "$n" quit
	exec {fd}>&-
	for ((i = 0; i < $2 * 5; i++)); do
		kill -0 "${SPID[$n]}" 2>/dev/null || break
		sleep 0.2
	done
	if kill -0 "${SPID[$n]}" 2>/dev/null; then
		kill -KILL "${SPID[$n]}" 2>/dev/null
		wait "${SPID[$n]}"
		SRC[$n]=hang
		return
	fi
	wait "${SPID[$n]}" || rc=$?
	SRC[$n]=$rc
}

# last_sample NAME : "rss=.. fds=.. thr=.. mbufs=.. polls=.." of NAME's last sample
last_sample()
{
	tail -n 1 "$FG_TMP/$1.samples" 2>/dev/null | python3 -c '
import json, sys
try:
    s = json.loads(sys.stdin.read())
    print("rss=%s kB fds=%s thr=%s mbufs=%s polls=%s err=%s" % (s["rss_kb"], s["fds"], s["threads"],
          s["mempool_in_use"], s["polls"], s["errors"]))
except Exception:
    print("(no sample)")'
}

# ct_count NS : the DUT's live conntrack entries (a dump leaves out the
# expired ones that nf_conntrack_count holds until the kernel's collector
# comes by)
ct_count()
{
	ip netns exec "$1" conntrack -L 2>/dev/null | wc -l
}

# ct_stats NS : the DUT's conntrack drop, early_drop and insert_failed summed
# over the CPUs ("drop=N early_drop=N insert_failed=N")
ct_stats()
{
	ip netns exec "$1" conntrack -S 2>/dev/null | awk '
		{ for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] in want) want[kv[1]] += kv[2] } }
		BEGIN { want["drop"] = 0; want["early_drop"] = 0; want["insert_failed"] = 0 }
		END { printf "drop=%d early_drop=%d insert_failed=%d\n", want["drop"], want["early_drop"], want["insert_failed"] }'
}

# judge NAME KIND ARGS... : test/soak_poll.py judge; its lines counted here
judge()
{
	local n=$1 k=$2 v r
	shift 2
	while IFS=$'\t' read -r v n2 r; do
		case $v in
		PASS) pass "$n2" ;;
		FAIL) fail "$n2" "$r" ;;
		FIG) FIGS+=("$n2: $r") ;;
		*) fail "$n: judge" "$v $n2 $r" ;;
		esac
	done < <(python3 "$POLL" judge --name "$n" --kind "$k" --samples "$FG_TMP/$n.samples" \
		--summary "$FG_TMP/$n.summary" --final "${SOUT[$n]}" --hz "$HZ" --every "$EVERY" "$@" 2>&1 ||
		printf 'FAIL\t%s: judge ran\texit status %s\n' "$n" $?)
}

# soak BIN SECS MULT SMULT : both flowgens from start to quit, polled; sets
# STOP_AT (the time of the `stop`, seconds since the epoch)
soak()
{
	local bin=$1 secs=$2 mult=$3 smult=$4 n t0 now c1
	rm -f "$FG_TMP/stopping"
	session fl "$FL_TST" "$bin"
	session st "$ST_TST" "$bin"
	for n in fl st; do
		if ! wait_for '^api: listening on http://127.0.0.1:' "${SOUT[$n]}" 60 "${SPID[$n]}"; then
			fail "soak $n: flowgen's API listens" "$(tail -n 5 "${SOUT[$n]}")"
			return 1
		fi
		cmd $n arp
	done
	cmd fl "start -f $FPROF -m $mult"
	cmd st "start -f $SPROF -m $smult"
	for n in fl st; do
		if ! wait_for '^started ' "${SOUT[$n]}" 30 "${SPID[$n]}"; then
			fail "soak $n: traffic started" "$(tail -n 5 "${SOUT[$n]}")"
			return 1
		fi
	done
	t0=$(date +%s.%N)
	poller fl
	poller st
	sleep 2
	for n in fl st; do
		# GET /metrics has the pools too (its connection's thread is gone
		# long before the first sample after the warm-up)
		ip netns exec "${PNS[$n]}" curl -s -m 10 -H "Authorization: Bearer $(cat "$FG_TMP/token")" \
			"http://127.0.0.1:${SPORT[$n]}/metrics" >"$FG_TMP/$n.metrics" 2>&1
		check_eq "soak $n: GET /metrics: each port's pool of 16384 mbufs" \
			"pool0 16384 pool1 16384" "$(sed -nE 's/^flowgen_mbuf_pool_size\{.*pool="([a-z0-9]+)"\} ([0-9]+)$/\1 \2/p' \
				"$FG_TMP/$n.metrics" | tr '\n' ' ' | sed 's/ $//')"
		check_grep "soak $n: GET /metrics: the mbufs in use" \
			'^flowgen_mbuf_pool_in_use\{.*port="1",pool="pool1"\} [0-9]+$' "$FG_TMP/$n.metrics"
	done
	: >"$FG_TMP/dut.samples"
	while :; do
		sleep "$EVERY"
		now=$(awk -v a="$(date +%s.%N)" -v b="$t0" 'BEGIN { printf "%d", a - b }')
		kill -0 "${SPID[fl]}" 2>/dev/null && kill -0 "${SPID[st]}" 2>/dev/null || break
		c1=$(ct_count "$FL_DUT")
		echo "$now $c1 $(ct_count "$ST_DUT")" >>"$FG_TMP/dut.samples"
		printf '# t=%4ds flows: %s | streams: %s | DUT conntrack %s\n' "$now" \
			"$(last_sample fl)" "$(last_sample st)" "$c1"
		[ "$now" -lt "$secs" ] || break
	done
	touch "$FG_TMP/stopping"
	STOP_AT=$(date +%s.%N)
	for n in fl st; do
		cmd $n stop
	done
	for n in fl st; do
		cmd $n "wait 15"
		cmd $n "stats --json"
		cmd $n "echo soak-done"
	done
	for n in fl st; do
		wait_for '^soak-done' "${SOUT[$n]}" 40 "${SPID[$n]}" ||
			fail "soak $n: stop, drain and the last stats" "$(tail -n 3 "${SOUT[$n]}")"
	done
	sleep 1 # the pollers see the drained run too
	for n in fl st; do
		touch "$FG_TMP/stop.$n"
	done
	for n in fl st; do
		wait "${PPID_[$n]}" || fail "soak $n: the poller ran to its end" "$(tail -n 3 "$FG_TMP/$n.poll.err")"
	done
	for n in fl st; do
		finish_session $n 30
	done
}

FIGS=()
# --- 1. soak ----------------------------------------------------------------------
echo "# soak: $SECS s (warm-up $WARM s): $FPROF at -m $MULT in $FL_TST, $SPROF in $ST_TST;" \
	"API polled $HZ/s; DUT timeouts $SOAK_TIMEOUTS"
soak "$FG_BIN" "$SECS" "$MULT" 1
for n in fl st; do
	check_eq "soak $n: flowgen alive to the end and exits 0" 0 "${SRC[$n]}"
	[ "${SRC[$n]}" = 0 ] || grep -Ev '^[{#]' "${SOUT[$n]}" | head -n 12 | sed 's/^/#   /'
done
judge fl flows --secs "$SECS" --warm "$WARM" --stop-at "$STOP_AT" --cps $((2 * MULT)) \
	--rss-pct "$RSS_PCT" --fail-pct "$FAIL_PCT" --slowest-ms "$SLOWEST_MS"
judge st streams --secs "$SECS" --warm "$WARM" --stop-at "$STOP_AT" --pps "$PPS" \
	--rss-pct "$RSS_PCT" --slowest-ms "$SLOWEST_MS"
# the DUT's table: 8,100 entries at -m 300 (the arithmetic above), in
# proportion at another -m; the streams' lab holds its 32
DUT_WANT=$((MULT * 6 + MULT * 21))
DUT_FIG=$(python3 - "$FG_TMP/dut.samples" "$WARM" "$DUT_WANT" <<-'PY'
	import sys
	rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
	warm = [(int(t), int(a), int(b)) for t, a, b in rows if int(t) >= int(sys.argv[2])]
	want = int(sys.argv[3])
	if len(warm) < 3:
	    print("FAIL too few samples after warm-up: %d" % len(warm))
	    sys.exit()
	lo, hi = min(a for _, a, _ in warm), max(a for _, a, _ in warm)
	mid = warm[len(warm) // 2]
	ok = all(abs(a - want) <= 0.25 * want for _, a, _ in warm)
	print("%s start@%ss=%s middle@%ss=%s end@%ss=%s min %d max %d; streams' lab %d..%d" % (
	    "PASS" if ok else "FAIL", warm[0][0], warm[0][1], mid[0], mid[1], warm[-1][0], warm[-1][1],
	    lo, hi, min(b for *_, b in warm), max(b for *_, b in warm)))
PY
)
FIGS+=("DUT conntrack entries after warm-up (flows' lab): ${DUT_FIG#* }")
if [ "${DUT_FIG%% *}" = PASS ]; then
	pass "soak: the DUT's conntrack table after warm-up within 25 % of $DUT_WANT entries"
else
	fail "soak: the DUT's conntrack table after warm-up within 25 % of $DUT_WANT entries" "${DUT_FIG#* }"
fi
for ns in "$FL_DUT" "$ST_DUT"; do
	check_eq "soak: the DUT ($ns) dropped no connection: conntrack -S" \
		"drop=0 early_drop=0 insert_failed=0" "$(ct_stats "$ns")"
done

# --- 2. sanitizers -------------------------------------------------------------------
SAN_BIN=$FG_TOP/build/san/flowgen
if [ "$ASAN_SECS" -gt 0 ]; then
	if [ ! -x "$SAN_BIN" ] || [ "$SAN_BIN" -ot "$FG_BIN" ]; then
		make -C "$FG_TOP" --no-print-directory SAN=address,undefined build/san/flowgen \
			>"$FG_TMP/san.build" 2>&1 ||
			fail "soak asan: build/san/flowgen builds" "$(tail -n 5 "$FG_TMP/san.build")"
	fi
	echo "# sanitizers: $ASAN_SECS s of both on $SAN_BIN, flows at -m $ASAN_MULT, streams at -m 0.2"
	export ASAN_OPTIONS=detect_leaks=1:verify_asan_link_order=0:halt_on_error=0:abort_on_error=0:detect_odr_violation=0
	export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
	export LSAN_OPTIONS=report_objects=1
	mkdir -p "$FG_TMP/soak"
	for n in fl st; do
		mv "${SOUT[$n]}" "$FG_TMP/soak/"
	done
	soak "$SAN_BIN" "$ASAN_SECS" "$ASAN_MULT" 0.2
	unset ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS
	for n in fl st; do
		check_eq "soak asan $n: flowgen exits 0" 0 "${SRC[$n]}"
		[ "${SRC[$n]}" = 0 ] || grep -Ev '^[{#]' "${SOUT[$n]}" | head -n 12 | sed 's/^/#   /'
		check_nogrep "soak asan $n: no sanitizer report" \
			'ERROR: (Address|Leak)Sanitizer|runtime error:|SUMMARY: .*Sanitizer' "${SOUT[$n]}"
		grep -E -A12 'Sanitizer|runtime error' "${SOUT[$n]}" | head -n 40 | sed 's/^/#   /'
	done
	mapfile -t v < <(jvals "${SOUT[fl]}" flows.client.started flows.client.completed \
		flows.client.failed flows.client.active)
	check_eq "soak asan fl: books balance, none active" "${v[0]} = ${v[0]} 0" \
		"${v[0]} = $((v[1] + v[2] + v[3])) ${v[3]}"
	check_ge "soak asan fl: flows started" "${v[0]}" 1
	check_ge "soak asan fl: completed >= 99 % of started" "$((v[1] * 100))" "$((v[0] * 99))"
	mapfile -t v < <(jvals "${SOUT[st]}" '=sum(r["tx"] for r in o["latency"])' \
		'=sum(r["rx"] + r["lost"] for r in o["latency"])' '=sum(r["lost"] for r in o["latency"])')
	check_eq "soak asan st: sent = received + lost, lost 0" "${v[0]} ${v[0]} 0" "${v[0]} ${v[1]} ${v[2]}"
	for n in fl st; do
		mapfile -t v < <(python3 -c 'import json, sys; s = json.load(open(sys.argv[1])); print(s["polls"]); print(s["answers"]); print(s["errors"]); print(s["slowest_ms"])' "$FG_TMP/$n.summary")
		FIGS+=("asan $n api: ${v[0]} polls, ${v[1]} answered, ${v[2]} errors, slowest ${v[3]} ms")
		check_eq "soak asan $n: every poll answered, no error" "${v[0]} 0" "${v[1]} ${v[2]}"
	done
fi

echo "# figures:"
for f in "${FIGS[@]}"; do
	echo "#   $f"
done
rssline=$(printf '%s\n' "${FIGS[@]}" | awk -F': ' '/^(fl|st)\.(rss_kb|fds|mempool_in_use): / {
	split($1, k, "."); n = split($2, p, " "); s = ""
	for (i = 1; i <= n; i++) if (p[i] ~ /^(start|middle|end)@/) { sub(/@[0-9]+s=/, "=", p[i]); s = s " " p[i] }
	printf "%s %s%s;", k[1], k[2], s }')
if [ "$FG_NFAIL" -eq 0 ]; then
	echo "soak: PASS ($FG_NPASS checks, $SECS s;$rssline)"
else
	echo "soak: FAIL ($FG_NFAIL of $((FG_NPASS + FG_NFAIL)) checks failed;$rssline)"
fi
[ "$FG_NFAIL" -eq 0 ]
