#!/usr/bin/env bash
#
# 72_streams_l3.sh — a SmartBits-style L3 test against the l3 lab:
# the DUT (198.18.1.1/16, 198.19.1.1/16, no static routes) must resolve
# every emulated host by ARP, which flowgen's workers answer (emulated hosts).
# A learning phase sends one frame to every host both ways before the
# measured traffic. 200 host pairs fit the DUT's default neighbour table
# and lose nothing; 3,000 pairs (6,000 neighbours) are past it and show
# clear loss, reported per direction.

. "$(dirname "$0")/lib.sh"

D=$FG_TOP/test/data


lab_up l3 || finish

out=$FG_TMP/l3_200.out
fg -x "arp; start -f $D/streams_l3_200.yaml -d 4; wait 40; stats --json" >"$out" 2>&1
for p in 0 1; do
	tx=$(latency_row "$out" pairs $((p ^ 1)) tx)
	check_ge "200 pairs, port $p -> $((p ^ 1)): frames sent" "${tx:-0}" 3000
	check_eq "200 pairs, port $p -> $((p ^ 1)): nothing lost" 0 "$(latency_row "$out" pairs $((p ^ 1)) lost)"
done
check_ge "200 pairs: the DUT learned the hosts" \
	"$(in_dut ip -4 neigh show nud reachable | grep -c '198\.1[89]\.10\.')" 300
for p in 0 1; do
	check_eq "200 pairs: learning frames are not counted as unknown on port $p" 0 \
		"$(json_get "$out" ports.$p.rx_unknown)"
done

out=$FG_TMP/l3_3000.out
fg -x "arp; start -f $D/streams_l3_3000.yaml -d 4; wait 40; stats --json" >"$out" 2>&1
for p in 0 1; do
	tx=$(latency_row "$out" pairs $((p ^ 1)) tx)
	lost=$(latency_row "$out" pairs $((p ^ 1)) lost)
	check_ge "3000 pairs, port $p -> $((p ^ 1)): frames sent" "${tx:-0}" 3000
	# clear loss: more than 5 % of what was sent
	check_ge "3000 pairs, port $p -> $((p ^ 1)): loss past the neighbour table" \
		"$(( ${lost:-0} * 100 / ${tx:-1} ))" 5
	echo "# 3000 pairs, port $p -> $((p ^ 1)): tx $tx lost $lost"
done
lab_down
finish
