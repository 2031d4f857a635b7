#!/usr/bin/env bash
#
# 92_bench_capacity.sh — `bench capacity` (flowgen(8), RFC 9693 connection
# tracking table capacity) against the router lab, whose DUT tracks at most
# LIMIT connections (an nftables `ct count over` drop of new ones) and
# forgets a connection 2 s after its last frame (the DUT namespace's UDP
# conntrack timeout). With a 2.5 s pause between trials each trial starts
# from an empty table (the last connections of a trial expire 2 s after
# it; an expired entry no longer counts): the search must land near LIMIT
# (a range, not a figure), every trial up to it completing all its
# connections and every valid one well above it leaving some uncompleted.
# Apart from 90_bench.sh to keep each scenario short.

. "$(dirname "$0")/../e2e/lib.sh"

P=$FG_TOP/profiles
LIMIT=2000


lab_up router || finish
in_dut sysctl -qw net.netfilter.nf_conntrack_udp_timeout=2
in_dut nft -f - <<-NFT
	table ip fgcap {
		chain f {
			type filter hook forward priority 0;
			ct state new oifname "dut1" ct count over $LIMIT drop
		}
	}
NFT
out=$FG_TMP/cap.json
csv=$FG_TMP/cap.csv
FG_TIMEOUT=150 fg -x "arp; bench capacity -f $P/udp_short.yaml -m 2000 --trial 0.5 --resolution 10 --pause 2.5 --json --csv $csv" >"$out" 2>"$FG_TMP/cap.err"
check_eq "capacity: exit status 0" 0 "$?"
echo "# capacity: $(bench_py '[(t["conns"], t["completed"], t["valid"]) for t in o["trials"]]' "$out" 2>&1)"
echo "# capacity: $(bench_py 'o["result"]["capacity"]' "$out" 2>&1) connections, DUT limit $LIMIT"
check_py "capacity: found within 90-110 % of the DUT's limit" \
	"o['result']['found'] and $LIMIT * 0.9 <= o['result']['capacity'] <= $LIMIT * 1.1" "$out"
check_py "capacity: a failure bounded the search" 'not o["result"]["at_limit"]' "$out"
check_py "capacity: the first trial asked for rate x trial time (1,000)" 'o["trials"][0]["conns"] == 1000' "$out"
check_py "capacity: every trial up to the limit completed all its connections" \
	"all(t['failed'] == 0 for t in o['trials'] if t['conns'] <= $LIMIT * 0.9)" "$out"
check_py "capacity: every valid trial well above the limit left connections uncompleted" \
	"all(t['failed'] > 0 for t in o['trials'] if t['valid'] and t['conns'] > $LIMIT * 1.1)" "$out"
check_py "capacity: the result's trial started that many connections, all completed" \
	'(lambda t, n: t["started"] == t["completed"] and abs(t["started"] - n) <= n * 0.001 + 1)(o["trials"][o["result"]["trial"] - 1], o["result"]["capacity"])' "$out"
check_eq "capacity: csv has one row per trial" "$(bench_py 'len(o["trials"])' "$out")" "$(($(count_lines "$csv") - 1))"
check_grep "capacity: the pause is announced" '2\.5 s between trials' "$FG_TMP/cap.err"
in_dut nft delete table ip fgcap
lab_down

finish
