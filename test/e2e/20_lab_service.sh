#!/usr/bin/env bash
#
# 20_lab_service.sh — the namespace lab (examples/lab.sh) and service mode.
#
# Part 1 checks the lab itself with kernel tools only: namespaces, addresses,
# offloads, no default route, the NAT rule, and a ping forwarded and
# masqueraded by the DUT (the tester's fg0 gets an address for a moment, fg1
# moves to a third namespace acting as the server); the router and l3
# flavours too. Part 2 runs flowgen in the nat lab: service, arp, ping,
# portattr; then, with flowgen held in service mode through a fifo, the DUT
# pings the tester's ports; after `service --off` pings go unanswered but
# ARP still resolves.

. "$(dirname "$0")/lib.sh"

need_root "lab up (nat)"
# flowgen may die while the fifo is open: a write must not kill the scenario.
trap '' PIPE

# --- part 1: the lab, kernel tools only -----------------------------------

lab_up nat || exit 1
pass "lab up (nat)"
check "lab up twice is fine" "$FG_LAB" up nat
check "tester namespace exists" ip netns exec "$NS_TST" true
check "DUT namespace exists" ip netns exec "$NS_DUT" true
check_eq "no default route in the tester" "" "$(ip -n "$NS_TST" route show default)"
check_eq "no default route in the DUT" "" "$(ip -n "$NS_DUT" route show default)"
check_eq "tester veths carry no address" "" "$(ip -n "$NS_TST" -4 -o addr show dev fg0; ip -n "$NS_TST" -4 -o addr show dev fg1)"
check_grep_s()
{
	printf '%s\n' "$3" >"$FG_TMP/s"
	check_grep "$1" "$2" "$FG_TMP/s"
}
check_grep_s "dut0 is 198.18.1.1/24" '198\.18\.1\.1/24' "$(ip -n "$NS_DUT" -4 -o addr show dev dut0)"
check_grep_s "dut1 is 198.19.1.1/24" '198\.19\.1\.1/24' "$(ip -n "$NS_DUT" -4 -o addr show dev dut1)"
check_eq "DUT forwards" 1 "$(in_dut sysctl -n net.ipv4.ip_forward)"
check_grep_s "route to the clients via 198.18.1.2" '198\.18\.0\.0/24 via 198\.18\.1\.2' "$(ip -n "$NS_DUT" route)"
check_grep_s "route to the servers via 198.19.1.2" '198\.19\.0\.0/24 via 198\.19\.1\.2' "$(ip -n "$NS_DUT" route)"
check_grep_s "nftables masquerade rule" 'ip saddr 198\.18\.0\.0/16 ip daddr 198\.19\.0\.0/24 oifname "dut1" masquerade' "$(in_dut nft list ruleset)"
for d in dut0 dut1; do
	check_grep_s "$d: tx checksum offload off" '^tx-checksumming: off' "$(in_dut ethtool -k $d)"
done
for d in fg0 fg1; do
	check_grep_s "$d: GRO off" '^generic-receive-offload: off' "$(in_tst ethtool -k $d)"
done
check_eq "conntrack count starts at 0" 0 "$("$FG_LAB" conntrack)"

# A kernel client on fg0 and a kernel server on fg1 (in its own namespace).
NS_SRV=fgs-$$
[ -n "$FG_RESULTS" ] && echo "$NS_SRV" >>"$FG_RESULTS.ns"
ip netns add "$NS_SRV"
at_exit "ip netns del $NS_SRV"
kernel_ends()
{
	ip -n "$NS_TST" addr add 198.18.1.2/24 dev fg0 &&
		ip -n "$NS_TST" route add 198.19.0.0/16 via 198.18.1.1 &&
		ip -n "$NS_TST" link set fg1 netns "$NS_SRV" &&
		ip -n "$NS_SRV" link set lo up &&
		ip -n "$NS_SRV" link set fg1 up &&
		ip -n "$NS_SRV" addr add 198.19.1.2/24 dev fg1 &&
		ip -n "$NS_SRV" addr add 198.19.0.1/32 dev fg1 &&
		ip -n "$NS_SRV" route add 198.18.0.0/16 via 198.19.1.1
}
check "kernel end points on fg0 / fg1" kernel_ends
check "nat: ping 198.19.0.1 through the DUT" in_tst ping -c 2 -i 0.2 -W 2 -I 198.18.1.2 198.19.0.1
check_ge "nat: conntrack counts the flow" "$("$FG_LAB" conntrack)" 1
check_grep_s "nat: the DUT masquerades (reply to 198.19.1.1)" \
	'src=198\.18\.1\.2 dst=198\.19\.0\.1 .*src=198\.19\.0\.1 dst=198\.19\.1\.1' \
	"$(in_dut conntrack -L 2>/dev/null)"

check "router flavour up" "$FG_LAB" up router
check "router: no nftables ruleset" test -z "$(in_dut nft list ruleset)"
check "kernel end points (router)" kernel_ends
check "router: ping 198.19.0.1 through the DUT" in_tst ping -c 2 -i 0.2 -W 2 -I 198.18.1.2 198.19.0.1

check "l3 flavour up" "$FG_LAB" up l3
check_grep_s "l3: dut0 is a /16" '198\.18\.1\.1/16' "$(ip -n "$NS_DUT" -4 -o addr show dev dut0)"
check_grep_s "l3: dut1 is a /16" '198\.19\.1\.1/16' "$(ip -n "$NS_DUT" -4 -o addr show dev dut1)"
check_eq "l3: no static routes" "" "$(ip -n "$NS_DUT" route | grep via)"
check_eq "l3: no default route" "" "$(ip -n "$NS_DUT" route show default)"
ip netns del "$NS_SRV" 2>/dev/null

check "lab down" "$FG_LAB" down
check "lab down again is fine" "$FG_LAB" down
check_eq "namespaces gone after down" "" "$(ip netns list | awk '{print $1}' | grep -x -e "$NS_TST" -e "$NS_DUT")"

# --- part 2: flowgen in the nat lab ---------------------------------------

lab_up nat || exit 1
if ! have_flowgen; then
	echo "# $FG_BIN is not built: the flowgen checks below fail"
fi
MAC0=$(dut_mac dut0)
MAC1=$(dut_mac dut1)
FGMAC0=$(tst_mac fg0)
O=$FG_TMP/out
E=$FG_TMP/err

RC=0
fg -x "service; arp; ping -p 0 -d 198.18.1.1 -n 3; portattr; service --off; quit" \
	</dev/null >"$O" 2>"$E" || RC=$?
check_eq "service/arp/ping/portattr batch: exit 0" 0 "$RC"
check_grep "arp: shows dut0's MAC ($MAC0)" "$MAC0" "$O"
check_grep "arp: shows dut1's MAC ($MAC1)" "$MAC1" "$O"
check_grep "ping: prints RTTs" 'time=|rtt' "$O"
check_grep "portattr: shows port 0's MAC" "$FGMAC0" "$O"

# flowgen held in service mode while the DUT pings it.
mkfifo "$FG_TMP/in"
FG_TIMEOUT=120 fg -b <"$FG_TMP/in" >"$O" 2>"$E" &
fgpid=$!
at_exit_kill $fgpid
exec 7>"$FG_TMP/in"
send()
{
	echo "$1" >&7 2>/dev/null || true
}
send "service"
send "echo MARK-SERVICE-ON"
if wait_for '^MARK-SERVICE-ON' "$O" 40 "$fgpid"; then
	pass "flowgen in service mode"
else
	fail "flowgen in service mode" "no MARK-SERVICE-ON: $(tail -c 300 "$E")"
fi
check "service: the DUT pings 198.18.1.2 (port 0)" in_dut ping -c 3 -i 0.2 -W 2 198.18.1.2
check "service: the DUT pings 198.19.1.2 (port 1)" in_dut ping -c 3 -i 0.2 -W 2 198.19.1.2
check_grep_s "service: DUT learned port 0's MAC" "lladdr $FGMAC0" "$(ip -n "$NS_DUT" neigh show 198.18.1.2 dev dut0)"

send "service --off"
send "echo MARK-SERVICE-OFF"
if wait_for '^MARK-SERVICE-OFF' "$O" 20 "$fgpid"; then
	pass "flowgen left service mode"
else
	fail "flowgen left service mode" "no MARK-SERVICE-OFF: $(tail -c 300 "$E")"
fi
ip -n "$NS_DUT" neigh flush dev dut0
if in_dut ping -c 2 -i 0.5 -W 1 198.18.1.2 >/dev/null 2>&1; then
	fail "service --off: ping from the DUT gets no answer" "it was answered"
elif ! kill -0 "$fgpid" 2>/dev/null; then
	fail "service --off: ping from the DUT gets no answer" "flowgen is not running"
else
	pass "service --off: ping from the DUT gets no answer"
fi
check_grep_s "service --off: ARP still answered (neighbour $FGMAC0)" \
	"lladdr $FGMAC0 .*(REACHABLE|STALE|DELAY|PROBE)" "$(ip -n "$NS_DUT" neigh show 198.18.1.2 dev dut0)"

send "quit"
exec 7>&-
RC=0
wait "$fgpid" || RC=$?
check_eq "batch from a fifo: quit exits 0" 0 "$RC"

finish
