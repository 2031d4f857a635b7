#!/usr/bin/env bash
#
# 84_capture.sh — `capture` (flowgen(8), capture): frames to pcapng, read
# back with tshark.
#
#  a. NAT lab, service mode: a capture during `arp` and `ping` holds the ARP
#     requests control sent on both ports (outbound), the router's replies
#     (inbound), the echo request and its reply;
#  b. NAT lab, traffic: a capture of udp_short at 2,000 flows/s for 2 s
#     opens in tshark with no malformed frame; per port and direction it
#     holds what `stats --json` of the same run counted (within 2 frames: the
#     router may send an ARP of its own between the capture's end and
#     stats), its UDP frames are exactly the client's sent datagrams
#     (port 0, outbound) and the server's received ones (port 1, inbound),
#     and every one of those arrived translated to 198.19.1.1;
#  c. loop pair: a filter `udp and src host 198.18.0.7` keeps only frames
#     from that address, and all of them (1 in 254 of stl_64b's frames, on
#     port 0 out and port 1 in alike; no learning frames before them and a
#     0.3 s drain after, -t learn=0,drain=0.3: on the loop pair a frame
#     arrives on the worker's next turn);
#  d. loop pair: a 64-copy ring at 100 kpps both ways (200,000 copies/s
#     asked of a ring drained 64 a millisecond) fills: frames recorded plus
#     frames dropped equal every frame the ports saw (the TX tap sees a
#     frame before the queue takes it: sent plus refused, and received),
#     drops are counted, and the traffic keeps its rate (>= 98 % of 200,000
#     frames in 2 s); it runs last, alone.
#  e. bad input gets a clear error and changes nothing: stop or save with
#     no capture, a ring that is no power of two, a limit of 0, a filter
#     libpcap refuses, a second start, an unknown subcommand.
# c and e run beside the lab run, once the lab is up (not beside its
# coming up: their workers poll a CPU each); the lab comes down after d,
# while the results are read.

. "$(dirname "$0")/lib.sh"

need_root "capture: lab"
T0=$(date +%s.%N)

# cap_counts OUT:FILE... : into each OUT, "iface dir proto src arp-op
# icmp-type" per frame of its FILE (dir 1 in, 2 out; "-" for a field the
# frame lacks). One tshark for them all (its start-up is most of a pass's
# CPU): the files one after the other are the sections of one pcapng
# stream, each frame's section (frame.section_number) names its OUT and
# its interface ids are its file's; a FILE missing or empty gives an
# empty OUT
cap_counts()
{
	local a ins=() outs=()
	for a; do
		: >"${a%%:*}"
		[ -s "${a#*:}" ] && outs+=("${a%%:*}") ins+=("${a#*:}")
	done
	[ ${#ins[@]} -gt 0 ] || return 0
	cat "${ins[@]}" | tshark -r - -T fields -e frame.section_number -e frame.interface_id \
		-e frame.packet_flags_direction -e ip.proto -e ip.src -e arp.opcode -e icmp.type 2>/dev/null |
		python3 -c '
import sys
outs = [open(p, "w") for p in sys.argv[1:]]
for l in sys.stdin:
    sec, _, l = l.partition("\t")
    f = (l.rstrip("\n").split("\t") + [""] * 6)[:6]
    f[1] = str(int(f[1], 0) & 3) if f[1] else "0"
    outs[int(sec) - 1].write(" ".join(x.split(",")[0] if x else "-" for x in f) + "\n")' "${outs[@]}"
}

# n FILE AWK-COND : frames of cap_counts output matching the condition
n()
{
	awk "$2 { c++ } END { print c + 0 }" "$1"
}

lab_up nat || exit 1

# --- c, e: loop pair, in the background ------------------------------------------

LC=$FG_TMP/filter.out
LF=$FG_TMP/filter.pcapng
fg_plain -C "$(fg_loop_cfg)" -x "capture start --filter 'udp and src host 198.18.0.7'; \
start -f $FG_TOP/profiles/stl_64b.yaml -m 10kpps -d 1 -t learn=0,drain=0.3; wait 5; capture save $LF; \
stats -p --json" >"$LC" 2>&1 &
PC=$!
LE=$FG_TMP/bad.out
fg_plain -C "$(fg_loop_cfg)" -k -x "capture stop; capture save $FG_TMP/none.pcapng; \
capture start --ring 100; capture start --limit 0; capture start --filter 'udp and bogus'; \
capture start -p 7; capture start; capture start; capture bogus; capture status" >"$LE" 2>&1 &
PE=$!

# --- a, b: NAT lab ------------------------------------------------------------------

A=$FG_TMP/svc.pcapng
B=$FG_TMP/nat.pcapng
J=$FG_TMP/nat.out
fg -x "service; capture start --filter 'arp or icmp'; arp; ping -p 0 -d 198.18.1.1 -n 1; \
capture save $A; service --off; clear; capture start; \
start --nc -f $FG_TOP/profiles/udp_short.yaml -m 2000 -d 2; wait 8; capture stop; \
stats --json; capture status --json; capture save $B" >"$J" 2>&1
check_eq "capture nat: flowgen exits 0" 0 "$?"

# the two tshark passes over the three files at once, once the lab's run
# has ended (not beside its traffic: its flows are paced; c's run, on the
# loop pair, ended long before the lab's)
wait $PC
RC_C=$?
tshark -r "$B" -Y '_ws.malformed || _ws.expert.severity >= error' 2>/dev/null | wc -l >"$FG_TMP/b.bad" &
pt=($!)
cap_counts "$FG_TMP/c.txt:$LF" "$FG_TMP/a.txt:$A" "$FG_TMP/b.txt:$B"
wait "${pt[@]}"
check_ge "capture service: ARP requests out on port 0 (control's TX)" \
	"$(n "$FG_TMP/a.txt" '$1 == 0 && $2 == 2 && $5 == 1')" 1
check_ge "capture service: ARP requests out on port 1 (control's TX)" \
	"$(n "$FG_TMP/a.txt" '$1 == 1 && $2 == 2 && $5 == 1')" 1
check_ge "capture service: the router's ARP replies in on both ports" \
	"$(n "$FG_TMP/a.txt" '$2 == 1 && $5 == 2')" 2
check_eq "capture service: the echo request out on port 0" 1 \
	"$(n "$FG_TMP/a.txt" '$1 == 0 && $2 == 2 && $6 == 8')"
check_eq "capture service: the echo reply in on port 0" 1 \
	"$(n "$FG_TMP/a.txt" '$1 == 0 && $2 == 1 && $6 == 0')"

check_eq "capture nat: tshark finds no malformed frame" 0 "$(cat "$FG_TMP/b.bad")"
mapfile -t jv < <(jvals "$J" '=seen("capture.dropped")' '=seen("capture.frames")' '=seen("ports.0.tx_pkts")' \
	'=seen("ports.0.rx_pkts")' '=seen("ports.1.tx_pkts")' '=seen("ports.1.rx_pkts")' \
	'=seen("flows.client.tx_pkts")' '=seen("flows.server.rx_pkts")')
total=$(count_lines "$FG_TMP/b.txt")
echo "# capture nat: $total frames"
check_ge "capture nat: frames recorded" "$total" 7000
check_eq "capture nat: nothing dropped" 0 "${jv[0]}"
check_eq "capture nat: status counts the frames tshark reads" "$total" "${jv[1]}"
i=2
for p in 0 1; do
	for d in tx rx; do
		dir=$([ $d = rx ] && echo 1 || echo 2)
		got=$(n "$FG_TMP/b.txt" "\$1 == $p && \$2 == $dir")
		want=${jv[$i]}
		i=$((i + 1))
		if [[ $want =~ ^[0-9]+$ ]] && [ $((got - want)) -le 2 ] && [ $((want - got)) -le 2 ]; then
			pass "capture nat: port $p $d frames $got = stats $want (+-2)"
		else
			fail "capture nat: port $p $d frames = stats" "captured $got, stats '$want'"
		fi
	done
done
check_eq "capture nat: UDP out on port 0 = the client's sent datagrams" \
	"${jv[6]}" "$(n "$FG_TMP/b.txt" '$1 == 0 && $2 == 2 && $3 == 17')"
check_eq "capture nat: UDP in on port 1 = the server's received datagrams" \
	"${jv[7]}" "$(n "$FG_TMP/b.txt" '$1 == 1 && $2 == 1 && $3 == 17')"
check_eq "capture nat: every UDP frame in on port 1 translated to 198.19.1.1" 0 \
	"$(n "$FG_TMP/b.txt" '$1 == 1 && $2 == 1 && $3 == 17 && $4 != "198.19.1.1"')"

# --- d: a full ring, alone (its rate is the check: no other run beside it) ---------

wait $PE
RC_E=$?
LD=$FG_TMP/ring.out
fg_plain -C "$(fg_loop_cfg)" -x "capture start --ring 64; \
start -f $FG_TOP/profiles/stl_64b.yaml -m 100kpps -d 2 -t learn=0,drain=0.3; wait 6; capture stop; \
capture status --json; stats -p --json" >"$LD" 2>&1
RC_D=$?
# the lab comes down while the results are read (d ran beside its idle
# namespaces)
lab_down &
PD=$!

# --- c, d: results -----------------------------------------------------------------

check_eq "capture filter: flowgen exits 0" 0 "$RC_C"
tx=$(jvals "$LC" '=seen("ports.0.tx_pkts")')
out=$(n "$FG_TMP/c.txt" '$1 == 0 && $2 == 2')
in=$(n "$FG_TMP/c.txt" '$1 == 1 && $2 == 1')
echo "# capture filter: $out out, $in in of $tx sent"
check_eq "capture filter: every frame kept is UDP from 198.18.0.7" 0 \
	"$(n "$FG_TMP/c.txt" '$3 != 17 || $4 != "198.18.0.7"')"
check_eq "capture filter: as many in on port 1 as out on port 0" "$out" "$in"
if [[ $tx =~ ^[0-9]+$ ]] && [ $((out * 254 - tx)) -le 254 ] && [ $((tx - out * 254)) -le 254 ]; then
	pass "capture filter: 1 in 254 of the frames sent kept ($out of $tx)"
else
	fail "capture filter: 1 in 254 of the frames sent kept" "$out of '$tx'"
fi

check_eq "capture ring: flowgen exits 0" 0 "$RC_D"
mapfile -t jv < <(jvals "$LD" '=seen("capture.frames")' '=seen("capture.dropped")' '=seen("ports.0.tx_pkts")' \
	'=seen("ports.1.rx_pkts")' '=seen("ports.0.tx_queue_full")')
fr=${jv[0]}
dr=${jv[1]}
tx=${jv[2]}
rx=${jv[3]}
qf=${jv[4]}
echo "# capture ring: $fr recorded, $dr dropped, tx $tx (+ $qf refused by the queue) rx $rx"
check_ge "capture ring: a full ring drops and counts" "$dr" 1
if [[ $fr =~ ^[0-9]+$ ]] && [[ $dr =~ ^[0-9]+$ ]] && [[ $tx =~ ^[0-9]+$ ]] && [[ $rx =~ ^[0-9]+$ ]] && [[ $qf =~ ^[0-9]+$ ]]; then
	check_eq "capture ring: recorded + dropped = every frame seen (sent, refused, received)" \
		$((tx + qf + rx)) $((fr + dr))
else
	fail "capture ring: recorded + dropped = every frame seen" "frames '$fr' dropped '$dr'"
fi
check_ge "capture ring: traffic keeps its rate (>= 98 % of 200,000 frames)" "$tx" 196000

check_eq "capture bad input: flowgen exits 1 (commands failed, -k)" 1 "$RC_E"
check_grep "capture bad input: stop with no capture" 'error: capture: no capture is running' "$LE"
check_grep "capture bad input: save with nothing captured" 'error: capture: nothing captured' "$LE"
check "capture bad input: no file written" test ! -e "$FG_TMP/none.pcapng"
check_grep "capture bad input: --ring 100" 'error: capture: --ring takes a power of two' "$LE"
check_grep "capture bad input: --limit 0" 'error: capture: --limit takes a number' "$LE"
check_grep "capture bad input: libpcap's message for a bad filter" 'error: capture: filter "udp and bogus": syntax error' "$LE"
check_grep "capture bad input: -p 7" "error: capture: -p '7': no such ports" "$LE"
check_grep "capture bad input: a second start" 'error: capture: a capture is running' "$LE"
check_grep "capture bad input: unknown subcommand" 'error: capture: start, stop, save or status\?' "$LE"
check_grep "capture bad input: the first good start still runs" '^capture: running' "$LE"

wait $PD
FG_LAB_UP=no
echo "# 84_capture.sh: $(awk -v a="$T0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"
finish
