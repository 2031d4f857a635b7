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
# Runs on a [loop, loop] config: no lab needed. The four runs (2 s each)
# are made by one flowgen, one after the other, their figures read by a
# python3 per run (12.9 s to 9.2 s from a flowgen and a python3 per figure
# each).

. "$(dirname "$0")/lib.sh"

CFG=$(fg_loop_cfg)
B=$FG_TOP/test/bench

# The four runs are made by one flowgen, one after the other: `start`
# clears the counters, so each run's `stats --json` (the N-th of the
# output) holds its own figures; without -k the first command that fails
# ends the batch (exit 1), so each run's "exit 0" check is the batch's
# exit status and its own `stats --json` being there. A flowgen per run
# spent about 0.35 s more a run opening and closing the ports.
R=$FG_TMP/runs.out
FG_TIMEOUT=120 fg_plain -C "$CFG" -x "\
start -f $FG_TOP/profiles/tcp_short.yaml -m max -d 2; wait; stats --json; \
start -f $B/udp_rr.yaml -m max -d 2; wait; stats --json; \
start -f $FG_TOP/profiles/tcp_short.yaml -m 5000cps -d 2; wait; stats --json; \
start -f $FG_TOP/test/data/flows_groups.yaml -m 1 -d 2; wait; stats --json; stats -t" >"$R" 2>&1
rc=$?
# each run's `stats --json`, in order, to R.1 ... R.4 (one python3)
python3 - "$R" <<-'PY'
	import json, sys
	from fg_e2e_json import objects
	for i, o in enumerate(objects(open(sys.argv[1]).read(), '{"global"'), 1):
	    open("%s.%d" % (sys.argv[1], i), "w").write(json.dumps(o) + "\n")
PY
# run_json N FILE PATH... : the N-th run's `stats --json` into FILE, its
# PATHs read by one python3 (jpre) for the json_get and jn calls on FILE
run_json()
{
	local f=$2
	cp "$R.$1" "$f" 2>/dev/null || : >"$f"
	shift 2
	jpre "$f" "$@"
}
# run_ok NAME FILE : the batch exited 0 and FILE holds the run's figures
run_ok()
{
	check_eq "$1: flowgen exits 0" "0 yes" "$rc $([ -s "$2" ] && echo yes || echo no)"
}

i=0
for p in "$FG_TOP/profiles/tcp_short.yaml" "$B/udp_rr.yaml"; do
	i=$((i + 1))
	n=$(basename "$p" .yaml)
	J=$FG_TMP/max.$n.out
	run_json $i "$J" flows.client.started flows.client.completed flows.client.failed flows.client.retx
	run_ok "$n -m max" "$J"
	s=$(json_get "$J" flows.client.started || echo 0)
	check_ge "$n -m max: flows completed" "$(json_get "$J" flows.client.completed || echo 0)" 10000
	check_eq "$n -m max: no flow failed" 0 "$(json_get "$J" flows.client.failed || echo -1)"
	check_eq "$n -m max: no retransmission" 0 "$(json_get "$J" flows.client.retx || echo -1)"
	check_eq "$n -m max: every started flow completed" "$s" \
		"$(json_get "$J" flows.client.completed || echo -1)"
done

J=$FG_TMP/paced.out
run_json 3 "$J" flows.client.started flows.client.completed
run_ok "tcp_short -m 5000cps" "$J"
s=$(json_get "$J" flows.client.started || echo 0)
check_ge "tcp_short -m 5000cps: >= 9,500 of 10,000 flows started" "$s" 9500
check_ge "tcp_short -m 5000cps: no more than 10,001 started" 10001 "$s"
check_eq "tcp_short -m 5000cps: all completed" "$s" "$(json_get "$J" flows.client.completed || echo -1)"

# --- per group of templates ---------------------------------------------------
J=$FG_TMP/groups.out
run_json 4 "$J" flows.client.started flows.client.completed templates.0.client.started \
	templates.1.client.started templates.0.name templates.1.name templates.0.templates \
	templates.1.templates templates.2 templates.0.client.completed templates.1.client.completed \
	templates.0.client.failed templates.0.server.completed templates.1.server.completed \
	templates.0.client.tx_bytes templates.1.client.rx_bytes templates.0.client.active \
	templates.0.client.late
run_ok "groups" "$J"
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
check_grep "groups: stats -t prints web's table" '^Flows of group web \(templates web_udp web_tcp\)$' "$R"
check_grep "groups: stats -t prints dns's table" '^Flows of group dns \(templates dns\)$' "$R"
check_grep "groups: stats -t's tables have the flows rows" "^started/accepted +\| +$dns \| +$dns\$" "$R"

finish
