#!/usr/bin/env bash
#
# 70_streams.sh — the stateless streams engine (`mode: streams`).
#
# Part 1, [loop, loop]: every shipped streams profile starts and passes
# traffic; per-stream counters add up (tx = rx, nothing lost); -m scales the
# rate; a rate above line rate is refused naming the maximum.
# Part 2, router lab: latency through the DUT; delay / loss / reorder /
# duplicate on the DUT-to-tester side of the outside link, by tc netem on
# dut1 when the kernel has sch_netem, else by examples/impair.py in the lab's
# wire namespace (check names say which): through impair.py, reordering is
# by swaps and duplication limited to the stream's datagrams, and flowgen's
# ooo and dup equal the relay's own counts exactly (with netem, whose
# reorder is by delay, only that they are counted); and a 1 % random drop
# by nftables on the DUT (loss 0.5-1.5 %, and tx - rx = lost exactly).
# Part 3, nat lab (part 2's router lab with the nat flavour's masquerade
# added, before the impair.py lab): the DUT rewrites addresses, counting
# by signature still gives the stream's loss and latency.
# Part 1 runs in a lane, most of it beside part 2 (its flowgen on CPU 0,
# part 2's on CPU 1: see part 1), and the impair.py lab comes up beside
# part 2's last runs; the runs through impair.py go alone: the relay is a
# process of its own that a busy CPU would slow (27 to 29 s in all, from
# 32 to 33 s one part after the other).

. "$(dirname "$0")/lib.sh"

LOOP=$(fg_loop_cfg)
P=$FG_TOP/profiles


# in_range VALUE LO HI (floats)
in_range()
{
	# awk, not a python3 per call; a value that is not a number is out
	[[ $1 =~ ^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$ ]] &&
		awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(lo + 0 <= v + 0 && v + 0 <= hi + 0) }'
}

check_range()
{
	if in_range "$2" "$3" "$4"; then pass "$1"; else fail "$1" "expected $3..$4, got '$2'"; fi
}

# loss_checks NAME OUT : a run of 1 % loss (its stats --json in OUT): lost
# 0.5-1.5 % of what was sent, and tx - rx = lost
loss_checks()
{
	local tx rx lost
	latency_pre "$2"
	tx=$(latency_row "$2" lat 1 tx); rx=$(latency_row "$2" lat 1 rx); lost=$(latency_row "$2" lat 1 lost)
	echo "# $1: tx $tx rx $rx lost $lost"
	check_range "$1: loss 0.5-1.5 %" "$(python3 -c "print(100.0*${lost:-0}/${tx:-1})")" 0.5 1.5
	check_eq "$1: tx - rx = lost" "$lost" "$((${tx:-0} - ${rx:-0}))"
}

# --- part 1: loop ------------------------------------------------------------

# Part 1's runs are made by one flowgen (-k: the refused starts do not end
# it; `start` clears the counters, and each run's checks read its own
# output, from the end of the run before, while the next run goes, but
# for the counted run's, which is timed alone); its worker and main lcore
# are on CPU 0, in a lane. Its first two runs, the paced one and the
# counted one, go alone: a worker sharing its CPU could miss the pacer's
# bound (20 ms), and those two count what it did (late; 438 of 5,000
# frames late in one of five runs beside part 2). Then part 2 starts
# beside the rest of part 1, whose checks are counts a shared CPU does not
# move: part 2's flowgen has its worker on CPU 1, where the kernel
# forwards what it sends (the lab's veths pass a frame on in the sender's
# context).

# loop_open : the session's flowgen on [loop, loop] (FG_SOUT, FG_SPID and
# fd 8 of lib.sh's fg_send, fg_wait and fg_close, in the lane's shell)
loop_open()
{
	FG_SOUT=$FG_TMP/loop.session
	rm -f "$FG_TMP/loop.in"
	mkfifo "$FG_TMP/loop.in"
	sed 's/threads: \[1\]/threads: [0]/' "$LOOP" >"$FG_TMP/loop_cpu0.yaml"
	FG_TIMEOUT=120 fg_plain -C "$FG_TMP/loop_cpu0.yaml" -k -b <"$FG_TMP/loop.in" >"$FG_SOUT" 2>&1 &
	# shellcheck disable=SC2034 # read by lib.sh's fg_wait and fg_close
	FG_SPID=$!
	exec 8>"$FG_TMP/loop.in"
}

# loop_send NAME CMDS : fg_send NAME CMDS to the session's flowgen
loop_send()
{
	fg_send "$1" "$2"
}

# loop_wait NAME [PREV] : fg_wait NAME; $FG_TMP/NAME.out then holds this
# run's output only, what came after the run PREV's mark
loop_wait()
{
	fg_wait "$1" 60
	awk -v a="MARK-$2" -v b="MARK-$1" -v p="${2:+0}" \
		'p != "0" && $0 == b { exit } p != "0" { print } $0 == a { p = 1 }' \
		"$FG_SOUT" >"$FG_TMP/$1.out"
}

# loop_profile NAME : a shipped profile's short run
loop_profile()
{
	# -d 0.25: 500 frames of s64 and imix, 406 of each hosts stream
	loop_send "$1" "start -f $P/$1.yaml -d 0.25 -m 0.2 -t learn_wait=0.2,drain=0.3; wait 30; stats --json"
}

# profile_checks NAME STREAM PORT : the checks of loop_profile NAME's run,
# read while the next run goes
profile_checks()
{
	local out=$FG_TMP/$1.out tx rx
	latency_pre "$out"
	tx=$(latency_row "$out" "$2" "$3" tx)
	rx=$(latency_row "$out" "$2" "$3" rx)
	check_ge "$1 on loop: frames sent" "${tx:-0}" 100
	check_eq "$1 on loop: every frame received" "${tx:-no tx}" "${rx:-no rx}"
	check_eq "$1 on loop: nothing lost" 0 "$(latency_row "$out" "$2" "$3" lost)"
}

streams_loop()
{
	loop_open
	# exact frame count at a paced rate: 10 kpps x 0.5 for 1 s; what fell due
	# while the worker was descheduled is sent when it runs again, up to the
	# pacer's bound (20 ms of traffic, 100 frames here); what fell due beyond
	# it is counted as late, never sent back to back
	loop_send rate "start -f $P/stl_64b.yaml -d 1 -m 0.5 -t learn=0,drain=0.3; wait 20; stats --json"
	loop_wait rate
	out=$FG_TMP/rate.out
	latency_pre "$out"
	tx=$(latency_row "$out" s64 1 tx); late=$(latency_row "$out" s64 1 late)
	echo "# -m 0.5 for 1 s: tx $tx, late $late"
	check_range "-m 0.5 for 1 s: sent + late = 5,000 frames (+-1 %)" "$((${tx:-0} + ${late:-0}))" 4950 5050
	check_range "-m 0.5 for 1 s: most frames sent in time" "${tx:-0}" 2500 5050

	# counts and ranges of sizes: each stream sends exactly its count, then
	# stops; a run whose every stream has one ends by itself (no -d, and the
	# `wait` returns); the sizes walk their range (inc by 7 on port 0: the
	# port's bytes are the sequence's sum exactly), or are drawn from it (rand)
	cat >"$FG_TMP/count.yaml" <<-'EOF'
	mode: streams
	streams:
	  - {name: inc, port: 0, frame: {range: [64, 1518], step: 7}, rate: 20kpps, count: 3001,
	     src: 198.18.0.1, dst: 198.19.0.1, latency: true}
	  - {name: rnd, port: 1, frame: {range: [100, 1400], mode: rand}, rate: 10kpps, count: 777,
	     src: 198.19.0.1, dst: 198.18.0.1}
	EOF
	out=$FG_TMP/count.out
	t0=$(date +%s%N)
	loop_send count "start -f $FG_TMP/count.yaml -t learn=0,drain=0.3; wait 20; stats --json"
	loop_wait count rate
	t1=$(date +%s%N)
	# part 2 may start: the timed runs are done
	: >"$FG_TMP/loop.timed"
	cat >"$FG_TMP/nolat.yaml" <<-'EOF'
	mode: streams
	streams:
	  - {name: stamped, port: 0, frame: 64, rate: 5kpps, count: 500,
	     src: 198.18.0.1, dst: 198.19.0.1, latency: true}
	  - {name: unstamped_stream_long_name, port: 1, frame: 64, rate: 5kpps, count: 500,
	     src: 198.19.0.1, dst: 198.18.0.1, latency: false}
	EOF
	loop_send nolat "start -f $FG_TMP/nolat.yaml -t learn=0,drain=0.3; wait 20; stats --json; stats -l"
	latency_pre "$out"
	check_grep "counted streams: the start says the run ends by itself" 'ends when every stream has sent its count' "$out"
	check_range "counted streams: the run ended by itself after about 3001 / 20 kpps (ms)" \
		"$(( (t1 - t0) / 1000000 ))" 150 8000
	check_eq "counted streams: inc sent exactly its count" 3001 "$(latency_row "$out" inc 1 tx)"
	check_eq "counted streams: inc, every frame received" 3001 "$(latency_row "$out" inc 1 rx)"
	check_eq "counted streams: rnd sent exactly its count" 777 "$(latency_row "$out" rnd 0 tx)"
	check_eq "counted streams: rnd, every frame received" 777 "$(latency_row "$out" rnd 0 rx)"
	check_eq "counted streams: nothing late (the count is not a rate cut)" "0 0" \
		"$(latency_row "$out" inc 1 late) $(latency_row "$out" rnd 0 late)"
	want=$(python3 -c 'z = list(range(64, 1519, 7)); print(sum(z[i % len(z)] - 4 for i in range(3001)))')
	check_eq "counted streams: port 0's bytes are the inc sizes' sum (without FCS)" "$want" \
		"$(json_get "$out" ports.0.tx_bytes || echo -1)"
	b1=$(json_get "$out" ports.1.tx_bytes || echo 0)
	check_range "counted streams: rnd's frames average about 746 B without FCS" "$((b1 / 777))" 680 812

	# a figure that was not measured is not zero: a stream without latency
	# stamps has null latency figures in --json ("-" in stats -l), beside one
	# with stamps whose figures are numbers (the run sent above, with the
	# count run's checks); stats -l fits 80 columns
	loop_wait nolat count
	loop_profile stl_64b
	out=$FG_TMP/nolat.out
	nolat_json()
	{
		python3 - "$out" <<-'PY'
			import json, sys
			t = open(sys.argv[1]).read()
			o = json.JSONDecoder().raw_decode(t, t.rfind('{"global"'))[0]
			keys = ("min_us", "avg_us", "max_us", "p50_us", "p99_us", "p999_us", "jitter_us")
			rows = {r["stream"][:7]: r for r in o["latency"]}
			s, u = rows["stamped"], rows["unstamp"]
			assert s["rx"] == 500 and u["rx"] == 500, (s, u)
			assert all(isinstance(s[k], (int, float)) for k in keys), s
			assert all(u[k] is None for k in keys), u
		PY
	}
	check "latency: an unstamped stream's figures are null, a stamped one's numbers" nolat_json
	grep -E '^(stream|stamped|unstamped_strea) ' "$out" >"$FG_TMP/nolat.txt"
	sed -n '/^Latency (usec)/,$p' "$out" >"$FG_TMP/nolat_us.txt"
	check_grep "stats -l: the unstamped stream's delays are -" \
		'^unstamped_strea +0( +-){7}$' "$FG_TMP/nolat_us.txt"
	check_grep "stats -l: the stamped stream's delays are numbers" \
		'^stamped +1( +[0-9]+\.[0-9]){7}$' "$FG_TMP/nolat_us.txt"
	check_eq "stats -l: every line within 80 columns" "" \
		"$(awk 'length($0) > 80' "$FG_TMP/nolat.txt")"

	loop_wait stl_64b nolat
	loop_profile stl_imix
	profile_checks stl_64b s64 1
	loop_wait stl_imix stl_64b
	loop_profile l3_many_hosts
	profile_checks stl_imix imix 1
	loop_wait l3_many_hosts stl_imix
	loop_send over "start -f $P/stl_64b.yaml -m 50mpps"
	profile_checks l3_many_hosts hosts10 1
	out=$FG_TMP/l3_many_hosts.out
	tx0=$(latency_row "$out" hosts19 0 tx)
	check_ge "l3_many_hosts: reverse direction counted on port 0 (frames sent)" "${tx0:-0}" 100
	check_eq "l3_many_hosts: reverse direction counted on port 0, as many as forward" \
		"$(latency_row "$out" hosts19 1 tx || echo 'no port 1 row')" "${tx0:-no port 0 row}"
	check_eq "l3_many_hosts: reverse direction, every frame received on port 0" \
		"${tx0:-no port 0 row}" "$(latency_row "$out" hosts19 0 rx || echo 'no rx')"
	check "l3_many_hosts: latency measured" in_range "$(latency_row "$out" hosts10 1 max_us)" 0.001 1e7

	loop_wait over l3_many_hosts
	loop_send tun "start -f $P/stl_64b.yaml -t bogus=1"
	out=$FG_TMP/over.out
	check_grep "a rate above line rate is refused with the maximum" 'exceed.*maximum is -m' "$out"

	loop_wait tun over
	out=$FG_TMP/tun.out
	check_grep "an unknown -t key is refused" 'unknown key' "$out"
	fg_close
}
lane loop streams_loop
# part 2 starts once part 1's timed runs are done (or the lane has ended)
for ((i = 0; i < 300; i++)); do
	[ -e "$FG_TMP/loop.timed" ] || grep -qx END "$FG_TMP/lane.loop" && break
	sleep 0.1
done

# --- part 2: router lab ---------------------------------------------------------

# Each lab's runs are made by one flowgen (fg_open, fg_run): one start-up
# and one `arp` per lab; `start` clears the counters, so every run's
# figures are its own. Plain runs go at 4,000-5,000 pps for fewer seconds
# (the router and nat runs: 7,000 frames for the 5,000 checked, the same
# half second of stall allowed as 6,000 at 2,000 pps); the runs through
# impair.py stay at 2,000 pps, the rate its relay carries without loss
# (74_impair.sh).
lab_up router || finish
SP=$FG_TOP/test/data/streams_router.yaml
# the same stream of one 5-tuple (the reorder check)
SP1=$FG_TMP/streams_router1.yaml
sed -e 's/^    src: .*/    src: {range: [198.18.0.1, 198.18.0.1], mode: inc}/' \
	-e 's/^    dst: .*/    dst: {range: [198.19.0.1, 198.19.0.1], mode: inc}/' \
	-e 's/^    sport: .*/    sport: 1024/' "$SP" >"$SP1"
RUN="-t learn_wait=0.3,drain=0.3; wait 30; stats --json"
# a lab's later runs: no learning phase (nor its 0.3 s pause), the DUT has
# resolved flowgen's port 1 in the first run
RUN0="-t learn=0,drain=0.3; wait 30; stats --json"

FG_TIMEOUT=120 fg_open "$FG_TMP/router.session"
fg_run router "arp; start -f $SP -m 2 -d 1.75 $RUN"
out=$FG_TMP/router.out
latency_pre "$out"
check_ge "router: frames through the DUT" "$(latency_row "$out" lat 1 rx)" 5000
check_eq "router: nothing lost" 0 "$(latency_row "$out" lat 1 lost)"
check_range "router: latency measured (min < 5 ms)" "$(latency_row "$out" lat 1 min_us)" 0.001 5000

# impairment KIND : delay 2 ms, loss 1 %, reorder, duplicate on the frames
# the DUT sends out of dut1, set by `imp_set WHAT`: tc netem on dut1 (KIND
# netem) or impair.py in the wire namespace, direction ba (KIND impair.py)
imp_set()
{
	if [ "$IMP" = netem ]; then
		case "$1" in
		delay) in_dut tc qdisc replace dev dut1 root netem delay 2ms ;;
		loss) in_dut tc qdisc change dev dut1 root netem loss 1% ;;
		reorder) in_dut tc qdisc change dev dut1 root netem delay 1ms reorder 25% 50% ;;
		dup) in_dut tc qdisc change dev dut1 root netem duplicate 5% ;;
		esac
	else
		case "$1" in
		delay) "$FG_LAB" impair --dir ba --delay 2 ;;
		loss) "$FG_LAB" impair --dir ba --loss 1 --seed 1 ;;
		# the stream's datagrams only (dport 4321), so that the relay's
		# counts are the stream's; reorder as swaps, each of which puts
		# exactly one frame after a later one
		reorder) "$FG_LAB" impair --dir ba --reorder 25 --seed 2 --udp-dport 4321 ;;
		dup) "$FG_LAB" impair --dir ba --duplicate 5 --seed 3 --udp-dport 4321 ;;
		esac
	fi
}

# relay_ba FIELD... : the relay's counters of direction ba (DUT to tester)
# named, their values on one line; its whole report as comments on
# standard error (standard output is the values)
relay_ba()
{
	local st
	st=$("$FG_LAB" impair stats)
	sed 's/^/# relay: /' <<<"$st" >&2
	for f in "$@"; do
		sed -n "s/^ba .* $f=\([0-9]*\) .*/\1/p" <<<"$st"
	done | tr '\n' ' '
}

# impairment_checks : the four impairments, each run by the flowgen of
# fg_open (its `arp` done); a run's checks are read while the next one
# runs (the relay's counters before it is restarted for the next)
impairment_checks()
{
	local K=$IMP ld=5 rel=
	imp_set delay
	# 2,000 frames: the minimum and the median
	fg_run delay "start -f $SP -d 1 $RUN0"
	imp_set loss
	# netem: 10,000 frames, 100 lost expected, 50-150 is five standard
	# deviations. impair.py: 6,000 frames; its draws are seeded (--seed 1
	# drops 53 of the first 6,000 frames, 0.88 %; 60 expected of any seed,
	# 30-90 is 3.9 standard deviations)
	[ "$K" = netem ] || ld=3
	fg_send loss "start -f $SP -d $ld $RUN0"
	out=$FG_TMP/delay.out
	latency_pre "$out"
	echo "# $K delay 2ms: min/avg/max latency $(latency_row "$out" lat 1 min_us)/$(latency_row "$out" lat 1 avg_us)/$(latency_row "$out" lat 1 max_us) us"
	check_range "$K delay 2ms: min latency 2.0-3.0 ms" "$(latency_row "$out" lat 1 min_us)" 2000 3000
	# the median: a userspace relay on a loaded machine stalls now and then,
	# which moves the average, not the delay most frames see
	check_range "$K delay 2ms: median latency 2.0-3.0 ms" "$(latency_row "$out" lat 1 p50_us)" 2000 3000
	fg_wait loss
	# no learning phase (its frames go to the same port): what the relay
	# counts is the measured frames'. One 5-tuple: net_af_packet spreads
	# frames over its sockets by their hash, which keeps one tuple's order
	# only (flowgen(8), ooo)
	imp_set reorder
	fg_send reorder "start -f $SP1 -d 1 -t learn=0,drain=0.3; wait 30; stats --json"
	loss_checks "$K loss 1%" "$FG_TMP/loss.out"
	fg_wait reorder
	[ "$K" = netem ] || rel=$(relay_ba reordered unswapped)
	imp_set dup
	fg_send dup "start -f $SP -d 1 -t learn=0,drain=0.3; wait 30; stats --json"
	out=$FG_TMP/reorder.out
	latency_pre "$out"
	echo "# $K reorder: ooo $(latency_row "$out" lat 1 ooo) of rx $(latency_row "$out" lat 1 rx)"
	if [ "$K" = netem ]; then
		check_ge "$K reorder: ooo counted" "$(latency_row "$out" lat 1 ooo)" 1
	else
		# the relay's own count of the swaps it made: each is one frame
		# out of order (flowgen(8): ooo, exact with one receiving worker)
		# shellcheck disable=SC2086
		set -- $rel
		check_ge "$K reorder: the relay swapped frames (25 % of 2,000)" "${1:-0}" 300
		check_eq "$K reorder: ooo = the relay's swaps ($1 swapped, ${2:-?} left alone)" \
			"$((${1:-0} - ${2:-0}))" "$(latency_row "$out" lat 1 ooo)"
		check_eq "$K reorder: nothing lost" 0 "$(latency_row "$out" lat 1 lost)"
	fi
	fg_wait dup
	out=$FG_TMP/dup.out
	latency_pre "$out"
	echo "# $K duplicate: dup $(latency_row "$out" lat 1 dup) of rx $(latency_row "$out" lat 1 rx)"
	if [ "$K" = netem ]; then
		check_ge "$K duplicate: dup counted" "$(latency_row "$out" lat 1 dup)" 1
	else
		duped=$(relay_ba duplicated)
		duped=${duped% }
		check_ge "$K duplicate: the relay sent frames twice (5 % of 2,000)" "${duped:-0}" 50
		check_eq "$K duplicate: dup = the relay's duplicates" "${duped:-x}" \
			"$(latency_row "$out" lat 1 dup)"
		check_eq "$K duplicate: rx - dup = tx (nothing lost)" "$(latency_row "$out" lat 1 tx)" \
			"$(($(latency_row "$out" lat 1 rx) - $(latency_row "$out" lat 1 dup)))"
	fi
}

if in_dut tc qdisc add dev dut1 root netem delay 2ms 2>"$FG_TMP/netem.err"; then
	IMP=netem
	impairment_checks
	in_dut tc qdisc del dev dut1 root
else
	IMP=impair.py
	echo "# no tc netem: $(head -c 200 "$FG_TMP/netem.err"); impair.py in a wire namespace instead"
	# the impair.py lab comes up beside the drop and nat runs, under
	# names of its own (lib.sh lab_up's, tag imp: not fgd-PID-w, the wire
	# namespace lab.sh down takes for this lab's); it is made the lab once
	# this one is down
	IMP_TST=fgt-$$-imp
	IMP_DUT=fgd-$$-imp
	if [ -n "$FG_RESULTS" ]; then
		echo "$IMP_TST $IMP_DUT" >>"$FG_RESULTS.ns"
		echo "$IMP_DUT-w" >>"$FG_RESULTS.ns"
	fi
	at_exit "FG_NS_TST=$IMP_TST FG_NS_DUT=$IMP_DUT $FG_LAB down"
	FG_IMPAIR=1 FG_NS_TST=$IMP_TST FG_NS_DUT=$IMP_DUT "$FG_LAB" up router >"$FG_TMP/lab.imp.out" 2>&1 &
	IMP_UP=$!
fi

# 1 % random drop in the DUT's forward path (nftables numgen): 10,000
# frames at 5,000 pps
in_dut nft -f - <<-'NFT'
	table ip fgloss {
		chain f {
			type filter hook forward priority 0;
			oifname "dut1" numgen random mod 1000 < 10 drop
		}
	}
NFT
fg_run drop "start -f $SP -m 2.5 -d 2 $RUN0"
in_dut nft delete table ip fgloss

# --- part 3: nat ----------------------------------------------------------------

# The same lab made the nat lab (`lab.sh nat`: the nat flavour is the
# router flavour plus a masquerade on the DUT); the same flowgen (its
# next hops' MACs are the same).
"$FG_LAB" nat >/dev/null || fail "nat: lab.sh nat" "it failed"
# the drop run's checks read while the nat run goes
fg_send nat "start -f $SP -m 2 -d 1.75 $RUN0"
loss_checks "1 % random drop" "$FG_TMP/drop.out"
fg_wait nat
out=$FG_TMP/nat.out
latency_pre "$out"
check_ge "nat: translated frames counted by signature" "$(latency_row "$out" lat 1 rx)" 5000
check_eq "nat: nothing lost" 0 "$(latency_row "$out" lat 1 lost)"
check_range "nat: latency measured" "$(latency_row "$out" lat 1 avg_us)" 0.001 5000
check_ge "nat: the DUT did translate" "$("$FG_LAB" conntrack)" 1
fg_close
lab_down
lane_end loop

# The same impairments without sch_netem: the router lab with impair.py
# relaying on the outside link.
if [ "$IMP" = impair.py ]; then
	if wait "$IMP_UP"; then
		NS_TST=$IMP_TST
		NS_DUT=$IMP_DUT
		export FG_NS_TST=$NS_TST FG_NS_DUT=$NS_DUT
		FG_LAB_UP=yes
	else
		fail "lab up (router)" "$(cat "$FG_TMP/lab.imp.out")"
	fi
	if [ "$FG_LAB_UP" = yes ]; then
		FG_TIMEOUT=120 fg_open "$FG_TMP/impair.session"
		fg_run plain "arp; start -f $SP -d 3 $RUN"
		out=$FG_TMP/plain.out
		latency_pre "$out"
		echo "# impair.py plain: min/avg/max latency $(latency_row "$out" lat 1 min_us)/$(latency_row "$out" lat 1 avg_us)/$(latency_row "$out" lat 1 max_us) us"
		check_ge "impair.py plain: frames through the wire" "$(latency_row "$out" lat 1 rx)" 5000
		check_eq "impair.py plain: nothing lost" 0 "$(latency_row "$out" lat 1 lost)"
		impairment_checks
		fg_close
		lab_down
	fi
fi

finish
