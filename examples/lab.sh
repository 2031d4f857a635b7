#!/usr/bin/env bash
#
# lab.sh — a device under test on one machine, out of two network namespaces
# (SPEC §7). No NIC, no default route, nothing leaves the namespaces.
#
#   netns $FG_NS_TST (fg-tst): veths fg0, fg1 without addresses; flowgen
#                              drives them through DPDK net_af_packet
#   netns $FG_NS_DUT (fg-dut): the DUT, a Linux router; dut0 faces fg0
#                              (inside, port 0), dut1 faces fg1 (outside, port 1)
#
# DUT flavours:
#   nat     dut0 198.18.1.1/24, dut1 198.19.1.1/24, static routes to the
#           emulated clients and servers, nftables source NAT (masquerade)
#           from 198.18.0.0/16 to 198.19.0.0/24 out of dut1 (the default)
#   router  the same without NAT
#   l3      dut0 198.18.1.1/16, dut1 198.19.1.1/16, no static routes: every
#           emulated host is a neighbour, so the DUT's neighbour table (kernel
#           default limits) is what gets exercised
#
# Usage: lab.sh up [nat|router|l3] | down | exec CMD... | dut CMD... |
#        conntrack | status
# `up` first removes whatever a previous run left, and removes what it built
# itself if a step fails; `up` twice and `down` on nothing are both fine.

set -euo pipefail

T=${FG_NS_TST:-fg-tst}
D=${FG_NS_DUT:-fg-dut}

die()
{
	echo "lab.sh: $*" >&2
	exit 1
}

valid_name()
{
	[[ $1 =~ ^[A-Za-z0-9_.-]{1,64}$ ]]
}

valid_name "$T" || die "bad tester namespace name '$T'"
valid_name "$D" || die "bad DUT namespace name '$D'"
[ "$T" != "$D" ] || die "tester and DUT namespaces must differ"

ns_exists()
{
	ip netns list 2>/dev/null | awk '{print $1}' | grep -qx -- "$1"
}

lab_down()
{
	# Deleting a namespace deletes its veths (and their peers), its
	# addresses, routes, nftables ruleset and conntrack table.
	local ns
	for ns in "$T" "$D"; do
		if ns_exists "$ns"; then
			ip netns del "$ns" 2>/dev/null || true
		fi
	done
	# A namespace still busy (a process inside) stays mounted until the
	# process ends; that is fine, the name is gone.
	return 0
}

# Keep frames as frames: no GRO/TSO/GSO aggregation on any veth, and no TX
# checksum offload on the DUT's side (else NATed frames leave with partial
# checksums that flowgen would see as bad).
offloads_off()
{
	local ns=$1 dev=$2 txoff=$3
	ip netns exec "$ns" ethtool -K "$dev" gro off gso off tso off >/dev/null 2>&1 ||
		echo "lab.sh: warning: ethtool -K $dev gro/gso/tso off failed in $ns" >&2
	if [ "$txoff" = yes ]; then
		ip netns exec "$ns" ethtool -K "$dev" tx off >/dev/null 2>&1 ||
			die "ethtool -K $dev tx off failed in $ns"
	fi
}

lab_up()
{
	local flavour=$1 mask
	case "$flavour" in
	nat | router) mask=24 ;;
	l3) mask=16 ;;
	*) die "unknown flavour '$flavour' (nat, router or l3)" ;;
	esac

	lab_down
	trap 'echo "lab.sh: up failed, tearing down" >&2; lab_down' ERR

	modprobe nf_conntrack >/dev/null 2>&1 || true
	modprobe veth >/dev/null 2>&1 || true

	ip netns add "$T"
	ip netns add "$D"
	local ns
	for ns in "$T" "$D"; do
		ip -n "$ns" link set lo up
		# No IPv6 chatter (router solicitations, MLD, DAD) on the test wires.
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 || true
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.default.disable_ipv6=1 || true
	done

	# Created directly inside the namespaces: root-namespace names never clash.
	ip link add fg0 netns "$T" type veth peer name dut0 netns "$D"
	ip link add fg1 netns "$T" type veth peer name dut1 netns "$D"

	offloads_off "$T" fg0 no
	offloads_off "$T" fg1 no
	offloads_off "$D" dut0 yes
	offloads_off "$D" dut1 yes

	ip -n "$T" link set fg0 up
	ip -n "$T" link set fg1 up

	ip -n "$D" addr add "198.18.1.1/$mask" dev dut0
	ip -n "$D" addr add "198.19.1.1/$mask" dev dut1
	ip -n "$D" link set dut0 up
	ip -n "$D" link set dut1 up
	ip netns exec "$D" sysctl -qw net.ipv4.ip_forward=1
	# Replies of NATed flows come back on the interface they left by; keep
	# reverse-path filtering out of the measurement.
	ip netns exec "$D" sysctl -qw net.ipv4.conf.all.rp_filter=0
	ip netns exec "$D" sysctl -qw net.ipv4.conf.default.rp_filter=0

	if [ "$flavour" != l3 ]; then
		ip -n "$D" route add 198.18.0.0/24 via 198.18.1.2 dev dut0
		ip -n "$D" route add 198.19.0.0/24 via 198.19.1.2 dev dut1
	fi

	if [ "$flavour" = nat ]; then
		ip netns exec "$D" nft -f - <<-'EOF'
			table ip fgnat {
				chain postrouting {
					type nat hook postrouting priority srcnat; policy accept;
					ip saddr 198.18.0.0/16 ip daddr 198.19.0.0/24 oifname "dut1" masquerade
				}
			}
		EOF
	fi

	# Never a default route, in either namespace.
	if ip -n "$D" route show default | grep -q . || ip -n "$T" route show default | grep -q .; then
		die "a default route appeared"
	fi
	trap - ERR
	echo "lab up ($flavour): tester netns $T (fg0, fg1), DUT netns $D (dut0, dut1)"
}

conntrack_count()
{
	ns_exists "$D" || die "DUT namespace $D does not exist"
	local n
	if n=$(ip netns exec "$D" conntrack -C 2>/dev/null) && [[ $n =~ ^[0-9]+$ ]]; then
		echo "$n"
	else
		ip netns exec "$D" cat /proc/sys/net/netfilter/nf_conntrack_count
	fi
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case "$cmd" in
up)
	[ $# -le 1 ] || die "usage: lab.sh up [nat|router|l3]"
	lab_up "${1:-nat}"
	;;
down)
	lab_down
	;;
exec)
	[ $# -gt 0 ] || die "usage: lab.sh exec CMD..."
	ns_exists "$T" || die "tester namespace $T does not exist (lab.sh up first)"
	exec ip netns exec "$T" "$@"
	;;
dut)
	[ $# -gt 0 ] || die "usage: lab.sh dut CMD..."
	ns_exists "$D" || die "DUT namespace $D does not exist (lab.sh up first)"
	exec ip netns exec "$D" "$@"
	;;
conntrack)
	conntrack_count
	;;
status)
	for ns in "$T" "$D"; do
		if ns_exists "$ns"; then
			echo "== $ns"
			ip -n "$ns" -br addr
			ip -n "$ns" route
		else
			echo "== $ns: absent"
		fi
	done
	;;
*)
	die "usage: lab.sh up [nat|router|l3] | down | exec CMD... | dut CMD... | conntrack | status"
	;;
esac
