#!/usr/bin/env bash
#
# 22_lab_ipv6.sh — the ipv6 lab (examples/lab.sh up ipv6: a Linux IPv6
# router, static routes, no default route) and flowgen's IPv6 ports
# (examples/lab6.yaml): `arp` learns both routers' MACs by Neighbour
# Discovery beside ARP, `portattr` shows them, `ping` to an IPv6 router
# answers (to the near interface and, through the gateway, the far one);
# in service mode the DUT pings the tester's IPv6 addresses (NS and ICMPv6
# echo answered); after `service --off` echo goes unanswered but
# Neighbour Solicitations are still answered. Bad input: `ping` to an IPv6
# address from a port without `ipv6` is a clear error.

. "$(dirname "$0")/lib.sh"

need_root "lab up (ipv6)"
need_flowgen
T0=$SECONDS

lab_up ipv6 || exit 1
pass "lab up (ipv6)"
CFG=$FG_TOP/examples/lab6.yaml
check_eq "DUT forwards IPv6" 1 "$(in_dut sysctl -n net.ipv6.conf.all.forwarding)"
check_eq "no IPv6 default route in the DUT" "" "$(ip -n "$NS_DUT" -6 route show default)"
R6=$(ip -n "$NS_DUT" -6 route)
printf '%s\n' "$R6" >"$FG_TMP/r6"
check_grep "route to the clients 2001:2::/64 via 2001:2:0:1::2" '^2001:2::/64 via 2001:2:0:1::2' "$FG_TMP/r6"
check_grep "route to the servers 2001:2:0:100::/64 via 2001:2:0:101::2" '^2001:2:0:100::/64 via 2001:2:0:101::2' "$FG_TMP/r6"

MAC0=$(dut_mac dut0)
MAC1=$(dut_mac dut1)
FGMAC0=$(tst_mac fg0)
O=$FG_TMP/out
E=$FG_TMP/err

# One flowgen (fg_open): arp, pings, portattr, then service mode held
# until the DUT's pings are done, then service off held for the last probe.
fg_open "$O"
if fg_run on "service; arp; ping -p 0 -d 2001:2:0:1::1 -n 2; ping -p 0 -d 2001:2:0:101::1 -n 1; portattr" 30; then
	check "service: the DUT pings 2001:2:0:1::2 (port 0)" in_dut ping -6 -c 2 -i 0.2 -W 1 2001:2:0:1::2
	check "service: the DUT pings 2001:2:0:101::2 (port 1)" in_dut ping -6 -c 2 -i 0.2 -W 1 2001:2:0:101::2
else
	fail "flowgen in service mode" "no MARK-on: $(tail -c 300 "$O")"
fi
if fg_run off "service --off" 10; then
	ip -n "$NS_DUT" -6 neigh flush dev dut0
	if in_dut ping -6 -c 1 -W 1 2001:2:0:1::2 >/dev/null 2>&1; then
		fail "service --off: ICMPv6 echo from the DUT gets no answer" "it was answered"
	else
		pass "service --off: ICMPv6 echo from the DUT gets no answer"
	fi
	N=$(ip -n "$NS_DUT" -6 neigh show 2001:2:0:1::2 dev dut0)
	printf '%s\n' "$N" >"$FG_TMP/n"
	check_grep "service --off: Neighbour Solicitation still answered (lladdr $FGMAC0)" \
		"lladdr $FGMAC0 .*(REACHABLE|STALE|DELAY|PROBE)" "$FG_TMP/n"
else
	fail "flowgen left service mode" "no MARK-off: $(tail -c 300 "$O")"
fi
fg_close
RC=$FG_SRC
check_eq "arp/ping/portattr/service batch: exit 0" 0 "$RC"
check_grep "arp: learns dut0's MAC by ND" "^port 0: 2001:2:0:1::2 gw 2001:2:0:1::1 MAC $MAC0 \\(ND\\)" "$O"
check_grep "arp: learns dut1's MAC by ND" "^port 1: 2001:2:0:101::2 gw 2001:2:0:101::1 MAC $MAC1 \\(ND\\)" "$O"
check_grep "arp: IPv4 resolved too" "^port 0: 198.18.1.2 gw 198.18.1.1 MAC $MAC0\$" "$O"
check_grep "ping: the IPv6 router answers" "bytes from 2001:2:0:1::1: icmp_seq=2 time=" "$O"
check_grep "ping: the far interface, through default_gw6" "bytes from 2001:2:0:101::1: icmp_seq=1 time=" "$O"
check_grep "portattr: the IPv6 line with the learned gateway MAC" "ipv6 2001:2:0:1::2 gw6 2001:2:0:1::1 gw6 MAC $MAC0" "$O"

# A port without ipv6 (examples/lab.yaml): a clear error, no crash.
RC=0
CFG=$FG_TOP/examples/lab.yaml fg -x "ping -p 0 -d 2001:2:0:1::1 -n 1" </dev/null >"$O" 2>"$E" || RC=$?
check_eq "ping to IPv6 from a port without ipv6: exit 1" 1 "$RC"
check_grep "ping to IPv6 from a port without ipv6: says so" "port 0 has no ipv6" "$E"

echo "# 22_lab_ipv6.sh: $((SECONDS - T0)) s"
finish
