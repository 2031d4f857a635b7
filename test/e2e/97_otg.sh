#!/usr/bin/env bash
#
# 97_otg.sh — the Open Traffic Generator model over the HTTP API
# (flowgen(8), OTG MODEL) on a [loop, loop] config: a config of four
# flows (IPv4 UDP of a fixed size, IPv6 UDP with incrementing source
# addresses, custom IMIX weight pairs, sizes that increment), each with
# loss and latency metrics and a duration of its own (fixed_packets, or
# fixed_seconds at a rate in pps: the 0.5 s flow stops while the others
# still send), and a pcapng capture on the receiving port.
# POST /config, GET /config gives the flows back; the capture started
# through /control/state, then the traffic; /monitor/metrics polled until
# every flow's transmit is stopped; each flow sent its packets, received
# all of them, latency 0 < minimum <= average <= maximum; the ports' frames
# add up to the flows'; each flow's bytes are the sizes it sent and
# received (frames x size for a fixed size; the IMIX and increment flows
# against the sizes the capture holds); tagged_metrics honoured (empty: no
# metric tags), the port column last_change refused; the capture stopped
# and fetched through /monitor/capture, which tshark reads with as many
# frames as the port received. Fields accepted without effect
# (metrics.enable false, metrics.loss false, captures' overwrite true) are
# each a warning naming them. Errors: malformed JSON, a wrong type, an unknown header, an
# unsupported feature (devices) each 400 with the model's Error and the
# path; an OTG start while the console's run goes is refused. Meanwhile
# examples/otg_two.py drives two more instances (each with a DPDK prefix
# and an API port of its own) as one test and prints one merged table:
# they start once the seven flows have stopped (their workers poll a CPU
# each, not beside the traffic and the capture measured above), and run
# beside the checks that follow, none of which is a timing (otg_two's
# flows send exactly their packets, each frame received on the loop pair
# by the worker that sent it).
#
# FG_E2E_NOHUGE=1 runs flowgen with --no-huge (no hugepages taken).

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fg_jq.sh"

CFG=$(fg_loop_cfg)
EAL=()
[ "${FG_E2E_NOHUGE:-0}" = 1 ] && EAL=(-- --no-huge)
need_flowgen
for t in curl tshark; do
	command -v "$t" >/dev/null 2>&1 || { fail "$t is installed" "make deps installs it"; finish; exit; }
done

OUT=$FG_TMP/out
jq_start
# jqs EXPR... : each EXPR over the last body as $(jq_ EXPR) gives it, all
# in one exchange with fg_jq.sh's python3: JQ[i] the i-th answer
jqs()
{
	local e n l v
	printf '%s' "$B" >"$FG_TMP/jq.in"
	for e; do
		printf '%s\t%s\n' "$FG_TMP/jq.in" "$e"
	done >&"$FG_JQW"
	JQ=()
	for e; do
		read -r n <&"$FG_JQR" || return 0
		v=
		for ((; n > 0; n--)); do
			IFS= read -r l <&"$FG_JQR"
			v+=$l$'\n'
		done
		while [ "${v%$'\n'}" != "$v" ]; do v=${v%$'\n'}; done
		JQ+=("$v")
	done
}
if ! api_start "${EAL[@]}"; then
	fail "flowgen --api listens" "$(tail -n 5 "$FG_TMP/err")"
	finish
	exit
fi

UDP='{"choice": "udp", "udp": {"src_port": {"choice": "value", "value": 1024},
	"dst_port": {"choice": "value", "value": 4321}}}'
# flow NAME L3 SIZE PPS DURATION [L4] : one flow of the config, p1 -> p2
flow()
{
	local l3
	case $2 in
	v4) l3='{"choice": "ipv4", "ipv4": {"src": {"choice": "value", "value": "198.18.1.10"},
		"dst": {"choice": "value", "value": "198.19.1.10"}}}' ;;
	v6) l3='{"choice": "ipv6", "ipv6": {"src": {"choice": "increment", "increment":
		{"start": "2001:db8:1::10", "step": "::1", "count": 100}},
		"dst": {"choice": "value", "value": "2001:db8:2::10"}}}' ;;
	esac
	cat <<-EOF
	{"name": "$1", "tx_rx": {"choice": "port", "port": {"tx_name": "p1", "rx_names": ["p2"]}},
	 "packet": [{"choice": "ethernet", "ethernet": {}}, $l3, ${6:-$UDP}],
	 "size": $3, "rate": {"choice": "pps", "pps": $4},
	 "duration": $5,
	 "metrics": {"enable": true, "loss": true, "latency": {"enable": true}}}
	EOF
}

IMIX='{"choice": "weight_pairs", "weight_pairs": {"choice": "custom", "custom":
	[{"size": 64, "weight": 7}, {"size": 570, "weight": 4}, {"size": 1518, "weight": 1}]}}'
INC='{"choice": "increment", "increment": {"start": 64, "end": 1518, "step": 50}}'
pk() { echo "{\"choice\": \"fixed_packets\", \"fixed_packets\": {\"packets\": $1}}"; }
fx() { echo "{\"choice\": \"fixed\", \"fixed\": $1}"; }
# TCP SYN+ACK segments (seq 1000, window 1024) from 50 source ports; ICMP
# and ICMPv6 echo requests, identifier 7, sequence numbers counting up
TCP='{"choice": "tcp", "tcp": {"src_port": {"choice": "increment", "increment":
	{"start": 2000, "step": 1, "count": 50}}, "dst_port": {"choice": "value", "value": 80},
	"seq_num": {"choice": "value", "value": 1000}, "window": {"choice": "value", "value": 1024},
	"ctl_syn": {"choice": "value", "value": 1}, "ctl_ack": {"choice": "value", "value": 1}}}'
echo_req() { echo "{\"choice\": \"$1\", \"$1\": {\"choice\": \"echo\", \"echo\": {
	\"identifier\": {\"choice\": \"value\", \"value\": 7}, \"sequence_number\":
	{\"choice\": \"increment\", \"increment\": {\"start\": 1, \"step\": 1, \"count\": 1000}}}}}"; }
# each flow its own duration: 1.5 s, 0.5 s and 1.5 s of packets, and one
# second of 500 pps (fixed_seconds at a rate in pps: 500 frames) with
# sizes that increment by 50 from 64
CONF=$FG_TMP/config.json
cat >"$CONF" <<EOF
{"ports": [{"name": "p1", "location": "0"}, {"name": "p2", "location": "1"}],
 "captures": [{"name": "c2", "port_names": ["p2"], "format": "pcapng"}],
 "flows": [$(flow v4 v4 '{"choice": "fixed", "fixed": 128}' 1000 "$(pk 1500)"),
           $(flow v6 v6 '{"choice": "fixed", "fixed": 256}' 2000 "$(pk 1000)"),
           $(flow imix v4 "$IMIX" 1200 "$(pk 1800)"),
           $(flow inc v4 "$INC" 500 '{"choice": "fixed_seconds", "fixed_seconds": {"seconds": 1}}'),
           $(flow tcp v4 "$(fx 100)" 500 "$(pk 600)" "$TCP"),
           $(flow icmp v4 "$(fx 90)" 500 "$(pk 400)" "$(echo_req icmp)"),
           $(flow icmp6 v6 "$(fx 120)" 500 "$(pk 300)" "$(echo_req icmpv6)")]}
EOF
declare -A PACKETS=([v4]=1500 [v6]=1000 [imix]=1800 [inc]=500 [tcp]=600 [icmp]=400 [icmp6]=300)

# --- the config -----------------------------------------------------------------

http POST /config "@$CONF"
check_eq "POST /config of seven flows: 200" 200 "$ST"
check_eq "POST /config: no warning" "[]" "$(jq_ 'o["warnings"]')"
http GET /config
check_eq "GET /config: 200" 200 "$ST"
check_eq "GET /config gives back the flows, ports and capture that were set" True \
	"$(python3 -c '
import json, sys
got, want = json.loads(sys.argv[1]), json.load(open(sys.argv[2]))
def names(o, k): return [x["name"] for x in o.get(k, [])]
ok = all(names(got, k) == names(want, k) for k in ("ports", "flows", "captures"))
for g, w in zip(got["flows"], want["flows"]):
    ok = ok and all(g[k] == w[k] for k in ("tx_rx", "size", "rate", "duration"))
    ok = ok and g["packet"][1] == w["packet"][1]
print(ok)' "$B" "$CONF" 2>&1)"

# --- capture, traffic, metrics --------------------------------------------------

http POST /control/state '{"choice": "port", "port": {"choice": "capture",
	"capture": {"port_names": ["p2"], "state": "start"}}}'
check_eq "capture start on p2: 200" 200 "$ST"
http POST /control/state '{"choice": "traffic", "traffic": {"choice": "flow_transmit",
	"flow_transmit": {"state": "start"}}}'
check_eq "flow_transmit start: 200" 200 "$ST"

stopped=no
early=no
for ((i = 0; i < 150; i++)); do
	http POST /monitor/metrics '{"choice": "flow", "flow": {}}'
	# the 0.5 s flow stops on its own while the 1.5 s ones still send
	jqs '(lambda t: t["v4"] == t["imix"] == "started" and t["v6"] == "stopped")({f["name"]: f["transmit"] for f in o["flow_metrics"]})' \
		'len(o["flow_metrics"]) == 7 and all(f["transmit"] == "stopped" for f in o["flow_metrics"])'
	[ "${JQ[0]}" = True ] && early=yes
	if [ "${JQ[1]}" = True ]; then
		stopped=yes
		break
	fi
	sleep 0.2
done
check_eq "flow metrics polled until every flow's transmit is stopped" yes "$stopped"
check_eq "the flow of 1,000 packets stopped on its own while the others still sent" yes "$early"
FLOWS=$B

# --- two instances as one test: examples/otg_two.py, from here on -----------------

declare -A APID P
# two free loopback ports from one python3 (both bound at once: not the same)
read -r P[a] P[b] < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*(x.getsockname()[1] for x in s))')
for i in a b; do
	sed "s/^- version: 2$/- version: 2\n  prefix: fg97-$$-$i/" "$CFG" >"$FG_TMP/$i.yaml"
	# DPDK makes a runtime directory for the prefix, --in-memory or not
	at_exit "rm -rf /var/run/dpdk/fg97-$$-$i ${XDG_RUNTIME_DIR:-/tmp}/dpdk/fg97-$$-$i"
	"$FG_BIN" -C "$FG_TMP/$i.yaml" --api "${P[$i]}" "${EAL[@]}" </dev/null >"$FG_TMP/$i.out" 2>"$FG_TMP/$i.err" &
	APID[$i]=$!
	at_exit "kill ${APID[$i]}"
done
# two : once both serve the API, otg_two.py drives them (a lane beside the
# checks below)
two()
{
	# the console's FIFO and fg_jq.sh's are not this lane's to hold open
	exec 7>&- {FG_JQW}>&- {FG_JQR}<&-
	for i in a b; do
		check "instance $i (prefix fg97-$$-$i) serves the API" \
			wait_for '^api: listening on' "$FG_TMP/$i.err" 60 "${APID[$i]}"
	done
	timeout 60 python3 "$FG_TOP/examples/otg_two.py" "http://127.0.0.1:${P[a]}" "http://127.0.0.1:${P[b]}" \
		>"$FG_TMP/two.out" 2>&1
	check_eq "otg_two.py: both instances' flows received every frame (exit 0)" 0 "$?"
}
lane two two

# each flow's figures, all asked of one python3 (jqs)
q=()
for f in v4 v6 imix inc tcp icmp icmp6; do
	m="{f[\"name\"]: f for f in o[\"flow_metrics\"]}[\"$f\"]"
	q+=("$m[\"frames_tx\"]"
		"$m[\"frames_rx\"] == $m[\"frames_tx\"] and $m[\"loss\"] == 0"
		"0 < $m[\"latency\"][\"minimum_ns\"] <= $m[\"latency\"][\"average_ns\"] <= $m[\"latency\"][\"maximum_ns\"]")
done
# bytes are counted per stream as its frames are sent and received: a flow
# of one size, frames x size (FCS included) both ways, at 128 and 256 bytes
# as at 100, 90 and 120
declare -A SIZE=([v4]=128 [v6]=256 [tcp]=100 [icmp]=90 [icmp6]=120)
for f in v4 v6 tcp icmp icmp6; do
	m="{f[\"name\"]: f for f in o[\"flow_metrics\"]}[\"$f\"]"
	q+=("'%d %d' % ($m[\"bytes_tx\"], $m[\"bytes_rx\"])")
done
q+=('sum(f["frames_tx"] for f in o["flow_metrics"])' 'sum(f["frames_rx"] for f in o["flow_metrics"])'
	'sum(f["bytes_tx"] for f in o["flow_metrics"])' 'sum(f["bytes_rx"] for f in o["flow_metrics"])')
B=$FLOWS
jqs "${q[@]}"
j=0
for f in v4 v6 imix inc tcp icmp icmp6; do
	check_eq "flow $f: frames_tx equals its packets" "${PACKETS[$f]}" "${JQ[j]}"
	check_eq "flow $f: frames_rx equals frames_tx, loss 0" "True" "${JQ[j + 1]}"
	check_eq "flow $f: latency 0 < minimum <= average <= maximum" "True" "${JQ[j + 2]}"
	j=$((j + 3))
done
for f in v4 v6 tcp icmp icmp6; do
	check_eq "flow $f: bytes_tx = frames_tx x ${SIZE[$f]}, bytes_rx = frames_rx x ${SIZE[$f]}" \
		"$((PACKETS[$f] * SIZE[$f])) $((PACKETS[$f] * SIZE[$f]))" "${JQ[j]}"
	j=$((j + 1))
done
sum_tx=${JQ[j]} sum_rx=${JQ[j + 1]} sum_btx=${JQ[j + 2]} sum_brx=${JQ[j + 3]}
http POST /monitor/metrics '{"choice": "flow", "flow": {"tagged_metrics": {"include": true,
	"metric_names": ["frames_rx"]}}}'
check_eq "tagged_metrics asked for: an empty list per flow (a config has no metric tags)" "200 True" \
	"$ST $(jq_ 'all(f["tagged_metrics"] == [] for f in o["flow_metrics"])')"
http POST /monitor/metrics '{"choice": "flow", "flow": {"tagged_metrics": {"include": false}}}'
check_eq "tagged_metrics include false: none" "200 True" \
	"$ST $(jq_ 'all("tagged_metrics" not in f for f in o["flow_metrics"])')"
http POST /monitor/metrics '{"choice": "flow", "flow": {"tagged_metrics": {"metric_names": ["loss"]}}}'
check_eq "tagged_metrics of a name the model lacks: 400 naming it" \
	"400 flow.tagged_metrics.metric_names[0]: not one of the model's names" "$ST $(jq_ 'o["errors"][0]')"
http POST /monitor/metrics '{"choice": "port", "port": {"column_names": ["frames_tx", "last_change"]}}'
check_eq "port column last_change: 400 naming it (flowgen keeps no such time)" "400 True" \
	"$ST $(jq_ 'o["errors"][0].startswith("port.column_names[1]: last_change: not supported")')"
http POST /monitor/metrics '{"choice": "port", "port": {}}'
check_eq "port metrics: 200" 200 "$ST"
jqs '{p["name"]: p for p in o["port_metrics"]}["p1"]["frames_tx"]' '{p["name"]: p for p in o["port_metrics"]}["p2"]["frames_rx"]' \
	'{p["name"]: p for p in o["port_metrics"]}["p1"]["bytes_tx"]' '{p["name"]: p for p in o["port_metrics"]}["p2"]["bytes_rx"]' \
	'" ".join([p["link"] for p in o["port_metrics"]] + [{p["name"]: p for p in o["port_metrics"]}["p2"]["capture"]])'
check_eq "port p1's frames_tx add up to the flows'" "$sum_tx" "${JQ[0]}"
check_eq "port p2's frames_rx add up to the flows'" "$sum_rx" "${JQ[1]}"
check_eq "port p1's bytes_tx add up to the flows'" "$sum_btx" "${JQ[2]}"
check_eq "port p2's bytes_rx add up to the flows'" "$sum_brx" "${JQ[3]}"
check_eq "ports: link up, p2 capturing" "up up started" "${JQ[4]}"

http POST /control/state '{"choice": "port", "port": {"choice": "capture",
	"capture": {"port_names": ["p2"], "state": "stop"}}}'
check_eq "capture stop on p2: 200" 200 "$ST"
st=$(curl -s -m 30 -o "$FG_TMP/p2.pcapng" -w '%{http_code}' -X POST --data-binary '{"port_name": "p2"}' \
	"http://127.0.0.1:$PORT/monitor/capture")
check_eq "POST /monitor/capture of p2: 200" 200 "$st"

# tshark reads the capture once (its start-up is a second of CPU), in the
# background while the error checks run and otg_two.py drives the two
# instances: a
# line per frame of the fields the checks further down read, with header
# fields' checksums checked (tshark checks them when asked: status 1 is
# good), and the frame's protocols; tsf PROTOS FIELD... gives the named
# fields of the frames that hold every protocol of PROTOS ("ipv6 udp",
# "tcp": what the display filters "ipv6 && udp" and "tcp" select; "" for
# every frame)
TSF=(frame.protocols frame.len ipv6.src tcp.flags.ack tcp.flags.syn tcp.seq_raw tcp.window_size_value
	tcp.srcport tcp.checksum.status ip.checksum.status tcp.flags icmp.type icmp.ident icmp.seq
	icmp.checksum.status icmpv6.type icmpv6.echo.identifier icmpv6.checksum.status)
tshark -r "$FG_TMP/p2.pcapng" -o tcp.check_checksum:TRUE -o ip.check_checksum:TRUE -T fields \
	$(printf -- '-e %s ' "${TSF[@]}") >"$FG_TMP/p2.tsv" 2>"$FG_TMP/p2.tsv.err" &
TSHARK=$!
tsf()
{
	local want=$1 f i idx=
	shift
	for f in "$@"; do
		for i in "${!TSF[@]}"; do
			[ "${TSF[$i]}" = "$f" ] && idx="$idx $((i + 1))"
		done
	done
	awk -F'\t' -v want="$want" -v idx="$idx" 'BEGIN { nw = split(want, W, " "); ni = split(idx, I, " ") }
		{ np = split($1, P, ":"); delete H; for (i = 1; i <= np; i++) H[P[i]] = 1
		  for (i = 1; i <= nw; i++) if (!(W[i] in H)) next
		  l = $I[1]; for (i = 2; i <= ni; i++) l = l "\t" $I[i]; print l }' "$FG_TMP/p2.tsv"
}
# --- errors: the model's Error with the path ------------------------------------

http POST /config '{"flows": [ '
check_eq "malformed JSON: 400, kind validation" "400 validation" "$ST $(jq_ 'o["kind"]')"
http POST /config '{"flows": 3}'
check_eq "a wrong type: 400 naming flows" "400 True" "$ST $(jq_ 'o["errors"][0].startswith("flows")')"
sed 's/"choice": "udp", "udp"/"choice": "gre", "gre"/' "$CONF" >"$FG_TMP/gre.json"
http POST /config "@$FG_TMP/gre.json"
check_eq "an unknown header: 400 naming flows[0].packet[2]" "400 True" \
	"$ST $(jq_ 'o["errors"][0].startswith("flows[0].packet[2]")')"
http POST /config '{"ports": [{"name": "p1", "location": "0"}], "devices": [{"name": "d1"}]}'
check_eq "an unsupported feature (devices): 400 naming devices" "400 True" \
	"$ST $(jq_ 'o["errors"][0].startswith("devices")')"
http GET /config
check_eq "a refused config leaves the last good one" 7 "$(jq_ 'len(o["flows"])')"
# fields the model has that flowgen accepts and does not act on: a warning
# each, naming the field
python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))
c["flows"][0]["metrics"]["enable"] = False
c["flows"][1]["metrics"]["loss"] = False
c["captures"][0]["overwrite"] = True
json.dump(c, open(sys.argv[2], "w"))' "$CONF" "$FG_TMP/warn.json"
http POST /config "@$FG_TMP/warn.json"
check_eq "metrics.enable false, metrics.loss false, overwrite true: 200, a warning naming each" \
	"200 flows[0].metrics.enable|flows[1].metrics.loss|captures[0].overwrite" \
	"$ST $(jq_ '"|".join(w.split(":")[0] for w in o["warnings"])')"

# --- one run life cycle: the console's run refuses an OTG start ---------------------

printf 'start -f %s -d 20 -t drain=0.3\n' "$FG_TOP/profiles/stl_64b.yaml" >&7
check "a console start" wait_for '^started ' "$OUT" 20 "$FG_PID"
http POST /control/state '{"choice": "traffic", "traffic": {"choice": "flow_transmit",
	"flow_transmit": {"state": "start"}}}'
check_eq "a console run going: an OTG start is refused (400)" 400 "$ST"
check_eq "the refusal is control's, word for word" \
	"traffic.flow_transmit: a run started from the console is going: the API cannot start another until it ends or is stopped" \
	"$(jq_ 'o["errors"][0]')"
printf 'stop\n' >&7
http POST /flowgen/v1/command '{"command": "quit"}'
wait "$FG_PID"
check_eq "quit through the API: flowgen exits 0" 0 "$?"

# --- the capture as tshark read it ----------------------------------------------

wait "$TSHARK"
check_eq "the capture: tshark reads as many frames as p2 received" "$sum_rx" \
	"$(tsf '' frame.len | wc -l)"
check_eq "the capture: the IPv6 flow's 1000 frames, from 100 sources" "1000 100" \
	"$(tsf 'ipv6 udp' ipv6.src | sort | uniq -c | awk '{ n += $1; k++ } END { print n, k }')"
# the increment flow's sizes (the other flows send 128, 256 and the IMIX
# 64, 570, 1518 bytes): every size from 64 by 50 up to 1514, none other.
# The flows of several sizes: their bytes against the sizes the capture
# holds. The IMIX's 570 and 1518 and the increment's 114 .. 1514 are no
# other flow's; 64 is both's: the rest of each flow's frames. Their sum is
# the capture's bytes (frame.len + the FCS) too. Both from one python3.
tsf '' frame.len >"$FG_TMP/lens"
printf '%s' "$FLOWS" >"$FG_TMP/flows.json"
eval_checks '
import collections, json, sys
got = {int(l) + 4 for l in open(sys.argv[1]) if l.strip()} - {128, 256, 570, 1518, 100, 90, 120}
n = collections.Counter(int(l) + 4 for l in open(sys.argv[1]) if l.strip())
m = {f["name"]: f for f in json.loads(open("'"$FG_TMP/flows.json"'").read())["flow_metrics"]}
imix = {570: n[570], 1518: n[1518]}
imix[64] = m["imix"]["frames_rx"] - sum(imix.values())
inc = {s: n[s] for s in range(114, 1519, 50)}
inc[64] = m["inc"]["frames_rx"] - sum(inc.values())
ok = all(m[f]["bytes_tx"] == m[f]["bytes_rx"] == sum(s * k for s, k in c.items()) and
         min(c.values()) > 0 for f, c in (("imix", imix), ("inc", inc)))
ok = ok and n[64] == imix[64] + inc[64]
ok = ok and sum(s * k for s, k in n.items()) == sum(f["bytes_rx"] for f in m.values())' "$FG_TMP/lens" \
	"the capture: the increment flow's sizes, 64 to 1514 by 50 (FCS included)" \
	'got == set(range(64, 1519, 50))' \
	"imix and inc: bytes_tx = bytes_rx = the sum of the sizes received (per-size counts of the capture)" \
	'ok if ok else (imix, inc, {f: (m[f]["bytes_tx"], m[f]["bytes_rx"]) for f in m})'

# the TCP, ICMP and ICMPv6 flows as tshark reads them: header fields and
# checksums
check_eq "the capture: 600 TCP segments, SYN+ACK, seq 1000, window 1024, 50 source ports, good checksums" \
	"600 A-S 1000 1024 50 1-1" \
	"$(tsf tcp tcp.flags.ack tcp.flags.syn tcp.seq_raw tcp.window_size_value \
		tcp.srcport tcp.checksum.status ip.checksum.status tcp.flags | awk -F'\t' '
		{ n++; f[($1 == "1" && $2 == "1" && $8 == "0x0012" ? "A-S" : "other") " " $3 " " $4]++
		  p[$5]++; ck[$6 "-" $7]++ }
		END { for (k in f) fk = fk k; for (k in p) np++; for (k in ck) c = c k
		      print n, fk, np, c }')"
check_eq "the capture: 400 ICMP echo requests, identifier 7, sequence 1 to 400, good checksums" \
	"400 8 7 1 400 1" \
	"$(tsf icmp icmp.type icmp.ident icmp.seq icmp.checksum.status | awk -F'\t' '{ n++; t[$1 " " $2]++; if (!lo || $3 < lo) lo = $3
		if ($3 > hi) hi = $3; c[$4]++ } END { for (k in t) tk = tk k; for (k in c) ck = ck k
		print n, tk, lo, hi, ck }')"
check_eq "the capture: 300 ICMPv6 echo requests, identifier 7, good checksums" "300 128 0x0007 1" \
	"$(tsf icmpv6 icmpv6.type icmpv6.echo.identifier icmpv6.checksum.status | sort | uniq -c | awk '{ printf "%s%s %s %s %s", s, $1, $2, $3, $4; s = " " }')"

# --- the two instances (otg_two.py's lane) ----------------------------------------

lane_end two
cat "$FG_TMP/two.out"
# fixed_packets is the stream's count: each instance sends exactly its
# 10,000 frames, even when its worker is descheduled (it then takes longer)
check_eq "otg_two.py: a row per instance of 10,000 frames each, and the total is their sum" True \
	"$(python3 -c '
import sys
rows = [l.split() for l in open(sys.argv[1]) if l.startswith("http://")]
tot = [l.split() for l in open(sys.argv[1]) if l.startswith("total (2 instances)")]
print(len(rows) == 2 and len(tot) == 1 and
      sum(int(r[2]) for r in rows) == int(tot[0][3]) and sum(int(r[3]) for r in rows) == int(tot[0][4]) and
      all(int(r[2]) == 10000 for r in rows))' "$FG_TMP/two.out" 2>&1)"
for i in a b; do
	BASE=http://127.0.0.1:${P[$i]}
	http POST /flowgen/v1/command '{"command": "quit"}'
	wait "${APID[$i]}"
	check_eq "instance $i: quit through the API, exit 0" 0 "$?"
done

finish
