#!/usr/bin/env bash
#
# 90_bench.sh — `bench` (flowgen(8), COMMANDS).
#
# Part 1, [loop, loop] (loses nothing), with -x and a script on stdin:
# throughput comes out at the start rate, every trial at that rate,
# nothing lost, and a confirmation trial of --confirm seconds at that rate
# confirms it; --json is one object on
# stdout with the trials and the result, also where no hugepages are free; --csv writes a header and one row
# per trial; latency reports its figures in order (min <= median <= p99.9
# <= max, PDV = p99.9 - min) over at least 500 stamped frames; bad
# arguments fail with a clear message and exit status 1, and leave running
# traffic alone; ^C in batch mode and at the interactive prompt ends the
# search and its traffic; TAB completes the test names and options.
# Part 2, router lab with an nftables `limit rate over` drop on the DUT on
# all forwarded frames (throughput), then the NAT lab with one on new
# connections (cps, Linux's default conntrack timeouts, every trial on
# client ports no earlier trial used): each search lands near its limit (a
# range, not a figure), every valid trial well above it fails, every trial
# well below loses nothing (those searches run with --confirm 0, and 1 s
# for cps). Then a limit with a large burst,
# which a 1 s trial fits in and a 2 s one does not: the search's rate fails
# its confirmation and the next step down (the resolution, 50 %) confirms.
#
# A shared machine can stall the tester; a stalled trial is invalid (it
# says so) and bench itself repeats it. Each run here is made once: a loop
# run that still ends below the start rate fails its checks.

. "$(dirname "$0")/../e2e/lib.sh"

LOOP=$(fg_loop_cfg)
P=$FG_TOP/profiles
SP=$FG_TOP/test/data/streams_router.yaml


# --- part 1: loop ----------------------------------------------------------------

out=$FG_TMP/tp.json
err=$FG_TMP/tp.err
csv=$FG_TMP/tp.csv
FG_TIMEOUT=60 fg_plain -C "$LOOP" -x "bench throughput -f $P/stl_64b.yaml -m 5 --trial 1 --confirm 2 -t learn_wait=0.2,drain=0.3 --json --csv $csv" >"$out" 2>"$err"
rc=$?
echo "# loop throughput: trials (offered, send_s, tx, valid, passed, reason) $(bench_py '[(t["offered_fps"], t["send_s"], t["tx"], t["valid"], t["passed"], t["reason"]) for t in o["trials"]]' "$out" 2>&1)"
check_eq "loop throughput: exit status 0" 0 "$rc"
check "loop throughput: --json stdout is one JSON object" \
	python3 -c "import json, sys; o = json.load(open(sys.argv[1])); assert o['bench'] == 'throughput' and o['trials'] and o['result']" "$out"
check_pys "$out" \
	"loop throughput: nothing lost in any trial" \
		'all(t["lost"] == 0 and t["rx"] == t["tx"] for t in o["trials"])' \
	"loop throughput: every valid trial passed" \
		'all(t["passed"] for t in o["trials"] if t["valid"])' \
	"loop throughput: result is the start rate" \
		'o["result"]["found"] and o["result"]["throughput_fps"] == o["result"]["start_fps"] == 50000' \
	"loop throughput: every trial at the start rate, the last one valid, 0 % loss" \
		'all(t["offered_fps"] == 50000 for t in o["trials"]) and o["trials"][-1]["valid"] and o["trials"][-1]["passed"] and o["result"]["loss_pct"] == 0' \
	"loop throughput: the result's achieved rate within 0.1 % of the offered one" \
		'abs(o["trials"][-1]["achieved_fps"] - o["trials"][-1]["offered_fps"]) <= 50' \
	"loop throughput: an invalid trial says why" \
		'all(t["reason"] for t in o["trials"] if not t["valid"])' \
	"loop confirm: the result is confirmed, at the rate found, by a 2 s trial" \
		'o["result"]["confirmed"] and o["result"]["confirm_s"] == 2 and o["result"]["confirmed_fps"] == o["result"]["throughput_fps"] == 50000 and o["result"]["confirmed_mult"] == o["result"]["mult"] == "5"' \
	"loop confirm: the last trial is the confirmation, marked, passed, at 50000 fps" \
		'o["result"]["confirmed_trial"] == len(o["trials"]) and o["trials"][-1]["confirm"] and o["trials"][-1]["passed"] and o["trials"][-1]["offered_fps"] == 50000 and o["result"]["confirmed_loss_pct"] == 0' \
	"loop confirm: it sent for 2 s (1 %), 100000 frames (0.1 %)" \
		'abs(o["trials"][-1]["send_s"] - 2) <= 0.02 and abs(o["trials"][-1]["tx"] - 100000) <= 100' \
	"loop confirm: the search's trials are not marked, and come first" \
		'not any(t["confirm"] for t in o["trials"][:o["result"]["trial"]]) and o["result"]["trial"] < o["result"]["confirmed_trial"]'
check_grep "loop throughput: progress lines on stderr with --json" '^ +[0-9] +50000 .* pass$' "$err"
check_grep "loop confirm: its line says so" '^ +[0-9]+ +50000 .* pass \(confirmation, 2 s\)$' "$err"
check_eq "csv: header" \
	"bench,trial,offered_fps,offered_line_pct,mult,send_s,achieved_fps,tx,rx,lost,loss_pct,valid,passed,reason,lat_frames,lat_lost,min_us,avg_us,max_us,p50_us,p99_us,p999_us,pdv_us,conns,confirm,tuples" \
	"$(head -n 1 "$csv")"
check_eq "csv: one row per trial" "$(bench_py 'len(o["trials"])' "$out")" "$(($(count_lines "$csv") - 1))"
check_eq "csv: the rows hold the trials' tx" "$(bench_py '" ".join(str(t["tx"]) for t in o["trials"])' "$out")" \
	"$(awk -F, 'NR > 1 { printf "%s%s", s, $8; s = " " }' "$csv")"
check_eq "csv: the confirm column marks the last row only" "$(bench_py '" ".join(str(int(t["confirm"])) for t in o["trials"])' "$out")" \
	"$(awk -F, 'NR > 1 { printf "%s%s", s, $(NF - 1); s = " " }' "$csv")"

# latency at a load, text output, from a script on stdin
out=$FG_TMP/lat.out
echo "bench latency -f $SP -m 2 --trial 1 -t learn_wait=0.2,drain=0.3" |
	FG_TIMEOUT=60 fg_plain -C "$LOOP" >"$out" 2>&1
check_eq "loop latency (stdin script): exit status 0" 0 "$?"
check_grep "loop latency: figures printed" '^latency \(us\): min [0-9.]+ avg [0-9.]+ max [0-9.]+ median [0-9.]+ p99 [0-9.]+ p99\.9 [0-9.]+ PDV [0-9.]+ \([0-9]+ stamped frames, 0 lost\)' "$out"
read -r mn p50 p999 mx pdv n < <(sed -nE 's/^latency \(us\): min ([0-9.]+) avg [0-9.]+ max ([0-9.]+) median ([0-9.]+) p99 [0-9.]+ p99\.9 ([0-9.]+) PDV ([0-9.]+) \(([0-9]+) stamped.*/\1 \3 \4 \2 \5 \6/p' "$out")
check "loop latency: min <= median <= p99.9 <= max, PDV = p99.9 - min, >= 500 frames" \
	python3 -c "import sys; a = [float(x) for x in sys.argv[1:]]; mn, p50, p999, mx, pdv, n = a; assert mn <= p50 <= p999 <= mx and abs(pdv - (p999 - mn)) < 0.11 and n >= 500, a" \
	"${mn:-x}" "${p50:-x}" "${p999:-x}" "${mx:-x}" "${pdv:-x}" "${n:-x}"

# bad arguments: a clear message each, status 1, running traffic untouched
bad=$FG_TMP/bad.out
# a flows profile of 2 client addresses x 100 ports: too few fresh tuples
sed -e 's/198.18.0.254/198.18.0.2/' -e 's/client_ports: .*/client_ports: [1024, 1123]/' \
	"$P/udp_short.yaml" >"$FG_TMP/tiny.yaml"
FG_TIMEOUT=60 fg_plain -C "$LOOP" -k -x "start -f $P/stl_64b.yaml -m 1 -d 3 -t learn=0
bench
bench foo -f $P/stl_64b.yaml
bench throughput
bench throughput -f $P/stl_64b.yaml --loss 150
bench throughput -f $P/stl_64b.yaml --resolution 0
bench throughput -f $P/stl_64b.yaml --trial 0
bench throughput -f $P/stl_64b.yaml --confirm 50ms
bench cps -f $P/udp_short.yaml --confirm 25h
bench throughput -f $P/stl_64b.yaml --confirm soon
bench latency -f $SP -m 1 --confirm 5
bench throughput -f $P/stl_64b.yaml -m max
bench throughput -f $P/stl_64b.yaml --bogus
bench cps -f $P/udp_short.yaml --pause 2h
bench throughput -f $P/stl_64b.yaml extra
bench latency -f $SP
bench throughput -f $P/stl_64b.yaml -m 1
wait 10
bench throughput -f $FG_TMP/none.yaml
bench throughput -f $P/stl_64b.yaml -m 20mpps
bench latency -f $P/stl_64b.yaml -m 1
bench throughput -f $P/udp_short.yaml
bench throughput -f $P/stl_64b.yaml --csv $FG_TMP/no/such/dir.csv
bench capacity -f $P/udp_short.yaml
bench cps -f $P/stl_64b.yaml
bench cps -f $P/udp_short.yaml -m max
bench cps -f $P/udp_short.yaml -m 1000 --reuse --dut-timeout 30 --pause 5
bench throughput -f $P/stl_64b.yaml --reuse
bench cps -f $FG_TMP/tiny.yaml -m 20000 --trial 1
stats --json" >"$bad" 2>&1
check_eq "bad arguments: exit status 1" 1 "$?"
check_grep "bad: no test named" 'error: bench: which test\?' "$bad"
check_grep "bad: unknown test" "error: bench: unknown test 'foo'" "$bad"
check_grep "bad: -f required" 'error: bench: -f PROFILE is required' "$bad"
check_grep "bad: --loss out of range" "error: bench: --loss '150'" "$bad"
check_grep "bad: --resolution 0" "error: bench: --resolution '0'" "$bad"
check_grep "bad: --trial 0" "error: bench: --trial '0'" "$bad"
check_grep "bad: --confirm too short" "error: bench: --confirm '50ms': 0 \(none\) or 100ms to 24h" "$bad"
check_grep "bad: --confirm too long" "error: bench: --confirm '25h'" "$bad"
check_grep "bad: --confirm not a duration" "error: bench: --confirm 'soon'" "$bad"
check_grep "bad: --confirm for latency" 'error: bench: --confirm is for throughput and cps' "$bad"
check_grep "bad: -m max refused" 'error: bench: -m max is unpaced' "$bad"
check_grep "bad: unknown option" "error: bench: '--bogus': unknown option" "$bad"
check_grep "bad: --pause too long" "error: bench: --pause '2h'" "$bad"
check_grep "bad: stray word" "error: bench: unexpected 'extra'" "$bad"
check_grep "bad: latency without -m" 'error: bench: latency needs -m' "$bad"
check_grep "bad: refused while traffic runs" 'error: bench: traffic is running' "$bad"
check_grep "bad: missing profile" "none.yaml" "$bad"
check_grep "bad: a rate above line rate names the maximum" 'error: bench: -m 20000000pps: .*maximum is -m' "$bad"
check_grep "bad: latency without stamped streams" 'no stream of .* has latency: true' "$bad"
check_grep "bad: a flows profile for throughput" 'is not a streams profile' "$bad"
check_grep "bad: --csv into a missing directory" 'error: bench: --csv .*No such file' "$bad"
check_grep "bad: capacity without -m" 'error: bench: capacity needs -m' "$bad"
check_grep "bad: a streams profile for cps" 'stl_64b.yaml is not a flows profile' "$bad"
check_grep "bad: --reuse with a --pause shorter than --dut-timeout" \
	'error: bench: --reuse with --pause 5 s, shorter than --dut-timeout 30 s' "$bad"
check_grep "bad: --reuse for throughput" 'error: bench: --reuse and --dut-timeout are for cps, capacity and teardown' "$bad"
check_grep "bad: a profile whose tuples cannot keep the search fresh" \
	'error: bench: -m 20000: the search may need [0-9]+ client ports that no earlier trial used, the profile has 100 \(2 client addresses' "$bad"
check_ge "bad: the running traffic ran its course (10 kpps x 3 s, 1 % slack)" "$(latency_row "$bad" s64 1 tx)" 29700
check_eq "bad: and lost nothing" 0 "$(latency_row "$bad" s64 1 lost)"
# (the shell's and the sanitizers' words for a crash; stats' "aborted" flows are not one)
check_nogrep "bad: nothing crashed" 'Segmentation|Aborted( \(core dumped\))?$|sanitizer' "$bad"

# --json where no hugepages are free (a fresh machine): the start-up notice
# goes to stderr with the port lines, stdout holds the JSON object alone. A
# private mount namespace shows flowgen a /proc/meminfo without free
# hugepages; the machine's own reservation stays as it is. It runs beside
# the ^C checks below (none of them judges a rate or a trial).
out=$FG_TMP/nohuge.json
err=$FG_TMP/nohuge.err
sed 's/^HugePages_Free:.*/HugePages_Free:        0/' /proc/meminfo >"$FG_TMP/meminfo"
timeout -k 5 60 unshare -m sh -c 'mount --bind "$0" /proc/meminfo && exec "$@"' "$FG_TMP/meminfo" \
	"$FG_BIN" -C "$LOOP" -x "bench throughput -f $P/stl_64b.yaml -m 5 --trial 1 --resolution 50 --confirm 0 -t learn_wait=0.2,drain=0.3 --json" >"$out" 2>"$err" &
nohuge_pid=$!

# ^C in batch mode: the search and its traffic end, the run fails. In a
# lane, beside the interactive checks below (neither judges a rate).
intr_batch()
{
	local out pid rc t0 t1
	out=$FG_TMP/intr.out
	printf 'bench throughput -f %s -m 5 --trial 20 -t learn_wait=0.2\necho after\n' "$P/stl_64b.yaml" >"$FG_TMP/intr.cmds"
	"$FG_BIN" -C "$LOOP" -b <"$FG_TMP/intr.cmds" >"$out" 2>&1 &
	pid=$!
	if wait_for '^trial +offered' "$out" 20 "$pid"; then
		sleep 1.5
		t0=$(date +%s)
		kill -INT "$pid"
		wait "$pid"
		rc=$?
		t1=$(date +%s)
		check_eq "^C batch: exit status 1" 1 "$rc"
		check_grep "^C batch: says interrupted" 'bench: interrupted; traffic stopped' "$out"
		check_grep "^C batch: reports the trials done" 'throughput: no trial passed \(0 trials, interrupted\)' "$out"
		check_nogrep "^C batch: the next command does not run" '^after$' "$out"
		check "^C batch: ends within 10 s, not at the trial's end" test $((t1 - t0)) -le 10
	else
		fail "^C batch: bench started" "$(tail -n 3 "$out")"
		kill -9 "$pid" 2>/dev/null
	fi
}
lane intr intr_batch

# ^C at the interactive prompt: the prompt comes back, the console works
if command -v tmux >/dev/null; then
	H=$FG_TMP/home
	mkdir -p "$H"
	tmux_start 200 40 100
	keys "cd $FG_TOP && $FG_BIN -C $LOOP; echo FG-EXIT=\$? > $H/rc" Enter
	if wait_screen 'flowgen> ?$' 40; then
		keys "bench thr" Tab
		sleep 0.5
		keys -- "--res" Tab
		if wait_screen 'flowgen> bench throughput --resolution ?$' 5; then
			pass "TAB completes bench's test names and options"
		else
			fail "TAB completes bench's test names and options" "$(screen | grep 'flowgen>' | tail -n 1)"
		fi
		keys C-u
		keys "bench throughput -f $P/stl_64b.yaml -m 5 --trial 20 -t learn_wait=0.2" Enter
		if wait_screen '^trial +offered' 20; then
			sleep 1.5
			keys C-c
			if wait_screen 'bench: interrupted' 10; then
				pass "^C interactive: bench interrupted"
			else
				fail "^C interactive: bench interrupted" "$(screen | grep . | tail -n 4)"
			fi
			keys "echo alive-after-bench" Enter
			if wait_screen '^alive-after-bench' 10; then
				pass "^C interactive: the console runs commands after it"
			else
				fail "^C interactive: the console runs commands after it" "$(screen | grep . | tail -n 4)"
			fi
		else
			fail "^C interactive: bench started" "$(screen | grep . | tail -n 4)"
		fi
		keys "quit" Enter
		wait_file "$H/rc" 20
		check_eq "^C interactive: quit exits 0" "FG-EXIT=0" "$(cat "$H/rc" 2>/dev/null)"
	else
		fail "^C interactive: prompt" "$(screen | grep . | tail -n 4)"
	fi
else
	fail "^C interactive: tmux available" "tmux is not installed (make deps installs it)"
fi

lane_end intr
wait "$nohuge_pid"
out=$FG_TMP/nohuge.json
err=$FG_TMP/nohuge.err
check_grep "no free hugepages: the notice is on stderr" 'no free hugepages.*--no-huge' "$err"
check "no free hugepages: --json stdout is the JSON object alone" \
	python3 -c "import json, sys; o = json.load(open(sys.argv[1])); assert o['bench'] == 'throughput' and o['trials'] and o['result']" "$out"

# --- part 2: router lab, a rate limit on the DUT ---------------------------------

LIMIT=6000
lab_up router || finish
in_dut nft -f - <<-NFT
	table ip fgbench {
		chain f {
			type filter hook forward priority 0;
			oifname "dut1" limit rate over $LIMIT/second burst 200 packets drop
		}
	}
NFT
# both searches in this lab by one flowgen (fg_open; a failed command
# would end it before its mark)
FG_TIMEOUT=160 fg_open "$FG_TMP/lab.session"
out=$FG_TMP/lab.out
rc=0
fg_run lab "arp; bench throughput -f $SP -m 10 --trial 1 --resolution 10 --confirm 0 -t learn_wait=0.2,drain=0.3 --json" 80 || rc=1
check_eq "lab: exit status 0" 0 "$rc"
echo "# lab: $(bench_py '[(round(t["offered_fps"]), t["loss_pct"], t["valid"]) for t in o["trials"]]' "$out" 2>&1)"
echo "# lab: throughput $(bench_py 'o["result"]["throughput_fps"]' "$out" 2>&1) fps, limit $LIMIT pps"
check_pys "$out" \
	"lab: the start rate (20 kpps) loses frames" \
		'o["trials"][0]["lost"] > 0 and not o["trials"][0]["passed"]' \
	"lab: throughput found within 80-110 % of the DUT's limit" \
		"o['result']['found'] and $LIMIT * 0.8 <= o['result']['throughput_fps'] <= $LIMIT * 1.1" \
	"lab: the result's trial lost nothing" \
		'o["trials"][o["result"]["trial"] - 1]["lost"] == 0' \
	"lab: every valid trial well above the limit failed" \
		"all(not t['passed'] for t in o['trials'] if t['valid'] and t['offered_fps'] > $LIMIT * 1.1)" \
	"lab: every trial well below the limit lost nothing" \
		"all(t['lost'] == 0 for t in o['trials'] if t['offered_fps'] < $LIMIT * 0.8)" \
	"lab: --confirm 0 runs no confirmation, the result says not confirmed" \
		'not any(t["confirm"] for t in o["trials"]) and not o["result"]["confirmed"] and o["result"]["confirm_s"] == 0 and o["result"]["confirmed_fps"] == 0'
in_dut nft delete table ip fgbench

# a burst that a 1 s trial fits in (8000 frames <= 6000 + 3000 x 1 s) and a
# 2 s trial at the same rate does not (16000 > 6000 + 3000 x 2 s); half the
# rate does (8000, with 2000 of the burst back after the failed one)
in_dut nft -f - <<-NFT
	table ip fgconf {
		chain f {
			type filter hook forward priority 0;
			oifname "dut1" limit rate over 3000/second burst 6000 packets drop
		}
	}
NFT
out=$FG_TMP/conf.out
rc=0
fg_run conf "bench throughput -f $SP -m 4 --trial 1 --confirm 2 --resolution 50 -t learn_wait=0.2 --json" 80 || rc=1
sed -n '/^MARK-lab$/,$p' "$out" >"$FG_TMP/conf.err"
fg_close
[ "$rc" -eq 0 ] && rc=$FG_SRC
check_eq "lab confirm: exit status 0" 0 "$rc"
echo "# lab confirm: $(bench_py '[(round(t["offered_fps"]), t["send_s"], t["lost"], t["valid"], t["confirm"]) for t in o["trials"]]' "$out" 2>&1)"
check_pys "$out" \
	"lab confirm: the search passes its start rate, 8000 fps, in 1 s trials" \
		'o["result"]["found"] and o["result"]["throughput_fps"] == o["result"]["start_fps"] == 8000' \
	"lab confirm: the 2 s confirmation at 8000 fps loses frames and fails" \
		'[(t["offered_fps"], t["passed"], t["lost"] > 0, abs(t["send_s"] - 2) <= 0.02) for t in o["trials"] if t["confirm"] and t["valid"]][0] == (8000, False, True, True)' \
	"lab confirm: 50 % lower, 4000 fps, confirms; the search's 8000 fps stays in the result" \
		'o["result"]["confirmed"] and o["result"]["confirmed_fps"] == 4000 and o["result"]["throughput_fps"] == 8000 and o["trials"][o["result"]["confirmed_trial"] - 1]["confirm"] and o["trials"][o["result"]["confirmed_trial"] - 1]["lost"] == 0'
check_grep "lab confirm: the trial lines mark the failed confirmation" '^ +[0-9]+ +8000 .* fail \(confirmation, 2 s\)$' "$FG_TMP/conf.err"
check_grep "lab confirm: and the passed one" '^ +[0-9]+ +4000 .* pass \(confirmation, 2 s\)$' "$FG_TMP/conf.err"
in_dut nft delete table ip fgconf

lab_down

# cps through the NAT lab: new connections limited on the DUT (conntrack's
# state new), Linux's default conntrack timeouts (an unreplied UDP entry
# stays 30 s). Each trial offers only connections no earlier trial used
# (its own window of client ports), so the search lands on the limit; with
# the tuples of earlier trials still in the DUT's table it lands far above.
CLIMIT=2500
lab_up nat || finish
in_dut nft -f - <<-NFT
	table ip fgcps {
		chain f {
			type filter hook forward priority 0;
			ct state new oifname "dut1" limit rate over $CLIMIT/second burst 200 packets drop
		}
	}
NFT
out=$FG_TMP/cps.out
FG_TIMEOUT=100 fg -x "arp; bench cps -f $P/udp_short.yaml -m 5000 --trial 1 --resolution 10 --confirm 1 --json" >"$out" 2>"$FG_TMP/cps.err"
rc=$?
check_eq "lab cps: exit status 0" 0 "$rc"
[ "$rc" -eq 0 ] || echo "# lab cps stderr: $(grep -v '^ ' "$FG_TMP/cps.err" | tail -n 3)"
echo "# lab cps: $(bench_py '[(round(t["offered_cps"]), t["failed"], t["valid"], t["tuples"], t["client_ports"]) for t in o["trials"]]' "$out" 2>&1)"
echo "# lab cps: $(bench_py 'o["result"]["max_cps"]' "$out" 2>&1) cps, limit $CLIMIT new connections/s"
check_pys "$out" \
	"lab cps: 5,000 cps leave flows uncompleted" \
		'o["trials"][0]["failed"] > 0' \
	"lab cps: the rate found within the resolution of the DUT's limit (85-110 %)" \
		"o['result']['found'] and $CLIMIT * 0.85 <= o['result']['max_cps'] <= $CLIMIT * 1.1" \
	"lab cps: every connection of the result's trial completed" \
		'o["trials"][o["result"]["trial"] - 1]["failed"] == 0 and o["trials"][o["result"]["trial"] - 1]["completed"] > 0' \
	"lab cps: every valid trial well above the limit failed" \
		"all(not t['passed'] for t in o['trials'] if t['valid'] and t['offered_cps'] > $CLIMIT * 1.1)" \
	"lab cps: every trial well below the limit completed every connection" \
		"all(t['failed'] == 0 for t in o['trials'] if t['offered_cps'] < $CLIMIT * 0.8)" \
	"lab cps: confirmation trials of 1 s follow the search, the first at the rate found" \
		'o["result"]["confirm_s"] == 1 and [t["offered_cps"] for t in o["trials"] if t["confirm"]][0] == o["result"]["max_cps"] and [t["confirm"] for t in o["trials"]] == sorted(t["confirm"] for t in o["trials"])' \
	"lab cps: each trial on client ports no earlier trial used" \
		'all(a["client_ports"][1] < b["client_ports"][0] for a, b in zip(o["trials"], o["trials"][1:])) and o["trials"][0]["client_ports"][0] >= 1024' \
	"lab cps: every started connection had a tuple of its own; the total is reported" \
		'all(t["tuples"] == t["started"] for t in o["trials"]) and o["tuples"] == sum(t["started"] for t in o["trials"]) and not o["reuse"]'
in_dut nft delete table ip fgcps
lab_down

finish
