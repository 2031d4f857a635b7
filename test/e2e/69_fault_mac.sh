#!/usr/bin/env bash
#
# 69_fault_mac.sh — the DUT restarts with a new MAC address on both links,
# mid-run, and flowgen follows it (flowgen(8), NEXT HOPS).
#
# A restart: both of the DUT's interfaces go down, take a new MAC (ip link
# set dev dutN address ...), stay down 0.3 s and come up; the routes the
# link-down took are put back (IPv6 addresses survive it:
# keep_addr_on_down); nftables rules and conntrack entries stay, as they
# do across a link flap. flowgen's config sets the next hops' timers short
# (neighbour: reachable_time 500ms, delay_first_probe_time 100ms,
# retrans_time 200ms; 3 unicast and 3 broadcast probes).
#
#  (a) with an announcement: net.ipv4.conf.dutN.arp_notify=1 (and
#      net.ipv6.conf.dutN.ndisc_notify=1): the kernel sends a gratuitous
#      ARP (and an unsolicited NA with the Override flag) from the new MAC
#      when the link comes up, which a capture on the tester's side must
#      hold; each port's next hop changes within 20 ms of its
#      announcement, and the traffic is back at 90 % of its rate within
#      1 s of the DUT being back. The next hop is STALE after it (RFC 4861
#      §7.2.6) until the traffic confirms it; with the delay as short as
#      the counters' window (100 ms) it may get one unicast probe first,
#      answered: no broadcast one, nothing re-resolved.
#  (b) without one (arp_notify=0, ndisc_notify=0; the capture must hold
#      no announcement): Neighbour Unreachability Detection. Nothing
#      confirms the next hop after the fault, so it is STALE a reachable
#      time after it, probed after the delay, 3 unicast probes to the old
#      MAC go unanswered (a capture on the DUT holds them, as frames to
#      another host), and the first broadcast one is answered by the new
#      MAC. The change comes at most
#      R + D + 3 x RT + 0.2 s = 1.4 s after the fault (R reachable, D delay,
#      RT retrans; 0.2 s for the 10 ms ticks, the answer and a busy CPU),
#      and the rate is back within that + 1 s of the DUT being back. In a flows run
#      the server port sends (its answers) only once the client port's
#      requests get through again, so its own probing may begin only then:
#      its bound adds D + 3 x RT, and so does the rate's.
#
# Each with a flows run (UDP and TCP request/response flows and 3 s TCP
# connections, test/data/fault_flows.yaml) and a streams run (a stream each
# way, test/data/fault_streams.yaml) in the NAT lab, and (a) and (b) with
# an IPv6 streams run in the ipv6 lab (test/data/fault_streams6.yaml).
# The fault comes PRE after the run's first measured frame, and the run
# goes on POST after the DUT is back (-d is PRE + 0.5 s for the restart +
# POST). PRE: 3 s in a flows run, a tcp_long connection's life, so that
# their number and the rate before the fault are the steady ones; 1 s in
# a streams run, whose rate is steady at once (its learning pause is cut
# to 0.3 s, -t learn_wait=0.3, and its drain to 0.1 s, the lab's frames
# taking well under a millisecond through the DUT: the record's
# median rate before the fault counts the pause's few intervals at 0
# against 10 at the rate). POST: 3.5 s after NUD in a flows run (the
# rate's bound is 3.1 s, below), 3 s in a streams run (its bound is
# 2.4 s); 1.5 s after an announcement (its bound is 1 s) and in the static
# run (no bound): a whole NUD cycle, R + D + 3 x RT + 0.2 s = 1.4 s from
# the fault, ends within it, so that a probe or a re-resolution the
# announcement (or the static next hop) should have spared would be seen.
# Each run's analysis (tshark on its captures, the checks) goes on while
# the next run's captures start, and ends before that run starts, so that
# its fault comes PRE after its first measured frame: the restart and what
# follows it (the 20 ms of an announcement, the rate's recovery) have the
# CPU that flowgen's worker leaves to themselves.
# Asserted each time: flowgen exits 0 and its run ends on time (the
# record's running state ends -d after the first measured frame, within
# 0.3 s); each port's next hop is the DUT's new MAC with exactly one MAC
# change, counted as announced (a) or re-resolved (b), with the probes
# (b: 3 unicast, at least 1 broadcast; a: no broadcast, at most one
# unicast); the counters explain the
# outage (streams: each direction's frames due in the DUT's down time
# were lost, refused by the TX queue or late, 80 % of them at least, and
# no frame was lost after its port's change, 50 ms of slack; flows:
# started = completed + failed, at least one failed, at most the flows
# started between the fault and the later change plus 0.2 s, every
# failure a timeout or retransmission, none reset); the DUT's neighbour
# table holds both of flowgen's ports at their MACs; the DUT's conntrack:
# in a streams run its untranslated entries (port 1 to port 0) are the
# same entries (ids) after the restart; in a flows run, whose traffic the
# DUT masquerades, the TCP connections open before it are tracked after
# it (masquerade drops its entries when their interface goes down,
# nf_nat_masquerade's device notifier, so they come back as new entries;
# how many kept their id is printed); the rate is back as above (record
# at 0.1 s, test/e2e/recovery.py).
# A last run has a static dest_mac on both ports and an announcement: the
# next hops stay on the old MAC, state static, no change and no probe.

. "$(dirname "$0")/lib.sh"

need_root "fault mac: lab"
need_flowgen

R=500 D=100 RT=200 U=3 M=3
DOWN=0.3
RECOVERY=$FG_TOP/test/e2e/recovery.py

# cfg FILE BASE [EXTRA] : BASE with the short timers (and EXTRA port_info lines)
cfg()
{
	sed "s/^  mbufs: 16384/  mbufs: 16384\n  neighbour: {reachable_time: ${R}ms, delay_first_probe_time: ${D}ms, retrans_time: ${RT}ms, ucast_solicit: $U, mcast_solicit: $M}/" \
		"$2" >"$1"
	grep -q "reachable_time: ${R}ms" "$1" || fail "config $1 has the neighbour timers" "sed did not match"
}

# cap_start NAME : dumpcap of ARP and ICMPv6 on fg0 and fg1 (the tester's
# side: what reaches flowgen) and on every interface of the DUT (`any`:
# flowgen's own frames, which its af_packet ports send past the kernel's
# taps on fg0 and fg1; a cooked capture, which survives the links going
# down and keeps each frame's packet type: 3, to another host, is a
# unicast frame to a MAC the DUT no longer has). cap_ready NAME waits until
# they capture: before the fault, the frames checked all come after it.
cap_start()
{
	local i
	CAP_PIDS=()
	for i in 0 1 d; do
		rm -f "$FG_TMP/$1.fg$i.pcap" "$FG_TMP/$1.fg$i.err"
		# ip netns exec, not in_tst: $! is then dumpcap's own pid (ip
		# execs it), which cap_stop and the exit hook end
		if [ "$i" = d ]; then
			ip netns exec "$NS_DUT" dumpcap -q -i any -f "arp or icmp6" -w "$FG_TMP/$1.fg$i.pcap" \
				2>"$FG_TMP/$1.fg$i.err" &
		else
			ip netns exec "$NS_TST" dumpcap -q -i "fg$i" -f "arp or icmp6" -w "$FG_TMP/$1.fg$i.pcap" \
				2>"$FG_TMP/$1.fg$i.err" &
		fi
		CAP_PIDS+=($!)
		at_exit "kill $!"
	done
}
cap_ready()
{
	local i
	for i in 0 1 d; do
		wait_capturing "$FG_TMP/$1.fg$i.err" || fail "$1: dumpcap ($i)" "$(cat "$FG_TMP/$1.fg$i.err")"
	done
}

# wait_capturing ERR : until dumpcap says "Capturing on" in ERR (10 s at
# most; polled every 20 ms, the captures start in about 0.1 s)
wait_capturing()
{
	local i
	for ((i = 0; i < 500; i++)); do
		grep -q "Capturing on" "$1" 2>/dev/null && return 0
		sleep 0.02
	done
	return 1
}

# cap_stop : the captures end (SIGTERM: dumpcap writes its file out); one
# still there after 5 s is killed, so that none outlives the scenario.
# Called once flowgen has exited (by the run's analysis, in its lane:
# pid_gone, not wait, sees them end): the frames checked (announcements,
# probes, within 2.1 s of the fault) are seconds old by then.
cap_stop()
{
	local p i
	kill "${CAP_PIDS[@]}" 2>/dev/null
	for p in "${CAP_PIDS[@]}"; do
		for ((i = 0; i < 50; i++)); do
			pid_gone "$p" && break
			sleep 0.1
		done
		pid_gone "$p" || kill -9 "$p" 2>/dev/null
	done
	wait "${CAP_PIDS[@]}" 2>/dev/null
	return 0
}

# restart NOTIFY FAM MAC0 MAC1 : the DUT's restart; sets T_FAULT, T_BACK
restart()
{
	local n=$1 d
	for d in dut0 dut1; do
		in_dut sysctl -qw "net.ipv4.conf.$d.arp_notify=$n"
		if [ "$2" = 6 ]; then
			in_dut sysctl -qw "net.ipv6.conf.$d.ndisc_notify=$n" "net.ipv6.conf.$d.keep_addr_on_down=1"
		fi
	done
	T_FAULT=$(date +%s.%N)
	in_dut ip link set dut0 down
	in_dut ip link set dut1 down
	in_dut ip link set dut0 address "$3"
	in_dut ip link set dut1 address "$4"
	sleep "$DOWN"
	in_dut ip link set dut0 up
	in_dut ip link set dut1 up
	in_dut ip route replace 198.18.0.0/24 via 198.18.1.2 dev dut0
	in_dut ip route replace 198.19.0.0/24 via 198.19.1.2 dev dut1
	if [ "$2" = 6 ]; then
		in_dut ip -6 route replace 2001:2::/64 via 2001:2:0:1::2 dev dut0
		in_dut ip -6 route replace 2001:2:0:100::/64 via 2001:2:0:101::2 dev dut1
	fi
	T_BACK=$(date +%s.%N)
}

# wait_measured REC : until the record shows the run's first measured frame
wait_measured()
{
	local i
	for ((i = 0; i < 100; i++)); do
		grep -q '"first_frame": *"' "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# scenario NAME KIND NOTIFY FAM [static] : one run, one restart, its checks
scenario()
{
	local name=$1 kind=$2 notify=$3 fam=$4 static=${5:-}
	local prof=$FG_TOP/test/data/fault_$kind.yaml out=$FG_TMP/$name.out rec=$FG_TMP/$name.jsonl
	local old0 old1 new0 new1 fgpid ctpid rc tag pre post dur tune= t_meas fgm0 fgm1
	if [ "$kind" = flows ]; then pre=3; else pre=1 tune=" -t learn_wait=0.3,drain=0.1"; fi
	if [ "$notify" = 1 ]; then post=1.5; elif [ "$kind" = flows ]; then post=3.5; else post=3; fi
	dur=$(awk -v a="$pre" -v b="$post" 'BEGIN { print a + 0.5 + b }')
	old0=$(dut_mac dut0)
	old1=$(dut_mac dut1)
	tag=$(printf '%02x' $((RANDOM % 256)))
	new0=02:fa:${tag}:00:00:10
	new1=02:fa:${tag}:00:00:11
	CFGX=$FG_TMP/$name.yaml
	if [ "$fam" = 6 ]; then cfg "$CFGX" "$FG_TOP/examples/lab6.yaml"; else cfg "$CFGX" "$FG_TOP/examples/lab.yaml"; fi
	if [ -n "$static" ]; then
		sed -i "s/^      default_gw: 198.18.1.1/&\n      dest_mac: $old0/; s/^      default_gw: 198.19.1.1/&\n      dest_mac: $old1/" "$CFGX"
	fi
	cap_start "$name"
	# the previous run's analysis ends before this run starts: its fault
	# then comes PRE after the first measured frame whatever the analysis
	# took (waited for before the fault, an analysis that ran long put a
	# fault late, and a run's POST short of its bound)
	analysed
	rm -f "$rec"
	FG_TIMEOUT=60 CFG=$CFGX fg --record "$rec" --record-interval 0.1 \
		-x "arp; start -f $prof -d $dur$tune; wait 40; stats --json" >"$out" 2>&1 &
	fgpid=$!
	wait_measured "$rec" || fail "$name: the run's measured traffic began" "$(tail -n 3 "$out")"
	t_meas=$(date +%s.%N)
	cap_ready "$name"
	sleep "$(awk -v t="$t_meas" -v p="$pre" -v n="$(date +%s.%N)" \
		'BEGIN { d = t + p - n; printf "%.3f", (d > 0 ? d : 0) }')"
	in_dut conntrack -L -o id >"$FG_TMP/$name.ct0" 2>/dev/null
	restart "$notify" "$fam" "$new0" "$new1"
	# the DUT's conntrack once the traffic is through it again: 2 s after
	# the restart in a flows run (NUD's change, up to 1.4 s after the
	# fault, then a tcp_long line, every 500 ms); 1.5 s in a streams run
	(
		if [ "$kind" = flows ]; then sleep 2; else sleep 1.5; fi
		in_dut conntrack -L -o id >"$FG_TMP/$name.ct1" 2>/dev/null
	) &
	ctpid=$!
	rc=0
	wait "$fgpid" || rc=$?
	wait "$ctpid"
	in_dut ip neigh show dev dut0 >"$FG_TMP/$name.neigh0"
	in_dut ip neigh show dev dut1 >"$FG_TMP/$name.neigh1"
	check_eq "$name: flowgen exits 0" 0 "$rc"
	fgm0=$(tst_mac fg0)
	fgm1=$(tst_mac fg1)
	lane "$name" analyse "$name"
	AN_LANE=$name
}

# analysed : the lane of the last run's analysis has ended, its checks
# counted
AN_LANE=
analysed()
{
	[ -n "$AN_LANE" ] && lane_end "$AN_LANE"
	AN_LANE=
}

# analyse NAME : a run's analysis (a lane, run while the next run starts):
# the captures read, flowgen's figures and the DUT's checked; it sees the
# other locals of the scenario call that starts it
analyse()
{
	local name=$1 i k n r pids=()
	cap_stop
	for i in 0 1 d; do
		tshark -r "$FG_TMP/$name.fg$i.pcap" -T fields -E separator='|' -e frame.time_epoch -e eth.src \
			-e eth.dst -e arp.opcode -e arp.src.proto_ipv4 -e arp.dst.proto_ipv4 -e icmpv6.type \
			-e icmpv6.nd.na.target_address -e icmpv6.nd.ns.target_address -e icmpv6.nd.na.flag.o \
			-e icmpv6.nd.na.flag.s -e sll.src.eth -e sll.pkttype >"$FG_TMP/$name.wire$i" 2>/dev/null &
		pids+=($!)
	done
	wait "${pids[@]}"
	for i in 0 1; do
		echo "# $name: port $i: $(grep -o "port $i: next hop [^(]*([^)]*)" "$out" | tr '\n' ' ')"
	done
	while IFS=$'\t' read -r k n r; do
		case "$k" in
		PASS) pass "$n" ;;
		FAIL) fail "$n" "$r" ;;
		INFO) echo "# $n" ;;
		esac
	done < <(python3 - "$name" "$kind" "$notify" "$fam" "${static:-dynamic}" "$out" "$rec" "$FG_TMP" \
		"$T_FAULT" "$T_BACK" "$old0" "$old1" "$new0" "$new1" "$fgm0" "$fgm1" \
		"$R" "$D" "$RT" "$U" "$dur" "$RECOVERY" "$DOWN" 2>&1 <<-'PY'
		import json, subprocess, sys
		from datetime import datetime
		(name, kind, notify, fam, static, out, rec, tmp, t_fault, t_back, old0, old1, new0, new1,
		 fg0, fg1, R, D, RT, U, DUR, recovery, DOWN) = sys.argv[1:]
		t_fault, t_back, DOWN = float(t_fault), float(t_back), float(DOWN)
		R, D, RT, U, DUR = (float(R) / 1e3, float(D) / 1e3, float(RT) / 1e3, int(U), float(DUR))
		notify, v6, static = notify == "1", fam == "6", static == "static"
		old, new, fgm = [old0, old1], [new0, new1], [fg0, fg1]
		def res(ok, n, why=""):
		    print("%s\t%s: %s\t%s" % ("PASS" if ok else "FAIL", name, n, why))
		def info(s):
		    print("INFO\t%s: %s" % (name, s))
		def ts(s):
		    return datetime.fromisoformat(s.replace("Z", "+00:00")[:26] + "+00:00").timestamp() if s else None
		t = open(out).read()
		try:
		    o = json.JSONDecoder().raw_decode(t, t.rindex('{"global"'))[0]
		except ValueError:
		    res(False, "stats --json printed", t[-300:])
		    sys.exit(0)
		key = "next_hop6" if v6 else "next_hop"
		nh = [p[key] for p in o["ports"][:2]]
		gw = [h["ip"] for h in nh]
		lines = [json.loads(l) for l in open(rec) if l.strip().startswith("{")]
		# the run ends on time: running ends DUR after the first measured frame
		ff = ts(o["global"].get("first_frame"))
		run_t = [l["t"] for l in lines if l["state"] == "running"]
		after = [l["t"] for l in lines if run_t and l["t"] > run_t[-1]]
		if ff and after:
		    end = after[0]
		    info("first frame %.3f, running ended at %.3f (+%.3f s)" % (ff, end, end - ff))
		    res(DUR - 0.15 <= end - ff <= DUR + 0.3, "the run ends on time (-d %g)" % DUR,
		        "ended %.3f s after the first measured frame" % (end - ff))
		else:
		    res(False, "the run ends on time (-d %g)" % DUR, "no first frame or no end in the record")
		# the wire: announcements from the new MACs, probes to the old ones
		wire = []
		for i in ("0", "1", "d"):
		    rows = [(r.split("|") + [""] * 13)[:13] for r in open("%s/%s.wire%s" % (tmp, name, i)).read().splitlines()]
		    wire.append(rows)
		def announced_at(i):
		    for r in wire[i]:
		        tm, src, dst, op, spa, tpa, ty, nat, nst, o_fl, s_fl = r[:11]
		        if src.lower() != new[i] or float(tm) < t_fault:
		            continue
		        if not v6 and spa == gw[i] and tpa == gw[i]:
		            return float(tm)
		        if v6 and ty == "136" and nat == gw[i] and o_fl in ("1", "True") and s_fl in ("0", "False"):
		            return float(tm)
		    return None
		def probes(i, kinds):
		    # port i's solicitations for its gateway that reached the DUT
		    # after the fault, of packet types kinds (the DUT's cooked capture)
		    n = 0
		    for r in wire[2]:
		        tm, op, tpa, ty, nst, ssrc, pt = r[0], r[3], r[5], r[6], r[8], r[11], r[12]
		        if ssrc.lower() != fgm[i] or pt not in kinds or float(tm) < t_fault:
		            continue
		        n += (not v6 and op == "1" and tpa == gw[i]) or (v6 and ty == "135" and nst == gw[i])
		    return n
		chg = []
		for i in range(2):
		    h = nh[i]
		    ch = ts(h.get("changed"))
		    chg.append(ch)
		    an = announced_at(i)
		    info("port %d: %s %s state %s, changes %s (announced %s, re-resolved %s), probes %s+%s, "
		         "announcement on the wire %s, changed %s: +%s s after the fault, +%s s after the DUT was back"
		         % (i, h["ip"], h["mac"], h["state"], h["mac_changes"], h["announced"], h["reresolved"],
		            h["probes_ucast"], h["probes_mcast"], "%.6f" % an if an else None,
		            "%.6f" % ch if ch else None, "%.3f" % (ch - t_fault) if ch else None,
		            "%.3f" % (ch - t_back) if ch else None))
		    if notify:
		        res(an is not None, "port %d: the DUT announced its new MAC (capture)" % i, "no announcement from %s" % new[i])
		    else:
		        res(an is None, "port %d: no announcement on the wire (notify off)" % i, "one at %s" % an)
		    if static:
		        res(h["mac"] == old[i] and h["state"] == "static" and h["mac_changes"] == 0
		            and h["probes_ucast"] + h["probes_mcast"] == 0,
		            "port %d: the static next hop stays %s, no change, no probe" % (i, old[i]), json.dumps(h))
		        continue
		    res(h["mac"] == new[i], "port %d: the next hop is the DUT's new MAC %s" % (i, new[i]), "it is %s" % h["mac"])
		    res(h["mac_changes"] == 1, "port %d: one MAC change" % i, "mac_changes %s" % h["mac_changes"])
		    if notify:
		        # STALE after the announcement (RFC 4861 §7.2.6): the traffic's
		        # confirmation, judged over 100 ms, may come after the 100 ms
		        # delay, and the new MAC then gets one unicast probe, answered
		        res(h["announced"] == 1 and h["reresolved"] == 0 and h["probes_mcast"] == 0
		            and h["probes_ucast"] <= 1 and h["failures"] == 0,
		            "port %d: counted announced, no broadcast probe, at most one unicast" % i, json.dumps(h))
		        ok = an is not None and ch is not None and 0 <= ch - an <= 0.020
		        res(ok, "port %d: the next hop changed within 20 ms of the announcement" % i,
		            "announced %s, changed %s" % (an, ch))
		    else:
		        p_old, p_all = probes(i, ("3",)), probes(i, ("1", "2"))
		        info("port %d: the DUT received %d unicast probes to its old MAC, %d broadcast or multicast" % (i, p_old, p_all))
		        res(h["reresolved"] == 1 and h["announced"] == 0 and h["probes_ucast"] == U and h["probes_mcast"] >= 1,
		            "port %d: counted re-resolved after %d unicast probes and a broadcast one" % (i, U), json.dumps(h))
		        res(p_old == U and p_all >= 1,
		            "port %d: %d unicast probes to the old MAC, then a broadcast one, at the DUT" % (i, U),
		            "%d unicast, %d broadcast" % (p_old, p_all))
		        bound = R + D + U * RT + 0.2
		        if kind == "flows" and i == 1 and chg[0]:
		            bound = max(bound, chg[0] - t_fault + D + U * RT + 0.2)
		        ok = ch is not None and t_back <= ch + 0.05 and ch - t_fault <= bound
		        res(ok, "port %d: re-resolved within %.2f s of the fault" % (i, bound),
		            "changed %s s after it" % ("%.3f" % (ch - t_fault) if ch else None))
		if static:
		    sys.exit(0)
		# the counters explain the outage
		if kind != "flows":
		    for r in o["latency"]:
		        i = 1 - r["port"]  # the sending port
		        lost, rate = r["tx"] - r["rx"], 2000.0
		        # frames due while the link was down were lost, or refused by
		        # the TX queue (tx_dropped: sent again later), or late
		        lo = rate * DOWN * 0.8
		        hi = rate * ((chg[i] or t_back) - t_fault + 0.05) + 20
		        info("stream %s received on port %d: tx %d rx %d lost %d tx_dropped %d late %d (bounds %d..%d)"
		             % (r["stream"], r["port"], r["tx"], r["rx"], lost, r["tx_dropped"], r["late"], lo, hi))
		        res(lost + r["tx_dropped"] + r["late"] >= lo and lost >= 1,
		            "port %d: the down time's frames lost, refused or late (%d)" % (i, lo),
		            "lost %d, tx_dropped %d, late %d" % (lost, r["tx_dropped"], r["late"]))
		        res(lost <= hi, "port %d: no frame lost after its change (at most %d)" % (i, hi), "lost %d" % lost)
		else:
		    c = o["flows"]["client"]
		    cps = 505.0
		    hi = cps * (max(x or t_back for x in chg) - t_fault + 0.2) + 10
		    fr = c["fail_reasons"]
		    info("flows: started %d completed %d failed %d (no reply %d, timeout %d, retransmissions %d, reset %d)"
		         % (c["started"], c["completed"], c["failed"], fr["no_reply"], fr["timeout"],
		            fr["retransmits_exhausted"], fr["reset"]))
		    res(c["started"] == c["completed"] + c["failed"] + c["aborted"] and c["active"] == 0,
		        "every flow completed or failed", json.dumps(c))
		    res(1 <= c["failed"] <= hi, "the outage's flows failed (1..%d)" % hi, "failed %d" % c["failed"])
		    # while a link is down the DUT has no route through it and
		    # answers ICMP unreachable (flowgen(8), ICMP ERRORS)
		    res(fr["no_reply"] + fr["timeout"] + fr["retransmits_exhausted"] + fr["icmp_unreachable"]
		        == c["failed"] and sum(fr.values()) == c["failed"],
		        "every failure a timeout or an ICMP unreachable, none reset", json.dumps(c))
		    # masquerade drops its entries when their interface goes down
		    # (nf_nat_masquerade's device notifier): the connections open
		    # before the restart are tracked again, under new entries
		    def tcp8081(f, est):
		        out = {}
		        for l in open("%s/%s.%s" % (tmp, name, f)):
		            w = l.split()
		            if l.startswith("tcp") and "dport=8081" in l and (not est or "ESTABLISHED" in w):
		                out[tuple(x for x in w if x.split("=")[0] in ("src", "sport"))[:2]] = w[-1]
		        return out
		    b, a = tcp8081("ct0", True), tcp8081("ct1", False)
		    again = [k for k in b if k in a]
		    same = [k for k in again if a[k] == b[k]]
		    info("DUT conntrack: %d TCP connections of tcp_long established before the restart; after it %d of them "
		         "tracked, %d under the same entry (id)" % (len(b), len(again), len(same)))
		    res(len(b) > 0 and len(again) > 0,
		        "the DUT tracks the TCP connections open before the restart after it", "%d before, %d after" % (len(b), len(again)))
		if kind == "streams":
		    def udp19(f):
		        return {l.split()[-1] for l in open("%s/%s.%s" % (tmp, name, f))
		                if l.startswith("udp") and l.split()[3].startswith("src=198.19.0.")}
		    b, a = udp19("ct0"), udp19("ct1")
		    info("DUT conntrack: %d untranslated UDP entries (port 1 to port 0) before the restart, %d of them (same id) after"
		         % (len(b), len(b & a)))
		    res(len(b & a) > 0, "the DUT's untranslated conntrack entries survive the restart (same id)",
		        "%d before, %d kept" % (len(b), len(b & a)))
		# the DUT's neighbour table holds flowgen's ports
		for i in range(2):
		    nb = open("%s/%s.neigh%d" % (tmp, name, i)).read()
		    ip = ("2001:2:0:1::2", "2001:2:0:101::2")[i] if v6 else ("198.18.1.2", "198.19.1.2")[i]
		    ok = any(l.split()[0] == ip and ("lladdr " + fgm[i]) in l and
		             any(s in l for s in ("REACHABLE", "STALE", "DELAY", "PROBE")) for l in nb.splitlines() if l.strip())
		    res(ok, "the DUT's neighbour table holds port %d (%s at %s)" % (i, ip, fgm[i]), nb.replace("\n", "; "))
		# back at its rate
		bound = 1.0 if notify else R + D + U * RT + 0.2 + 1.0
		if kind == "flows" and not notify:
		    bound += D + U * RT
		rv = json.loads(subprocess.run([sys.executable, recovery, rec, "global.rx_pkts", str(t_fault), str(t_back)],
		                               capture_output=True, text=True).stdout or "{}")
		info("recovery: %s" % json.dumps(rv))
		res(rv.get("back_s") is not None and rv["back_s"] <= bound and rv.get("longest_s", 9) < 0.5,
		    "traffic back at its rate within %.1f s of the DUT being back" % bound, json.dumps(rv))
	PY
	)
}

# --- the NAT lab: flows and streams, with and without an announcement ---------------

lab_bg ipv6 v6
lab_up nat || exit 1
scenario flows_announced flows 1 4
scenario flows_nud flows 0 4
scenario streams_announced streams 1 4
scenario streams_nud streams 0 4
scenario streams_static streams 1 4 static
lab_down

# --- the ipv6 lab: an unsolicited NA, and NUD by Neighbour Solicitations -------------

lab_use v6 || exit 1
scenario streams6_announced streams6 1 6
scenario streams6_nud streams6 0 6
analysed
lab_down

finish
