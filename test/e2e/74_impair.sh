#!/usr/bin/env bash
#
# 74_impair.sh — examples/impair.py, the userspace stand-in for tc netem, on
# its own: the router lab with the wire namespace in the outside link
# (fg1 <-> wi ~ impair.py ~ wo <-> dut1), measured with kernel tools only.
# fg1 gets a temporary 198.19.1.2/24 so the DUT can ping across the wire,
# and a permanent neighbour entry for the DUT: fg1's kernel would otherwise
# probe the DUT's address 5 s after its first reply (the entry it learnt
# from the DUT's ARP request is stale), and the DUT's answer would add a
# frame to the relay's counts of the pings.
#
# - plain relay: no ping lost; 3 kpps of 64-byte and 1 kpps of 1514-byte
#   frames (1518 with the FCS) each way for 1 s, both ways at once, arrive
#   complete and in order;
# - --delay 2 (DUT to tester only): every RTT >= 2 ms, below base + 3 ms;
# - --loss 20: 500 pings lose 13-27 %; the relay drops as many again with
#   the same seed (its own counters: a reply the responder misses would
#   change the ping count, not the relay's decisions);
# - --duplicate 50: ping shows DUP! replies;
# - flowgen's latency stream through --delay 3 and --delay 30: the minimum
#   latency is never below the delay and within 0.3 ms of it (the TSC rate
#   flowgen measures at start-up, not DPDK's rounded one);
# - a stream stopped while the relay (--delay 400) still holds its frames,
#   then a new run: the old frames are counted as stale, the new run has
#   rx = tx and nothing lost;
# - --reorder 30 without delay: frames are swapped, nothing lost;
# - counters at stop; `down` removes the wire namespace and the relay.
#
# flowgen's runs (the latency, stale and corrupt cases) go through a second
# lab like the first, its own wire namespace and relay, brought up beside
# the first: they run in a lane once the pings through --delay 2 (an RTT
# bound) are done, beside the cases that count (loss, duplicate, reorder),
# whose figures no CPU shared with flowgen changes (the relay's decisions
# follow its seed and the frames' order). The pings go out every 1 ms (2
# through the delay), a few in flight at once at most.

. "$(dirname "$0")/lib.sh"

export FG_IMPAIR=1
# the flowgen runs' lab (the header says why a second one)
L2T=fgt-$$-fg L2D=fgd-$$-fg
if [ -n "$FG_RESULTS" ]; then
	echo "$L2T $L2D" >>"$FG_RESULTS.ns"
	echo "$L2D-w" >>"$FG_RESULTS.ns"
fi
at_exit "FG_NS_TST=$L2T FG_NS_DUT=$L2D \"$FG_LAB\" down"
FG_NS_TST=$L2T FG_NS_DUT=$L2D "$FG_LAB" up router >"$FG_TMP/lab2.out" 2>&1 &
L2PID=$!
lab_up router || finish
NS_WIRE=${NS_DUT}-w
if [ -n "$FG_RESULTS" ]; then
	echo "$NS_WIRE" >>"$FG_RESULTS.ns"
fi
at_exit "\"$FG_LAB\" down"

check "wire namespace exists" ip netns exec "$NS_WIRE" true
check "the wire namespace has no address" \
	bash -c "! ip -n '$NS_WIRE' -4 addr show | grep -q inet\ .*scope\ global"
in_tst ip addr add 198.19.1.2/24 dev fg1
in_tst ip neigh replace 198.19.1.1 lladdr "$(dut_mac dut1)" dev fg1 nud permanent

# ping_run FILE ARGS... : ping from the DUT to fg1
ping_run()
{
	local f=$1
	shift
	in_dut ping -n -q "$@" 198.19.1.2 >"$f" 2>&1 || true
}

# received FILE : replies received (duplicates not counted)
received()
{
	sed -n 's/.* \([0-9]*\) received.*/\1/p' "$1"
}

# rtt FILE min|avg|max : ms
rtt()
{
	awk -F'[/ =]+' -v w="$2" '/^rtt/ { i = (w == "min") ? 6 : (w == "avg") ? 7 : 8; print $i }' "$1"
}

# lt A B : A < B (decimals; awk, not a python3 per call; a value that is
# not a number is never less)
lt()
{
	[[ $1 =~ ^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$ ]] &&
		[[ $2 =~ ^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$ ]] &&
		awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 < b + 0) }'
}

check_lt()
{
	if lt "$2" "$3"; then pass "$1"; else fail "$1" "expected < $3, got '$2'"; fi
}

# --- plain relay ---------------------------------------------------------------

out=$FG_TMP/plain.ping
ping_run "$out" -c 300 -i 0.001 -W 1
check_eq "plain relay: 300 pings, none lost" 300 "$(received "$out")"
base=$(rtt "$out" avg)
echo "# plain relay RTT min/avg/max: $(rtt "$out" min)/$base/$(rtt "$out" max) ms"

# blast TAG NS_TX IF_TX NS_RX IF_RX PPS SIZE SECONDS : frames counted on
# arrival (ethertype 0x88b5, a sequence number each); prints "sent received
# inorder", the sender's rate in $FG_TMP/tx.TAG.out (its second field).
# Blasts of different TAGs may run at once (one each way).
cat >"$FG_TMP/blast.py" <<-'PY'
	import socket, struct, sys, time, select
	role, ifn = sys.argv[1], sys.argv[2]
	ETH = 0x88B5
	s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH) if role == "rx" else 0)
	s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
	s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 8 << 20)
	if role == "rx":
	    s.bind((ifn, ETH))
	    open(sys.argv[3], "w").write("ready\n")
	    n = inorder = 0
	    last = -1
	    end = time.time() + float(sys.argv[4])
	    while time.time() < end:
	        r, _, _ = select.select([s], [], [], 0.2)
	        if not r:
	            continue
	        f, a = s.recvfrom(4096)
	        # not the frames this interface sends (a blast the other way)
	        if a[2] == socket.PACKET_OUTGOING or len(f) < 22 or f[14:18] != b"FGIM":
	            continue
	        q = struct.unpack_from("!I", f, 18)[0]
	        n += 1
	        inorder += q > last
	        last = max(last, q)
	        if q == 0xFFFFFFFF:
	            break
	    print(n - 1, inorder - 1)
	else:
	    dst = bytes.fromhex(sys.argv[3].replace(":", ""))
	    pps, size, secs = float(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6])
	    s.bind((ifn, 0))
	    src = bytes.fromhex(open("/sys/class/net/%s/address" % ifn).read().strip().replace(":", ""))
	    hdr = dst + src + struct.pack("!H", ETH) + b"FGIM"
	    total = int(pps * secs)
	    t0 = time.monotonic()
	    for i in range(total):
	        due = t0 + i / pps
	        d = due - time.monotonic()
	        if d > 0.0005:
	            time.sleep(d)
	        f = hdr + struct.pack("!I", i)
	        s.send(f + b"\0" * (size - len(f)))
	    rate = total / (time.monotonic() - t0)
	    time.sleep(0.3)
	    f = hdr + struct.pack("!I", 0xFFFFFFFF)
	    s.send(f + b"\0" * (size - len(f)))
	    print(total, "%.0f" % rate)
PY

blast()
{
	local tag=$1 ntx=$2 itx=$3 nrx=$4 irx=$5 pps=$6 size=$7 secs=$8 dst rdy=$FG_TMP/rx.$1.ready i
	dst=$(ip netns exec "$nrx" cat "/sys/class/net/$irx/address")
	rm -f "$rdy"
	ip netns exec "$nrx" python3 "$FG_TMP/blast.py" rx "$irx" "$rdy" $((secs + 5)) >"$FG_TMP/rx.$tag.out" &
	local rxpid=$!
	for ((i = 0; i < 50; i++)); do [ -f "$rdy" ] && break; sleep 0.05; done
	ip netns exec "$ntx" python3 "$FG_TMP/blast.py" tx "$itx" "$dst" "$pps" "$size" "$secs" >"$FG_TMP/tx.$tag.out"
	wait $rxpid
	echo "$(cut -d' ' -f1 "$FG_TMP/tx.$tag.out") $(cat "$FG_TMP/rx.$tag.out")"
}

# both ways at once: the relay carries the two directions together
for spec in 3000:64 1000:1514; do
	IFS=: read -r pps size <<<"$spec"
	blast ab "$NS_TST" fg1 "$NS_DUT" dut1 "$pps" "$size" 1 >"$FG_TMP/res.ab" &
	b_ab=$!
	blast ba "$NS_DUT" dut1 "$NS_TST" fg1 "$pps" "$size" 1 >"$FG_TMP/res.ba" &
	b_ba=$!
	wait $b_ab $b_ba
	for dir in ab ba; do
		read -r sent got inorder <"$FG_TMP/res.$dir"
		echo "# plain relay $dir $pps pps x $size B: sent $sent, received $got, in order $inorder (tx rate $(cut -d' ' -f2 "$FG_TMP/tx.$dir.out") pps)"
		check_ge "plain relay $dir: $pps pps of $size B, all sent" "${sent:-0}" "$pps"
		check_eq "plain relay $dir: $pps pps of $size B, none lost" "$sent" "$got"
		check_eq "plain relay $dir: $pps pps of $size B, in order" "$sent" "$inorder"
	done
done

# --- delay ---------------------------------------------------------------------

"$FG_LAB" impair --delay 2 --dir ba --seed 7
out=$FG_TMP/delay.ping
ping_run "$out" -c 100 -i 0.002 -W 1
check_eq "delay 2ms: no ping lost" 100 "$(received "$out")"
mn=$(rtt "$out" min)
mx=$(rtt "$out" max)
avg=$(rtt "$out" avg)
echo "# delay 2 ms one way: RTT min/avg/max $mn/$avg/$mx ms (plain avg $base)"
check "delay 2ms: min RTT >= 2 ms ($mn)" lt 1.999 "$mn"
check_lt "delay 2ms: avg RTT < 3 ms + plain avg" "$avg" "$(python3 -c "print(3 + ${base:-0})")"
"$FG_LAB" impair stats >"$FG_TMP/delay.stats"
cat "$FG_TMP/delay.stats" | sed 's/^/# /'
check_grep "delay 2ms: counters show the delayed direction" '^ba rx=[1-9].* impaired=1' "$FG_TMP/delay.stats"

# --- flowgen through the relay (the second lab; a lane) ----------------------

# imp ARGS... : lab.sh impair in the second lab
imp()
{
	FG_NS_TST=$L2T FG_NS_DUT=$L2D "$FG_LAB" impair "$@"
}

fg_lane()
{
	local NS_TST=$L2T NS_DUT=$L2D d out mn tx rx stale ncor started bad0 t_fg
	t_fg=$SECONDS
	SP=$FG_TOP/test/data/streams_router.yaml
	for d in 3 30; do
		imp --delay "$d" --dir ba
		out=$FG_TMP/fg_delay$d.out
		fg -x "arp; start -f $SP -d 0.5 -t learn_wait=0.1,drain=0.2; wait 30; stats --json" >"$out" 2>&1
		latency_pre "$out"
		mn=$(latency_row "$out" lat 1 min_us)
		echo "# flowgen through --delay $d: latency min/avg/max $mn/$(latency_row "$out" lat 1 avg_us)/$(latency_row "$out" lat 1 max_us) us, tsc_hz $(json_get "$out" global.tsc_hz)"
		check_ge "flowgen through --delay $d: frames measured" "$(latency_row "$out" lat 1 rx)" 500
		check "flowgen through --delay $d: min latency >= $d ms ($mn us)" lt "$((d * 1000 - 1)).999" "${mn:-0}"
		check_lt "flowgen through --delay $d: min latency within 0.3 ms of it" "${mn:-1e9}" "$((d * 1000 + 300))"
	done

	# Run 1 stops (no drain) while the relay holds 0.4 s of its frames; run 2
	# starts at once, without learning, and drains long enough for its own.
	imp --delay 400 --dir ba
	out=$FG_TMP/fg_stale.out
	fg -x "arp; start -f $SP -d 0.5 -t learn=0,drain=0; wait 30; start -f $SP -d 0.5 -t learn=0,drain=0.6; wait 30; stats --json" >"$out" 2>&1
	latency_pre "$out"
	tx=$(latency_row "$out" lat 1 tx); rx=$(latency_row "$out" lat 1 rx); stale=$(latency_row "$out" lat 1 stale)
	echo "# run after a stopped run through --delay 400: tx $tx rx $rx lost $(latency_row "$out" lat 1 lost) dup $(latency_row "$out" lat 1 dup) stale $stale"
	check_ge "next run: the previous run's frames arrive during it (stale)" "${stale:-0}" 100
	check_ge "next run: frames sent" "${tx:-0}" 500
	check_eq "next run: rx = tx (no frame of the run before counted)" "${tx:-no tx}" "${rx:-no rx}"
	check_eq "next run: nothing lost" 0 "$(latency_row "$out" lat 1 lost)"
	check_eq "next run: no duplicates" 0 "$(latency_row "$out" lat 1 dup)"
	echo "# flowgen through the relay: $((SECONDS - t_fg)) s"

	# corrupt: flowgen's TCP through bad frames. One bit flipped in 10 % of the server's segments that carry data (ab:
	# fg1 to the DUT; tcp_short's 512-byte responses), by turns in the payload
	# and in the TCP checksum, checksums left as they were: the client must
	# count each as a bad frame, also those whose payload is still the stream
	# pattern (the client finishes their checksum with the pattern's sum,
	# pkt_parse_defer()), and take the segment when it is sent again.
	imp --corrupt 10 --dir ab --seed 9
	out=$FG_TMP/fg_corrupt.out
	fg -x "arp; start -f $FG_TOP/profiles/tcp_short.yaml -m 200 -d 2; wait 30; stats --json" >"$out" 2>&1
	imp stats >"$FG_TMP/corrupt.stats"
	ncor=$(sed -n 's/^ab rx=.* corrupted=\([0-9]*\).*/\1/p' "$FG_TMP/corrupt.stats")
	jpre "$out" flows.client.started flows.client.completed flows.client.failed \
		flows.client.fail_reasons.payload_mismatch ports.0.rx_bad ports.1.rx_bad
	started=$(json_get "$out" flows.client.started)
	bad0=$(json_get "$out" ports.0.rx_bad)
	echo "# corrupt 10 %: the relay corrupted ${ncor:-?} frames; flowgen: started ${started:-?}, completed $(json_get "$out" flows.client.completed), failed $(json_get "$out" flows.client.failed), rx_bad ${bad0:-?} on the client port"
	check_ge "corrupt: the relay corrupted frames" "${ncor:-0}" 20
	check_ge "corrupt: connections started" "${started:-0}" 300
	check_eq "corrupt: every connection completed" "${started:-x}" "$(json_get "$out" flows.client.completed)"
	check_eq "corrupt: none failed" 0 "$(json_get "$out" flows.client.failed || echo missing)"
	check_eq "corrupt: no payload taken as wrong" 0 "$(json_get "$out" flows.client.fail_reasons.payload_mismatch || echo missing)"
	check_eq "corrupt: the client port counted every corrupted frame as bad" "${ncor:-x}" "${bad0:-y}"
	check_eq "corrupt: nothing bad on the server port" 0 "$(json_get "$out" ports.1.rx_bad || echo missing)"
	FG_NS_TST=$L2T FG_NS_DUT=$L2D "$FG_LAB" down >/dev/null 2>&1
}
if ! wait "$L2PID"; then
	fail "the flowgen runs' lab up (router, wire)" "$(cat "$FG_TMP/lab2.out")"
fi
lane fg fg_lane

# --- loss ----------------------------------------------------------------------

"$FG_LAB" impair --loss 20 --dir ba --seed 11
out=$FG_TMP/loss1.ping
ping_run "$out" -c 500 -i 0.001 -W 1
got1=$(received "$out")
pct=$(python3 -c "print(100 - ${got1:-0} / 5.0)")
echo "# loss 20 %: $got1 of 500 pings answered ($pct % lost)"
if lt 13 "$pct" && lt "$pct" 27; then
	pass "loss 20%: 500 pings lose 13-27 % ($pct %)"
else
	fail "loss 20%: 500 pings lose 13-27 %" "got $pct %"
fi
# ba_drops : what the relay received and dropped in the impaired
# direction, from its own counters (a reply the responder misses would
# change the ping count, not the relay's decisions)
ba_drops()
{
	"$FG_LAB" impair stats | sed -n 's/^ba rx=\([0-9]*\) .* dropped=\([0-9]*\) .*/\1 \2/p'
}
drops1=$(ba_drops)
"$FG_LAB" impair --loss 20 --dir ba --seed 11
out=$FG_TMP/loss2.ping
ping_run "$out" -c 500 -i 0.001 -W 1
echo "# loss 20 %, again: $(received "$out") of 500 answered; relay (rx dropped) $drops1, then $(ba_drops)"
check_eq "loss 20%: the relay saw the 500 requests" 500 "${drops1%% *}"
check_eq "loss 20%: same seed, same loss: the relay drops as many of the same 500 requests" \
	"$drops1" "$(ba_drops)"

# --- duplicate -----------------------------------------------------------------

"$FG_LAB" impair --duplicate 50 --dir ba --seed 3
out=$FG_TMP/dup.ping
in_dut ping -n -c 40 -i 0.005 -W 1 198.19.1.2 >"$out" 2>&1 || true
ndup=$(grep -c 'DUP!' "$out" || true)
echo "# duplicate 50 %: $ndup DUP! replies of 40"
check_ge "duplicate 50%: ping shows DUP! replies" "$ndup" 5

# --- reorder without delay: swap ----------------------------------------------------

"$FG_LAB" impair --reorder 30 --dir ab --seed 5
res=$(blast ro "$NS_TST" fg1 "$NS_DUT" dut1 1000 64 1)
read -r sent got inorder <<<"$res"
echo "# reorder 30 %: sent $sent, received $got, in order $inorder"
check_ge "reorder 30%: all sent" "${sent:-0}" 1000
check_eq "reorder 30%: nothing lost" "$sent" "$got"
if [ -n "$inorder" ] && [ "$inorder" -lt "$sent" ] && [ "$inorder" -gt $((sent / 2)) ]; then
	pass "reorder 30%: some frames arrive out of order"
else
	fail "reorder 30%: some frames arrive out of order" "$inorder of $sent in order"
fi

# --- stop, counters, down --------------------------------------------------------------

pidf=/run/fg-impair-$NS_WIRE.pid
[ -d /run ] && [ -w /run ] || pidf=/tmp/fg-impair-$NS_WIRE.pid
pid=$(cat "$pidf" 2>/dev/null)
"$FG_LAB" impair off
check "impair off: the relay is gone" pid_gone "$pid"
check_grep "impair off: final counters written" '^ab rx=[0-9]+ forwarded=[0-9]+ dropped=0 duplicated=0 reordered=[1-9]' \
	"${pidf%.pid}.log"
in_tst ip neigh del 198.19.1.1 dev fg1
in_tst ip addr del 198.19.1.2/24 dev fg1
# a relay running again, for `down` to remove
"$FG_LAB" impair --delay 1
pid=$(cat "$pidf" 2>/dev/null)
"$FG_LAB" down
check "down: the wire namespace is gone" bash -c "! ip netns list | awk '{print \$1}' | grep -qx '$NS_WIRE'"
check "down: the relay is gone" pid_gone "$pid"
FG_LAB_UP=no

lane_end fg
finish
