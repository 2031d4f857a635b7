#!/usr/bin/env bash
#
# 82_limits.sh — resource limits and misuse: each gives a clear error or a
# counter, and flowgen carries on (a later command still runs).
#
#  1. a full flow table (flows_max: 1000, 500 UDP flows/s whose requests
#     the DUT drops, so that each lives to its 4 s timeout, beyond the 50
#     the run's plan needs while replies come; a run whose own program
#     keeps more alive than the table holds is refused before it starts,
#     54): table_full counted at the rate the flows come, `stop` works;
#     unpaced (-m max), the same run fills the client half of the table
#     (500 flows) and waits for room, with no table_full;
#  2. few mbufs (mbufs: 1024) under unpaced 64-byte traffic (no learning
#     phase, a 0.3 s drain): either mbuf_fail is counted or TX goes on, every
#     frame is accounted for (tx = rx + lost); no crash, no hang;
#  3. a link going down mid-run (dut0 down in the DUT namespace): flowgen runs
#     on, portattr shows port 0 down, `stop` works; while that `stop` drains
#     (the flows in flight time out, nothing more is sent), the jumbo case
#     below runs on the loop pair;
#  4. a rate the ports cannot reach (-m 200%, -m 100gbps): refused naming the
#     maximum, exit 1 in batch; traffic already running keeps running;
#  5. `start` while traffic runs: an error without --force, a restart with it;
#  6. `stop` twice: the second says nothing is running and succeeds;
#  7. a profile deleted right before `start`: a clear error, no crash;
#  8. SIGINT during `tui` with traffic running (tmux): the terminal modes are
#     restored (stty -g identical) and flowgen is back at its prompt;
#  9. a frame larger than the ports' buffers ([loop, loop], no lab): refused
#     at start, the traffic already running goes on (its count is sent +
#     late, which holds on a worker sharing its CPU).
# Cases 1, 7 and 8 run in a lane, on a lab of their own (lab A: lib.sh
# lab_up's tag) and with their flowgens' workers and main lcores on CPU 0
# (their configs with threads [0]), beside cases 2 to 6 and 9 on lab B,
# whose flowgens keep their workers on CPU 1 (a veth passes a frame on in
# the sender's context, so each lab's DUT forwards on its flowgen's CPU).
# Case 1's checks are counts of the flow table with wide bounds, which a
# worker sharing its CPU meets all the same (table_full 751 and 1,000
# active, as alone); 7 and 8 time nothing. The lane takes about 15 s,
# lab B's cases about 16 s (28 s one after the other, 16 to 17 s so).

. "$(dirname "$0")/lib.sh"

need_root "limits: lab"
D=$FG_TOP/test/data
P=$FG_TOP/profiles
LAB_CFG=$FG_TOP/examples/lab.yaml

# ok_exit NAME RC : the process ended by itself (no signal, no timeout)
ok_exit()
{
	if [ "$2" -lt 124 ]; then
		pass "$1"
	else
		fail "$1" "exit status $2"
	fi
}

# jumbo : 9. A frame larger than the ports' buffers is refused at start,
# not written past the end of an mbuf; the traffic already running goes on.
jumbo()
{
	local out=$FG_TMP/jumbo.out v
	fg_plain -C "$(fg_loop_cfg)" -k -x "start -f profiles/stl_64b.yaml -d 2 -m 0.1 -t learn=0,drain=0.3; \
start --force -f $D/limits_jumbo.yaml; wait; stats --json" >"$out" 2>&1
	check_eq "jumbo: the batch run reports the failed command (exit 1)" 1 $?
	check_grep "jumbo: start names the frame and the limit" \
		"limits_jumbo.yaml: a frame of 9000 bytes does not fit the ports' buffers \(2052 bytes at most" "$out"
	mapfile -t v < <(jvals "$out" '=get(None, "latency.0.tx", 0)' '=get(None, "latency.0.late", 0)')
	# sent or counted late (a worker without a CPU of its own): the run went on
	check_ge "jumbo: the running traffic ran its course (2 s x 1 kpps, sent + late)" \
		$((v[0] + v[1])) 1900
}

# --- 1. full flow table (lab A, in a lane) ----------------------------------
full_lane()
{
	local O OM rc rcm drops v tf act tfm actm stm
	# the worker on CPU 0 (and the main lcore), away from the other lab's
	sed 's/threads: \[1\]/threads: [0]/' "$D/robust_lab_flows1k.yaml" >"$FG_TMP/flows1k_cpu0.yaml"
	CFG=$FG_TMP/flows1k_cpu0.yaml
	O=$FG_TMP/full.out
	rc=0
	# the DUT drops the requests (its forward hook, before the masquerade)
	in_dut nft -f - <<-'NFT'
		table inet fg82drop {
			chain requests {
				type filter hook forward priority -10; policy accept;
				udp dport 4321 drop
			}
		}
	NFT
	fg -x "arp; start -f $D/robust_noreply.yaml -m 500 -d 30; sleep 3.5; stats --json; stop; \
echo stopped-ok; stats --json; echo alive" >"$O" 2>&1 || rc=$?
	# the same flows unpaced (-m max): the run opens what the table's client
	# half holds and then waits for flows to end, counting no table_full
	# (flowgen(8), FLOW TABLES)
	OM=$FG_TMP/full_max.out
	rcm=0
	fg -x "arp; start -f $D/robust_noreply.yaml -m max -d 30; sleep 2; stats --json; stop; \
echo stopped-ok" >"$OM" 2>&1 || rcm=$?
	drops=$(in_dut nft list table inet fg82drop 2>/dev/null | grep -c "udp dport 4321 drop")
	in_dut nft delete table inet fg82drop
	check_eq "limits table full: batch run exits 0" 0 "$rc"
	mapfile -t v < <(jvals "$O" '=get(None, "flows.client.fail_reasons.table_full")' \
		'=get(0, "flows.client.active", -1)')
	tf=${v[0]}
	check_ge "limits table full: flows.client.fail_reasons.table_full > 0" "$tf" 1
	# no storm: at most the flows that came in 3.5 s at 500/s (with the drain's)
	check_ge "limits table full: table_full at most the flows asked for (2,000)" 2000 "$tf"
	act=${v[1]}
	check_ge "limits table full: flows stay active up to the table size" "$act" 100
	check_ge "limits table full: active flows bounded by flows_max" 1000 "$act"
	check_grep "limits table full: stop works" '^stopped-ok' "$O"
	check_grep "limits table full: a later command runs" '^alive' "$O"
	check_eq "limits table full: the DUT's rule dropping the requests was in place" 1 "$drops"
	echo "# table full: active $act table_full $tf"
	check_eq "limits table full unpaced: batch run exits 0" 0 "$rcm"
	mapfile -t v < <(jvals "$OM" '=get(0, "flows.client.fail_reasons.table_full")' \
		'=get(0, "flows.client.active", -1)' '=get(0, "flows.client.started", -1)')
	tfm=${v[0]}
	actm=${v[1]}
	stm=${v[2]}
	check_eq "limits table full unpaced: no table_full, the run waits for room" 0 "$tfm"
	check_eq "limits table full unpaced: the client half is full (500 active)" 500 "$actm"
	check_eq "limits table full unpaced: no flow started beyond it" 500 "$stm"
	check_grep "limits table full unpaced: stop works" '^stopped-ok' "$OM"
	echo "# table full unpaced: active $actm started $stm table_full $tfm"
	# cases 7 and 8 on lab A too, their flowgens' workers on CPU 0
	sed 's/threads: \[1\]/threads: [0]/' "$LAB_CFG" >"$FG_TMP/lab_cpu0.yaml"
	LAB_CFG=$FG_TMP/lab_cpu0.yaml
	CFG=$LAB_CFG
	cases78
}
# cases78 : cases 7 and 8, in lab A's lane once case 1 is done (the tmux
# server's clean-up is registered before the lane: a lane's at_exit is
# lost)
cases78()
{
	local O rc H
	# --- 7. profile deleted right before start --------------------------------
	O=$FG_TMP/del.out
	cp "$P/udp_short.yaml" "$FG_TMP/gone.yaml"
	# flowgen is up and has run arp when the file goes; then it is asked to
	# start it (-k: the failed start does not end the batch)
	fg_open "$FG_TMP/del.session" -k
	fg_run del.arp "arp"
	rm -f "$FG_TMP/gone.yaml"
	fg_run del "start -f $FG_TMP/gone.yaml -m 100 -d 2; echo alive"
	fg_close
	rc=$FG_SRC
	ok_exit "limits deleted profile: no crash" "$rc"
	check_eq "limits deleted profile: exit 1 (a failed command)" 1 "$rc"
	check_grep "limits deleted profile: clear error naming the file" 'gone\.yaml.*(no such|not found|cannot|open)|(no such|cannot open).*gone\.yaml' "$O"
	check_grep "limits deleted profile: a later command runs" '^alive' "$O"

	# --- 8. SIGINT during tui -------------------------------------------------
	if command -v tmux >/dev/null; then
		H=$FG_TMP/home
		mkdir -p "$H"
		SOCK=fglim-$$
		tmux -L "$SOCK" -f /dev/null new-session -d -s m -x 132 -y 40 \
			"env -i HOME=$H TERM=xterm-256color LANG=C.UTF-8 PATH=$PATH bash --norc --noprofile"
		scr()
		{
			tmux -L "$SOCK" capture-pane -p -t m
		}
		wscr()
		{
			local i
			for ((i = 0; i < $2 * 5; i++)); do
				scr | grep -Eq -- "$1" && return 0
				sleep 0.2
			done
			return 1
		}
		k()
		{
			tmux -L "$SOCK" send-keys -t m "$@"
		}
		k "stty -g > $H/stty.before" Enter
		k "ip netns exec $NS_TST $FG_BIN -C $LAB_CFG; echo FG-EXIT=\$? > $H/rc" Enter
		if wscr 'flowgen> ?$' 40; then
			k "arp" Enter
			wscr 'port 1: .*MAC' 10
			k "start -f $P/udp_short.yaml -m 200" Enter
			wscr '^started ' 10
			k "tui" Enter
			wscr 'Global Statistics' 10 && pass "limits tui: dashboard open with traffic" ||
				fail "limits tui: dashboard open with traffic" "$(scr | grep . | head -n 5)"
			# ^C once the dashboard has drawn the traffic's rate
			wscr '^CPS +[1-9]' 5
			k C-c
			if wscr 'flowgen> ?$' 10 && ! scr | grep -q 'Global Statistics'; then
				pass "limits tui: C-c returns to the prompt"
			else
				fail "limits tui: C-c returns to the prompt" "$(scr | grep . | tail -n 5)"
			fi
			check "limits tui: flowgen still running after C-c" test ! -e "$H/rc"
			k "echo alive-tui" Enter
			wscr '^alive-tui' 5 && pass "limits tui: prompt answers after C-c" ||
				fail "limits tui: prompt answers after C-c" "$(scr | grep . | tail -n 5)"
			k "quit" Enter
			wait_file "$H/rc" 20
			k "stty -g > $H/stty.after" Enter
			wait_file "$H/stty.after" 5
			check_eq "limits tui: terminal modes restored (stty -g)" \
				"$(cat "$H/stty.before" 2>/dev/null)" "$(cat "$H/stty.after" 2>/dev/null || echo none)"
			check_eq "limits tui: flowgen quits with 0" "FG-EXIT=0" "$(cat "$H/rc" 2>/dev/null)"
		else
			fail "limits tui: flowgen console starts" "$(scr | grep . | tail -n 5)"
		fi
	else
		fail "limits tui: tmux available" "tmux is not installed"
	fi
}

lab_up nat A || exit 1
command -v tmux >/dev/null && at_exit "tmux -L fglim-$$ kill-server"
lane full full_lane
# every other case: lab B
lab_up nat || exit 1

# --- 2. mbuf exhaustion -------------------------------------------------------
CFG=$D/robust_lab_mbufs.yaml
O=$FG_TMP/mbufs.out
rc=0
fg -x "arp; start -f $P/stl_64b.yaml -m max -d 2$(learn_off profiles/stl_64b.yaml); wait 15; stats --json; echo alive" \
	>"$O" 2>&1 || rc=$?
ok_exit "limits mbufs: no crash or hang" "$rc"
check_eq "limits mbufs: batch run exits 0" 0 "$rc"
mapfile -t v < <(jvals "$O" '=get(None, "ports.0.mbuf_fail")' '=get(None, "ports.0.tx_pkts", 0)' \
	'=lat("s64", 1, "tx")' '=lat("s64", 1, "rx")' '=lat("s64", 1, "lost")')
mf=${v[0]}
tx=${v[1]}
echo "# mbufs 1024: port 0 tx_pkts $tx mbuf_fail $mf"
check "limits mbufs: stats --json reports ports.0.mbuf_fail as a count" \
	grep -Eqx '[0-9]+' <<<"$mf"
stx=${v[2]}
srx=${v[3]}
slost=${v[4]}
echo "# mbufs 1024: stream s64 tx $stx rx $srx lost $slost"
if [[ "$stx $srx $slost" =~ ^[0-9]+\ [0-9]+\ [0-9]+$ ]] && [ "$stx" -gt 0 ] && [ "$stx" -eq $((srx + slost)) ]; then
	pass "limits mbufs: every frame of the stream accounted for (tx = rx + lost)"
else
	fail "limits mbufs: every frame of the stream accounted for (tx = rx + lost)" "tx '$stx' rx '$srx' lost '$slost'"
fi
check_ge "limits mbufs: TX went on (> 10,000 frames in 2 s)" "$tx" 10000
check_grep "limits mbufs: a later command runs" '^alive' "$O"

CFG=$LAB_CFG

# --- 3. link down mid-run -----------------------------------------------------
O=$FG_TMP/link.out
fg -x "arp; start -f $P/udp_short.yaml -m 1000 -d 20; sleep 2; portattr; stats --json; \
sleep 1; stats --json; stop; echo stopped-ok; echo alive" >"$O" 2>&1 &
FGPID=$!
# the link goes down once the run has started (2 s before portattr)
wait_for '^started ' "$O" 30 "$FGPID"
in_dut ip link set dut0 down
# Once its second `stats` is out, the run only stops and drains (its flows
# in flight time out; it sends nothing more): the jumbo case (9.) runs on
# the loop pair meanwhile, its own traffic counted sent + late.
for ((i = 0; i < 150; i++)); do
	[ "$(grep -c '^{' "$O")" -ge 2 ] && break
	kill -0 "$FGPID" 2>/dev/null || break
	sleep 0.1
done
jumbo
wait $FGPID
rc=$?
in_dut ip link set dut0 up
ok_exit "limits link down: flowgen keeps running" "$rc"
check_eq "limits link down: batch run exits 0" 0 "$rc"
check_eq "limits link down: portattr shows port 0 down" down \
	"$(awk '$1 == "0" && $2 ~ /^(up|down)$/ {print $2}' "$O" | tail -n 1)"
mapfile -t v < <(jvals "$O" '=L[-1]["ports"][0]["link"]' '=get(0, "flows.client.started", 0)' \
	'=get(1, "flows.client.started", 0)')
check_eq "limits link down: stats shows port 0 link false" False "${v[0]:-missing}"
check_grep "limits link down: stop works" '^stopped-ok' "$O"
check_grep "limits link down: a later command runs" '^alive' "$O"
# The dataplane keeps running: the worker still loops (flows go on
# starting and failing for lack of replies).
s1=${v[1]}
s2=${v[2]}
check_ge "limits link down: flows still start while the link is down" "$((s2 - s1))" 500

# --- 4. unreachable rate, 5. start while running, 6. stop twice -------------
O=$FG_TMP/rate.out
rc=0
fg -x "arp; start -f $P/stl_64b.yaml -m 200%" >"$O" 2>&1 || rc=$?
check_eq "limits rate: -m 200% exits 1 in batch" 1 "$rc"
check_grep "limits rate: -m 200% refused naming the maximum" '100%|maximum' "$O"
rc=0
fg -x "arp; start -f $P/stl_64b.yaml -m 100gbps" >"$O" 2>&1 || rc=$?
check_eq "limits rate: -m 100gbps exits 1 in batch" 1 "$rc"
check_grep "limits rate: -m 100gbps refused naming the maximum" 'maximum|max ' "$O"

O=$FG_TMP/run.out
rc=0
fg -k -x "arp; start -f $P/udp_short.yaml -m 100 -d 30; sleep 0.5; stats --json; \
start --force -f $P/stl_64b.yaml -m 200%; echo after-refused; sleep 1.5; stats --json; \
start -f $P/udp_short.yaml -m 100; echo after-noforce; \
start --force -f $P/udp_short.yaml -m 300 -d 1; echo after-force; wait 10; stats --json; \
stop; echo rc-stop1; stop; echo rc-stop2; echo alive" >"$O" 2>&1 || rc=$?
ok_exit "limits start/stop: no crash" "$rc"
mapfile -t v < <(jvals "$O" '=get(0, "flows.client.started", -1)' '=get(1, "flows.client.started", -1)' \
	'=get(2, "flows.client.started", -1)')
a1=${v[0]}
a2=${v[1]}
check_grep "limits rate: refused while traffic runs" 'error.*(100%|maximum)' "$O"
check_ge "limits rate: the running traffic keeps running after the refusal" "$((a2 - a1))" 100
check_grep "limits start: start while running is an error" 'running.*force|--force' "$O"
check_grep "limits start: --force restarts" 'started .*udp_short.*300' "$O"
a3=${v[2]}
echo "# start --force: started before $a2; the forced 1 s run at -m 300 alone: $a3"
# Counters are cumulative over starts (only `clear` baselines them): the
# forced 1 s run at 300 flows/s adds about 300.
# start clears the counters (as TRex does, unless --nc): what stats shows
# after the forced run is that run alone.
check_ge "limits start: the forced run counts about 300 flows (>= 250)" "$a3" 250
check_ge "limits start: the forced run counts about 300 flows (<= 375)" 375 "$a3"
check_grep "limits stop twice: second stop says nothing is running" 'no traffic|not running|nothing' "$O"
check "limits stop twice: second stop exits 0" \
	fg -x "stop; stop; echo alive"
check_grep "limits stop twice: a later command runs" '^alive' "$O"

lab_down
lane_end full
finish
