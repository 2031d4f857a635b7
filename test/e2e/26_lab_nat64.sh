#!/usr/bin/env bash
#
# 26_lab_nat64.sh — the nat64 lab (examples/lab.sh up nat64: tayga
# translating 2001:db8:64::/96 to a dynamic IPv4 pool, nftables masquerade
# behind it) with kernel tools only: an IPv6 client on fg0 pings the RFC
# 6052 address of an IPv4 server on fg1 (in a namespace of its own); the
# DUT's connection tracking shows the pool address masqueraded to
# 198.19.1.1, and tayga stops with `lab.sh down`.

. "$(dirname "$0")/lib.sh"

need_root "lab up (nat64)"
T0=$SECONDS

lab_up nat64 || exit 1
pass "lab up (nat64)"
check_eq "no IPv4 default route in the DUT" "" "$(ip -n "$NS_DUT" route show default)"
check_eq "no IPv6 default route in the DUT" "" "$(ip -n "$NS_DUT" -6 route show default)"
TPID=$(cat "/run/fg-tayga-$NS_DUT/pid" 2>/dev/null || cat "/tmp/fg-tayga-$NS_DUT/pid" 2>/dev/null || echo none)
check "tayga runs" kill -0 "$TPID"

NS_SRV=fgs-$$
[ -n "$FG_RESULTS" ] && echo "$NS_SRV" >>"$FG_RESULTS.ns"
ip netns add "$NS_SRV"
at_exit "ip netns del $NS_SRV"
kernel_ends()
{
	ip netns exec "$NS_TST" sysctl -qw net.ipv6.conf.fg0.disable_ipv6=0 &&
		ip -n "$NS_TST" -6 addr add 2001:2:0:1::2/64 dev fg0 nodad &&
		ip -n "$NS_TST" -6 route add 2001:db8:64::/96 via 2001:2:0:1::1 &&
		ip -n "$NS_TST" link set fg1 netns "$NS_SRV" &&
		ip -n "$NS_SRV" link set lo up &&
		ip -n "$NS_SRV" link set fg1 up &&
		ip -n "$NS_SRV" addr add 198.19.1.2/24 dev fg1 &&
		ip -n "$NS_SRV" addr add 198.19.0.1/32 dev fg1
}
check "kernel end points: IPv6 on fg0, IPv4 on fg1" kernel_ends
# 198.19.0.1 is 2001:db8:64::c613:1 under the /96 (RFC 6052 section 2.2)
check "nat64: ping 2001:db8:64::198.19.0.1 through tayga and masquerade" \
	in_tst ping -6 -c 2 -i 0.2 -W 2 2001:db8:64::c613:1
CT=$(in_dut conntrack -L 2>/dev/null)
printf '%s\n' "$CT" >"$FG_TMP/ct"
check_grep "nat64: a pool address masqueraded to 198.19.1.1" \
	'src=198\.18\.254\.[0-9]+ dst=198\.19\.0\.1 .*src=198\.19\.0\.1 dst=198\.19\.1\.1' "$FG_TMP/ct"
ip netns del "$NS_SRV" 2>/dev/null
check "lab down" "$FG_LAB" down
if ! pid_gone "$TPID"; then
	fail "tayga stopped by lab down" "pid $TPID still runs"
else
	pass "tayga stopped by lab down"
fi
echo "# 26_lab_nat64.sh: $((SECONDS - T0)) s"
finish
