#!/usr/bin/env bash
#
# 52_flows_tcp.sh — stateful TCP flows through the lab of examples/lab.sh.
#
# 1. NAT lab, tcp_short at 500 connections/s: they complete, and the DUT's
#    conntrack shows ASSURED TCP entries while the run goes on.
# 2. flowgen's TCP client against a Linux listener (198.19.1.1:8080 in the
#    DUT namespace), with default settings (its flows counted as
#    foreign_server, 28_flows_foreign.sh), and Linux TCP clients against
#    flowgen's server side (198.19.0.x via 198.19.1.2): every exchange has
#    the right byte counts.
# 3. 5% loss on dut1 (netem, or nftables where netem is missing): UDP flows fail as no_reply at about that
#    rate; TCP flows still complete, with retransmissions counted. The UDP
#    run takes profiles/udp_short.yaml with a flow timeout of 1 s instead
#    of its default 3 (flowgen-profile(5), timeout): a datagram that gets
#    through reaches flowgen's server side within milliseconds on the
#    lab's veths, one that is lost fails as no_reply at its timeout, so
#    the run ends 1 s after its last flow instead of 3 s.

. "$(dirname "$0")/lib.sh"

need_root "flows tcp: lab"
D=$FG_TOP/test/data

lab_up nat || exit 1
# the Linux listener of section 2 starts now, while flowgen starts (it
# binds the DUT's own 198.19.1.1: the NAT's forwarded traffic of section 1
# does not reach it)
ip netns exec "$NS_DUT" python3 "$D/flows_tcp_srv.py" 198.19.1.1 8080 "$FG_TMP/srv.count" &
SRVPID=$!
at_exit "kill $SRVPID 2>/dev/null"
# One flowgen makes every run below (fg_open: one start-up, one arp);
# `start` clears the counters, so each run's figures are its own.
FG_TIMEOUT=150 fg_open "$FG_TMP/session.out"
# what the checks read of each run's figures, by one python3 a run (jpre)
JPATHS="flows.client.started flows.client.completed flows.client.failed flows.client.foreign_server flows.client.tx_bytes flows.client.rx_bytes flows.client.fail_reasons.no_reply flows.client.retx flows.server.accepted flows.server.completed flows.server.rx_bytes flows.server.tx_bytes flows.server.retx"

# --- 1. tcp_short through the NAT ------------------------------------------
fg_send tcp "arp; start -f $FG_TOP/profiles/tcp_short.yaml -m 500 -d 3; wait 12; stats --json"
# conntrack 2 s into the run
wait_for '^started ' "$FG_SOUT" 30 "$FG_SPID"
sleep 2
in_dut conntrack -L -p tcp >"$FG_TMP/ct.txt" 2>/dev/null
fg_wait tcp
J=$FG_TMP/tcp.out
jpre "$J" $JPATHS
started=$(json_get "$J" flows.client.started || echo 0)
completed=$(json_get "$J" flows.client.completed || echo 0)
# 90 % of the 500 a second for 3 s
check_ge "flows tcp nat: about 1,500 connections started" "$started" 1350
check_ge "flows tcp nat: completed >= 99% of started" "$((completed * 100))" "$((started * 99))"
check_eq "flows tcp nat: client received 512 B per completed flow" "$((completed * 512))" \
	"$(json_get "$J" flows.client.rx_bytes || echo -1)"
check_grep "flows tcp nat: conntrack shows ASSURED TCP entries" 'tcp .*ASSURED' "$FG_TMP/ct.txt"

# --- 2. Linux interoperability ----------------------------------------------
# listening before the first SYN (python starts slowly on a busy machine)
for ((i = 0; i < 50; i++)); do
	in_dut ss -Hltn 'sport = :8080' | grep -q . && break
	sleep 0.2
done
fg_run lsrv "start -f $D/flows_linux_srv.yaml -m 20 -d 2; wait 10; stats --json"
kill -TERM $SRVPID
wait $SRVPID 2>/dev/null
# flowgen's server side only (-p 1: the pair does not generate), from its
# start until the clients are done; this run's figures are checked
# meanwhile (fg_wait copied them)
fg_send lcli.start "start -f $D/flows_linux_cli.yaml -p 1"
J=$FG_TMP/lsrv.out
jpre "$J" $JPATHS
started=$(json_get "$J" flows.client.started || echo 0)
check_ge "flows tcp linux server: connections started" "$started" 30
check_eq "flows tcp linux server: every connection completed" "$started" \
	"$(json_get "$J" flows.client.completed || echo -1)"
check_eq "flows tcp linux server: none failed" 0 "$(json_get "$J" flows.client.failed || echo -1)"
# its 512 zero bytes are not flowgen's pattern: counted, not checked
check_eq "flows tcp linux server: each counted as foreign_server" "$started" \
	"$(json_get "$J" flows.client.foreign_server || echo -1)"
check_eq "flows tcp linux server: client sent 64 B each" "$((started * 64))" \
	"$(json_get "$J" flows.client.tx_bytes || echo -1)"
check_eq "flows tcp linux server: client received 512 B each" "$((started * 512))" \
	"$(json_get "$J" flows.client.rx_bytes || echo -1)"
# stats is sampled every 100 ms: the listener may count one more than the
# snapshot taken right at the end of the run.
check_ge "flows tcp linux server: the listener answered each" \
	"$(cat "$FG_TMP/srv.count" 2>/dev/null || echo -1)" "$started"

fg_wait lcli.start
in_dut timeout 20 python3 "$D/flows_tcp_cli.py" 198.19.0.10 8080 50 >"$FG_TMP/cli.txt" 2>&1
fg_run lcli "sleep 0.5; stop; stats --json"
J=$FG_TMP/lcli.out
jpre "$J" $JPATHS
check_eq "flows tcp linux clients: 50 exchanges of 64/512 B" "ok 50 3200 25600" \
	"$(cat "$FG_TMP/cli.txt")"
check_eq "flows tcp linux clients: server accepted 50" 50 \
	"$(json_get "$J" flows.server.accepted || echo -1)"
check_eq "flows tcp linux clients: server completed 50" 50 \
	"$(json_get "$J" flows.server.completed || echo -1)"
check_eq "flows tcp linux clients: server received 64 B each" 3200 \
	"$(json_get "$J" flows.server.rx_bytes || echo -1)"
check_eq "flows tcp linux clients: server sent 512 B each" 25600 \
	"$(json_get "$J" flows.server.tx_bytes || echo -1)"
check_eq "flows tcp linux clients: no flow generated" 0 \
	"$(json_get "$J" flows.client.started || echo -1)"

# --- 3. 5% loss on the DUT's outside interface ------------------------------
# netem when the kernel has it, else an nftables rule dropping 5% of what
# the DUT forwards through dut1 (both directions).
dut_loss 5
{
	cat "$FG_TOP/profiles/udp_short.yaml"
	echo "timeout: 1"
} >"$FG_TMP/udp_short_t1.yaml"
fg_run uloss "start -f $FG_TMP/udp_short_t1.yaml -m 1000 -d 2; wait 10; stats --json"
# the TCP run starts while the UDP run's figures are checked
fg_send tloss "start -f $FG_TOP/profiles/tcp_short.yaml -m 200 -d 2; wait 15; stats --json"
J=$FG_TMP/uloss.out
jpre "$J" $JPATHS
started=$(json_get "$J" flows.client.started || echo 0)
nr=$(json_get "$J" flows.client.fail_reasons.no_reply || echo 0)
# five sixths of the 1,000 a second for 2 s
check_ge "flows loss udp: flows started" "$started" 1667
check_ge "flows loss udp: no_reply >= 2%" "$((nr * 100))" "$((started * 2))"
check_ge "flows loss udp: no_reply <= 10%" "$((started * 10))" "$((nr * 100))"
check_eq "flows loss udp: failures are no_reply" "$nr" \
	"$(json_get "$J" flows.client.failed || echo -1)"
fg_wait tloss
J=$FG_TMP/tloss.out
jpre "$J" $JPATHS
started=$(json_get "$J" flows.client.started || echo 0)
completed=$(json_get "$J" flows.client.completed || echo 0)
retx=$(( $(json_get "$J" flows.client.retx || echo 0) + $(json_get "$J" flows.server.retx || echo 0) ))
# five sixths of the 200 a second for 2 s
check_ge "flows loss tcp: flows started" "$started" 334
check_ge "flows loss tcp: completed >= 90% of started" "$((completed * 100))" "$((started * 90))"
echo "# tcp under loss: $completed of $started completed, retx $retx"
check_ge "flows loss tcp: retransmissions counted" "$retx" 1
$LOSS_UNDO
fg_close
check_eq "flows tcp: every command succeeded, flowgen exits 0" 0 "$FG_SRC"
lab_down

finish
