#!/usr/bin/env bash
#
# lab.sh — a device under test on one machine, out of two network namespaces
# (README, "The lab"). No NIC, no default route, nothing leaves the namespaces.
#
#   netns $FG_NS_TST (fg-tst): veths fg0, fg1 without addresses; flowgen
#                              drives them through DPDK net_af_packet
#                              (examples/lab.yaml) or net_af_xdp
#   netns $FG_NS_DUT (fg-dut): the DUT, a Linux router; dut0 faces fg0
#                              (inside, port 0), dut1 faces fg1 (outside, port 1)
#
# net_af_xdp on fg0/fg1 needs nothing more here: the driver attaches its XDP
# program to fg0 in native mode (veth has XDP; `ip link` shows "xdp"), and a
# veth runs a program of its own on what its peer sends it; the peer (dut0)
# would need an XDP program or GRO only to take frames redirected into it
# (XDP_REDIRECT, ndo_xdp_xmit), which an AF_XDP socket's transmit does not
# use (it goes through the kernel's transmit path, copy mode on a veth).
#
# DUT flavours:
#   nat     dut0 198.18.1.1/24, dut1 198.19.1.1/24, static routes to the
#           emulated clients and servers, nftables source NAT (masquerade)
#           from 198.18.0.0/16 to 198.19.0.0/24 out of dut1 (the default)
#   router  the same without NAT
#   l3      dut0 198.18.1.1/16, dut1 198.19.1.1/16, no static routes: every
#           emulated host is a neighbour, so the DUT's neighbour table (kernel
#           default limits) is what gets exercised
#   ipv6    the router, and an IPv6 router as well (RFC 5180's 2001:2::/48):
#           forwarding on, dut0 2001:2:0:1::1/64, dut1 2001:2:0:101::1/64,
#           static routes to the clients 2001:2::/64 via 2001:2:0:1::2 and
#           the servers 2001:2:0:100::/64 via 2001:2:0:101::2, no default
#           route; examples/lab6.yaml is its config
#   vlan    the nat lab behind an 802.1Q trunk: both links pass through the
#           wire namespace $FG_NS_WIRE, where examples/vlan.py takes the tag
#           off towards the DUT, puts it on towards the tester and drops
#           frames with a wrong tag or none (id 100 on the inside link, 200
#           on the outside; FG_VLAN0, FG_VLAN1 change them); this kernel has
#           no 8021q module nor bridge VLAN filtering. examples/lab_vlan.yaml
#           is its config; `lab.sh vlan stats` prints the relay's counters
#   nat64   stateful NAT64 (RFC 6146 behaviour out of two parts): IPv6
#           inside (dut0 2001:2:0:1::1/64, clients 2001:2::/64 via
#           2001:2:0:1::2), IPv4 outside (dut1 198.19.1.1/24, servers
#           198.19.0.0/24 via 198.19.1.2); Debian's tayga translates
#           2001:db8:64::/96 (RFC 6052; tayga refuses 64:ff9b::/96 with
#           addresses that are not global) to a dynamic pool
#           198.18.254.0/24 (RFC 7915), and nftables masquerades the pool
#           behind 198.19.1.1 out of dut1
#
#   fg0 ($FG_NS_TST) <-> t0 ~ vlan.py ~ a0 ($FG_NS_WIRE) <-> dut0 ($FG_NS_DUT)
#
# NAT flavours with known behaviour, for `bench nat` (flowgen(8)): as nat
# (masquerade: ports kept while free towards a destination, so mapping
# depends on the destination under contention),
#   nat-persistent       masquerade persistent: the same
#   nat-random           masquerade fully-random: no port preservation
#   nat-pool             snat to four outside addresses 198.19.1.11-14
#                        (owned by dut1): an address per destination
#   nat-pool-persistent  the same with `persistent`: paired pooling
#   nat-hairpin          masquerade, plus a DNAT of what the inside sends
#                        to 198.19.1.1 back to 198.18.1.2 and a snat of that
#                        hairpinned traffic to 198.19.1.1: hairpinning
#   nat-1to1             a static 1:1 NAT both ways, nftables prefix maps:
#                        198.18.1.0/24 leaves as 198.19.2.0/24 (ports
#                        kept) and what comes to 198.19.2.0/24 goes to
#                        198.18.1.0/24, hairpinned too: endpoint-independent
#                        mapping and filtering
#   router               no NAT at all
# FG_NAT_TIMEOUT=S (or `lab.sh timeouts S`) sets the DUT's conntrack
# timeouts for UDP, ICMP and TCP (established, SYN sent/received, closing
# states) to S seconds; FG_NAT_TIMEOUT=distinct gives each timer `bench
# nat` measures a value of its own (UDP unreplied 12 s, UDP stream 28 s,
# TCP SYN sent 9 s, established 24 s, TIME_WAIT 18 s, ICMP 15 s, the
# other TCP states 35 s), and FG_NAT_TIMEOUT=KEY=S,KEY=S... sets the
# nf_conntrack_KEY timeouts named (udp_timeout, tcp_timeout_time_wait,
# ...); they are per namespace.
#
# The wire option (`up FLAVOUR impair`, or FG_IMPAIR=1) puts a third
# namespace $FG_NS_WIRE into the outside link, for impairments on a kernel
# without sch_netem:
#
#   fg1 ($FG_NS_TST) <-> wi ($FG_NS_WIRE) ~ impair.py ~ wo ($FG_NS_WIRE) <-> dut1
#
# The wire namespace has no addresses; examples/impair.py relays every frame
# between wi and wo (a plain forwarder after `up`). `lab.sh impair ARGS...`
# restarts it with impair.py's options (--delay MS --loss PCT --duplicate PCT
# --reorder PCT --corrupt PCT --dir both|ab|ba --seed N, and --udp-dport
# P[,P...] --spare N to impair only some UDP datagrams; ab = tester to DUT,
# ba = DUT to tester, the direction `tc qdisc add dev dut1 root netem` acts
# on);
# `lab.sh impair` alone is the plain forwarder again, `lab.sh impair off`
# stops it (the link is then cut), `lab.sh impair stats` prints its counters.
# The wire namespace's default name is ${FG_NS_DUT}-w when FG_NS_DUT is set,
# else fg-wire. Without the option the lab is exactly the two namespaces.
#
# Usage: lab.sh up [nat|router|l3|nat-persistent|nat-random|nat-pool|
#        nat-pool-persistent|nat-hairpin|nat-1to1] [impair] | up ipv6|vlan|nat64 | down | exec CMD... |
#        dut CMD... | impair [off|stats|ARGS...] | vlan stats | nat | conntrack |
#        timeouts S|distinct|KEY=S,... | status
# `up` first removes whatever a previous run left, and removes what it built
# itself if a step fails; `up` twice and `down` on nothing are both fine.

set -euo pipefail

T=${FG_NS_TST:-fg-tst}
D=${FG_NS_DUT:-fg-dut}
if [ -n "${FG_NS_DUT:-}" ]; then
	W=${FG_NS_WIRE:-${FG_NS_DUT}-w}
else
	W=${FG_NS_WIRE:-fg-wire}
fi
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
RUNDIR=/run
[ -d "$RUNDIR" ] && [ -w "$RUNDIR" ] || RUNDIR=/tmp
IMP_PID=$RUNDIR/fg-impair-$W.pid
IMP_LOG=$RUNDIR/fg-impair-$W.log
IMP_STATS=$RUNDIR/fg-impair-$W.stats
VLAN_PID=$RUNDIR/fg-vlan-$W.pid
VLAN_LOG=$RUNDIR/fg-vlan-$W.log
VLAN_STATS=$RUNDIR/fg-vlan-$W.stats
TAYGA_DIR=$RUNDIR/fg-tayga-$D

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
valid_name "$W" || die "bad wire namespace name '$W'"
[ "$T" != "$D" ] || die "tester and DUT namespaces must differ"
[ "$W" != "$T" ] && [ "$W" != "$D" ] || die "the wire namespace must differ from the others"

ns_exists()
{
	ip netns list 2>/dev/null | awk '{print $1}' | grep -qx -- "$1"
}

lab_down()
{
	# Deleting a namespace deletes its veths (and their peers), its
	# addresses, routes, nftables ruleset and conntrack table.
	local ns
	impair_stop
	impair_forget
	vlan_stop
	tayga_stop
	for ns in "$T" "$D" "$W"; do
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

# proc_stop PID NAME : SIGTERM to PID if its command line names NAME, then
# wait until it has ended (SIGKILL after 5 s). Ended is "its command line
# is gone", not "kill -0 fails": the daemons here outlive the lab.sh that
# started them, so init is their parent, and a process that has exited
# stays a zombie until init collects it, which took 1.6 s per stop on a
# test machine. A zombie holds no socket, tun device or file any more.
proc_stop()
{
	local pid=$1 name=$2 i
	[[ $pid =~ ^[0-9]+$ ]] && grep -q "$name" "/proc/$pid/cmdline" 2>/dev/null || return 0
	kill -TERM "$pid" 2>/dev/null || true
	for ((i = 0; i < 250; i++)); do
		grep -q "$name" "/proc/$pid/cmdline" 2>/dev/null || return 0
		sleep 0.02
	done
	kill -KILL "$pid" 2>/dev/null || true
	return 0
}

# impair_stop : end the relay of the wire namespace, if one runs
impair_stop()
{
	[ -f "$IMP_PID" ] || return 0
	proc_stop "$(cat "$IMP_PID" 2>/dev/null || true)" impair.py
	rm -f "$IMP_PID"
	return 0
}

# impair_forget : the relay's files go with the wire namespace
impair_forget()
{
	rm -f "$IMP_LOG" "$IMP_STATS" "$IMP_STATS.tmp"
}

# impair_start [ARGS...] : (re)start impair.py between wi and wo; returns 1
# (with the reason on stderr) if it does not come up
impair_start()
{
	local i
	if ! ns_exists "$W"; then
		echo "lab.sh: wire namespace $W does not exist (lab.sh up FLAVOUR impair first)" >&2
		return 1
	fi
	impair_stop
	rm -f "$IMP_STATS"
	setsid ip netns exec "$W" python3 "$HERE/impair.py" "$@" \
		--stats "$IMP_STATS" --pidfile "$IMP_PID" wi wo \
		</dev/null >"$IMP_LOG" 2>&1 &
	local child=$!
	for ((i = 0; i < 100; i++)); do
		[ -s "$IMP_PID" ] && return 0
		if ! kill -0 "$child" 2>/dev/null; then
			echo "lab.sh: impair.py did not start: $(tail -n 3 "$IMP_LOG" 2>/dev/null)" >&2
			return 1
		fi
		sleep 0.05
	done
	kill "$child" 2>/dev/null || true
	echo "lab.sh: impair.py not ready after 5 s: $(tail -n 3 "$IMP_LOG" 2>/dev/null)" >&2
	return 1
}

# impair_stats : the relay's counters, one line per direction
impair_stats()
{
	local pid i
	pid=$(cat "$IMP_PID" 2>/dev/null || true)
	[[ $pid =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null || die "no relay running in $W"
	rm -f "$IMP_STATS"
	kill -USR1 "$pid"
	for ((i = 0; i < 50; i++)); do
		[ -s "$IMP_STATS" ] && break
		sleep 0.05
	done
	cat "$IMP_STATS"
}

lab_up()
{
	local flavour=$1 wire=$2 mask
	case "$flavour" in
	nat | router) mask=24 ;;
	l3) mask=16 ;;
	nat-random | nat-pool | nat-pool-persistent | nat-hairpin | nat-persistent | nat-1to1) mask=24 ;;
	*) die "unknown flavour '$flavour' (nat, router or l3)" ;;
	esac

	lab_down
	trap 'echo "lab.sh: up failed, tearing down" >&2; lab_down' ERR

	modprobe nf_conntrack >/dev/null 2>&1 || true
	modprobe veth >/dev/null 2>&1 || true

	ip netns add "$T"
	ip netns add "$D"
	local ns nslist=("$T" "$D")
	if [ "$wire" = yes ]; then
		ip netns add "$W"
		nslist+=("$W")
	fi
	for ns in "${nslist[@]}"; do
		ip -n "$ns" link set lo up
		# No IPv6 chatter (router solicitations, MLD, DAD) on the test wires.
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 || true
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.default.disable_ipv6=1 || true
	done

	# Created directly inside the namespaces: root-namespace names never clash.
	ip link add fg0 netns "$T" type veth peer name dut0 netns "$D"
	if [ "$wire" = yes ]; then
		ip link add fg1 netns "$T" type veth peer name wi netns "$W"
		ip link add wo netns "$W" type veth peer name dut1 netns "$D"
	else
		ip link add fg1 netns "$T" type veth peer name dut1 netns "$D"
	fi

	offloads_off "$T" fg0 no
	if [ "$wire" = yes ]; then
		# The relay copies frames as they are: a partial checksum would
		# reach the DUT unfinished.
		offloads_off "$T" fg1 yes
		offloads_off "$W" wi yes
		offloads_off "$W" wo yes
		ip -n "$W" link set wi up
		ip -n "$W" link set wo up
	else
		offloads_off "$T" fg1 no
	fi
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

	case "$flavour" in
	nat | nat-random | nat-pool | nat-pool-persistent | nat-hairpin | nat-persistent | nat-1to1)
		nat_flavour "$flavour"
		;;
	esac
	if [ -n "${FG_NAT_TIMEOUT:-}" ]; then
		nat_timeouts "$FG_NAT_TIMEOUT"
	fi

	# Never a default route, in either namespace.
	if ip -n "$D" route show default | grep -q . || ip -n "$T" route show default | grep -q .; then
		die "a default route appeared"
	fi
	if [ "$wire" = yes ] && ! impair_start; then
		trap - ERR
		lab_down
		die "up failed: no relay in the wire namespace"
	fi
	trap - ERR
	if [ "$wire" = yes ]; then
		echo "lab up ($flavour, wire): tester netns $T (fg0, fg1), DUT netns $D (dut0, dut1), wire netns $W (wi, wo; impair.py relaying)"
	else
		echo "lab up ($flavour): tester netns $T (fg0, fg1), DUT netns $D (dut0, dut1)"
	fi
}

# nat_flavour FLAVOUR : the nftables rules of the nat flavours (nat and
# the bench's)
nat_flavour()
{
	local rule
	if [ "$1" = nat-1to1 ]; then
		nat_1to1
		return
	fi
	case "$1" in
	nat) rule='masquerade' ;;
	nat-persistent) rule='masquerade persistent' ;;
	nat-random) rule='masquerade fully-random' ;;
	nat-pool) rule='snat to 198.19.1.11-198.19.1.14' ;;
	nat-pool-persistent) rule='snat to 198.19.1.11-198.19.1.14 persistent' ;;
	nat-hairpin) rule='masquerade' ;;
	esac
	if [ "$1" = nat-pool ] || [ "$1" = nat-pool-persistent ]; then
		local a
		for a in 11 12 13 14; do
			ip -n "$D" addr add "198.19.1.$a/24" dev dut1
		done
	fi
	ip netns exec "$D" nft -f - <<-EOF
		table ip fgnat {
			chain postrouting {
				type nat hook postrouting priority srcnat; policy accept;
				ip saddr 198.18.0.0/16 ip daddr 198.19.0.0/24 oifname "dut1" $rule
			}
		}
	EOF
	if [ "$1" = nat-hairpin ]; then
		# What the inside sends to the outside address comes back in
		# to 198.18.1.2 (ports kept), from the outside address.
		ip netns exec "$D" sysctl -qw net.ipv4.conf.all.send_redirects=0
		ip netns exec "$D" sysctl -qw net.ipv4.conf.dut0.send_redirects=0
		ip netns exec "$D" nft -f - <<-'EOF'
			table ip fghairpin {
				chain prerouting {
					type nat hook prerouting priority dstnat; policy accept;
					iifname "dut0" ip daddr 198.19.1.1 dnat to 198.18.1.2
				}
				chain postrouting {
					type nat hook postrouting priority srcnat; policy accept;
					ip saddr 198.18.0.0/16 ip daddr 198.18.0.0/16 ct status dnat snat to 198.19.1.1
				}
			}
		EOF
	fi
}

# nat_1to1 : a static 1:1 NAT both ways with nftables prefix maps (nft(8),
# "NAT STATEMENTS": prefix), hairpinned traffic included
nat_1to1()
{
	ip netns exec "$D" sysctl -qw net.ipv4.conf.all.send_redirects=0
	ip netns exec "$D" sysctl -qw net.ipv4.conf.dut0.send_redirects=0
	ip netns exec "$D" nft -f - <<-'EOF'
		table ip fgnat {
			chain prerouting {
				type nat hook prerouting priority dstnat; policy accept;
				ip daddr 198.19.2.0/24 dnat ip prefix to ip daddr map { 198.19.2.0/24 : 198.18.1.0/24 }
			}
			chain postrouting {
				type nat hook postrouting priority srcnat; policy accept;
				ip saddr 198.18.1.0/24 ip daddr 198.19.0.0/24 oifname "dut1" snat ip prefix to ip saddr map { 198.18.1.0/24 : 198.19.2.0/24 }
				ip saddr 198.18.1.0/24 ip daddr 198.18.1.0/24 ct status dnat snat ip prefix to ip saddr map { 198.18.1.0/24 : 198.19.2.0/24 }
			}
		}
	EOF
}

# The timers of FG_NAT_TIMEOUT=distinct: each of those bench nat measures
# its own value, so that a search that finds the wrong one fails
NAT_DISTINCT="udp_timeout=12,udp_timeout_stream=28,tcp_timeout_syn_sent=9"
NAT_DISTINCT+=",tcp_timeout_established=24,tcp_timeout_time_wait=18,icmp_timeout=15"
NAT_DISTINCT+=",tcp_timeout_syn_recv=35,tcp_timeout_fin_wait=35,tcp_timeout_close_wait=35"
NAT_DISTINCT+=",tcp_timeout_last_ack=35"

# nat_timeouts S|distinct|KEY=S,... : the DUT's conntrack timeouts, per namespace
nat_timeouts()
{
	local spec=$1 k s kv
	ns_exists "$D" || die "DUT namespace $D does not exist"
	[ "$spec" = distinct ] && spec=$NAT_DISTINCT
	if [[ $spec =~ ^[0-9]+$ ]]; then
		[ "$spec" -ge 1 ] || die "bad timeout '$spec' (whole seconds)"
		kv=""
		for k in udp_timeout udp_timeout_stream icmp_timeout tcp_timeout_established \
			tcp_timeout_syn_sent tcp_timeout_syn_recv tcp_timeout_fin_wait \
			tcp_timeout_close_wait tcp_timeout_last_ack tcp_timeout_time_wait; do
			kv+="${kv:+,}$k=$spec"
		done
		spec=$kv
	fi
	local IFS=,
	for kv in $spec; do
		k=${kv%%=*}
		s=${kv#*=}
		[[ $k =~ ^(udp|icmp|tcp)_timeout[a-z_]*$ ]] || die "bad timeout key '$k'"
		[[ $s =~ ^[0-9]+$ ]] && [ "$s" -ge 1 ] || die "bad timeout '$kv' (whole seconds)"
		ip netns exec "$D" sysctl -qw "net.netfilter.nf_conntrack_$k=$s"
	done
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

# --- IPv6 and 802.1Q flavours: the router and nat labs, then more --------

# ipv6_router : the DUT routes IPv6 too, in RFC 5180's 2001:2::/48. IPv6
# comes on for the DUT's two interfaces only (the tester's veths stay
# without it: DPDK reads them raw); no duplicate address detection, no
# router advertisements taken.
ipv6_router()
{
	local dev
	for dev in dut0 dut1; do
		ip netns exec "$D" sysctl -qw "net.ipv6.conf.$dev.disable_ipv6=0"
		ip netns exec "$D" sysctl -qw "net.ipv6.conf.$dev.accept_dad=0"
		ip netns exec "$D" sysctl -qw "net.ipv6.conf.$dev.accept_ra=0"
	done
	ip netns exec "$D" sysctl -qw net.ipv6.conf.all.forwarding=1
	ip -n "$D" -6 addr add 2001:2:0:1::1/64 dev dut0 nodad
	ip -n "$D" -6 addr add 2001:2:0:101::1/64 dev dut1 nodad
	ip -n "$D" -6 route add 2001:2::/64 via 2001:2:0:1::2 dev dut0
	ip -n "$D" -6 route add 2001:2:0:100::/64 via 2001:2:0:101::2 dev dut1
	if ip -n "$D" -6 route show default | grep -q .; then
		die "an IPv6 default route appeared"
	fi
}

lab_up_ipv6()
{
	lab_up router no >/dev/null
	trap 'echo "lab.sh: up failed, tearing down" >&2; lab_down' ERR
	ipv6_router
	trap - ERR
	echo "lab up (ipv6): tester netns $T (fg0, fg1), DUT netns $D (dut0 2001:2:0:1::1, dut1 2001:2:0:101::1)"
}

vlan_stop()
{
	[ -f "$VLAN_PID" ] || return 0
	proc_stop "$(cat "$VLAN_PID" 2>/dev/null || true)" vlan.py
	rm -f "$VLAN_PID" "$VLAN_LOG" "$VLAN_STATS" "$VLAN_STATS.tmp"
	return 0
}

# vlan_start ID0 ID1 : vlan.py on both trunks of the wire namespace
vlan_start()
{
	local i
	rm -f "$VLAN_PID" "$VLAN_STATS"
	setsid ip netns exec "$W" python3 "$HERE/vlan.py" --stats "$VLAN_STATS" \
		--pidfile "$VLAN_PID" "t0:a0:$1" "t1:a1:$2" </dev/null >"$VLAN_LOG" 2>&1 &
	local child=$!
	for ((i = 0; i < 100; i++)); do
		[ -s "$VLAN_PID" ] && return 0
		if ! kill -0 "$child" 2>/dev/null; then
			echo "lab.sh: vlan.py did not start: $(tail -n 3 "$VLAN_LOG" 2>/dev/null)" >&2
			return 1
		fi
		sleep 0.05
	done
	kill "$child" 2>/dev/null || true
	echo "lab.sh: vlan.py not ready after 5 s" >&2
	return 1
}

vlan_stats()
{
	local pid i
	pid=$(cat "$VLAN_PID" 2>/dev/null || true)
	[[ $pid =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null || die "no vlan relay running in $W"
	rm -f "$VLAN_STATS"
	kill -USR1 "$pid"
	for ((i = 0; i < 50; i++)); do
		[ -s "$VLAN_STATS" ] && break
		sleep 0.05
	done
	cat "$VLAN_STATS"
}

# The nat lab, then each tester veth moves into the wire namespace as the
# access side (a0, a1: its peer, the DUT's interface, keeps its addresses
# and routes) and a new veth joins the tester (fg0, fg1) to the trunk side
# (t0, t1).
lab_up_vlan()
{
	local v0=${FG_VLAN0:-100} v1=${FG_VLAN1:-200} i
	[[ $v0 =~ ^[0-9]+$ ]] && [ "$v0" -ge 1 ] && [ "$v0" -le 4094 ] || die "FG_VLAN0 must be 1-4094"
	[[ $v1 =~ ^[0-9]+$ ]] && [ "$v1" -ge 1 ] && [ "$v1" -le 4094 ] || die "FG_VLAN1 must be 1-4094"
	lab_up nat no >/dev/null
	trap 'echo "lab.sh: up failed, tearing down" >&2; lab_down' ERR
	ip netns add "$W"
	ip -n "$W" link set lo up
	ip netns exec "$W" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 || true
	ip netns exec "$W" sysctl -qw net.ipv6.conf.default.disable_ipv6=1 || true
	for i in 0 1; do
		ip -n "$T" link set "fg$i" netns "$W"
		ip -n "$W" link set "fg$i" name "a$i"
		ip link add "fg$i" netns "$T" type veth peer name "t$i" netns "$W"
		offloads_off "$T" "fg$i" yes
		offloads_off "$W" "a$i" yes
		offloads_off "$W" "t$i" yes
		ip -n "$W" link set "a$i" up
		ip -n "$W" link set "t$i" up
		ip -n "$T" link set "fg$i" up
	done
	if ! vlan_start "$v0" "$v1"; then
		trap - ERR
		lab_down
		die "up failed: no relay in the wire namespace"
	fi
	trap - ERR
	echo "lab up (vlan): tester netns $T (fg0 vlan $v0, fg1 vlan $v1), DUT netns $D (dut0, dut1, nat), wire netns $W (vlan.py)"
}

tayga_stop()
{
	[ -d "$TAYGA_DIR" ] || return 0
	proc_stop "$(cat "$TAYGA_DIR/pid" 2>/dev/null || true)" tayga
	rm -rf "$TAYGA_DIR"
	return 0
}

# The ipv6 lab, then tayga in the DUT namespace between IPv6 (dut0) and
# IPv4 (dut1), and masquerade behind it.
lab_up_nat64()
{
	local i
	command -v tayga >/dev/null || die "nat64 needs tayga (apt-get install tayga)"
	lab_up router no >/dev/null
	trap 'echo "lab.sh: up failed, tearing down" >&2; lab_down' ERR
	ipv6_router
	mkdir -p "$TAYGA_DIR"
	cat >"$TAYGA_DIR/tayga.conf" <<-EOF
		tun-device nat64
		ipv4-addr 198.18.255.1
		prefix 2001:db8:64::/96
		dynamic-pool 198.18.254.0/24
		data-dir $TAYGA_DIR
	EOF
	ip netns exec "$D" tayga -c "$TAYGA_DIR/tayga.conf" --mktun >/dev/null
	ip netns exec "$D" sysctl -qw net.ipv6.conf.nat64.disable_ipv6=0
	ip -n "$D" link set nat64 up
	ip -n "$D" addr add 198.18.255.2/32 dev nat64
	ip -n "$D" -6 addr add 2001:2:0:ff::1/128 dev nat64 nodad
	ip -n "$D" route add 198.18.254.0/24 dev nat64
	ip -n "$D" -6 route add 2001:db8:64::/96 dev nat64
	ip netns exec "$D" nft -f - <<-'EOF'
		table ip fgnat64 {
			chain postrouting {
				type nat hook postrouting priority srcnat; policy accept;
				ip saddr 198.18.254.0/24 oifname "dut1" masquerade
			}
		}
	EOF
	ip netns exec "$D" tayga -c "$TAYGA_DIR/tayga.conf" --pidfile "$TAYGA_DIR/pid"
	for ((i = 0; i < 50; i++)); do
		[ -s "$TAYGA_DIR/pid" ] && break
		sleep 0.05
	done
	[ -s "$TAYGA_DIR/pid" ] || die "tayga did not start"
	if ip -n "$D" route show default | grep -q . || ip -n "$D" -6 route show default | grep -q .; then
		die "a default route appeared"
	fi
	trap - ERR
	echo "lab up (nat64): tester netns $T (fg0 IPv6, fg1 IPv4), DUT netns $D (tayga 2001:db8:64::/96 -> 198.18.254.0/24, masquerade to 198.19.1.1)"
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case "$cmd" in
up)
	case "${1:-}" in
	ipv6 | vlan | nat64)
		[ $# -eq 1 ] || die "usage: lab.sh up $1 (no wire option)"
		"lab_up_$1"
		exit 0
		;;
	esac
	flavour=nat
	wire=no
	case "${FG_IMPAIR:-0}" in
	'' | 0 | no | off) ;;
	*) wire=yes ;;
	esac
	for w in "$@"; do
		case "$w" in
		nat | router | l3) flavour=$w ;;
		nat-random | nat-pool | nat-pool-persistent | nat-hairpin | nat-persistent | nat-1to1)
			flavour=$w
			;;
		impair | wire) wire=yes ;;
		*) die "usage: lab.sh up [nat|router|l3] [impair]" ;;
		esac
	done
	[ $# -le 2 ] || die "usage: lab.sh up [nat|router|l3] [impair]"
	lab_up "$flavour" "$wire"
	;;
impair)
	case "${1:-}" in
	off)
		[ $# -eq 1 ] || die "usage: lab.sh impair off"
		impair_stop
		;;
	stats)
		[ $# -eq 1 ] || die "usage: lab.sh impair stats"
		impair_stats
		;;
	*)
		impair_start "$@" || exit 1
		;;
	esac
	;;
vlan)
	[ "${1:-}" = stats ] && [ $# -eq 1 ] || die "usage: lab.sh vlan stats"
	vlan_stats
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
nat)
	# a running router lab made the nat lab: the nat flavour's masquerade
	[ $# -eq 0 ] || die "usage: lab.sh nat"
	ns_exists "$D" || die "DUT namespace $D does not exist (lab.sh up first)"
	nat_flavour nat
	;;
conntrack)
	conntrack_count
	;;
timeouts)
	[ $# -eq 1 ] || die "usage: lab.sh timeouts SECONDS"
	nat_timeouts "$1"
	;;
status)
	for ns in "$T" "$D" "$W"; do
		if [ "$ns" = "$W" ] && ! ns_exists "$W"; then
			continue
		fi
		if ns_exists "$ns"; then
			echo "== $ns"
			ip -n "$ns" -br addr
			ip -n "$ns" route
			if [ "$ns" = "$W" ]; then
				pid=$(cat "$IMP_PID" 2>/dev/null || true)
				if [[ $pid =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null; then
					echo "relay: pid $pid: $(tr '\0' ' ' <"/proc/$pid/cmdline" | sed 's/.*impair.py //')"
				else
					echo "relay: not running"
				fi
				pid=$(cat "$VLAN_PID" 2>/dev/null || true)
				if [[ $pid =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null; then
					echo "vlan relay: pid $pid: $(tr '\0' ' ' <"/proc/$pid/cmdline" | sed 's/.*vlan.py //')"
				fi
			fi
			if [ "$ns" = "$D" ] && [ -s "$TAYGA_DIR/pid" ]; then
				echo "tayga: pid $(cat "$TAYGA_DIR/pid"): $(grep -E '^(prefix|dynamic-pool)' "$TAYGA_DIR/tayga.conf" | tr '\n' ' ')"
			fi
		else
			echo "== $ns: absent"
		fi
	done
	;;
*)
	die "usage: lab.sh up [nat|router|l3] [impair] | up ipv6|vlan|nat64 | down | exec CMD... | dut CMD... | impair [off|stats|ARGS...] | vlan stats | conntrack | status"
	;;
esac
