#!/usr/bin/env bash
#
# 76_streams_tx.sh — streams asked for more than the tester can send.
#
# On a plain af_packet veth pair (va <-> vb in a namespace of its own, no
# DUT), `start -m 3mpps` of 64-byte frames:
# - while it runs, the worker is saturated: workers[0].cpu_util >= 90 %;
# - paused, the same worker is idle: cpu_util <= 10 %;
# - at the end every frame counted as sent arrived (rx = tx, loss 0): what
#   the pacer could not release in time is counted as late, what the TX
#   queue refused as tx_dropped (the stream's equals the port's; the
#   af_packet driver waits for room rather than refuse), and sent +
#   tx_dropped + late is what the rate asked for.

. "$(dirname "$0")/lib.sh"

need_root "veth pair"
need_flowgen
t0=$SECONDS
NS=fgv-$$
if [ -n "$FG_RESULTS" ]; then
	echo "$NS" >>"$FG_RESULTS.ns"
fi
ip netns add "$NS" || {
	fail "namespace $NS" "ip netns add failed"
	finish
}
at_exit "ip netns del $NS"
ip -n "$NS" link add va type veth peer name vb
ip -n "$NS" link set va up
ip -n "$NS" link set vb up
mac_a=$(ip netns exec "$NS" cat /sys/class/net/va/address)
mac_b=$(ip netns exec "$NS" cat /sys/class/net/vb/address)

cfg=$FG_TMP/veth.yaml
cat >"$cfg" <<-EOF
	- version: 2
	  interfaces: ['--vdev=net_af_packet0,iface=va', '--vdev=net_af_packet1,iface=vb']
	  port_info:
	    - ip: 198.18.1.2
	      default_gw: 198.18.1.1
	      dest_mac: $mac_b
	    - ip: 198.19.1.2
	      default_gw: 198.19.1.1
	      dest_mac: $mac_a
	  platform:
	    master_thread_id: 0
	    dual_if:
	      - socket: 0
	        threads: [1]
	  eal: ['--in-memory']
	  mbufs: 16384
EOF

out=$FG_TMP/tx.out
timeout -k 5 60 ip netns exec "$NS" stdbuf -oL "$FG_BIN" -C "$cfg" -x \
	"start -f $FG_TOP/profiles/stl_64b.yaml -d 3 -m 3mpps -t learn=0,drain=0.3; wait 1.2; stats --json; \
	 pause; wait 1.2; stats --json; resume; wait 30; stats --json" >"$out" 2>&1

stats_nth "$out" 1 >"$FG_TMP/run.json"
stats_nth "$out" 2 >"$FG_TMP/paused.json"
stats_nth "$out" 3 >"$FG_TMP/end.json"

busy=$(json_get "$FG_TMP/run.json" workers.0.cpu_util)
idle=$(json_get "$FG_TMP/paused.json" workers.0.cpu_util)
echo "# 3 Mpps asked: cpu_util running $busy %, paused $idle %; tx_pps $(json_get "$FG_TMP/run.json" global.tx_pps)"
check "saturated worker: cpu_util >= 90 % ($busy)" \
	python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) >= 90 else 1)" "${busy:-0}"
check "idle (paused) worker: cpu_util <= 10 % ($idle)" \
	python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) <= 10 else 1)" "${idle:-100}"

e=$FG_TMP/end.json
tx=$(latency_row "$e" s64 1 tx)
rx=$(latency_row "$e" s64 1 rx)
drop=$(latency_row "$e" s64 1 tx_dropped)
late=$(latency_row "$e" s64 1 late)
lost=$(latency_row "$e" s64 1 lost)
pdrop=$(json_get "$e" ports.0.tx_dropped)
echo "# end: tx $tx rx $rx lost $lost tx_dropped $drop (port 0: $pdrop) late $late"
check_ge "veth: frames sent" "${tx:-0}" 100000
check_eq "veth: the port's tx_dropped is the stream's" "${drop:-none}" "${pdrop:-no port}"
check_eq "veth: every frame counted as sent arrived (rx = tx)" "${tx:-no tx}" "${rx:-no rx}"
check_eq "veth: loss 0" 0 "${lost:-none}"
check_ge "veth: what could not be sent in time is counted as late" "${late:-0}" 1
# 3 Mpps over the 1.8 s of the 3 that were not paused: 5.4 M frames asked
asked=$((${tx:-0} + ${drop:-0} + ${late:-0}))
check "veth: sent + tx_dropped + late = 3 Mpps x 1.8 s (+-5 %) ($asked)" \
	python3 -c "import sys; sys.exit(0 if abs(int(sys.argv[1]) - 5.4e6) <= 0.05 * 5.4e6 else 1)" "$asked"

echo "# 76_streams_tx: $((SECONDS - t0)) s"
finish
