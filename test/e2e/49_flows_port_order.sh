#!/usr/bin/env bash
#
# 49_flows_port_order.sh — the order each client address takes its source
# ports in (flowgen-profile(5) client_ports_order; flowgen(8) bench, RFC
# 9693 §4.4). [loop, loop], one client and one server address, the client
# datagrams captured as port 0 sends them (capture --tx):
#  - test/data/flows_port_order.yaml (client ports 20000-20999, rand) at
#    -m 900 for 1 s: 900 flows on 900 distinct ports of the range, in no
#    increasing order (between 35 % and 65 % of the steps go down) and
#    spread over the range (the first half's mean within 5 % of the
#    range's middle);
#  - the same profile with seq: ports 20000, 20001, ... in order;
#  - without the key (and without client_ports), bench cps, one trial of
#    500 connections: the trial reports "client_ports_order": "rand", and
#    its 500 datagrams go out from distinct ports of the trial's window in
#    pseudorandom order (the RFC REQUIRES it); with seq given, "seq".

. "$(dirname "$0")/lib.sh"

need_flowgen

D=$FG_TOP/test/data
sed 's/client_ports_order: rand/client_ports_order: seq/' "$D/flows_port_order.yaml" >"$FG_TMP/seq.yaml"
grep -v client_ports "$D/flows_port_order.yaml" >"$FG_TMP/none.yaml"
sed 's/client_ports_order: rand/client_ports_order: seq/' "$D/flows_port_order.yaml" |
	grep -v 'client_ports:' >"$FG_TMP/bseq.yaml"
CAP="capture start --tx -p 0 --filter 'udp and dst port 4444'"
O=$FG_TMP/order.out
FG_TIMEOUT=60 fg_plain -C "$(fg_loop_cfg)" -x "$CAP; start -f $D/flows_port_order.yaml -m 900 -d 1; \
wait 5; capture save $FG_TMP/rand.pcapng; $CAP; start -f $FG_TMP/seq.yaml -m 900 -d 1; wait 5; \
capture save $FG_TMP/seq.pcapng; $CAP; bench cps -f $FG_TMP/none.yaml -m 500 --trial 1 --confirm 0 \
--json; capture save $FG_TMP/bench.pcapng; bench cps -f $FG_TMP/bseq.yaml -m 500 --trial 1 \
--confirm 0 --json" >"$O" 2>&1
rc=$?
check_eq "port order: flowgen exits 0" 0 "$rc"
[ "$rc" = 0 ] || grep -v '^{' "$O" | tail -n 5 | sed 's/^/# port order: /'

# ports(NAME): the source ports of the captured client datagrams, in order
PRE='import sys
import fg_pcapng
def ports(name):
    fr = fg_pcapng.frames("'"$FG_TMP"'/" + name + ".pcapng")
    return [u[1] for u in (fg_pcapng.udp4(f) for _, f in fr) if u]
def down(p):
    return sum(1 for a, b in zip(p, p[1:]) if b < a)
def mean(p):
    return sum(p) / len(p)
R, S, B = ports("rand"), ports("seq"), ports("bench")
from fg_e2e_json import objects
J = [o for o in objects(open(sys.argv[1]).read()) if "bench" in o]
W = J[0]["trials"][0]["client_ports"] if J else [0, 0]'
eval_checks "$PRE" "$O" \
	"rand: 900 flows from 900 distinct ports of 20000-20999" \
	'len(R) == 900 and len(set(R)) == 900 and min(R) >= 20000 and max(R) <= 20999' \
	"rand: no increasing order (35-65 % of the steps go down)" \
	'0.35 * 899 < down(R) < 0.65 * 899' \
	"rand: spread over the range (first half's mean within 5 % of the middle)" \
	'abs(mean(R[:450]) - 20499.5) < 0.05 * 1000' \
	"seq: ports 20000, 20001, ... in order" \
	'S == list(range(20000, 20900))' \
	"bench cps without the key: the trial reports rand" \
	'len(J) == 2 and J[0]["trials"][0]["client_ports_order"] == "rand"' \
	"bench cps: 500 datagrams from distinct ports of the trial's window" \
	'len(B) == 500 and len(set(B)) == 500 and W[0] <= min(B) and max(B) <= W[1]' \
	"bench cps: in pseudorandom order (35-65 % of the steps go down)" \
	'0.35 * 499 < down(B) < 0.65 * 499' \
	"bench cps with client_ports_order: seq: the trial reports seq" \
	'J[1]["trials"][0]["client_ports_order"] == "seq"'

finish
