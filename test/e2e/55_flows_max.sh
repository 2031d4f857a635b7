#!/usr/bin/env bash
#
# 55_flows_max.sh — closed-loop admission. `-m max` opens new flows only
# while the worker keeps up with what it receives, so on a [loop, loop]
# pair (small rings, one worker serving both sides) every TCP connection
# and UDP exchange completes: the achieved rate is the figure, not
# failures. A paced rate within reach is still met.
# Runs on a [loop, loop] config: no lab needed.

. "$(dirname "$0")/lib.sh"

CFG=$(fg_loop_cfg)
B=$FG_TOP/test/bench

for p in "$FG_TOP/profiles/tcp_short.yaml" "$B/udp_rr.yaml"; do
	n=$(basename "$p" .yaml)
	J=$FG_TMP/max.$n.out
	FG_TIMEOUT=40 fg_plain -C "$CFG" -x "start -f $p -m max -d 2; wait; stats --json" >"$J" 2>&1
	check_eq "$n -m max: flowgen exits 0" 0 $?
	s=$(json_get "$J" flows.client.started || echo 0)
	check_ge "$n -m max: flows completed" "$(json_get "$J" flows.client.completed || echo 0)" 10000
	check_eq "$n -m max: no flow failed" 0 "$(json_get "$J" flows.client.failed || echo -1)"
	check_eq "$n -m max: no retransmission" 0 "$(json_get "$J" flows.client.retx || echo -1)"
	check_eq "$n -m max: every started flow completed" "$s" \
		"$(json_get "$J" flows.client.completed || echo -1)"
done

J=$FG_TMP/paced.out
FG_TIMEOUT=40 fg_plain -C "$CFG" -x "start -f $FG_TOP/profiles/tcp_short.yaml -m 5000cps -d 2; wait; stats --json" \
	>"$J" 2>&1
check_eq "tcp_short -m 5000cps: flowgen exits 0" 0 $?
s=$(json_get "$J" flows.client.started || echo 0)
check_ge "tcp_short -m 5000cps: >= 9,500 of 10,000 flows started" "$s" 9500
check_ge "tcp_short -m 5000cps: no more than 10,001 started" 10001 "$s"
check_eq "tcp_short -m 5000cps: all completed" "$s" "$(json_get "$J" flows.client.completed || echo -1)"

finish
