#!/usr/bin/env bash
#
# 93_bench_teardown.sh — `bench teardown` (flowgen(8), RFC 9693 connection
# tear-down rate) against the NAT lab (nftables masquerade), with the
# DUT's own command to delete its connection tracking table, `conntrack
# -F` in its namespace (--dut-cmd), and its count, `conntrack -C`
# (--dut-count). test/data/flows_teardown.yaml's UDP connections (one
# datagram, then 6 s of silence) at -m 8000 from --trial 1, up to --max
# 32000: three trials of 8,000, 16,000 and 32,000 connections (about
# 35 s in all). Expected, each trial: the DUT's table emptied before the
# load and deleted between the timestamps, both logged with their exit
# status; every connection loaded (the server sides of all of them, none
# failed) and held by the DUT at TimestampA (conntrack -C at least the
# count), none at TimestampB; the rate is the count over TimestampB -
# TimestampA as the trial reports them (the computation's own cases are
# test/unit/test_bench.c's); the result is the largest count's, at the
# limit --max set; --csv has a row per trial with the teardown columns,
# --plot an SVG of the rates. After the bench the DUT holds none of its
# connections (the silent flows bring none back). A --dut-cmd that fails
# stops the bench naming it; teardown without --dut-cmd is a usage error.

. "$(dirname "$0")/../e2e/lib.sh"

need_root "bench teardown: lab"
lab_up nat || finish
DCMD="ip netns exec $NS_DUT conntrack -F"
CCMD="ip netns exec $NS_DUT conntrack -C"
out=$FG_TMP/td.json
csv=$FG_TMP/td.csv
svg=$FG_TMP/td.svg
T0=$(date +%s)
FG_TIMEOUT=150 fg -x "arp; bench teardown -f $FG_TOP/test/data/flows_teardown.yaml -m 8000 --trial 1 --max 32000 \
--dut-cmd '$DCMD' --dut-count '$CCMD' --json --csv $csv --plot $svg" >"$out" 2>"$FG_TMP/td.err"
check_eq "teardown: exit status 0" 0 "$?"
echo "# teardown: $(($(date +%s) - T0)) s; $(bench_py '[(t["conns"], t["teardown"]["loaded"], t["teardown"].get("dut_entries_a"), round(t["teardown"]["elapsed_s"] * 1e3, 2), round(t["teardown"]["teardown_cps"])) for t in o["trials"]]' "$out" 2>&1) (conns, loaded, DUT entries at A, ms, connections/s)"
check_py "teardown: three trials of 8,000, 16,000 and 32,000 connections" \
	'[t["conns"] for t in o["trials"]] == [8000, 16000, 32000]' "$out"
check_py "teardown: every trial loaded all its connections, none failed" \
	'all(t["teardown"]["loaded"] == t["conns"] and t["teardown"]["failed"] == 0 and t["failed"] == 0 for t in o["trials"])' "$out"
check_py "teardown: the DUT held every connection at TimestampA (conntrack -C)" \
	'all(t["teardown"]["dut_entries_a"] >= t["conns"] for t in o["trials"])' "$out"
check_py "teardown: the DUT held none once --dut-cmd returned (TimestampB)" \
	'all(t["teardown"]["dut_entries_b"] == 0 and t["teardown"]["dut_cmd_exit"] == 0 for t in o["trials"])' "$out"
check_py "teardown: each rate is the count over TimestampB - TimestampA" \
	'all(t["teardown"]["elapsed_s"] > 0 and abs(t["teardown"]["teardown_cps"] * t["teardown"]["elapsed_s"] - t["conns"]) <= 0.01 * t["conns"] for t in o["trials"])' "$out"
check_py "teardown: every trial valid and passed" 'all(t["valid"] and t["passed"] for t in o["trials"])' "$out"
check_py "teardown: the result is the largest count's rate, at --max" \
	'(lambda r: r["found"] and r["conns"] == 32000 and r["at_limit"] and r["trial"] == 3 and r["teardown_cps"] == o["trials"][2]["teardown"]["teardown_cps"])(o["result"])' "$out"
check_eq "teardown: the DUT's table emptied before each load, logged" 3 \
	"$(grep -c "^bench: dut: empty the DUT's table before the load: \`$DCMD\`: exit 0" "$FG_TMP/td.err")"
check_eq "teardown: the DUT's table deleted between the timestamps, logged" 3 \
	"$(grep -c "^bench: dut: delete the DUT's table (TimestampA to TimestampB): \`$DCMD\`: exit 0" "$FG_TMP/td.err")"
check_eq "teardown: csv has one row per trial" 3 "$(($(count_lines "$csv") - 1))"
check_grep "teardown: csv has the teardown columns" ',loaded,dut_cmd_exit,elapsed_s,teardown_cps,dut_entries_a,dut_entries_b$' "$csv"
check_grep "teardown: --plot draws the rates" 'RFC 9693 connection tear-down rate per trial' "$svg"
sleep 1
ct=$("$FG_LAB" conntrack 2>/dev/null || echo -1)
check_eq "teardown: the DUT holds none of the connections afterwards" 0 "$ct"

# a --dut-cmd that fails stops the bench; none given is a usage error
fg -k -x "arp; bench teardown -f $FG_TOP/test/data/flows_teardown.yaml -m 8000 --trial 0.5 --max 4000 --dut-cmd false; \
bench teardown -f $FG_TOP/test/data/flows_teardown.yaml -m 8000" >"$FG_TMP/td2.out" 2>&1
check_grep "teardown: a failing --dut-cmd is logged" "^bench: dut: empty the DUT's table before the load: \`false\`: exit 1" "$FG_TMP/td2.out"
check_grep "teardown: a failing --dut-cmd stops the bench" '^error: bench: --dut-cmd failed' "$FG_TMP/td2.out"
check_grep "teardown: --dut-cmd is required" "^error: bench: teardown needs --dut-cmd CMD" "$FG_TMP/td2.out"
lab_down

finish
