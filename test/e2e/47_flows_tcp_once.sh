#!/usr/bin/env bash
#
# 47_flows_tcp_once.sh — the TCP server that keeps no state (flowgen(8),
# FLOW TABLES: SYN cookies, RFC 4987 §3.6). [loop, loop], one flowgen:
#  - test/data/flows_tcp_once.yaml (tcp_short's exchange, the client
#    holding each connection 500 ms between its handshake and its
#    request) at -m 2000 for 2 s, port 1's frames captured: every
#    connection completes on both sides with nothing failed and no frame
#    unknown on either port; a second into the run the client holds
#    connections and the server side none. On the wire, the first
#    connection is 4 frames from the client (SYN, the handshake's ACK,
#    the request, FIN) and 3 from the server: its SYN-ACK acknowledges
#    the SYN and carries an MSS option of 1460 and a sequence number whose
#    low 2 bits name the client's MSS of 1460 (3); the handshake's ACK
#    gets no answer; the answer is 512 bytes with FIN, PSH and ACK at that
#    number + 1, acknowledging the 64-byte request; the server's last
#    segment acknowledges the client's FIN; every frame the server sends
#    has right IPv4 and TCP checksums.
#  - test/data/flows_tcp_split.yaml (a 3,000-byte request, three
#    segments, which a stateless answer cannot take): all complete on
#    both sides, nothing failed, the server received 3,000 bytes each in
#    more than 3 frames each.
#  - test/data/flows_tcp_bigans.yaml (a 4,000-byte answer, beyond the
#    MSS): the same, the client received 4,000 bytes each in more than 3
#    frames each.

. "$(dirname "$0")/lib.sh"

need_flowgen

D=$FG_TOP/test/data
O=$FG_TMP/once.out
run()
{ # PROFILE NAME: a 2 s run at 2,000 a second, stats a second in and at the end
	echo "start -f $1 -m 2000 -d 2; sleep 1; stats --json; wait 10; sleep 0.3; stats --json; \
capture save $FG_TMP/$2.pcapng; $CAP"
}
CAP="capture start -p 1 --both --limit 40 --filter 'tcp and host 198.18.0.1 and port 1024'"
FG_TIMEOUT=90 fg_plain -C "$(fg_loop_cfg)" -x "$CAP; \
$(run "$D/flows_tcp_once.yaml" short); $(run "$D/flows_tcp_split.yaml" split); \
$(run "$D/flows_tcp_bigans.yaml" bigans)" >"$O" 2>&1
rc=$?
check_eq "tcp once: flowgen exits 0" 0 "$rc"
[ "$rc" = 0 ] || grep -v '^{' "$O" | tail -n 5 | sed 's/^/# tcp once: /'

# S[i]: the stats objects in order (mid-run, end; three runs); F: the
# first connection (198.18.0.1 port 1024) of the capture of the first run,
# port 1's frames as TCP
PRE='import sys, struct
import fg_pcapng
from hostile import csum
from fg_e2e_json import objects, at
S = [o for o in objects(open(sys.argv[1]).read()) if "global" in o]
def v(i, p):
    return at(S[i], p)
def tcp4(fr):
    if len(fr) < 54 or fr[12:14] != b"\x08\x00" or fr[23] != 6:
        return None
    ihl = (fr[14] & 15) * 4
    t = 14 + ihl
    tot = struct.unpack_from(">H", fr, 16)[0]
    sp, dp, seq, ack, off, fl = struct.unpack_from(">HHIIBB", fr, t)
    hl = (off >> 4) * 4
    mss = struct.unpack_from(">H", fr, t + 22)[0] if hl >= 24 and fr[t + 20] == 2 else 0
    return dict(src=".".join(map(str, fr[26:30])), dst=".".join(map(str, fr[30:34])), sp=sp, dp=dp, seq=seq, ack=ack, fl=fl,
                mss=mss, len=14 + tot - t - hl, ip=fr[14:t], l4=fr[t:14 + tot])
def sums_ok(t):
    ph = t["ip"][12:20] + struct.pack(">BBH", 0, 6, len(t["l4"]))
    return csum(t["ip"]) == 0 and csum(ph + t["l4"]) == 0
T = [t for t in (tcp4(f) for _, f in fg_pcapng.frames(sys.argv[1].rsplit("/", 1)[0] + "/short.pcapng")) if t]
c0 = T[0]
def ends(t):
    return {(t["src"], t["sp"]), (t["dst"], t["dp"])}
F = [t for t in T if ends(t) == ends(c0)]
SRV = [t for t in F if t["src"].startswith("198.19.")]
CLI = [t for t in F if t["src"].startswith("198.18.")]
SYN, HACK, REQ, CFIN = CLI[:4] if len(CLI) == 4 else [c0] * 4
SA, ANS, LAST = SRV[:3] if len(SRV) == 3 else [c0] * 3
def run_ok(i):
    return (v(i, "flows.client.started") > 0 and v(i, "flows.client.completed") == v(i, "flows.client.started")
            and v(i, "flows.server.accepted") == v(i, "flows.client.started")
            and v(i, "flows.server.completed") == v(i, "flows.client.started")
            and v(i, "flows.client.failed") == 0 and v(i, "flows.server.failed") == 0
            and v(i, "ports.0.rx_unknown") == 0 and v(i, "ports.1.rx_unknown") == 0)'
eval_checks "$PRE" "$O" \
	"once: 6 stats objects (a second in and at the end, three runs)" \
	'len(S) == 6' \
	"once: every connection completed on both sides, none failed, no frame unknown" \
	'run_ok(1) and v(1, "flows.client.started") >= 3600' \
	"once: a second in, the client holds connections and the server side none" \
	'v(0, "flows.client.active") > 0 and v(0, "flows.server.active") == 0 and v(0, "flows.server.accepted") > 0' \
	"once wire: the first connection is 4 frames from the client, 3 from the server, SYN first" \
	'len(CLI) == 4 and len(SRV) == 3 and SYN["fl"] == 0x02' \
	"once wire: the SYN-ACK acknowledges the SYN, MSS 1460, cookie's MSS bits 3" \
	'SA["fl"] == 0x12 and SA["ack"] == SYN["seq"] + 1 and SA["mss"] == 1460 and SA["seq"] & 3 == 3' \
	"once wire: the handshake's ACK, alone, gets no answer" \
	'HACK["fl"] == 0x10 and HACK["len"] == 0 and HACK["ack"] == SA["seq"] + 1 and REQ["seq"] == HACK["seq"]' \
	"once wire: the answer is 512 B with FIN, PSH, ACK after the 64 B request" \
	'REQ["len"] == 64 and ANS["fl"] == 0x19 and ANS["len"] == 512 and ANS["seq"] == SA["seq"] + 1 and ANS["ack"] == REQ["seq"] + 64' \
	"once wire: the server's last segment acknowledges the client's FIN" \
	'CFIN["fl"] & 1 and CFIN["ack"] == ANS["seq"] + 513 and LAST["fl"] == 0x10 and LAST["ack"] == CFIN["seq"] + 1 and LAST["seq"] == ANS["seq"] + 513' \
	"once wire: the server's frames have right IPv4 and TCP checksums" \
	'all(sums_ok(t) for t in T if t["src"].startswith("198.19."))' \
	"split request: all completed, none failed, no frame unknown" \
	'run_ok(3)' \
	"split request: the server received 3,000 B each, in more than 3 frames each" \
	'v(3, "flows.server.rx_bytes") == 3000 * v(3, "flows.client.completed") and v(3, "flows.server.rx_pkts") > 3 * v(3, "flows.client.completed")' \
	"4,000 B answer: all completed, none failed, no frame unknown" \
	'run_ok(5)' \
	"4,000 B answer: the client received 4,000 B each, in more than 3 frames each" \
	'v(5, "flows.client.rx_bytes") == 4000 * v(5, "flows.client.completed") and v(5, "flows.client.rx_pkts") > 3 * v(5, "flows.client.completed")'

finish
