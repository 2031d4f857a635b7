#!/usr/bin/env bash
#
# 67_fault_link.sh — faults in the middle of a run, against the NAT lab:
# each scenario in a lab of its own (examples/lab.sh up nat; the next
# scenario's lab comes up in the background during this one's flows run,
# once its recovery window is over and only counts are left to judge)
# with one flowgen that makes two runs: a flows run
# (test/data/fault_link_flows.yaml, 100 new flows a second of each template:
# TCP whose client speaks first after a second's pause in the middle of
# its program, TCP whose server does, UDP with such a pause) with the
# fault 2 s into it (a flow's second exchange comes 1 s after its first:
# the traffic is at its rate from 1 s on, and the rate before the fault
# is the median of the intervals before it, most of them past that
# second); -d 7 where a link goes down ("no flow failed after those alive
# in the outage had ended" reads the record 3.3 s after the DUT is back,
# 7.4 s into it, where only a run that starts flows up to 7 s has lines
# to read), -d 4 for the flush (the DUT back 2.1-2.3 s into it; its rates
# are judged within 1 s of that, the rest are counts). And a streams run
# (test/data/fault_link_streams.yaml: 2,000 frames/s with latency, inside
# to outside, at its rate from its first frame: learn=0) with the fault
# 1 s into it where a link goes down (8 intervals of 0.1 s for the rate
# before it) and 2 s into it for the flush (the table the stream filled
# must be 20 times what the flush leaves, entries of the frames between
# the flush and the count: 2,000 a second; 4,400-4,500 before it, 90-140
# after); -d 4.5 and 5.5: the DUT is back 3.1-3.2 and 2.1-2.2 s into it,
# traffic at its rate 0.11-0.22 s later, the 1 s bound measured with
# 1.3-1.4 s to spare (the check fails as well when the traffic is not back
# by the end of the record). The flush's run goes on 3.4 s after it so
# that its table refills to more than 10 times what the flush left: with
# -d 3.6 it refilled to 2,666 entries from 256 in one make test run (the
# count 0.13 s after the flush on a busy host), 2,700-2,900 from 90-130
# in the others; with -d 5.5, to 5,800-6,600.
# Each run is recorded every 0.1 s (`record start`) and
# test/e2e/recovery.py reads the record. For every run:
#  - flowgen runs on (its process; `stats --json` answered during an
#    outage, with port 1's link down, and up again after);
#  - the run ends on time: its record's end line within D .. D + 0.3 s of
#    its planned start (a flows run: D + 3.3 s, its flows' longest life);
#  - the counters add up: streams, lost = tx - rx; flows (the totals and
#    each template), started = completed + failed + aborted + active and
#    the server's accepted likewise, none left active or aborted, failed
#    = the sum of its fail_reasons (client and server), and the client's
#    reasons that are not 0 are those the fault explains (no_reply,
#    timeout, retransmits_exhausted, icmp_unreachable; never a reset, a
#    full table or a wrong payload);
#  - traffic (port 1's rx, what crosses the DUT) back at 90 % of its rate
#    within 1 s of the DUT being back, and, where a link was down, at 0
#    during the outage (else the test could not fail);
#  - where a link was down, the UDP flows' failed count against the wire:
#    dumpcap on the DUT's inside link (dut0) sees each request and each
#    reply the client gets; failed = the flows with a request unanswered
#    within the profile's timeout, each flow on the wire ends unanswered
#    or after its two exchanges, and every unanswered request went out
#    between the fault and the link's return (the commands' times, with
#    the scenario's margins below).
#
#  down   the DUT's outside link (dut1) down for 2 s, then up, and its
#         route to the servers put back as examples/lab.sh sets it (a
#         link down removes the routes through it). During it: dut1 DOWN,
#         the route, the neighbour entry of flowgen's port 1 and every
#         conntrack entry gone (masquerade forgets the mappings out of an
#         interface that goes down), ICMP unreachables sent to the inside.
#         After: dut1 UP, the route back, flowgen's port 1 resolved again
#         at its MAC, conntrack refilling. Streams lose the frames of the
#         outage (the commands' times bracket it, +-0.05 s); UDP flows fail
#         (icmp_unreachable from the DUT, or no_reply) when either exchange
#         falls in it (about the outage + 1 s of flows); some TCP flows
#         fail, at most those alive during the outage, none
#         before it nor once those have ended; the DUT resets the TCP
#         flows whose server speaks first after the outage (no mapping any
#         more: Tcp OutRsts, printed).
#  flush  the DUT's conntrack flushed (`conntrack -F`). With masquerade and
#         nf_conntrack_tcp_loose=1 (the default), what tshark shows: a flow
#         whose client speaks next is taken up again, mid-stream, and gets
#         its old port back (free since the flush): tcp_cli and udp lose
#         nothing, one server flow each (but a UDP reply on its way at the
#         flush: the DUT, with no mapping, answers it port unreachable,
#         and that one flow fails, no more than its Icmp OutDestUnreachs;
#         a tcp_cli server's segment on its way at the flush: the DUT
#         resets that server flow, a RST to port 8080 on dut1, and the
#         client's segment sent again is taken up as a new flow, one more
#         server flow accepted; none fails on the client); a flow whose server speaks next
#         reaches the DUT with no mapping, is taken for the DUT's own and
#         answered with a RST, from 198.19.1.1 to the server: every tcp_srv
#         flow in its server's pause at the flush (100) fails, the server
#         on the RST (reset), the client at its timeout (timeout: it had
#         heard the server); as many RSTs on dut1
#         (dumpcap) and in the DUT's Tcp OutRsts. The table empties (below
#         5 %) and refills: an entry for every flow started since. Streams
#         lose nothing.
#  flap   the tester's own link (fg1) down for 2 s, then up. The DUT sees
#         no carrier on dut1 and keeps its conntrack; its neighbour entry
#         for flowgen's port 1 goes INCOMPLETE, and it would ask again only
#         on its own timer: traffic came back 1.16-1.25 s after the link.
#         flowgen now announces its port's address when its link comes up
#         (flowgen(8), arp; src/core/announce.h): back within 0.2 s. The
#         frames the DUT held in that entry's queue arrive late (what
#         its unres_qlen_bytes holds: about 0.1 s of a stream; a UDP
#         request held there does not fail: over six flows runs, the
#         first requests that went unanswered spanned 1.80 to 2.14 s of
#         flows, so the UDP flows that fail are counted off the wire, not
#         off the commands' times) and the announcement goes out 0.1-0.2
#         s after the link: streams and unanswered UDP requests are
#         judged 0.15 s early, 0.25 s late.

. "$(dirname "$0")/lib.sh"

need_flowgen
need_root "fault scenarios: lab"

FP=$FG_TOP/test/data/fault_link_flows.yaml
SP=$FG_TOP/test/data/fault_link_streams.yaml
RATE=100  # -m: new flows a second of each of fault_link_flows.yaml's three templates
SPPS=2000 # fault_link_streams.yaml's rate
# a run's -d and its fault, seconds into it, by scenario and kind (the
# header says why each is what it is)
declare -A DUR=([down-flows]=7 [flap-flows]=7 [flush-flows]=4
	[down-streams]=4.5 [flap-streams]=4.5 [flush-streams]=5.5)
declare -A FAT=([down-flows]=2 [flap-flows]=2 [flush-flows]=2
	[down-streams]=1 [flap-streams]=1 [flush-streams]=2)
OUT=2     # how long a link stays down
TFLOW=3   # a flow's longest life: fault_link_flows.yaml's timeout and delay
DRAIN=0.3 # a streams run's -t drain

now()
{
	date +%s.%N
}

# sleep_until T : until the Unix time T
sleep_until()
{
	sleep "$(awk -v t="$1" -v n="$(now)" 'BEGIN { d = t - n; printf "%.3f", (d > 0 ? d : 0) }')"
}

# snmp PROTO FIELD : a counter of the DUT's /proc/net/snmp (Tcp OutRsts,
# Icmp OutDestUnreachs)
snmp()
{
	in_dut awk -v p="$1:" -v f="$2" '$1 == p {
		if (!h) { for (i = 2; i <= NF; i++) if ($i == f) c = i; h = 1; next }
		print $c; exit }' /proc/net/snmp
}

# ct_count : the DUT's conntrack entries
ct_count()
{
	in_dut conntrack -C 2>/dev/null || echo none
}

# link_of NS IFACE : an interface's state and flags as `ip -br link` shows them
link_of()
{
	ip -n "$1" -br link show "$2" | awk '{ print $2, $NF }'
}

# neigh_fg1 : the DUT's neighbour entry for flowgen's port 1 (198.19.1.2):
# "MAC STATE", or "none"
neigh_fg1()
{
	local l
	l=$(in_dut ip neigh show 198.19.1.2 dev dut1)
	if [ -z "$l" ]; then echo none; else echo "$l" | awk '{ print $3, $NF }'; fi
}

# route_out : the DUT's route to the servers, as examples/lab.sh set it
route_out()
{
	in_dut ip route show 198.19.0.0/24 | sed 's/ *$//'
}

cat >"$FG_TMP/judge.py" <<-'PY'
	# judge.py KEY=VALUE... : one run of a fault scenario, judged from its
	# record and its last `stats --json`; prints "PASS<TAB>name",
	# "FAIL<TAB>name<TAB>why" and "#<TAB>figures" lines
	import calendar, contextlib, io, json, math, re, sys, time
	import recovery
	from fg_e2e_json import last

	A = dict(x.split("=", 1) for x in sys.argv[1:])
	kind, sc, tag = A["kind"], A["sc"], A["tag"]
	a, b, c, d = (float(A[k]) for k in "abcd")
	D, bound, rate = float(A["D"]), float(A["bound"]), float(A["rate"])
	early, late = float(A.get("early", 0)), float(A.get("late", 0))
	rec = [json.loads(l) for l in open(A["rec"]) if l.strip()]
	fin = last(open(A["out"]).read(), '{"global"')

	def check(name, ok, why=""):
	    name = "%s: %s" % (tag, name)
	    print("PASS\t%s" % name if ok else "FAIL\t%s\t%s" % (name, why))

	def note(s):
	    print("#\t%s: %s" % (tag, s))

	def recov(key):
	    buf = io.StringIO()
	    with contextlib.redirect_stdout(buf):
	        recovery.main(["recovery.py", A["rec"], key, repr(a), repr(d)])
	    r = json.loads(buf.getvalue())
	    note("%s: before %s/s, during %s/s, back at that rate %s s after the DUT" %
	         (key, r["before"], r["during"], r["back_s"]))
	    return r

	def unix(t):
	    s, frac = t.rstrip("Z").split(".")
	    return calendar.timegm(time.strptime(s, "%Y-%m-%dT%H:%M:%S")) + float("0." + frac)

	note("fault %.3f-%.3f s, back %.3f-%.3f s into the record" %
	     (a - rec[0]["t"], b - rec[0]["t"], c - rec[0]["t"], d - rec[0]["t"]))
	# the run ends on time: the record's end line against the planned start
	ends = [o for o in rec if o["reason"] == "end" and o["final"]]
	start = unix(fin["global"]["start_planned"])
	if ends:
	    dur = ends[0]["t"] - start
	    note("the run lasted %.3f s (-d %g)" % (dur, D))
	    check("the run ends on time (%g-%g s after its start)" % (D, D + bound),
	          D <= dur <= D + bound, "it lasted %.3f s" % dur)
	else:
	    check("the run ends on time", False, "no end line in the record")

	outage = sc in ("down", "flap")

	if kind == "streams":
	    row = [r for r in fin["latency"] if r["stream"] == "lat" and r["port"] == 1][0]
	    lo, hi = rate * (c - b), rate * (d - a)
	    note("tx %d rx %d lost %d dup %d ooo %d, max latency %s us; the link down %.3f-%.3f s: %d-%d frames" %
	         (row["tx"], row["rx"], row["lost"], row["dup"], row["ooo"], row["max_us"],
	          c - b, d - a, lo, hi))
	    check("lost = tx - rx", row["lost"] == row["tx"] - row["rx"],
	          "lost %d, tx %d, rx %d" % (row["lost"], row["tx"], row["rx"]))
	    if outage:
	        # whole frames: an interval of rate x t holds floor() to ceil() of them
	        lo, hi = math.floor(lo - rate * early), math.ceil(hi + rate * late)
	        check("lost = the frames sent while the link was down (%d-%d)" % (lo, hi),
	              lo <= row["lost"] <= hi, "lost %d" % row["lost"])
	    else:
	        check("nothing lost", row["lost"] == 0, "lost %d" % row["lost"])
	    r = recov("ports.1.rx_pkts")
	    if outage:
	        check("the outage stopped the traffic (during: 0 frames/s)", r["during"] == 0,
	              "during %s" % r["during"])
	    check("back at its rate within 1 s", r["back_s"] is not None and r["back_s"] <= 1.0,
	          "back_s %s" % r["back_s"])
	    sys.exit(0)

	# flows
	def reasons(x):
	    # the reasons by name: fail_reasons (flowgen(8), STATISTICS), or,
	    # where a flowgen has none, its fail_* counters and rx_payload_bad
	    if isinstance(x.get("fail_reasons"), dict):
	        return dict(x["fail_reasons"])
	    r = {k: v for k, v in x.items() if k.startswith("fail_") and isinstance(v, int)}
	    if "rx_payload_bad" in x:
	        r["rx_payload_bad"] = x["rx_payload_bad"]
	    return r

	def nz(r):
	    return {k: v for k, v in r.items() if v}

	# what the fault explains of the client's failures: nothing heard, a
	# timeout, retransmissions, an unreachable from the DUT while its
	# route was gone; never a reset, a full table or a wrong payload
	allowed = r"no_reply|timeout|retx|retrans"
	if outage:
	    allowed += r"|unreach|icmp"
	tpl = {g["name"]: g for g in fin["templates"]}
	tix = {g["name"]: i for i, g in enumerate(fin["templates"])}
	for name, g in [("all", fin["flows"])] + sorted(tpl.items()):
	    cl, sv = g["client"], g["server"]
	    r, rs = reasons(cl), reasons(sv)
	    ab, sab = cl.get("aborted", 0), sv.get("aborted", 0)
	    note("%s: started %d completed %d failed %d active %d, reasons %s, retx %d; server accepted %d completed %d failed %d active %d, reasons %s" %
	         (name, cl["started"], cl["completed"], cl["failed"], cl["active"], nz(r), cl["retx"],
	          sv["accepted"], sv["completed"], sv["failed"], sv["active"], nz(rs)))
	    check("%s: started = completed + failed + aborted + active" % name,
	          cl["started"] == cl["completed"] + cl["failed"] + ab + cl["active"], str(cl))
	    check("%s: none left active or aborted" % name,
	          cl["active"] == sv["active"] == ab == sab == 0,
	          "client %d + %d aborted, server %d + %d" % (cl["active"], ab, sv["active"], sab))
	    check("%s: failed = the sum of its reasons" % name, cl["failed"] == sum(r.values()),
	          "failed %d, reasons %s" % (cl["failed"], r))
	    check("%s: server accepted = completed + failed + aborted + active" % name,
	          sv["accepted"] == sv["completed"] + sv["failed"] + sab + sv["active"], str(sv))
	    if "fail_reasons" in sv:
	        check("%s: the server's failed = the sum of its reasons" % name,
	              sv["failed"] == sum(rs.values()), "failed %d, reasons %s" % (sv["failed"], rs))
	    bad = {k: v for k, v in r.items() if v and not re.fullmatch(r".*(%s).*" % allowed, k)}
	    check("%s: failed only for what the fault explains (%s)" % (name, allowed), not bad,
	          "also %s" % bad)

	# the run's lines: running, draining, and its end
	run = [o for o in rec if o["state"] != "idle" or (o["reason"] == "end" and o["final"])]
	def client_at(t, key, after):
	    s = [o for o in run if (o["t"] >= t if after else o["t"] <= t)]
	    if not s:
	        return None
	    return (s[0] if after else s[-1])["stats"]["flows"]["client"][key]

	if outage:
	    # a udp flow exchanges at its start and a second later: it fails
	    # when either exchange goes unanswered within the timeout. The
	    # wire tells which did: the DUT's inside link (dut0) saw every
	    # request and every reply the client got
	    u = tpl["udp"]["client"]["failed"]
	    import fg_pcapng
	    tmo = float(A["timeout"])
	    req, rep = {}, {}
	    for ns, f in fg_pcapng.frames(A["udpcap"]):
	        h = fg_pcapng.udp4(f)
	        if h and h[3] == 4321:
	            req.setdefault(h[:3], []).append(ns / 1e9)
	        elif h and h[1] == 4321:
	            rep.setdefault((h[2], h[3], h[0]), []).append(ns / 1e9)
	    # per flow: its requests, each answered by the next reply if that
	    # came within the timeout; a reply within 50 ms of the timeout is
	    # either
	    failed, either, lost_at, half = 0, 0, [], 0
	    for k, qs in req.items():
	        # answered, yet no second exchange: what neither the fault nor
	        # the program explains (a capture cut short, a client that
	        # stopped early)
	        half += len(qs) == 1 and len(rep.get(k, [])) >= 1
	        rs, ok, edge = sorted(rep.get(k, [])), True, False
	        for q in sorted(qs):
	            r = [x for x in rs if x >= q]
	            if not r or r[0] - q > tmo + 0.05:
	                ok = False
	                lost_at.append(q)
	                break
	            edge = edge or r[0] - q > tmo - 0.05
	            rs.remove(r[0])
	        ok = ok and len(qs) == 2
	        failed += not ok
	        either += ok and edge
	    note("udp on the wire: %d flows, %d unanswered, %d answered near the timeout" %
	         (len(req), failed, either))
	    # dumpcap's last words: "... received/dropped on interface 'dut0': N/0 (...)"
	    m = re.search(r"received/dropped on interface .*: (\d+)/(\d+) ", A["capstat"])
	    check("udp: the capture holds every flow, none dropped (%d)" % tpl["udp"]["client"]["started"],
	          m and m.group(2) == "0" and len(req) == tpl["udp"]["client"]["started"],
	          "%d flows; dumpcap: %s" % (len(req), A["capstat"] or "no statistics"))
	    check("udp: each flow on the wire ends unanswered or after its two exchanges",
	          half == 0, "%d flows answered once and never again" % half)
	    check("udp: failed = its flows the wire shows unanswered (%d-%d)" % (failed, failed + either),
	          failed <= u <= failed + either, "failed %d" % u)
	    # what went unanswered, the outage explains: its request went out
	    # from a round trip before the fault to the DUT's announcement
	    if lost_at:
	        note("udp: unanswered requests sent %.3f-%.3f s into the record" %
	             (min(lost_at) - rec[0]["t"], max(lost_at) - rec[0]["t"]))
	    check("udp: every unanswered request went out in the outage (%.3f-%.3f s)" %
	          (a - early - rec[0]["t"], d + late - rec[0]["t"]),
	          lost_at and a - early <= min(lost_at) and max(lost_at) <= d + late,
	          "%s" % ["%.3f" % (x - rec[0]["t"]) for x in sorted(lost_at)[:3] + sorted(lost_at)[-3:]])
	    t = tpl["tcp_cli"]["client"]["failed"] + tpl["tcp_srv"]["client"]["failed"]
	    hi = 2 * rate * (d - a + float(A["tflow"]))
	    check("tcp: some failed, at most those alive during the outage (%d)" % hi, 0 < t <= hi,
	          "failed %d" % t)
	    f0 = client_at(a, "failed", False)
	    f1 = client_at(d + float(A["tflow"]) + 0.3, "failed", True)
	    fin_f = fin["flows"]["client"]["failed"]
	    note("failed before the fault %s, %g s after the DUT was back %s, at the end %d" %
	         (f0, float(A["tflow"]) + 0.3, f1, fin_f))
	    check("no flow failed before the fault", f0 == 0, "failed %s" % f0)
	    check("no flow failed after those alive in the outage had ended", f1 in (None, fin_f),
	          "failed %s, then %d" % (f1, fin_f))
	    r = recov("ports.1.rx_pkts")
	    check("the outage stopped the traffic (port 1 rx during: 0 frames/s)", r["during"] == 0,
	          "during %s" % r["during"])
	    check("port 1 rx back at its rate within 1 s", r["back_s"] is not None and r["back_s"] <= 1.0,
	          "back_s %s" % r["back_s"])
	    r = recov("ports.0.rx_pkts")
	    check("port 0 rx back at its rate within 1 s", r["back_s"] is not None and r["back_s"] <= 1.0,
	          "back_s %s" % r["back_s"])
	else:
	    for n in ("tcp_cli", "udp"):
	        cl, sv = tpl[n]["client"], tpl[n]["server"]
	        if n == "tcp_cli":
	            check("%s (the client speaks first after the flush): none failed" % n, cl["failed"] == 0,
	                  "failed %d" % cl["failed"])
	        else:
	            # a server's reply on its way at the flush finds no
	            # mapping: the DUT refuses it (ICMP port unreachable to
	            # the server, counted in its Icmp OutDestUnreachs) and
	            # that flow's client fails; nothing else fails
	            unr = int(A["unr"])
	            check("udp (the client speaks first after the flush): none failed but a reply "
	                  "the DUT refused (%d)" % unr, cl["failed"] <= unr,
	                  "failed %d, the DUT's port unreachables %d" % (cl["failed"], unr))
	            check("udp: a server flow fails only on the DUT's port unreachable",
	                  sv["failed"] == reasons(sv).get("icmp_unreachable", 0) if "fail_reasons" in sv
	                  else sv["failed"] <= unr, "server failed %d, reasons %s" % (sv["failed"], nz(reasons(sv))))
	        if n == "tcp_cli":
	            # a server's segment on its way at the flush finds no
	            # mapping either: the DUT resets that server flow (a RST to
	            # port 8080 on dut1) and takes the client's next segment up
	            # as a new one, which its server accepts: one more server
	            # flow for each such RST (one run in about ten: one)
	            race = int(A["wire_rsts_cli"])
	            check("tcp_cli: one server flow each, translated (the DUT kept the mapping), one more "
	                  "for each of its servers' segments the DUT reset (%d)" % race,
	                  sv["accepted"] == cl["started"] + race and sv["untranslated"] == 0
	                  and sv["failed"] == race,
	                  "started %d, accepted %d, failed %d, untranslated %d, RSTs to 8080 %d"
	                  % (cl["started"], sv["accepted"], sv["failed"], sv["untranslated"], race))
	        else:
	            check("%s: one server flow each, translated (the DUT kept the mapping)" % n,
	                  sv["accepted"] == cl["started"] and sv["untranslated"] == 0,
	                  "started %d, accepted %d, untranslated %d" % (cl["started"], sv["accepted"], sv["untranslated"]))
	        r = recov("templates.%d.client.completed" % tix[n])
	        check("%s: completed at its rate within 1 s" % n, r["back_s"] is not None and r["back_s"] <= 1.0,
	              "back_s %s" % r["back_s"])
	    cl, sv = tpl["tcp_srv"]["client"], tpl["tcp_srv"]["server"]
	    lo, hi = rate * 1.0 - 2, rate * (1.0 + d - a) + 2
	    check("tcp_srv (the server speaks first): failed = its flows in the server's delay at the flush (%d-%d)" % (lo, hi),
	          lo <= cl["failed"] <= hi, "failed %d" % cl["failed"])
	    check("tcp_srv: as many server flows failed", sv["failed"] == cl["failed"],
	          "server %d, client %d" % (sv["failed"], cl["failed"]))
	    if "fail_reasons" in sv:
	        check("tcp_srv: every server flow failed on a reset (the DUT's)",
	              reasons(sv).get("reset") == sv["failed"], "reasons %s" % nz(reasons(sv)))
	    check("tcp_srv: the DUT reset each (its Tcp OutRsts grew by the failed, and by tcp_cli's resets)",
	          int(A["rsts"]) == cl["failed"] + int(A["wire_rsts_cli"]),
	          "OutRsts +%s, failed %d, tcp_cli's %s" % (A["rsts"], cl["failed"], A["wire_rsts_cli"]))
	    check("tcp_srv: the wire shows each reset, from the DUT to a server (port 8081)",
	          int(A["wire_rsts"]) == cl["failed"], "RSTs to 8081 on dut1 %s, failed %d" % (A["wire_rsts"], cl["failed"]))
	    r = recov("ports.1.rx_pkts")
	    check("port 1 rx at its rate within 1 s", r["back_s"] is not None and r["back_s"] <= 1.0,
	          "back_s %s" % r["back_s"])
	    # each flow started since the flush has an entry at the end (UDP
	    # 30 s at least, TCP 120 s in TIME_WAIT), and so has each flow
	    # the DUT took up again
	    n = fin["flows"]["client"]["started"] - client_at(a, "started", False)
	    check("the DUT's conntrack refilled: an entry for each flow started since the flush (%d)" % n,
	          int(A["ct_end"]) >= n, "%s entries" % A["ct_end"])
	PY

# judge ARGS... : judge.py's lines as checks and figures
judge()
{
	local k n r
	while IFS=$'\t' read -r k n r; do
		case "$k" in
		PASS) pass "$n" ;;
		FAIL) fail "$n" "$r" ;;
		\#) echo "# $n" ;;
		*) fail "fault judge" "$k $n $r" ;;
		esac
	done < <(python3 "$FG_TMP/judge.py" "$@" 2>&1)
}

# --- the faults -------------------------------------------------------------------

# fault_SC / restore_SC : the fault and the end of it
fault_down()
{
	in_dut ip link set dut1 down
}

# a link down removes the routes through it: back what examples/lab.sh set
restore_down()
{
	in_dut ip link set dut1 up
	in_dut ip route add 198.19.0.0/24 via 198.19.1.2 dev dut1
}

fault_flush()
{
	in_dut conntrack -F >/dev/null 2>&1
}

restore_flush()
{
	:
}

fault_flap()
{
	in_tst ip link set fg1 down
}

restore_flap()
{
	in_tst ip link set fg1 up
}

# during SC TAG : what the DUT and flowgen show while the link is down
during()
{
	local sc=$1 tag=$2 f=$FG_TMP/$1-$KIND-mid l left
	check "$tag: flowgen runs during the outage" kill -0 "$FG_SPID"
	if fg_run "$sc-$KIND-mid" "stats --json" 2; then
		pass "$tag: stats --json answers during the outage"
	else
		fail "$tag: stats --json answers during the outage" "no answer in 2 s"
	fi
	grep '^{"global"' "$FG_TMP/$sc-$KIND-mid.out" | tail -n 1 >"$f.json"
	check_eq "$tag: stats --json shows port 1's link down" False "$(jn "$f.json" ports.1.link)"
	CT_MID=$(ct_count)
	if [ "$sc" = down ]; then
		check_eq "$tag: the DUT's dut1 is down" DOWN "$(link_of "$NS_DUT" dut1 | cut -d' ' -f1)"
		check_eq "$tag: the link down took the DUT's route through it" "" "$(route_out)"
		check_eq "$tag: ... and its neighbour entry for flowgen's port 1" none "$(neigh_fg1)"
		# the table's entries, as conntrack -L lists them: the kernel's
		# count (conntrack -C) also holds the entry of a frame still on
		# its way in, which the missing route then drops (-C read 1 with
		# -L empty right after, at 2,000 frames/s)
		left=$(in_dut conntrack -L 2>/dev/null)
		[ -z "$left" ] || echo "# $tag: the DUT's conntrack entries left: $(head -n 3 <<<"$left" | tr '\n' ' ')"
		check_eq "$tag: ... and the conntrack entries masqueraded out of it (conntrack -L; -C: $CT_MID)" \
			0 "$(grep -c . <<<"$left")"
	else
		check_eq "$tag: fg1 is down" DOWN "$(link_of "$NS_TST" fg1 | cut -d' ' -f1)"
		echo "# $tag: the DUT's dut1 during the flap: $(link_of "$NS_DUT" dut1), neighbour $(neigh_fg1), conntrack $CT_MID"
		# a carrier lost is no link down: masquerade forgets its
		# mappings on a link down only
		check "$tag: the DUT kept its conntrack entries ($CT0 before, $CT_MID during)" \
			test "$CT_MID" -ge "$CT0"
		l=$(link_of "$NS_DUT" dut1)
		if [[ $l == *"<NO-CARRIER,"* ]]; then
			pass "$tag: the DUT's dut1 lost its carrier ($l)"
		else
			fail "$tag: the DUT's dut1 lost its carrier" "$l"
		fi
	fi
}

# after SC TAG : the DUT's view once the link is back
after()
{
	local sc=$1 tag=$2 n f=$FG_TMP/$1-$KIND-after
	if fg_run "$sc-$KIND-after" "stats --json" 2; then
		grep '^{"global"' "$FG_TMP/$sc-$KIND-after.out" | tail -n 1 >"$f.json"
		check_eq "$tag: stats --json shows port 1's link up again" True "$(jn "$f.json" ports.1.link)"
	else
		fail "$tag: stats --json shows port 1's link up again" "no answer in 2 s"
	fi
	check_eq "$tag: the DUT's dut1 is up again" UP "$(link_of "$NS_DUT" dut1 | cut -d' ' -f1)"
	check_eq "$tag: the DUT's route to the servers is back" "198.19.0.0/24 via 198.19.1.2 dev dut1" "$(route_out)"
	n=$(neigh_fg1)
	echo "# $tag: the DUT's neighbour 198.19.1.2 after: $n"
	if [[ "$n" =~ ^$(tst_mac fg1)\ (REACHABLE|STALE|DELAY|PROBE)$ ]]; then
		pass "$tag: the DUT resolved flowgen's port 1 again (its MAC, $n)"
	else
		fail "$tag: the DUT resolved flowgen's port 1 again" "entry '$n', fg1 is $(tst_mac fg1)"
	fi
	check_ge "$tag: the DUT's conntrack refills" "$(ct_count)" 1
}

# one_run SC KIND : a run of KIND (flows or streams) in the session of the
# scenario SC, SC's fault AT s into it; judged from its record and stats
one_run()
{
	local sc=$1 tag="$1, $2" n i cmd bound t0 a b c d rec=$FG_TMP/$1-$2.jsonl
	local rst0 unr0 ct0 ct1 ct2 b2 extra=() ucap= upid=
	local dur=${DUR[$1-$2]} at=${FAT[$1-$2]}
	KIND=$2
	if [ "$KIND" = flows ]; then
		cmd="start -f $FP -m $RATE -d $dur"
		bound=$(awk -v t=$TFLOW 'BEGIN { print t + 0.3 }')
	else
		cmd="start -f $SP -d $dur -t learn=0,drain=$DRAIN"
		bound=$(awk -v t=$DRAIN 'BEGIN { print t + 0.3 }')
	fi
	if [ "$KIND" = flows ] && [ "$sc" != flush ]; then
		# the UDP flows on the DUT's inside link: what their client saw
		# (dumpcap started by scenario, before flowgen)
		ucap=$UCAP upid=$UPID
		wait_for "^Capturing on" "$ucap.err" 10 "$upid" ||
			fail "$tag: dumpcap captures the DUT's dut0" "$(cat "$ucap.err")"
	fi
	n=$(grep -c '^started ' "$FG_SOUT")
	fg_send "$sc-$KIND-go" "record start $rec -i 0.1; $cmd"
	for ((i = 0; i < 1500; i++)); do
		[ "$(grep -c '^started ' "$FG_SOUT")" -gt "$n" ] && break
		kill -0 "$FG_SPID" 2>/dev/null || break
		sleep 0.02
	done
	t0=$(now)
	if [ "$(grep -c '^started ' "$FG_SOUT")" -le "$n" ]; then
		fail "$tag: the run starts" "$(tail -n 3 "$FG_SOUT")"
		return 1
	fi
	rst0=$(snmp Tcp OutRsts)
	unr0=$(snmp Icmp OutDestUnreachs)
	sleep_until "$(awk -v t="$t0" -v s="$at" 'BEGIN { printf "%.3f", t + s - 0.1 }')"
	ct0=$(ct_count)
	CT0=$ct0 CT_MID=
	a=$(now)
	"fault_$sc"
	b=$(now)
	if [ "$sc" = flush ]; then
		ct1=$(ct_count)
		b2=$(now)
	else
		sleep 0.8
		during "$sc" "$tag"
		sleep_until "$(awk -v t="$a" -v s=$OUT 'BEGIN { printf "%.3f", t + s }')"
	fi
	c=$(now)
	"restore_$sc"
	d=$(now)
	if [ "$sc" != flush ]; then
		sleep 1
		after "$sc" "$tag"
	fi
	# the next scenario's lab comes up in the flows run's tail, past its
	# recovery window (d + 1 s): what is judged after it are counts
	if [ "$KIND" = flows ] && [ -n "$NEXT" ]; then
		sleep_until "$(awk -v t="$d" 'BEGIN { printf "%.3f", t + 1.1 }')"
		lab_bg nat "$NEXT"
	fi
	if fg_run "$sc-$KIND-end" "wait 30; stats --json; record stop" 40; then
		pass "$tag: the run ends, flowgen answers"
	else
		fail "$tag: the run ends, flowgen answers" "$(tail -n 3 "$FG_SOUT")"
		return 1
	fi
	check "$tag: flowgen still runs" kill -0 "$FG_SPID"
	# what the DUT counted, read before the next run sends
	ct2=$(ct_count)
	echo "# $tag: the DUT's conntrack: $ct0 before the fault, ${ct1:-$CT_MID} after it, $ct2 at the end; Tcp OutRsts +$(($(snmp Tcp OutRsts) - rst0)), Icmp OutDestUnreachs +$(($(snmp Icmp OutDestUnreachs) - unr0))"
	# the resets' capture ends with the flows run (post_flows reads it)
	[ "$sc" = flush ] && [ "$KIND" = flows ] && kill -INT "$CAP_PID"
	if [ "$sc" = flush ]; then
		# what is left: 5 % of it, or what the run opens from the
		# flush to the count if more (flows: 3 x RATE flows a second;
		# streams: an entry a frame, SPPS a second). ip netns exec and
		# conntrack took over 0.1 s on a loaded machine: 37 entries
		# after a flush of 602 flows, 256 after one of 4,520 streams
		local left per
		if [ "$KIND" = flows ]; then per=$((3 * RATE)); else per=$SPPS; fi
		left=$(awk -v a="$a" -v b="$b2" -v r=$per -v c="$ct0" \
			'BEGIN { n = (b - a) * r; if (n < c / 20) n = c / 20; printf "%d", n }')
		check "$tag: the flush emptied the DUT's conntrack ($ct0 before, $ct1 after: at most $left, 5 % or what the run opened since)" \
			test "$ct1" -le "$left"
		[ "$KIND" = streams ] &&
			check "$tag: the DUT's conntrack refilled (from $ct1 to $ct2)" test "$ct2" -gt $((ct1 * 10))
		extra+=(rsts=$(($(snmp Tcp OutRsts) - rst0)) "ct_end=$ct2"
			unr=$(($(snmp Icmp OutDestUnreachs) - unr0)))
	fi
	if [ "$sc" = down ]; then
		check_ge "$tag: the DUT answered 'unreachable' while it had no route" \
			$(($(snmp Icmp OutDestUnreachs) - unr0)) 1
		[ "$KIND" = flows ] &&
			check_ge "$tag: the DUT reset servers that spoke first after it (no mapping left)" \
				$(($(snmp Tcp OutRsts) - rst0)) 1
	fi
	if [ "$KIND" = flows ]; then
		# the captures' last words and the judging, in a lane beside
		# the streams run (which sends nothing either capture keeps:
		# its frames go to port 4322, and UDP is never reset)
		lane "post_$sc" post_flows
	else
		# judged in a lane, beside the next scenario's start (this run
		# has ended)
		lane "judge_$sc" judge_run
	fi
}

# post_flows : (in one_run's variables) the flows run's captures read,
# then judge_run
post_flows()
{
	local k
	if [ -n "$upid" ]; then
		# libpcap hands dumpcap its frames a block at a time, when the
		# block is full or has waited out dumpcap's read timeout; what a
		# block holds at SIGINT is not written (stopped 0.1 s after the
		# run, the capture here lacked the run's last 20-70 ms)
		sleep 0.6
		child_stop INT "$upid" || fail "$tag: dumpcap stops on SIGINT within 5 s" "killed"
		extra+=(udpcap="$ucap" timeout=$((TFLOW - 1)) capstat="$(grep 'received/dropped' "$ucap.err")")
	fi
	if [ "$sc" = flush ]; then
		# the resets' dumpcap, sent SIGINT by one_run, writes out and ends
		for ((k = 0; k < 50; k++)); do
			kill -0 "$CAP_PID" 2>/dev/null || break
			sleep 0.1
		done
		# one tshark pass: each segment's source, destination port and RST flag
		tshark -r "$FG_TMP/rst.pcapng" -T fields -e ip.src -e tcp.dstport -e tcp.flags.reset \
			>"$FG_TMP/rst.txt" 2>/dev/null
		WIRE_RSTS=$(awk -F'\t' '$1 == "198.19.1.1" && $2 == "8081" && ($3 == "1" || $3 == "True")' "$FG_TMP/rst.txt" | grep -c .)
		WIRE_RSTS_CLI=$(awk -F'\t' '$1 == "198.19.1.1" && $2 == "8080" && ($3 == "1" || $3 == "True")' "$FG_TMP/rst.txt" | grep -c .)
		echo "# $tag: resets on dut1 by destination port: $(cut -f1,2 "$FG_TMP/rst.txt" | sort | uniq -c | tr '\n' ' ')"
		extra+=("wire_rsts=${WIRE_RSTS:-0}" "wire_rsts_cli=${WIRE_RSTS_CLI:-0}")
	fi
	judge_run
}

# judge_run : (in one_run's variables) judge the run
judge_run()
{
	judge kind="$KIND" sc="$sc" tag="$tag" a="$a" b="$b" c="$c" d="$d" D="$dur" bound="$bound" \
		rate=$([ "$KIND" = flows ] && echo $RATE || echo $SPPS) tflow=$TFLOW "${EARLY_LATE[@]}" \
		rec="$rec" out="$FG_TMP/$sc-$KIND-end.out" "${extra[@]}"
}

# scenario SC [NEXT] : SC's own lab and flowgen, a flows run and a streams
# run; NEXT's lab comes up during SC's flows run
scenario()
{
	local sc=$1
	NEXT=${2:-}
	# what the loss of an outage may differ by from the commands' times
	# (the header says why)
	case "$sc" in
	down) EARLY_LATE=(early=0.05 late=0.05) ;;
	flap) EARLY_LATE=(early=0.15 late=0.25) ;;
	*) EARLY_LATE=() ;;
	esac
	lab_use "$sc" || return 1
	# the captures start here, beside flowgen's start and arp (neither
	# sends what they keep); each is waited for before the run
	if [ "$sc" = flush ]; then
		# the TCP resets on the DUT's outside wire, from dumpcap's
		# start to the flows run's end (wire_rsts)
		ip netns exec "$NS_DUT" dumpcap -q -i dut1 -f 'tcp[tcpflags] & tcp-rst != 0' -w "$FG_TMP/rst.pcapng" \
			2>"$FG_TMP/rst.err" &
		CAP_PID=$!
		at_exit "kill $CAP_PID"
	else
		# the UDP flows on the DUT's inside link, for the flows run
		UCAP=$FG_TMP/$sc-udp.pcapng
		ip netns exec "$NS_DUT" dumpcap -q -i dut0 -f 'udp port 4321' -w "$UCAP" 2>"$UCAP.err" &
		UPID=$!
		at_exit "kill $UPID"
	fi
	FG_TIMEOUT=120 fg_open "$FG_TMP/$sc.out"
	if ! fg_run "$sc-arp" arp 30; then
		fail "$sc: arp" "$(tail -n 3 "$FG_SOUT")"
		return 1
	fi
	if [ "$sc" = flush ]; then
		wait_for "^Capturing on" "$FG_TMP/rst.err" 10 "$CAP_PID" ||
			fail "flush: dumpcap captures on the DUT's dut1" "$(cat "$FG_TMP/rst.err")"
	fi
	quit_wait
	one_run "$sc" flows
	one_run "$sc" streams
	[ -e "$FG_TMP/lane.post_$sc" ] && lane_end "post_$sc"
	# the flowgen quits while the next scenario's starts and resolves
	# (quit_wait, before its first run)
	fd_send 8 quit
	exec 8>&-
	QUIT_PID=$FG_SPID QUIT_SC=$sc
}

# quit_wait : the last scenario's flowgen has quit (its status checked),
# then its lab goes down, beside what follows (at_exit again, should it not)
quit_wait()
{
	local rc=0
	[ -n "$QUIT_PID" ] || return 0
	wait "$QUIT_PID" || rc=$?
	check_eq "$QUIT_SC: flowgen quits, status 0" 0 "$rc"
	FG_NS_TST=fgt-$$-$QUIT_SC FG_NS_DUT=fgd-$$-$QUIT_SC "$FG_LAB" down >/dev/null 2>&1 &
	LAB_DOWN+=($!)
	QUIT_PID=
}

LAB_DOWN=() QUIT_PID=
lab_bg nat down
scenario down flush
scenario flush flap
scenario flap
quit_wait
for s in down flush flap; do
	[ -e "$FG_TMP/lane.judge_$s" ] && lane_end "judge_$s"
done
wait "${LAB_DOWN[@]}"
echo "# $(basename "$0"): the three scenarios took $SECONDS s"

finish
