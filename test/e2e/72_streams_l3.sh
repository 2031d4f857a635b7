#!/usr/bin/env bash
#
# 72_streams_l3.sh — a SmartBits-style L3 test against the l3 lab:
# the DUT (198.18.1.1/16, 198.19.1.1/16, no static routes) must resolve
# every emulated host by ARP, which flowgen's workers answer (emulated hosts).
# A learning phase sends one frame to every host both ways before the
# measured traffic (then 0.5 s for the DUT's resolutions, which take
# milliseconds; a 0.3 s drain after it). 200 host pairs fit the DUT's
# default neighbour table and lose nothing; 3,000 pairs (6,000
# neighbours) are past it and show clear loss, reported per direction.
# Both runs go at twice the profiles' rate (-m 2: 2,000 frames/s a
# direction, 1518-byte frames, 24 Mbit/s) for 1.75 s: the same 3,500
# frames each way as 3.5 s at 1,000 (the checks want at least 3,000; the
# 3,000-pair run gives every pair a frame or two, and lost 2,485 to
# 2,491 of them each way in five runs, 2,488 at 1,000 frames/s), and
# the learning phase, paced at the stream's rate
# (src/dataplane/streams.c), takes 1.5 s for 3,000 pairs, not 3. One
# flowgen runs both; the DUT's neighbours are read as the first run
# ends, its other checks (its output) while the second runs.

. "$(dirname "$0")/lib.sh"

D=$FG_TOP/test/data

lab_up l3 || finish

# The DUT drops what it would forward to host 7 behind port 1 (pair 6,
# port 0 -> 1) and to host 100 behind port 0 (pair 99, port 1 -> 0).
in_dut nft -f - <<-'NFT'
	table inet fgpairs {
		chain drop_hosts {
			type filter hook forward priority -10; policy accept;
			ip daddr { 198.19.10.7, 198.18.10.100 } drop
		}
	}
NFT
# pairs_pys NAME EXPR [NAME EXPR]... (FILE last): pairs_py NAME EXPR FILE
# for each pair, from one python3; the same checks, in the same order
pairs_pys()
{
	local file=${!#}
	eval_checks 'import json, sys
t = open(sys.argv[1]).read()
o = json.JSONDecoder().raw_decode(t, t.rfind("{\"global\""))[0]
def rows(port):
    return [r for r in o["pairs"]["rows"] if r["port"] == port]
def lat(port):
    return [r for r in o["latency"] if r["port"] == port][0]' "$file" "${@:1:$#-1}"
}

# both runs in one flowgen (one start-up, one arp); each run's output is
# what fg_wait copied to $FG_TMP/NAME.out once it was done
fg_open "$FG_TMP/l3.out"
fg_run l3_200 "arp; start -f $D/streams_l3_200.yaml -m 2 -d 1.75 -t learn_wait=0.5,drain=0.3; wait 40; stats --json --pairs --plot $FG_TMP/l3.svg"
in_dut nft delete table inet fgpairs
# read before the next run brings the DUT thousands of hosts more
check_ge "200 pairs: the DUT learned the hosts" \
	"$(in_dut ip -4 neigh show nud reachable | grep -c '198\.1[89]\.10\.')" 300
fg_send l3_3000 "start -f $D/streams_l3_3000.yaml -m 2 -d 1.75 -t learn_wait=0.5,drain=0.3; wait 40; stats --json --pairs"

# the first run's checks while the second runs
out=$FG_TMP/l3_200.out
latency_pre "$out"
for p in 0 1; do
	tx=$(latency_row "$out" pairs $((p ^ 1)) tx)
	check_ge "200 pairs, port $p -> $((p ^ 1)): frames sent" "${tx:-0}" 3000
done
pairs_py "200 pairs: 200 host pairs each way, nothing unmatched" \
	'len(rows(0)) == len(rows(1)) == 200 and o["pairs"]["unmatched"] == 0' "$out"
pairs_py "200 pairs: a pair is its hosts (pair 6: .7 -> .7; pair 99 back: .100 -> .100)" \
	'(rows(1)[6]["src"], rows(1)[6]["dst"], rows(0)[99]["src"], rows(0)[99]["dst"]) == ("198.18.10.7", "198.19.10.7", "198.19.10.100", "198.18.10.100")' "$out"
pairs_py "200 pairs: the two filtered pairs lose everything, each in its own direction" \
	'rows(1)[6]["tx"] > 0 and rows(1)[6]["rx"] == 0 and rows(1)[6]["loss_pct"] == 100 and rows(0)[99]["tx"] > 0 and rows(0)[99]["lost"] == rows(0)[99]["tx"] and rows(0)[6]["lost"] == rows(1)[99]["lost"] == 0' "$out"
pairs_py "200 pairs: no other pair loses a frame" \
	'[(r["port"], r["pair"]) for r in o["pairs"]["rows"] if r["lost"]] == [(0, 99), (1, 6)]' "$out"
pairs_py "200 pairs: the pairs add up to the streams' rows (tx, rx, lost)" \
	'all([sum(r[k] for r in rows(p)) for k in ("tx", "rx", "lost")] == [lat(p)[k] for k in ("tx", "rx", "lost")] for p in (0, 1))' "$out"
pairs_py "200 pairs: min <= avg <= max per pair, within the stream's" \
	'all(lat(r["port"])["min_us"] - 0.001 <= r["min_us"] <= r["avg_us"] <= r["max_us"] <= lat(r["port"])["max_us"] + 0.001 for r in o["pairs"]["rows"] if r["rx"])' "$out"
svg_check "200 pairs: the plot has the loss of every pair, as stats --pairs" "$FG_TMP/l3.svg" "$out" \
	'sorted((int(x), y) for x, y, l in pts() if l.endswith("loss_pct")) == [(i, r["loss_pct"]) for i, r in enumerate(o["pairs"]["rows"])]'
svg_check "200 pairs: the plot has min, avg and max latency per pair, as stats --pairs" "$FG_TMP/l3.svg" "$out" \
	'all(eq(y, o["pairs"]["rows"][int(x)][l.split()[-1]]) for x, y, l in pts() if l.endswith("_us")) and len([1 for p in pts() if p[2].endswith("_us")]) == 3 * len([r for r in o["pairs"]["rows"] if r["rx"]])' "$out"
for p in 0 1; do
	check_eq "200 pairs: learning frames are not counted as unknown on port $p" 0 \
		"$(json_get "$out" ports.$p.rx_unknown)"
done

fg_wait l3_3000
fg_close
out=$FG_TMP/l3_3000.out
latency_pre "$out"
for p in 0 1; do
	tx=$(latency_row "$out" pairs $((p ^ 1)) tx)
	lost=$(latency_row "$out" pairs $((p ^ 1)) lost)
	check_ge "3000 pairs, port $p -> $((p ^ 1)): frames sent" "${tx:-0}" 3000
	# clear loss: more than 5 % of what was sent
	check_ge "3000 pairs, port $p -> $((p ^ 1)): loss past the neighbour table" \
		"$(( ${lost:-0} * 100 / ${tx:-1} ))" 5
	echo "# 3000 pairs, port $p -> $((p ^ 1)): tx $tx lost $lost"
done
# pair 254 is the first host of the next /24 (the fields skip .0 and .255)
pairs_pys "3000 pairs: 3,000 pairs each way; pair 254 is 198.18.11.1 -> 198.19.11.1" \
	'len(rows(0)) == len(rows(1)) == 3000 and (rows(1)[254]["src"], rows(1)[254]["dst"]) == ("198.18.11.1", "198.19.11.1")' \
	"3000 pairs: the pairs add up to the streams' rows, nothing unmatched" \
	'o["pairs"]["unmatched"] == 0 and all([sum(r[k] for r in rows(p)) for k in ("tx", "rx", "lost")] == [lat(p)[k] for k in ("tx", "rx", "lost")] for p in (0, 1))' \
	"3000 pairs: the loss lies on the hosts the DUT could not hold, whole pairs" \
	'all(0 < len([r for r in rows(p) if r["lost"] == r["tx"] > 0]) < 3000 and len([r for r in rows(p) if r["lost"] == 0 and r["rx"] > 0]) > 100 for p in (0, 1))' "$out"
lab_down
finish
