#!/usr/bin/env bash
#
# 59_workers_nat.sh — stateful flows on several workers through the NAT lab
# (examples/lab.sh). net_af_packet fans received frames over all its
# sockets by a hash of its own, so the replies of a worker's flows land on
# any worker's queue, and on control's: every frame must reach the worker
# that owns its flow (flowgen(8), -c). For -c 2 and -c 3 (one flowgen
# each: `arp`, then both runs), udp_short and tcp_short at 4,000 flows/s
# for 1 s:
#  - the client starts 95-100 % of the 4,000 flows and completes every one,
#    none fails, the server accepts (to within 0.1 %) and completes them;
#  - the workers handed frames over (`redirected` > 0): the fan-out put
#    frames on the wrong worker, and nothing was lost for it;
#  - the DUT's connection tracking holds the flows (flushed before each
#    flowgen's runs, listed after them: at least the server's accepted
#    count of each run, UDP entries to udp_short's port and TCP ones to
#    tcp_short's; unreplied UDP entries live 30 s, closed TCP ones 120 s
#    in TIME_WAIT, longer than the runs).
# A stalled worker loses only the starts that fall due beyond its pacer's
# 20 ms bound while it is off its CPU (flowgen(8), late): the 5 % the
# started count allows is 50 ms of such stalls in a run (3,999 or 4,000
# started, none late, in every run measured, at 2,000 flows/s for 2 s as
# at 4,000 for 1 s). 4,000 flows keep each of three workers above the
# 1,000 frames checked (1,333 udp_short datagrams each).
# Then more than 256 `arp` and `ping` resolutions (423) in one process:
# the neighbour table keeps learning (each resolution reuses its slot).
# The flow runs' figures are read and checked while it goes: it has no
# timing of its own to disturb (each resolution waits up to 1 s for its
# answer).

. "$(dirname "$0")/lib.sh"

need_root "workers nat: lab"

lab_up nat || exit 1

# mark_wait NAME MIN SECS : fg_wait NAME SECS for what cannot end before
# MIN seconds: a sleep of MIN, then a look every 20 ms (fg_wait's are
# 100 ms apart)
mark_wait()
{
	sleep "$2"
	fg_wait "$1" "$3" 0.02
}

# run C PROFILE PROTO : one run in the flowgen of fg_open (-c C); its
# stats --json kept for check_run
run()
{
	local c=$1 prof=$2 proto=$3 tag="workers nat: -c $1 $3" J
	J=$FG_TMP/w$c.$proto.json
	fg_send "w$c$proto" "start -f $FG_TOP/profiles/$prof -m 4000 -d 1; wait 15; stats --json; stats -g"
	mark_wait "w$c$proto" 1 30
	check "$tag: flowgen ran it (batch mode ends at a failing command)" test $? -eq 0
	grep '^{' "$FG_TMP/w$c$proto.out" | tail -n 1 >"$J"
}

# check_run C PROTO : the checks of a run
check_run()
{
	local c=$1 proto=$2 tag="workers nat: -c $1 $2" J started completed accepted red busy nw ct v
	J=$FG_TMP/w$c.$proto.json
	ct=$(cat "$FG_TMP/ct$c.$proto")
	# the figures from one python3 (jvals: as jn and wj give them)
	mapfile -t v < <(jvals "$J" flows.client.started flows.client.completed flows.server.accepted \
		'=sum(w["redirected"] for w in o["workers"])' '=min(w["tx_pkts"] for w in o["workers"])' \
		'=len(o["workers"])' flows.client.failed flows.client.retx flows.client.active \
		flows.server.completed flows.server.failed)
	started=${v[0]} completed=${v[1]} accepted=${v[2]} red=${v[3]} busy=${v[4]} nw=${v[5]}
	echo "# $tag: started $started completed $completed failed ${v[6]}" \
		"accepted $accepted redirected ${red:-?} retx ${v[7]} conntrack $ct"
	check_ge "$tag: client started >= 3,800 of 4,000" "$started" 3800
	check_eq "$tag: client completed every started flow" "$started" "$completed"
	check_eq "$tag: client failed none" 0 "${v[6]}"
	check_eq "$tag: client has nothing left active" 0 "${v[8]}"
	within_pct "$tag: server accepted the client's flows (0.1 %)" "$accepted" "$completed" 0.1
	check_eq "$tag: server completed every accepted flow" "$accepted" "${v[9]}"
	check_eq "$tag: server failed none" 0 "${v[10]}"
	check_ge "$tag: frames were handed to their owner (redirected > 0)" "${red:-0}" 1
	check_eq "$tag: stats lists $c workers" "$c" "${nw:-0}"
	check_ge "$tag: every worker carried flows (each sent >= 1,000 frames)" "${busy:-0}" 1000
	check_ge "$tag: DUT conntrack holds the server's accepted flows" "$ct" "$accepted"
}

for c in 2 3; do
	fg_open "$FG_TMP/s$c.out" -c "$c"
	fg_send "arp$c" "arp"
	mark_wait "arp$c" 0.3 30
	check "workers nat: -c $c: arp resolved both next hops" test $? -eq 0
	in_dut conntrack -F >/dev/null 2>&1
	run "$c" udp_short.yaml udp
	run "$c" tcp_short.yaml tcp
	# the DUT's entries of each run: UDP and TCP ones, to its port
	in_dut conntrack -L >"$FG_TMP/ct$c" 2>/dev/null
	grep -c '^udp .* dport=4321 ' "$FG_TMP/ct$c" >"$FG_TMP/ct$c.udp"
	grep -c '^tcp .* dport=8080 ' "$FG_TMP/ct$c" >"$FG_TMP/ct$c.tcp"
	fg_close
	check_eq "workers nat: -c $c: flowgen exits 0" 0 "$FG_SRC"
done

# --- more than 256 resolutions ------------------------------------------------

cmds=""
for i in $(seq 1 140); do cmds+="arp; "; done
for i in $(seq 1 140); do cmds+="ping -p 0 -d 198.18.1.1 -n 1; "; done
O=$FG_TMP/arp.out
FG_TIMEOUT=120 fg -x "${cmds}arp; ping -p 1 -d 198.19.1.1 -n 1" >"$O" 2>&1 &
NB=$!
at_exit_kill $NB
for c in 2 3; do
	check_run "$c" udp
	check_run "$c" tcp
done
wait $NB
check_eq "neighbours: 140 arp (280 resolutions) and 140 ping, then arp and ping again, exit 0" 0 $?
check_nogrep "neighbours: every resolution got its answer" 'no ARP reply\|does not answer' "$O"

lab_down
finish
