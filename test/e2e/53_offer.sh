#!/usr/bin/env bash
#
# 53_offer.sh — offered against achieved (flowgen(8), STATISTICS). On a
# [loop, loop] pair (no lab):
#  - a UDP request/reply flows run at 4x what the tester achieves unpaced
#    (capped at the ports' line rate) reports the offer as offered_cps,
#    sets short_of_offer once it has stayed short for 2 s, and `stats -g`
#    prints the warning with the offered and achieved rates and a limit;
#  - the same profile at a rate the tester makes is not short and prints
#    no warning; a streams run reports its offer as offered_pps, and its
#    learning phase does not count as falling short.
#
# The flows runs are made by one flowgen, one after the other, its
# commands given as the runs go (lib.sh's fg_send and fg_wait): `start`
# clears the counters, and a rate spans the second before its sample
# (src/control/stats.c), so a run sampled 1 s or more after its start
# reads only its own traffic; without -k a command that fails ends
# flowgen, so a run whose every command succeeded is one whose mark
# comes back. The 4x run is polled (`stats --json -g`) from 1.9 s after
# its start until short_of_offer is set, no poll begun later than 2.9 s
# after the start returned, so that the sample is no later than the one
# it had 3 s after the start returned before: the flag comes 2 s after
# the first short sample, 2.2 to 2.6 s after the start returned here.
# The streams run goes beside the 4x run (see there). 7.7 to 8.4 s
# alone, from 12.2 to 12.6 s with a flowgen per run, one run at a time,
# the 4x run sampled at 3 s and the streams run's learning phase 2.5 s.

. "$(dirname "$0")/lib.sh"

need_flowgen
T0=$SECONDS
CFG=$(fg_loop_cfg)
P=$FG_TOP/test/bench/udp_rr.yaml

# the session's flowgen (FG_SOUT, FG_SPID and fd 8 of lib.sh's fg_send,
# fg_wait and fg_close)
FG_SOUT=$FG_TMP/offer.session
mkfifo "$FG_TMP/offer.in"
FG_TIMEOUT=60 fg_plain -C "$CFG" -b <"$FG_TMP/offer.in" >"$FG_SOUT" 2>&1 &
FG_SPID=$!
at_exit_kill $FG_SPID
exec 8>"$FG_TMP/offer.in"

# run NAME CMDS [SECS] : lib.sh's fg_run, its mark looked for every 20 ms
# rather than 100 ms (up to SECS, 30)
run()
{
	fg_send "$1" "$2"
	fg_wait "$1" "${3:-30}" 0.02
}

# part NAME PREV : what flowgen printed for fg_send NAME (after PREV's
# mark, up to NAME's) into $FG_TMP/NAME.part
part()
{
	awk -v a="MARK-$2" -v b="MARK-$1" -v p="${2:+0}" \
		'$0 == b { exit } p != "0" { print } $0 == a { p = 1 }' \
		"$FG_TMP/$1.out" >"$FG_TMP/$1.part"
}

# what the tester achieves unpaced
run max "start -f $P -m max -d 1; wait; stats --json -g"
check_eq "unpaced run: its commands succeed" 0 $?
part max
M=$FG_TMP/max.part
cap=$(json_get "$M" global.cps | cut -d. -f1)
check_ge "unpaced run achieves some CPS" "${cap:-0}" 1000
# 4x that, within the 10 Gbit/s of the loop ports (2 frames of 64 B a flow)
over=$((${cap:-0} * 4))
[ "$over" -gt 14000000 ] && over=14000000

# A paced run sharing the two CPUs with another flowgen's busy worker
# falls behind (its pacer counts frames late), which is what
# short_of_offer reports: the unpaced and the achievable runs go alone.
# The streams run goes beside the 4x run, in a flowgen of its own: what
# either checks cannot move on a busy CPU (the 4x run only falls further
# short; its flag comes from the sampler, on CPU 0, not from the
# workers, both on CPU 1; the streams run: next paragraph). Each run stops
# once it has been sampled.
# The streams run is sampled 0.6 s after its 2 s learning phase: its
# rate is still ramping up (about half the offer over the last second),
# and only its measured traffic may count towards a shortfall, not the
# learning phase before it (which once made this run look short): short
# from its first sample, 0.1 s in, to this one, 2.5 s later, a run whose
# learning phase counted is flagged, and one whose measured traffic
# counted is not, even starved of CPU. No drain: nothing is read after
# the last frame.
L=$FG_TMP/offer.stl
FG_TIMEOUT=30 fg_plain -C "$CFG" -x "start -f $FG_TOP/profiles/stl_64b.yaml -m 10kpps -d 4 -t learn_wait=2,drain=0; sleep 2.6; stats --json -g; stop" \
	>"$L" 2>&1 &
LPID=$!
at_exit_kill $LPID
run s0 "start -f $P -m ${over}cps -d 4"
t3=$(($(date +%s%N) + 2900000000))
run s1 "wait 1.9"
prev=s1
for ((i = 1; i <= 40; i++)); do
	[ "$(date +%s%N)" -lt "$t3" ] || break
	run "p$i" "stats --json -g" 10 || break
	prev=p$i
	grep -o '"short_of_offer":[a-z]*' "$FG_TMP/p$i.out" | tail -n 1 | grep -q true && break
done
echo "# 4x: short_of_offer $(grep -o '"short_of_offer":[a-z]*' "$FG_TMP/$prev.out" | tail -n 1 | cut -d: -f2)" \
	"$(((t3 - $(date +%s%N)) / 1000000)) ms before the last poll's time"
run short "stats -g; stats --json -g; stop"
check_eq "4x run: its commands succeed" 0 $?
part short "$prev"
S=$FG_TMP/short.part
wait $LPID
check_eq "streams run exits 0" 0 $?
run good "start -f $P -m 5000cps -d 3; wait 2.6; stats -g; stats --json -g; stop"
part good short
G=$FG_TMP/good.part
fg_close
check_eq "achievable run: its commands succeed, flowgen exits 0" "yes 0" \
	"$(grep -q '^MARK-good$' "$FG_SOUT" && echo yes || echo no) $FG_SRC"

# the three runs' figures, read by one python3
mapfile -t V < <(jvals "" "=get('$S', 'global.offered_cps')" "=get('$S', 'global.short_of_offer')" \
	"=get('$S', 'global.offer_limit')" "=get('$G', 'global.offered_cps')" \
	"=get('$G', 'global.short_of_offer')" "=get('$G', 'global.completed_cps')" \
	"=get('$L', 'global.offered_pps')" "=get('$L', 'global.short_of_offer')")
check_eq "4x: offered_cps is what -m asks" "$over" "$(echo "${V[0]:-}" | cut -d. -f1)"
check_eq "4x: short_of_offer is set" True "${V[1]:-}"
# (a name: not empty, null or absent)
check "4x: offer_limit names a limit" test -n "$(echo "${V[2]:-}" | grep -vx 'None\|missing')"
check_grep "4x: stats -g warns with offered and achieved rates and the limit" \
	'^WARNING: short of offer: offered [0-9.]+ [KM]?cps, achieved [0-9.]+ [KM]?cps; likely limit: ' "$S"

check_eq "5000cps: offered_cps is 5000" 5000 "$(echo "${V[3]:-}" | cut -d. -f1)"
check_eq "5000cps: short_of_offer is not set" False "${V[4]:-}"
if grep -q 'short of offer' "$G"; then
	fail "5000cps: no warning" "$(grep 'short of offer' "$G")"
else
	pass "5000cps: no warning"
fi
check_ge "5000cps: completed_cps near the offer" "$(echo "${V[5]:-}" | cut -d. -f1)" 4900

check_eq "streams 10kpps: offered_pps is 10000" 10000 "$(echo "${V[6]:-}" | cut -d. -f1)"
check_eq "streams 10kpps: short_of_offer is not set by the learning phase" False "${V[7]:-}"

echo "# 53_offer: $((SECONDS - T0)) s"
finish
