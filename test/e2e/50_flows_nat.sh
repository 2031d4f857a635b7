#!/usr/bin/env bash
#
# 50_flows_nat.sh — stateful UDP flows through the lab's DUT (the NAT and
# router flavours of examples/lab.sh).
#
# NAT lab: udp_short (one 18-byte datagram per flow, client to server) at
# 4,000 flows/s for 2.5 s, i.e. 10,000 flows. Expected:
#  - the client starts 95-100 % of them (a stalled worker drops the starts
#    it falls behind on beyond its pacer's slack; it never starts more) and
#    completes every one it starts, one datagram and 18 bytes each;
#  - the server accepts what the client sent, to within 0.1 % (frames the
#    kernel side of the lab may drop on a loaded machine), completes each,
#    and sees every one of them translated to the DUT's one outside address;
#  - the DUT's connection tracking grows during the run (>= 1,000 entries
#    1.5 s after flowgen's start, a second or so into the run: 5,200 to
#    5,400 there in three runs) and afterwards holds one entry per flow it
#    forwarded: at least the server's accepted count, at most the client's
#    started count (entries of unreplied UDP flows live 30 s, longer than
#    the run), each one the profile's UDP flow masqueraded to 198.19.1.1.
# Router lab: udp_short at 3,000 flows/s for 2 s (6,000 flows) arrives
# untranslated, the same accounting holds, and no translated source is
# recorded. The router lab comes up beside the NAT lab, before the NAT run.
# A stalled worker loses only the starts that fall due beyond its pacer's
# 20 ms bound while it is off its CPU (flowgen(8), late): the 5 % the
# started counts allow is 125 ms of such stalls in the NAT run and 100 ms
# in the router run.

. "$(dirname "$0")/lib.sh"

need_root "flows nat: lab"

# bytes18 N : N flows x 18 bytes, or "n/a(N)" when N is not a count
bytes18()
{
	if [[ $1 =~ ^[0-9]+$ ]]; then echo $(($1 * 18)); else echo "n/a($1)"; fi
}

# flow_read FILE : the counters of one run of udp_short, from one python3
# (jvals: as jn gives them), into v; the translation's in translated,
# untranslated and distinct
flow_read()
{
	mapfile -t v < <(jvals "$1" flows.client.started flows.client.completed flows.server.accepted \
		flows.client.failed flows.client.active flows.client.tx_pkts flows.client.tx_bytes \
		flows.server.completed flows.server.failed flows.server.active flows.server.rx_bytes \
		flows.server.tx_pkts flows.server.translated flows.server.untranslated \
		flows.server.distinct_src_addrs)
	translated=${v[12]:-} untranslated=${v[13]:-} distinct=${v[14]:-}
}

# flow_accounting TAG LO HI : the client and server checks of one run of
# udp_short, on what flow_read read; LO..HI the expected count of started
# flows
flow_accounting()
{
	local tag=$1 lo=$2 hi=$3 started completed accepted
	started=${v[0]} completed=${v[1]} accepted=${v[2]}
	echo "# $tag: started $started completed $completed accepted $accepted"
	if [[ $started =~ ^[0-9]+$ ]] && [ "$started" -ge "$lo" ] && [ "$started" -le "$hi" ]; then
		pass "$tag: client started $lo..$hi flows"
	else
		fail "$tag: client started $lo..$hi flows" "started '$started'"
	fi
	check_eq "$tag: client completed every started flow" "$started" "$completed"
	check_eq "$tag: client failed none" 0 "${v[3]}"
	check_eq "$tag: client has nothing left active" 0 "${v[4]}"
	check_eq "$tag: client sent one datagram per flow" "$started" "${v[5]}"
	check_eq "$tag: client sent 18 B per flow" "$(bytes18 "$started")" "${v[6]}"
	within_pct "$tag: server accepted the client's completed flows (0.1 %)" "$accepted" "$completed" 0.1
	check_eq "$tag: server completed every accepted flow" "$accepted" "${v[7]}"
	check_eq "$tag: server failed none" 0 "${v[8]}"
	check_eq "$tag: server has nothing left active" 0 "${v[9]}"
	check_eq "$tag: server received 18 B per accepted flow" "$(bytes18 "$accepted")" "${v[10]}"
	check_eq "$tag: server sent nothing (udp_short has no reply)" 0 "${v[11]}"
}

# --- NAT ---------------------------------------------------------------------

lab_bg router r
lab_up nat || exit 1
# the router lab is up as well before the run: nothing of it beside the run
while kill -0 "$FG_LAB_BG_r" 2>/dev/null; do sleep 0.05; done
J=$FG_TMP/nat.out
fg -x "arp; start -f $FG_TOP/profiles/udp_short.yaml -m 4000 -d 2.5; wait 12; stats --json" \
	>"$J" 2>&1 &
FGPID=$!
sleep 1.5
CT_MID=$("$FG_LAB" conntrack 2>/dev/null || echo missing)
wait $FGPID
rc=$?
CT_END=$("$FG_LAB" conntrack 2>/dev/null || echo missing)
in_dut conntrack -L -p udp >"$FG_TMP/ct.txt" 2>/dev/null
check_eq "flows nat: flowgen exits 0" 0 "$rc"
flow_read "$J"
check "flows nat: stats --json printed" test -n "${v[0]:-}" -a "${v[0]#missing(}" = "${v[0]:-}"
flow_accounting "flows nat" 9500 10000
accepted=${v[2]}
started=${v[0]}
check_eq "flows nat: every accepted flow translated" "$accepted" "$translated"
check_eq "flows nat: no flow untranslated" 0 "$untranslated"
check_eq "flows nat: one distinct translated source address" 1 "$distinct"
echo "# flows nat: DUT conntrack $CT_MID entries 1.5 s after the start, $CT_END after the run"
check_ge "flows nat: DUT conntrack 1.5 s after the start >= 1,000" "$CT_MID" 1000
if [[ $CT_END =~ ^[0-9]+$ ]] && [[ $accepted =~ ^[0-9]+$ ]] && [[ $started =~ ^[0-9]+$ ]] &&
	[ "$accepted" -gt 0 ] && [ "$CT_END" -ge "$accepted" ] && [ "$CT_END" -le "$started" ]; then
	pass "flows nat: DUT conntrack holds one entry per forwarded flow (accepted <= $CT_END <= started)"
else
	fail "flows nat: DUT conntrack holds one entry per forwarded flow" \
		"conntrack $CT_END, expected between accepted $accepted and started $started"
fi
nmasq=$(grep -cE '^udp .* dport=4321 .*src=198\.19\.0\.[0-9]+ dst=198\.19\.1\.1 sport=4321 ' "$FG_TMP/ct.txt" || true)
check_eq "flows nat: every DUT conntrack entry is a udp_short flow masqueraded to 198.19.1.1" \
	"$CT_END" "$nmasq"
lab_down

# --- router ------------------------------------------------------------------

lab_use r || exit 1
J=$FG_TMP/router.out
fg -x "arp; start -f $FG_TOP/profiles/udp_short.yaml -m 3000 -d 2; wait 10; stats --json" \
	>"$J" 2>&1
check_eq "flows router: flowgen exits 0" 0 "$?"
flow_read "$J"
flow_accounting "flows router" 5700 6000
check_eq "flows router: untranslated equals accepted" "${v[2]}" "$untranslated"
check_eq "flows router: nothing translated" 0 "$translated"
check_eq "flows router: no translated source recorded" 0 "$distinct"

finish
