#!/usr/bin/env bash
#
# test/bench/pgo-train.sh FLOWGEN — the training run of a profile-guided
# build (make PGO=1, README "Features and figures"). FLOWGEN is the
# instrumented build (-fprofile-generate): it runs the traffic of make
# bench's rows c (UDP request/response) and d (TCP connections) on the
# bench's loop pair, for 6 s in all, and on exit writes the branch and
# call counts GCC's second build optimises for. Code the training does not
# run (the streams engine, af_packet and af_xdp ports, NAT learning, the
# REPL) is optimised as without feedback (-fprofile-partial-training).
#
# The streams engine is left out on purpose: trained on rows a, b and j's
# traffic as well, the second build sent 5-9 % fewer frames on rows a and
# j than the plain build, and the streams' idle receive polls (net_null
# receives nothing) outweighed the flows' received bursts, so that row d
# gained nothing (0.98-1.03 of the plain build in three alternated runs).
# Untrained, the streams rows read within a few percent of the plain
# build (README).
#
# The training is checked: a run in which a flow failed or none completed
# stops the build, since its counts would steer the optimiser away from
# the paths it is meant to speed up. Runs as root (DPDK); without
# hugepages flowgen runs on --no-huge.

set -u
cd "$(dirname "$0")/../.."
FG=${1:?usage: test/bench/pgo-train.sh FLOWGEN}
B=test/bench
log=$(mktemp /tmp/fg-pgo.XXXXXX)
trap 'rm -f "$log"' EXIT

fail()
{
	echo "pgo-train: $*" >&2
	tail -n 20 "$log" >&2
	exit 1
}

[ "$(id -u)" -eq 0 ] || fail "must run as root (flowgen's DPDK ports)"

. "$B/lib.sh" # jget

# Flows on the loop pair, every started flow completed: TCP connections
# for 5 s, UDP request/response for 1 s. The two share the receive path,
# and its branches are laid out for what the training ran most. In make
# bench against the plain build, with 3 s of each, row d read 1.05 and
# row c 1.11; with 5 s and 1 s, d 1.09 and c 1.07 (c is far above its
# target, d is not).
for run in "profiles/tcp_short.yaml 5" "$B/udp_rr.yaml 1"; do
	set -- $run
	"$FG" -C $B/loop.yaml -x "start -f $1 -m max -d $2; wait; stats -a --json" \
		>"$log" 2>&1 || fail "$1: flowgen exited with $?"
	c=$(jget "$log" flows.client.completed) f=$(jget "$log" flows.client.failed)
	[ "${c:-0}" -gt 0 ] 2>/dev/null && [ "${f:-1}" -eq 0 ] ||
		fail "$1: $c flows completed, $f failed"
	echo "  TRAIN   $(basename "$1" .yaml): $c flows in $2 s"
done
