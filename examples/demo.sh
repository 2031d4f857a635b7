#!/usr/bin/env bash
#
# demo.sh — the NAT demo of the README, behind `make demo`: bring the nat lab
# up, run flowgen in the tester namespace in batch mode (service, arp,
# service --off, 10 s of udp_short flows at 20,000 flows/s, the live
# rates mid-run, then the flow and NAT report),
# sample the DUT's conntrack table while the traffic runs, print it, and
# take the lab down whatever happens. The run's first 1,000 frames (both
# ports, both directions) are saved as pcapng in build/demo.pcapng
# (FG_DEMO_PCAP), for Wireshark or `tshark -r`.

set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
lab=examples/lab.sh
bin=${FG_BIN:-build/flowgen}
pcap=${FG_DEMO_PCAP:-$top/build/demo.pcapng}
export FG_NS_TST=${FG_NS_TST:-fg-tst} FG_NS_DUT=${FG_NS_DUT:-fg-dut}

[ "$(id -u)" -eq 0 ] || {
	echo "demo.sh: needs root (network namespaces)" >&2
	exit 1
}
[ -x "$bin" ] || {
	echo "demo.sh: $bin is not built (run make)" >&2
	exit 1
}

fgpid=
cleanup()
{
	[ -n "$fgpid" ] && kill "$fgpid" 2>/dev/null
	"$lab" down
}
trap cleanup EXIT

"$lab" up nat

# Rates are measured: the global table is printed mid-run (achieved CPS,
# pps and bps over the last second), the flows and NAT report after the
# flows have drained.
cmds='service
arp
service --off
capture start --limit 1000
start -f profiles/udp_short.yaml -m 20000 -d 10
sleep 5
echo == live rates, 5 s into the run
stats -g
wait
echo == after the run: flows (completed, failed) and what the DUT did (NAT report)
stats -a
stats -p
capture save '"$pcap"
echo "== flowgen (in $FG_NS_TST):" $(echo "$cmds" | tr '\n' ';')
echo "$cmds" | timeout -k 5 120 ip netns exec "$FG_NS_TST" "$bin" -C examples/lab.yaml -b &
fgpid=$!

# Sample the DUT's conntrack table while the flows run: the peak of the
# samples taken between 3 s and 9 s after start-up.
peak=0
for i in $(seq 1 12); do
	sleep 1
	kill -0 "$fgpid" 2>/dev/null || break
	[ "$i" -ge 3 ] || continue
	n=$("$lab" conntrack 2>/dev/null || echo 0)
	if [[ $n =~ ^[0-9]+$ ]] && [ "$n" -gt "$peak" ]; then
		peak=$n
	fi
done

rc=0
wait "$fgpid" || rc=$?
fgpid=
echo "== DUT conntrack entries during the run (peak sample): $peak"
echo "== DUT conntrack entries now: $("$lab" conntrack)"
echo "== the run's first 1,000 frames: $pcap (tshark -r $pcap)"
exit $rc
