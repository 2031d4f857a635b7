#!/usr/bin/env bash
#
# 67_fail_reasons.sh — every reason a flow fails for (flowgen(8),
# STATISTICS, fail_reasons), each provoked on its own through the NAT lab
# of examples/lab.sh and counted under its name on the side that failed,
# every other reason of both sides 0, failed the sum of the reasons and
# started = completed + failed + aborted + active on each side. The DUT
# misbehaves through nftables rules in its forward path, or a Linux
# listener in its namespace (test/data/fail_peer.py) does; the cases
# that mostly wait (retransmits_exhausted, 10 s of SYN retransmissions,
# then table_full, through a second NAT lab of their own, and aborted, on
# the loop pair) run in a lane beside the others:
#
#   no_reply       UDP requests dropped: the client never hears its server
#   no_reply x2    TCP: the server's segments dropped; the client never
#                  gets a SYN-ACK, the server's SYN-ACK is never acked (a
#                  server that keeps state from the SYN on)
#   timeout        UDP: the client's second datagram dropped; both sides
#                  heard the peer, neither program ends (client and server)
#   server timeout UDP: the server's reply dropped: the client never hears
#                  (no_reply), the server waits for its second datagram
#   reset          TCP: the DUT answers the SYN with a RST
#   retransmits_exhausted  TCP: SYNs dropped, the flow's timeout longer
#                  than the 5 retransmissions
#   timeout (TCP)  a Linux listener that accepts and never answers
#   peer_closed    a Linux listener that closes before it answers
#   payload_mismatch  a Linux listener's bytes under -t payload_check=1
#   table_full     flows_max: 100 and UDP flows at 150/s to a Linux echo
#                  server that answers 1 s late (client side only): the
#                  plan allows their replies 0.1 s (flowgen(8), FLOW
#                  TABLES), so the run needs 15 flows and is taken, but
#                  the late server holds about 150 at once
#   aborted        (not a failure) a run halted by two SIGTERMs before it
#                  drained: its open flows are aborted on both sides, in
#                  the record's last line (stats --from)
#
# icmp_unreachable has no scenario here: its counting path is
# test/unit/test_fails.c's.
#
# stats --failed N after each run lists that run's failed flows, newest
# first: side, template, reason, the tuple as that side saw it (the
# server's with the DUT's translated source) and the TCP state; held is
# the number failed, and N beyond it lists them all. And the dashboard
# (tmux, as 60_tui.sh) shows the top reason with its count while a
# failing run runs.

. "$(dirname "$0")/lib.sh"

need_root "fail reasons: lab"
need_flowgen
T0=$SECONDS
D=$FG_TOP/test/data
P=$FG_TMP/prof
mkdir -p "$P"

# --- the profiles: one template each ------------------------------------------

# prof NAME PROTO PORT TIMEOUT SERVER_RANGE CLIENT_PROGRAM SERVER_PROGRAM
prof()
{
	cat >"$P/$1.yaml" <<-EOF
		mode: flows
		ip_gen:
		  client: {range: [198.18.0.1, 198.18.0.254], distribution: seq}
		  server: {range: [$5], distribution: seq}
		  offset: 0.1.0.0
		timeout: $4
		templates:
		  - name: $1
		    proto: $2
		    port: $3
		    cps: 1
		    client: $6
		    server: $7
	EOF
}
FG_SRV="198.19.0.1, 198.19.0.254"
LX="198.19.1.1, 198.19.1.1"
prof u_noreply udp 4401 1 "$FG_SRV" "[{send: 18}, {recv: 18}]" "[{recv: 18}, {send: 18}]"
prof u_srvwait udp 4402 1 "$FG_SRV" "[{send: 18}, {recv: 18}, {send: 18}]" \
	"[{recv: 18}, {send: 18}, {recv: 18}]"
prof u_timeout udp 4403 1 "$FG_SRV" "[{send: 18}, {recv: 18}, {send: 40}]" \
	"[{recv: 18}, {send: 18}, {recv: 40}]"
prof t_reset tcp 8401 2 "$FG_SRV" "[{send: 64}, {recv: 512}]" "[{recv: 64}, {send: 512}]"
prof t_retx tcp 8402 20 "$FG_SRV" "[{send: 64}, {recv: 512}]" "[{recv: 64}, {send: 512}]"
# t_silent's server keeps its state from the SYN on: the delay step makes
# it a program a SYN cookie does not serve (flowgen(8), FLOW TABLES)
prof t_silent tcp 8403 2 "$FG_SRV" "[{send: 64}, {recv: 512}]" "[{recv: 64}, {delay: 1}, {send: 512}]"
prof l_close tcp 8404 2 "$LX" "[{send: 64}, {recv: 512}]" "[{recv: 64}, {send: 512}]"
prof l_mute tcp 8405 1.5 "$LX" "[{send: 64}, {recv: 512}]" "[{recv: 64}, {send: 512}]"
prof l_junk tcp 8080 2 "$LX" "[{send: 64}, {recv: 512}]" "[{recv: 64}, {send: 512}]"
prof l_full udp 4323 3 "$LX" "[{send: 100}, {recv: 100}]" "[{recv: 100}, {send: 100}]"

# --- beside the others: retransmits_exhausted and aborted ------------------------
#
# The retransmissions' run lasts 10 s (the SYNs' five timeouts), table_full
# 6 s and the aborted case 4 s, nearly all of it waiting: lanes run them
# from the start, while the lab of the others comes up and they run:
# retransmits_exhausted, then table_full, through a NAT lab of their own
# (its DUT's forward path drops port 8402, nothing else), and aborted on
# the loop pair beside them. Their traffic is 40 SYNs a second for 0.5 s
# (20 flows), then 150 UDP flows a second for 2 s; 100 a second for 2 s.
RX_TST=fgt-$$-rx RX_DUT=fgd-$$-rx
[ -z "$FG_RESULTS" ] || echo "$RX_TST $RX_DUT" >>"$FG_RESULTS.ns"
at_exit "FG_NS_TST=$RX_TST FG_NS_DUT=$RX_DUT $FG_LAB down"
# (a lane's own at_exit is lost: the aborted case's flowgen, table_full's
# and its echo server by their pid files)
at_exit "[ -s $FG_TMP/hold.pid ] && kill -KILL \$(cat $FG_TMP/hold.pid)"
at_exit "[ -s $FG_TMP/full.pid ] && kill -KILL \$(cat $FG_TMP/full.pid)"
at_exit "[ -s $FG_TMP/echo.pid ] && kill \$(cat $FG_TMP/echo.pid)"
# table_full: a table of 100 entries (flows_max), UDP flows at 150/s for
# 2 s to an echo server that answers each 1 s late: the run needs 15 flows
# (0.1 s allowed for a reply; 36 entries) and is taken, but the server
# holds about 150 open at once, and those beyond the table fail as
# table_full (about a third, within the 256 failed flows stats --failed
# holds) while the others complete; this flowgen is driven through the
# HTTP API (POST /flowgen/v1/command), stats --failed like any command.
# In the lane, through the retransmissions' lab (its DUT drops TCP to port
# 8402 only); its echo server and flowgen end by their pid files on exit.
table_full_case()
{
	local i
	sed 's/^  mbufs: .*/&\n  flows_max: 100/' "$CFG" >"$FG_TMP/small.yaml"
	# the echo server, started here (it ends itself after 60 s)
	ip netns exec "$NS_DUT" python3 "$D/flows_udp_echo.py" 198.19.1.1 4323 "$FG_TMP/echo.count" 1 &
	echo $! >"$FG_TMP/echo.pid"
	for ((i = 0; i < 50; i++)); do
		in_dut ss -Hlun 'sport = :4323' | grep -q . && break
		sleep 0.2
	done
	if CFG=$FG_TMP/small.yaml API_NS=$NS_TST api_start; then
		echo "$FG_PID" >"$FG_TMP/full.pid"
		API_NS=$NS_TST
		api "arp"
		api "start -f $P/l_full.yaml -m 150 -d 2"
		api "wait 20"
		api "stats --failed 4 --json"
		api "stats --json"
		unset API_NS
		kill "$FG_PID" 2>/dev/null
		figs table_full "$FG_TMP/full.out"
		check_eq "table_full: the flows with no room, nothing else; the others completed" ok \
			"$(reasons "$FG_TMP/full.out" client:table_full=failed server:none)"
		check_ge "table_full: flows completed beside them (the echo server's, foreign)" \
			"$(json_get "$FG_TMP/full.out" flows.client.completed || echo 0)" 100
		check_eq "table_full: stats --failed (through the API) lists them, step 0" ok \
			"$(failed "$FG_TMP/full.out" 4 side=client reason=table_full step=0 dport=4323)"
	else
		fail "table_full: flowgen with --api starts" "$(tail -n 3 "$FG_TMP/err")"
	fi
	kill "$(cat "$FG_TMP/echo.pid")" 2>/dev/null
}

# api CMD : one command through the API; its "json" value appended to full.out
api()
{
	http POST /flowgen/v1/command "$(python3 -c 'import json, sys; print(json.dumps({"command": sys.argv[1]}))' "$1")"
	[ "$ST" = 200 ] || fail "table_full: the API ran '$1'" "$ST $B"
	jq_ 'json.dumps(o.get("json"))' >>"$FG_TMP/full.out"
}

beside_lane()
{
	local NS_TST=$RX_TST NS_DUT=$RX_DUT CFG=$FG_TOP/examples/lab.yaml
	# SYNs dropped: 5 retransmissions before the flow's timeout (20 s)
	if ! FG_NS_TST=$RX_TST FG_NS_DUT=$RX_DUT "$FG_LAB" up nat >"$FG_TMP/lab.rx.out" 2>&1; then
		fail "retransmits_exhausted and table_full: their lab up" "$(cat "$FG_TMP/lab.rx.out")"
	elif ! { in_dut nft add table inet fgfail &&
		in_dut nft add chain inet fgfail fw '{ type filter hook forward priority -10; }' &&
		in_dut nft add rule inet fgfail fw tcp dport 8402 drop; }; then
		fail "retransmits_exhausted: the DUT's rule 'tcp dport 8402 drop'" "nft refused it"
	else
		FG_TIMEOUT=60 fg -x "arp; start -f $P/t_retx.yaml -m 40 -d 0.5; wait 40; stats --failed 4 --json; stats --json" \
			>"$FG_TMP/retx.out" 2>&1 || fail "fail reasons retx: the run ended" "$(tail -n 3 "$FG_TMP/retx.out")"
		figs retx "$FG_TMP/retx.out"
		check_eq "retransmits_exhausted: every client flow, nothing else" ok \
			"$(reasons "$FG_TMP/retx.out" client:retransmits_exhausted=started server:none)"
		check_eq "retransmits_exhausted: stats --failed lists them in SYN_SENT" ok \
			"$(failed "$FG_TMP/retx.out" 4 side=client reason=retransmits_exhausted state=SYN_SENT)"
		table_full_case
	fi
	FG_NS_TST=$RX_TST FG_NS_DUT=$RX_DUT "$FG_LAB" down >/dev/null 2>&1
}

aborted_lane()
{
	local HP i
	# aborted: two SIGTERMs, the second 1 s into the drain of flows of 20 s
	cat >"$P/hold.yaml" <<-EOF
		mode: flows
		ip_gen:
		  client: {range: [198.18.0.1, 198.18.0.254], distribution: seq}
		  server: {range: [198.19.0.1, 198.19.0.254], distribution: seq}
		timeout: 30
		templates:
		  - name: hold
		    proto: udp
		    port: 4321
		    cps: 1
		    client: [ {send: 18}, {delay: 20000}, {send: 18}, {recv: 36} ]
		    server: [ {recv: 18}, {send: 18}, {recv: 18}, {send: 18} ]
	EOF
	"$FG_BIN" -C "$(fg_loop_cfg)" --record "$FG_TMP/hold.jsonl" \
		-x "start -f $P/hold.yaml -m 100; wait 40" >"$FG_TMP/hold.out" 2>&1 &
	HP=$!
	echo "$HP" >"$FG_TMP/hold.pid"
	wait_for '^started ' "$FG_TMP/hold.out" 20 "$HP"
	sleep 2
	kill -TERM "$HP"
	sleep 1
	kill -TERM "$HP" 2>/dev/null
	for ((i = 0; i < 100; i++)); do
		kill -0 "$HP" 2>/dev/null || break
		sleep 0.2
	done
	check_eq "aborted: flowgen ends within 20 s of the second SIGTERM" gone \
		"$(kill -0 "$HP" 2>/dev/null && echo running || echo gone)"
	"$FG_BIN" -x "stats --from $FG_TMP/hold.jsonl --json" >"$FG_TMP/hold.stats" 2>&1
	figs aborted "$FG_TMP/hold.stats"
	check_eq "aborted: the record's last line has the open flows aborted, none failed, none active" ok \
		"$(reasons "$FG_TMP/hold.stats" client:none server:none)"
	check_eq "aborted: started = aborted, on both sides" "True" \
		"$(python3 -c '
import sys
from fg_e2e_json import objects
f = [o for o in objects(open(sys.argv[1]).read()) if "flows" in o][-1]["flows"]
c, s = f["client"], f["server"]
print(c["started"] > 100 and c["aborted"] == c["started"] and s["aborted"] == s["accepted"] == c["started"]
      and c["active"] == s["active"] == 0 or (c, s))' "$FG_TMP/hold.stats" 2>&1)"
}

# --- the checks --------------------------------------------------------------

# reasons FILE SPEC... : the last stats --json of FILE; SPEC is
# SIDE:REASON=COUNTER (the side's fail_reasons hold that reason at the
# side's COUNTER, > 0, every other reason 0) or SIDE:none (all 0). Also
# failed = the reasons summed and started (accepted) = completed + failed
# + aborted + active. Prints "ok" or what differs.
reasons()
{
	python3 - "$@" <<-'EOF'
		import sys
		from fg_e2e_json import objects
		st = [o for o in objects(open(sys.argv[1]).read()) if "flows" in o]
		if not st:
		    print("no stats --json"); sys.exit()
		fl, bad = st[-1]["flows"], []
		for spec in sys.argv[2:]:
		    side, rest = spec.split(":")
		    f = fl[side]
		    want = {r: 0 for r in f["fail_reasons"]}
		    if rest != "none":
		        r, c = rest.split("=")
		        want[r] = f[c]
		        if f[c] <= 0:
		            bad.append("%s.%s = %s" % (side, c, f[c]))
		    if f["fail_reasons"] != want:
		        bad.append("%s: %s, wanted %s" % (side, f["fail_reasons"], want))
		    if f["failed"] != sum(f["fail_reasons"].values()):
		        bad.append("%s.failed %s" % (side, f["failed"]))
		    n = f["started" if side == "client" else "accepted"]
		    if n != f["completed"] + f["failed"] + f["aborted"] + f["active"]:
		        bad.append("%s: %s != completed + failed + aborted + active %s" % (side, n, f))
		print("; ".join(bad) or "ok")
	EOF
}

# failed FILE N SPEC... : the last stats --failed N --json of FILE against
# the run's figures (its last stats --json): held = failed of both sides,
# min(N, held) listed, newest first with RFC 3339 times, each entry with
# the run's template; SPEC (KEY=VALUE: side, reason, src, sport, dst,
# dport, state, proto; a value ending in * is a prefix) holds for every
# entry of that SPEC's side (side=... first). Prints "ok" or what differs.
failed()
{
	python3 - "$@" <<-'EOF'
		import re, sys
		from fg_e2e_json import objects
		objs = objects(open(sys.argv[1]).read())
		ff = [o["failed_flows"] for o in objs if "failed_flows" in o]
		st = [o for o in objs if "flows" in o]
		if not ff or not st:
		    print("no stats --failed --json or no stats --json"); sys.exit()
		ff, fl, n, bad = ff[-1], st[-1]["flows"], int(sys.argv[2]), []
		held = fl["client"]["failed"] + fl["server"]["failed"]
		if ff["held"] != held:
		    bad.append("held %s, failed %s" % (ff["held"], held))
		if len(ff["flows"]) != min(n, held):
		    bad.append("%d listed of %d asked, %d failed" % (len(ff["flows"]), n, held))
		t = [e["time"] for e in ff["flows"]]
		if any(not x or not re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$", x) for x in t) or t != sorted(t, reverse=True):
		    bad.append("times %s" % t[:4])
		specs = {}
		for a in sys.argv[3:]:
		    k, v = a.split("=", 1)
		    if k == "side":
		        cur = specs.setdefault(v, {})
		    cur[k] = v
		for side, want in specs.items():
		    es = [e for e in ff["flows"] if e["side"] == side]
		    if not es:
		        bad.append("no %s entry" % side)
		    for e in es:
		        for k, v in want.items():
		            got = str(e[k])
		            if not (got.startswith(v[:-1]) if v.endswith("*") else got == v):
		                bad.append("%s: %s %s, wanted %s (%s)" % (side, k, got, v, e)); break
		print("; ".join(bad[:4]) or "ok")
	EOF
}

# figs NAME FILE : the run's figures as measured, one "# " line
figs()
{
	python3 - "$@" <<-'EOF'
		import sys
		from fg_e2e_json import objects
		st = [o for o in objects(open(sys.argv[2]).read()) if "flows" in o]
		f = st[-1]["flows"] if st else {"client": {}, "server": {}}
		def side(s, n):
		    r = {k: v for k, v in f[s].get("fail_reasons", {}).items() if v}
		    return "%s %s completed %s failed %s %s aborted %s" % (
		        n, f[s].get(n), f[s].get("completed"), f[s].get("failed"), r, f[s].get("aborted"))
		print("# %s: client %s; server %s" % (sys.argv[1], side("client", "started"), side("server", "accepted")))
	EOF
}

lane beside beside_lane
lane aborted aborted_lane

lab_up nat || exit 1

# --- the misbehaving DUT -----------------------------------------------------

in_dut nft add table inet fgfail &&
	in_dut nft add chain inet fgfail fw '{ type filter hook forward priority -10; }' ||
	fail "fail reasons: the DUT's nftables chain" "nft refused it"
at_exit "in_dut nft delete table inet fgfail 2>/dev/null"
# rule NFT-RULE... : the DUT's forward path does only this (no rule: none)
rule()
{
	in_dut nft flush chain inet fgfail fw &&
		{ [ $# -eq 0 ] || in_dut nft add rule inet fgfail fw "$@"; } ||
		fail "fail reasons: the DUT's rule '$*'" "nft refused it"
}

ip netns exec "$NS_DUT" python3 "$D/fail_peer.py" close 198.19.1.1 8404 "$FG_TMP/close.count" &
at_exit "kill $! 2>/dev/null"
ip netns exec "$NS_DUT" python3 "$D/fail_peer.py" silent 198.19.1.1 8405 "$FG_TMP/mute.count" &
at_exit "kill $! 2>/dev/null"
ip netns exec "$NS_DUT" python3 "$D/flows_tcp_srv.py" 198.19.1.1 8080 "$FG_TMP/junk.count" &
at_exit "kill $! 2>/dev/null"
for ((i = 0; i < 50; i++)); do
	[ "$(in_dut ss -Hltn '( sport = :8404 or sport = :8405 or sport = :8080 )' | wc -l)" -ge 3 ] && break
	sleep 0.2
done

# One flowgen in the lab for the runs below; `start` clears the counters.
FG_TIMEOUT=240 fg_open "$FG_TMP/session.out"
fg_run arp "arp" 30 || fail "fail reasons: arp" "$(tail -n 3 "$FG_TMP/session.out")"

# run NAME PROFILE MULT SECS [START-OPTS] : one run of PROFILE for SECS,
# drained, then its failed flows and figures (into $FG_TMP/NAME.out). Each
# run below starts its flows in 0.5 s (50 of them, 30 to the Linux
# listeners): it ends once the last has waited out its profile's timeout.
run()
{
	fg_run "$1" "start -f $P/$2.yaml -m $3 -d $4 $5; wait 40; stats --failed 4 --json; stats --json" 60 ||
		fail "fail reasons $1: the run ended" "$(tail -n 3 "$FG_TMP/$1.out")"
}

# later NAME : run NAME's figures and checks (the function chk_NAME) in a
# lane, beside the runs that follow: they read only NAME's own output
LATER=()
later()
{
	lane "chk_$1" later_body "$1"
	LATER+=("chk_$1")
}

later_body()
{
	figs "$1" "$FG_TMP/$1.out"
	"chk_$1"
}

# no_reply: UDP requests dropped
rule udp dport 4401 drop
run noreply u_noreply 100 0.5
chk_noreply()
{
	check_eq "no_reply: every client flow, nothing else (the server saw none)" ok \
		"$(reasons "$FG_TMP/noreply.out" client:no_reply=started server:none)"
	check_eq "no_reply: stats --failed lists them, client, tuple and step" ok \
		"$(failed "$FG_TMP/noreply.out" 4 side=client template=u_noreply reason=no_reply proto=udp \
			src=198.18.0.* dst=198.19.0.* dport=4401 state=None step=1)"
}
later noreply

# the server's reply dropped: the client never hears, the server waits
rule udp sport 4402 drop
run srvwait u_srvwait 100 0.5
chk_srvwait()
{
	check_eq "server timeout: client no_reply, server timeout, nothing else" ok \
		"$(reasons "$FG_TMP/srvwait.out" client:no_reply=started server:timeout=accepted)"
	check_eq "server timeout: stats --failed lists the server's with the DUT's translated source" ok \
		"$(failed "$FG_TMP/srvwait.out" 4 side=server template=u_srvwait reason=timeout src=198.19.1.1 \
			dst=198.19.0.* dport=4402 step=2 side=client reason=no_reply src=198.18.0.*)"
}
later srvwait

# the client's second datagram (40 bytes: 48 with the UDP header) dropped
rule udp dport 4403 udp length gt 40 drop
run timeout u_timeout 100 0.5
chk_timeout()
{
	check_eq "timeout: both sides heard the peer, neither program ended" ok \
		"$(reasons "$FG_TMP/timeout.out" client:timeout=started server:timeout=accepted)"
}
later timeout

# the DUT resets every SYN
rule tcp dport 8401 reject with tcp reset
run reset t_reset 100 0.5
# N beyond what is held: all of them
fg_run reset_all "stats --failed 8192 --json; stats --json" 30
fg_run reset_txt "stats --failed 2" 30
chk_reset()
{
	check_eq "reset: every client flow, nothing else" ok \
		"$(reasons "$FG_TMP/reset.out" client:reset=started server:none)"
	check_eq "reset: stats --failed lists them in SYN_SENT" ok \
		"$(failed "$FG_TMP/reset.out" 4 side=client template=t_reset reason=reset proto=tcp \
			dst=198.19.0.* dport=8401 state=SYN_SENT)"
	check_eq "reset: stats --failed 8192 lists every failed flow held" ok \
		"$(failed "$FG_TMP/reset_all.out" 8192 side=client reason=reset)"
	check_grep "reset: stats --failed's text: time, side, template, tuple, state, reason" \
		'^20[0-9-]+T[0-9:.]+Z +client +t_reset +tcp +198\.18\.[0-9.]+:[0-9]+ +198\.19\.0\.[0-9]+:8401 +SYN_SENT +reset$' \
		"$FG_TMP/reset_txt.out"
}
later reset

# the server's segments dropped: no SYN-ACK arrives, none is acked
rule tcp sport 8403 drop
run silent t_silent 100 0.5
chk_silent()
{
	check_eq "no_reply, TCP: client (no SYN-ACK) and server (SYN-ACK never acked)" ok \
		"$(reasons "$FG_TMP/silent.out" client:no_reply=started server:no_reply=accepted)"
	check_eq "no_reply, TCP: the server's in SYN_RCVD, from the translated source" ok \
		"$(failed "$FG_TMP/silent.out" 4 side=server reason=no_reply state=SYN_RCVD src=198.19.1.1 \
			dport=8403 side=client state=SYN_SENT)"
}
later silent

rule

# Linux listeners in the DUT
run closed l_close 60 0.5
chk_closed()
{
	check_eq "peer_closed: the listener's FIN before its answer" ok \
		"$(reasons "$FG_TMP/closed.out" client:peer_closed=started server:none)"
	check_eq "peer_closed: stats --failed lists them, to the listener" ok \
		"$(failed "$FG_TMP/closed.out" 4 side=client reason=peer_closed dst=198.19.1.1 dport=8404 \
			state=LAST_ACK)"
}
later closed
run mute l_mute 60 0.5
chk_mute()
{
	check_eq "timeout, TCP: the listener accepts and never answers" ok \
		"$(reasons "$FG_TMP/mute.out" client:timeout=started server:none)"
	check_eq "timeout, TCP: stats --failed lists them ESTABLISHED" ok \
		"$(failed "$FG_TMP/mute.out" 4 side=client reason=timeout state=ESTABLISHED dport=8405)"
}
later mute
run junk l_junk 60 0.5 "-t payload_check=1"
chk_junk()
{
	check_eq "payload_mismatch: a listener's bytes under -t payload_check=1" ok \
		"$(reasons "$FG_TMP/junk.out" client:payload_mismatch=started server:none)"
	check_eq "payload_mismatch: stats --failed lists them" ok \
		"$(failed "$FG_TMP/junk.out" 4 side=client reason=payload_mismatch dport=8080)"
}
later junk

# the dashboard's top reasons while a failing run runs
rule tcp dport 8401 reject with tcp reset
H=$FG_TMP/home
mkdir -p "$H"
tmux_start 132 40
fg_close
check_eq "fail reasons: every command succeeded, flowgen exits 0" 0 "$FG_SRC"
keys "cd $FG_TOP && ip netns exec $NS_TST $FG_BIN -C $CFG; echo FG-EXIT > $H/rc" Enter
if wait_screen 'flowgen> ?$' 40; then
	keys "arp" Enter
	wait_screen 'port 1: .*MAC' 10
	keys "start -f $P/t_reset.yaml -m 40" Enter
	keys "tui" Enter
	if wait_screen '^Top fail reasons: reset [0-9]+ \(client\)$' 10; then
		pass "tui: the top fail reason while the run fails: reset, its count, client"
	else
		fail "tui: the top fail reason while the run fails" "$(screen | grep . | head -n 12)"
	fi
	keys q
	keys "stop" Enter
	keys "quit" Enter
	wait_file "$H/rc" 20 || fail "tui: flowgen quits" "$(screen | grep . | tail -n 3)"
else
	fail "tui: flowgen console starts" "$(screen | grep . | tail -n 5)"
fi
rule

lab_down

for l in "${LATER[@]}"; do
	lane_end "$l"
done
lane_end beside
lane_end aborted

echo "# 67_fail_reasons.sh: $((SECONDS - T0)) s"
finish
