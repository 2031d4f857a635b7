#!/usr/bin/env bash
#
# 55_flows_max.sh — closed-loop admission. `-m max` opens new flows only
# while the worker keeps up with what it receives, so on a [loop, loop]
# pair (small rings, one worker serving both sides) every TCP connection
# and UDP exchange completes: the achieved rate is the figure, not
# failures. A paced rate within reach is still met. Per group of
# templates (flowgen-profile(5), `group`): test/data/flows_groups.yaml's
# three templates in two groups, web (50 + 50 cps) and dns (300 cps), for
# 2 s at -m 1: `stats --json`'s templates[] has both groups with their
# templates, their started flows add up to the totals, each group
# completes its own share of the flows (a quarter and three quarters, the
# templates' cps), and `stats -t` prints one table per group.
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

# --- per group of templates ---------------------------------------------------
J=$FG_TMP/groups.out
FG_TIMEOUT=40 fg_plain -C "$CFG" -x "start -f $FG_TOP/test/data/flows_groups.yaml -m 1 -d 2; wait; stats --json; stats -t" \
	>"$J" 2>&1
check_eq "groups: flowgen exits 0" 0 $?
total=$(jn "$J" flows.client.started)
web=$(jn "$J" templates.0.client.started)
dns=$(jn "$J" templates.1.client.started)
echo "# groups: started $total, web $web, dns $dns"
check_eq "groups: two groups, web first" "web dns" "$(jn "$J" templates.0.name) $(jn "$J" templates.1.name)"
check_eq "groups: web holds web_udp and web_tcp" '["web_udp", "web_tcp"]' "$(jn "$J" templates.0.templates)"
check_eq "groups: dns holds dns alone" '["dns"]' "$(jn "$J" templates.1.templates)"
check_eq "groups: no third group" "missing(templates.2)" "$(jn "$J" templates.2)"
check_ge "groups: about 800 flows started (>= 760)" "$total" 760
if [[ $total =~ ^[0-9]+$ && $web =~ ^[0-9]+$ && $dns =~ ^[0-9]+$ ]]; then
	check_eq "groups: the groups' started add up to the total" "$total" "$((web + dns))"
else
	fail "groups: the groups' started add up to the total" "total '$total', web '$web', dns '$dns'"
fi
check_eq "groups: every flow completed" "$total" "$(jn "$J" flows.client.completed)"
# share GROUP COMPLETED NUM : 4 x COMPLETED is NUM x the total, within one flow
share()
{
	local v=$2
	if [[ $v =~ ^[0-9]+$ && $total =~ ^[0-9]+$ ]] && [ $((4 * v - $3 * total)) -le 4 ] &&
		[ $((4 * v - $3 * total)) -ge -4 ]; then
		pass "groups: $1 completed its share, $3/4 of $total flows ($v)"
	else
		fail "groups: $1 completed its share, $3/4 of $total flows" "completed '$v'"
	fi
}
share web "$(jn "$J" templates.0.client.completed)" 1
share dns "$(jn "$J" templates.1.client.completed)" 3
check_eq "groups: web failed none" 0 "$(jn "$J" templates.0.client.failed)"
check_eq "groups: web's server completed each" "$web" "$(jn "$J" templates.0.server.completed)"
check_eq "groups: dns's server completed each" "$dns" "$(jn "$J" templates.1.server.completed)"
check_eq "groups: web's clients sent 64 B a flow" "$((${web:-0} * 64))" "$(jn "$J" templates.0.client.tx_bytes)"
check_eq "groups: dns's clients received 120 B a flow" "$((${dns:-0} * 120))" \
	"$(jn "$J" templates.1.client.rx_bytes)"
check_eq "groups: nothing left active in web" 0 "$(jn "$J" templates.0.client.active)"
check_eq "groups: no late count per group (no template has it)" "missing(templates.0.client.late)" \
	"$(jn "$J" templates.0.client.late)"
check_grep "groups: stats -t prints web's table" '^Flows of group web \(templates web_udp web_tcp\)$' "$J"
check_grep "groups: stats -t prints dns's table" '^Flows of group dns \(templates dns\)$' "$J"
check_grep "groups: stats -t's tables have the flows rows" "^started/accepted +\| +$dns \| +$dns\$" "$J"

finish
