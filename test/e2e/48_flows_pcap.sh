#!/usr/bin/env bash
#
# 48_flows_pcap.sh — templates built from a capture (flowgen-profile(5),
# templates: `client: {pcap: FILE}`) through the NAT lab:
#
# 1. In the DUT's namespace, curl fetches a page from Python's http.server
#    while dumpcap records the loopback: that capture, as recorded, is the
#    template's client (protocol and port come from it, the server's
#    program is implied).
# 2. Replayed flowgen to flowgen through the masquerade: every flow
#    completes, none fails, and each moves the recorded request's and
#    response's byte counts. tshark, over flowgen's own capture of the
#    server port, follows every TCP stream: each carries exactly the
#    recorded request from the client and exactly the recorded response
#    from the server.
# 3. profiles/http_simple.yaml (the capture `make` writes from
#    examples/http_pcap.py) completes every flow too.

. "$(dirname "$0")/lib.sh"

need_root "flows pcap: lab"
need_flowgen
for t in tshark dumpcap curl; do
	command -v "$t" >/dev/null || {
		fail "flows pcap: $t" "$t is not installed (make deps)"
		finish
		exit
	}
done

lab_up nat || exit 1

# --- 1. record curl against http.server -------------------------------------
mkdir -p "$FG_TMP/www"
python3 -c 'import sys; sys.stdout.write("".join("line %04d of a page to replay\n" % i for i in range(60)))' \
	>"$FG_TMP/www/page.txt"
ip -n "$NS_DUT" link set lo up
ip netns exec "$NS_DUT" python3 -m http.server 8080 --bind 198.19.1.1 --directory "$FG_TMP/www" \
	>"$FG_TMP/http.log" 2>&1 &
at_exit "kill $! 2>/dev/null"
listening()
{
	in_dut ss -Hltn 'sport = :8080' | grep -q .
}
for ((i = 0; i < 50; i++)); do
	listening && break
	sleep 0.2
done
check "pcap: http.server listens in the DUT's namespace" listening
ip netns exec "$NS_DUT" dumpcap -q -i lo -f 'tcp port 8080' -w "$FG_TMP/rec.pcapng" \
	>"$FG_TMP/dumpcap.log" 2>&1 &
DPID=$!
at_exit "kill $DPID 2>/dev/null"
check "pcap: dumpcap records the DUT's loopback" wait_for 'Capturing on' "$FG_TMP/dumpcap.log" 10 "$DPID"
check "pcap: curl gets the page" in_dut curl -sf -o "$FG_TMP/got.txt" http://198.19.1.1:8080/page.txt
# let dumpcap write the last packets (the FIN's ACK) before it stops
sleep 0.3
kill -INT "$DPID"
wait "$DPID"
check "pcap: the page came back whole" cmp -s "$FG_TMP/www/page.txt" "$FG_TMP/got.txt"

# the recorded request and response: the stream's bytes each way
follow_py='
import sys, subprocess, collections
def streams(path, server_port):
    out = subprocess.run(["tshark", "-r", path, "-Y", "tcp.len > 0", "-T", "fields",
                          "-e", "tcp.stream", "-e", "tcp.srcport", "-e", "tcp.seq", "-e", "tcp.payload"],
                         capture_output=True, text=True).stdout
    seg = collections.defaultdict(dict)
    for line in out.splitlines():
        st, sport, seq, pay = line.split("\t")
        seg[(st, sport == server_port)][int(seq)] = bytes.fromhex(pay.replace(":", ""))
    res = collections.defaultdict(dict)
    for (st, srv), d in seg.items():
        b, nxt = b"", 1
        for s in sorted(d):
            if s + len(d[s]) > nxt:
                b += d[s][nxt - s:]
                nxt = s + len(d[s])
        res[st]["response" if srv else "request"] = b
    return res
'
REC=$(python3 -c "$follow_py
r = streams('$FG_TMP/rec.pcapng', '8080')
s = list(r.values())
print(len(s), len(s[0].get('request', b'')), len(s[0].get('response', b'')))" 2>&1)
read -r nrec REQ RESP <<<"$REC"
echo "# recorded: $REC"
check_eq "pcap: one HTTP exchange recorded" 1 "$nrec"
check_ge "pcap: the recorded response holds the page" "${RESP:-0}" \
	"$(stat -c %s "$FG_TMP/www/page.txt")"

cat >"$FG_TMP/rec.yaml" <<EOF
mode: flows
ip_gen:
  client: {range: [198.18.0.1, 198.18.0.100]}
  server: {range: [198.19.0.1, 198.19.0.100]}
templates:
  - name: recorded
    client: {pcap: rec.pcapng}
EOF

# --- 2. the replay through the NAT ---------------------------------------------
FG_TIMEOUT=60 fg_open "$FG_TMP/session.out"
JP="flows.client.started flows.client.completed flows.client.failed flows.client.tx_bytes flows.client.rx_bytes flows.server.accepted flows.server.completed flows.server.rx_bytes flows.server.tx_bytes flows.client.fail_reasons.payload_mismatch"
fg_run rec "arp; capture start -p 1; start -f $FG_TMP/rec.yaml -m 40 -d 1; wait 15; capture stop; stats --json; capture save $FG_TMP/fg.pcapng"
J=$FG_TMP/rec.out
mapfile -t v < <(jvals "$J" $JP)
started=${v[0]}
echo "# replay: started $started completed ${v[1]} failed ${v[2]}"
check_ge "pcap replay: flows started (40/s for 1 s)" "${started:-0}" 30
check_eq "pcap replay: every flow completed" "$started" "${v[1]}"
check_eq "pcap replay: none failed" 0 "${v[2]}"
check_eq "pcap replay: no payload found bad" 0 "${v[9]}"
check_eq "pcap replay: the client sent the recorded request per flow" "$((started * REQ))" "${v[3]}"
check_eq "pcap replay: the client received the recorded response per flow" "$((started * RESP))" "${v[4]}"
check_eq "pcap replay: the server accepted every flow" "$started" "${v[5]}"
check_eq "pcap replay: the server received the request, sent the response, per flow" \
	"$((started * REQ)) $((started * RESP))" "${v[7]} ${v[8]}"
check_eq "pcap replay: tshark follows every stream and finds the recorded bytes each way" \
	"$started $started" \
	"$(python3 -c "$follow_py
rec = list(streams('$FG_TMP/rec.pcapng', '8080').values())[0]
fg = streams('$FG_TMP/fg.pcapng', '8080')
print(len(fg), sum(1 for s in fg.values() if s.get('request') == rec['request'] and s.get('response') == rec['response']))" 2>&1)"

# --- 3. the shipped profile ------------------------------------------------------
fg_run simple "start -f $FG_TOP/profiles/http_simple.yaml -m 40 -d 1; wait 15; stats --json"
mapfile -t v < <(jvals "$FG_TMP/simple.out" flows.client.started flows.client.completed flows.client.failed)
check_ge "http_simple: flows started" "${v[0]:-0}" 30
check_eq "http_simple: every flow completed, none failed" "${v[0]} 0" "${v[1]} ${v[2]}"
fg_close
lab_down
finish
