#!/usr/bin/env bash
#
# 94_bench_nat.sh — `bench nat` against Linux NATs of known behaviour (the
# NAT flavours of examples/lab.sh), checking what Linux does:
#
#  - nat (masquerade) with the DUT's conntrack timers set to distinct
#    values (FG_NAT_TIMEOUT=distinct's but for UDP stream: UDP unreplied
#    12 s, UDP stream 21 s, TCP SYN sent 9 s, established 24 s, TIME_WAIT
#    18 s, ICMP 15 s, the other TCP states 35 s), `bench nat -p all
#    --timeout-max 60`: each
#    search finds its own timer within its resolution (a search that
#    found another timer would land in another's window), every mapping
#    of every search made; mapping endpoint-independent with fresh ports
#    but not under contention (REQ-1 fails, UDP and TCP), no port
#    overloading, address-and-port-dependent filtering, ports preserved
#    with their parity and random when taken (RFC 7857 §10 passes on
#    them), the MAY rows info, one external address, no hairpinning, ICMP errors
#    translated without ending the mapping, out-of-order fragments through,
#    no port quota, outbound and inbound refresh, nothing dropped by the
#    probes' queue, a CSV row per check, progress on stderr, and the whole
#    run under 2 minutes;
#  - the others without timers, each with the protocols it is about:
#    nat-persistent (masquerade persistent: not EIM under contention
#    either), nat-random (fully-random: ports random over many
#    destinations, not preserved, mapping address-and-port-dependent),
#    nat-pool (arbitrary pooling; the same port number on two external
#    addresses is not overloading) and nat-pool-persistent (paired, RFC
#    6888 REQ-2 passes), nat-1to1 (a static 1:1 prefix map both ways:
#    endpoint-independent mapping and filtering, no contention possible
#    as every internal address has an external one of its own (REQ-1
#    passes on the fresh probe and says so),
#    hairpinning from the sender's external endpoint), nat-hairpin, and
#    router (no NAT: translated false for every protocol, no row passes);
#  - bad options fail with a clear error, and a [loop, loop] pair (a wire)
#    is reported as no NAT (no lab needed).
#
# The flavours without timers run in two lanes of labs beside the nat run
# (each lab has namespaces of its own), and their checks come after it;
# the bad options and the loop pair run beside it too.

. "$(dirname "$0")/../e2e/lib.sh"

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

# timer NAME KEY SECONDS FILE : the search KEY (protocol.key) of FILE found
# SECONDS: within 1 s of its last-alive and first-gone probes, those no
# more than 10 % apart, and every mapping of the plan made
timer()
{
	local v
	# the verdict and the search, from one python3
	v=$(bench_py "'%s\t%s' % ((lambda s, want: s['state'] == 'found' and s['alive_s'] - 1 <= want <= s['gone_s'] + 1 and s['gone_s'] - s['alive_s'] <= 0.1 * want and s['mappings_made'] == s['mappings_planned'] > 0)(o['${2%%.*}']['${2#*.}_search'], float($3)), o['${2%%.*}']['${2#*.}_search'])" "$4" 2>&1)
	if [ "${v%%$'\t'*}" = True ]; then
		pass "$1 (${v#*$'\t'})"
	else
		fail "$1" "expected $3 s: ${v#*$'\t'}"
	fi
}

# j FILE EXPR : a Python expression over the bench nat object `o`
j()
{
	bench_py "$1" "$2" 2>&1
}

# --- the other flavours, no timers, in the background ---------------------------------

# flavour_run FLAVOUR PROTOS : bench nat without timers against a lab of
# FLAVOUR into $FG_TMP/FLAVOUR.json (.err, .rc: flowgen's exit status, or
# "lab" when the lab did not come up). Meant to run with &: each lab has
# namespaces of its own (lab_up), and the checks run in this shell after.
flavour_run()
{
	if ! lab_up "$1" >"$FG_TMP/$1.lab" 2>&1; then
		echo lab >"$FG_TMP/$1.rc"
		return
	fi
	fg -x "arp; bench nat -p $2 --outside $OUT --timeout-max 0 --json" >"$FG_TMP/$1.json" 2>"$FG_TMP/$1.err"
	echo $? >"$FG_TMP/$1.rc"
	lab_down
}

# The seven flavours run in two lanes beside the nat run with its timers
# (three labs at a time): the probes wait 300 ms for their answers, and
# the timer searches' resolution is a second, so sharing the CPUs changes
# no verdict, and the scenario takes half the time. The lanes are about
# as long as each other (the flavours' runs take 10 to 15 s each).
(flavour_run nat-1to1 all; flavour_run nat-random udp,tcp; flavour_run router all) &
lane1=$!
(flavour_run nat-hairpin udp,tcp; flavour_run nat-persistent udp; flavour_run nat-pool udp; flavour_run nat-pool-persistent udp) &
lane2=$!

# --- nat (masquerade), every protocol, distinct timers --------------------------------

# The timers of FG_NAT_TIMEOUT=distinct (examples/lab.sh) but UDP stream
# 21 s, not 28: its refresh test probes at 1.25 times it, the longest
# wait of the run. Every timer still has a value of its own, 3 s from the
# next: a search that found another timer would land outside its window.
export FG_NAT_TIMEOUT="udp_timeout=12,udp_timeout_stream=21,tcp_timeout_syn_sent=9"
FG_NAT_TIMEOUT+=",tcp_timeout_established=24,tcp_timeout_time_wait=18,icmp_timeout=15"
FG_NAT_TIMEOUT+=",tcp_timeout_syn_recv=35,tcp_timeout_fin_wait=35,tcp_timeout_close_wait=35"
FG_NAT_TIMEOUT+=",tcp_timeout_last_ack=35"
lab_up nat || exit 1
unset FG_NAT_TIMEOUT
J=$FG_TMP/nat.json
# in the background: the bad options and the loop pair below run beside it
(
	t0=$(date +%s)
	FG_TIMEOUT=150 fg -x "arp; bench nat -p all --outside $OUT --timeout-max 60 --json --csv $FG_TMP/nat.csv" >"$J" 2>"$FG_TMP/nat.err"
	echo $? >"$FG_TMP/nat.rc"
	echo $(($(date +%s) - t0)) >"$FG_TMP/nat.took"
) &
natrun=$!

# --- bad options ------------------------------------------------------------------

E=$FG_TMP/bad.out
fg_plain -C "$(fg_loop_cfg)" -x "bench nat -p bogus" >"$E" 2>&1
check_eq "bench nat: -p bogus fails" 1 "$?"
check_grep "bench nat: -p bogus says what -p takes" "bench nat: -p: udp, tcp, icmp or all" "$E"
fg_plain -C "$(fg_loop_cfg)" -x "bench nat --timeout-max 1" >"$E" 2>&1
check_eq "bench nat: --timeout-max 1 fails" 1 "$?"
check_grep "bench nat: --timeout-max 1 refused with the range" "timeout-max: 0 .* or 2 s to 24h" "$E"

# a loop pair is a wire, not a NAT: said so first, and no verdict at all
fg_plain -C "$(fg_loop_cfg)" --json -x "bench nat -p udp --timeout-max 0" >"$E" 2>&1
check_eq "bench nat: a loop pair runs (exit 0)" 0 "$?"
check_py "bench nat: a loop pair is no NAT (translated false, said first as info, no verdict)" \
	'o["translated"] is False and o["udp"]["translated"] is False and o["checks"][0]["id"] == "translation" and o["checks"][0]["verdict"] == "info" and all(c["verdict"] == "not applicable" for c in o["checks"][1:])' "$E"

# --- nat: its checks ------------------------------------------------------------------

wait "$natrun"
rc=$(cat "$FG_TMP/nat.rc" 2>/dev/null || echo none)
took=$(cat "$FG_TMP/nat.took" 2>/dev/null || echo 999)
echo "# bench nat -p all against nat (distinct timers): $took s"
check_eq "bench nat nat: exits 0" 0 "$rc"
check_pys "$J" \
	"bench nat nat: JSON object printed" \
		'o is not None and o["bench"] == "nat"' \
	"bench nat nat: translated, every protocol" \
		'o["translated"] is True and all(o[p]["translated"] is True for p in ("udp", "tcp", "icmp"))' \
	"bench nat nat: udp mapping under contention not endpoint-independent" \
		'o["udp"]["mapping_contended"] in ("address-dependent", "address-and-port-dependent")' \
	"bench nat nat: tcp mapping under contention not endpoint-independent" \
		'o["tcp"]["mapping"] == "endpoint-independent" and o["tcp"]["mapping_contended"] in ("address-dependent", "address-and-port-dependent")' \
	"bench nat nat: REQ-1 fails for UDP and TCP" \
		'{c["id"]: c["verdict"] for c in o["checks"]}["RFC4787 REQ-1"] == "fail" and {c["id"]: c["verdict"] for c in o["checks"]}["RFC5382 REQ-1"] == "fail"' \
	"bench nat nat: no port overloading (UDP, TCP)" \
		'o["udp"]["port_overloading"] is False and o["tcp"]["port_overloading"] is False' \
	"bench nat nat: ports preserved with their parity, over 32 destinations" \
		'o["udp"]["port_preservation"] is True and o["udp"]["port_parity"] is True and o["udp"]["port_allocation"] == "preserved" and o["udp"]["port_destinations"] == 32' \
	"bench nat nat: no hairpinning (UDP, TCP)" \
		'o["udp"]["hairpinning"] is False and o["tcp"]["hairpinning"] is False' \
	"bench nat nat: ICMP errors translated (UDP, TCP), the mapping kept" \
		'o["icmp"]["error_translation"] is True and o["tcp"]["error_translation"] is True and o["udp"]["icmp_error_keeps_mapping"] is True' \
	"bench nat nat: echo passes with one identifier" \
		'o["icmp"]["echo"] is True and o["icmp"]["identifier_independent"] is True' \
	"bench nat nat: no port quota; the earlier mapping and another address work" \
		'o["udp"]["port_quota"] >= 1000 and o["udp"]["port_quota_tried"] == 1024 and o["udp"]["quota_keeps_mappings"] is True and o["udp"]["quota_others_served"] is True' \
	"bench nat nat: outbound and inbound refresh (conntrack refreshes both ways)" \
		'o["udp"]["refresh_outbound"] is True and o["udp"]["refresh_inbound"] is True' \
	"bench nat nat: REQ-5 judged on the two-way mapping (21 s < 2 min: fail), the unreplied one information" \
		'{c["id"]: c["verdict"] for c in o["checks"]}["RFC4787 REQ-5"] == "fail" and {c["id"]: c["verdict"] for c in o["checks"]}["RFC4787 §4.3"] == "info"' \
	"bench nat nat: the contention probe seen (UDP, TCP); RFC 7857 §10 passes on the ports chosen when taken" \
		'o["udp"]["contention"] == o["tcp"]["contention"] == "contended" and o["udp"]["port_allocation_contended"] == "random" and {c["id"]: c["verdict"] for c in o["checks"]}["RFC7857 §10"] == "pass"' \
	"bench nat nat: the MAY rows (parity, inbound refresh, transitory timeout) read info" \
		'all({c["id"]: c["verdict"] for c in o["checks"]}[k] == "info" for k in ("RFC4787 REQ-4", "RFC4787 REQ-6a", "RFC5382 REQ-5 (transitory)"))' \
	"bench nat nat: every check has an id, gist, level, measurement and verdict; only MUST and SHOULD rows pass or fail" \
		'len(o["checks"]) >= 30 and all(c["id"].startswith("RFC") and c["text"] and c["measured"] and c["level"] in ("MUST", "SHOULD", "MAY", "none") and c["verdict"] in ("pass", "fail", "inconclusive", "not applicable", "info") and (c["level"] in ("MUST", "SHOULD") or c["verdict"] in ("info", "not applicable")) for c in o["checks"])'
if [ "$took" -lt 120 ]; then pass "bench nat nat: -p all with the timers in under 2 minutes ($took s)"; else fail "bench nat nat: under 2 minutes" "$took s"; fi
check_eq "bench nat nat: udp mapping with fresh ports" endpoint-independent "$(j 'o["udp"]["mapping"]' "$J")"
check_eq "bench nat nat: udp filtering" address-and-port-dependent "$(j 'o["udp"]["filtering"]' "$J")"
check_eq "bench nat nat: tcp filtering" address-and-port-dependent "$(j 'o["tcp"]["filtering"]' "$J")"
check_eq "bench nat nat: one external address" single "$(j 'o["udp"]["pooling"]' "$J")"
check_eq "bench nat nat: out-of-order fragments get through" True "$(j 'o["udp"]["fragments_out_of_order"]' "$J")"
timer "bench nat nat: udp mapping used both ways: udp_timeout_stream 21 s" udp.mapping_timeout_s 21 "$J"
timer "bench nat nat: udp unreplied: udp_timeout 12 s" udp.unreplied_timeout_s 12 "$J"
timer "bench nat nat: tcp established: tcp_timeout_established 24 s" tcp.established_timeout_s 24 "$J"
timer "bench nat nat: tcp transitory: tcp_timeout_syn_sent 9 s" tcp.transitory_timeout_s 9 "$J"
timer "bench nat nat: tcp closing: tcp_timeout_time_wait 18 s" tcp.closing_timeout_s 18 "$J"
timer "bench nat nat: icmp query: icmp_timeout 15 s" icmp.query_timeout_s 15 "$J"
check_eq "bench nat nat: nothing dropped by the probes' queue" 0 "$(j 'o["qdrop"]' "$J")"
n=$(j 'len(o["checks"])' "$J")
check_eq "bench nat nat: one CSV row per check" "$((n + 1))" "$(count_lines "$FG_TMP/nat.csv")"
check_grep "bench nat nat: progress on stderr, one line per probe" "^nat: udp mapping: mapping [0-9]+ probed at" "$FG_TMP/nat.err"
check_grep "bench nat nat: progress names the contended endpoints" "^nat: udp: contention \(free first\): A:[0-9]+ got" "$FG_TMP/nat.err"
lab_down

# --- the other flavours: their checks ------------------------------------------------

wait "$lane1" "$lane2"

# flavour FLAVOUR : its run exited 0 (the lab came up). A lab that did not
# come up was recorded as failed by lab_up in its subshell; here it is
# shown and counted in this shell's summary.
flavour()
{
	local rc
	rc=$(cat "$FG_TMP/$1.rc" 2>/dev/null || echo none)
	if [ "$rc" = lab ]; then
		cat "$FG_TMP/$1.lab"
		FG_NFAIL=$((FG_NFAIL + 1))
		return 1
	fi
	check_eq "bench nat $1: exits 0" 0 "$rc"
}

if flavour nat-persistent; then
	check_py "bench nat nat-persistent: not endpoint-independent under contention either" \
		'o["udp"]["mapping"] == "endpoint-independent" and o["udp"]["mapping_contended"] in ("address-dependent", "address-and-port-dependent")' "$FG_TMP/nat-persistent.json"
fi
if flavour nat-random; then
	J=$FG_TMP/nat-random.json
	check_pys "$J" \
		"bench nat nat-random: ports not preserved, random over many destinations" \
			'o["udp"]["port_preservation"] is False and o["udp"]["port_allocation"] == "random" and o["udp"]["port_step_median"] > 16' \
		"bench nat nat-random: timers not measured" \
			'o["udp"]["mapping_timeout_s"] is None and o["udp"]["mapping_timeout_s_search"]["state"] == "none"'
	check_eq "bench nat nat-random: udp mapping" address-and-port-dependent "$(j 'o["udp"]["mapping"]' "$J")"
	check_eq "bench nat nat-random: tcp ports not preserved" False "$(j 'o["tcp"]["port_preservation"]' "$J")"
fi
if flavour nat-pool; then
	J=$FG_TMP/nat-pool.json
	check_eq "bench nat nat-pool: arbitrary pooling" arbitrary "$(j 'o["udp"]["pooling"]' "$J")"
	check_py "bench nat nat-pool: a port number on several addresses is not overloading (REQ-3 passes)" \
		'o["udp"]["port_overloading"] is False and {c["id"]: c["verdict"] for c in o["checks"]}["RFC4787 REQ-3"] == "pass"' "$J"
fi
if flavour nat-pool-persistent; then
	J=$FG_TMP/nat-pool-persistent.json
	check_py "bench nat nat-pool-persistent: paired pooling over several addresses, RFC 6888 REQ-2 passes" \
		'o["udp"]["pooling"] == "paired" and o["udp"]["external_addresses"] > 1 and {c["id"]: c["verdict"] for c in o["checks"]}["RFC6888 REQ-2"] == "pass"' "$J"
fi
if flavour nat-1to1; then
	J=$FG_TMP/nat-1to1.json
	# every internal address has an external one of its own: nothing to contend for
	check_pys "$J" \
		"bench nat nat-1to1: endpoint-independent mapping, no contention possible (UDP, TCP)" \
			'all(o[p]["mapping"] == "endpoint-independent" and o[p]["mapping_contended"] == "unknown" and o[p]["contention"] == "impossible" for p in ("udp", "tcp"))' \
		"bench nat nat-1to1: REQ-1 says the fresh probe decided" \
			'"contention impossible: one external address per internal address" in {c["id"]: c["measured"] for c in o["checks"]}["RFC4787 REQ-1"]' \
		"bench nat nat-1to1: endpoint-independent filtering (UDP, TCP)" \
			'all(o[p]["filtering"] == "endpoint-independent" for p in ("udp", "tcp"))' \
		"bench nat nat-1to1: hairpinned from the sender's external address and port (UDP, TCP)" \
			'all(o[p]["hairpinning"] is True and o[p]["hairpin_external_source"] is True for p in ("udp", "tcp"))' \
		"bench nat nat-1to1: REQ-1, REQ-8 and REQ-9a pass" \
			'all({c["id"]: c["verdict"] for c in o["checks"]}[k] == "pass" for k in ("RFC4787 REQ-1", "RFC5382 REQ-1", "RFC4787 REQ-8", "RFC4787 REQ-9a", "RFC5382 REQ-8a"))'
	check_grep "bench nat nat-1to1: progress says contention did not happen" "^nat: udp: contention: B left by other external addresses than A: not contended" "$FG_TMP/nat-1to1.err"
fi
if flavour nat-hairpin; then
	J=$FG_TMP/nat-hairpin.json
	check_py "bench nat nat-hairpin: hairpinned from the sender's external address and port (UDP, TCP)" \
		'all(o[p]["hairpinning"] is True and o[p]["hairpin_external_source"] is True for p in ("udp", "tcp"))' "$J"
fi
if flavour router; then
	J=$FG_TMP/router.json
	check_pys "$J" \
		"bench nat router: no NAT: translated false for every protocol" \
			'o["translated"] is False and all(o[p]["translated"] is False for p in ("udp", "tcp", "icmp"))' \
		"bench nat router: said first, and no row passes" \
			'o["checks"][0]["id"] == "translation" and not any(c["verdict"] == "pass" for c in o["checks"])'
fi

echo "# 94_bench_nat.sh took $(($(date +%s) - T_START)) s"
finish
