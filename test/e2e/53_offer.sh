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

. "$(dirname "$0")/lib.sh"

need_flowgen
T0=$SECONDS
CFG=$(fg_loop_cfg)
P=$FG_TOP/test/bench/udp_rr.yaml

# what the tester achieves unpaced
M=$FG_TMP/offer.max
FG_TIMEOUT=30 fg_plain -C "$CFG" -x "start -f $P -m max -d 1; wait; stats --json -g" >"$M" 2>&1
check_eq "unpaced run exits 0" 0 $?
cap=$(json_get "$M" global.cps | cut -d. -f1)
check_ge "unpaced run achieves some CPS" "${cap:-0}" 1000
# 4x that, within the 10 Gbit/s of the loop ports (2 frames of 64 B a flow)
over=$((${cap:-0} * 4))
[ "$over" -gt 14000000 ] && over=14000000

S=$FG_TMP/offer.short
G=$FG_TMP/offer.good
L=$FG_TMP/offer.stl
# One run at a time: a paced run sharing the two CPUs with another
# flowgen's busy worker falls behind (its pacer counts frames late), which
# is what short_of_offer reports. Each run stops once it has been sampled.
FG_TIMEOUT=30 fg_plain -C "$CFG" -x "start -f $P -m ${over}cps -d 4; wait 3; stats -g; stats --json -g; stop" \
	>"$S" 2>&1
check_eq "4x run exits 0" 0 $?
FG_TIMEOUT=30 fg_plain -C "$CFG" -x "start -f $P -m 5000cps -d 3; wait 2.6; stats -g; stats --json -g; stop" \
	>"$G" 2>&1
check_eq "achievable run exits 0" 0 $?
# The streams run is sampled 0.6 s after its 2.5 s learning phase: its
# rate is still ramping up (about half the offer over the last second),
# and only its measured traffic may count towards a shortfall, not the
# learning phase before it (which once made this run look short).
FG_TIMEOUT=30 fg_plain -C "$CFG" -x "start -f $FG_TOP/profiles/stl_64b.yaml -m 10kpps -d 4 -t learn_wait=2.5,drain=0.3; sleep 3.1; stats --json -g; stop" \
	>"$L" 2>&1
check_eq "streams run exits 0" 0 $?

check_eq "4x: offered_cps is what -m asks" "$over" "$(json_get "$S" global.offered_cps | cut -d. -f1)"
check_eq "4x: short_of_offer is set" True "$(json_get "$S" global.short_of_offer)"
check "4x: offer_limit names a limit" test -n "$(json_get "$S" global.offer_limit)"
check_grep "4x: stats -g warns with offered and achieved rates and the limit" \
	'^WARNING: short of offer: offered [0-9.]+ [KM]?cps, achieved [0-9.]+ [KM]?cps; likely limit: ' "$S"

check_eq "5000cps: offered_cps is 5000" 5000 "$(json_get "$G" global.offered_cps | cut -d. -f1)"
check_eq "5000cps: short_of_offer is not set" False "$(json_get "$G" global.short_of_offer)"
if grep -q 'short of offer' "$G"; then
	fail "5000cps: no warning" "$(grep 'short of offer' "$G")"
else
	pass "5000cps: no warning"
fi
check_ge "5000cps: completed_cps near the offer" "$(json_get "$G" global.completed_cps | cut -d. -f1)" 4900

check_eq "streams 10kpps: offered_pps is 10000" 10000 "$(json_get "$L" global.offered_pps | cut -d. -f1)"
check_eq "streams 10kpps: short_of_offer is not set by the learning phase" False "$(json_get "$L" global.short_of_offer)"

echo "# 53_offer: $((SECONDS - T0)) s"
finish
