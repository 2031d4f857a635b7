#!/usr/bin/env bash
#
# 23_streams_ipv6.sh — IPv6 streams (flowgen-profile(5), IPv6 STREAMS).
#
# Part 1, [loop, loop]: profiles/stl_64b6.yaml (84-byte frames, the floor)
# and test/data/streams6_both.yaml (both directions, every field
# generator, an imix from the floor up) lose nothing, every frame is
# received with a good UDP checksum (no rx_bad) and latency is measured;
# a frame below the floor is refused with the floor named; between two
# ports with vlan 100 the IPv6 frames are tagged and arrive whole.
# Part 2, the ipv6 lab (a Linux IPv6 router): `start` before `arp` is
# refused naming the IPv6 next hop; after `arp` (Neighbour Discovery)
# stl_64b6 at a modest rate crosses the router with nothing lost and
# latency measured; destinations on the router's link to port 1 are
# reached through the profile's IPv6 hosts (port 1 answers the router's
# Neighbour Solicitations for them) with nothing lost.

. "$(dirname "$0")/lib.sh"

need_flowgen
T0=$SECONDS
LOOP=$(fg_loop_cfg)
P=$FG_TOP/profiles
D=$FG_TOP/test/data

in_range()
{
	python3 -c "import sys; v=float(sys.argv[1]); sys.exit(0 if float(sys.argv[2]) <= v <= float(sys.argv[3]) else 1)" "$@" 2>/dev/null
}

# port_ctr FILE PORT KEY : a port counter of the last `stats --json`
port_ctr()
{
	python3 - "$@" <<-'PY'
		import json, sys
		t = open(sys.argv[1]).read()
		j = t.rfind('{"global"')
		o = json.JSONDecoder().raw_decode(t, j)[0] if j >= 0 else {}
		print(o["ports"][int(sys.argv[2])][sys.argv[3]])
	PY
}

# --- part 1: loop (the two runs side by side) --------------------------------

fg_plain -C "$LOOP" -x "start -f $P/stl_64b6.yaml -d 1 -m 0.2 -t learn_wait=0.2,drain=0.3; wait 20; stats --json" \
	>"$FG_TMP/l64.out" 2>&1 &
p1=$!
fg_plain -C "$LOOP" -x "start -f $D/streams6_both.yaml -d 1 -t learn_wait=0.2,drain=0.3; wait 20; stats --json" \
	>"$FG_TMP/both.out" 2>&1 &
p2=$!
sed -e "/dest_mac: 02:00:00:00:00:02/a\      vlan: 100" \
	-e "/dest_mac: 02:00:00:00:00:01/a\      vlan: 100" "$LOOP" >"$FG_TMP/loop_vlan.yaml"
fg_plain -C "$FG_TMP/loop_vlan.yaml" -x "start -f $P/stl_64b6.yaml -d 1 -m 0.2 -t learn_wait=0.2,drain=0.3; wait 20; stats --json" \
	>"$FG_TMP/vlan.out" 2>&1 &
p3=$!
RC=0
fg_plain -C "$LOOP" -x "start -f $D/streams6_small.yaml -d 1" >"$FG_TMP/small.out" 2>&1 || RC=$?
check_eq "an IPv6 frame of 83 bytes: start refused (exit 1)" 1 "$RC"
check_grep "an IPv6 frame of 83 bytes: the 84-byte floor named, at its line" \
	"streams6_small.yaml:6:12: stream 'small': an IPv6 frame of 83 bytes cannot carry the signature: the smallest is 84" \
	"$FG_TMP/small.out"
wait $p1 $p2 $p3

out=$FG_TMP/l64.out
tx=$(latency_row "$out" s84v6 1 tx)
check_ge "stl_64b6 on loop: frames sent" "${tx:-0}" 1000
check_eq "stl_64b6 on loop: every frame received" "${tx:-no tx}" "$(latency_row "$out" s84v6 1 rx)"
check_eq "stl_64b6 on loop: nothing lost" 0 "$(latency_row "$out" s84v6 1 lost)"
check "stl_64b6 on loop: latency measured" in_range "$(latency_row "$out" s84v6 1 max_us)" 0.001 1e7
check_eq "stl_64b6 on loop: no frame with a bad checksum" 0 "$(port_ctr "$out" 1 rx_bad)"
check_eq "stl_64b6 on loop: no unknown frame" 0 "$(port_ctr "$out" 1 rx_unknown)"

out=$FG_TMP/both.out
for r in both:1 both:0 mixed:1; do
	IFS=: read -r s p <<<"$r"
	tx=$(latency_row "$out" $s $p tx)
	check_ge "$s towards port $p on loop: frames sent" "${tx:-0}" 500
	check_eq "$s towards port $p on loop: every frame received" "${tx:-no tx}" "$(latency_row "$out" $s $p rx)"
	check "$s towards port $p on loop: latency measured" in_range "$(latency_row "$out" $s $p max_us)" 0.001 1e7
done
check_eq "imix and random fields on loop: no frame with a bad checksum" 0 \
	"$(( $(port_ctr "$out" 0 rx_bad) + $(port_ctr "$out" 1 rx_bad) ))"

out=$FG_TMP/vlan.out
tx=$(latency_row "$out" s84v6 1 tx)
check_ge "stl_64b6 between vlan 100 ports: frames sent" "${tx:-0}" 1000
check_eq "stl_64b6 between vlan 100 ports: every frame received" "${tx:-no tx}" "$(latency_row "$out" s84v6 1 rx)"
check_eq "stl_64b6 between vlan 100 ports: nothing unknown" 0 "$(port_ctr "$out" 1 rx_unknown)"

# --- part 2: the ipv6 lab ----------------------------------------------------

need_root "ipv6 lab"
lab_up ipv6 || exit 1
CFG=$FG_TOP/examples/lab6.yaml
out=$FG_TMP/lab.out
fg -k -x "start -f $P/stl_64b6.yaml -d 1; arp; start -f $P/stl_64b6.yaml -d 1 -m 0.5 -t learn_wait=0.3,drain=0.3; wait 20; stats --json" \
	</dev/null >"$out" 2>&1
check_grep "before arp: start refused naming the IPv6 next hop" \
	"port 0: IPv6 next-hop MAC unknown \(run .arp. first: it resolves default_gw6 by Neighbour Discovery; or set dest_mac\)" "$out"
check_grep "arp: the router's MAC by Neighbour Discovery" "^port 0: 2001:2:0:1::2 gw 2001:2:0:1::1 MAC .* \(ND\)" "$out"
tx=$(latency_row "$out" s84v6 1 tx)
check_ge "stl_64b6 through the IPv6 router: frames sent" "${tx:-0}" 1000
check_eq "stl_64b6 through the IPv6 router: every frame received" "${tx:-no tx}" "$(latency_row "$out" s84v6 1 rx)"
check_eq "stl_64b6 through the IPv6 router: nothing lost" 0 "$(latency_row "$out" s84v6 1 lost)"
check "stl_64b6 through the IPv6 router: latency measured" in_range "$(latency_row "$out" s84v6 1 p50_us)" 0.001 1e7

out=$FG_TMP/hosts.out
fg -x "arp; start -f $D/streams6_hosts.yaml -d 1 -t learn_wait=0.3,drain=0.3; wait 20; stats --json" </dev/null >"$out" 2>&1
tx=$(latency_row "$out" hosts6 1 tx)
check_ge "IPv6 hosts on port 1: frames sent" "${tx:-0}" 500
check_eq "IPv6 hosts on port 1: every frame received" "${tx:-no tx}" "$(latency_row "$out" hosts6 1 rx)"
N=$(ip -n "$NS_DUT" -6 neigh show 2001:2:0:101::1f dev dut1)
printf '%s\n' "$N" >"$FG_TMP/n"
check_grep "IPv6 hosts on port 1: the router learned 2001:2:0:101::1f at port 1's MAC" \
	"lladdr $(tst_mac fg1)" "$FG_TMP/n"

echo "# 23_streams_ipv6.sh: $((SECONDS - T0)) s"
finish
