#!/usr/bin/env bash
#
# run.sh — the single test driver behind `make test`.
#
# Runs, in order:
#   1. every scenario test/e2e/[0-9]*.sh, each under a timeout, each in its
#      own process so that one that dies does not stop the others; their
#      checks arrive through test/e2e/lib.sh in a results file;
#   2. the cmocka unit binaries (as many at a time as there are CPUs, judged
#      in order): build/unit/test_X and build/san/unit/test_X
#      (address and undefined-behaviour sanitizers) for every
#      test/unit/test_X.c, and build/tsan/test_stats (thread sanitizer, built
#      by test/unit/tsan.sh); each must exist (one check each: a binary that
#      was not built fails, it is not skipped); each cmocka test is one
#      check, read from cmocka's own lines; a binary that crashes or fails
#      without cmocka's summary counts as one failure, so does a sanitizer
#      report in its output, and so does a skipped cmocka test;
#   3. test/fuzz/run.sh short (PASS/FAIL lines, or its own "N passed,
#      N failed" line); a missing script is a failure. With --build it
#      runs in the background after the builds, its lines printed here.
# Prints PASS/FAIL per check and ends with exactly `N passed, N failed`;
# exits 0 only when nothing failed.
#
# --dir DIR (`make test-all`, after make test): the scenarios DIR/[0-9]*.sh
# alone, the same way (test/all/: those too long for make test, such as
# the container image's); no unit test, no fuzzing. A folder with no
# scenario fails.
#
# --build (`make test`, once flowgen and the unit binaries are built):
# the sanitizer builds are built, then the fuzz harnesses built and run
# for their short time, in the background behind the scenarios that
# leave CPU 0 mostly idle, at the lowest CPU priority (SCHED_IDLE, nice
# 19) and on CPU 0 only: from 50_flows_nat.sh on, stopped (SIGSTOP) from
# 64_record.sh on, going on again from 80_hostile.sh on (FG_BUILD_FROM,
# FG_BUILD_PAUSE, FG_BUILD_RESUME: a scenario name or its prefix); the
# fuzz runs, which count wall-clock time, wait for the last window. The
# scenarios' flowgen runs its main lcore on CPU 0 and its workers on the
# other CPUs: the main lcore mostly sleeps, and a task waking there
# preempts a SCHED_IDLE one at once, while a worker polls without
# sleeping, so a SCHED_IDLE task on its CPU would still get slices of a
# few milliseconds (a latency trial of 90_bench.sh turned invalid so).
# In the windows CPU 0 was 17-43 % busy (50_ to 63_) and 17-74 %
# (80_ to 98_), sampled every second in a make test, 2026-12-06. Behind
# the first scenarios instead, which are busy scripts (the man pages',
# the layout's and the configs' checks), the builds slowed those by a
# third of what they saved; from 70_streams.sh on (the streams
# scenarios, their relays on CPU 0), they slowed the scenarios by 35 s,
# more than the 28 s they saved; from 65_flows_active.sh on, the fault
# scenarios by 21 s. Once the scenarios are done, what is left of them
# runs on every CPU at the normal priority, their output (with the times
# each step ended) is printed, and the units wait for them.
#
# Environment: FG_E2E_TIMEOUT (seconds per scenario, default 300; 1800
# with --dir),
# FG_UNIT_TIMEOUT (per unit binary, default 300), FG_ONLY (a glob limiting
# the e2e scenarios, e.g. FG_ONLY='30_*').

set -u

# Debian's own tools first (make deps installs every one the tests use): a
# version manager's shim found earlier in PATH (pyenv's python3 is a shell
# script that starts pyenv) costs 0.7 s per python3 start here, and the
# scenarios start python3 hundreds of times
export PATH=/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin:$PATH

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1

build=no
dir=test/e2e
if [ "${1:-}" = --build ] && [ $# -eq 1 ]; then
	build=yes
elif [ "${1:-}" = --dir ] && [ $# -eq 2 ] && [ -d "$2" ]; then
	dir=${2%/}
elif [ $# -gt 0 ]; then
	echo "usage: $0 [--build | --dir DIR]" >&2
	exit 64
fi

# the background builds' windows (--build): they run behind the
# scenarios from FG_BUILD_FROM on, stopped (SIGSTOP) from FG_BUILD_PAUSE
# on and going on from FG_BUILD_RESUME on (each a scenario name or its
# prefix); the fuzzing waits for the last window
build_from=${FG_BUILD_FROM:-50_}
build_pause=${FG_BUILD_PAUSE:-64_}
build_resume=${FG_BUILD_RESUME:-80_}
e2e_timeout=${FG_E2E_TIMEOUT:-300}
[ "$dir" = test/e2e ] || e2e_timeout=${FG_E2E_TIMEOUT:-1800}
unit_timeout=${FG_UNIT_TIMEOUT:-300}
npass=0
nfail=0
work=$(mktemp -d "${TMPDIR:-/tmp}/fg-run.XXXXXX")
bpid=
# (a stopped build takes the TERM once it goes on)
trap '[ -n "$bpid" ] && kill -- -"$bpid" 2>/dev/null && kill -CONT -- -"$bpid" 2>/dev/null; rm -rf "$work"' EXIT

say_pass()
{
	npass=$((npass + 1))
	echo "PASS $1"
}

say_fail()
{
	nfail=$((nfail + 1))
	echo "FAIL $1: $2"
}

# Unit binaries run $(nproc) at a time (exec_unit), each into its own
# output file; they are judged one by one afterwards, in order (judge_unit).
exec_unit()
{ # BIN OUT : runs BIN under the timeout, its output to OUT, its status to OUT.rc
	local rc=0
	# The outer redirection hides the shell's "Aborted" job notice.
	(timeout -k 5 "$unit_timeout" "$1" >"$2" 2>&1; exit $?) 2>/dev/null || rc=$?
	echo "$rc" >"$2.rc"
}

# Per-test PASS/FAIL from "[ RUN ] x" followed by "[ OK ] x" or
# "[ FAILED ] x"; the counts come from the "[  PASSED  ] N test(s)." and
# "[  FAILED  ] N test(s)" summary lines (several groups add up), all in
# one pass over the output.
judge_unit()
{ # BIN OUT
	local tag=${1#build/} out=$2 rc p f seen san sum
	rc=$(cat "$out.rc" 2>/dev/null || echo 127)
	# A skipped test is not a passed one: it counts as failed. The last
	# line is "SUM passed failed summaries lines-passed lines-failed".
	sum=$(awk -v tag="$tag" '
		/^\[ RUN      \] / { cur = substr($0, 14); next }
		/^\[       OK \] / { n = substr($0, 14); if (n == cur) { print "PASS " tag ": " n; lp++ } cur = ""; next }
		/^\[  FAILED  \] [0-9]+ test\(s\)/ { f += $4; next }
		/^\[  FAILED  \] / { n = substr($0, 14); if (n == cur) { print "FAIL " tag ": " n; lf++ } cur = ""; next }
		/^\[  SKIPPED \] [0-9]+ test\(s\)/ { f += $4; next }
		/^\[  SKIPPED \] / { n = substr($0, 14); if (n == cur) { print "FAIL " tag ": " n ": skipped"; lf++ } cur = ""; next }
		/^\[  PASSED  \] [0-9]+ test\(s\)\./ { p += $4; next }
		/^\[==========\] .* test\(s\) run\./ { seen++ }
		END { printf "SUM %d %d %d %d %d\n", p, f, seen, lp, lf }
	' "$out")
	printf '%s\n' "$sum" | grep -v '^SUM '
	read -r _ p f seen lp lf <<<"$(printf '%s\n' "$sum" | tail -n 1)"
	if [ "$seen" -eq 0 ]; then
		# No summary (a crash): count the tests that did report.
		p=$lp f=$lf
	fi
	npass=$((npass + p))
	nfail=$((nfail + f))
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		say_fail "$tag" "timed out after ${unit_timeout}s"
	elif [ "$seen" -eq 0 ]; then
		say_fail "$tag" "no cmocka summary (exit $rc): $(tail -n 3 "$out" | tr '\n' ' ')"
	elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		say_fail "$tag" "exit $rc with no failed test reported: $(tail -n 3 "$out" | tr '\n' ' ')"
	fi
	# A sanitizer that reports and recovers leaves the tests passing: its
	# report alone is a failure.
	san=$(grep -Em1 'WARNING: ThreadSanitizer|ERROR: (Address|Leak)Sanitizer|runtime error:' "$out")
	if [ -n "$san" ]; then
		say_fail "$tag" "sanitizer report: $san"
	fi
	if [ "$f" -gt 0 ]; then
		# Show cmocka's reasons for the failures.
		grep -E '^\[  ERROR   \]|error:|Failure!' "$out" | head -n 20 | sed 's/^/    /'
	fi
}

# Scenarios: their lines are already printed as they run; the results file
# is what gets counted.
remove_leftover_ns()
{
	local f=$1 ns
	[ -f "$f" ] || return 0
	for ns in $(cat "$f"); do
		if ip netns list 2>/dev/null | awk '{print $1}' | grep -qx -- "$ns"; then
			ip netns del "$ns" 2>/dev/null || true
		fi
	done
}

# left_running NAME : a flowgen still running once scenario NAME has ended
# is its leftover (the scenarios run one at a time, and nothing else here
# starts flowgen): a check of its own, since it would poll a CPU through
# the next scenarios and skew their figures. A flowgen killed at the end
# gets 2 s to exit; what is left is listed, then killed.
left_running()
{
	local i left
	for ((i = 0; i < 20; i++)); do
		left=$(pgrep -x flowgen) || break
		sleep 0.1
	done
	if [ -z "$left" ]; then
		say_pass "$1: no flowgen left running after it"
		return
	fi
	say_fail "$1: no flowgen left running after it" \
		"$(for p in $left; do printf '%s ' "$p: $(tr '\0' ' ' </proc/"$p"/cmdline 2>/dev/null | cut -c1-160);"; done)"
	# shellcheck disable=SC2086
	kill $left 2>/dev/null
	sleep 1
	# shellcheck disable=SC2086
	kill -KILL $left 2>/dev/null
}

# build_rest FUZZ-OUT : the builds the units need, then the short fuzzing
# (its lines to FUZZ-OUT, its exit status to FUZZ-OUT.rc), behind the
# scenarios (--build). make test builds the plain unit binaries with
# flowgen, which leaves their make here nothing to do.
build_rest()
{
	local rc=0 t0=$SECONDS
	MAKEFLAGS= make --no-print-directory -j"$(nproc)" unit
	echo "# unit binaries built at +$((SECONDS - t0)) s"
	MAKEFLAGS= make --no-print-directory -j"$(nproc)" SAN=address,undefined unit
	echo "# sanitizer build done at +$((SECONDS - t0)) s"
	test/unit/tsan.sh build >build/tsan.log 2>&1 ||
		echo "  TSAN    build failed (build/tsan.log): counted below as a missing binary"
	# the fuzz runs count wall-clock time: not in a window that stops
	while [ ! -e "$1.go" ]; do
		sleep 0.5
	done
	if [ -x test/fuzz/run.sh ]; then
		timeout -k 10 600 test/fuzz/run.sh short >"$1" 2>&1 || rc=$?
		echo "$rc" >"$1.rc"
	fi
	echo "# short fuzzing done at +$((SECONDS - t0)) s"
}
# start_build : build_rest in the background (--build), once
start_build()
{
	local idle=()
	[ "$build" = yes ] && [ -z "$bpid" ] || return 0
	command -v chrt >/dev/null 2>&1 && chrt --idle 0 true 2>/dev/null && idle=(chrt --idle 0)
	command -v taskset >/dev/null 2>&1 && taskset -c 0 true 2>/dev/null && idle+=(taskset -c 0)
	echo "== builds for the unit tests and the fuzzing, in the background"
	# its own process group (setsid), so that an interrupted run stops it
	setsid "${idle[@]}" nice -n 19 bash -c "$(declare -f build_rest); build_rest $work/fuzz.out" \
		</dev/null >"$work/build.out" 2>&1 &
	bpid=$!
}
# from NAME PREFIX : scenario NAME is PREFIX's or comes after it
from()
{
	[[ "$1" == "$2"* || "$1" > "$2" ]]
}
# window_build NAME : the background builds' window for scenario NAME:
# started, stopped or going on (--build)
window_build()
{
	if from "$1" "$build_resume"; then
		start_build
		[ -z "$bpid" ] || kill -CONT -- -"$bpid" 2>/dev/null
		: >"$work/fuzz.out.go"
	elif from "$1" "$build_pause"; then
		[ -z "$bpid" ] || kill -STOP -- -"$bpid" 2>/dev/null
	elif from "$1" "$build_from"; then
		start_build
	fi
}
# boost_build : the scenarios are done: what is left of the background
# builds gets every CPU and the normal priority (its processes are the
# session's; a process forked during the first pass is caught by the
# second)
boost_build()
{
	local all p i
	all=0-$(($(nproc) - 1))
	for i in 1 2; do
		for p in $(pgrep -s "$bpid"); do
			taskset -a -p -c "$all" "$p" >/dev/null 2>&1
			chrt -o -a -p 0 "$p" >/dev/null 2>&1
			renice -n 0 -p "$p" >/dev/null 2>&1
		done
	done
}

if [ "$dir" = test/e2e ]; then
	echo "== end-to-end scenarios"
else
	echo "== end-to-end scenarios of $dir/"
fi
shopt -s nullglob
scen=("$dir"/[0-9]*.sh)
shopt -u nullglob
[ ${#scen[@]} -gt 0 ] || say_fail "$dir" "no scenario $dir/[0-9]*.sh"
for s in "${scen[@]}"; do
	name=$(basename "$s")
	# shellcheck disable=SC2254
	case "$name" in
	${FG_ONLY:-*}) ;;
	*) continue ;;
	esac
	window_build "$name"
	res=$work/$name.results
	: >"$res"
	echo "-- $name"
	rc=0
	t0=$(date +%s)
	(FG_RESULTS=$res timeout -k 10 "$e2e_timeout" bash "$s" </dev/null 2>&3; exit $?) 3>&2 2>/dev/null || rc=$?
	t1=$(date +%s)
	echo "# $name took $((t1 - t0)) s"
	left_running "$name"
	remove_leftover_ns "$res.ns"
	p=$(grep -c '^PASS ' "$res")
	f=$(grep -c '^FAIL ' "$res")
	npass=$((npass + p))
	nfail=$((nfail + f))
	if { [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; } && [ $((t1 - t0)) -ge "$e2e_timeout" ]; then
		say_fail "$name" "timed out after ${e2e_timeout}s"
	elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		say_fail "$name" "scenario died (exit $rc) without reporting a failed check"
	elif [ "$rc" -eq 0 ] && [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
		say_fail "$name" "scenario reported no check at all"
	fi
done

if [ "$dir" != test/e2e ]; then
	echo "$npass passed, $nfail failed"
	[ "$nfail" -eq 0 ]
	exit
fi

start_build
if [ -n "$bpid" ]; then
	echo "== builds for the unit tests and the fuzzing"
	kill -CONT -- -"$bpid" 2>/dev/null
	: >"$work/fuzz.out.go"
	boost_build
	wait "$bpid"
	bpid=
	cat "$work/build.out"
fi

echo "== unit tests"
shopt -s nullglob
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1"
# The binaries there must be: one per test/unit/test_*.c in the plain and
# the sanitizer build, and the thread-sanitizer build of test_stats.
srcs=(test/unit/test_*.c)
if [ ${#srcs[@]} -eq 0 ]; then
	say_fail "unit" "no test/unit/test_*.c found"
fi
bins=()
for src in "${srcs[@]}"; do
	bins+=("build/unit/$(basename "$src" .c)")
done
for src in "${srcs[@]}"; do
	bins+=("build/san/unit/$(basename "$src" .c)")
done
bins+=(build/tsan/test_stats)
mkdir -p "$work/unit"
i=0
for bin in "${bins[@]}"; do
	i=$((i + 1))
	[ -f "$bin" ] && [ -x "$bin" ] && printf '%s\0%s\0' "$bin" "$work/unit/$i"
done | xargs -0 -r -n 2 -P "$(nproc)" bash -c "$(declare -f exec_unit); unit_timeout=$unit_timeout; exec_unit \"\$@\"" _
i=0
for bin in "${bins[@]}"; do
	i=$((i + 1))
	if [ -f "$bin" ] && [ -x "$bin" ]; then
		say_pass "${bin#build/}: built"
		judge_unit "$bin" "$work/unit/$i"
	else
		case "$bin" in
		build/san/*) how="make SAN=address,undefined unit" ;;
		build/tsan/*) how="test/unit/tsan.sh build; build/tsan.log: $(tail -n 3 build/tsan.log 2>/dev/null | tr '\n' ' ')" ;;
		*) how="make unit" ;;
		esac
		say_fail "${bin#build/}: built" "$bin is missing ($how)"
	fi
done

echo "== fuzz (short)"
if [ ! -x test/fuzz/run.sh ]; then
	say_fail "fuzz" "test/fuzz/run.sh is missing or not executable"
else
	out=$work/fuzz.out
	rc=0
	if [ -f "$out.rc" ]; then
		cat "$out"
		rc=$(cat "$out.rc")
	else
		timeout -k 10 600 test/fuzz/run.sh short 2>&1 | tee "$out" || rc=${PIPESTATUS[0]}
	fi
	sum=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$out" | tail -n 1)
	if [ -n "$sum" ]; then
		p=${sum%% passed*}
		f=${sum#*, }
		f=${f%% failed}
	else
		p=$(grep -c '^PASS ' "$out")
		f=$(grep -c '^FAIL ' "$out")
	fi
	npass=$((npass + p))
	nfail=$((nfail + f))
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		say_fail "fuzz" "test/fuzz/run.sh short exited $rc"
	fi
fi

echo "$npass passed, $nfail failed"
[ "$nfail" -eq 0 ]
