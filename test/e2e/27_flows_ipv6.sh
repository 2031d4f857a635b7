#!/usr/bin/env bash
#
# 27_flows_ipv6.sh — stateful flows over IPv6 and through NAT64, in one
# nat64 lab (examples/lab.sh up nat64: the ipv6 lab's IPv6 router plus
# tayga translating 2001:db8:64::/96 and masquerade to 198.19.1.1), with
# examples/lab6.yaml.
#
# 1. UDP (request/response) and TCP flows over IPv6, flowgen on both
#    sides (refused before `arp` resolved default_gw6): every flow completes, none fails, byte counts exact, the
#    server side sees the clients untranslated.
# 2. NAT64: the same from IPv6 clients to IPv4 servers through tayga and
#    masquerade: every flow completes, the server side counts each as
#    translated, from one address, and a capture on the server port sees
#    the UDP requests come from the DUT's 198.19.1.1; `bench cps` runs
#    through it.
# 3. The Linux TCP stack as the peer over IPv6: flowgen's clients against
#    a listener at [2001:2:0:101::1]:8080 in the DUT, with default
#    settings (each flow counted as foreign_server), flowgen's UDP
#    clients against a Linux echo server at [2001:2:0:101::1]:4323 (the
#    same), then Linux clients in the DUT against flowgen's server side
#    (2001:2:0:100::10..).

. "$(dirname "$0")/lib.sh"

need_root "flows ipv6: lab"
need_flowgen
T0=$SECONDS
D=$FG_TOP/test/data
command -v tayga >/dev/null || { fail "flows ipv6: tayga installed" "apt-get install tayga"; finish; exit 1; }

lab_up nat64 || exit 1
# what the checks read of each run's figures, by one python3 a file (jpre)
JPATHS="flows.client.started flows.client.completed flows.client.failed flows.client.foreign_server flows.client.tx_bytes flows.client.rx_bytes flows.server.accepted flows.server.completed flows.server.distinct_src_addrs flows.server.translated flows.server.untranslated flows.server.tx_bytes trials.0.passed trials.0.tx trials.0.rx result.found"
CFG=$FG_TOP/examples/lab6.yaml
O=$FG_TMP/out

# --- one flowgen for all three parts (fg_open) ---------------------------------
# The Linux servers of part 3 start first: they bind while parts 1 and 2
# run.
ip netns exec "$NS_DUT" python3 "$D/flows_tcp_srv.py" 2001:2:0:101::1 8080 "$FG_TMP/srv.count" &
SRVPID=$!
at_exit "kill $SRVPID 2>/dev/null"
ip netns exec "$NS_DUT" python3 "$D/flows_udp_echo.py" 2001:2:0:101::1 4323 "$FG_TMP/echo.count" &
ECHOPID=$!
at_exit "kill $ECHOPID 2>/dev/null"
# -k: the first start fails on purpose (before `arp`)
FG_TIMEOUT=60 fg_open "$O" -k

# --- 1 and 2 ------------------------------------------------------------------
# bench throughput keeps its learning phase (RFC 2544 section 23) with a
# 0.5 s pause, not 1.5 s, and waits 0.5 s for late frames, not 2 s: the
# slowest frame through tayga took 5.6 ms (bench's latency, max_us, here)
if ! fg_run p12 "start -f $D/flows6_mix.yaml -m 100 -d 1; arp; start -f $D/flows6_mix.yaml -m 100 -d 1; wait 8; stats --json; echo MARK-NAT64; capture start -p 1 --rx --filter 'src host 198.19.1.1 and udp dst port 4321'; start -f $D/flows_nat64_mix.yaml -m 100 -d 1; wait 8; capture status; stats --json; echo MARK-CPS; bench cps -f $FG_TOP/profiles/nat64_udp.yaml -m 100 --trial 1 --resolution 50 --confirm 0 --json; echo MARK-TPUT; bench throughput -f $FG_TOP/profiles/nat64_stl.yaml -m 2 --trial 1 --resolution 50 --confirm 0 -t learn_wait=0.5,drain=0.5 --json" 40; then
	fail "flows ipv6: parts 1 and 2 ran" "$(tail -c 300 "$O")"
fi
P=$FG_TMP/p12.out
sed '/^MARK-NAT64/,$d' "$P" >"$FG_TMP/v6.json"
sed -n '/^MARK-NAT64/,/^MARK-CPS/p' "$P" >"$FG_TMP/n64.json"
sed -n '/^MARK-CPS/,/^MARK-TPUT/p' "$P" >"$FG_TMP/cps.json"
sed -n '/^MARK-TPUT/,$p' "$P" >"$FG_TMP/tput.json"

# their checks (python3 reading the runs' figures) go in a lane while
# part 3's runs go on: these are flows at 40 a second, counted, not timed
checks12()
{
	local J started tx u udp
	check_grep "ipv6 flows: before arp, start names the unresolved IPv6 next hop" \
		"port 0: IPv6 next-hop MAC unknown \(run .arp. first: it resolves default_gw6" "$FG_TMP/v6.json"
	J=$FG_TMP/v6.json
	jpre "$J" $JPATHS
	started=$(json_get "$J" flows.client.started || echo 0)
	check_ge "ipv6 flows: about 200 flows started (UDP and TCP)" "$started" 150
	check_eq "ipv6 flows: every flow completed" "$started" "$(json_get "$J" flows.client.completed || echo -1)"
	check_eq "ipv6 flows: no flow failed" 0 "$(json_get "$J" flows.client.failed || echo -1)"
	check_eq "ipv6 flows: flowgen's server is no foreign server" 0 "$(json_get "$J" flows.client.foreign_server || echo -1)"
	check_eq "ipv6 flows: the server completed each" "$started" "$(json_get "$J" flows.server.completed || echo -1)"
	# UDP flows send 100 B and get 200 B back, TCP ones 64 B and 3000 B; the
	# templates alternate, so u UDP flows are half of them, rounded either way
	tx=$(json_get "$J" flows.client.tx_bytes || echo 0)
	u=$(((tx - started * 64) / 36))
	check "ipv6 flows: half the flows UDP ($u of $started)" test $((u * 2 - started)) -ge -1 -a $((u * 2 - started)) -le 1
	check_eq "ipv6 flows: client bytes sent" "$((u * 100 + (started - u) * 64))" "$tx"
	check_eq "ipv6 flows: client bytes received" "$((u * 200 + (started - u) * 3000))" "$(json_get "$J" flows.client.rx_bytes || echo -1)"
	check_eq "ipv6 flows: the router does not translate" "$started" "$(json_get "$J" flows.server.untranslated || echo -1)"

	J=$FG_TMP/n64.json
	jpre "$J" $JPATHS
	started=$(json_get "$J" flows.client.started || echo 0)
	check_ge "nat64 flows: about 200 flows started (UDP and TCP)" "$started" 150
	check_eq "nat64 flows: every flow completed" "$started" "$(json_get "$J" flows.client.completed || echo -1)"
	check_eq "nat64 flows: no flow failed" 0 "$(json_get "$J" flows.client.failed || echo -1)"
	check_eq "nat64 flows: flowgen's server is no foreign server" 0 "$(json_get "$J" flows.client.foreign_server || echo -1)"
	check_eq "nat64 flows: the IPv4 server side accepted each" "$started" "$(json_get "$J" flows.server.accepted || echo -1)"
	check_eq "nat64 flows: each translated" "$started" "$(json_get "$J" flows.server.translated || echo -1)"
	check_eq "nat64 flows: from one address (masquerade)" 1 "$(json_get "$J" flows.server.distinct_src_addrs || echo -1)"
	udp=$(grep -Eo 'frames [0-9]+' "$J" | head -1 | cut -d' ' -f2)
	tx=$(json_get "$J" flows.client.tx_bytes || echo 0)
	u=$(((tx - started * 64) / 36))
	check "nat64 flows: half the flows UDP ($u of $started)" test $((u * 2 - started)) -ge -1 -a $((u * 2 - started)) -le 1
	check_eq "nat64 flows: every UDP request came from the DUT's 198.19.1.1" "$u" "${udp:--1}"

	J=$FG_TMP/cps.json
	jpre "$J" $JPATHS
	check_eq "nat64 bench cps: the 100 cps trial passes" True "$(json_get "$J" trials.0.passed || echo -1)"
	check_eq "nat64 bench cps: found" True "$(json_get "$J" result.found || echo -1)"

	# bench throughput through NAT64 (the RFC 8219 method): IPv6 frames in,
	# the same signature counted on the IPv4 side
	J=$FG_TMP/tput.json
	jpre "$J" $JPATHS
	check_eq "nat64 bench throughput: the 2,000 fps trial passes" True "$(json_get "$J" trials.0.passed || echo -1)"
	check_eq "nat64 bench throughput: its frames all arrived, as IPv4" "$(json_get "$J" trials.0.tx || echo -1)" \
		"$(json_get "$J" trials.0.rx || echo -2)"
	check_eq "nat64 bench throughput: found" True "$(json_get "$J" result.found || echo -1)"
}

# --- 3. Linux TCP over IPv6, both roles ----------------------------------------
# both bound before the first flow (python starts slowly on a busy machine)
for ((i = 0; i < 50; i++)); do
	in_dut ss -Hltn 'sport = :8080' | grep -q . && in_dut ss -Hlun 'sport = :4323' | grep -q . && break
	sleep 0.2
done
# the server side runs from its start until the Linux clients are done.
# The runs against Linux go at 40 a second for 0.625 s, not 20 for 1 s:
# 25 flows, and a stall of 0.25 s still leaves the 15 checked (at 20 for
# 1 s, 20 flows, the same 0.25 s)
fg_send linux "start -f $D/flows6_linux_srv.yaml -m 40 -d 0.625; wait 8; stats --json; echo MARK-UDP; start -f $D/flows6_linux_udp.yaml -m 40 -d 0.625; wait 8; stats --json; echo MARK-CLI; start -f $D/flows6_linux_cli.yaml -p 1"
lane p12 checks12
if fg_wait linux 30; then
	in_dut timeout 15 python3 "$D/flows_tcp_cli.py" 2001:2:0:100::10 8080 20 >"$FG_TMP/cli.txt" 2>&1
else
	fail "flows ipv6 linux: first run ended" "$(tail -c 300 "$O")"
fi
fg_run linux_end "sleep 0.5; stop; stats --json"
fg_close
kill -TERM $SRVPID $ECHOPID 2>/dev/null
wait $SRVPID $ECHOPID 2>/dev/null
lane_end p12
sed -n '/^MARK-p12$/,/^MARK-UDP/p' "$O" >"$FG_TMP/lsrv.json"
sed -n '/^MARK-UDP/,/^MARK-CLI/p' "$O" >"$FG_TMP/lecho.json"
sed -n '/^MARK-CLI/,$p' "$O" >"$FG_TMP/lcli.json"

J=$FG_TMP/lsrv.json
jpre "$J" $JPATHS
started=$(json_get "$J" flows.client.started || echo 0)
check_ge "ipv6 linux server: connections started" "$started" 15
check_eq "ipv6 linux server: every connection completed" "$started" "$(json_get "$J" flows.client.completed || echo -1)"
check_eq "ipv6 linux server: none failed" 0 "$(json_get "$J" flows.client.failed || echo -1)"
check_eq "ipv6 linux server: each counted as foreign_server" "$started" "$(json_get "$J" flows.client.foreign_server || echo -1)"
check_eq "ipv6 linux server: client received 512 B each" "$((started * 512))" "$(json_get "$J" flows.client.rx_bytes || echo -1)"
check_ge "ipv6 linux server: the listener answered each" "$(cat "$FG_TMP/srv.count" 2>/dev/null || echo -1)" "$started"

J=$FG_TMP/lecho.json
jpre "$J" $JPATHS
started=$(json_get "$J" flows.client.started || echo 0)
check_ge "ipv6 linux udp echo: flows started" "$started" 15
check_eq "ipv6 linux udp echo: every flow completed" "$started" "$(json_get "$J" flows.client.completed || echo -1)"
check_eq "ipv6 linux udp echo: none failed" 0 "$(json_get "$J" flows.client.failed || echo -1)"
check_eq "ipv6 linux udp echo: each counted as foreign_server" "$started" "$(json_get "$J" flows.client.foreign_server || echo -1)"
check_eq "ipv6 linux udp echo: client received 100 B each" "$((started * 100))" "$(json_get "$J" flows.client.rx_bytes || echo -1)"
check_ge "ipv6 linux udp echo: the echo server answered each" "$(cat "$FG_TMP/echo.count" 2>/dev/null || echo -1)" "$started"

J=$FG_TMP/lcli.json
jpre "$J" $JPATHS
check_eq "ipv6 linux clients: 20 exchanges of 64/512 B" "ok 20 1280 10240" "$(cat "$FG_TMP/cli.txt" 2>/dev/null)"
check_eq "ipv6 linux clients: server completed 20" 20 "$(json_get "$J" flows.server.completed || echo -1)"
check_eq "ipv6 linux clients: server sent 512 B each" 10240 "$(json_get "$J" flows.server.tx_bytes || echo -1)"

echo "# 27_flows_ipv6.sh: $((SECONDS - T0)) s"
finish
