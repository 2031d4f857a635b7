#!/usr/bin/env bash
# 13_instances.sh — several flowgen processes side by side, in every
# hugepage state (flowgen(8), MEMORY AND SEVERAL INSTANCES):
#   1. no hugepages: three processes started within one second on
#      [loop, loop] each run a 1.5 s streams profile at its own rate and
#      report their own figures; each says it runs with --no-huge and, with
#      -v, the heap it sized;
#   2. 1024 hugepages: the same, each on hugepages;
#   3. too few hugepages for all three (started at the same instant, each
#      sure at first that they suffice): the ones that find the pages gone
#      start again on --no-huge, and all three run;
#   3b. the same race on purpose (the test hook
#      FLOWGEN_TEST_STOP_BEFORE_POOLS stops flowgen between its plan on
#      hugepages and its pools, another process takes every free hugepage):
#      flowgen says they ran out and starts again on --no-huge, and runs;
#   4. a start-up DPDK refuses (the runtime directory of the --file-prefix
#      given is locked by another process) prints DPDK's reason and
#      flowgen's hint, never "Success", and exits 70 (in a lane beside
#      part 1, at its 0 hugepages: start-ups that count no frames).
# Each run of three lasts 1.5 s: started 0.4 s apart, the first and the
# third still send side by side for about 0.7 s, and each count
# below is exact (sent or counted late, +-2 frames) whatever the length.
# The hugepage count is put back as it was on exit.
. "$(dirname "$0")/lib.sh"

need_flowgen
need_root "instances: hugepages sysctl"
saved=$(cat /proc/sys/vm/nr_hugepages)
at_exit "echo $saved > /proc/sys/vm/nr_hugepages"
LOOP=$(fg_loop_cfg)

# set_huge N : reserve N hugepages; false if the kernel gave fewer. A
# fragmented memory (a build beside the tests) can leave the kernel short
# of free 2 MiB runs: it is compacted once before the count is judged.
set_huge()
{
	echo "$1" >/proc/sys/vm/nr_hugepages
	if [ "$(cat /proc/sys/vm/nr_hugepages)" -lt "$1" ] && [ -w /proc/sys/vm/compact_memory ]; then
		echo 1 >/proc/sys/vm/compact_memory
		echo "$1" >/proc/sys/vm/nr_hugepages
	fi
	[ "$(cat /proc/sys/vm/nr_hugepages)" -ge "$1" ]
}

# three TAG CFG : start three flowgen at 1, 2 and 3 kpps, 0.4 s apart (all
# within one second), each for 1.5 s; waits for them; outputs in $FG_TMP/TAG.N
three()
{
	local tag=$1 cfg=$2 gap=${3:-0.4} i t pids=()
	for i in 1 2 3; do
		fg_plain -v -C "$cfg" --json -x "start -f profiles/stl_64b.yaml -m 0.$i -d 1.5 -t learn=0; wait; stats --json" \
			</dev/null >"$FG_TMP/$tag.$i" 2>&1 &
		pids+=($!)
		sleep "$gap"
	done
	# a run of 1.5 s that has not ended after 30 s is hung: what each of
	# its threads waits on goes beside its output, before the timeout
	# ends it (the check that fails prints it)
	for ((t = 0; t < 300; t++)); do
		pid_gone "${pids[0]}" && pid_gone "${pids[1]}" && pid_gone "${pids[2]}" && break
		sleep 0.1
	done
	for i in 1 2 3; do
		pid_gone "${pids[$((i - 1))]}" || threads_of "${pids[$((i - 1))]}" >"$FG_TMP/$tag.$i.hang"
	done
	for i in 1 2 3; do
		wait "${pids[$((i - 1))]}"
		echo $? >"$FG_TMP/$tag.$i.rc"
	done
}

# threads_of PID : each flowgen below PID, its threads: name, state, where
# it waits (wchan) and the kernel stack's first frames
threads_of()
{
	local p t
	for p in $(descendants "$1"); do
		[ "$(cat "/proc/$p/comm" 2>/dev/null)" = flowgen ] || continue
		echo "flowgen pid $p, hung:"
		for t in /proc/"$p"/task/*; do
			echo "  thread $(cat "$t/comm" 2>/dev/null): $(sed 's/.*) //; s/ .*//' "$t/stat" 2>/dev/null)" \
				"wchan $(cat "$t/wchan" 2>/dev/null)," \
				"stack $(head -n 4 "$t/stack" 2>/dev/null | sed 's/^.*\] //' | tr '\n' ' ')"
		done
		# where gdb is installed, each thread's own frames too
		command -v gdb >/dev/null &&
			timeout 20 gdb -p "$p" -batch -ex 'thread apply all bt 8' 2>/dev/null | grep -E '^(Thread|#)'
	done
	return 0
}

# descendants PID : the processes below PID, depth first
descendants()
{
	local c
	for c in $(cat /proc/"$1"/task/*/children 2>/dev/null); do
		echo "$c"
		descendants "$c"
	done
}

# figures FILE... : for each FILE (a run's output), one line "TX RX LATE
# PORT0_TX" from one python3: the tx, rx and late of the s64 latency row
# received on port 1 as latency_row reads them, and ports.0.tx_pkts as
# json_get reads it; "x" for one that is not there
figures()
{
	python3 - "$@" <<-'PY'
		import json, sys
		from fg_e2e_json import at, last
		for f in sys.argv[1:]:
		    try:
		        t = open(f).read()
		    except OSError:
		        t = ""
		    try:
		        j = t.rfind('{"global"')
		        o = json.JSONDecoder().raw_decode(t, j)[0] if j >= 0 else {}
		        r = [r for r in o.get("latency", []) if r["stream"] == "s64" and r["port"] == 1]
		        r = r[0] if r else {}
		    except (ValueError, KeyError, TypeError, AttributeError):
		        r = {}
		    try:
		        p = at(last(t), "ports.0.tx_pkts")
		    except (KeyError, IndexError, ValueError, TypeError):
		        p = "x"
		    print(*[str(r.get(k, "x")).replace(" ", "_") for k in ("tx", "rx", "late")], str(p).replace(" ", "_"))
	PY
}

# x_or VALUE DEFAULT : VALUE, or DEFAULT when it is "x" or empty
x_or()
{
	if [ -z "$1" ] || [ "$1" = x ]; then echo "$2"; else echo "$1"; fi
}

# own_figures TAG NAME : each of the three sent what its own rate asks
# (1000 frames a second for 1.5 s per kpps), all arrived, and its port
# counters agree
own_figures()
{
	local tag=$1 name=$2 i f tx rx late p0 want fig
	mapfile -t fig < <(figures "$FG_TMP/$tag.1" "$FG_TMP/$tag.2" "$FG_TMP/$tag.3")
	for i in 1 2 3; do
		f=$FG_TMP/$tag.$i
		read -r tx rx late p0 <<<"${fig[$((i - 1))]:-}"
		tx=$(x_or "$tx" -1) rx=$(x_or "$rx" -1) late=$(x_or "$late" 0) p0=$(x_or "$p0" -2)
		if [ "$(cat "$f.rc")" = 0 ]; then
			pass "$name: flowgen $i exits 0"
		else
			fail "$name: flowgen $i exits 0" "exit $(cat "$f.rc"); its output: $(grep -v '^{' "$f" | tr '\n' ' ')$(cat "$f.hang" 2>/dev/null | tr '\n' ' ')"
			# the result line keeps 300 characters: the whole output
			# and where a hung one's threads waited go to the log
			grep -v '^{' "$f" | tail -n 40 | sed "s/^/# $name, flowgen $i: /"
			sed "s/^/# $name, flowgen $i: /" "$f.hang" 2>/dev/null
		fi
		want=$((i * 1500))
		# three busy workers and three main lcores on this machine's
		# CPUs: a stall past the pacer's backlog is counted late, so
		# what was sent and what was late make up the offer
		if [ "$tx" -ge 0 ] && [ $((tx + late)) -ge $((want - 2)) ] && [ $((tx + late)) -le $((want + 2)) ]; then
			pass "$name: flowgen $i sent or counted late its own $want frames ($tx + $late)"
		else
			fail "$name: flowgen $i sent or counted late its own $want frames" "sent $tx, late $late; $(grep -v '^{' "$f" | tail -n 3 | tr '\n' ' ')"
		fi
		check_eq "$name: flowgen $i received what it sent" "$tx" "$rx"
		check_eq "$name: flowgen $i port 0 counted its frames" "$tx" "$p0"
	done
}

# 4. a runtime directory locked by another process: a process holds the
# write lock DPDK takes on PREFIX/config (fcntl, as DPDK does) while
# flowgen starts with that prefix
# (in a lane beside part 1, at the same 0 hugepages: the main shell
# removes the runtime directory and ends the holder on exit)
locked_runtime()
{
	local pfx=fgp$$ holder rc
	mkdir -p "/var/run/dpdk/$pfx"
	python3 -c '
import fcntl, sys, time
f = open(sys.argv[1], "a+")
fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
' "/var/run/dpdk/$pfx/config" 20 >"$FG_TMP/lock.h" 2>&1 &
	holder=$!
	echo "$holder" >"$FG_TMP/lock.pid"
	wait_for '^locked' "$FG_TMP/lock.h" 10 "$holder"
	rc=0
	fg_plain -C "$LOOP" -x "quit" -- --file-prefix=$pfx </dev/null >"$FG_TMP/lock.out" 2>&1 || rc=$?
	kill "$holder" 2>/dev/null
	check_eq "locked runtime: flowgen exits 70" 70 "$rc"
	check_grep "locked runtime: DPDK's reason" "^flowgen: DPDK initialisation failed: .*Cannot create lock on '/var/run/dpdk/$pfx/config'" "$FG_TMP/lock.out"
	check_grep "locked runtime: flowgen's hint names the prefix" "^flowgen: hint: .*file prefix '$pfx' is locked by another DPDK process.*--file-prefix" "$FG_TMP/lock.out"
	check_nogrep "locked runtime: never 'Success'" 'Success' "$FG_TMP/lock.out"
	# the same start-up with the lock free runs
	rc=0
	fg_plain -C "$LOOP" -x "quit" -- --file-prefix=$pfx </dev/null >"$FG_TMP/lock.2" 2>&1 || rc=$?
	check_eq "locked runtime: with the lock released, the same start-up runs" 0 "$rc"
}

# Each part's figures and checks (NAME_checks) read only its own outputs:
# they run in a lane beside the parts that follow (the counts they check
# are exact whatever the load: what a stall holds back is counted late).
none_checks()
{
	local i mb
	own_figures none "no hugepages"
	for i in 1 2 3; do
		check_grep "no hugepages: flowgen $i runs with --no-huge" 'no free hugepages: running with --no-huge' "$FG_TMP/none.$i"
		check_grep "no hugepages: flowgen $i has a runtime of its own (--no-shconf)" '^eal:.* --no-shconf' "$FG_TMP/none.$i"
		# the loop config's 4096 mbufs a port, packed (2.3 KiB each, not
		# a 4 KiB page): 18.5 MiB of pools and 48 of the rest, not the
		# 80 MiB of a page an mbuf, nor the 1 GB heap of old
		mb=$(sed -n 's/^eal:.* -m\([0-9]*\).*/\1/p' "$FG_TMP/none.$i")
		if [ -n "$mb" ] && [ "$mb" -ge 66 ] && [ "$mb" -le 74 ]; then
			pass "no hugepages: flowgen $i sized its heap from the run (-m$mb)"
		else
			fail "no hugepages: flowgen $i sized its heap from the run" "-m '$mb'"
		fi
		check_nogrep "no hugepages: flowgen $i never says Success" 'Success' "$FG_TMP/none.$i"
	done
}

huge_checks()
{
	local i
	own_figures huge "1024 hugepages"
	for i in 1 2 3; do
		check_nogrep "1024 hugepages: flowgen $i stays on hugepages" 'no-huge' "$FG_TMP/huge.$i"
		check_grep "1024 hugepages: flowgen $i says what it takes (-v)" '^memory: [0-9]+ MiB for DPDK .* from hugepages' "$FG_TMP/huge.$i"
	done
}

short_checks()
{
	local i nh
	own_figures short "100 hugepages"
	nh=0
	for i in 1 2 3; do
		grep -Eq 'running with --no-huge|starting again with --no-huge' "$FG_TMP/short.$i" && nh=$((nh + 1))
	done
	echo "# 100 hugepages: $nh of 3 on --no-huge"
	# three plans of 125 MiB do not fit in 200: one at least runs on
	# --no-huge. How many get hugepages depends on the race (each maps
	# its pages as its heap grows, so all three can fall short at once):
	# none is a right outcome too, as long as each says so and runs
	check_ge "100 hugepages: the ones that found no room ran on --no-huge" "$nh" 1
}

# 1. no hugepages, and 4. beside it
if set_huge 0; then
	at_exit "rm -rf /var/run/dpdk/fgp$$"
	at_exit "kill \$(cat $FG_TMP/lock.pid 2>/dev/null) 2>/dev/null"
	lane lock locked_runtime
	three none "$LOOP"
	lane chk_none none_checks
	lane_end lock
else
	fail "no hugepages: nr_hugepages set to 0" "it reads $(cat /proc/sys/vm/nr_hugepages)"
fi

# 2. 1024 hugepages
if set_huge 1024; then
	three huge "$LOOP"
	lane chk_huge huge_checks
else
	fail "1024 hugepages: nr_hugepages set to 1024" "the kernel gave $(cat /proc/sys/vm/nr_hugepages)"
fi

# 3. hugepages for one of three at most: 16384 mbufs a port (75 MiB of pools,
# 125 MiB planned) and 100 pages (200 MiB) free when all three look
big=$FG_TMP/big.yaml
sed 's/^  mbufs: .*/  mbufs: 16384/' "$LOOP" >"$big"
if set_huge 100; then
	three short "$big" 0
	lane chk_short short_checks
else
	fail "100 hugepages: nr_hugepages set to 100" "it reads $(cat /proc/sys/vm/nr_hugepages)"
fi

# 3b. the same race, made to happen on purpose: with the test hook
# FLOWGEN_TEST_STOP_BEFORE_POOLS (README, Tests) flowgen stops itself once
# DPDK is up on hugepages, before its pools; another process takes every
# free hugepage meanwhile; flowgen goes on, finds them gone, says so and
# starts again on --no-huge (its own line, not the one of a start that
# found no pages in its plan), and runs (0.5 s at 1,000 frames/s: its count
# is exact, as long as it runs)
if set_huge 100; then
	r=$FG_TMP/race
	FLOWGEN_TEST_STOP_BEFORE_POOLS=1 fg_plain -v -C "$LOOP" --json \
		-x "start -f profiles/stl_64b.yaml -m 0.1 -d 0.5 -t learn=0; wait; stats --json" \
		</dev/null >"$r.1" 2>&1 &
	fpid=$!
	at_exit_kill $fpid
	stopped=no
	if wait_for '^flowgen: test hook: pid [0-9]+ on hugepages, stopped before the pools' "$r.1" 30 "$fpid"; then
		pid=$(sed -n 's/^flowgen: test hook: pid \([0-9]*\) .*/\1/p' "$r.1" | head -n 1)
		for ((k = 0; k < 50; k++)); do
			[ "$(sed 's/.*) //; s/ .*//' "/proc/$pid/stat" 2>/dev/null)" = T ] && stopped=yes && break
			sleep 0.1
		done
	fi
	check_eq "hugepages taken meanwhile: flowgen planned on hugepages and stopped before its pools" yes "$stopped"
	# the taker: every free hugepage, mapped and touched, held until told
	python3 -c '
import mmap, sys, time
free = page = 0
for l in open("/proc/meminfo"):
    if l.startswith("HugePages_Free:"): free = int(l.split()[1])
    if l.startswith("Hugepagesize:"): page = int(l.split()[1]) * 1024
m = mmap.mmap(-1, free * page, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | 0x40000) if free else None
for off in range(0, free * page, page):
    m[off] = 1
print("took %d" % free, flush=True)
time.sleep(60)
' >"$r.taker" 2>&1 &
	taker=$!
	at_exit "kill $taker"
	wait_for '^took [0-9]+' "$r.taker" 30 "$taker"
	hfree=$(awk '$1 == "HugePages_Free:" { print $2 }' /proc/meminfo)
	echo "# hugepages taken meanwhile: $(cat "$r.taker"), $hfree free now"
	check_eq "hugepages taken meanwhile: another process holds every free hugepage" 0 "$hfree"
	[ -n "${pid:-}" ] && kill -CONT "$pid" 2>/dev/null
	wait "$fpid"
	echo $? >"$r.1.rc"
	kill "$taker" 2>/dev/null
	wait "$taker" 2>/dev/null
	check_grep "hugepages taken meanwhile: flowgen's plan was on hugepages (-v)" '^memory: [0-9]+ MiB for DPDK .* from hugepages' "$r.1"
	check_grep "hugepages taken meanwhile: flowgen says they ran out and starts again with --no-huge" \
		'^flowgen: .*: the hugepages ran out meanwhile; starting again with --no-huge$' "$r.1"
	check_nogrep "hugepages taken meanwhile: not a start that found no pages in its plan" \
		'running with --no-huge' "$r.1"
	check_grep "hugepages taken meanwhile: the second start is on the heap (--no-huge)" \
		'^memory: [0-9]+ MiB for DPDK .* on the heap \(--no-huge\)' "$r.1"
	check_eq "hugepages taken meanwhile: exits 0" 0 "$(cat "$r.1.rc")"
	read -r tx rx late p0 < <(figures "$r.1")
	tx=$(x_or "$tx" -1) rx=$(x_or "$rx" -2) late=$(x_or "$late" -1)
	check_eq "hugepages taken meanwhile: sent or counted late its 500 frames" 500 "$((tx + late))"
	check_eq "hugepages taken meanwhile: received what it sent" "$tx" "$rx"
else
	fail "hugepages taken meanwhile: nr_hugepages set to 100" "it reads $(cat /proc/sys/vm/nr_hugepages)"
fi

for l in chk_none chk_huge chk_short; do
	[ -e "$FG_TMP/lane.$l" ] && lane_end $l
done
echo "$saved" >/proc/sys/vm/nr_hugepages
finish
