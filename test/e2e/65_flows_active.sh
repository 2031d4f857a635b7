#!/usr/bin/env bash
#
# 65_flows_active.sh — concurrency as the target (flowgen(8), start
# --active; flowgen-profile(5), limit and climit).
#
# NAT lab: `start --active 20000` (no -m: unpaced) with
# test/data/flows_active.yaml's 16-second UDP flows. Expected:
#  - the DUT's connection tracking reaches 20,000 entries and holds there
#    (20,000 +- 2 %) for 10 s, sampled every second;
#  - meanwhile flowgen starts no flow beyond the target: started stays
#    20,000 exactly (no flow has ended yet), active 20,000, none failed,
#    and `stats --json` shows active_target 20,000;
#  - once the first flows end (16 s), new ones replace them: started
#    grows beyond 20,000 while started - completed - failed (the flows in
#    the table) stays at the target, never above it (sampled once the
#    first 20,000 have all completed, polled every 0.25 s from 16 s on,
#    or at 19 s at the latest).
# [loop, loop] lanes, at the same time: test/data/flows_caps.yaml for 3 s,
# `short` with limit 1000 and `long` (2-second flows) with climit 50, each
# offered 1,000 flows/s: exactly 1,000 `short` flows start, `long` has
# never more than 50 active (stats --json sampled every 0.2 s) and reaches
# 50; with two workers (-c 2) odd figures split exactly: limit 1001 gives
# 1,001 flows, climit 51 reaches 51 and never more, --active 101 holds 101;
# `help start` shows --active, and a streams profile and --active 0 are
# refused; so are runs whose tables cannot be had (flowgen(8), FLOW
# TABLES), before they start and naming what they need and what there is
# in flows and bytes: --active 500,000,000 on one worker (a table holds
# 2^26 entries) and --active 200,000,000 over eight workers (23.4 GiB of
# tables on a machine of 24 GiB); `update -m` from 100 to 100,000 flows a
# second of 2-second flows for 1 s (a 4,096-entry table; 100,000 flows,
# 210,120 entries, at the new rate) is refused naming both
# figures, to 200 it is taken. The dashboard (tmux, 80x24)
# shows the target of --active in the Flows panel and a group's active
# against its climit (50/50) on the group page.
# One million concurrent flows held ([loop, loop], one worker; flowgen(8),
# start --active): `start -v --active 1000000` with
# test/data/flows_million_udp.yaml and then flows_million_tcp.yaml (flows
# of a minute, kept alive by a datagram or a byte every 5 s of their own
# program): the plan printed (one worker, need and want 1,000,000 flows:
# --active counts as need in full; 2,032,000 entries, a margin of 16 x
# sqrt(1,000,000) a side, on the heap or in
# hugepages), the target reached within 8 s
# (stats every 0.25 s until a sample shows it, 32 at most: UDP by 0.5 to
# 2 s and TCP by 0.75 to 4.2 s on the machine of the tests, 2026-12-06,
# by 0.25 to 0.5 s and 0.5 to 0.75 s once the NAT part's flowgen no
# longer outlived its lab, by 0.25 to 0.5 s and 0.5 to 1.0 s beside the
# NAT part's flowgen on CPU 0 (four runs); the bound is a sanity bound,
# the hold is the test), then 11 samples a
# second apart from 1 s to 11 s after that sample all within 0.1 % of it
# (999,000 to 1,000,000 client flows active, as many server sides), none
# failed, every TCP connection established, target_held_s at 10 s or more
# at the end, and nothing lost on the way: no mbuf allocation failed and
# no TCP segment was sent again (the loop pair loses no frame, so one
# retransmission is a fault of flowgen's: a million keepalives once
# emptied the client's pool). The window covers the keepalives of 10 s
# and most of those of 5 s (the rest fall in the ramp's samples, which
# the no-loss check covers too). About 12 to 16 s each.
# The order (30 to 33 s in all, from 44 s one part after the other): the
# [loop, loop] runs (the one-worker caps, the two-worker caps, the
# refusals and the dashboard, a lane each) and the NAT part start
# together; the million, UDP then TCP, runs in a lane of its own once
# those four lanes have ended, beside the rest of the NAT part. Every
# flowgen on the loop pair has its worker on CPU 1 (test/data/
# e2e_loop.yaml), and the million's must not share it; the NAT part's
# flowgen has its worker on CPU 0 instead (examples/lab.yaml with threads
# [0]), beside the main lcores, and so has the DUT's forwarding of what it
# sends (a veth passes a frame on in the sender's context).

. "$(dirname "$0")/lib.sh"

need_root "flows active: lab"
need_flowgen

# --- [loop, loop]: limit and climit, one worker and two ----------------------

caps_lane()
{
	local CFG O
	CFG=$(fg_loop_cfg)
	O=$FG_TMP/caps.out
	FG_TIMEOUT=40 fg_plain -C "$CFG" -x "start -f $FG_TOP/test/data/flows_caps.yaml -d 3; \
$(for i in $(seq 14); do printf 'sleep 0.2; stats --json; '; done) wait; stats --json" >"$O" 2>&1
	check_eq "caps: flowgen exits 0" 0 $?
	samples_pys "$O" \
		"caps: limit 1000 started exactly 1,000 short flows" \
		"tpl(S[-1], 'short')['started'] == 1000 and tpl(S[-1], 'short')['completed'] == 1000" \
		"caps: climit 50: long never above 50 active (15 samples)" \
		"len(S) == 15 and max(tpl(o, 'long')['active'] for o in S) == 50" \
		"caps: climit 50: long held 50 active from 0.4 s to 1.8 s" \
		"all(tpl(o, 'long')['active'] == 50 for o in S[1:9])" \
		"caps: long's target is its climit, the run has none" \
		"tpl(S[-1], 'long')['active_target'] == 50 and S[-1]['flows']['client']['active_target'] == 0" \
		"caps: no flow failed" "S[-1]['flows']['client']['failed'] == 0"
}

# two workers: odd figures split exactly (start_share)
caps2_lane()
{
	local CFG O2 P2
	CFG=$(fg_loop_cfg)
	P2=$FG_TMP/caps_odd.yaml
	sed 's/limit: 1000/limit: 1001/; s/climit: 50/climit: 51/' "$FG_TOP/test/data/flows_caps.yaml" >"$P2"
	O2=$FG_TMP/caps2.out
	FG_TIMEOUT=40 fg_plain -C "$CFG" -c 2 -x "start -f $P2 -d 2; \
$(for i in $(seq 8); do printf 'sleep 0.2; stats --json; '; done) wait; stats --json; \
start -f $FG_TOP/test/data/flows_long.yaml --active 101 -d 3; sleep 1; stats --json; sleep 0.5; stats --json; stats" \
		>"$O2" 2>&1
	check_eq "caps, 2 workers: flowgen exits 0" 0 $?
	samples_pys "$O2" \
		"caps, 2 workers: limit 1001 started exactly 1,001 short flows" \
		"tpl(S[8], 'short')['started'] == 1001" \
		"caps, 2 workers: climit 51 reached, never above" \
		"max(tpl(o, 'long')['active'] for o in S[:9]) == 51" \
		"caps, 2 workers: --active 101 holds 101 flows" \
		"[o['flows']['client']['active'] for o in S[9:]] == [101, 101] and S[-1]['flows']['client']['started'] == 101" \
		"caps, 2 workers: --active 101 is the target" \
		"S[-1]['flows']['client']['active_target'] == 101"
	check_grep "caps, 2 workers: stats shows the target beside active" '^  target +\| +101 ' "$O2"
}

# refusals (-k: each command runs)
caps3_lane()
{
	local CFG O3 O4
	CFG=$(fg_loop_cfg)
	O3=$FG_TMP/refuse.out
	FG_TIMEOUT=30 fg_plain -C "$CFG" -k -x "help start; \
start -f $FG_TOP/profiles/stl_64b.yaml --active 5; \
start -f $FG_TOP/test/data/flows_caps.yaml --active 0; \
start -f $FG_TOP/test/data/flows_long.yaml --active 500000000; \
start -f $FG_TOP/test/data/flows_long.yaml -m 100 -d 1; update -m 200; update -m 100000" >"$O3" 2>&1
	O4=$FG_TMP/refuse8.out
	FG_TIMEOUT=30 fg_plain -C "$CFG" -c 8 -k -x "start -f $FG_TOP/test/data/flows_long.yaml --active 200000000" \
		>"$O4" 2>&1
	check_grep "caps: help start lists --active N" '^usage: start .*\[--active N\]' "$O3"
	check_grep "caps: a streams profile refuses --active" \
		"error: start: --active holds concurrent flows: .*stl_64b.yaml is not 'mode: flows'" "$O3"
	check_grep "caps: --active 0 refused" \
		"error: start: --active '0': a count of concurrent flows, 1..1000000000" "$O3"
	check_grep "caps: --active beyond what a table holds refused, needed and held in entries, bytes and flows" \
		"error: start: a worker's table would need 1,000,715,542 entries, 55\.9 GiB, for its 500,000,000 concurrent flows .*the most a table holds is 67,108,864 entries \(3840\.0 MiB\), about 33,461,878 flows" "$O3"
	check_grep "caps: update -m beyond the tables sized at the start refused with both figures" \
		"^error: update: worker 0's table holds 4096 entries \(sized at the start\), the new rate needs 210120 for 100000 concurrent flows" "$O3"
	check_eq "caps: update -m within the tables taken (one refusal only)" 1 "$(grep -c "^error: update:" "$O3")"
	check_grep "caps: tables beyond the machine's memory refused, needed and had in flows and bytes" \
		"error: start: the flow tables do not fit: the run needs 200,000,000 concurrent flows, 401,280,000 table entries, 23\.4 GiB; this machine has [0-9.]+ GiB for them \(MemAvailable .*\), about [0-9,]+ flows" "$O4"
}
lane caps caps_lane
lane caps2 caps2_lane
lane caps3 caps3_lane

# --- the dashboard: the target row and a group's climit (loop pair, tmux) ----

tui_lane()
{
	local H=$FG_TMP/home
	mkdir -p "$H"
	tmux_start 80 24
	keys "cd $FG_TOP && $FG_BIN -C $(fg_loop_cfg); echo \"FG-EXIT=\$?\" > $H/rc" Enter
	if ! wait_screen 'flowgen> ?$' 40; then
		fail "tui: flowgen console starts" "screen: $(screen | grep . | tail -n 3)"
		return
	fi
	keys "start -f test/data/flows_caps.yaml --active 1000 -d 60" Enter
	wait_screen 'started .*flows_caps' 10 || fail "tui: the capped run starts" "$(screen | grep . | tail -n 3)"
	keys "tui" Enter
	if wait_screen 'Global Statistics +Flows +client +server$' 10 && sleep 2.5 &&
		screen | grep -Eq 'target +1000 +-$'; then
		pass "tui: the Flows panel shows the target of --active 1000"
	else
		fail "tui: the Flows panel shows the target of --active 1000" "screen: $(screen | sed -n 1,7p)"
	fi
	keys t
	if wait_screen '^long +[0-9.]+[KM]? +[0-9.]+[KM]? +0 +[0-9.]+ [KM]? +50/50$' 5; then
		pass "tui: the group page shows long's active against its climit (50/50)"
	else
		fail "tui: the group page shows long's active against its climit (50/50)" \
			"screen: $(screen | grep -E '^(Group|short|long)')"
	fi
	keys q
	wait_screen 'flowgen> ?$' 5
	keys "quit" Enter
	wait_file "$H/rc" 20 || true
	check_grep "tui: flowgen exits 0" 'FG-EXIT=0' "$H/rc"
}
if command -v tmux >/dev/null 2>&1; then
	at_exit "tmux -L fge2e-$$ kill-server"
	lane tui tui_lane
else
	fail "tui: tmux available" "tmux is not installed"
fi

# --- one million concurrent flows held, UDP and TCP ([loop, loop]) ----------

million()
{
	local p=$1 O=$FG_TMP/million.$1.out in=$FG_TMP/million.in out=$FG_TMP/million.pipe
	local pid l i=0 a=0
	rm -f "$in" "$out"
	mkfifo "$in" "$out"
	# flowgen reads its commands from the FIFO $in as they come; timeout
	# leads a process group of its own, flowgen in it (killed below)
	(exec timeout -k 5 "${FG_TIMEOUT:-60}" stdbuf -oL -eL "$FG_BIN" -C "$(fg_loop_cfg)" -b) \
		<"$in" >"$out" 2>&1 &
	pid=$!
	exec 6>"$in" 7<"$out"
	: >"$O"
	# the ramp: a sample 0.25 s after the last one was read, until one
	# shows the target reached (999,000 client flows active), 32 at most
	# (8 s)
	fd_send 6 "start -v -f $FG_TOP/test/data/flows_million_$p.yaml --active 1000000"
	while ((i < 32 && a < 999000)); do
		fd_send 6 "sleep 0.25" "stats --json"
		i=$((i + 1))
		while IFS= read -r -t 20 l <&7; do
			printf '%s\n' "$l" >>"$O"
			[[ $l == '{'* ]] && break
		done
		[[ $l =~ \"flows\":\ ?\{\"client\":\ ?\{[^{}]*\"active\":\ ?([0-9]+) ]] || break
		a=${BASH_REMATCH[1]}
	done
	# the hold: 11 samples a second apart from a second after that one
	for l in $(seq 11); do fd_send 6 "sleep 1" "stats --json"; done
	fd_send 6 "echo DONE-HOLD"
	while IFS= read -r -t 20 l <&7; do
		printf '%s\n' "$l" >>"$O"
		[ "$l" = DONE-HOLD ] && break
	done
	[ "$l" = DONE-HOLD ] || fail "million $p: the samples were taken" "$(tail -n 3 "$O")"
	# the flows live a minute: a quit would drain them
	kill -KILL -- "-$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	exec 6>&- 7<&-
	# a TCP run's tcbs: a slot an entry at most, on the heap (flowgen(8), FLOW TABLES)
	local tcbs=''
	[ "$p" = tcp ] && tcbs='; TCBs at most 124\.0 MiB, heap'
	check_grep "million $p: start -v prints the plan (need and want 1,000,000 flows, 2,032,000 entries)" \
		'^tables: worker 0: need 1,000,000 flows \(2,032,000 entries\), want 1,000,000 \(2,032,000 entries\): table 2,032,000 entries, [0-9.]+ MiB, (heap|hugepages)'"$tcbs"'$' "$O"
	local tcp=()
	[ "$p" = tcp ] && tcp=("million tcp: every connection established" \
		"S[-1]['flows']['client']['established'] == 1000000")
	# S[:-11] the ramp, S[-11:] the hold
	samples_pys "$O" \
		"million $p: 1,000,000 reached within 8 s" \
		"1 <= len(S) - 11 <= 32 and [o['flows']['client']['active'] >= 999000 for o in S[:-11]] == [False] * (len(S) - 12) + [True]" \
		"million $p: held within 0.1 % for 10 s (11 samples a second apart)" \
		"len(S[-11:]) == 11 and all(999000 <= o['flows']['client']['active'] <= 1000000 and 999000 <= o['flows']['server']['active'] for o in S[-11:])" \
		"million $p: no frame lost on the way (no mbuf allocation failed, no segment sent again)" \
		"all(p['mbuf_fail'] == 0 for p in S[-1]['ports']) and S[-1]['flows']['client']['retx'] == 0 and S[-1]['flows']['server']['retx'] == 0" \
		"million $p: no flow failed, none started beyond the target" \
		"S[-1]['flows']['client']['failed'] == 0 and S[-1]['flows']['server']['failed'] == 0 and S[-1]['flows']['client']['started'] == 1000000" \
		"million $p: target 1,000,000 held 10 s or more (target_held_s)" \
		"S[-1]['flows']['client']['active_target'] == 1000000 and S[-1]['flows']['client']['target_held_s'] >= 10" \
		"${tcp[@]}"
	echo "# million $p: $(python3 -c 'import sys
sys.path.insert(0, sys.argv[2])
from fg_e2e_json import objects
S = [o for o in objects(open(sys.argv[1]).read()) if "flows" in o]
n = len(S) - 11
r = n * 0.25 if 1 <= n <= 32 and S[n - 1]["flows"]["client"]["active"] >= 999000 else None
print("target reached by the sample at %s s (0.25 s apart), held %.1f s at the end, active min %d, retransmissions %d, mbuf failures %d" % (r, S[-1]["flows"]["client"]["target_held_s"], min(o["flows"]["client"]["active"] for o in S[-11:]), S[-1]["flows"]["client"]["retx"], sum(p["mbuf_fail"] for p in S[-1]["ports"])))' "$O" "$FG_TOP/test/e2e")"
}

# loop_lanes_done : the other runs on the loop pair (their workers on CPU 1,
# as the million's) have ended
loop_lanes_done()
{
	local l
	for l in caps caps2 caps3 tui; do
		[ ! -e "$FG_TMP/lane.$l" ] || grep -qx END "$FG_TMP/lane.$l" || return 1
	done
}

million_lane()
{
	local i
	for ((i = 0; i < 900; i++)); do
		loop_lanes_done && break
		sleep 0.1
	done
	million udp
	million tcp
}
lane million million_lane

# --- NAT lab: --active 20000 -------------------------------------------------

lab_up nat || exit 1
# the worker on CPU 0 (and the main lcore), away from the million's on CPU 1
sed 's/threads: \[1\]/threads: [0]/' "$CFG" >"$FG_TMP/lab_cpu0.yaml"
CFG=$FG_TMP/lab_cpu0.yaml
fg_open "$FG_TMP/act.out"
fg_run arp "arp" 30 || fail "flows active: arp" "$(tail -n 3 "$FG_TMP/act.out")"
fg_send go "start -f $FG_TOP/test/data/flows_active.yaml --active 20000"
T0=$(date +%s)
# the ramp: unpaced, closed-loop admission; give it up to 8 s
for ((i = 0; i < 40; i++)); do
	ct=$("$FG_LAB" conntrack 2>/dev/null || echo 0)
	[ "$ct" -ge 19600 ] 2>/dev/null && break
	sleep 0.2
done
echo "# flows active: conntrack $ct after $(($(date +%s) - T0)) s"
: >"$FG_TMP/ct.txt"
: >"$FG_TMP/hold.json"
# 10 s of the hold: conntrack every second, stats every other second
for ((i = 1; i <= 10; i++)); do
	next=$(date +%s.%N)
	"$FG_LAB" conntrack >>"$FG_TMP/ct.txt" 2>&1
	if ((i % 2 == 0)); then
		fg_run h$i "stats --json" 5 && grep '^{' "$FG_TMP/h$i.out" | tail -n 1 >>"$FG_TMP/hold.json"
	fi
	sleep "$(awk -v n="$next" -v t="$(date +%s.%N)" 'BEGIN { d = n + 1 - t; print (d > 0 ? d : 0) }')"
done
echo "# flows active: conntrack during the hold: $(sort -n "$FG_TMP/ct.txt" | sed -n '1p;$p' | tr '\n' ' ')(min, max); the hold ended $(($(date +%s) - T0)) s after start"
n=$(grep -cE '^[0-9]+$' "$FG_TMP/ct.txt")
bad=$(awk '!/^[0-9]+$/ || $1 < 19600 || $1 > 20400' "$FG_TMP/ct.txt" | wc -l)
check_eq "flows active: 10 conntrack samples over 10 s" 10 "$n"
check_eq "flows active: DUT conntrack holds 20,000 +- 2 % in every sample" 0 "$bad"
samples_pys "$FG_TMP/hold.json" \
	"flows active: 5 stats samples in the hold" "len(S) == 5" \
	"flows active: active 20,000 in every sample" \
	"[o['flows']['client']['active'] for o in S] == [20000] * 5" \
	"flows active: started 20,000 in every sample (no flow ended, none started beyond)" \
	"[o['flows']['client']['started'] for o in S] == [20000] * 5" \
	"flows active: the server accepted each, none failed" \
	"S[-1]['flows']['server']['accepted'] == 20000 and S[-1]['flows']['client']['failed'] == 0" \
	"flows active: stats --json shows active_target 20,000" \
	"S[-1]['flows']['client']['active_target'] == 20000"

# after the first flows end (16 s after they started): they are replaced;
# sampled once all 20,000 have completed (then nothing changes until the
# second ones end, 32 s), at 19 s at the latest
while [ $(($(date +%s) - T0)) -lt 16 ]; do sleep 0.25; done
while [ $(($(date +%s) - T0)) -lt 19 ]; do
	fg_run poll "stats --json" 5 &&
		[ "$(grep '^{' "$FG_TMP/poll.out" | tail -n 1 | python3 -c 'import json, sys
print(json.loads(sys.stdin.read())["flows"]["client"]["completed"])' 2>/dev/null || echo 0)" -ge 20000 ] && break
	sleep 0.25
done
fg_run after "stats --json; stats" 10
echo "# flows active: the replaced flows sampled $(($(date +%s) - T0)) s after the start"
samples_py "flows active: ended flows replaced (started > 20,000, completed > 0)" \
	"S[-1]['flows']['client']['started'] > 20000 and S[-1]['flows']['client']['completed'] > 0" \
	"$FG_TMP/after.out"
samples_py "flows active: started - completed - failed holds at the target (+- 2 %, never above)" \
	"19600 <= (lambda c: c['started'] - c['completed'] - c['failed'])(S[-1]['flows']['client']) <= 20000 and S[-1]['flows']['client']['active'] <= 20000" \
	"$FG_TMP/after.out"
check_grep "flows active: stats shows the target" '^  target +\| +20000 ' "$FG_TMP/after.out"
# quit would drain the 20,000 flows in flight, up to 16 s: end flowgen
# here, with the process group of timeout (FG_SPID's child) that it runs
# in: a signal to FG_SPID, fg_open's subshell, would leave it running on
T=$(pgrep -P "$FG_SPID" -x timeout)
[ -n "$T" ] && kill -KILL -- "-$T" 2>/dev/null
exec 8>&-
wait "$FG_SPID" 2>/dev/null
lab_down

lane_end caps
lane_end caps2
lane_end caps3
command -v tmux >/dev/null 2>&1 && lane_end tui

lane_end million
finish
