#!/usr/bin/env bash
#
# soak.sh — long-run stability (`make soak`).
#
# 1. Soak: one flowgen in the NAT lab runs test/data/robust_mixed.yaml (UDP
#    and TCP flows side by side) at a moderate rate for SOAK_SECS seconds
#    (default 600). Every 10 s it samples flowgen's resident set size
#    (VmRSS in /proc/PID/status) and its counters (`stats --json`, sent on
#    flowgen's stdin). After the warm-up (the first SOAK_WARM seconds,
#    default 60) the RSS must stay within +-5 % of its first post-warm-up
#    sample. After `stop` and the drain: client started = completed + failed
#    + active with active = 0, completed >= 99 % of started, the server
#    accepted what the clients started.
# 2. Sanitizers: the same traffic for SOAK_ASAN_SECS seconds (default 60) on
#    build/san/flowgen (`make SAN=address,undefined`) with LeakSanitizer on;
#    (halt_on_error=0: every report, leaks included, is gathered;
#    verify_asan_link_order=0 because stdbuf preloads a library) and
#    its output must hold no AddressSanitizer, LeakSanitizer or UBSan report
#    and it must exit 0. SOAK_ASAN_SECS=0 skips it.
#
# Prints the RSS series and the counter figures, a verdict line
# `soak: PASS ...` or `soak: FAIL ...`, and exits 0 only on PASS.
# Environment: SOAK_SECS, SOAK_WARM, SOAK_MULT (default 100: 100 UDP + 100
# TCP flows/s), SOAK_ASAN_SECS.

. "$(dirname "$0")/e2e/lib.sh"

SECS=${SOAK_SECS:-600}
WARM=${SOAK_WARM:-60}
MULT=${SOAK_MULT:-100}
ASAN_SECS=${SOAK_ASAN_SECS:-60}
PROF=$FG_TOP/test/data/robust_mixed.yaml
[ "$WARM" -lt "$SECS" ] || WARM=$((SECS / 5))

need_root "soak: lab"
lab_up nat || exit 1

# fg_session BIN OUT : starts BIN inside the tester namespace reading
# commands from a FIFO on fd 3; sets FGPID
fg_session()
{
	local bin=$1 out=$2 fifo=$FG_TMP/cmd.$RANDOM
	mkfifo "$fifo"
	ip netns exec "$NS_TST" stdbuf -oL -eL "$bin" -C "$CFG" -b <"$fifo" >"$out" 2>&1 &
	FGPID=$!
	exec 3>"$fifo"
	at_exit "kill $FGPID 2>/dev/null"
}

# flowgen may have gone: a write to its FIFO must not kill the script
trap '' PIPE
cmd()
{
	echo "$*" >&3 2>/dev/null || true
}

# finish_session SECS : quit, wait at most SECS for the exit; sets FGRC
finish_session()
{
	local i rc=0 hung=no
	cmd quit
	exec 3>&-
	for ((i = 0; i < $1 * 5; i++)); do
		kill -0 "$FGPID" 2>/dev/null || break
		sleep 0.2
	done
	if kill -0 "$FGPID" 2>/dev/null; then
		kill -KILL "$FGPID" 2>/dev/null
		hung=yes
	fi
	wait "$FGPID" || rc=$?
	FGRC=$rc
	[ $hung = no ] || FGRC=hang
}

rss_kb()
{
	awk '/^VmRSS:/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0
}

# flows_figures FILE : prints the client/server figures of the last stats
flows_figures()
{
	local f
	for f in started established completed failed active fail_reasons.no_reply \
		fail_reasons.timeout fail_reasons.reset fail_reasons.retransmits_exhausted \
		fail_reasons.table_full aborted; do
		printf '%s=%s ' "$f" "$(json_get "$1" "flows.client.$f" || echo ?)"
	done
	printf 'server.accepted=%s server.completed=%s\n' \
		"$(json_get "$1" flows.server.accepted || echo ?)" \
		"$(json_get "$1" flows.server.completed || echo ?)"
}

# counters_consistent NAME FILE
counters_consistent()
{
	local n=$1 f=$2 st co fa ac
	st=$(json_get "$f" flows.client.started || echo -1)
	co=$(json_get "$f" flows.client.completed || echo -1)
	fa=$(json_get "$f" flows.client.failed || echo -1)
	ac=$(json_get "$f" flows.client.active || echo -1)
	check_eq "$n: started = completed + failed + active" "$st" "$((co + fa + ac))"
	check_eq "$n: no flow active after stop and drain" 0 "$ac"
	check_ge "$n: completed >= 99% of started" "$((co * 100))" "$((st * 99))"
	check_ge "$n: flows started" "$st" 1
	check_eq "$n: the server accepted every started flow" "$st" \
		"$(json_get "$f" flows.server.accepted || echo -1)"
}

# --- 1. soak -------------------------------------------------------------------
echo "# soak: $SECS s of $PROF at -m $MULT, warm-up $WARM s"
O=$FG_TMP/soak.out
fg_session "$FG_BIN" "$O"
cmd "arp"
cmd "start -f $PROF -m $MULT"
if ! wait_for '^started ' "$O" 30 "$FGPID"; then
	fail "soak: traffic started" "$(tail -n 5 "$O")"
	finish_session 10
	echo "soak: FAIL (traffic did not start)"
	exit 1
fi
t0=$(date +%s)
RSS=()
base=
lo=
hi=
n=0
while :; do
	sleep 10
	now=$(($(date +%s) - t0))
	kill -0 "$FGPID" 2>/dev/null || break
	r=$(rss_kb "$FGPID")
	RSS+=("$now:$r")
	cmd "stats --json"
	if [ "$now" -ge "$WARM" ]; then
		[ -n "$base" ] || base=$r
		[ -z "$lo" ] || [ "$r" -lt "$lo" ] && lo=$r
		[ -z "$hi" ] || [ "$r" -gt "$hi" ] && hi=$r
	fi
	n=$((n + 1))
	printf '# t=%4ds rss=%s kB\n' "$now" "$r"
	[ "$now" -lt "$SECS" ] || break
done
alive=no
kill -0 "$FGPID" 2>/dev/null && alive=yes
check_eq "soak: flowgen alive after $SECS s" yes "$alive"
sleep 1
cp "$O" "$FG_TMP/soak.running"
cmd "stop"
cmd "wait 15"
cmd "stats --json"
cmd "echo soak-done"
wait_for '^soak-done' "$O" 40 "$FGPID"
finish_session 20
check_eq "soak: flowgen exits 0" 0 "$FGRC"
[ "$FGRC" = 0 ] || grep -Ev '^[{#]' "$O" | head -n 12 | sed 's/^/#   /'

echo "# RSS series (s:kB): ${RSS[*]}"
if [ -n "$base" ]; then
	echo "# RSS after warm-up: first $base kB, min $lo kB, max $hi kB"
	check_ge "soak: RSS after warm-up stays >= -5% of $base kB" "$((lo * 100))" "$((base * 95))"
	check_ge "soak: RSS after warm-up stays <= +5% of $base kB" "$((base * 105))" "$((hi * 100))"
else
	fail "soak: RSS sampled after warm-up" "no sample after $WARM s"
fi
echo "# counters while running: $(flows_figures "$FG_TMP/soak.running")"
echo "# counters after stop:    $(flows_figures "$O")"
check_ge "soak: about $((2 * MULT)) flows/s started" \
	"$(json_get "$O" flows.client.started || echo 0)" $((2 * MULT * SECS * 9 / 10))
counters_consistent "soak" "$O"

# --- 2. sanitizers ----------------------------------------------------------------
SAN_BIN=$FG_TOP/build/san/flowgen
if [ "$ASAN_SECS" -gt 0 ]; then
	if [ ! -x "$SAN_BIN" ] || [ "$SAN_BIN" -ot "$FG_BIN" ]; then
		make -C "$FG_TOP" --no-print-directory SAN=address,undefined build/san/flowgen \
			>"$FG_TMP/san.build" 2>&1 ||
			fail "soak asan: build/san/flowgen builds" "$(tail -n 5 "$FG_TMP/san.build")"
	fi
	echo "# sanitizers: $ASAN_SECS s of $PROF at -m $MULT on $SAN_BIN"
	O=$FG_TMP/san.out
	export ASAN_OPTIONS=detect_leaks=1:verify_asan_link_order=0:halt_on_error=0:abort_on_error=0:detect_odr_violation=0
	export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
	export LSAN_OPTIONS=report_objects=1
	fg_session "$SAN_BIN" "$O"
	cmd "arp"
	cmd "start -f $PROF -m $MULT -d $ASAN_SECS"
	cmd "wait $((ASAN_SECS + 20))"
	cmd "stats --json"
	cmd "echo san-done"
	wait_for '^san-done' "$O" $((ASAN_SECS + 60)) "$FGPID"
	finish_session 30
	check_eq "soak asan: flowgen exits 0" 0 "$FGRC"
	[ "$FGRC" = 0 ] || grep -Ev '^[{#]' "$O" | head -n 12 | sed 's/^/#   /'
	check_nogrep "soak asan: no sanitizer report" \
		'ERROR: (Address|Leak)Sanitizer|runtime error:|SUMMARY: .*Sanitizer' "$O"
	echo "# sanitizer run counters: $(flows_figures "$O")"
	counters_consistent "soak asan" "$O"
	grep -E -A12 'Sanitizer|runtime error' "$O" | head -n 40 | sed 's/^/#   /'
fi

lab_down
if [ "$FG_NFAIL" -eq 0 ]; then
	echo "soak: PASS ($FG_NPASS checks, ${SECS} s soak, RSS ${base:-?}..${hi:-?} kB)"
else
	echo "soak: FAIL ($FG_NFAIL of $((FG_NPASS + FG_NFAIL)) checks failed)"
fi
[ "$FG_NFAIL" -eq 0 ]
