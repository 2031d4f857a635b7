#!/usr/bin/env bash
#
# 86_plot.sh — `--plot FILE.svg` on bench and stats (flowgen(8)), on the
# loop pair: the two bench runs one after the other, alone (bench judges
# its trials by their timing: runs side by side on two CPUs would make them
# invalid), then the stats run beside the two host-pair runs (all three
# judged by counts, none by rate or timing).
# Each picture must parse as XML (SVG) and its marks must hold the figures
# `--json` printed in the same run:
#  a. bench throughput (one search trial, more if load made one invalid and
#     bench repeated it): one point per trial at (offered_fps, loss_pct),
#     the "found" mark at throughput_fps;
#  b. bench latency: the histogram's bars add up to the trial's delays
#     measured, its p50/p99/p99.9 marks are the trial's;
#  c. stats --plot after the L3 test's 200 host pairs both ways: per latency
#     row a histogram whose bars add up to the row's rx and whose marks are
#     its p50_us/p99_us/p999_us, a loss bar of 100 * lost / tx and p50/p99
#     bars per row; `stats --plot` with no streams run, or to a directory
#     that does not exist, fails with a message;
#  d. host pairs (stats --pairs) come from the platform config's hosts as
#     well as a profile's, and a run with no hosts anywhere counts none.
# Every run waits 0.3 s for late frames after its traffic (-t drain=0.3),
# the benches too (their default is RFC 2544's 2 s, section 23, for a
# DUT): on the loop pair a frame is received on the worker's next turn,
# and every check compares a picture with the figures of its own run.

. "$(dirname "$0")/lib.sh"

need_flowgen
T0=$(date +%s.%N)
LOOP=$(fg_loop_cfg)
P=$FG_TOP/profiles

TP=$FG_TMP/tp.svg
LT=$FG_TMP/lat.svg
ST=$FG_TMP/st.svg
fg_plain -C "$LOOP" -x "bench throughput -f $P/stl_64b.yaml -m 5 --trial 0.5 --confirm 0 \
-t learn_wait=0.2,drain=0.3 --json --plot $TP" >"$FG_TMP/tp.json" 2>"$FG_TMP/tp.err"
check_eq "plot: bench throughput exits 0" 0 "$?"
fg_plain -C "$LOOP" -x "bench latency -f $FG_TOP/test/data/streams_router.yaml -m 2 --trial 1 \
-t learn_wait=0.2,drain=0.3 --json --plot $LT" >"$FG_TMP/lat.json" 2>"$FG_TMP/lat.err"
# a trial that load made invalid fails the command (exit 1) but is still
# reported and drawn: the picture is what this checks
rc=$?
if [ $rc -le 1 ] && grep -q '^{"bench":"latency"' "$FG_TMP/lat.json"; then
	pass "plot: bench latency ran and printed its JSON (exit $rc)"
else
	fail "plot: bench latency ran and printed its JSON" "exit $rc: $(tail -n 2 "$FG_TMP/lat.err")"
fi

# c and d: the stats run and the two host-pair runs side by side (they
# count, no rate or timing), while the bench pictures are checked
HCFG=$FG_TMP/hosts_loop.yaml
HPROF=$FG_TMP/l3_nohosts.yaml
cat "$LOOP" - >"$HCFG" <<-'EOF'
	  hosts:
	    - {port: 0, range: [198.18.10.1, 198.18.10.200]}
	    - {port: 1, range: [198.19.10.1, 198.19.10.200]}
EOF
sed '/^hosts:/,/^  - {port: 1/d' "$FG_TOP/test/data/streams_l3_200.yaml" >"$HPROF"
fg_plain -C "$LOOP" -k -x "stats --plot $FG_TMP/none.svg; \
start -f $FG_TOP/test/data/streams_l3_200.yaml -d 1 -t learn_wait=0.2,drain=0.3; wait 5; \
stats -l --plot $FG_TMP/no/such/dir.svg; stats -l --json --plot $ST" \
	>"$FG_TMP/st.json" 2>"$FG_TMP/st.err" &
stpid=$!
pids=()
for c in "$HCFG" "$LOOP"; do
	fg_plain -C "$c" -x "start -f $HPROF -d 1 -t learn_wait=0.2,drain=0.3; wait 5; stats --pairs --json" \
		>"$FG_TMP/pairs.$(basename "$c").json" 2>&1 &
	pids+=($!)
done

# a. the search
svg_check "plot throughput: one point per trial" "$TP" "$FG_TMP/tp.json" \
	'len(pts()) == len(o["trials"]) >= 1'
svg_check "plot throughput: each point is the trial's (offered_fps, loss_pct)" "$TP" "$FG_TMP/tp.json" \
	'all(eq(p[0], t["offered_fps"]) and eq(p[1], t["loss_pct"]) for p, t in zip(pts(), o["trials"]))'
svg_check "plot throughput: each point says its verdict" "$TP" "$FG_TMP/tp.json" \
	'all(p[2].endswith(("pass", "fail", "invalid", "(confirmation)")) and ("pass" in p[2]) == t["passed"] for p, t in zip(pts(), o["trials"]))'
svg_check "plot throughput: the found mark is throughput_fps" "$TP" "$FG_TMP/tp.json" \
	'eq(marks()["found"], o["result"]["throughput_fps"])'

# b. latency
svg_check "plot latency: the bars add up to the trial's delays" "$LT" "$FG_TMP/lat.json" \
	'sum(b[1] for b in bars()) == o["trials"][-1]["latency"]["samples"] > 0'
svg_check "plot latency: p50/p99/p99.9 marks are the trial's" "$LT" "$FG_TMP/lat.json" \
	'all(eq(marks()[k], o["trials"][-1]["latency"][k]) for k in ("p50_us", "p99_us", "p999_us"))'

# c. stats
wait $stpid
check_eq "plot: stats run exits 1 (two --plot refused)" 1 "$?"
svg_check "plot stats: a histogram per latency row (both directions)" "$ST" "$FG_TMP/st.json" \
	'len(rows()) == len(o["latency"]) == 2'
svg_check "plot stats: each histogram adds up to its row's rx" "$ST" "$FG_TMP/st.json" \
	'all(sum(b[1] for b in bars(g)) == o["latency"][int(g.get("data-row"))]["rx"] > 0 for g in rows())'
svg_check "plot stats: each histogram's marks are its row's percentiles" "$ST" "$FG_TMP/st.json" \
	'all(all(eq(marks(g)[k], o["latency"][int(g.get("data-row"))][k]) for k in ("p50_us", "p99_us", "p999_us")) for g in rows())'
svg_check "plot stats: loss and p50/p99 bars per row" "$ST" "$FG_TMP/st.json" \
	'[round(b[1], 6) for b in bars() if b[2].startswith("row ")] == [round(v, 6) for v in [100 * r["lost"] / r["tx"] for r in o["latency"]] + sum([[r["p50_us"], r["p99_us"]] for r in o["latency"]], [])]'
check_grep "plot stats: no streams run refused" 'error: --plot .*none.svg: no latency rows' "$FG_TMP/st.err"
check_grep "plot stats: an unwritable file refused" 'error: --plot .*dir.svg: No such file' "$FG_TMP/st.err"
check "plot stats: nothing written for the refused ones" test ! -e "$FG_TMP/none.svg"

# d. host pairs from the platform config's hosts (the profile has none);
# the same profile on a config without hosts counts no pairs
check "plot pairs: the profile copy has no hosts" bash -c "! grep -q hosts: '$HPROF'"
wait "${pids[@]}"
pairs_py "plot pairs: config hosts: 200 pairs each way, adding up to the latency rows" \
	'len(rows(0)) == len(rows(1)) == 200 and all(sum(r["tx"] for r in rows(p)) == lat(p)["tx"] > 0 for p in (0, 1))' \
	"$FG_TMP/pairs.hosts_loop.yaml.json"
pairs_py "plot pairs: no hosts anywhere: no pairs counted" \
	'o["pairs"] == {"unmatched": 0, "rows": []} and o["latency"][0]["tx"] > 0' \
	"$FG_TMP/pairs.e2e_loop.yaml.json"

echo "# 86_plot.sh: $(awk -v a="$T0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"
finish
