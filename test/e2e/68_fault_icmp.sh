#!/usr/bin/env bash
#
# 68_fault_icmp.sh — ICMP errors from a DUT that fails (flowgen(8), ICMP
# ERRORS), against the NAT lab, each with a flows run and a streams run
# going. flowgen must keep running (it answers `stats --json` during the
# fault, and its console session ends with status 0), each run must end
# on time (its record is "running" for -d seconds, to within 0.25 s, and
# `wait` returns within the flows' longest timeout after that), the
# counters must explain the fault, checked against the DUT's own count of
# what it sent (/proc/net/snmp in its namespace) and against tshark on its
# inside link, and the traffic must be back at 90 % of its rate within 1 s
# of the DUT being back (test/e2e/recovery.py over a record of 0.1 s).
# A flows run has its fault 3 s in, 2 s long; a's goes on 3 s after it
# (-d 8: its drain lasts until about 10 s all the same, the TCP flows
# that retransmitted through the withdrawal backing off), b's 2 s (-d 7),
# twice the recovery's bound; a streams run has it 2.5 s in (its
# rate is steady at once: no learning phase, -t learn=0) and goes on
# 1.5 s after it (-d 6), with a drain of 0.3 s (-t drain=0.3: the lab's
# frames take well under a millisecond through the DUT, none is still on
# its way then). Each run's checks (tshark on its captures, the counts)
# go on while the next run's captures start, and end before that run
# starts, so that its fault comes at its time in the run: the
# fault and what follows it (the errors' timing, the recovery) have the
# CPU that flowgen's worker leaves to themselves. tshark reads each
# capture once: what a display filter would count is counted from the
# fields it prints (a field that occurs more than once, in the error and
# in its quote, matches when one of its values does).
#
# The DUT's ICMP rate limit for destination unreachables is lifted in its
# namespace (net.ipv4.icmp_ratemask without type 3), so that it answers
# every frame it drops, within the route's own error budget (5 per source
# address, then one a second, a global setting left alone): the flows and
# streams here use 254 source addresses, a few errors a second each.
#
#  a. The route to the servers withdrawn for 2 s (the DUT has no default
#     route: it answers ICMP net unreachable, quoting the frame as the
#     client sent it, before its NAT). Flows (test/data/fault_icmp_flows.yaml
#     at -m 200, 8 s): every flow that starts during the withdrawal fails
#     with reason icmp_unreachable (at least those started inside it, at
#     most those started around it), or, where the DUT dropped the frame
#     without an error (its route's budget, above: its IpExt InNoRoutes
#     less its OutDestUnreachs bounds them), with no reply at the timeout;
#     no other reason counts; they fail
#     at once: the short templates' active gauge stays under 40 throughout
#     (0.1 s of their new flows; flows that waited for their 5 s timeout
#     would pile up by 400 a second, 800 over the withdrawal) and the count
#     0.3 s after the route is back is already the final one; the TCP connections that were established (tcp_pause)
#     take the net unreachable as a soft error (icmp_err_kept), keep
#     retransmitting and all complete; the port's count of errors is the
#     DUT's OutDestUnreachs and tshark's, all of them on port 0, each a
#     failure or kept; completions are back within 1 s. With -c 2 (1 s
#     withdrawal 2 s into a 4 s run: the flows in flight drain after it):
#     the errors reach the worker of the flow they name (nothing
#     unmatched), each failing or kept. In both, none is invalid
#     (RFC 5927 4.1: each quotes a segment its connection sent, SND.NXT
#     included once synchronized): a handshake that straddles the
#     withdrawal (its SYN passed, the request behind it did not) meets the
#     server's SYN-ACK again, answers it with a pure ACK at SND.NXT
#     (RFC 5961 4.2), and the DUT answers that too; such errors were
#     counted invalid before, up to 4 of some 570 in about one run in
#     three (tshark: one per error quoting an ACK without data). Streams (stl_64b, 10,000
#     frames/s, 6 s): the errors are counted on port 0 as the DUT sent
#     them, all unmatched (streams have no flows); the frames lost are the
#     2 s of the withdrawal (to within 0.1 s of frames and 2 %); the rate
#     is back within 1 s.
#  b. The DUT's outside MTU lowered to 1280 for 2 s. Flows
#     (test/data/fault_icmp_big.yaml at -m 100, 7 s): each 1500-byte
#     packet is answered with a fragmentation needed (the DUT's IpFragFails
#     and OutDestUnreachs, tshark's count on its inside link, flowgen's
#     rx_icmp_frag_needed: all equal); the TCP flows that met it lower
#     their MSS (icmp_mss_lowered: at least the flows started inside the
#     2 s, at most those of the run), the rest of each window's errors are
#     kept, none fails, every one completes with all its bytes; on the wire
#     (tshark on dut0), no segment of a flow larger than 1280 bytes later
#     than 20 ms after the flow's first fragmentation needed, and on the
#     outside link segments of 1280 bytes while the MTU is low and of 1500
#     again after; the UDP flows keep their 1,428-byte datagrams (every one
#     on the wire has that size), which do not pass: those of the 2 s fail
#     at their timeout (no_reply, their only failures); completions
#     are back within 1 s. Streams (fault_icmp_stream_big.yaml, 1,400-byte
#     frames at 2,000/s, 6 s): one fragmentation needed per frame of the
#     2 s, counted as the DUT sent them, unmatched, the frames lost, and the
#     rate back within 1 s.
#  c. Quotes through a NAT (a lab with the wire namespace, whose relay
#     drops the UDP datagrams to ports 4398 and 4399 on their way to the
#     servers; fault_icmp_nat.yaml): test/e2e/icmp_inject.py answers each
#     datagram to 4398 from beyond the NAT (host unreachable from
#     198.19.1.254 to the NAT's address, quoting the translated datagram):
#     the DUT's NAT translates the error back, quote included (tshark on
#     dut0: every quote's source is the client's own), and every such flow
#     fails with icmp_unreachable, none at its timeout. Each datagram to
#     4399 is answered by an injector inside the DUT that passes the quote
#     on translated, as a NAT without RFC 5508 REQ-3 would: the flows whose
#     port the NAT kept fail with icmp_unreachable (flowgen looks the quote
#     up with the outer destination as the client), the others at their
#     timeout.

. "$(dirname "$0")/lib.sh"

need_root "fault icmp: lab"
need_flowgen
REC_PY=$FG_TOP/test/e2e/recovery.py
INJ=$FG_TOP/test/e2e/icmp_inject.py
PFLOWS=$FG_TOP/test/data/fault_icmp_flows.yaml
PBIG=$FG_TOP/test/data/fault_icmp_big.yaml
PSBIG=$FG_TOP/test/data/fault_icmp_stream_big.yaml
PNAT=$FG_TOP/test/data/fault_icmp_nat.yaml
PSTL=$FG_TOP/profiles/stl_64b.yaml
ROUTE=(198.19.0.0/24 via 198.19.1.2 dev dut1)

now() { date +%s.%N; }

# sleep_until T S : until S seconds after the Unix time T (60 s at most)
sleep_until()
{
	local d
	d=$(awk -v t="$1" -v s="$2" -v n="$(now)" \
		'BEGIN { d = t + s - n; if (d < 0) d = 0; if (d > 60) d = 60; printf "%.3f", d }')
	sleep "$d"
}

# dut_snmp GROUP FIELD : a counter of the DUT's /proc/net/snmp (Ip, Icmp)
dut_snmp()
{
	in_dut awk -v g="$1:" -v k="$2" '$1 == g && !h { for (i = 2; i <= NF; i++) c[$i] = i; h = 1; next }
		$1 == g { print $c[k]; exit }' /proc/net/snmp
}

# dut_netstat GROUP FIELD : a counter of the DUT's /proc/net/netstat (IpExt)
dut_netstat()
{
	in_dut awk -v g="$1:" -v k="$2" '$1 == g && !h { for (i = 2; i <= NF; i++) c[$i] = i; h = 1; next }
		$1 == g { print $c[k]; exit }' /proc/net/netstat
}

# cap_start NAME IFACE FILTER : dumpcap on a DUT interface into NAME.pcap
# (tshark reads it). Started by ip netns exec itself, not through a
# function: $! is then dumpcap, and a signal for it reaches it (a subshell
# of this script would run the script's own traps instead). dumpcap writes
# the file's header once the interface is open and its filter set: from
# then on every frame is captured. The frames counted come a second or
# more later (the fault, the injectors' errors). The header is looked
# for every 20 ms (it comes in about 0.1 s), 10 s at most.
cap_start()
{
	local f=$FG_TMP/$1.pcap i
	rm -f "$f"
	ip netns exec "$NS_DUT" dumpcap -q -i "$2" -f "$3" -s 128 -w "$f" >/dev/null 2>&1 &
	eval "CAP_$1=\$!"
	at_exit "kill $!"
	for ((i = 0; i < 500; i++)); do
		[ -s "$f" ] && return 0
		sleep 0.02
	done
	fail "fault icmp: dumpcap capturing on $2" "no $f"
}

# cap_stop NAME : the capture ends (SIGTERM: dumpcap writes its file out).
# dumpcap reads the kernel's buffer every 250 ms at least; the captures of
# a and b end 2 s or more after their last frame counted, c's waits 0.3 s
# first.
cap_stop()
{
	local pid
	eval "pid=\${CAP_$1:-}"
	[ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null
	[ -n "$pid" ] && wait "$pid" 2>/dev/null
	return 0
}

# inj_wait PID N : until the injector PID (icmp_inject.py) has its N packet
# sockets (it binds each as it opens it, then listens), 5 s at most
inj_wait()
{
	local i
	for ((i = 0; i < 50; i++)); do
		[ "$(ls -l "/proc/$1/fd" 2>/dev/null | grep -c 'socket:')" -ge "$2" ] && return 0
		sleep 0.1
	done
	return 1
}

# tsh NAME ARGS... : tshark reading NAME.pcap
tsh()
{
	local f=$FG_TMP/$1.pcap
	shift
	tshark -r "$f" "$@" 2>/dev/null
}

# recpy NAME EXPR REC T1 T2 : EXPR over the record REC holds. In EXPR: t1,
# t2 (the fault's start and end); at(t) the stats of the last line at or
# before t, nxt(t) of the first line at or after t; run, the lines of the
# run (t, stats) while "running"; v(s, "a.b.0.c") a value; tc(s, name) a
# template's client object; win(path) the growth of path between at(t1)
# and nxt(t2) (around the fault) and inner(path) between nxt(t1 + 0.1)
# and at(t2 - 0.1) (inside it). Prints what it found on failure.
recpy()
{
	local v
	v=$(recval "$2" "$3" "$4" "$5" 2>&1)
	if [ "$v" = True ]; then pass "$1"; else fail "$1" "$2: $v"; fi
}

# recval EXPR REC T1 T2 : the value of a recpy expression ("?" and the
# error on stderr when it cannot be computed)
recval()
{
	python3 - "$2" "$3" "$4" "$1" <<-'PY' || echo "?"
		import json, sys
		L = []
		for l in open(sys.argv[1]):
		    try:
		        d = json.loads(l)
		    except ValueError:
		        continue
		    L.append((d["t"], d["stats"], d.get("state")))
		t1, t2 = float(sys.argv[2]), float(sys.argv[3])
		run = [(t, s) for t, s, st in L if st == "running"]
		def at(t):
		    return [s for u, s, _ in L if u <= t][-1]
		def nxt(t):
		    return [s for u, s, _ in L if u >= t][0]
		def v(s, p):
		    for k in p.split("."):
		        s = s[int(k)] if isinstance(s, list) else s[k]
		    return s
		def tc(s, name):
		    return next(g for g in s["templates"] if g["name"] == name)["client"]
		def win(p):
		    return v(nxt(t2), p) - v(at(t1), p)
		def inner(p):
		    return v(at(t2 - 0.1), p) - v(nxt(t1 + 0.1), p)
		print(eval(sys.argv[4]))
	PY
}

# on_time TAG REC D T_START T_WAITED LONGEST : the run of REC was running
# for D s (0.25 s either way), and its `wait` returned within LONGEST s (the
# flows' longest life; 0 for streams) + 1.5 s of the run's end
on_time()
{
	local tag=$1 rec=$2 d=$3 ts=$4 tw=$5 longest=$6 span
	span=$(recval 'round(run[-1][0] - run[0][0], 3)' "$rec" 0 0)
	echo "# $tag: running for $span s (-d $d), wait returned $(awk -v a="$tw" -v b="$ts" 'BEGIN { printf "%.2f", a - b }') s after the start"
	check "$tag: the run ends on time (running $d s +- 0.25, measured $span)" \
		awk -v s="$span" -v d="$d" 'BEGIN { exit !(s >= d - 0.25 && s <= d + 0.25) }'
	check "$tag: wait returns within the flows' longest life + 1.5 s of the run's end" \
		awk -v a="$tw" -v b="$ts" -v d="$d" -v l="$longest" 'BEGIN { exit !(a - b <= d + l + 1.5 + 0.5) }'
}

# recovery TAG REC KEY T1 T2 [MAXDURING] : back at 90 % of the rate before
# within 1 s of T2; the rate during the fault at most MAXDURING x before
# (the fault really cut the traffic; "" when it need not)
recovery()
{
	local tag=$1 rec=$2 key=$3 t1=$4 t2=$5 maxd=${6:-} r
	r=$(python3 "$REC_PY" "$rec" "$key" "$t1" "$t2")
	echo "# $tag: $key $r"
	check "$tag: $key back at 90 % of its rate within 1 s of the DUT being back" \
		python3 -c 'import json, sys; r = json.loads(sys.argv[1]); sys.exit(not (r["before"] and r["back_s"] is not None and r["back_s"] <= 1.0))' "$r"
	if [ -n "$maxd" ]; then
		check "$tag: $key during the fault at most $maxd of the rate before" \
			python3 -c 'import json, sys; r = json.loads(sys.argv[1]); sys.exit(not (r["during"] is not None and r["during"] <= float(sys.argv[2]) * r["before"]))' "$r" "$maxd"
	fi
}

# anyof FIELD RE : in awk, whether one of a tshark field's values
# (-E occurrence=a: comma-separated) matches RE, as a display filter's
# comparison matches a field that occurs in the frame more than once
ANYOF='function anyof(f, re,  n, a, i) { n = split(f, a, ","); for (i = 1; i <= n; i++) if (a[i] ~ re) return 1; return 0 }'

# checks NAME FUNC : FUNC, the checks of a run (its captures read, its
# figures counted), in a lane while the next run's captures start;
# `analysed` waits for it before that run starts, so that the fault and
# what follows it have the CPU that flowgen's worker leaves to themselves,
# and come at their time in the run whatever the lane took (waited for
# after the start, a lane that ran long on a busy machine put the MTU
# fault of a 6 s run 2 s late: the run ended before the MTU came back)
AN_LANE=
checks()
{
	lane "$1" "$2"
	AN_LANE=$1
}
analysed()
{
	[ -n "$AN_LANE" ] && lane_end "$AN_LANE"
	AN_LANE=
}

# mid_stats TAG NAME : flowgen answers stats --json during the fault (one
# more stats object in its output, with the run's figures)
mid_stats()
{
	local n0 n1
	n0=$(grep -o '{"global"' "$FG_SOUT" | wc -l)
	fg_run "$2" "stats --json" 10
	n1=$(grep -o '{"global"' "$FG_TMP/$2.out" | wc -l)
	check_eq "$1: flowgen answers stats --json during the fault" "$((n0 + 1))" "$n1"
	check_ge "$1: ... with the run's traffic in it" "$(json_get "$FG_TMP/$2.out" global.tx_pkts || echo 0)" 1
}

# c's lab (the wire namespace's relay idles in select() until then)
FG_IMPAIR=1 lab_bg nat c
lab_up nat || exit 1
in_dut sysctl -qw net.ipv4.icmp_ratemask=$(($(in_dut sysctl -n net.ipv4.icmp_ratemask) & ~8))

FG_TIMEOUT=300 fg_open "$FG_TMP/session.out"
fg_run arp "arp" 30
check_grep "fault icmp: arp resolved the DUT" "^port 1: 198.19.1.2 gw 198.19.1.1 MAC" "$FG_TMP/arp.out"

# --- a. the route withdrawn: flows ------------------------------------------------

TAG="route withdrawn, flows"
R=$FG_TMP/a.jsonl
U0=$(dut_snmp Icmp OutDestUnreachs)
N0=$(dut_netstat IpExt InNoRoutes)
cap_start a dut0 "icmp"
TS=$(now)
fg_run a_start "record start $R -i 0.1; start -f $PFLOWS -m 200 -d 8" 20
check_eq "$TAG: started (the session's run 1)" 1 "$(grep -c '^started ' "$FG_TMP/a_start.out")"
sleep_until "$TS" 3
T1=$(now)
in_dut ip route del "${ROUTE[@]}"
check_eq "$TAG: the DUT has no route to the servers" "" "$(in_dut ip route show 198.19.0.0/24)"
sleep 0.5
mid_stats "$TAG" a_mid
sleep_until "$T1" 2
T2=$(now)
in_dut ip route add "${ROUTE[@]}"
check_grep "$TAG: the route is back" "via 198.19.1.2" <(in_dut ip route show 198.19.0.0/24)
fg_run a_end "wait 30; record stop; stats --json" 40
TW=$(now)
cap_stop a
U1=$(dut_snmp Icmp OutDestUnreachs)
N1=$(dut_netstat IpExt InNoRoutes)
checks_a()
{
J=$FG_TMP/a_end.out
# the errors on dut0, read while the rest is counted
tsh a -T fields -E occurrence=a -e icmp.code -e ip.dst -e tcp.flags -Y "icmp.type == 3" >"$FG_TMP/a.txt" &
TA=$!
mapfile -t v < <(jvals "$J" ports.0.rx_icmp_unreach ports.0.rx_icmp_frag_needed \
	"=o['ports'][1]['rx_icmp_unreach'] + o['ports'][1]['rx_icmp_frag_needed']" \
	ports.0.icmp_err_unmatched ports.0.icmp_err_invalid ports.0.icmp_err_kept \
	flows.client.fail_reasons.icmp_unreachable flows.client.failed \
	"=sum(n for k, n in o['flows']['client']['fail_reasons'].items() if k != 'icmp_unreachable')" \
	flows.client.started flows.client.completed flows.client.active flows.server.failed \
	"=[g['client'] for g in o['templates'] if g['name'] == 'tcp_pause'][0]['started']" \
	"=[g['client'] for g in o['templates'] if g['name'] == 'tcp_pause'][0]['completed']" \
	"=[g['client'] for g in o['templates'] if g['name'] == 'tcp_pause'][0]['fail_reasons']['icmp_unreachable']" \
	flows.client.retx flows.client.fail_reasons.no_reply \
	"=[(g['name'], g['client']['failed'], g['client']['fail_reasons']['icmp_unreachable'], g['client']['fail_reasons']['no_reply']) for g in o['templates']]")
wait "$TA"
# icmp.code == 0 && ip.dst == 198.18.0.0/24, and tcp.flags == 0x010 (a
# pure ACK quoted), as display filters would count them
WIRE=$(awk -F'\t' "$ANYOF"' anyof($1, "^0$") && anyof($2, "^198[.]18[.]0[.][0-9]+$") { n++ } END { print n + 0 }' "$FG_TMP/a.txt")
awk -F'\t' "$ANYOF"' anyof($3, "^0x0*10$") { n++ } END { print n + 0 }' "$FG_TMP/a.txt" >"$FG_TMP/a_ack.n"
DUT=$((U1 - U0))
NOERR=$((N1 - N0 - DUT))
echo "# $TAG: DUT dropped $((N1 - N0)) frames for no route, sent $DUT unreachables ($NOERR" \
	"dropped without one, its per-source budget spent), tshark saw $WIRE on dut0, flowgen port 0 ${v[0]}" \
	"(port 1 ${v[2]}); failed ${v[7]}: icmp_unreachable ${v[6]}, other reasons ${v[8]} (no reply ${v[17]});" \
	"kept ${v[5]} unmatched ${v[3]} invalid ${v[4]}; started ${v[9]} completed ${v[10]}" \
	"active ${v[11]}; tcp_pause started ${v[13]} completed ${v[14]} failed by icmp ${v[15]}; retx ${v[16]};" \
	"(template, failed, icmp, no reply): ${v[18]}"
check_ge "$TAG: the DUT sent ICMP net unreachables" "$DUT" 100
check_eq "$TAG: tshark saw on dut0 the unreachables the DUT counted" "$DUT" "$WIRE"
check_eq "$TAG: port 0 counted every unreachable the DUT sent" "$DUT" "${v[0]}"
check_eq "$TAG: none was a fragmentation needed" 0 "${v[1]}"
check_eq "$TAG: port 1 received none" 0 "${v[2]}"
check_eq "$TAG: each named a flow (nothing unmatched)" 0 "${v[3]}"
echo "# $TAG: $(cat "$FG_TMP/a_ack.n") errors quoted a pure ACK (tshark)"
check_eq "$TAG: none named a segment outside its flow's window (invalid)" 0 "${v[4]}"
check_eq "$TAG: each failed a flow or was kept by an established one" \
	"${v[0]}" "$((v[6] + v[5]))"
check_eq "$TAG: every failure is icmp_unreachable, or no reply" "${v[7]}" "$((v[6] + v[17]))"
check_eq "$TAG: no other reason counts" "${v[17]}" "${v[8]}"
check "$TAG: no reply only for frames the DUT dropped without an error (InNoRoutes - OutDestUnreachs)" \
	test "${v[17]}" -le "$NOERR"
check_eq "$TAG: the server side failed none" 0 "${v[12]}"
check_eq "$TAG: started = completed + failed + active, active 0" "${v[9]} 0" \
	"$((v[10] + v[7] + v[11])) ${v[11]}"
recpy "$TAG: the flows started inside the withdrawal failed, at most those around it" \
	"inner('flows.client.started') <= v(at(t2 + 9), 'flows.client.failed') <= win('flows.client.started')" \
	"$R" "$T1" "$T2"
echo "# $TAG: the short templates' active flows during it at most" \
	"$(recval "max(v(s, 'templates.0.client.active') + v(s, 'templates.1.client.active') for t, s in run if t1 + 0.2 <= t <= t2)" "$R" "$T1" "$T2")"
recpy "$TAG: they failed at once: the short templates' active flows stay under 40 during it" \
	"max(tc(s, 'udp')['active'] + tc(s, 'tcp')['active'] for t, s in run if t1 + 0.2 <= t <= t2) < 40" \
	"$R" "$T1" "$T2"
recpy "$TAG: every failure counted 0.3 s after the route is back (the timeout is 5 s)" \
	"v(nxt(t2 + 0.3), 'flows.client.fail_reasons.icmp_unreachable') == v(at(t2 + 9), 'flows.client.fail_reasons.icmp_unreachable')" \
	"$R" "$T1" "$T2"
check_ge "$TAG: established connections kept by the soft error (icmp_err_kept)" "${v[5]}" 1
check_eq "$TAG: every tcp_pause flow not failed at its SYN completed" "${v[13]}" "$((v[14] + v[15]))"
check_ge "$TAG: they retransmitted through the withdrawal" "${v[16]}" 1
on_time "$TAG" "$R" 8 "$TS" "$TW" 6
recovery "$TAG" "$R" flows.client.completed "$T1" "$T2" 0.2
}
checks a_chk checks_a

# --- a. the route withdrawn: streams ----------------------------------------------

TAG="route withdrawn, streams"
R=$FG_TMP/as.jsonl
U0=$(dut_snmp Icmp OutDestUnreachs)
cap_start as dut0 "icmp"
analysed
TS=$(now)
fg_run as_start "record start $R -i 0.1; start -f $PSTL -m 1 -d 6 -t learn=0,drain=0.3" 20
check_eq "$TAG: started (the session's run 2)" 2 "$(grep -c '^started ' "$FG_TMP/as_start.out")"
sleep_until "$TS" 2.5
T1=$(now)
in_dut ip route del "${ROUTE[@]}"
sleep 0.5
mid_stats "$TAG" as_mid
sleep_until "$T1" 2
T2=$(now)
in_dut ip route add "${ROUTE[@]}"
fg_run as_end "wait 30; record stop; stats --json" 40
TW=$(now)
cap_stop as
U1=$(dut_snmp Icmp OutDestUnreachs)
checks_as()
{
J=$FG_TMP/as_end.out
mapfile -t v < <(jvals "$J" ports.0.rx_icmp_unreach ports.0.icmp_err_unmatched \
	"=o['latency'][0]['lost']" "=o['latency'][0]['tx']")
WIRE=$(tsh as -Y "icmp.type == 3 && ip.dst == 198.18.0.0/24" | wc -l)
DUT=$((U1 - U0))
RATE=$(recval "round((v(at(t1), 'ports.0.tx_pkts') - v(run[3][1], 'ports.0.tx_pkts')) / ([u for u, s in run if u <= t1][-1] - run[3][0]))" "$R" "$T1" "$T2")
echo "# $TAG: DUT sent $DUT unreachables, tshark saw $WIRE, flowgen port 0 ${v[0]} (unmatched ${v[1]});" \
	"lost ${v[2]} of ${v[3]} at $RATE frames/s for $(awk -v a="$T2" -v b="$T1" 'BEGIN { printf "%.3f", a - b }') s"
check_ge "$TAG: the DUT sent ICMP net unreachables" "$DUT" 100
check_eq "$TAG: tshark saw on dut0 the unreachables the DUT counted" "$DUT" "$WIRE"
check_eq "$TAG: port 0 counted every one" "$DUT" "${v[0]}"
check_eq "$TAG: all unmatched: streams have no flows" "${v[0]}" "${v[1]}"
check "$TAG: frames lost = the withdrawal's (rate x its length, +- 0.1 s of frames and 2 %)" \
	awk -v l="${v[2]}" -v r="$RATE" -v a="$T1" -v b="$T2" \
	'BEGIN { e = r * (b - a); d = l - e; if (d < 0) d = -d; exit !(r > 0 && d <= r * 0.1 + e * 0.02) }'
on_time "$TAG" "$R" 6 "$TS" "$TW" 0
recovery "$TAG" "$R" ports.1.rx_pkts "$T1" "$T2" 0.05
}
checks as_chk checks_as

# --- b. the outside MTU lowered: flows --------------------------------------------

TAG="MTU 1280, flows"
R=$FG_TMP/b.jsonl
U0=$(dut_snmp Icmp OutDestUnreachs)
F0=$(dut_snmp Ip FragFails)
cap_start b0 dut0 "icmp or tcp or udp"
cap_start b1 dut1 "tcp"
analysed
TS=$(now)
fg_run b_start "record start $R -i 0.1; start -f $PBIG -m 100 -d 7" 20
check_eq "$TAG: started (the session's run 3)" 3 "$(grep -c '^started ' "$FG_TMP/b_start.out")"
sleep_until "$TS" 3
T1=$(now)
in_dut ip link set dut1 mtu 1280
sleep 0.5
mid_stats "$TAG" b_mid
sleep_until "$T1" 2
T2=$(now)
in_dut ip link set dut1 mtu 1500
check_grep "$TAG: the MTU is back" "mtu 1500 " <(in_dut ip link show dut1)
fg_run b_end "wait 30; record stop; stats --json" 40
TW=$(now)
cap_stop b0
cap_stop b1
U1=$(dut_snmp Icmp OutDestUnreachs)
F1=$(dut_snmp Ip FragFails)
checks_b()
{
# the two captures' frames, read while the rest is counted
tsh b0 -T fields -E occurrence=a -e frame.time_epoch -e ip.src -e tcp.srcport -e ip.len \
	-e icmp.type -e icmp.code -e udp.dstport >"$FG_TMP/b0.txt" &
TB0=$!
tsh b1 -T fields -e frame.time_epoch -e ip.len -Y "ip.src == 198.19.1.1" >"$FG_TMP/b1.txt" &
TB1=$!
J=$FG_TMP/b_end.out
mapfile -t v < <(jvals "$J" ports.0.rx_icmp_frag_needed ports.0.rx_icmp_unreach \
	ports.0.icmp_mss_lowered ports.0.icmp_err_kept \
	"=o['ports'][0]['icmp_err_unmatched'] + o['ports'][0]['icmp_err_invalid']" \
	"=[g for g in o['templates'] if g['name'] == 'tcp_big'][0]['client']['started']" \
	"=[g for g in o['templates'] if g['name'] == 'tcp_big'][0]['client']['completed']" \
	"=[g for g in o['templates'] if g['name'] == 'tcp_big'][0]['client']['failed']" \
	"=[g for g in o['templates'] if g['name'] == 'tcp_big'][0]['server']['rx_bytes']" \
	"=[g for g in o['templates'] if g['name'] == 'udp_big'][0]['client']['failed']" \
	"=[g for g in o['templates'] if g['name'] == 'udp_big'][0]['client']['fail_reasons']['no_reply']" \
	flows.client.fail_reasons.icmp_unreachable flows.client.active flows.client.retx)
wait "$TB0"
# icmp.type == 3 && icmp.code == 4, as a display filter would count them
WIRE=$(awk -F'\t' "$ANYOF"' anyof($5, "^3$") && anyof($6, "^4$") { n++ } END { print n + 0 }' "$FG_TMP/b0.txt")
DUT=$((U1 - U0))
echo "# $TAG: DUT sent $DUT frag needed (FragFails $((F1 - F0))), tshark saw $WIRE, flowgen port 0 ${v[0]};" \
	"mss lowered ${v[2]} kept ${v[3]} unmatched+invalid ${v[4]}; tcp_big started ${v[5]}" \
	"completed ${v[6]} failed ${v[7]} server bytes ${v[8]}; udp_big failed ${v[9]} (no reply ${v[10]}); retx ${v[13]}"
check_ge "$TAG: the DUT sent fragmentation needed" "$DUT" 100
check_eq "$TAG: each for a frame it could not forward (IpFragFails)" "$DUT" "$((F1 - F0))"
check_eq "$TAG: tshark saw on dut0 what the DUT counted" "$DUT" "$WIRE"
check_eq "$TAG: port 0 counted every one" "$DUT" "${v[0]}"
check_eq "$TAG: no unreachable otherwise" 0 "${v[1]}"
check_eq "$TAG: each lowered an MSS or was kept (nothing unmatched or invalid)" "${v[0]} 0" \
	"$((v[2] + v[3])) ${v[4]}"
recpy "$TAG: MSS lowered: at least the TCP flows started inside the 2 s, at most the run's" \
	"inner('templates.0.client.started') <= ${v[2]:-0} <= ${v[5]:-0}" "$R" "$T1" "$T2"
check_eq "$TAG: no TCP flow failed" 0 "${v[7]}"
check_eq "$TAG: every TCP flow completed" "${v[5]}" "${v[6]}"
check_eq "$TAG: the servers got every byte (20,000 per flow)" "$((v[6] * 20000))" "${v[8]}"
check_eq "$TAG: no flow failed for an ICMP error" 0 "${v[11]}"
check_eq "$TAG: the UDP flows failed at their timeout only (no_reply)" "${v[9]}" "${v[10]}"
recpy "$TAG: those are the UDP flows of the 2 s (+- the flows around its edges)" \
	"inner('templates.1.client.started') <= ${v[9]:-0} <= win('templates.1.client.started')" \
	"$R" "$T1" "$T2"
# on the wire: a flow's segments after its first fragmentation needed
WIRE_SEGS=$(python3 - "$FG_TMP/b0.txt" "$T2" <<-'PY'
	import sys
	first, rows = {}, []
	for l in open(sys.argv[1]):
	    f = l.rstrip("\n").split("\t")
	    f += [""] * (7 - len(f))
	    t, src, sport, iplen, itype, icode, udport = f[:7]
	    if itype == "3" and icode == "4" and sport:
	        key = (src.split(",")[-1], sport)
	        first.setdefault(key, float(t))
	    elif not itype:
	        rows.append((float(t), src, sport, int(iplen.split(",")[0]), udport))
	t2 = float(sys.argv[2])
	after = late = big_late = 0
	lag = 0.0
	udp, udp_other = 0, 0
	for t, src, sport, iplen, udport in rows:
	    if udport == "4321" and src.startswith("198.18.0."):
	        udp += 1
	        udp_other += iplen != 1428
	        continue
	    k = (src, sport)
	    # (a later flow may reuse the address and port once the MTU is back)
	    if k not in first or t <= first[k] or t > t2 + 0.05:
	        continue
	    after += 1
	    if iplen > 1280:
	        late += 1
	        big_late += t > first[k] + 0.020
	        lag = max(lag, t - first[k])
	print(len(first), after, late, big_late, udp, udp_other, "%.1f" % (lag * 1000))
PY
)
read -r W_FLOWS W_AFTER W_BIG W_BIGLATE W_UDP W_UDPOTHER W_LAG <<<"$WIRE_SEGS"
echo "# $TAG on dut0: $W_FLOWS flows named by a frag needed, $W_AFTER of their segments after it," \
	"$W_BIG larger than 1280 (the rest of the window sent with the first, at most $W_LAG ms after it;" \
	"$W_BIGLATE 20 ms or more after it); $W_UDP UDP datagrams, $W_UDPOTHER not 1428 bytes"
check_ge "$TAG: on dut0, flows named by a fragmentation needed" "${W_FLOWS:-0}" 1
check_eq "$TAG: on dut0, each as many as flowgen lowered" "${v[2]}" "${W_FLOWS:-x}"
check_ge "$TAG: on dut0, their segments after it" "${W_AFTER:-0}" 1
check_eq "$TAG: on dut0, none larger than 1280 bytes 20 ms after the flow's error" 0 "${W_BIGLATE:-x}"
check_ge "$TAG: on dut0, the UDP flows' datagrams" "${W_UDP:-0}" 1
check_eq "$TAG: on dut0, every UDP datagram keeps its 1,428 bytes" 0 "${W_UDPOTHER:-x}"
wait "$TB1"
OUT_SEGS=$(awk -v a="$T1" -v b="$T2" '
	$1 > a + 0.05 && $1 < b - 0.05 { n++; if ($2 > 1280) big++; if ($2 == 1280) full++ }
	$1 > b + 0.5 && $2 == 1500 { back++ }
	END { printf "%d %d %d %d\n", n, big, full, back }' "$FG_TMP/b1.txt")
read -r O_N O_BIG O_FULL O_BACK <<<"$OUT_SEGS"
echo "# $TAG on dut1 while 1280: $O_N segments, $O_BIG larger, $O_FULL of 1280 bytes; $O_BACK of 1500 bytes after"
check_ge "$TAG: on dut1, segments of 1280 bytes pass while the MTU is low" "${O_FULL:-0}" 1
check_eq "$TAG: on dut1, none larger meanwhile" 0 "${O_BIG:-x}"
check_ge "$TAG: on dut1, 1500-byte segments again once the MTU is back" "${O_BACK:-0}" 1
on_time "$TAG" "$R" 7 "$TS" "$TW" 2
recovery "$TAG" "$R" flows.client.completed "$T1" "$T2"
}
checks b_chk checks_b

# --- b. the outside MTU lowered: streams ------------------------------------------

TAG="MTU 1280, streams"
R=$FG_TMP/bs.jsonl
U0=$(dut_snmp Icmp OutDestUnreachs)
cap_start bs dut0 "icmp"
analysed
TS=$(now)
fg_run bs_start "record start $R -i 0.1; start -f $PSBIG -m 1 -d 6 -t learn=0,drain=0.3" 20
check_eq "$TAG: started (the session's run 4)" 4 "$(grep -c '^started ' "$FG_TMP/bs_start.out")"
sleep_until "$TS" 2.5
T1=$(now)
in_dut ip link set dut1 mtu 1280
sleep 0.5
mid_stats "$TAG" bs_mid
sleep_until "$T1" 2
T2=$(now)
in_dut ip link set dut1 mtu 1500
fg_run bs_end "wait 30; record stop; stats --json" 40
TW=$(now)
cap_stop bs
U1=$(dut_snmp Icmp OutDestUnreachs)
checks_bs()
{
J=$FG_TMP/bs_end.out
mapfile -t v < <(jvals "$J" ports.0.rx_icmp_frag_needed ports.0.icmp_err_unmatched \
	"=o['latency'][0]['lost']")
WIRE=$(tsh bs -Y "icmp.type == 3 && icmp.code == 4" | wc -l)
DUT=$((U1 - U0))
RATE=$(recval "round((v(at(t1), 'ports.0.tx_pkts') - v(run[3][1], 'ports.0.tx_pkts')) / ([u for u, s in run if u <= t1][-1] - run[3][0]))" "$R" "$T1" "$T2")
echo "# $TAG: DUT sent $DUT frag needed, tshark saw $WIRE, flowgen port 0 ${v[0]} (unmatched ${v[1]});" \
	"lost ${v[2]} at $RATE frames/s"
check_ge "$TAG: the DUT sent fragmentation needed" "$DUT" 100
check_eq "$TAG: tshark saw on dut0 what the DUT counted" "$DUT" "$WIRE"
check_eq "$TAG: port 0 counted every one" "$DUT" "${v[0]}"
check_eq "$TAG: all unmatched: streams have no flows" "${v[0]}" "${v[1]}"
check "$TAG: one per frame lost (the frames of the 2 s)" test "${v[2]}" = "${v[0]}"
check "$TAG: frames lost = the 2 s at the rate (+- 0.1 s of frames and 2 %)" \
	awk -v l="${v[2]}" -v r="$RATE" -v a="$T1" -v b="$T2" \
	'BEGIN { e = r * (b - a); d = l - e; if (d < 0) d = -d; exit !(r > 0 && d <= r * 0.1 + e * 0.02) }'
on_time "$TAG" "$R" 6 "$TS" "$TW" 0
recovery "$TAG" "$R" ports.1.rx_pkts "$T1" "$T2" 0.05
}
checks bs_chk checks_bs

fg_close
check_eq "fault icmp: the console session ends with status 0" 0 "$FG_SRC"
check "fault icmp: no worse a flowgen: it ran to the end" grep -q "^MARK-bs_end$" "$FG_SOUT"

# --- a. with two workers ----------------------------------------------------------

TAG="route withdrawn, -c 2"
O=$FG_TMP/a2.out
analysed
FG_TIMEOUT=60 fg -c 2 \
	-x "arp; start -f $PFLOWS -m 200 -d 4; wait 30; stats --json" >"$O" 2>&1 &
P=$!
if wait_for '^started' "$O" 30 "$P"; then
	TS=$(now)
	sleep_until "$TS" 2
	T1=$(now)
	in_dut ip route del "${ROUTE[@]}"
	sleep_until "$T1" 1
	T2=$(now)
	in_dut ip route add "${ROUTE[@]}"
fi
wait "$P"
check_eq "$TAG: flowgen exits 0" 0 $?
analysed
mapfile -t v < <(jvals "$O" ports.0.rx_icmp_unreach ports.0.icmp_err_unmatched \
	ports.0.icmp_err_invalid ports.0.icmp_err_kept flows.client.fail_reasons.icmp_unreachable \
	flows.client.failed "=len(o['workers'])" "=sum(w['redirected'] for w in o['workers'])" \
	"=[(g['name'], g['client']['started'], g['client']['failed'], g['client']['fail_reasons']['icmp_unreachable'], g['client']['fail_reasons']['no_reply'], g['client']['fail_reasons']['retransmits_exhausted'], g['client']['fail_reasons']['reset']) for g in o['templates']]")
echo "# $TAG: port 0 ${v[0]} unreachables: unmatched ${v[1]} invalid ${v[2]} kept ${v[3]}," \
	"failed ${v[4]} of ${v[5]}; ${v[6]} workers, redirected ${v[7]};" \
	"(template, started, failed, icmp, no_reply, retx, reset): ${v[8]}"
check_eq "$TAG: two workers ran" 2 "${v[6]}"
check_ge "$TAG: unreachables received" "${v[0]}" 50
check_eq "$TAG: each reached the worker of its flow (nothing unmatched)" 0 "${v[1]}"
check_eq "$TAG: none named a segment outside its flow's window (invalid)" 0 "${v[2]}"
check_eq "$TAG: each failed a flow or was kept" "${v[0]}" "$((v[4] + v[3]))"
check_eq "$TAG: every failure is icmp_unreachable" "${v[5]}" "${v[4]}"

# --- c. quotes through the NAT ----------------------------------------------------

lab_down
lab_use c || exit 1
W=${NS_DUT}-w
"$FG_LAB" impair --loss 100 --dir ba --udp-dport 4398,4399 >/dev/null 2>&1 ||
	fail "NAT quotes: the wire drops the datagrams to 4398 and 4399" "lab.sh impair failed"
TAG="NAT quotes"
cap_start c dut0 "icmp"
ip netns exec "$W" python3 "$INJ" beyond --iface wo --dport 4398 --secs 20 >"$FG_TMP/c_beyond.json" 2>&1 &
IB=$!
ip netns exec "$NS_DUT" python3 "$INJ" untranslated --inside dut0 --outside dut1 --dport 4399 \
	--secs 20 >"$FG_TMP/c_untr.json" 2>&1 &
IU=$!
at_exit "kill $IB $IU"
inj_wait "$IB" 1 || fail "$TAG: the injector beyond the NAT listens" "no packet socket"
inj_wait "$IU" 2 || fail "$TAG: the injector in the DUT listens" "no packet sockets"
O=$FG_TMP/c.out
FG_TIMEOUT=40 fg -x "arp; start -f $PNAT -m 50 -d 3; wait 20; stats --json" >"$O" 2>&1
check_eq "$TAG: flowgen exits 0" 0 $?
kill -TERM "$IB" "$IU" 2>/dev/null
wait "$IB" "$IU"
sleep 0.3
cap_stop c
jpre "$FG_TMP/c_beyond.json" sent
jpre "$FG_TMP/c_untr.json" sent kept changed
mapfile -t v < <(jvals "$O" \
	"=[g['client'] for g in o['templates'] if g['name'] == 'beyond'][0]['started']" \
	"=[g['client'] for g in o['templates'] if g['name'] == 'beyond'][0]['fail_reasons']['icmp_unreachable']" \
	"=[g['client'] for g in o['templates'] if g['name'] == 'beyond'][0]['failed']" \
	"=[g['client'] for g in o['templates'] if g['name'] == 'untranslated'][0]['started']" \
	"=[g['client'] for g in o['templates'] if g['name'] == 'untranslated'][0]['fail_reasons']['icmp_unreachable']" \
	"=[g['client'] for g in o['templates'] if g['name'] == 'untranslated'][0]['fail_reasons']['no_reply']" \
	"=[g['client'] for g in o['templates'] if g['name'] == 'untranslated'][0]['failed']" \
	ports.0.rx_icmp_unreach ports.0.icmp_err_unmatched)
SB=$(json_get "$FG_TMP/c_beyond.json" sent || echo x)
SU=$(json_get "$FG_TMP/c_untr.json" sent || echo x)
KU=$(json_get "$FG_TMP/c_untr.json" kept || echo x)
tsh c -T fields -E occurrence=a -e ip.src -e udp.dstport -Y "icmp.type == 3" >"$FG_TMP/c.txt"
QB=$(awk -F'\t' '$2 == "4398" { n++; split($1, a, ","); if (a[2] ~ /^198\.18\.0\./) own++ } END { print n + 0, own + 0 }' "$FG_TMP/c.txt")
QU=$(awk -F'\t' '$2 == "4399" { n++; split($1, a, ","); if (a[2] == "198.19.1.1") nat++ } END { print n + 0, nat + 0 }' "$FG_TMP/c.txt")
echo "# $TAG: beyond: injected $SB, on dut0 (all, quoting the client) $QB, started ${v[0]}" \
	"failed ${v[2]} (icmp ${v[1]}); untranslated: injected $SU (port kept $KU), on dut0 (all," \
	"quoting the NAT's address) $QU, started ${v[3]} failed ${v[6]} (icmp ${v[4]}, no reply ${v[5]});" \
	"port 0 ${v[7]} unreachables, ${v[8]} unmatched"
check_ge "$TAG: beyond: errors injected" "$SB" 50
check_eq "$TAG: beyond: each reached dut0, its quote translated back to the client (RFC 5508 REQ-3)" \
	"$SB $SB" "$QB"
check_eq "$TAG: beyond: one per flow" "${v[0]}" "$SB"
check_eq "$TAG: beyond: every flow failed with icmp_unreachable" "${v[0]} ${v[0]}" "${v[1]} ${v[2]}"
check_ge "$TAG: untranslated: errors injected" "$SU" 50
check_eq "$TAG: untranslated: each reached the client with the NAT's address in its quote" \
	"$SU $SU" "$QU"
check_eq "$TAG: untranslated: one per flow" "${v[3]}" "$SU"
check_eq "$TAG: untranslated: the flows whose port the NAT kept failed with icmp_unreachable" \
	"$KU" "${v[4]}"
check_eq "$TAG: untranslated: the others at their timeout" "$((v[3] - KU))" "${v[5]}"
check_eq "$TAG: port 0: each error a failure, or unmatched (a port the NAT changed)" \
	"${v[7]}" "$((v[1] + v[4] + v[8]))"

lab_down
finish
