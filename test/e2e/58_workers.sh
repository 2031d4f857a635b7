#!/usr/bin/env bash
# 58_workers.sh — the code paths for more than one worker: `-c 2` gives the
# [loop, loop] pair two workers (mapped with --lcores onto the CPUs there
# are), each with its own queue pair, flow table and counter block. Flows
# and streams must come out as exact as with one worker.
# The runs are 2 s each: udp_short 6,000 flows at 3,000 flows/s,
# tcp_short 1,500 at 750/s (the counts the checks name), stl_64b 20,000
# frames at its 10,000 frames/s. A worker that shares its CPU loses only
# what falls due beyond its pacer's 20 ms bound while it is off it
# (flowgen(8), late): the 10 % of the flows the checks allow to go
# unstarted is 200 ms of such stalls in a run, and the streams checks
# account for every late frame.
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
start -f profiles/udp_short.yaml -m 3000 -d 2; wait; stats --json; \
start -f profiles/tcp_short.yaml -m 750 -d 2; wait; stats --json; \
clear; start -f profiles/stl_64b.yaml -m 1 -d 2 -t learn=0,drain=0.3; wait; stats --json; stats -w; \
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

# every figure below from one python3 (jvals): get(N, PATH, -1) is PATH of
# the N-th stats --json object (0-based: udp, tcp, streams, count), -1
# when it is absent; lat("c", P, F) a field of the count stream's latency
# row received on port P (the last object, the count's)
mapfile -t v < <(jvals "$O" \
	'=get(0, "flows.client.started", -1)' '=get(0, "flows.client.completed", -1)' \
	'=get(0, "flows.server.accepted", -1)' \
	'=get(1, "flows.client.started", -1)' '=get(1, "flows.client.completed", -1)' \
	'=get(2, "latency.0.tx", -1)' '=get(2, "latency.0.late", -1)' '=get(2, "latency.0.lost", -1)' \
	'=get(2, "latency.0.dup", -1)' '=get(2, "latency.0.ooo", -1)' \
	'=get(2, "workers.0.id", -1)' '=get(2, "workers.1.id", -1)' '=get(2, "workers.2.id", -1)' \
	'=get(2, "workers.0.tx_pkts", -1)' '=get(2, "workers.1.tx_pkts", -1)' \
	'=get(2, "workers.0.ports", -1)' '=get(2, "workers.1.ports", -1)' \
	'=lat("c", 1, "tx")' '=lat("c", 0, "tx")' '=lat("c", 1, "rx")' '=lat("c", 0, "rx")')
s=${v[0]}
c=${v[1]}
echo "# 2 workers, udp: started $s completed $c accepted ${v[2]}; tcp: started ${v[3]} completed ${v[4]}"
check_ge "2 workers, udp: started >= 90 % of 6,000" "$s" 5400
check_ge "2 workers, udp: completed >= 99 % of started" "$((c * 100))" "$((s * 99))"
check_eq "2 workers, udp: the server accepted every flow" "$s" "${v[2]}"
s=${v[3]}
c=${v[4]}
check_ge "2 workers, tcp: started >= 90 % of 1,500" "$s" 1350
check_ge "2 workers, tcp: completed >= 99 % of started" "$((c * 100))" "$((s * 99))"
tx=${v[5]}
late=${v[6]}
# the second worker shares a CPU with the main lcore: frames that fell due
# while it was off the CPU for longer than the pacer's bound are counted
# late, not sent (flowgen(8), late); together they are the run's 20,000.
# How many are late is the machine's doing, but each must be accounted
# for by its worker's stalls: a worker pacing R frames a second counts R
# x its stall_late_ms late (the stalls' time beyond the bound), +-1 a
# stall, as 77_stall.sh checks with one worker; here each worker paces
# half the stream's 10,000 frames a second.
echo "# 2 workers, streams: $tx sent, $late late"
check_ge "2 workers, streams: about 20,000 frames sent or counted late (>= 19,800)" \
	"$((tx + late))" 19800
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
check_eq "2 workers, streams: nothing lost" 0 "${v[7]}"
check_eq "2 workers, streams: no duplicate" 0 "${v[8]}"
check_eq "2 workers, streams: none out of order" 0 "${v[9]}"
check_eq "2 workers: stats --json lists both workers" "0 1 -1" \
	"${v[10]} ${v[11]} ${v[12]}"
# both workers carry the stream: each sent at least 25 % of it (it is split
# evenly, but a worker sharing a CPU may fall behind; the frames of a
# worker are its tx on both ports)
t0=${v[13]}
t1=${v[14]}
check_ge "2 workers, streams: worker 0 sent >= 25 % of the frames ($t0 of $tx)" "$((t0 * 100))" "$((tx * 25))"
check_ge "2 workers, streams: worker 1 sent >= 25 % of the frames ($t1 of $tx)" "$((t1 * 100))" "$((tx * 25))"
check_eq "2 workers: each worker serves ports 0 and 1" "[0, 1] [0, 1]" \
	"${v[15]} ${v[16]}"
check_grep "2 workers: stats -w has a row per worker" '^ +1 +[0-9]+ +0,1 ' "$O"
check_eq "2 workers, a count of 2,001 from each port: sent exactly, both directions" \
	"2001 2001" "${v[17]} ${v[18]}"
check_eq "2 workers, a count of 2,001: every frame received" \
	"2001 2001" "${v[19]} ${v[20]}"
finish
