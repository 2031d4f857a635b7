#!/usr/bin/env bash
#
# lab.sh — a device under test on one machine, out of two network namespaces
# (README, "The lab"). No NIC, no default route, nothing leaves the namespaces.
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
# NAT flavours with known behaviour, for `bench nat` (flowgen(8)): as nat,
#   nat-random           masquerade fully-random: no port preservation
#   nat-pool             snat to four outside addresses 198.19.1.11-14
#                        (owned by dut1): an address per destination
#   nat-pool-persistent  the same with `persistent`: paired pooling
#   nat-hairpin          masquerade, plus a DNAT of what the inside sends
#                        to 198.19.1.1 back to 198.18.1.2 and a snat of that
#                        hairpinned traffic to 198.19.1.1: hairpinning
# FG_NAT_TIMEOUT=S (or `lab.sh timeouts S`) sets the DUT's conntrack
# timeouts for UDP, ICMP and TCP (established, SYN sent/received, closing
# states) to S seconds; they are per namespace.
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
# --reorder PCT --dir both|ab|ba --seed N; ab = tester to DUT, ba = DUT to
# tester, the direction `tc qdisc add dev dut1 root netem` acts on);
# `lab.sh impair` alone is the plain forwarder again, `lab.sh impair off`
# stops it (the link is then cut), `lab.sh impair stats` prints its counters.
# The wire namespace's default name is ${FG_NS_DUT}-w when FG_NS_DUT is set,
# else fg-wire. Without the option the lab is exactly the two namespaces.
#
# Usage: lab.sh up [nat|router|l3|nat-random|nat-pool|nat-pool-persistent|
#        nat-hairpin] [impair] | down | exec CMD... | dut CMD... |
#        impair [off|stats|ARGS...] | conntrack | timeouts S | status
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

# impair_stop : end the relay of the wire namespace, if one runs
impair_stop()
{
	local pid i
	[ -f "$IMP_PID" ] || return 0
	pid=$(cat "$IMP_PID" 2>/dev/null || true)
	if [[ $pid =~ ^[0-9]+$ ]] && grep -q impair.py "/proc/$pid/cmdline" 2>/dev/null; then
		kill -TERM "$pid" 2>/dev/null || true
		for ((i = 0; i < 50; i++)); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		if grep -q impair.py "/proc/$pid/cmdline" 2>/dev/null; then
			kill -KILL "$pid" 2>/dev/null || true
		fi
	fi
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
	nat-random | nat-pool | nat-pool-persistent | nat-hairpin) mask=24 ;;
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

	case "$flavour" in
	nat-random | nat-pool | nat-pool-persistent | nat-hairpin) nat_flavour "$flavour" ;;
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

# nat_flavour FLAVOUR : the nftables rules of the bench nat flavours
nat_flavour()
{
	local rule
	case "$1" in
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

# nat_timeouts S : the DUT's conntrack timeouts, per namespace
nat_timeouts()
{
	local s=$1 k
	[[ $s =~ ^[0-9]+$ ]] && [ "$s" -ge 1 ] || die "bad timeout '$s' (whole seconds)"
	ns_exists "$D" || die "DUT namespace $D does not exist"
	for k in udp_timeout udp_timeout_stream icmp_timeout tcp_timeout_established \
		tcp_timeout_syn_sent tcp_timeout_syn_recv tcp_timeout_fin_wait \
		tcp_timeout_close_wait tcp_timeout_last_ack tcp_timeout_time_wait; do
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

cmd=${1:-}
[ $# -gt 0 ] && shift
case "$cmd" in
up)
	flavour=nat
	wire=no
	case "${FG_IMPAIR:-0}" in
	'' | 0 | no | off) ;;
	*) wire=yes ;;
	esac
	for w in "$@"; do
		case "$w" in
		nat | router | l3) flavour=$w ;;
		nat-random | nat-pool | nat-pool-persistent | nat-hairpin) flavour=$w ;;
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
			fi
		else
			echo "== $ns: absent"
		fi
	done
	;;
*)
	die "usage: lab.sh up [nat|router|l3] [impair] | down | exec CMD... | dut CMD... | impair [off|stats|ARGS...] | conntrack | status"
	;;
esac
