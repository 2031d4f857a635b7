#!/usr/bin/env bash
#
# 50_flows_nat.sh — stateful UDP flows through the lab's DUT (SPEC §7).
#
# NAT lab: udp_short at 2,000 flows/s for 5 s. The client side must start
# about 10,000 flows and complete them; the server side must see every flow
# translated to the DUT's one outside address; the DUT's connection tracking
# must hold at least 1,000 entries while the run is going on.
# Router lab: the same profile arrives untranslated.

. "$(dirname "$0")/lib.sh"

need_root "flows nat: lab"

lab_up nat || exit 1
fg -x "arp; start -f $FG_TOP/profiles/udp_short.yaml -m 2000 -d 5; wait 12; stats --json" \
	>"$FG_TMP/nat.out" 2>&1 &
FGPID=$!
sleep 4
CT=$("$FG_LAB" conntrack 2>/dev/null || echo 0)
wait $FGPID
check "flows nat: flowgen ran" test -s "$FG_TMP/nat.out"
J=$FG_TMP/nat.out
started=$(json_get "$J" flows.client.started || echo 0)
completed=$(json_get "$J" flows.client.completed || echo 0)
accepted=$(json_get "$J" flows.server.accepted || echo 0)
translated=$(json_get "$J" flows.server.translated || echo 0)
addrs=$(json_get "$J" flows.server.distinct_src_addrs || echo 0)
check_ge "flows nat: started >= 90% of 10,000" "$started" 9000
check_ge "flows nat: completed >= 99% of started" "$((completed * 100))" "$((started * 99))"
check_ge "flows nat: server accepted every flow" "$accepted" "$completed"
check_eq "flows nat: every accepted flow translated" "$accepted" "$translated"
check_eq "flows nat: one distinct translated source address" 1 "$addrs"
check_ge "flows nat: DUT conntrack mid-run >= 1,000" "$CT" 1000
check_eq "flows nat: nothing left active" 0 "$(json_get "$J" flows.client.active)"
lab_down

lab_up router || exit 1
fg -x "arp; start -f $FG_TOP/profiles/udp_short.yaml -m 2000 -d 3; wait 10; stats --json" \
	>"$FG_TMP/router.out" 2>&1
J=$FG_TMP/router.out
accepted=$(json_get "$J" flows.server.accepted || echo 0)
check_ge "flows router: flows accepted" "$accepted" 5000
check_eq "flows router: untranslated equals accepted" "$accepted" \
	"$(json_get "$J" flows.server.untranslated || echo -1)"
check_eq "flows router: nothing translated" 0 "$(json_get "$J" flows.server.translated || echo -1)"
lab_down

finish
