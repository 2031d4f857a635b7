#!/usr/bin/env bash
#
# run.sh [short|long] — build and run every libFuzzer harness test/fuzz/fuzz_*.c.
#
#   short  about 4 s per harness; part of `make test` (through test/run.sh)
#   long   10 minutes or 10 M executions per harness (`make fuzz`)
#
# Each harness is compiled with clang, libFuzzer, ASan and UBSan together with
# the src/*.c files its header comment names (a harness that only needs pure
# modules names only those, and none of them starts EAL), and linked against
# the project's libraries. The binaries go to build/fuzz/fuzz_NAME (their
# objects, each source compiled once for every harness that names it, to
# build/fuzz/obj), the growing corpora to build/fuzz/corpus-NAME, logs to
# build/fuzz/NAME.log. Compilers, links, then runs, go as many at once as
# there are CPUs (each harness still fuzzes for its own time).
#
# Seeds: cfg from test/data/cfg_*.yaml, trex_cfg.yaml, e2e_*.yaml and
# examples/*.yaml; prof from test/data/prof_*.yaml and profiles/*.yaml; pkt
# from frames made by src/pkt.c's own builders; otg from test/data/otg_*.json
# (OTG configs). Every input that ever
# crashed a harness is kept under test/fuzz/regress/NAME/ and replayed first,
# in both modes, so a fixed bug stays fixed (while one still crashes, that
# harness is not fuzzed further: it would only find the same bug again).
#
# Output: one line per check, `PASS name` or `FAIL name: reason` (a crash
# names the saved input and the sanitizer's summary), then `N passed,
# N failed`. Exit 0 only when nothing failed.
#
# Environment: FG_FUZZ_TIME (seconds per harness, overrides the mode),
# FG_FUZZ_ONLY (a glob of harness names, e.g. FG_FUZZ_ONLY=pkt).

set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1

mode=${1:-short}
case "$mode" in
short)
	secs=${FG_FUZZ_TIME:-4}
	limits=(-max_total_time="$secs")
	;;
long)
	secs=${FG_FUZZ_TIME:-600}
	limits=(-runs=10000000 -max_total_time="$secs")
	;;
*)
	echo "usage: $0 [short|long]" >&2
	exit 64
	;;
esac

out=build/fuzz
mkdir -p "$out"
npass=0
nfail=0

pass()
{
	npass=$((npass + 1))
	echo "PASS $1"
}

fail()
{
	nfail=$((nfail + 1))
	echo "FAIL $1: $2"
}

finish()
{
	echo "$npass passed, $nfail failed"
	[ "$nfail" -eq 0 ]
	exit
}

CC=${FUZZ_CC:-clang}
PKGS="libdpdk yaml-0.1 libedit ncursesw jansson libpcap"
if ! command -v "$CC" >/dev/null 2>&1; then
	fail "fuzz build" "$CC not found (make deps installs clang)"
	finish
fi
if ! cflags=$(pkg-config --cflags libdpdk) || ! libs=$(pkg-config --libs $PKGS); then
	fail "fuzz build" "pkg-config does not know $PKGS"
	finish
fi
# Every header folder (the Makefile's INC_ALL): a harness may include any.
INCS=(-Iinclude -Isrc/core -Isrc/config -Isrc/dataplane -Isrc/control -Isrc/cmd -Isrc/console -Isrc/api)
# -fno-sanitize-recover: undefined behaviour is a crash, not a log line.
# shellcheck disable=SC2206
CFLAGS=(-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -g -O1 -std=gnu11
	"${INCS[@]}" $cflags -DALLOW_EXPERIMENTAL_API)
# shellcheck disable=SC2206
LIBS=($libs -lm)

export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# The src/*.c files a harness names in its header comment (the first
# comment block of the file).
harness_srcs()
{
	sed -n '1,/\*\//p' "$1" | grep -oE 'src/([a-z]+/)?[A-Za-z0-9_]*\.c' | sort -u
}

# obj SRC : the object of SRC (a harness or a src/ file) under $out/obj
obj()
{
	local o=${1%.c}.o
	echo "$out/obj/${o//\//_}"
}

# compile SRC : $(obj SRC), unless it is newer than SRC, every header and
# this script; its compiler output in $(obj SRC).log. Every harness is
# built with the same flags, so a file that several harnesses name (cfg.c,
# the YAML and profile parsers) is compiled once, not once per harness.
compile()
{
	local src=$1 o f
	o=$(obj "$src")
	if [ -f "$o" ]; then
		for f in "$src" include/*.h src/*/*.h "$0"; do
			[ "$f" -nt "$o" ] && break
		done
		[ "$f" -nt "$o" ] || return 0
	fi
	rm -f "$o"
	"$CC" "${CFLAGS[@]}" -c -o "$o" "$src" >"$o.log" 2>&1
}

# build NAME SRC... : link build/fuzz/fuzz_NAME from the objects of its
# harness and SRCs, unless it is newer than them; the compiler and linker
# output of all of them in NAME.build.log
build()
{
	local name=$1 bin=$out/fuzz_$1 log=$out/$1.build.log f o objs=() stale=no rc=0
	shift
	: >"$log"
	for f in "test/fuzz/fuzz_$name.c" "$@"; do
		o=$(obj "$f")
		cat "$o.log" >>"$log" 2>/dev/null
		[ -f "$o" ] || rc=1
		objs+=("$o")
		[ "$o" -nt "$bin" ] && stale=yes
	done
	[ "$rc" -eq 0 ] || return 1
	[ -x "$bin" ] && [ "$stale" = no ] && return 0
	"$CC" "${CFLAGS[@]}" -o "$bin" "${objs[@]}" "${LIBS[@]}" >>"$log" 2>&1
}

# Frames for the pkt corpus, made by pkt.c's and pkt6.c's own builders:
# UDP, TCP SYN with MSS, TCP with data, ARP request and reply, ICMP echo,
# the same over IPv6, Neighbour Solicitation and Advertisement, and a
# tagged (802.1Q) UDP frame. The harness
# reads a raw frame from inputs whose first byte is even.
pkt_seeds()
{
	local dir=$1 gen=$out/pkt_seeds
	if [ ! -x "$gen" ] || [ src/core/pkt.c -nt "$gen" ] || [ src/core/pkt6.c -nt "$gen" ] ||
		[ "$0" -nt "$gen" ]; then
		"$CC" -g -O1 -std=gnu11 "${INCS[@]}" $cflags -DALLOW_EXPERIMENTAL_API -x c -o "$gen" - \
			src/core/pkt.c src/core/pkt6.c "${LIBS[@]}" >"$out/pkt_seeds.log" 2>&1 <<-'EOF' || return 1
			#include <stdio.h>
			#include "pkt6.h"
			static void put(const char *dir, const char *name, const uint8_t *f, unsigned len)
			{
				char path[512];
				FILE *o;
				snprintf(path, sizeof(path), "%s/seed-%s", dir, name);
				o = fopen(path, "wb");
				if (!o)
					return;
				fputc(0, o); /* even: a raw frame follows */
				fwrite(f, 1, len, o);
				fclose(o);
			}
			int main(int argc, char **argv)
			{
				static uint8_t f[2048];
				struct rte_ether_addr a = {{2, 0, 0, 0, 0, 1}}, b = {{2, 0, 0, 0, 0, 2}};
				uint32_t s = 0xc6120001, d = 0xc6130001; /* 198.18.0.1, 198.19.0.1 */
				if (argc < 2)
					return 64;
				put(argv[1], "udp", f, pkt_build_udp(f, &a, &b, s, d, 1024, 4321, 18));
				put(argv[1], "syn", f, pkt_build_tcp(f, &a, &b, s, d, 1024, 80, 1, 0,
								     RTE_TCP_SYN_FLAG, 65535, 1460, 0));
				put(argv[1], "tcp", f, pkt_build_tcp(f, &a, &b, s, d, 1024, 80, 2, 7,
								     RTE_TCP_ACK_FLAG, 65535, 0, 64));
				put(argv[1], "arpreq", f, pkt_build_arp(f, RTE_ARP_OP_REQUEST, &a, s, &b, d));
				put(argv[1], "arprep", f, pkt_build_arp(f, RTE_ARP_OP_REPLY, &a, s, &b, d));
				put(argv[1], "echo", f, pkt_build_echo(f, &a, &b, s, d, 7, 1, 56, 0));
				/* 2001:2::1 and 2001:2:1::1 (RFC 5180's range) */
				static const uint8_t s6[16] = {0x20, 1, 0, 2, [15] = 1};
				static const uint8_t d6[16] = {0x20, 1, 0, 2, 0, 1, [15] = 1};
				put(argv[1], "udp6", f, pkt6_build_udp(f, &a, &b, s6, d6, 1024, 4321, 18));
				put(argv[1], "syn6", f, pkt6_build_tcp(f, &a, &b, s6, d6, 1024, 80, 1, 0,
								       RTE_TCP_SYN_FLAG, 65535, 1440, 0));
				put(argv[1], "echo6", f, pkt6_build_echo(f, &a, &b, s6, d6, 7, 1, 56, 0));
				put(argv[1], "ns", f, pkt6_build_ns(f, &a, s6, d6));
				put(argv[1], "na", f, pkt6_build_na(f, &a, &b, d6, s6, true));
				put(argv[1], "udpvlan", f,
				    pkt_vlan_push(f, pkt_build_udp(f, &a, &b, s, d, 1024, 4321, 18), 100));
				return 0;
			}
		EOF
	fi
	"$gen" "$dir"
}

# seed NAME DIR : copy the harness's seed inputs into its corpus
seed()
{
	local f
	case "$1" in
	cfg)
		for f in test/data/cfg_*.yaml test/data/trex_cfg.yaml test/data/e2e_*.yaml \
			examples/*.yaml; do
			[ -f "$f" ] && cp -n "$f" "$2/seed-$(basename "$f")"
		done
		;;
	prof)
		for f in test/data/prof_*.yaml test/data/flows_*.yaml profiles/*.yaml; do
			[ -f "$f" ] && cp -n "$f" "$2/seed-$(basename "$f")"
		done
		;;
	pkt)
		pkt_seeds "$2" || echo "# pkt seeds: generator did not build, see $out/pkt_seeds.log"
		;;
	otg)
		for f in test/data/otg_*.json; do
			[ -f "$f" ] && cp -n "$f" "$2/seed-$(basename "$f")"
		done
		;;
	esac
	return 0
}

# The sanitizer's or libFuzzer's one-line reason, and the first frame in src/.
crash_reason()
{
	local log=$1 why where
	why=$(grep -m1 -E '^SUMMARY: |ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:' "$log" |
		sed 's/^==[0-9]*==//' | cut -c1-200)
	where=$(grep -m1 -E '^ *#[0-9]+ .* in [A-Za-z_0-9]+ .*/src/([a-z]+/)?[a-z_0-9]+\.c:[0-9]+' "$log" |
		sed -E 's/.* in ([A-Za-z_0-9]+) .*\/(src\/([a-z]+\/)?[a-z_0-9]+\.c:[0-9]+).*/\1 (\2)/')
	[ -z "$where" ] && where=$(grep -m1 -E '^ *#[0-9]+ .* in [A-Za-z_0-9]+ ' "$log" |
		sed -E 's/.* in ([A-Za-z_0-9]+) .*/\1/')
	echo "${why:-exit without a sanitizer report}${where:+ in $where}"
}

# The harnesses to run (FG_FUZZ_ONLY: a glob of their names).
shopt -s nullglob
names=()
for h in test/fuzz/fuzz_*.c; do
	name=$(basename "$h" .c)
	name=${name#fuzz_}
	# shellcheck disable=SC2254
	case "$name" in
	${FG_FUZZ_ONLY:-*}) names+=("$name") ;;
	esac
done

# Build them all first, as many compilers at once as there are CPUs: on
# a fresh clone the builds are most of a short run's time. First every
# object any harness needs (each once), then the links. Each build's
# status goes to NAME.build.rc.
mkdir -p "$out/obj"
declare -A want=()
for name in "${names[@]}"; do
	want["test/fuzz/fuzz_$name.c"]=1
	while read -r f; do
		want["$f"]=1
	done < <(harness_srcs "test/fuzz/fuzz_$name.c")
done
for f in "${!want[@]}"; do
	compile "$f" &
	while [ "$(jobs -rp | wc -l)" -ge "$(nproc)" ]; do
		wait -n
	done
done
wait
for name in "${names[@]}"; do
	mapfile -t srcs < <(harness_srcs "test/fuzz/fuzz_$name.c")
	(
		rc=0
		build "$name" "${srcs[@]}" || rc=$?
		echo "$rc" >"$out/$name.build.rc"
	) &
	while [ "$(jobs -rp | wc -l)" -ge "$(nproc)" ]; do
		wait -n
	done
done
wait

# fuzz_one NAME : the regression inputs, then the fuzzing run, of one
# harness; prints its PASS and FAIL lines.
fuzz_one()
{
	local name=$1 bin=$out/fuzz_$1 reg regs log bad corpus arts rc runs crash
	if [ "$(cat "$out/$name.build.rc" 2>/dev/null)" != 0 ]; then
		fail "fuzz $name: build" "$(grep -m3 -E 'error|undefined reference' "$out/$name.build.log" |
			tr '\n' ' ' | cut -c1-300) (log $out/$name.build.log)"
		return
	fi

	# Inputs that crashed before must not crash now.
	reg=test/fuzz/regress/$name
	regs=("$reg"/*)
	if [ ${#regs[@]} -gt 0 ]; then
		log=$out/$name.regress.log
		if "$bin" -timeout=25 "${regs[@]}" >"$log" 2>&1; then
			pass "fuzz $name: ${#regs[@]} regression input(s)"
		else
			bad=$(awk '/^Running: /{f=$2} /ERROR|runtime error|SUMMARY/{print f; exit}' "$log")
			fail "fuzz $name: regression" "${bad:-?}: $(crash_reason "$log") (log $log)"
			# Fuzzing on would only find the same bug again.
			return
		fi
	fi

	corpus=$out/corpus-$name
	arts=$out/artifacts-$name
	mkdir -p "$corpus" "$arts"
	seed "$name" "$corpus"
	log=$out/$name.log
	rc=0
	timeout -k 10 $((secs + 60)) "$bin" "${limits[@]}" -timeout=25 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$arts/" "$corpus" >"$log" 2>&1 || rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n1)
	crash=$(grep -m1 -oE "Test unit written to [^ ]+" "$log" | sed 's/Test unit written to //')
	if [ -n "$crash" ] && [ -f "$crash" ]; then
		mkdir -p "$reg"
		cp "$crash" "$reg/"
		fail "fuzz $name" "$(crash_reason "$log"); input $crash (kept as $reg/$(basename "$crash")), log $log"
	elif [ "$rc" -ne 0 ]; then
		fail "fuzz $name" "exit $rc: $(crash_reason "$log") (log $log)"
	elif [ -z "$runs" ] || [ "$runs" -eq 0 ]; then
		fail "fuzz $name" "no input was executed (log $log)"
	else
		pass "fuzz $name: $runs runs in ${secs}s, corpus $(find "$corpus" -type f | wc -l) inputs"
	fi
}

# The harnesses run as many at once as there are CPUs, each for its own
# time; their lines are printed in order once all have run.
for name in "${names[@]}"; do
	fuzz_one "$name" >"$out/$name.result" 2>&1 &
	while [ "$(jobs -rp | wc -l)" -ge "$(nproc)" ]; do
		wait -n
	done
done
wait
for name in "${names[@]}"; do
	cat "$out/$name.result"
	npass=$((npass + $(grep -c '^PASS ' "$out/$name.result")))
	nfail=$((nfail + $(grep -c '^FAIL ' "$out/$name.result")))
done

finish
