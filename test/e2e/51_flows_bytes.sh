#!/usr/bin/env bash
#
# 51_flows_bytes.sh — stateful programs with bytes and loops
# (flowgen-profile(5), "STATEFUL PROFILES": send data, recv until,
# until_close, close, repeat) through the NAT lab, the DUT's UDP conntrack
# timeouts cut to 2 s:
#
# 1. profiles/http_get.yaml's GET against Python's http.server at
#    198.19.1.1:80 (test/data/flows_http_linux.yaml): every flow completes
#    (response header, then the server's close), none fails; the capture
#    holds one HTTP 200 per flow, as tshark's HTTP dissector reads it; the
#    server's responses are not flowgen's, so each flow counts as
#    foreign_server; with -t payload_check=1 each fails as payload_mismatch.
# 2. http_get flowgen to flowgen through the NAT: every flow completes,
#    none with a bad payload or counted foreign, the byte counts are the
#    request's and the recorded response's; tshark reads one GET and one
#    200 per flow and no malformed frame. The same for UDP datagrams of
#    bytes (test/data/flows_dns_bytes.yaml: a DNS query and its answer in
#    hex): every flow completes, tshark reads one answer per flow.
# 3. test/data/flows_keepalive.yaml: a UDP flow that sends every second
#    five times keeps its conntrack entry past the 2 s UDP timeout, by its
#    own traffic, and completes; a TCP connection with 1 s idle gaps
#    completes with its four exchanges.
# 4. http_get under 10% loss each way: the retransmitted segments carry
#    the program's bytes (no bad payload, nothing taken for a foreign
#    peer), and nearly every flow completes.
# Each run's figures are read and checked while the next run goes on (its
# own output was copied when its mark came; these runs are a few dozen
# flows a second, their bounds well below what they start), and Python's
# http.server and flowgen start side by side.

. "$(dirname "$0")/lib.sh"

need_root "flows bytes: lab"
need_flowgen
command -v tshark >/dev/null || {
	fail "flows bytes: tshark" "tshark is not installed"
	finish
}
D=$FG_TOP/test/data
T0=$SECONDS

export FG_NAT_TIMEOUT="udp_timeout=2,udp_timeout_stream=2"
lab_up nat || exit 1

mkdir -p "$FG_TMP/www"
echo "hello from the DUT" >"$FG_TMP/www/index.html"
ip netns exec "$NS_DUT" python3 -m http.server 80 --bind 198.19.1.1 --directory "$FG_TMP/www" \
	>"$FG_TMP/http.log" 2>&1 &
HTTPPID=$!
at_exit "kill $HTTPPID 2>/dev/null"
FG_TIMEOUT=90 fg_open "$FG_TMP/session.out"
for ((i = 0; i < 50; i++)); do
	in_dut ss -Hltn 'sport = :80' | grep -q . && break
	sleep 0.2
done

# nomiss : a value jvals did not find in V[] reads -1 (a check fails, no
# arithmetic error)
nomiss()
{
	local i
	for i in "${!V[@]}"; do
		[[ ${V[$i]} == missing\(* || -z ${V[$i]} ]] && V[$i]=-1
	done
	return 0
}

# tcount FILE FILTER... : the frames of the capture FILE that each display
# filter (no commas) selects, one line each, from one pass of tshark
# (io,stat over the whole capture: its start-up is a second of CPU)
tcount()
{
	local f=$1 IFS=,
	shift
	tshark -r "$f" -q -z "io,stat,0,$*" 2>/dev/null |
		awk -F'|' -v n=$# '/<>/ { for (i = 1; i <= n; i++) { v = $(2 * i + 1); gsub(/ /, "", v); print v }; exit }'
}

JP="flows.client.started flows.client.completed flows.client.failed flows.client.fail_reasons.payload_mismatch flows.client.foreign_server flows.client.rx_bytes flows.server.rx_bytes flows.server.completed"

# --- 1. a GET against Python's http.server ----------------------------------
fg_run linux "arp; capture start; start -f $D/flows_http_linux.yaml -m 20 -d 1.5; wait 10; capture stop; stats --json; capture save $FG_TMP/linux.pcapng"
# the server's log of this run, before the next run's GETs
linux_log=$(grep -c '"GET / HTTP/1.0" 200' "$FG_TMP/http.log")
# the response is not the recorded one: strict checks fail it
fg_send strict "start -f $D/flows_http_linux.yaml -m 20 -d 0.5 -t payload_check=1; wait 10; stats --json"
J=$FG_TMP/linux.out
jpre "$J" $JP
started=$(json_get "$J" flows.client.started || echo 0)
check_ge "bytes linux http: GETs started" "$started" 20
check_eq "bytes linux http: every flow completed" "$started" "$(json_get "$J" flows.client.completed || echo -1)"
check_eq "bytes linux http: none failed" 0 "$(json_get "$J" flows.client.failed || echo -1)"
check_eq "bytes linux http: each counted as foreign_server" "$started" \
	"$(json_get "$J" flows.client.foreign_server || echo -1)"
linux_started=$started
check_ge "bytes linux http: the server logged a 200 per GET" "$linux_log" "$started"
fg_wait strict
fg_send fg "capture start; start -f $FG_TOP/profiles/http_get.yaml -m 50 -d 1.5; wait 10; capture stop; stats --json; capture save $FG_TMP/fg.pcapng"
J=$FG_TMP/strict.out
jpre "$J" $JP
started=$(json_get "$J" flows.client.started || echo 0)
check_ge "bytes linux http strict: GETs started" "$started" 5
check_eq "bytes linux http strict: each fails as payload_mismatch" "$started" \
	"$(json_get "$J" flows.client.fail_reasons.payload_mismatch || echo -1)"

# --- 2. flowgen to flowgen ----------------------------------------------------
fg_wait fg
# UDP with bytes: DNS in hex, no signature in the datagrams
fg_send dns "capture start; start -f $D/flows_dns_bytes.yaml -m 50 -d 1; wait 10; capture stop; stats --json; capture save $FG_TMP/dns.pcapng"
J=$FG_TMP/fg.out
jpre "$J" $JP
started=$(json_get "$J" flows.client.started || echo 0)
check_ge "bytes fg http: GETs started" "$started" 50
check_eq "bytes fg http: every flow completed" "$started" "$(json_get "$J" flows.client.completed || echo -1)"
check_eq "bytes fg http: every server flow completed" "$started" "$(json_get "$J" flows.server.completed || echo -1)"
check_eq "bytes fg http: none failed" 0 "$(json_get "$J" flows.client.failed || echo -1)"
check_eq "bytes fg http: no bad payload" 0 "$(json_get "$J" flows.client.fail_reasons.payload_mismatch || echo -1)"
check_eq "bytes fg http: no foreign server" 0 "$(json_get "$J" flows.client.foreign_server || echo -1)"
# "GET / HTTP/1.0\r\nHost: flowgen\r\n\r\n" is 33 bytes, the response 67
check_eq "bytes fg http: the server received the request of each" "$((started * 33))" \
	"$(json_get "$J" flows.server.rx_bytes || echo -1)"
check_eq "bytes fg http: the client received the response of each" "$((started * 67))" \
	"$(json_get "$J" flows.client.rx_bytes || echo -1)"
fg_started=$started

fg_wait dns
J=$FG_TMP/dns.out
jpre "$J" $JP
started=$(json_get "$J" flows.client.started || echo 0)
check_ge "bytes fg dns: queries started" "$started" 30
check_eq "bytes fg dns: every flow completed" "$started" "$(json_get "$J" flows.client.completed || echo -1)"
check_eq "bytes fg dns: every server flow completed" "$started" "$(json_get "$J" flows.server.completed || echo -1)"
check_eq "bytes fg dns: no bad payload, no foreign server" "0 0" \
	"$(json_get "$J" flows.client.fail_reasons.payload_mismatch || echo -1) $(json_get "$J" flows.client.foreign_server || echo -1)"
dns_started=$started

# --- 3. loops: keepalives through the NAT -------------------------------------
fg_send ka "start -f $D/flows_keepalive.yaml -m 1 -d 1.2; wait 15; stats --json"
wait_for '^started .*flows_keepalive' "$FG_SOUT" 30 "$FG_SPID"
# tshark reads the three captures above while this run's two flows keep
# their slow pace (a datagram or an exchange a second)
tshark -r "$FG_TMP/linux.pcapng" -Y 'http.response.code == 200' 2>/dev/null | wc -l >"$FG_TMP/linux.n" &
TPIDS=($!)
tcount "$FG_TMP/fg.pcapng" '_ws.malformed' 'http.request.method == "GET"' \
	'http.response.code == 200 && http.content_length == 3' >"$FG_TMP/fg.n" &
TPIDS+=($!)
tcount "$FG_TMP/dns.pcapng" '_ws.malformed' \
	'dns.flags.response == 1 && dns.a == 198.18.0.1 && dns.qry.name == "a.example"' >"$FG_TMP/dns.n" &
TPIDS+=($!)
# 3.5 s in: past the DUT's 2 s UDP timeout since the flow's first datagram
sleep 3.5
in_dut conntrack -L >"$FG_TMP/ct.txt" 2>/dev/null
fg_wait ka 30
wait "${TPIDS[@]}"

# --- 4. retransmissions carry the program's bytes ------------------------------
# 10% loss on what the DUT forwards through dut1, both directions (netem,
# or nftables where the kernel has no netem): lost segments of the request
# and the response are sent again from their stream offset, and both sides
# check every byte (flowgen's peer: strictly)
dut_loss 10
fg_send loss "start -f $FG_TOP/profiles/http_get.yaml -m 100 -d 2; wait 15; stats --json"
# the figures of the runs above are checked while it runs

check_eq "bytes linux http: one HTTP 200 per flow in the capture" "$linux_started" \
	"$(cat "$FG_TMP/linux.n")"
mapfile -t C <"$FG_TMP/fg.n"
check_eq "bytes fg http: tshark reads no malformed frame" 0 "${C[0]:-none}"
# each request and response is seen twice: inside (port 0) and outside (port 1)
check_eq "bytes fg http: tshark reads a GET per flow on each side" "$((2 * fg_started))" "${C[1]:-none}"
check_eq "bytes fg http: tshark reads a 200 per flow on each side" "$((2 * fg_started))" "${C[2]:-none}"
mapfile -t C <"$FG_TMP/dns.n"
check_eq "bytes fg dns: tshark reads no malformed frame" 0 "${C[0]:-none}"
check_eq "bytes fg dns: tshark reads an answer for a.example per flow on each side" "$((2 * dns_started))" "${C[1]:-none}"
J=$FG_TMP/ka.out
KP="templates.0.name templates.0.client.started templates.0.client.completed templates.0.client.failed templates.0.client.tx_pkts templates.0.server.completed templates.1.name templates.1.client.started templates.1.client.completed templates.1.client.failed templates.1.server.completed templates.1.client.rx_bytes"
mapfile -t V < <(jvals "$J" $KP)
nomiss
echo "# keepalive: ${V[*]}"
check_eq "bytes keepalive: templates as in the profile" "ka_udp ka_tcp" "${V[0]} ${V[6]}"
check_ge "bytes keepalive udp: flows started" "${V[1]}" 1
check_eq "bytes keepalive udp: every flow completed" "${V[1]}" "${V[2]}"
check_eq "bytes keepalive udp: none failed" 0 "${V[3]}"
check_eq "bytes keepalive udp: five datagrams per flow" "$((V[1] * 5))" "${V[4]}"
check_eq "bytes keepalive udp: every server flow completed" "${V[1]}" "${V[5]}"
check_grep "bytes keepalive udp: the conntrack entry lives past the UDP timeout" \
	'udp .*dport=4330' "$FG_TMP/ct.txt"
check_ge "bytes keepalive tcp: connections started" "${V[7]}" 1
check_eq "bytes keepalive tcp: every connection completed" "${V[7]}" "${V[8]}"
check_eq "bytes keepalive tcp: none failed" 0 "${V[9]}"
check_eq "bytes keepalive tcp: every server connection completed" "${V[7]}" "${V[10]}"
check_eq "bytes keepalive tcp: four PONGs per connection" "$((V[7] * 24))" "${V[11]}"

# --- 4. (the run started above) ---------------------------------------------
fg_wait loss 60
$LOSS_UNDO
J=$FG_TMP/loss.out
mapfile -t V < <(jvals "$J" flows.client.started flows.client.completed flows.client.fail_reasons.payload_mismatch \
	flows.client.retx flows.server.retx flows.server.failed flows.client.foreign_server)
nomiss
echo "# http under loss: started completed payload_bad retx(client server) server_failed foreign: ${V[*]}"
check_ge "bytes loss: GETs started" "${V[0]}" 150
check_ge "bytes loss: completed >= 90% of started" "$((V[1] * 100))" "$((V[0] * 90))"
check_eq "bytes loss: no bad payload, no foreign server" "0 0" "${V[2]} ${V[6]}"
check_ge "bytes loss: retransmissions on both sides" "$((V[3] > 0 && V[4] > 0))" 1

fg_close
check_eq "flows bytes: flowgen exits 0" 0 "$FG_SRC"
echo "# 51_flows_bytes: $((SECONDS - T0)) s"
finish
