#!/usr/bin/env bash
#
# 80_hostile.sh — hostile traffic at both tester ports while flows run
# through the NAT lab.
#
# flowgen runs tcp_short (-m 200), then udp_short (-m 500), through the NAT
# DUT. Meanwhile test/e2e/hostile.py, on raw sockets on dut0 and dut1 in the
# DUT namespace, sends a few thousand frames addressed to the tester ports'
# MACs: truncated Ethernet/IP/TCP headers, bad IP and L4 checksums, IP
# options, fragments, oversize frames (the veths' MTU is raised to 9000 on
# both ends so they arrive), unsolicited ARP replies (a third of them
# claiming the gateway's address with a made-up MAC), random bytes, and TCP
# segments with random flags, sequence and acknowledgement numbers on the
# tuples of live flows (learned by sniffing the tester's own segments), and
# ICMP errors (flowgen(8), ICMP ERRORS): quotes cut short, quotes of
# another protocol, quotes of a flow's frame as the other port sees it,
# and forged quotes of live flows' own frames (a TCP sequence number 2^31
# away from the flow's with a port unreachable or a fragmentation needed
# to 576 bytes; a UDP payload that is not the flow's signature).
#
# Checks: flowgen stays alive and its batch run exits 0; each port counts
# rx_bad > 0 and rx_unknown > 0; the flows stay correct; the gateway MACs
# learned by `arp` are still the DUT's real ones afterwards. ICMP: the
# errors whose quote reads (icmp_valid of both injectors, and any the DUT
# sent itself, from its /proc/net/snmp) are the ports' rx_icmp_unreach +
# rx_icmp_frag_needed, each one unmatched or invalid (those the DUT sent
# aside), none failing a flow (fail_reasons.icmp_unreachable 0) or lowering an MSS;
# the TCP run's forged live quotes count as invalid (at least one).
#
# The bound on failed flows: junk on a live tuple carries random sequence
# and acknowledgement numbers, so it lands inside a 64 KiB window with a
# chance of about 2^16 / 2^32; a correct TCP drops it (or answers with a
# challenge ACK / RST that the DUT's conntrack drops as invalid) and the flow
# goes on. So no flow should fail because of the junk. We allow 1% of
# started (completed >= 99%) for scheduling noise on a loaded machine, and
# require the counters to add up (started = completed + failed + active).

. "$(dirname "$0")/lib.sh"

need_root "hostile: lab"
HOSTILE=$FG_TOP/test/e2e/hostile.py
lab_up nat || exit 1

# Oversize frames: a 9000-byte MTU on both ends of both veths, so that frames
# larger than 1514 bytes reach the tester's ports.
for i in 0 1; do
	in_tst ip link set "fg$i" mtu 9000
	in_dut ip link set "dut$i" mtu 9000
done

MAC_FG0=$(tst_mac fg0)
MAC_FG1=$(tst_mac fg1)
MAC_DUT0=$(dut_mac dut0 | tr a-f A-F)
MAC_DUT1=$(dut_mac dut1 | tr a-f A-F)

# dut_unreach_sent : the ICMP destination unreachables the DUT sent (its
# /proc/net/snmp, Icmp OutDestUnreachs)
dut_unreach_sent()
{
	in_dut awk '$1 == "Icmp:" && !h { for (i = 2; i <= NF; i++) c[$i] = i; h = 1; next }
		$1 == "Icmp:" { print $c["OutDestUnreachs"]; exit }' /proc/net/snmp
}

# hostile_run NAME PROFILE MULT SECS COUNT PPS
hostile_run()
{
	local name=$1 prof=$2 mult=$3 secs=$4 count=$5 pps=$6 out rc=0 dut0
	out=$FG_TMP/$name.out
	dut0=$(dut_unreach_sent)
	FG_TIMEOUT=$((secs + 40)) fg -x "arp; start -f $prof -m $mult -d $secs; \
wait $((secs + 15)); stats --json; portattr; echo alive-after-$name" >"$out" 2>&1 &
	local fgpid=$!
	if ! wait_for '^started ' "$out" 30 $fgpid; then
		fail "hostile $name: traffic started" "$(tail -n 5 "$out")"
		wait $fgpid
		return 1
	fi
	in_dut python3 "$HOSTILE" --iface dut0 --dst "$MAC_FG0" --gw 198.18.1.1 \
		--tst-ip 198.18.1.2 --tst-net 198.18.0 --peer-net 198.19.0 --peer-gw 198.19.1.1 \
		--count "$count" --pps "$pps" --seed 1 >"$FG_TMP/$name.h0" 2>&1 &
	local h0=$!
	in_dut python3 "$HOSTILE" --iface dut1 --dst "$MAC_FG1" --gw 198.19.1.1 \
		--tst-ip 198.19.1.2 --tst-net 198.19.0 --peer-net 198.18.0 \
		--count "$count" --pps "$pps" --seed 2 >"$FG_TMP/$name.h1" 2>&1 &
	local h1=$!
	wait $h0 || fail "hostile $name: injector on dut0 ran" "$(tail -n 3 "$FG_TMP/$name.h0")"
	wait $h1 || fail "hostile $name: injector on dut1 ran" "$(tail -n 3 "$FG_TMP/$name.h1")"
	kill -0 $fgpid 2>/dev/null && pass "hostile $name: flowgen alive after the hostile frames" ||
		fail "hostile $name: flowgen alive after the hostile frames" "$(tail -n 5 "$out")"
	wait $fgpid || rc=$?
	echo "# $name dut0: $(cat "$FG_TMP/$name.h0")"
	echo "# $name dut1: $(cat "$FG_TMP/$name.h1")"

	if [ $rc -lt 128 ] && [ $rc -ne 124 ]; then
		pass "hostile $name: no crash (exit $rc < 128)"
	else
		fail "hostile $name: no crash (exit $rc < 128)" "exit $rc: $(tail -n 5 "$out")"
	fi
	check_eq "hostile $name: batch run exits 0" 0 "$rc"
	check_grep "hostile $name: a later command still runs" "^alive-after-$name" "$out"

	# each file's figures read by one python3 (jpre) for the json_get below
	jpre "$FG_TMP/$name.h0" sent live_junk icmp_valid
	jpre "$FG_TMP/$name.h1" sent live_junk icmp_valid
	jpre "$out" ports.0.rx_bad ports.0.rx_unknown ports.1.rx_bad ports.1.rx_unknown \
		flows.client.started flows.client.completed flows.client.failed flows.client.active \
		flows.client.fail_reasons.no_reply flows.client.fail_reasons.reset flows.client.fail_reasons.retransmits_exhausted
	hostile_icmp "$name" "$out" "$(($(dut_unreach_sent) - dut0))"
	local sent0 sent1
	sent0=$(json_get "$FG_TMP/$name.h0" sent || echo 0)
	sent1=$(json_get "$FG_TMP/$name.h1" sent || echo 0)
	check_ge "hostile $name: frames injected at port 0" "$sent0" $((count * 9 / 10))
	check_ge "hostile $name: frames injected at port 1" "$sent1" $((count * 9 / 10))
	if [ "$name" = tcp ]; then
		check_ge "hostile $name: junk sent on live TCP tuples" \
			"$(($(json_get "$FG_TMP/$name.h0" live_junk || echo 0) + \
			$(json_get "$FG_TMP/$name.h1" live_junk || echo 0)))" 1
	fi

	local p
	for p in 0 1; do
		check_ge "hostile $name: port $p rx_bad > 0" \
			"$(json_get "$out" "ports.$p.rx_bad" || echo missing)" 1
		check_ge "hostile $name: port $p rx_unknown > 0" \
			"$(json_get "$out" "ports.$p.rx_unknown" || echo missing)" 1
	done

	local started completed failed active
	started=$(json_get "$out" flows.client.started || echo 0)
	completed=$(json_get "$out" flows.client.completed || echo 0)
	failed=$(json_get "$out" flows.client.failed || echo -1)
	active=$(json_get "$out" flows.client.active || echo -1)
	echo "# $name flows: started $started completed $completed failed $failed active $active" \
		"no_reply $(json_get "$out" flows.client.fail_reasons.no_reply) reset" \
		"$(json_get "$out" flows.client.fail_reasons.reset) retransmits_exhausted $(json_get "$out" flows.client.fail_reasons.retransmits_exhausted)"
	check_ge "hostile $name: flows started" "$started" $((mult * secs * 9 / 10))
	check_ge "hostile $name: completed >= 99% of started" "$((completed * 100))" "$((started * 99))"
	check_ge "hostile $name: client.failed <= 1% of started" "$((started))" "$((failed * 100))"
	check_eq "hostile $name: started = completed + failed + active" "$started" \
		"$((completed + failed + active))"

	# The gateway MACs learned by `arp` survived the unsolicited ARP replies
	# (portattr's "gw MAC" column, ports 0 and 1).
	check_eq "hostile $name: port 0 gateway MAC unchanged" "$MAC_DUT0" \
		"$(awk '$1 == "0" && $2 ~ /^(up|down)$/ {print toupper($7)}' "$out" | tail -n 1)"
	check_eq "hostile $name: port 1 gateway MAC unchanged" "$MAC_DUT1" \
		"$(awk '$1 == "1" && $2 ~ /^(up|down)$/ {print toupper($7)}' "$out" | tail -n 1)"
}

# hostile_icmp NAME OUT DUT_SENT : the ICMP errors of run NAME (its stats
# in OUT; DUT_SENT the unreachables the DUT itself sent meanwhile)
hostile_icmp()
{
	local name=$1 out=$2 dut=$3 v valid
	mapfile -t v < <(jvals "$out" \
		"=sum(p['rx_icmp_unreach'] + p['rx_icmp_frag_needed'] for p in o['ports'])" \
		"=sum(p['icmp_err_unmatched'] + p['icmp_err_invalid'] for p in o['ports'])" \
		"=sum(p['icmp_err_kept'] + p['icmp_mss_lowered'] for p in o['ports'])" \
		"=sum(p['icmp_err_invalid'] for p in o['ports'])" flows.client.fail_reasons.icmp_unreachable)
	valid=$(($(json_get "$FG_TMP/$name.h0" icmp_valid || echo 0) + \
		$(json_get "$FG_TMP/$name.h1" icmp_valid || echo 0)))
	echo "# $name icmp: valid injected $valid, sent by the DUT $dut, received ${v[0]}," \
		"unmatched+invalid ${v[1]} (invalid ${v[3]}), kept+mss_lowered ${v[2]}, icmp_unreachable ${v[4]}"
	check_ge "hostile $name: ICMP errors injected" "$valid" 1
	check_eq "hostile $name: every readable ICMP error counted on its port (injected + the DUT's)" \
		"$((valid + dut))" "${v[0]}"
	check "hostile $name: each injected one matched no flow or was invalid" \
		test "${v[1]}" -ge "$valid" -a "${v[1]}" -le "${v[0]}"
	check "hostile $name: no flow kept, lowered or failed by them beyond the DUT's own $dut" \
		test "$((v[2] + v[4]))" -le "$dut"
	if [ "$name" = tcp ]; then
		check_ge "hostile $name: forged quotes of live TCP flows counted invalid (RFC 5927 4.1)" \
			"${v[3]}" 1
	fi
}

# Each run lasts long enough for its injections (from the start, COUNT /
# PPS seconds at most: 2.5 s and 1.5 s; the live tuples' answers count
# too, so they end sooner) to end while flowgen still runs, with 1.5 s
# to spare. What is checked does not hang on the rate: a live tuple's
# junk or forged error goes with the tuple, not with the clock, and each
# frame's chance of landing in a window is the same at any rate.
hostile_run tcp "$FG_TOP/profiles/tcp_short.yaml" 200 4 2000 800
hostile_run udp "$FG_TOP/profiles/udp_short.yaml" 500 3 1200 800

# Forged replies: the DUT drops the real server's UDP answers, and
# hostile.py --forge-replies answers each request on dut0 as the server
# would, every other answer with one byte of the payload pattern changed.
# The client checks every reply: the intact ones complete their flows, the
# changed ones fail theirs and count payload_mismatch.
T0=$SECONDS
cat >"$FG_TMP/udp_echo.yaml" <<-'YAML'
	mode: flows
	ip_gen:
	  client: {range: [198.18.0.1, 198.18.0.254], distribution: seq}
	  server: {range: [198.19.0.1, 198.19.0.254], distribution: seq}
	  client_ports: [1024, 65535]
	timeout: 1
	templates:
	  - name: udp_echo
	    proto: udp
	    port: 4322
	    cps: 1
	    client: [ {send: 100}, {recv: 100} ]
	    server: [ {recv: 100}, {send: 100} ]
YAML
in_dut nft -f - <<-NFT
	table ip fgforge {
		chain f {
			type filter hook forward priority 0;
			udp sport 4322 drop
		}
	}
NFT
in_dut python3 "$HOSTILE" --iface dut0 --dst "$MAC_FG0" --gw 198.18.1.1 \
	--tst-ip 198.18.1.2 --tst-net 198.18.0 --forge-replies 4322 --count 200 --secs 15 \
	>"$FG_TMP/forge.h0" 2>&1 &
hf=$!
# the forger listens once its packet socket for IPv4 is bound to dut0 (a
# line of the DUT namespace's /proc/net/packet, protocol 0800, interface
# not 0): before that, a request would go unanswered
listening=no
for ((k = 0; k < 100; k++)); do
	in_dut awk 'NR > 1 && $4 == "0800" && $5 != 0 { f = 1 } END { exit !f }' /proc/net/packet &&
		listening=yes && break
	kill -0 $hf 2>/dev/null || break
	sleep 0.05
done
[ $listening = yes ] || fail "forged replies: the forger listens on dut0 within 5 s" "$(cat "$FG_TMP/forge.h0")"
# 200 flows, one a request the forger answers: 200 flows/s for 1 s
out=$FG_TMP/forge.out
FG_TIMEOUT=30 fg -x "arp; start -f $FG_TMP/udp_echo.yaml -m 200 -d 1; wait; stats --json" >"$out" 2>&1
check_eq "forged replies: batch run exits 0" 0 $?
wait $hf || fail "forged replies: forger ran" "$(tail -n 3 "$FG_TMP/forge.h0")"
jpre "$out" flows.client.started flows.client.completed flows.client.failed flows.client.fail_reasons.payload_mismatch
jpre "$FG_TMP/forge.h0" bad good
echo "# forged: $(cat "$FG_TMP/forge.h0"); client: started $(json_get "$out" flows.client.started)" \
	"completed $(json_get "$out" flows.client.completed) failed $(json_get "$out" flows.client.failed)" \
	"payload_mismatch $(json_get "$out" flows.client.fail_reasons.payload_mismatch)"
bad=$(json_get "$FG_TMP/forge.h0" bad || echo 0)
good=$(json_get "$FG_TMP/forge.h0" good || echo 0)
check_ge "forged replies: the forger answered requests, both kinds" "$((good < bad ? good : bad))" 50
check_eq "forged replies: each changed payload counts payload_mismatch" "$bad" \
	"$(json_get "$out" flows.client.fail_reasons.payload_mismatch || echo -1)"
check_eq "forged replies: each intact one completes its flow" "$good" \
	"$(json_get "$out" flows.client.completed || echo -1)"
check_ge "forged replies: a bad payload fails its flow" \
	"$(json_get "$out" flows.client.failed || echo 0)" "$bad"
in_dut nft delete table ip fgforge
echo "# forged replies: $((SECONDS - T0)) s"

lab_down
finish
