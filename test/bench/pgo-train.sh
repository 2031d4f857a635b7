#!/usr/bin/env bash
#
# test/bench/pgo-train.sh FLOWGEN PROFDATA — the training run of a
# profile-guided build (make PGO=1, README "Features and figures").
# FLOWGEN is the instrumented build (clang's -fprofile-generate). It runs
# traffic that is none of make bench's rows, so that the bench's figures
# of the trained build are out of sample: flows on the bench's loop pair
# (an HTTP GET program over TCP and TCP connections over IPv6, 5 s; UDP
# flows of three IMIX-sized datagrams and UDP flows over IPv6, 1 s: the
# rows are one-datagram UDP request/response and IPv4 TCP connections)
# and streams on net_null (IMIX, a TCP SYN and ICMP echo pair, 64 B IPv6;
# 1 s each: the rows are 64 B IPv4 fixed and varied, and 84 B IPv6), each
# engine's branch and call counts to its own .profraw files, and merges
# them with llvm-profdata (LLVM_PROFDATA) into PROFDATA for the second
# build. Code the training does not run (af_packet and af_xdp ports, NAT
# learning, the REPL) is optimised as cold code. (Until 2026-12 the
# training ran the rows' own traffic: the figures of those builds were in
# sample.)
#
# The flows' counts weigh ten times the streams': code the two engines
# share (the worker loop, its receive polls) is laid out for the flows,
# whose rows are the tighter against their targets, while the streams
# engine is no longer cold. Trained on the flows alone, the streams rows
# read 0.92-0.97 of the plain build; trained on both, 0.97-1.02 (rows a
# and j, three alternated rounds) with row d unchanged (2.17-2.27 M/s
# against 2.12-2.28 for the flows-only training, same rounds). Unweighted
# (GCC, when make PGO=1 built with it) the streams' idle receive polls
# outweighed the flows' received bursts and row d gained nothing.
#
# The training is checked: a run in which a flow failed or none completed
# stops the build, since its counts would steer the optimiser away from
# the paths it is meant to speed up. Runs as root (DPDK); without
# hugepages flowgen runs on --no-huge.

set -u
cd "$(dirname "$0")/../.."
FG=${1:?usage: test/bench/pgo-train.sh FLOWGEN PROFDATA}
OUT=${2:?usage: test/bench/pgo-train.sh FLOWGEN PROFDATA}
LLVM_PROFDATA=${LLVM_PROFDATA:-llvm-profdata}
B=test/bench
log=$(mktemp /tmp/fg-pgo.XXXXXX)
raw=$(mktemp -d /tmp/fg-pgo-raw.XXXXXX)
trap 'rm -rf "$log" "$raw"' EXIT

fail()
{
	echo "pgo-train: $*" >&2
	tail -n 20 "$log" >&2
	exit 1
}

[ "$(id -u)" -eq 0 ] || fail "must run as root (flowgen's DPDK ports)"

. "$B/lib.sh" # jget

# Flows on the loop pair, every started flow completed: TCP for 5 s, UDP
# for 1 s. The two share the receive path, and its branches are laid out
# for what the training ran most. (Trained on the rows' own traffic, in
# make bench against the plain build: with 3 s of each, row d read 1.05
# and row c 1.11; with 5 s and 1 s, d 1.09 and c 1.07.)
for run in "profiles/http_get.yaml 3" "profiles/tcp_short6.yaml 2" \
	"profiles/udp_imix.yaml 0.5" "profiles/udp_short6.yaml 0.5"; do
	set -- $run
	LLVM_PROFILE_FILE=$raw/flows-%p.profraw "$FG" -C $B/loop.yaml -x "start -f $1 -m max -d $2; wait; stats -a --json" \
		>"$log" 2>&1 || fail "$1: flowgen exited with $?"
	c=$(jget "$log" flows.client.completed) f=$(jget "$log" flows.client.failed)
	[ "${c:-0}" -gt 0 ] 2>/dev/null && [ "${f:-1}" -eq 0 ] ||
		fail "$1: $c flows completed, $f failed"
	echo "  TRAIN   $(basename "$1" .yaml): $c flows in $2 s"
done

# Streams on net_null, every profile sent frames.
for p in stl_imix stl_syn_icmp stl_64b6; do
	LLVM_PROFILE_FILE=$raw/streams-%p.profraw "$FG" -C $B/null.yaml \
		-x "start -f profiles/$p.yaml -m max -t learn=0; sleep 1; stats -g --json; stop" \
		>"$log" 2>&1 || fail "$p: flowgen exited with $?"
	pps=$(jget "$log" global.tx_pps)
	awk -v x="${pps:-0}" 'BEGIN { exit !(x > 0) }' || fail "$p: no frames sent"
	echo "  TRAIN   $p: $(awk -v x="$pps" 'BEGIN { printf "%.1f", x / 1e6 }') Mpps"
done

args=()
for f in "$raw"/flows-*.profraw; do args+=("-weighted-input=10,$f"); done
for f in "$raw"/streams-*.profraw; do args+=("-weighted-input=1,$f"); done
"$LLVM_PROFDATA" merge -o "$OUT" "${args[@]}" >"$log" 2>&1 || fail "$LLVM_PROFDATA merge failed"
