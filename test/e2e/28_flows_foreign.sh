#!/usr/bin/env bash
#
# 28_flows_foreign.sh — payload checks that fit the peer (flowgen(8), -t
# payload_check; flowpay.h): flowgen's client checks a flowgen server's
# replies strictly and judges a server that is not flowgen by byte counts,
# counting its flows in flows.client.foreign_server. In the NAT lab, with
# a Linux TCP listener (test/data/flows_tcp_srv.py: 512 zero bytes per
# connection) and a Linux UDP echo server (test/data/flows_udp_echo.py:
# our own request reflected, without the reply flag) at the DUT's
# 198.19.1.1:
#
# 1. default settings, TCP to Linux: every connection completes, none
#    fails, each counted once as foreign_server; `stats` notes it.
# 2. default settings, UDP to the echo server: every flow completes (no
#    flowgen server says "done": the client's program ending is enough),
#    each counted as foreign_server.
# 3. -t payload_check=1 against both: every flow fails as payload_mismatch,
#    none counted foreign.
# 4. -t payload_check=0 against the TCP listener: completes, nothing
#    counted foreign (no check at all).
# 5. flowgen on both sides (udp_short, tcp_short through the NAT): no
#    foreign server, no bad payload, and no note in `stats`.
#
# The forged replies of 80_hostile.sh (one pattern byte changed in replies
# that carry the signature) show that flowgen's own replies are still
# checked strictly.

. "$(dirname "$0")/lib.sh"

need_root "flows foreign: lab"
need_flowgen
T0=$SECONDS
D=$FG_TOP/test/data
O=$FG_TMP/out

lab_up nat || exit 1

# one flowgen for every run (fg_open: its start-up and `arp` go on while
# the servers start); `start` clears the counters
FG_TIMEOUT=120 fg_open "$O"
fg_send arp "arp"
ip netns exec "$NS_DUT" python3 "$D/flows_tcp_srv.py" 198.19.1.1 8080 "$FG_TMP/tcp.count" &
TCPPID=$!
at_exit "kill $TCPPID 2>/dev/null"
ip netns exec "$NS_DUT" python3 "$D/flows_udp_echo.py" 198.19.1.1 4323 "$FG_TMP/udp.count" &
UDPPID=$!
at_exit "kill $UDPPID 2>/dev/null"
# both bound before the first flow (python starts slowly on a busy machine)
for ((i = 0; i < 50; i++)); do
	in_dut ss -Hltn 'sport = :8080' | grep -q . && in_dut ss -Hlun 'sport = :4323' | grep -q . && break
	sleep 0.2
done

# One run after the other. Each run's count must stay above its minimum
# if a stall costs it 0.5 s (the runs checked at 30 and 150 or more) or
# 0.25 s (those at 15): a run at rate r for d s with minimum n has
# d = stall + n / r, so at twice the rate (40 cps for 0.625 s, not 20 for
# 1 s; 80 for 0.875 s, not 40 for 1.25 s; udp_short at 800, tcp_short at
# 400 for 0.875 s) the same stall costs as much and the runs are shorter.
fg_send runs "start -f $D/flows_linux_srv.yaml -m 80 -d 0.875; wait 10; stats --json; stats -a; echo MARK-UDP
start -f $D/flows_linux_udp.yaml -m 80 -d 0.875; wait 10; stats --json; stats -a; echo MARK-STRICT-TCP
start -f $D/flows_linux_srv.yaml -m 40 -d 0.625 -t payload_check=1; wait 10; stats --json; echo MARK-STRICT-UDP
start -f $D/flows_linux_udp.yaml -m 40 -d 0.625 -t payload_check=1; wait 10; stats --json; echo MARK-OFF
start -f $D/flows_linux_srv.yaml -m 40 -d 0.625 -t payload_check=0; wait 10; stats --json; echo MARK-FG-UDP
start -f $FG_TOP/profiles/udp_short.yaml -m 800 -d 0.875; wait 10; stats --json; echo MARK-FG-TCP
start -f $FG_TOP/profiles/tcp_short.yaml -m 400 -d 0.875; wait 10; stats --json; stats -a; echo MARK-END"
fg_close
check_eq "flows foreign: batch run exits 0" 0 "$FG_SRC"
kill -TERM $TCPPID $UDPPID 2>/dev/null
wait $TCPPID $UDPPID 2>/dev/null

# part FILE FROM TO : the lines of $O from the line FROM to the line TO
part()
{
	sed -n "/^$2/,/^$3/p" "$O" >"$FG_TMP/$1"
	echo "$FG_TMP/$1"
}
J=$FG_TMP/tcp.json
sed '/^MARK-UDP/,$d' "$O" >"$J"
U=$(part udp.json MARK-UDP MARK-STRICT-TCP)
ST=$(part stcp.json MARK-STRICT-TCP MARK-STRICT-UDP)
SU=$(part sudp.json MARK-STRICT-UDP MARK-OFF)
OFF=$(part off.json MARK-OFF MARK-FG-UDP)
FU=$(part fgudp.json MARK-FG-UDP MARK-FG-TCP)
FT=$(part fgtcp.json MARK-FG-TCP MARK-END)

# c FILE FIELD : a flows.client counter of the last stats --json in FILE
# (the counters of every run's file are read beforehand by one python3,
# cload, as jvals reads them; a value not read there is json_get's)
declare -A CV
cload()
{
	local f k v F i=0
	k=(started completed failed fail_reasons.no_reply fail_reasons.reset fail_reasons.retransmits_exhausted
	   foreign_server fail_reasons.payload_mismatch rx_bytes)
	mapfile -t v < <(python3 - "${#k[@]}" "${k[@]/#/flows.client.}" "$@" <<-'PY'
		import sys
		from fg_e2e_json import at, last, show
		n = int(sys.argv[1])
		paths, files = sys.argv[2:2 + n], sys.argv[2 + n:]
		for f in files:
		    try:
		        o = last(open(f).read())
		    except (OSError, ValueError):
		        o = None
		    for p in paths:
		        try:
		            print(show(at(o, p)).replace("\n", " "))
		        except (KeyError, IndexError, ValueError, TypeError):
		            print("-1")
	PY
	)
	for F in "$@"; do
		for f in "${!k[@]}"; do
			CV[$F|${k[$f]}]=${v[$i]:--1}
			i=$((i + 1))
		done
	done
}
c()
{
	if [ -n "${CV[$1|$2]:-}" ]; then
		echo "${CV[$1|$2]}"
	else
		json_get "$1" "flows.client.$2" || echo -1
	fi
}
cload "$J" "$U" "$ST" "$SU" "$OFF" "$FU" "$FT"

# --- 1. TCP to a Linux listener, default settings ---------------------------
started=$(c "$J" started)
echo "# tcp linux: started $started completed $(c "$J" completed) failed $(c "$J" failed)" \
	"(no_reply $(c "$J" fail_reasons.no_reply) reset $(c "$J" fail_reasons.reset) retx $(c "$J" fail_reasons.retransmits_exhausted))" \
	"foreign_server $(c "$J" foreign_server) payload_mismatch $(c "$J" fail_reasons.payload_mismatch)"
check_ge "foreign tcp: connections started" "$started" 30
check_eq "foreign tcp: every connection completed" "$started" "$(c "$J" completed)"
check_eq "foreign tcp: none failed" 0 "$(c "$J" failed)"
check_eq "foreign tcp: no bad payload" 0 "$(c "$J" fail_reasons.payload_mismatch)"
check_eq "foreign tcp: each counted once as foreign_server" "$started" "$(c "$J" foreign_server)"
check_eq "foreign tcp: client received 512 B each" "$((started * 512))" "$(c "$J" rx_bytes)"
check_ge "foreign tcp: the listener answered each" "$(cat "$FG_TMP/tcp.count" 2>/dev/null || echo -1)" "$started"
check_grep "foreign tcp: stats notes the flows whose payload was not checked" \
	"^note: $started flows answered by a server that is not flowgen: payloads not checked \(-t payload_check=1 checks them\)" "$J"
check_grep "foreign tcp: stats has a foreign server row" "^foreign server +\| +$started +\| +-" "$J"

# --- 2. UDP to a Linux echo server, default settings ------------------------
started=$(c "$U" started)
echo "# udp echo: started $started completed $(c "$U" completed) failed $(c "$U" failed)" \
	"foreign_server $(c "$U" foreign_server) payload_mismatch $(c "$U" fail_reasons.payload_mismatch)"
check_ge "foreign udp: flows started" "$started" 30
check_eq "foreign udp: every flow completed" "$started" "$(c "$U" completed)"
check_eq "foreign udp: none failed" 0 "$(c "$U" failed)"
check_eq "foreign udp: no bad payload" 0 "$(c "$U" fail_reasons.payload_mismatch)"
check_eq "foreign udp: each counted once as foreign_server" "$started" "$(c "$U" foreign_server)"
check_eq "foreign udp: the echo came back, 100 B each" "$((started * 100))" "$(c "$U" rx_bytes)"
check_ge "foreign udp: the echo server answered each" "$(cat "$FG_TMP/udp.count" 2>/dev/null || echo -1)" "$started"
check_grep "foreign udp: stats notes them" "^note: $started flows answered by a server that is not flowgen" "$U"

# --- 3. payload_check=1: a server that is not flowgen fails every flow -------
for x in "tcp $ST" "udp $SU"; do
	set -- $x
	started=$(c "$2" started)
	echo "# strict $1: started $started completed $(c "$2" completed) failed $(c "$2" failed)" \
		"payload_mismatch $(c "$2" fail_reasons.payload_mismatch) foreign_server $(c "$2" foreign_server)"
	check_ge "strict $1: flows started" "$started" 15
	check_eq "strict $1: each failed as payload_mismatch" "$started" "$(c "$2" fail_reasons.payload_mismatch)"
	check_eq "strict $1: failed = started" "$started" "$(c "$2" failed)"
	check_eq "strict $1: none completed" 0 "$(c "$2" completed)"
	check_eq "strict $1: none counted foreign" 0 "$(c "$2" foreign_server)"
done

# --- 4. payload_check=0: nothing checked, nothing counted ---------------------
started=$(c "$OFF" started)
check_ge "check off tcp: connections started" "$started" 15
check_eq "check off tcp: every connection completed" "$started" "$(c "$OFF" completed)"
check_eq "check off tcp: none counted foreign" 0 "$(c "$OFF" foreign_server)"

# --- 5. flowgen on both sides ---------------------------------------------------
for x in "udp $FU 300" "tcp $FT 150"; do
	set -- $x
	started=$(c "$2" started)
	check_ge "flowgen both sides $1: flows started" "$started" "$3"
	check_ge "flowgen both sides $1: completed >= 99% of started" \
		"$(($(c "$2" completed) * 100))" "$((started * 99))"
	check_eq "flowgen both sides $1: no foreign server" 0 "$(c "$2" foreign_server)"
	check_eq "flowgen both sides $1: no bad payload" 0 "$(c "$2" fail_reasons.payload_mismatch)"
done
check_grep "flowgen both sides: stats has the foreign server row at 0" "^foreign server +\| +0 +\|" "$FT"
check_nogrep "flowgen both sides: no note in stats" "^note: .*not flowgen" "$FT"

lab_down
echo "# 28_flows_foreign.sh: $((SECONDS - T0)) s"
finish
