#!/usr/bin/env bash
#
# 66_flows_addrs.sh — addresses as users have them (flowgen-profile(5):
# ip_gen `list`, a template's `client_ports`).
#
# NAT lab, two workers (-c 2: net_af_packet's fan-out puts replies on
# either worker, so the owner of a reply is found from its client port,
# own.h): profiles/addr_lists.yaml at -m 500 for 3 s (dns over UDP port 53
# from client ports 20000-29999, web over TCP port 80 from 40000-49999;
# five listed clients, three listed servers). Expected:
#  - the templates start flows 2:1 (their cps) and complete every one,
#    none fails;
#  - every entry of the DUT's connection tracking is one of the profile's
#    flows: its original source one of the five clients, its destination
#    one of the three servers, its source port in its template's block,
#    masqueraded to 198.19.1.1; all five clients and all three servers
#    appear, both workers' ports (even and odd) appear in both blocks;
#    the entries number at least the server's accepted flows.
# [loop, loop] at the same time, one client and one server address:
#  - test/data/flows_one_pair.yaml with `start --active 100000`: two
#    templates with client ports 1024-65535 of their own hold 100,000
#    concurrent flows between the one client and the one server (more
#    than the 65,535 one range could), 50,000 each, none failed;
#  - test/data/flows_few_ports.yaml (client ports 1024-2047) unpaced for
#    1 s: more than 65,535 flows complete over the 1,024 ports, none fails;
#  - test/data/flows_list6.yaml, IPv6 lists: 2,000 flows at 2,000/s, every
#    one started (or, with the CPUs busy, counted late) completed on both
#    sides.

. "$(dirname "$0")/lib.sh"

need_root "flows addrs: lab"
need_flowgen

# --- [loop, loop]: one client, one server ------------------------------------

pair_lane()
{
	local CFG O rc
	CFG=$(fg_loop_cfg)
	O=$FG_TMP/pair.out
	FG_TIMEOUT=40 fg_plain -C "$CFG" -x "start -f $FG_TOP/test/data/flows_one_pair.yaml --active 100000; \
sleep 1; stats --json; stop; \
start -f $FG_TOP/test/data/flows_few_ports.yaml -m max -d 1; wait 5; stats --json; \
start -f $FG_TOP/test/data/flows_list6.yaml -m 2000 -d 1; wait 5; stats --json" >"$O" 2>&1
	rc=$?
	check_eq "one pair: flowgen exits 0" 0 $rc
	[ "$rc" = 0 ] || grep -v '^{' "$O" | tail -n 5 | sed 's/^/# one pair: /'
	# S[0]: the --active run, S[1]: few ports, S[2]: IPv6 lists
	samples_py "one pair: 100,000 concurrent flows between one client and one server, the server holding each" \
		"len(S) == 3 and S[0]['flows']['client']['active'] == 100000 and S[0]['flows']['server']['active'] == 100000" "$O"
	samples_py "one pair: 50,000 of each template (each its own 64,512 ports)" \
		"[g['client']['active'] for g in S[0]['templates']] == [50000, 50000]" "$O"
	samples_py "one pair: no flow failed" \
		"S[0]['flows']['client']['failed'] + S[0]['flows']['server']['failed'] == 0" "$O"
	samples_py "few ports: more than 65,535 flows completed over 1,024 client ports, none failed, none left" \
		"S[1]['flows']['client']['completed'] > 65535 and S[1]['flows']['client']['failed'] == 0 and S[1]['flows']['client']['active'] == 0" "$O"
	# the rate is not under test (the NAT lane shares the CPUs): the
	# 2,000 flows offered are started or counted late (the pacer's
	# credit dropped, flowgen(8)), half at least started, and every one
	# started completed on both sides
	samples_py "IPv6 lists: 2,000 flows offered, each started (1,000 at least) or late; every one started completed on both sides, none failed" \
		"(lambda c, v: True if abs(c['started'] + c['late'] - 2000) <= 2 and c['started'] >= 1000 and c['completed'] == c['started'] == v['completed'] and c['failed'] + v['failed'] == 0 else (c['started'], c['late'], c['completed'], v['completed'], c['failed'], v['failed']))(S[2]['flows']['client'], S[2]['flows']['server'])" "$O"
}
lane pair pair_lane

# --- NAT lab: lists and client port blocks, two workers ------------------------

lab_up nat || exit 1
J=$FG_TMP/lists.out
in_dut conntrack -F >/dev/null 2>&1
fg -c 2 -x "arp; start -f $FG_TOP/profiles/addr_lists.yaml -m 500 -d 3; wait 12; stats --json" \
	>"$J" 2>&1
check_eq "lists nat: flowgen exits 0" 0 $?
in_dut conntrack -L >"$FG_TMP/ct.txt" 2>/dev/null
mapfile -t v < <(jvals "$J" '=[g["client"]["started"] for g in o["templates"]]' \
	'=[g["client"]["completed"] for g in o["templates"]]' flows.client.failed flows.server.failed \
	flows.server.accepted)
echo "# lists nat: started ${v[0]} completed ${v[1]} failed ${v[2]}/${v[3]} accepted ${v[4]}"
started=${v[0]}
# the rate is not under test (the loop lane shares the CPUs): at least half
# of what was offered, two dns flows per web flow (their cps, 2:1)
if [[ $started =~ ^\[([0-9]+),\ ([0-9]+)\]$ ]] && [ "${BASH_REMATCH[1]}" -ge 1500 ] &&
	[ "${BASH_REMATCH[2]}" -ge 750 ] &&
	[ $((BASH_REMATCH[1] - 2 * BASH_REMATCH[2])) -le 2 ] &&
	[ $((BASH_REMATCH[1] - 2 * BASH_REMATCH[2])) -ge -2 ]; then
	pass "lists nat: dns and web started 2:1, at least half of 3,000 and 1,500"
else
	fail "lists nat: dns and web started 2:1, at least half of 3,000 and 1,500" "started $started"
fi
check_eq "lists nat: every started flow completed" "$started" "${v[1]}"
check_eq "lists nat: no client flow failed" 0 "${v[2]}"
check_eq "lists nat: no server flow failed" 0 "${v[3]}"
ct=$(python3 - "$FG_TMP/ct.txt" "${v[4]}" <<-'PY'
	import re, sys
	cli = {"198.18.0.7", "198.18.0.33", "198.18.0.100", "198.18.0.101", "198.18.0.250"}
	srv = {"198.19.0.9", "198.19.0.77", "198.19.0.200"}
	block = {("udp", "53"): (20000, 29999), ("tcp", "80"): (40000, 49999)}
	bad, seen_c, seen_s, par, n = [], set(), set(), set(), 0
	for line in open(sys.argv[1]):
	    m = re.match(r'(\w+)\s.*?src=(\S+) dst=(\S+) sport=(\d+) dport=(\d+) .*?'
	                 r'src=(\S+) dst=(\S+) sport=(\d+) dport=(\d+)', line)
	    if not m:
	        continue
	    p, s, d, sp, dp, rs, rd = m.group(1, 2, 3, 4, 5, 6, 7)
	    n += 1
	    lo, hi = block.get((p, dp), (1, 0))
	    if s not in cli or d not in srv or not lo <= int(sp) <= hi or rd != "198.19.1.1":
	        bad.append(line.strip())
	    seen_c.add(s)
	    seen_s.add(d)
	    par.add((p, int(sp) % 2))
	print("ok" if not bad else "bad %d: %s" % (len(bad), bad[0]))
	print(n)
	print(len(seen_c), len(seen_s), len(par))
	print("yes" if n >= int(sys.argv[2] or 0) else "no")
PY
)
mapfile -t c <<<"$ct"
echo "# lists nat: DUT conntrack ${c[1]} entries; clients, servers, (proto, port parity) seen: ${c[2]}"
check_eq "lists nat: every DUT conntrack entry is a listed client to a listed server from its template's port block, masqueraded" ok "${c[0]}"
check_eq "lists nat: all 5 clients, all 3 servers, both workers' ports in both blocks" "5 3 4" "${c[2]}"
check_eq "lists nat: the DUT tracks at least the accepted flows" yes "${c[3]}"
lab_down

lane_end pair
finish
