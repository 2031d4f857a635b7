#!/usr/bin/env bash
#
# 98_api_lab.sh — the HTTP API against the lab's Linux DUT (flowgen runs in
# the tester namespace with --api on that namespace's loopback; its
# console's stdin is a FIFO, so the test speaks to both):
#  - router lab: `arp` through POST /flowgen/v1/command resolves both next
#    hops; an OTG config of one IPv4 UDP flow with latency and
#    fixed_packets through the router sends its 1,000 frames, receives all
#    of them, latency 0 < min <= avg <= max, port p1's frames_tx are the
#    flow's;
#  - nat lab: `arp`, a stateful UDP run through masquerade and `stats
#    --json` through the API; every flow started completed, the DUT's
#    conntrack table holds the flows, and the console's own `stats --json`
#    prints the same figures as the API's; a poll during the console's
#    `stop` is answered while the flows drain, not after; then an OTG config of a TCP flow
#    (SYN segments from 20 source ports) and an ICMP echo flow through the
#    masquerade: every frame arrives, translated, and the DUT's conntrack
#    holds the TCP and ICMP connections they opened; `bench nat` through
#    the API gives its value.
# The two labs are up at once, each with its flowgen: the router lab's
# checks run in a lane while the nat lab's `bench nat` (6.2 s of 18.6 in a
# run of this scenario alone) runs.

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fg_jq.sh"

need_root "api lab"
need_flowgen
command -v curl >/dev/null 2>&1 || { fail "curl is installed" "make deps installs it"; finish; exit; }
jq_start

# api_up : flowgen --api in the lab's tester namespace, its console on fd 7
api_up()
{
	API_NS=$NS_TST
	api_start
}

api_down()
{
	http POST /flowgen/v1/command '{"command": "quit"}'
	wait "$FG_PID"
	exec 7>&-
}

# cmd COMMAND : POST /flowgen/v1/command
cmd()
{
	http POST /flowgen/v1/command "$(cmd_body "$1")"
}

# otg_run TAG FILE : POST /config of FILE, start every flow, poll the flow
# metrics every 0.2 s until every flow's transmit is stopped (20 s at
# most); $B is then the last Metrics.Response
otg_run()
{
	local i
	http POST /config "@$2"
	check_eq "$1: POST /config: 200" 200 "$ST"
	http POST /control/state '{"choice": "traffic", "traffic": {"choice": "flow_transmit", "flow_transmit": {"state": "start"}}}'
	check_eq "$1: flow_transmit start: 200" 200 "$ST"
	for ((i = 0; i < 100; i++)); do
		http POST /monitor/metrics '{"choice": "flow", "flow": {}}'
		[ "$(jq_ 'all(f["transmit"] == "stopped" for f in o["flow_metrics"])')" = True ] && break
		sleep 0.2
	done
}

# --- router lab: arp and an OTG flow (a lane) -----------------------------------------

# router_part : the router lab's checks, in a lane beside the nat lab's
# `bench nat` (below): a lab of its own (up before the lane, for its
# clean-up), a flowgen of its own; its HTTP bodies and console files in a
# folder of its own, its jq_ a python3 of its own (not the shared one of
# fg_jq.sh). Nothing it checks is a time (frames counted, latency's
# order, ping's replies), nor anything of `bench nat`'s (the NAT's
# behaviour, not its speed).
router_part()
{
	local D=$FG_TMP
	exec {FG_JQW}>&- {FG_JQR}<&- 7>&-
	FG_TMP=$D/router
	mkdir -p "$FG_TMP"
	NS_TST=$R_TST NS_DUT=$R_DUT
	jq_()
	{
		python3 -c 'import json, sys; o = json.loads(sys.argv[2]); print(eval(sys.argv[1]))' "$1" "$B" 2>&1
	}
	check "router: flowgen --api in the tester namespace" api_up
	echo "$FG_PID" >"$FG_TMP/pid"
	cmd arp
	check_eq "router: arp through the API: ok" "True" "$(jq_ 'o["ok"]')"
	check_eq "router: arp resolved both next hops" "True" \
		"$(jq_ '"198.18.1.1" in o["output"] and "198.19.1.1" in o["output"] and "unresolved" not in o["output"]')"
	check_eq "router: arp's value: both next hops resolved by ARP, with the router's MACs" \
		"2 arp arp 198.18.1.1 198.19.1.1 True" \
		"$(jq_ 'len(o["json"]["next_hops"]), o["json"]["next_hops"][0]["source"], o["json"]["next_hops"][1]["source"], o["json"]["next_hops"][0]["gw"], o["json"]["next_hops"][1]["gw"], all(h["resolved"] and len(h["gw_mac"]) == 17 for h in o["json"]["next_hops"])' | tr -d "(),'")"
	cmd 'ping -p 0 -d 198.18.1.1 -n 3'
	check_eq "router: ping's value: 3 sent, 3 replies, each with its round trip, min <= avg <= max" \
		"3 3 0.0 True True" \
		"$(jq_ 'o["json"]["transmitted"], o["json"]["received"], o["json"]["loss_pct"], all(r["rtt_ms"] > 0 for r in o["json"]["replies"]) and [r["seq"] for r in o["json"]["replies"]] == [1, 2, 3], 0 < o["json"]["rtt_ms"]["min"] <= o["json"]["rtt_ms"]["avg"] <= o["json"]["rtt_ms"]["max"]' | tr -d "(),'")"
	check_eq "router: ping's text beside it" "True" "$(jq_ '"3 packets transmitted, 3 received, 0% packet loss" in o["output"]')"

	cat >"$FG_TMP/otg.json" <<'EOF'
{"ports": [{"name": "p1", "location": "0"}, {"name": "p2", "location": "1"}],
 "flows": [{"name": "through", "tx_rx": {"choice": "port", "port": {"tx_name": "p1", "rx_names": ["p2"]}},
   "packet": [{"choice": "ethernet", "ethernet": {}},
              {"choice": "ipv4", "ipv4": {"src": {"choice": "increment", "increment": {"start": "198.18.0.1", "step": "0.0.0.1", "count": 20}},
                                          "dst": {"choice": "value", "value": "198.19.0.1"}}},
              {"choice": "udp", "udp": {"dst_port": {"choice": "value", "value": 4321}}}],
   "size": {"choice": "fixed", "fixed": 128}, "rate": {"choice": "pps", "pps": 1000},
   "duration": {"choice": "fixed_packets", "fixed_packets": {"packets": 1000}},
   "metrics": {"enable": true, "loss": true, "latency": {"enable": true}}}]}
EOF
	otg_run router "$FG_TMP/otg.json"
	M='o["flow_metrics"][0]'
	check_eq "router: the flow stopped" stopped "$(jq_ "$M[\"transmit\"]")"
	check_eq "router: the flow sent its 1000 frames through the DUT and received them all" "1000 1000" \
		"$(jq_ "$M[\"frames_tx\"], $M[\"frames_rx\"]" | tr -d '(),')"
	check_eq "router: latency 0 < minimum <= average <= maximum" True \
		"$(jq_ "0 < $M[\"latency\"][\"minimum_ns\"] <= $M[\"latency\"][\"average_ns\"] <= $M[\"latency\"][\"maximum_ns\"]")"
	http POST /monitor/metrics '{"choice": "port", "port": {}}'
	check_eq "router: port p1 sent the flow's frames and nothing else" 1000 \
		"$(jq_ '{p["name"]: p for p in o["port_metrics"]}["p1"]["frames_tx"]')"
	api_down
}

# --- nat lab: a stateful run through the command endpoint ----------------------------

# both labs up first: the nat lab, then the router lab (fgt-PID-r,
# fgd-PID-r) for the lane; the names of the nat lab are the ones in use
lab_up nat || exit 1
N_TST=$NS_TST N_DUT=$NS_DUT
lab_up router r || exit 1
R_TST=$NS_TST R_DUT=$NS_DUT
NS_TST=$N_TST NS_DUT=$N_DUT
export FG_NS_TST=$N_TST FG_NS_DUT=$N_DUT
check "nat: flowgen --api in the tester namespace" api_up
cmd arp
check_eq "nat: arp through the API: ok" "True" "$(jq_ 'o["ok"]')"
cmd "start -f $FG_TOP/profiles/udp_short.yaml -m 500 -d 2"
check_eq "nat: a stateful start through the API: ok" "True" "$(jq_ 'o["ok"]')"
cmd "wait 20"
check_eq "nat: wait through the API returns" "True" "$(jq_ 'o["ok"]')"
cmd "stats --json"
check_eq "nat: stats --json through the API: parsed" "True" "$(jq_ '"flows" in o["json"]')"
printf '%s\n' "$B" >"$FG_TMP/api.json"
started=$(jq_ 'o["json"]["flows"]["client"]["started"]')
completed=$(jq_ 'o["json"]["flows"]["client"]["completed"]')
echo "# nat through the API: started $started completed $completed"
check_ge "nat: flows started (500 CPS for 2 s)" "${started:-0}" 930
check_eq "nat: every flow started completed" "$started" "$completed"
check_eq "nat: the servers saw every flow translated" True \
	"$(jq_ '0 < o["json"]["flows"]["server"]["accepted"] == o["json"]["flows"]["server"]["translated"]')"
ct=$(in_dut conntrack -L -p udp 2>/dev/null | grep -c 'src=198\.18\.')
echo "# nat: the DUT's conntrack holds $ct UDP entries from the clients"
check_ge "nat: the DUT's conntrack table holds the flows" "$ct" "$((started * 9 / 10))"
printf 'stats --json\necho console-done\n' >&7
check "nat: the console runs its own stats --json" wait_for '^console-done$' "$FG_TMP/out" 20 "$FG_PID"
# both files' figures read with a python3 each, not one per figure
jpre "$FG_TMP/out" flows.client.started flows.client.completed global.tx_pkts global.rx_pkts
jpre "$FG_TMP/api.json" json.flows.client.started json.flows.client.completed json.global.tx_pkts json.global.rx_pkts
for f in flows.client.started flows.client.completed global.tx_pkts global.rx_pkts; do
	check_eq "nat: console and API agree on $f" "$(json_get "$FG_TMP/out" "$f")" \
		"$(json_get "$FG_TMP/api.json" "json.$f")"
done
# the console's `stop` answers the API while its flows drain (each lives a
# second): a poll 0.2 s into the drain comes back at once, the flows still
# active then, and the stop ends after it. The stop comes a second after
# the start, when the flows begun in the first second are all alive.
printf 'start -f %s -m 100\necho soak-started\n' "$FG_TOP/test/data/soak_flows.yaml" >&7
wait_for '^soak-started$' "$FG_TMP/out" 20 "$FG_PID"
sleep 1
printf 'stop\necho stop-done\n' >&7
sleep 0.2
t0=$(date +%s%N)
http POST /flowgen/v1/command '{"command": "stats --json"}'
ms=$((($(date +%s%N) - t0) / 1000000))
echo "# nat: a poll during stop's drain: answered in $ms ms"
check_eq "nat: a poll during stop's drain answers, the flows still active" "200 True" \
	"$ST $(jq_ 'o["json"]["flows"]["client"]["active"] > 0')"
check "nat: a poll during stop's drain answers within 500 ms ($ms ms)" test "$ms" -lt 500
check "nat: the stop ends after that poll" wait_for '^stop-done$' "$FG_TMP/out" 20 "$FG_PID"

cat >"$FG_TMP/otg_l4.json" <<'EOF'
{"ports": [{"name": "p1", "location": "0"}, {"name": "p2", "location": "1"}],
 "flows": [{"name": "syn", "tx_rx": {"choice": "port", "port": {"tx_name": "p1", "rx_names": ["p2"]}},
   "packet": [{"choice": "ethernet", "ethernet": {}},
              {"choice": "ipv4", "ipv4": {"src": {"choice": "value", "value": "198.18.0.7"},
                                          "dst": {"choice": "value", "value": "198.19.0.1"}}},
              {"choice": "tcp", "tcp": {"src_port": {"choice": "increment", "increment": {"start": 3000, "step": 1, "count": 20}},
                                        "dst_port": {"choice": "value", "value": 80},
                                        "ctl_syn": {"choice": "value", "value": 1}}}],
   "size": {"choice": "fixed", "fixed": 80}, "rate": {"choice": "pps", "pps": 1000},
   "duration": {"choice": "fixed_packets", "fixed_packets": {"packets": 1000}},
   "metrics": {"enable": true, "loss": true, "latency": {"enable": true}}},
  {"name": "ping", "tx_rx": {"choice": "port", "port": {"tx_name": "p1", "rx_names": ["p2"]}},
   "packet": [{"choice": "ethernet", "ethernet": {}},
              {"choice": "ipv4", "ipv4": {"src": {"choice": "value", "value": "198.18.0.8"},
                                          "dst": {"choice": "value", "value": "198.19.0.1"}}},
              {"choice": "icmp", "icmp": {"choice": "echo", "echo": {"identifier": {"choice": "value", "value": 77}}}}],
   "size": {"choice": "fixed", "fixed": 64}, "rate": {"choice": "pps", "pps": 1000},
   "duration": {"choice": "fixed_packets", "fixed_packets": {"packets": 1000}},
   "metrics": {"enable": true, "loss": true, "latency": {"enable": true}}}]}
EOF
otg_run "nat: a TCP and an ICMP flow" "$FG_TMP/otg_l4.json"
check_eq "nat: the TCP and ICMP flows sent 1000 frames each through the masquerade, all received" \
	"syn 1000 1000 ping 1000 1000" \
	"$(jq_ '" ".join("%s %d %d" % (f["name"], f["frames_tx"], f["frames_rx"]) for f in o["flow_metrics"])')"
check_eq "nat: the DUT's conntrack holds the 20 TCP connections the SYNs opened, translated" 20 \
	"$(in_dut conntrack -L -p tcp 2>/dev/null | grep 'src=198\.18\.0\.7 ' | grep -c 'dport=80 .*dst=198\.19\.1\.1')"
check_ge "nat: and the ICMP echo connection of identifier 77" \
	"$(in_dut conntrack -L -p icmp 2>/dev/null | grep 'src=198\.18\.0\.8 ' | grep -c 'id=77')" 1
cmd stop
at_exit "kill \$(cat $FG_TMP/router/pid)"
lane router router_part
cmd "bench nat -p udp --outside 198.19.0.10 --timeout-max 0 --json"
check_eq "nat: bench nat --json through the API: ok, its result value itself" "True nat True" \
	"$(jq_ 'o["ok"], o["json"]["bench"], isinstance(o["json"]["checks"], list) and len(o["json"]["checks"]) > 0' | tr -d "(),'")"
check_eq "nat: bench nat's value says the DUT translates, and no JSON text is in output" "True True" \
	"$(jq_ 'o["json"]["translated"] is True, "\"checks\"" not in o["output"]' | tr -d '(),')"
api_down
lane_end router
lab_down

finish
