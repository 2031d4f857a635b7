#!/usr/bin/env bash
#
# 94_bench_nat.sh — `bench nat` against Linux NATs of known behaviour (the
# NAT flavours of examples/lab.sh), checking what Linux does:
#
#  - nat (masquerade) with every conntrack timeout of the DUT at 20 s,
#    `bench nat -p all`: endpoint-independent mapping (masquerade keeps a
#    source's mapping), address-and-port-dependent filtering (only the
#    contacted endpoint gets in), ports preserved with their parity, one
#    external address, no hairpinning, inbound ICMP errors translated (UDP
#    and TCP) without ending the mapping, out-of-order fragments through,
#    over 1,000 mappings for one internal address,
#    the UDP mapping, TCP transitory, TCP established and ICMP query
#    timeouts each found within 10 % of 20 s, outbound and inbound packets
#    refreshing a mapping, one row per requirement, a CSV row per check,
#    progress on stderr, and the whole run under 2 minutes;
#  - nat-random (fully-random), timeouts skipped: ports not preserved and
#    random, mapping address-and-port-dependent (every connection its own
#    port);
#  - nat-pool / nat-pool-persistent (snat to 4 addresses): arbitrary
#    pooling, then paired with `persistent`;
#  - nat-hairpin: UDP and TCP hairpinned with the external source;
#  - bad options fail with a clear error, and a [loop, loop] pair (a wire)
#    is reported as no NAT (no lab needed).

. "$(dirname "$0")/lib.sh"

need_root "bench nat: lab"
need_flowgen
T_START=$(date +%s)
OUT=198.19.0.10 # the servers: the lab NATs what goes to 198.19.0.0/24

# within NAME VALUE LO HI : LO <= VALUE <= HI (decimals)
within()
{
	if [[ $2 =~ ^[0-9.]+$ ]] && awk -v v="$2" -v lo="$3" -v hi="$4" 'BEGIN { exit !(v >= lo && v <= hi) }'; then
		pass "$1 ($2)"
	else
		fail "$1" "got '$2', expected $3..$4"
	fi
}

# j FILE EXPR : a Python expression over the bench nat object `o`
j()
{
	bench_py "$1" "$2" 2>&1
}

# --- bad options ------------------------------------------------------------------

E=$FG_TMP/bad.out
fg_plain -C "$(fg_loop_cfg)" -x "bench nat -p bogus" >"$E" 2>&1
check_eq "bench nat: -p bogus fails" 1 "$?"
check_grep "bench nat: -p bogus says what -p takes" "bench nat: -p: udp, tcp, icmp or all" "$E"
fg_plain -C "$(fg_loop_cfg)" -x "bench nat --timeout-max 1" >"$E" 2>&1
check_eq "bench nat: --timeout-max 1 fails" 1 "$?"
check_grep "bench nat: --timeout-max 1 refused with the range" "timeout-max: 0 .* or 2 s to 24h" "$E"

# a loop pair is a wire, not a NAT: said so, first row and JSON
fg_plain -C "$(fg_loop_cfg)" --json -x "bench nat -p udp --timeout-max 0" >"$E" 2>&1
check_eq "bench nat: a loop pair runs (exit 0)" 0 "$?"
check_py "bench nat: a loop pair is no NAT (translated false, first row RFC4787 §3 fails)" \
	'o["translated"] is False and o["checks"][0]["id"] == "RFC4787 §3" and o["checks"][0]["verdict"] == "fail"' "$E"

# --- nat, every protocol, 20 s timeouts ---------------------------------------------

export FG_NAT_TIMEOUT=20
lab_up nat || exit 1
unset FG_NAT_TIMEOUT
J=$FG_TMP/nat.json
t0=$(date +%s)
FG_TIMEOUT=150 fg -x "arp; bench nat -p all --outside $OUT --json --csv $FG_TMP/nat.csv" >"$J" 2>"$FG_TMP/nat.err"
rc=$?
took=$(($(date +%s) - t0))
echo "# bench nat -p all against nat (20 s timeouts): $took s"
check_eq "bench nat nat: exits 0" 0 "$rc"
check_py "bench nat nat: JSON object printed" 'o is not None and o["bench"] == "nat"' "$J"
if [ "$took" -lt 120 ]; then pass "bench nat nat: -p all with 20 s timeouts in under 2 minutes ($took s)"; else fail "bench nat nat: under 2 minutes" "$took s"; fi
check_eq "bench nat nat: udp mapping" endpoint-independent "$(j 'o["udp"]["mapping"]' "$J")"
check_eq "bench nat nat: udp filtering" address-and-port-dependent "$(j 'o["udp"]["filtering"]' "$J")"
check_eq "bench nat nat: udp ports preserved" True "$(j 'o["udp"]["port_preservation"]' "$J")"
check_eq "bench nat nat: udp parity kept" True "$(j 'o["udp"]["port_parity"]' "$J")"
check_eq "bench nat nat: one external address" single "$(j 'o["udp"]["pooling"]' "$J")"
check_eq "bench nat nat: no udp hairpinning" False "$(j 'o["udp"]["hairpinning"]' "$J")"
check_eq "bench nat nat: tcp mapping" endpoint-independent "$(j 'o["tcp"]["mapping"]' "$J")"
check_eq "bench nat nat: tcp filtering" address-and-port-dependent "$(j 'o["tcp"]["filtering"]' "$J")"
check_eq "bench nat nat: no tcp hairpinning" False "$(j 'o["tcp"]["hairpinning"]' "$J")"
check_eq "bench nat nat: ICMP error translated" True "$(j 'o["icmp"]["error_translation"]' "$J")"
within "bench nat nat: udp mapping timeout within 10 % of 20 s" "$(j 'o["udp"]["mapping_timeout_s"]' "$J")" 18 22
within "bench nat nat: tcp transitory timeout within 10 % of 20 s" "$(j 'o["tcp"]["transitory_timeout_s"]' "$J")" 18 22
within "bench nat nat: tcp established timeout within 10 % of 20 s" "$(j 'o["tcp"]["established_timeout_s"]' "$J")" 18 22
within "bench nat nat: icmp query timeout within 10 % of 20 s" "$(j 'o["icmp"]["query_timeout_s"]' "$J")" 18 22
check_eq "bench nat nat: the mapping outlives an ICMP error about it" True "$(j 'o["udp"]["icmp_error_keeps_mapping"]' "$J")"
check_eq "bench nat nat: out-of-order fragments get through" True "$(j 'o["udp"]["fragments_out_of_order"]' "$J")"
check_eq "bench nat nat: TCP ICMP error translated" True "$(j 'o["tcp"]["error_translation"]' "$J")"
check_py "bench nat nat: no port quota below 1,000 mappings of one address" 'o["udp"]["port_quota"] >= 1000 and o["udp"]["port_quota_tried"] == 1024' "$J"
check_eq "bench nat nat: outbound refresh" True "$(j 'o["udp"]["refresh_outbound"]' "$J")"
check_eq "bench nat nat: inbound refresh (conntrack refreshes both ways)" True "$(j 'o["udp"]["refresh_inbound"]' "$J")"
check_py "bench nat nat: REQ-1 passes, REQ-5 (20 s < 2 min) fails" \
	'{c["id"]: c["verdict"] for c in o["checks"]}["RFC4787 REQ-1"] == "pass" and {c["id"]: c["verdict"] for c in o["checks"]}["RFC4787 REQ-5"] == "fail"' "$J"
check_py "bench nat nat: every check has an id, gist, measurement and verdict" \
	'len(o["checks"]) >= 20 and all(c["id"].startswith("RFC") and c["text"] and c["measured"] and c["verdict"] in ("pass", "fail", "not applicable") for c in o["checks"])' "$J"
n=$(j 'len(o["checks"])' "$J")
check_eq "bench nat nat: one CSV row per check" "$((n + 1))" "$(count_lines "$FG_TMP/nat.csv")"
check_grep "bench nat nat: progress on stderr, one line per probe" "^nat: udp mapping: mapping [0-9]+ probed at" "$FG_TMP/nat.err"
lab_down

# --- the other flavours, no timeouts --------------------------------------------------

# flavour FLAVOUR PROTOS : bench nat without timeouts into $FG_TMP/FLAVOUR.json
flavour()
{
	lab_up "$1" || return 1
	fg -x "arp; bench nat -p $2 --outside $OUT --timeout-max 0 --json" >"$FG_TMP/$1.json" 2>"$FG_TMP/$1.err"
	check_eq "bench nat $1: exits 0" 0 "$?"
	lab_down
}

if flavour nat-random udp,tcp; then
	J=$FG_TMP/nat-random.json
	check_eq "bench nat nat-random: ports not preserved" False "$(j 'o["udp"]["port_preservation"]' "$J")"
	check_eq "bench nat nat-random: ports random" random "$(j 'o["udp"]["port_allocation"]' "$J")"
	check_eq "bench nat nat-random: udp mapping" address-and-port-dependent "$(j 'o["udp"]["mapping"]' "$J")"
	check_eq "bench nat nat-random: tcp ports not preserved" False "$(j 'o["tcp"]["port_preservation"]' "$J")"
	check_py "bench nat nat-random: timeouts not measured" 'o["udp"]["mapping_timeout_s"] is None and o["udp"]["mapping_timeout_s_search"]["state"] == "none"' "$J"
fi
if flavour nat-pool udp; then
	check_eq "bench nat nat-pool: arbitrary pooling" arbitrary "$(j 'o["udp"]["pooling"]' "$FG_TMP/nat-pool.json")"
fi
if flavour nat-pool-persistent udp; then
	J=$FG_TMP/nat-pool-persistent.json
	check_eq "bench nat nat-pool-persistent: paired pooling" paired "$(j 'o["udp"]["pooling"]' "$J")"
	check_py "bench nat nat-pool-persistent: more than one external address" 'o["udp"]["external_addresses"] > 1' "$J"
fi
if flavour nat-hairpin udp,tcp; then
	J=$FG_TMP/nat-hairpin.json
	check_eq "bench nat nat-hairpin: udp hairpinning" True "$(j 'o["udp"]["hairpinning"]' "$J")"
	check_eq "bench nat nat-hairpin: udp hairpin shows the external source" True "$(j 'o["udp"]["hairpin_external_source"]' "$J")"
	check_eq "bench nat nat-hairpin: tcp hairpinning" True "$(j 'o["tcp"]["hairpinning"]' "$J")"
	check_eq "bench nat nat-hairpin: tcp hairpin shows the external source" True "$(j 'o["tcp"]["hairpin_external_source"]' "$J")"
fi

echo "# 94_bench_nat.sh took $(($(date +%s) - T_START)) s"
finish
