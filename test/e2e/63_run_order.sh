#!/usr/bin/env bash
#
# 63_run_order.sh — the order of things around a run, where a race used to
# lose or miscount:
#  1. a `start` over running traffic changes the emulated hosts only once
#     the old run has drained: seen from inside the DUT (test/e2e/hostswap.py),
#     the port answers ARP for the old run's hosts while the DUT still
#     forwards its frames and after, and for the new run's hosts only after
#     the last of the old frames;
#  2. an `update -m` that reaches the workers before their first rate tick
#     sets the rate (it used to be overwritten by the start rate, and a
#     later update then scaled from the wrong base), for flows and streams;
#  3. NIC counters are read by DPDK port id, not by config index: with an
#     extra EAL device probed first (so the config's port 0 is DPDK port 1),
#     each port's xstats still count its own frames;
#  4. SIGTERM while a run drains (flows that live a minute) ends flowgen at
#     once and cleanly: the workers leave before the flow table is freed
#     (it used to be freed under them: a segmentation fault).

. "$(dirname "$0")/lib.sh"

D=$FG_TOP/test/data
need_flowgen

# Parts 3 and 4 run on the ring ports (test/data/e2e_loop.yaml), with no
# timing bound but part 4's 5 s: they run in a lane beside part 1 (its
# lab, its own ports), whose bounds (0.3 s) are well within its 1 s
# drain; the lane ends before part 2, whose rates are read to 15 %.
LOOP=$(fg_loop_cfg)

# --- 3. NIC counters by DPDK port id -----------------------------------------

dpdk_ids()
{
	local out=$FG_TMP/dpdk_id.out tx rx
	# no learning phase, a 0.3 s drain: ring ports deliver at once, and 0.5 s
	# at 500 frames/s is two and a half times the 100 frames checked for
	fg_plain -C "$LOOP" -x "start -f profiles/stl_64b.yaml -m 0.05 -d 0.5 -t learn=0,drain=0.3; wait; portattr; stats --json" \
		-- --vdev=net_null0,no-rx=1 >"$out" 2>&1
	check_eq "DPDK ids: the run with an extra EAL device exits 0" 0 $?
	# The ring ports' MACs carry their DPDK id: with net_null0 probed first,
	# the config's port 0 is DPDK port 1.
	check_grep "DPDK ids: the config's port 0 is DPDK port 1" '^0 .* 02:46:47:00:00:02 ' "$out"
	jpre "$out" ports.0.tx_pkts ports.1.rx_pkts ports.0.xstats.tx_good_packets ports.1.xstats.rx_good_packets
	tx=$(json_get "$out" ports.0.tx_pkts)
	rx=$(json_get "$out" ports.1.rx_pkts)
	check_ge "DPDK ids: port 0 sent frames" "${tx:-0}" 100
	check_eq "DPDK ids: port 0's NIC counters are its own (tx_good_packets)" "$tx" \
		"$(json_get "$out" ports.0.xstats.tx_good_packets)"
	check_eq "DPDK ids: port 1's NIC counters are its own (rx_good_packets)" "$rx" \
		"$(json_get "$out" ports.1.xstats.rx_good_packets)"
}

# --- 4. SIGTERM during a run's drain -------------------------------------------

term_drain()
{
	local out=$FG_TMP/term.out fifo fgpid t0 rc
	fifo=$FG_TMP/term.fifo
	mkfifo "$fifo"
	# flowgen itself, not under timeout(1): the signal is for it, and the
	# status is its own
	"$FG_BIN" -C "$LOOP" -b <"$fifo" >"$out" 2>&1 &
	fgpid=$!
	exec 8>"$fifo"
	echo "start -f $FG_TOP/test/bench/udp_long.yaml -m 20000 -d 1" >&8
	echo "stop" >&8
	wait_for 'stopping|started' "$out" 10 $fgpid
	# `stop` is read at once after `started`: half a second into a drain that
	# would last a minute
	sleep 0.5
	t0=$(date +%s)
	kill -TERM $fgpid
	wait $fgpid
	rc=$?
	exec 8>&-
	echo "# SIGTERM during the drain: status $rc after $(($(date +%s) - t0)) s"
	check "SIGTERM during a drain: flowgen ends by itself, not by a signal (status $rc)" \
		test "$rc" -lt 128
	check "SIGTERM during a drain: flowgen ends within 5 s (the flows would live 60 s)" \
		test $(($(date +%s) - t0)) -le 5
	check_nogrep "SIGTERM during a drain: no segmentation fault" 'egmentation' "$out"
}

nic_term()
{
	dpdk_ids
	term_drain
}
lane nic_term nic_term

# --- 1. hosts change after the old run's drain ------------------------------

if lab_up l3; then
	probe=$FG_TMP/hostswap.json
	# the probe watches until flowgen is done (30 s at most); started
	# without a shell function, so that $! is its own pid
	ip netns exec "$NS_DUT" python3 "$FG_TOP/test/e2e/hostswap.py" dut1 30 198.19.20.1 198.19.21.1 >"$probe" &
	ppid=$!
	sleep 0.3
	# the old run without its learning phase (-t learn=0: its 1.5 s
	# learn_wait, flowgen(8)) sends from its start: a second of it at
	# 2,000 frames/s has the DUT forward its frames. The new run's hosts
	# are answered within milliseconds of the old run's drain (start
	# --force returns after it): a second of the new run is plenty to see
	# them. The old run drains its default second; the new one, stopped
	# once seen, 0.3 s (-t drain=0.3: nothing is read after it)
	fg -x "arp; start -f $D/hostswap_a.yaml -t learn=0; sleep 1; start --force -f $D/hostswap_b.yaml -t drain=0.3; sleep 1; stop" \
		>"$FG_TMP/hostswap.out" 2>&1
	check_eq "host swap: the batch run exits 0" 0 $?
	kill -TERM $ppid 2>/dev/null
	wait $ppid
	check "host swap: the DUT probe ran" test -s "$probe"
	read -r a_last a_reply_last b_first < <(python3 - "$probe" <<-'PY'
		import json, sys
		o = json.load(open(sys.argv[1]))
		a = o["a_last_data"]
		after = [t for t in o["a_replies"] if a is not None and t >= a]
		print(a if a is not None else -1, max(after) if after else -1,
		      min(o["b_replies"]) if o["b_replies"] else -1)
	PY
	)
	echo "# host swap: old frames until ${a_last}s, old hosts answered until ${a_reply_last}s, new hosts from ${b_first}s"
	check "host swap: the DUT forwarded the old run's frames" \
		awk -v a="$a_last" 'BEGIN { exit !(a > 0) }'
	check "host swap: the new run's hosts are answered" \
		awk -v b="$b_first" 'BEGIN { exit !(b > 0) }'
	# The old run drains for up to a second after it stops sending: its
	# hosts stay, the new ones wait.
	check "host swap: the old run's hosts are still answered 0.3 s after its last frame" \
		awk -v a="$a_last" -v r="$a_reply_last" 'BEGIN { exit !(r >= a + 0.3) }'
	check "host swap: the new run's hosts are answered only after the old run drained (0.3 s after its last frame)" \
		awk -v a="$a_last" -v b="$b_first" 'BEGIN { exit !(b >= a + 0.3) }'
	lab_down
fi
lane_end nic_term

# --- 2. a rate update before the first tick --------------------------------

CFG=$(fg_loop_cfg)
# early NAME PROFILE M0 M1 FIELD BASE : starts at M0, updates to M1 at once
# (before the first tick), then back to M0; FIELD is BASE at M0. A
# streams run drains 0.3 s after its stop, not 1 s: nothing is read then.
early()
{
	local name=$1 prof=$2 m0=$3 m1=$4 field=$5 base=$6 out=$FG_TMP/early_$1.out
	fg_plain -C "$CFG" -x "start -f $prof -m $m0$(learn_off "$prof"); update -m $m1; sleep 1.5; stats --json; update -m $m0; sleep 1.5; stats --json; stop" \
		>"$out" 2>&1
	check_eq "early update, $name: the batch run exits 0" 0 $?
	check_samples "early update, $name" "$out" "$field" "$base" "$((base * 3))" "$base"
}
early flows profiles/udp_short.yaml 1000 3000 global.cps 1000
early streams profiles/stl_64b.yaml 0.2 0.6 global.tx_pps 2000

finish
