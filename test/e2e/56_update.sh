#!/usr/bin/env bash
# 56_update.sh — rates of running traffic follow `update -m`, `pause` and
# `resume`, for flows and for streams, as measured by `stats --json`
# ([loop, loop] ports; a flowgen a case, fed through a fifo). Rates span the
# second before the sample (src/control/stats.c), so each sample is taken
# 1.5 s after the change it measures, as in 63_run_order.sh.
# The two cases run side by side, a flowgen each (flowgen(8), MEMORY AND
# SEVERAL INSTANCES), in lanes: their workers share CPU 1
# (test/data/e2e_loop.yaml) and each is off it for a few milliseconds at
# a time (the longest stall 8-9.3 ms in two runs, stall_max_ms), within
# the pacer's bound (PACE_BOUND_MS, 20 ms, src/core/pace.h): what falls
# due meanwhile goes out when it is back, nothing is late, and the rates
# read to 15 % came within 0.9 % of those asked for (five runs).
. "$(dirname "$0")/lib.sh"

need_flowgen
CFG=$(fg_loop_cfg)

# run_case NAME PROFILE START_M UPDATE_M FIELD BASE : FIELD is a JSON path
# of a measured rate, BASE its expected value at START_M
run_case()
{
	local name=$1 prof=$2 m0=$3 m1=$4 field=$5 base=$6 out=$FG_TMP/$1.out fifo=$FG_TMP/$1.fifo pid
	mkfifo "$fifo"
	fg_plain -C "$CFG" -b <"$fifo" >"$out" 2>&1 &
	pid=$!
	exec 9>"$fifo"
	{
		echo "start -f $prof -m $m0$(learn_off "$prof")"
		echo "sleep 1.5"
		echo "stats --json"
		echo "update -m $m1"
		echo "sleep 1.5"
		echo "stats --json"
		echo "pause"
		echo "sleep 1.5"
		echo "stats --json"
		echo "resume"
		echo "sleep 1.5"
		echo "stats --json"
		echo "stop"
		echo "quit"
	} >&9
	exec 9>&-
	wait $pid
	check_eq "$name: batch run exits 0" 0 $?
	check_samples "$name" "$out" "$field" "$base" "$base" "$((base * 3))" 0 "$((base * 3))"
}

# flows: `cps` is the measured rate of started flows; streams: tx_pps.
lane flows run_case flows profiles/udp_short.yaml 1000 3000 global.cps 1000
lane streams run_case streams profiles/stl_64b.yaml 0.2 0.6 global.tx_pps 2000
lane_end flows
lane_end streams
finish
