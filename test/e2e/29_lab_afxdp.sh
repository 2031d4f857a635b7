#!/usr/bin/env bash
#
# 29_lab_afxdp.sh — the NAT lab over net_af_xdp ports (README,
# "Configuration"; flowgen(8), PLATFORM CONFIG, interfaces):
# examples/lab.yaml with net_af_xdp in place of net_af_packet on the same
# veths.
#
# Expected:
#  - the veth takes the driver's XDP program in native mode (`ip link`
#    shows "xdp", not "xdpgeneric"): a kernel without XDP on veth fails
#    here, with what `ip link` showed;
#  - `arp` resolves both gateways to the DUT's MACs and `ping` of the DUT
#    gets its replies (control's frames leave through worker 0's queue:
#    the port has no control queue);
#  - udp_short at 2,000 flows/s for 2 s: the client starts 95-100 % of the
#    4,000 flows and completes each, none fails; the server accepts them
#    to within 0.1 %, every one translated to the DUT's one outside
#    address; the DUT's conntrack holds 1,000 entries or more while the
#    run goes on (sampled until it does, before the run's statistics are
#    out) and, after it, one udp_short entry per forwarded flow,
#    masqueraded to 198.19.1.1. The pacer owes what a stall of up to 20 ms
#    held back (pace.h), so the run starts all 4,000 unless stalls beyond
#    that cost the worker more than 0.1 s in all (the 5 % the check
#    allows; a 4 s run allowed 0.2 s); the flows are counted exactly
#    either way;
#  - the port counters of stats --json are the driver's: port 0 sent and
#    port 1 received at least one frame per accepted flow;
#  - the run above is on hugepages: the scenario reserves what it needs
#    (512 free hugepages, 1 GiB, more than the lab config's plan; the
#    count put back on exit), and a run that did not get them fails; a
#    run with --no-huge asked for is checked too;
#  - two workers on a veth (one queue) are refused before DPDK starts, with
#    the interface's queue count and the remedy;
#  - without CAP_IPC_LOCK and with `ulimit -l 64` that root cannot lift,
#    the UMEM cannot be registered: flowgen exits with the driver's line
#    and a hint naming the locked-memory limit;
#  - two port pairs over veths, a worker each: tcp_short at -m 1000 for
#    1 s (2,000 flows planned, 4,000 in 2 s), 1,000 flows or more, every
#    one completed, both workers sending (in a lane, beside the two
#    refusals above and the lab's teardown).

. "$(dirname "$0")/lib.sh"

need_root "af_xdp: lab"
need_flowgen

# 512 free hugepages for the first run (nr_hugepages raised by what is
# missing, put back as it was on exit)
saved_huge=$(cat /proc/sys/vm/nr_hugepages)
at_exit "echo $saved_huge > /proc/sys/vm/nr_hugepages"
free_huge=$(awk '$1 == "HugePages_Free:" { print $2 }' /proc/meminfo)
if [ "${free_huge:-0}" -lt 512 ]; then
	echo $((saved_huge + 512 - ${free_huge:-0})) >/proc/sys/vm/nr_hugepages
fi
check_ge "af_xdp: 512 hugepages free for the run" "$(awk '$1 == "HugePages_Free:" { print $2 }' /proc/meminfo)" 512

lab_up nat || exit 1
XCFG=$FG_TMP/lab_afxdp.yaml
sed 's/net_af_packet\([01]\)/net_af_xdp\1/g' "$FG_TOP/examples/lab.yaml" >"$XCFG"
CFG=$XCFG
check_grep "af_xdp: the lab config names net_af_xdp ports" "net_af_xdp0,iface=fg0" "$XCFG"

# xdp_mode IFACE : "xdp" (native), "xdpgeneric", "xdpoffload" or "none"
xdp_mode()
{
	local l
	l=$(ip -n "$NS_TST" link show "$1" 2>/dev/null | head -n 1)
	case " $l " in
	*" xdpgeneric "*) echo xdpgeneric ;;
	*" xdpoffload "*) echo xdpoffload ;;
	*" xdp "*) echo xdp ;;
	*) echo none ;;
	esac
}

# --- udp_short through the NAT ---------------------------------------------

J=$FG_TMP/nat.out
MAC0=$(dut_mac dut0)
MAC1=$(dut_mac dut1)
FG_TIMEOUT=40 fg -v -x "arp; ping -p 0 -d 198.18.1.1 -n 2; start -f $FG_TOP/profiles/udp_short.yaml -m 2000 -d 2; wait 12; stats --json" \
	>"$J" 2>&1 &
FGPID=$!
# the program is attached once the ports are up: wait for it, then for
# conntrack to fill while the run goes on (a sample taken once the run's
# statistics are out does not count)
mode=none mode1=none
for ((i = 0; i < 100; i++)); do
	mode=$(xdp_mode fg0)
	mode1=$(xdp_mode fg1)
	[ "$mode" != none ] && [ "$mode1" != none ] && break
	kill -0 $FGPID 2>/dev/null || break
	sleep 0.1
done
LINK0=$(ip -n "$NS_TST" link show fg0 2>&1 | tr '\n' ' ')
CT_MID=missing
for ((i = 0; i < 100; i++)); do
	grep -q '^{"global"' "$J" && break
	ct=$("$FG_LAB" conntrack 2>/dev/null || echo missing)
	if grep -q '^{"global"' "$J"; then
		CT_MID="$ct, sampled after the run"
		break
	fi
	CT_MID=$ct
	[[ $ct =~ ^[0-9]+$ ]] && [ "$ct" -ge 1000 ] && break
	kill -0 $FGPID 2>/dev/null || break
	sleep 0.1
done
wait $FGPID
rc=$?
# the UDP entries only: flowgen's ping of the DUT left an ICMP one
in_dut conntrack -L -p udp >"$FG_TMP/ct.txt" 2>/dev/null
CT_END=$(grep -c '^udp ' "$FG_TMP/ct.txt")

if [ "$mode" = xdp ] && [ "$mode1" = xdp ]; then
	pass "af_xdp: native XDP on both veths (ip link: xdp)"
else
	fail "af_xdp: native XDP on both veths (ip link: xdp)" \
		"fg0 '$mode', fg1 '$mode1': this kernel gives the veth no native XDP (ip link: $LINK0); flowgen: $(grep -iE 'xdp|error' "$J" | head -n 3)"
fi
check_eq "af_xdp: flowgen exits 0" 0 "$rc"
check_grep "af_xdp: port 0 is a net_af_xdp port with one worker queue" \
	"port 0 .net_af_xdp0,iface=fg0.: link up, .*1 worker queue" "$J"
check_nogrep "af_xdp: arp resolved both gateways" "no ARP reply" "$J"
check_grep "af_xdp: arp shows dut0's MAC ($MAC0)" "$MAC0" "$J"
check_grep "af_xdp: arp shows dut1's MAC ($MAC1)" "$MAC1" "$J"
check_grep "af_xdp: ping through worker 0's queue prints RTTs" 'time=|rtt' "$J"
check "af_xdp: stats --json printed" json_get "$J" flows.client.started

mapfile -t v < <(jvals "$J" flows.client.started flows.client.completed flows.client.failed \
	flows.client.active flows.server.accepted flows.server.completed flows.server.failed \
	flows.server.translated flows.server.untranslated flows.server.distinct_src_addrs \
	ports.0.tx_pkts ports.1.rx_pkts ports.0.counters)
started=${v[0]} accepted=${v[4]}
echo "# af_xdp: started $started completed ${v[1]} accepted $accepted; port 0 sent ${v[10]}, port 1 received ${v[11]}"
if [[ $started =~ ^[0-9]+$ ]] && [ "$started" -ge 3800 ] && [ "$started" -le 4000 ]; then
	pass "af_xdp: client started 3,800..4,000 flows"
else
	fail "af_xdp: client started 3,800..4,000 flows" "started '$started'"
fi
check_eq "af_xdp: client completed every started flow" "$started" "${v[1]}"
check_eq "af_xdp: client failed none" 0 "${v[2]}"
check_eq "af_xdp: client has nothing left active" 0 "${v[3]}"
within_pct "af_xdp: server accepted the client's completed flows (0.1 %)" "$accepted" "${v[1]}" 0.1
check_eq "af_xdp: server completed every accepted flow" "$accepted" "${v[5]}"
check_eq "af_xdp: server failed none" 0 "${v[6]}"
check_eq "af_xdp: every accepted flow translated" "$accepted" "${v[7]}"
check_eq "af_xdp: no flow untranslated" 0 "${v[8]}"
check_eq "af_xdp: one distinct translated source address" 1 "${v[9]}"
check_eq "af_xdp: the port counters are the driver's" nic "${v[12]}"
check_ge "af_xdp: port 0 sent a frame per started flow (driver counters)" "${v[10]}" "$started"
check_ge "af_xdp: port 1 received a frame per accepted flow (driver counters)" "${v[11]}" "$accepted"

echo "# af_xdp: DUT conntrack $CT_MID entries during the run, $CT_END UDP ones after it"
check_ge "af_xdp: DUT conntrack during the run >= 1,000" "$CT_MID" 1000
if [[ $CT_END =~ ^[0-9]+$ ]] && [[ $accepted =~ ^[0-9]+$ ]] && [[ $started =~ ^[0-9]+$ ]] &&
	[ "$accepted" -gt 0 ] && [ "$CT_END" -ge "$accepted" ] && [ "$CT_END" -le "$started" ]; then
	pass "af_xdp: DUT conntrack holds one UDP entry per forwarded flow (accepted <= $CT_END <= started)"
else
	fail "af_xdp: DUT conntrack holds one UDP entry per forwarded flow" \
		"conntrack $CT_END, expected between accepted $accepted and started $started"
fi
nmasq=$(grep -cE '^udp .* dport=4321 .*src=198\.19\.0\.[0-9]+ dst=198\.19\.1\.1 sport=4321 ' "$FG_TMP/ct.txt" || true)
check_eq "af_xdp: every DUT conntrack entry is a udp_short flow masqueraded to 198.19.1.1" \
	"$CT_END" "$nmasq"
check_eq "af_xdp: the driver's program left the veth when flowgen ended" none "$(xdp_mode fg0)"

# --- memory: hugepages or --no-huge -----------------------------------------

check_grep "af_xdp: runs on hugepages (-v)" '^memory: [0-9]+ MiB for DPDK .* from hugepages' "$J"
check_nogrep "af_xdp: the hugepage run did not fall back to --no-huge" 'no-huge' "$J"
N=$FG_TMP/nohuge.out
FG_TIMEOUT=30 fg -v -x "arp; start -f $FG_TOP/profiles/udp_short.yaml -m 2000 -d 1; wait 8; stats --json" \
	-- --no-huge >"$N" 2>&1
check_eq "af_xdp: --no-huge run exits 0" 0 "$?"
check_grep "af_xdp: --no-huge run is on the heap (-v)" '^memory: [0-9]+ MiB for DPDK .* on the heap \(--no-huge\)' "$N"
check_eq "af_xdp: --no-huge run failed no flow" 0 "$(jn "$N" flows.client.failed)"
check_ge "af_xdp: --no-huge run completed flows" "$(jn "$N" flows.client.completed)" 1900

# --- two port pairs, a worker each -------------------------------------------

# Several workers over net_af_xdp on veths: one per port pair. Two veth
# pairs in a namespace of this scenario's own, the ports of a pair wired
# back to back (static next-hop MACs, no DUT); tcp_short at -m 1000 for
# 1 s: 2,000 flows planned, twice the 1,000 checked. It runs in a lane
# beside the checks of refusals below and the lab's teardown (none of
# them measures a rate or a time), under a DPDK prefix of its own
# (fgx-PID: the locked-memory check starts DPDK under the default one).
NSX=fgx-$BASHPID
[ -n "$FG_RESULTS" ] && echo "$NSX" >>"$FG_RESULTS.ns"
at_exit "ip netns del $NSX 2>/dev/null"
at_exit "rm -rf /var/run/dpdk/$NSX"
ip netns add "$NSX"
for k in 0 2; do
	ip -n "$NSX" link add "fgx$k" type veth peer name "fgx$((k + 1))"
	ip -n "$NSX" link set "fgx$k" up
	ip -n "$NSX" link set "fgx$((k + 1))" up
done
cat >"$FG_TMP/pairs.yaml" <<-EOF
	interfaces: ['--vdev=net_af_xdp0,iface=fgx0', '--vdev=net_af_xdp1,iface=fgx1',
	             '--vdev=net_af_xdp2,iface=fgx2', '--vdev=net_af_xdp3,iface=fgx3']
	port_info:
	  - {ip: 198.18.1.2, default_gw: 198.18.1.1, dest_mac: '02:00:00:00:00:02'}
	  - {ip: 198.19.1.2, default_gw: 198.19.1.1, dest_mac: '02:00:00:00:00:01'}
	  - {ip: 198.18.2.2, default_gw: 198.18.2.1, dest_mac: '02:00:00:00:00:04'}
	  - {ip: 198.19.2.2, default_gw: 198.19.2.1, dest_mac: '02:00:00:00:00:03'}
	platform: {master_thread_id: 0, dual_if: [{socket: 0, threads: [1]}, {socket: 0, threads: [1]}]}
	mbufs: 16384
	prefix: $NSX
EOF
pairs_run()
{
	local P=$FG_TMP/pairs.out v
	timeout -k 5 40 ip netns exec "$NSX" "$FG_BIN" -C "$FG_TMP/pairs.yaml" \
		-x "start -f $FG_TOP/profiles/tcp_short.yaml -m 1000 -d 1; wait 10; stats --json" >"$P" 2>&1
	check_eq "af_xdp pairs: flowgen exits 0" 0 "$?"
	mapfile -t v < <(jvals "$P" flows.client.started flows.client.completed flows.client.failed \
		flows.server.failed workers.0.tx_pkts workers.1.tx_pkts workers.1.ports)
	echo "# af_xdp pairs: started ${v[0]} completed ${v[1]}; worker 0 sent ${v[4]}, worker 1 ${v[5]}"
	check_ge "af_xdp pairs: TCP flows started (1,000 or more)" "${v[0]}" 1000
	check_eq "af_xdp pairs: every started flow completed" "${v[0]}" "${v[1]}"
	check_eq "af_xdp pairs: client failed none" 0 "${v[2]}"
	check_eq "af_xdp pairs: server failed none" 0 "${v[3]}"
	check_ge "af_xdp pairs: worker 0 sent" "${v[4]}" 1
	check_ge "af_xdp pairs: worker 1 sent" "${v[5]}" 1
	check_eq "af_xdp pairs: worker 1 runs ports 2 and 3" "[2, 3]" "${v[6]}"
	ip netns del "$NSX"
}
lane pairs pairs_run

# --- two workers on a one-queue veth -----------------------------------------

E=$FG_TMP/c2.out
FG_TIMEOUT=20 fg -c 2 -x "quit" >"$E" 2>&1
erc=$?
if [ "$erc" -ne 0 ] && grep -q 'net_af_xdp on fg0 needs queues 0..1 (one per worker: 2), the interface has 1' "$E" &&
	grep -q -- '-c 1' "$E" && ! grep -q 'EAL: ' "$E"; then
	pass "af_xdp: two workers on a one-queue veth refused before DPDK starts, with the remedy"
else
	fail "af_xdp: two workers on a one-queue veth refused before DPDK starts, with the remedy" \
		"exit $erc: $(tail -n 3 "$E")"
fi

# --- locked memory ---------------------------------------------------------

# The UMEM is locked memory: without CAP_IPC_LOCK, and with a limit root
# cannot lift (no CAP_SYS_RESOURCE), the socket cannot be had; flowgen
# says so with the remedy instead of a bare error.
L=$FG_TMP/memlock.out
timeout -k 5 20 ip netns exec "$NS_TST" setpriv --bounding-set -ipc_lock,-sys_resource \
	--inh-caps=-ipc_lock,-sys_resource bash -c 'ulimit -l 64 && exec "$0" -C "$1" -x quit' \
	"$FG_BIN" "$CFG" >"$L" 2>&1
lrc=$?
if [ "$lrc" -ne 0 ] && grep -q 'Failed to create umem' "$L" &&
	grep -q '^flowgen: hint: net_af_xdp could not open its XDP socket.*ulimit -l unlimited' "$L"; then
	pass "af_xdp: a locked-memory limit it cannot lift gives the driver's reason and the remedy"
else
	fail "af_xdp: a locked-memory limit it cannot lift gives the driver's reason and the remedy" \
		"exit $lrc: $(grep -v '^lib' "$L" | tail -n 3)"
fi

lab_down
lane_end pairs

finish
