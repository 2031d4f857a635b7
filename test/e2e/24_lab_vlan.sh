#!/usr/bin/env bash
#
# 24_lab_vlan.sh — 802.1Q: the vlan lab (examples/lab.sh up vlan: the nat
# lab behind examples/vlan.py, which passes only frames tagged 100 on the
# inside link and 200 on the outside one) with flowgen's ports tagged
# (examples/lab_vlan.yaml). The NAT demo passes with tags: `arp` resolves
# both gateways, udp_short at 1,000 flows/s for 2 s completes every flow it
# starts and the server sees every accepted flow translated; the relay
# counts no untagged or wrongly tagged frame from the tester. Then, from
# the wire namespace, ARP requests for port 0's address reach fg0 untagged,
# with a wrong tag (300) and with the right one: only the last are
# answered, and port 0 counts the others as rx_unknown.
# First, without the lab, on a [loop, loop] pair: streams between two ports
# with vlan 100 arrive whole (tagged on TX, the tag taken off on RX), and
# with vlan on port 0 only, port 1 counts every frame as rx_unknown.

. "$(dirname "$0")/lib.sh"

need_flowgen
T0=$SECONDS

# --- part 1: loop ------------------------------------------------------------

# loop_cfg VLAN0 VLAN1 : the loop config with these ids ("" = untagged)
loop_cfg()
{
	local f=$FG_TMP/loop_vlan_$1_$2.yaml
	sed -e "/dest_mac: 02:00:00:00:00:02/a\      ${1:+vlan: $1}" \
		-e "/dest_mac: 02:00:00:00:00:01/a\      ${2:+vlan: $2}" "$(fg_loop_cfg)" >"$f"
	echo "$f"
}
# both runs at once: each is a second of paced traffic on its own pair
O1=$FG_TMP/loop_tagged.out
O2=$FG_TMP/loop_half.out
FG_TIMEOUT=60 fg_plain -C "$(loop_cfg 100 100)" \
	-x "start -f $FG_TOP/profiles/stl_64b.yaml -d 1 -m 0.2 -t learn=0,drain=0.3; wait 20; stats --json" >"$O1" 2>&1 &
p1=$!
FG_TIMEOUT=60 fg_plain -C "$(loop_cfg 100 "")" \
	-x "start -f $FG_TOP/profiles/stl_64b.yaml -d 1 -m 0.2 -t learn=0,drain=0.3; wait 20; stats --json" >"$O2" 2>&1 &
p2=$!
wait $p1 $p2
tx=$(latency_row "$O1" s64 1 tx)
check_ge "loop, both ports vlan 100: frames sent" "${tx:-0}" 100
check_eq "loop, both ports vlan 100: every frame received" "${tx:-no tx}" "$(latency_row "$O1" s64 1 rx || echo 'no rx')"
check_eq "loop, both ports vlan 100: nothing unknown" 0 "$(json_get "$O1" ports.1.rx_unknown || echo missing)"
tx=$(latency_row "$O2" s64 1 tx)
check_ge "loop, vlan on port 0 only: frames sent" "${tx:-0}" 100
check_eq "loop, vlan on port 0 only: none received as test traffic" 0 "$(latency_row "$O2" s64 1 rx || echo 'no rx')"
check_ge "loop, vlan on port 0 only: port 1 counts them as rx_unknown" \
	"$(json_get "$O2" ports.1.rx_unknown || echo missing)" "${tx:-1}"

# --- part 2: the vlan lab ----------------------------------------------------

need_root "lab up (vlan)"
# the wire namespace too, should the scenario be cut short
[ -n "$FG_RESULTS" ] && echo "fgd-$$-w" >>"$FG_RESULTS.ns"

lab_up vlan || exit 1
pass "lab up (vlan)"
CFG=$FG_TOP/examples/lab_vlan.yaml
NS_W=${NS_DUT}-w
MAC0=$(dut_mac dut0)
MAC1=$(dut_mac dut1)
FGMAC0=$(tst_mac fg0)
O=$FG_TMP/out
E=$FG_TMP/err

fg -x "arp; start -f $FG_TOP/profiles/udp_short.yaml -m 1000 -d 2; wait 10; echo MARK-INJECT; sleep 2; stats --json" \
	</dev/null >"$O" 2>"$E" &
fgpid=$!
at_exit_kill $fgpid

# inject: ARP requests for 198.18.1.2 sent at fg0 from its peer t0, 10
# untagged (asker 198.18.1.97), 10 tagged 300 (.98), 5 tagged 100 (.99);
# prints how many of each were answered within a second.
inject()
{
	ip netns exec "$NS_W" python3 - "$FGMAC0" <<-'PY'
		import socket, struct, sys, time
		me = bytes.fromhex("020000000099")
		s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0806))
		s.setsockopt(263, 8, 1)  # PACKET_AUXDATA: the tag comes as metadata
		s.bind(("t0", 0))
		def arp(last):
		    sip = bytes([198, 18, 1, last])
		    return (b"\xff" * 6 + me + b"\x08\x06" + struct.pack("!HHBBH", 1, 0x0800, 6, 4, 1) +
		            me + sip + b"\0" * 6 + bytes([198, 18, 1, 2]) + b"\0" * 18)
		def tag(f, vid):
		    return f[:12] + struct.pack("!HH", 0x8100, vid) + f[12:]
		for _ in range(10):
		    s.send(arp(97))
		    s.send(tag(arp(98), 300))
		for _ in range(5):
		    s.send(tag(arp(99), 100))
		got = {97: 0, 98: 0, 99: 0}
		s.settimeout(0.2)
		end = time.time() + 1.0
		while time.time() < end:
		    try:
		        f = s.recv(2048)
		    except socket.timeout:
		        continue
		    if len(f) >= 18 and f[12:14] == b"\x81\x00":
		        f = f[:12] + f[16:]
		    if len(f) >= 42 and f[12:14] == b"\x08\x06" and f[20:22] == b"\x00\x02" and f[32:38] == me:
		        if f[38:41] == bytes([198, 18, 1]) and f[41] in got:
		            got[f[41]] += 1
		print("untagged %d wrong %d right %d" % (got[97], got[98], got[99]))
	PY
}

if wait_for '^MARK-INJECT' "$O" 40 "$fgpid"; then
	INJ=$(inject 2>&1)
else
	INJ="flowgen never reached the injection: $(tail -c 300 "$E")"
fi
RC=0
wait "$fgpid" || RC=$?
RELAY=$("$FG_LAB" vlan stats 2>&1)
echo "# relay: $(echo "$RELAY" | tr '\n' ';')"
echo "# injected: $INJ"
check_eq "flowgen exits 0" 0 "$RC"
check_grep "arp: dut0's MAC through the trunk" "^port 0: 198.18.1.2 gw 198.18.1.1 MAC $MAC0\$" "$O"
check_grep "arp: dut1's MAC through the trunk" "^port 1: 198.19.1.2 gw 198.19.1.1 MAC $MAC1\$" "$O"
started=$(json_get "$O" flows.client.started || echo missing)
accepted=$(json_get "$O" flows.server.accepted || echo missing)
echo "# flows: started $started accepted $accepted"
check_ge "flows: the client started >= 1,900 of 2,000 flows" "$started" 1900
check_eq "flows: the client completed every started flow" "$started" "$(json_get "$O" flows.client.completed)"
check_eq "flows: the client failed none" 0 "$(json_get "$O" flows.client.failed)"
if [[ $accepted =~ ^[0-9]+$ ]] && [[ $started =~ ^[0-9]+$ ]] && [ $((accepted * 100)) -ge $((started * 99)) ]; then
	pass "flows: the server accepted >= 99 % of them"
else
	fail "flows: the server accepted >= 99 % of them" "accepted $accepted of $started"
fi
check_eq "flows: every accepted flow translated by the DUT" "$accepted" "$(json_get "$O" flows.server.translated)"
printf '%s\n' "$RELAY" >"$FG_TMP/relay"
check_grep "relay: the tester's frames all carried the right tag (port 0)" "^t0:a0 down rx [1-9][0-9]* forwarded [1-9][0-9]* untagged 0 wrong_tag 0" "$FG_TMP/relay"
check_grep "relay: the tester's frames all carried the right tag (port 1)" "^t1:a1 down rx [1-9][0-9]* forwarded [1-9][0-9]* untagged 0 wrong_tag 0" "$FG_TMP/relay"
check_eq "ARP tagged 100 at port 0: all 5 answered (the probe sees answers)" "right 5" "$(echo "$INJ" | grep -oE 'right [0-9]+')"
check_eq "ARP untagged at port 0: none answered" "untagged 0" "$(echo "$INJ" | grep -oE 'untagged [0-9]+')"
check_eq "ARP tagged 300 at port 0: none answered" "wrong 0" "$(echo "$INJ" | grep -oE 'wrong [0-9]+')"
check_ge "port 0 counts the 20 as rx_unknown" "$(json_get "$O" ports.0.rx_unknown || echo missing)" 20

echo "# 24_lab_vlan.sh: $((SECONDS - T0)) s"
finish
