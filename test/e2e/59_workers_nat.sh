#!/usr/bin/env bash
#
# 59_workers_nat.sh — stateful flows on several workers through the NAT lab
# (examples/lab.sh). net_af_packet fans received frames over all its
# sockets by a hash of its own, so the replies of a worker's flows land on
# any worker's queue, and on control's: every frame must reach the worker
# that owns its flow (flowgen(8), -c). For -c 2 and -c 3, udp_short and
# tcp_short at 2,000 flows/s for 2 s:
#  - the client starts 95-100 % of the 4,000 flows and completes every one,
#    none fails, the server accepts (to within 0.1 %) and completes them;
#  - the workers handed frames over (`redirected` > 0): the fan-out put
#    frames on the wrong worker, and nothing was lost for it;
#  - the DUT's connection tracking holds the flows (flushed before each
#    run; at least the server's accepted count after it).
# Then more than 256 `arp` and `ping` resolutions in one process: the
# neighbour table keeps learning (each resolution reuses its slot).

. "$(dirname "$0")/lib.sh"

need_root "workers nat: lab"

lab_up nat || exit 1

# run C PROFILE PROTO
run()
{
	local c=$1 prof=$2 proto=$3 tag="workers nat: -c $1 $3" O J started completed accepted red busy nw ct v
	O=$FG_TMP/w$c.$proto.out
	J=$FG_TMP/w$c.$proto.json
	in_dut conntrack -F >/dev/null 2>&1
	fg -c "$c" -x "arp; start -f $FG_TOP/profiles/$prof -m 2000 -d 2; wait 15; stats --json; stats -g" \
		>"$O" 2>&1
	check_eq "$tag: flowgen exits 0" 0 $?
	grep '^{' "$O" | head -1 >"$J"
	ct=$(in_dut conntrack -L -p "$proto" 2>/dev/null | grep -c "dport=$4 " || true)
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

run 2 udp_short.yaml udp 4321
run 2 tcp_short.yaml tcp 8080
run 3 udp_short.yaml udp 4321
run 3 tcp_short.yaml tcp 8080

# --- more than 256 resolutions ------------------------------------------------

cmds=""
for i in $(seq 1 140); do cmds+="arp; "; done
for i in $(seq 1 140); do cmds+="ping -p 0 -d 198.18.1.1 -n 1; "; done
O=$FG_TMP/arp.out
FG_TIMEOUT=120 fg -x "${cmds}arp; ping -p 1 -d 198.19.1.1 -n 1" >"$O" 2>&1
check_eq "neighbours: 280 arp (560 resolutions) and 140 ping, then arp and ping again, exit 0" 0 $?
check_nogrep "neighbours: every resolution got its answer" 'no ARP reply\|does not answer' "$O"

lab_down
finish
