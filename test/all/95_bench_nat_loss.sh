#!/usr/bin/env bash
#
# 95_bench_nat_loss.sh — `bench nat` earns REQ-1's verdict: the nat lab
# (masquerade) with the wire namespace in its outside link (fg1 <-> wi ~
# examples/impair.py ~ wo <-> dut1), `bench nat -p udp --timeout-max 0`:
#
#  - through the plain relay: the contended probe is seen, and not
#    endpoint-independent (REQ-1 fails, as in 94_bench_nat.sh); the ports
#    masquerade preserves are chosen at random when taken (RFC 7857 §10
#    passes on the ports chosen under contention);
#  - with the relay dropping the NAT's datagrams to the servers' port 3479
#    after the first two (the uncontended mapping probe's), which are the
#    contention probes of B towards S1:3479 and S2:3479 in both orders:
#    the uncontended mapping is still endpoint-independent, the contention
#    probe is "lost", and REQ-1 reads inconclusive, not pass;
#  - down removes the namespaces and the relay.

. "$(dirname "$0")/../e2e/lib.sh"

need_root "bench nat: lab with a wire"
need_flowgen
OUT=198.19.0.10 # the servers: the lab NATs what goes to 198.19.0.0/24

export FG_IMPAIR=1
lab_up nat || finish
unset FG_IMPAIR
NS_WIRE=${NS_DUT}-w
if [ -n "$FG_RESULTS" ]; then
	echo "$NS_WIRE" >>"$FG_RESULTS.ns"
fi
at_exit "\"$FG_LAB\" down"

# verdict FILE ID : a row's verdict
verdict()
{
	bench_py "{c['id']: c['verdict'] for c in o['checks']}['$2']" "$1" 2>&1
}

# --- through the plain relay -------------------------------------------------------

J=$FG_TMP/plain.json
fg -x "arp; bench nat -p udp --outside $OUT --timeout-max 0 --json" >"$J" 2>"$FG_TMP/plain.err"
check_eq "plain relay: bench nat exits 0" 0 "$?"
sed -n 's/^nat: udp: \(contention\|the same\|ports from\)/# plain: &/p' "$FG_TMP/plain.err"
check_pys "$J" \
	"plain relay: the contended probe seen, not endpoint-independent" \
		'o["udp"]["contention"] == "contended" and o["udp"]["mapping_contended"] in ("address-dependent", "address-and-port-dependent")' \
	"plain relay: REQ-1 fails" \
		'{c["id"]: c["verdict"] for c in o["checks"]}["RFC4787 REQ-1"] == "fail"' \
	"plain relay: ports preserved; random when taken, RFC 7857 §10 passes on them" \
		'o["udp"]["port_allocation"] == "preserved" and o["udp"]["port_allocation_contended"] == "random" and o["udp"]["ports_forced"] >= 16 and {c["id"]: c["verdict"] for c in o["checks"]}["RFC7857 §10"] == "pass"' \
	"plain relay: the MAY rows read info" \
		'all({c["id"]: c["verdict"] for c in o["checks"]}[k] == "info" for k in ("RFC4787 REQ-4", "RFC4787 REQ-6a"))'

# --- the contention probes dropped -------------------------------------------------

# ba: what leaves the NAT towards the servers. Before the contention
# probes only the uncontended mapping probe goes to port 3479 (towards
# S1 and S2); pooling, port allocation and the warm-up use other ports.
"$FG_LAB" impair --loss 100 --dir ba --udp-dport 3479 --spare 2 --seed 1
J=$FG_TMP/lost.json
fg -x "arp; bench nat -p udp --outside $OUT --timeout-max 0 --json" >"$J" 2>"$FG_TMP/lost.err"
check_eq "contention dropped: bench nat exits 0" 0 "$?"
"$FG_LAB" impair stats >"$FG_TMP/lost.stats"
sed 's/^/# relay: /' "$FG_TMP/lost.stats"
sed -n 's/^nat: udp: contention/# lost: &/p' "$FG_TMP/lost.err"
dropped=$(sed -n 's/^ba rx=.* dropped=\([0-9]*\) .*/\1/p' "$FG_TMP/lost.stats")
check_ge "contention dropped: the relay dropped B's probes to 3479 (2 per order, sent twice)" "${dropped:-0}" 8
check_grep "contention dropped: the relay spared the first two" '^ba .* spared=2 ' "$FG_TMP/lost.stats"
check_grep "contention dropped: progress says a probe of B did not come out" \
	"^nat: udp: contention: a probe of B did not come out" "$FG_TMP/lost.err"
check_pys "$J" \
	"contention dropped: the uncontended mapping still endpoint-independent" \
		'o["udp"]["mapping"] == "endpoint-independent"' \
	"contention dropped: the contention probe lost, no contended mapping" \
		'o["udp"]["contention"] == "lost" and o["udp"]["mapping_contended"] == "unknown"'
check_eq "contention dropped: REQ-1 inconclusive, not pass" inconclusive "$(verdict "$J" "RFC4787 REQ-1")"
check_py "contention dropped: REQ-1 says the contention probe was lost" \
	'"a contention probe lost" in {c["id"]: c["measured"] for c in o["checks"]}["RFC4787 REQ-1"]' "$J"

# --- down ------------------------------------------------------------------------------

pidf=/run/fg-impair-$NS_WIRE.pid
[ -d /run ] && [ -w /run ] || pidf=/tmp/fg-impair-$NS_WIRE.pid
pid=$(cat "$pidf" 2>/dev/null)
lab_down
check "down: the wire namespace is gone" bash -c "! ip netns list | awk '{print \$1}' | grep -qx '$NS_WIRE'"
check "down: the relay is gone" pid_gone "$pid"

finish
