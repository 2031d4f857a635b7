#!/usr/bin/env bash
# 58_workers.sh — the code paths for more than one worker: `-c 2` gives the
# [loop, loop] pair two workers (mapped with --lcores onto the CPUs there
# are), each with its own queue pair, flow table and counter block. Flows
# and streams must come out as exact as with one worker.
. "$(dirname "$0")/lib.sh"

need_flowgen
CFG=$(fg_loop_cfg)
O=$FG_TMP/w2.out

# a stream with a count: the two workers' shares add up to it exactly
cat >"$FG_TMP/count.yaml" <<'EOF'
mode: streams
streams:
  - {name: c, ports: [0, 1], frame: 64, rate: 5kpps, count: 2001, src: 198.18.0.1,
     dst: 198.19.0.1}
EOF

fg_plain -C "$CFG" -c 2 -x "portattr; \
start -f profiles/udp_short.yaml -m 2000 -d 3; wait; stats --json; \
start -f profiles/tcp_short.yaml -m 500 -d 3; wait; stats --json; \
clear; start -f profiles/stl_64b.yaml -m 1 -d 3 -t learn=0,drain=0.3; wait; stats --json; stats -w; \
start -f $FG_TMP/count.yaml -t learn=0,drain=0.3; wait 20; stats --json" >"$O" 2>&1
check_eq "2 workers: batch run exits 0" 0 $?
check_grep "2 workers: each port has 2 worker queues" 'port 0 .*2 worker queue' "$O"
# 3 lcores (main and 2 workers): on fewer CPUs they share, with a warning
if [ "$(nproc)" -lt 3 ]; then
	check_grep "2 workers on $(nproc) CPUs: a warning names the lcore mapping" \
		'warning: 2 worker lcore\(s\) and the main lcore on [0-9]+ CPU\(s\).*1->[0-9]+, 2->[0-9]+' "$O"
else
	check_nogrep "2 workers on $(nproc) CPUs: no mapping warning" 'lcores share CPUs' "$O"
fi

js() { grep '^{' "$O" | sed -n "$1p" >"$FG_TMP/w.$1"; json_get "$FG_TMP/w.$1" "$2" || echo -1; }
s=$(js 1 flows.client.started)
c=$(js 1 flows.client.completed)
check_ge "2 workers, udp: started >= 90 % of 6,000" "$s" 5400
check_ge "2 workers, udp: completed >= 99 % of started" "$((c * 100))" "$((s * 99))"
check_eq "2 workers, udp: the server accepted every flow" "$s" "$(js 1 flows.server.accepted)"
s=$(js 2 flows.client.started)
c=$(js 2 flows.client.completed)
check_ge "2 workers, tcp: started >= 90 % of 1,500" "$s" 1350
check_ge "2 workers, tcp: completed >= 99 % of started" "$((c * 100))" "$((s * 99))"
tx=$(js 3 latency.0.tx)
late=$(js 3 latency.0.late)
# the second worker shares a CPU with the main lcore: frames that fell due
# while it was off the CPU for longer than the pacer's bound are counted
# late, not sent (flowgen(8), late); together they are the run's 30,000.
# How many are late is the machine's doing, but each must be accounted
# for by its worker's stalls: a worker pacing R frames a second counts R
# x its stall_late_ms late (the stalls' time beyond the bound), +-1 a
# stall, as 77_stall.sh checks with one worker; here each worker paces
# half the stream's 10,000 frames a second.
echo "# 2 workers, streams: $tx sent, $late late"
check_ge "2 workers, streams: about 30,000 frames sent or counted late (>= 29,700)" \
	"$((tx + late))" 29700
grep '^{' "$O" | sed -n 3p >"$FG_TMP/w.late"
stalls=$(python3 - "$FG_TMP/w.late" "$late" <<'PY' 2>&1
import json, sys
o = json.load(open(sys.argv[1]))
W = o["workers"]
due = sum(5000 * w["stall_late_ms"] / 1000 for w in W)
n = sum(w["stalls"] for w in W)
print("%d worker(s), %d stall(s), %.3f ms beyond the bound, %.1f frames due in them" %
      (len(W), n, sum(w["stall_late_ms"] for w in W), due))
sys.exit(0 if len(W) == 2 and abs(int(sys.argv[2]) - due) <= 2 + n else 1)
PY
)
rc=$?
check "2 workers, streams: late = each worker's 5,000 frames/s x its stalls' time beyond the bound, +-2 and 1 a stall ($late late; $stalls)" \
	test "$rc" -eq 0
check_eq "2 workers, streams: nothing lost" 0 "$(js 3 latency.0.lost)"
check_eq "2 workers, streams: no duplicate" 0 "$(js 3 latency.0.dup)"
check_eq "2 workers, streams: none out of order" 0 "$(js 3 latency.0.ooo)"
check_eq "2 workers: stats --json lists both workers" "0 1 -1" \
	"$(js 3 workers.0.id) $(js 3 workers.1.id) $(js 3 workers.2.id)"
# both workers carry the stream: each sent at least 25 % of it (it is split
# evenly, but a worker sharing a CPU may fall behind; the frames of a
# worker are its tx on both ports)
t0=$(js 3 workers.0.tx_pkts)
t1=$(js 3 workers.1.tx_pkts)
check_ge "2 workers, streams: worker 0 sent >= 25 % of the frames ($t0 of $tx)" "$((t0 * 100))" "$((tx * 25))"
check_ge "2 workers, streams: worker 1 sent >= 25 % of the frames ($t1 of $tx)" "$((t1 * 100))" "$((tx * 25))"
check_eq "2 workers: each worker serves ports 0 and 1" "[0, 1] [0, 1]" \
	"$(js 3 workers.0.ports) $(js 3 workers.1.ports)"
check_grep "2 workers: stats -w has a row per worker" '^ +1 +[0-9]+ +0,1 ' "$O"
grep '^{' "$O" | sed -n 4p >"$FG_TMP/w.c"
check_eq "2 workers, a count of 2,001 from each port: sent exactly, both directions" \
	"2001 2001" "$(latency_row "$FG_TMP/w.c" c 1 tx) $(latency_row "$FG_TMP/w.c" c 0 tx)"
check_eq "2 workers, a count of 2,001: every frame received" \
	"2001 2001" "$(latency_row "$FG_TMP/w.c" c 1 rx) $(latency_row "$FG_TMP/w.c" c 0 rx)"
finish
