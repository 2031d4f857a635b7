#!/usr/bin/env bash
#
# test/bench/run.sh — flowgen's performance figures (make bench).
#
# Each row measures flowgen and, in the same run on the same vdev and core,
# a baseline: dpdk-testpmd --forward-mode=txonly. Absolute numbers drift on
# shared machines; the ratio to the baseline is what the targets are about.
# Rows (see README):
#   a  streams, 64 B fixed frames, net_null no-rx          >= 1.25 x testpmd
#   b  the same with 2,500 address pairs and random ports  >= 0.9 x testpmd
#   c  UDP request/response flows/s on [loop, loop]        >= 5 M flows/s
#   d  TCP CPS (64 B request, 512 B response) on loop      >= 2.2 M CPS
#      c and d: every trial with no failed flow (client or server, for
#      any reason) and no foreign_server (stats --json), or the row
#      FAILED, naming the trial and the counter, whatever its rate
#   e  memory per concurrent flow: 1,000,000 flows held 10 s on [loop,
#      loop], one worker (start --active 1000000, UDP and TCP, both
#      sides alive): the resident memory's growth, hugepages included,
#      per entry (a side: client or server)              <= 64 B
#   f  64 B TX on an af_packet veth                        >= 0.9 x testpmd
#   g  the NAT lab: highest udp_short rate with no failure (the DUT's figure)
#   h  TCP CPS and UDP request/response flows/s on [loop, loop], -c 2
#      against -c 1                                        >= 1.6 x -c 1
#   i  the same over an af_packet veth pair, -c 2 against -c 1 (report only)
#   j  IPv6 streams, 84 B fixed frames (the floor), net_null no-rx, against
#      testpmd txonly's 84 B frames (IPv4 UDP: testpmd has no IPv6 txonly,
#      it is the closest mode)                            >= 1.1 x testpmd
#   k  64 B TX on a veth and TCP CPS over a veth pair, flowgen on
#      net_af_xdp against flowgen on net_af_packet, one worker (report only)
#   l  the same with 10,000,000 flows: the target held within 0.1 %
#      with 0 failed, and the bytes per flow and per side (report only)
#
# Usage: test/bench/run.sh [ROWS]   e.g. `test/bench/run.sh a b`
# The worker and testpmd's forwarding core both run on CPU 1.
#
# Each row runs BENCH_RUNS times (default 3), one run after the other; the
# table printed last gives, per row, the median of the runs' figures with
# their spread (lowest-highest), the median baseline and ratio (with its
# spread), and how many runs held the target. The README's table is that
# summary.
#
# BASE=REV (make bench BASE=REV): a regression guard. REV's flowgen is
# built in a scratch worktree, and in rows a, b, c, d, f and j each round
# (or trial) runs this tree's flowgen and REV's one after the other, so
# that a slow spell of the machine hits both; the row's "vs base" column
# is the median of the per-round ratios this/REV with their spread. A
# figure that moved shows there even when the machine's absolute numbers
# drift from day to day.
#
# Without 512 hugepages the script reserves 1024; BENCH_HUGEPAGES=keep
# leaves /proc/sys/vm/nr_hugepages as it is (a machine others use too):
# flowgen and testpmd then run on what there is, flowgen on --no-huge.

set -u
cd "$(dirname "$0")/../.."
FG=${FG:-build/flowgen}
B=test/bench
ROWS=${*:-a b c d e f g h i j k l}
SECS=${BENCH_SECS:-6}
RUNS=${BENCH_RUNS:-3}
out=$(mktemp -d /tmp/fg-bench.XXXXXX)
NS=fgb-$$
FGB=
cleanup()
{
	ip netns del "$NS" 2>/dev/null
	FG_NS_TST=fgbt-$$ FG_NS_DUT=fgbd-$$ examples/lab.sh down >/dev/null 2>&1
	[ -n "$FGB" ] && git worktree remove --force "$out/base" >/dev/null 2>&1
	rm -rf "$out"
}
trap cleanup EXIT

[ "$(id -u)" -eq 0 ] || { echo "bench: must run as root"; exit 1; }
[ -x "$FG" ] || { echo "bench: build $FG first (make)"; exit 1; }
command -v dpdk-testpmd >/dev/null || { echo "bench: dpdk-testpmd missing (apt-get install dpdk-dev)"; exit 1; }
[ "${BENCH_HUGEPAGES:-}" = keep ] || [ "$(cat /proc/sys/vm/nr_hugepages)" -ge 512 ] ||
	echo 1024 >/proc/sys/vm/nr_hugepages
if [ -n "${BASE:-}" ]; then
	git worktree add --detach -f "$out/base" "$BASE" >/dev/null 2>&1 ||
		{ echo "bench: BASE=$BASE is not a commit here"; exit 1; }
	FGB=$out/base/build/flowgen
	echo "bench: building $BASE ($(git rev-parse --short "$BASE")) in $out/base"
	make -C "$out/base" -j"$(nproc)" build/flowgen >"$out/base.log" 2>&1 ||
		{ echo "bench: $BASE does not build: $(tail -n 3 "$out/base.log")"; exit 1; }
fi

median() { sort -g | awk '{a[NR] = $1} END {if (NR) print a[int((NR + 1) / 2)]; else print 0}'; }
. "$B/lib.sh" # jget

# testpmd txonly, 60-byte frames (64 with FCS; TXPKTS sets another size),
# forwarding core on CPU 1; prints the median Tx-pps of the last seconds.
testpmd_pps()
{
	local pre=$1
	shift
	$pre timeout -s INT $((SECS + 3)) dpdk-testpmd -l 0,1 --in-memory --no-pci --log-level=4 \
		--file-prefix=fgbench "$@" -- --forward-mode=txonly --txpkts="${TXPKTS:-60}" --auto-start \
		--stats-period=1 2>&1 | grep -a 'Tx-pps' | awk '{print $2}' | tail -n 4 | median
}

# flowgen: start a profile unpaced, sample stats, print the median tx_pps.
flowgen_pps()
{
	local pre=$1 cfg=$2 prof=$3 f=$out/fg.$RANDOM
	# No learning phase (nothing to learn on these ports); 2 s of warm-up
	# before the samples, as testpmd's first seconds are skipped too.
	cmds="start -f $prof -m max -t learn=0; sleep 2"
	for _ in $(seq 1 "$SECS"); do cmds="$cmds; sleep 1; stats -g --json"; done
	$pre "$FG" -C "$cfg" -x "$cmds; stop" >"$f" 2>&1
	grep '^{' "$f" | tail -n 4 | while read -r l; do
		echo "$l" >"$f.1"
		jget "$f.1" global.tx_pps
	done | median
}

# Baseline and flowgen alternate for BENCH_ROUNDS rounds, so that a slow
# spell of the machine hits both; prints the median flowgen pps, the median
# baseline pps and the median of the per-round ratios.
# With BASE, each round also runs the base's flowgen; a fourth word is the
# median ratio this/base with its range ("-" without BASE).
ROUNDS=${BENCH_ROUNDS:-7}
paired()
{ # PREFIX CONFIG PROFILE TESTPMD-VDEV
	local pre=$1 cfg=$2 prof=$3 vdev=$4 fgs=() bases=() qs=() vs=() b f fb
	for _ in $(seq 1 "$ROUNDS"); do
		b=$(testpmd_pps "$pre" "$vdev")
		f=$(flowgen_pps "$pre" "$cfg" "$prof")
		bases+=("$b") fgs+=("$f") qs+=("$(ratio "$f" "$b")")
		printf '    round %d: flowgen %s, baseline %s, ratio %s' "${#qs[@]}" "$(mpps "$f")" \
			"$(mpps "$b")" "${qs[-1]}" >&2
		if [ -n "$FGB" ]; then
			fb=$(FG=$FGB flowgen_pps "$pre" "$cfg" "$prof")
			# a base that sent nothing cannot run the profile (f048bac
			# has no IPv6 streams): no ratio, the column stays "-"
			if awk -v x="${fb:-0}" 'BEGIN { exit !(x > 0) }'; then
				vs+=("$(ratio "$f" "$fb")")
				printf ', base %s, this/base %s' "$(mpps "$fb")" "${vs[-1]}" >&2
			else
				printf ', base sent nothing (not a profile it runs)' >&2
			fi
		fi
		echo >&2
	done
	echo "$(printf '%s\n' "${fgs[@]}" | median) $(printf '%s\n' "${bases[@]}" | median)" \
		"$(printf '%s\n' "${qs[@]}" | median) $(vs_cell "${vs[@]}")"
}

# vs_cell RATIO... : "median(lowest-highest)", or "-" for none
vs_cell()
{
	[ $# -gt 0 ] || { echo -; return; }
	printf '%s\n' "$@" | sort -g | awk '{a[NR] = $1} END {
		printf "%s(%s-%s)\n", a[int((NR + 1) / 2)], a[1], a[NR] }'
}

# flows_trial PREFIX CONFIG CORES PROFILE MULT -> "completed/s fail% started/s"
flows_trial()
{
	local f=$out/ft.$RANDOM
	$1 "$FG" -C "$2" -c "$3" -x "start -f $4 -m $5 -d $SECS; wait; sleep 1; stats -a --json" >"$f" 2>&1
	awk -v c="$(jget "$f" flows.client.completed)" -v f="$(jget "$f" flows.client.failed)" \
		-v s="$(jget "$f" flows.client.started)" -v t="$SECS" \
		'BEGIN { printf "%.0f %.3f %.0f\n", c / t, (s > 0) ? 100 * f / s : 100, s / t }'
}

# flows_median PREFIX CONFIG CORES PROFILE -> "completed/s fail%": the
# median by rate of three unpaced trials (the figure counts completed
# flows only, so failed ones do not inflate it)
flows_median()
{
	local t
	t=$(for _ in 1 2 3; do flows_trial "$1" "$2" "$3" "$4" max; done)
	printf '%s\n' "$t" | awk -v c="$3" '{ printf "    -c %s trial: %.3f M/s, %s%% failed\n", c, $1 / 1e6, $2 }' >&2
	printf '%s\n' "$t" | sort -g | sed -n 2p | awk '{ print $1, $2 }'
}

mps() { awk -v a="$1" 'BEGIN { printf "%.3f M/s", a / 1e6 }'; }

# workers_rows ROW PREFIX CONFIG TARGET : TCP CPS and UDP flows/s, -c 2
# against -c 1 on CONFIG (a TARGET of "-" reports only)
workers_rows()
{
	local r=$1 pre=$2 cfg=$3 tgt=$4 name what prof one onef two twof q v t
	for name in tcp udp; do
		prof=profiles/tcp_short.yaml what="TCP CPS"
		[ $name = udp ] && prof=$B/udp_rr.yaml what="UDP flows/s"
		read -r one onef < <(flows_median "$pre" "$cfg" 1 "$prof")
		read -r two twof < <(flows_median "$pre" "$cfg" 2 "$prof")
		q=$(ratio "$two" "$one")
		if [ "$tgt" = - ]; then
			v=measured t="report only"
		else
			v=$(verdict "$q" "$tgt" '>=') t=">= ${tgt}x -c 1"
		fi
		row "$r" "$(printf '%s, -c 2 vs -c 1 (%.1f/%.1f%% failed)' "$what" "$twof" "$onef")" \
			"$(mps "$two")" "$(mps "$one")" "$q" "$v" "$t"
	done
}

rows=()
row()
{ # name figure baseline ratio verdict target [vs-base]
	local vsb=${8:--}
	[ -n "$FGB" ] || vsb=
	rows+=("$(printf '%-3s %-44s %14s %14s %8s %-10s %s' "$@")")
	printf '%-3s %-44s %14s %14s %8s %-10s %-34s %s\n' "$1" "$2" "$3" "$4" "$5" "$6" "$7" "$vsb"
	# every run's row, for the summary (tab-separated)
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" "$6" "$7" "${8:--}" \
		>>"$out/runs.tsv"
}

# summary : one line per row of the runs in $out/runs.tsv: the median
# figure (lowest-highest), the median baseline, the median ratio
# (lowest-highest) and the runs that held the target. The figure's first
# number is what the median is taken of (its unit is kept); the label
# drops what varies from run to run (the bracketed part).
summary()
{
	python3 - "$out/runs.tsv" "${BASE:-}" <<-'PY'
		import re, statistics, sys
		rows = {}
		base = sys.argv[2]
		for line in open(sys.argv[1]):
		    f = line.rstrip("\n").split("\t")
		    if len(f) == 8:
		        rows.setdefault((f[0], re.sub(r"\(.*\)", "", f[1]).strip()), []).append(f)
		def num(s):
		    m = re.match(r"\s*([-0-9.,]+)\s*(.*)", s)
		    if not m:
		        return None, s
		    try:
		        return float(m.group(1).replace(",", "")), m.group(2)
		    except ValueError:
		        return None, s
		def med(cells, spread):
		    v = [num(c) for c in cells]
		    if any(x is None for x, _ in v):
		        return cells[0]
		    xs = sorted(x for x, _ in v)
		    u = (" " + v[0][1]) if v[0][1] else ""
		    m = statistics.median(xs)
		    fmt = (lambda x: "%.0f" % x) if all(x == int(x) for x in xs) and m == int(m) else (lambda x: "%.3g" % x if x < 100 else "%.0f" % x)
		    if not spread or len(xs) == 1:
		        return fmt(m) + u
		    return "%s%s (%s-%s)" % (fmt(m), u, fmt(xs[0]), fmt(xs[-1]))
		def vs(cells):
		    # each run's median ratio to the base: their median and range
		    xs = sorted(float(c.split("(")[0]) for c in cells if c != "-")
		    if not xs:
		        return "-"
		    return "%.2f (%.2f-%.2f)" % (statistics.median(xs), xs[0], xs[-1])
		print("%-3s %-44s %24s %14s %16s %-8s %-36s %s" % ("row", "figure", "flowgen (median, range)",
		      "baseline", "ratio (range)", "held", "target", "vs " + base if base else ""))
		for (name, label), rs in rows.items():
		    held = sum(r[5] in ("holds", "measured") for r in rs)
		    print("%-3s %-44s %24s %14s %16s %-8s %-36s %s" % (name, label[:44], med([r[2] for r in rs], True),
		          med([r[3] for r in rs], False), med([r[4] for r in rs], True),
		          "%d/%d" % (held, len(rs)), rs[0][6], vs([r[7] for r in rs]) if base else ""))
	PY
}
verdict() { awk -v a="$1" -v b="$2" -v op="$3" 'BEGIN {
	if (op == ">=") print (a + 0 >= b + 0) ? "holds" : "MISSED";
	else print (a + 0 <= b + 0) ? "holds" : "MISSED" }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0) ? a / b : 0 }'; }
mpps() { awk -v a="$1" 'BEGIN { printf "%.2f Mpps", a / 1e6 }'; }

# held_rows ROW N WHAT : N concurrent flows held 10 s, UDP then TCP, one
# worker on the ring ports (start --active N, unpaced ramp); the tables
# sized by the run's plan (no flows_max). The 1 M test's profiles: UDP a
# datagram every 5 s, TCP a byte every 5 s (its keepalives fall due during
# the ramp and the hold, as they do in 65_flows_active.sh). Reports
# the resident memory's growth (hugepages included) per flow and per
# entry (a side), against WHAT: "-" reports only, else the bytes a side
# may take at most.
held_rows()
{
	local r=$1 flows=$2 tgt=$3 lo p f fifo pid r0 r1 t0 prof ramp a held minact fails ent per side v
	lo=$((flows - flows / 1000))
	sed '/^flows_max: /d' $B/loop.yaml >"$out/held.yaml"
	rss() { awk '/^(VmRSS|HugetlbPages):/ {s += $2} END {print s * 1024}' "/proc/$1/status"; }
	for p in udp tcp; do
		f=$out/held.$r.$p
		fifo=$out/fifo.held.$p.$RANDOM
		mkfifo "$fifo"
		"$FG" -C "$out/held.yaml" -b <"$fifo" >"$f" 2>&1 &
		pid=$!
		exec 9>"$fifo"
		echo "stats -g --json" >&9
		for _ in $(seq 1 50); do grep -q '^{' "$f" && break; sleep 0.2; done
		r0=$(rss $pid)
		t0=$(date +%s.%N)
		prof=test/data/flows_million_$p.yaml
		echo "start -v -f $prof --active $flows" >&9
		# the ramp: unpaced, closed-loop; up to 50 s (the flows live 60 s)
		ramp=-1
		for _ in $(seq 1 100); do
			sleep 0.5
			echo "stats --json" >&9
			sleep 0.1
			a=$(grep '^{' "$f" | tail -n 1 | python3 -c 'import json,sys
print(json.load(sys.stdin)["flows"]["client"]["active"])' 2>/dev/null)
			if [ "${a:-0}" -ge "$lo" ]; then
				ramp=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
				break
			fi
		done
		: >"$f.hold"
		for _ in $(seq 1 11); do
			echo "stats --json" >&9
			sleep 1
			grep '^{' "$f" | tail -n 1 >>"$f.hold"
		done
		r1=$(rss $pid)
		kill -KILL $pid
		exec 9>&-
		wait $pid 2>/dev/null
		read -r held minact fails ent < <(python3 -c 'import json,sys
S = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
c = [o["flows"]["client"] for o in S]
v = [o["flows"]["server"] for o in S]
print("%.1f %d %d %d" % (c[-1]["target_held_s"], min(x["active"] for x in c),
      c[-1]["failed"] + v[-1]["failed"], c[-1]["active"] + v[-1]["active"]))' "$f.hold")
		per=$(awk -v a="$r1" -v b="$r0" -v n="$flows" 'BEGIN { printf "%.0f", (a - b) / n }')
		side=$(awk -v a="$r1" -v b="$r0" -v n="$ent" 'BEGIN { printf "%.0f", (n > 0) ? (a - b) / n : 0 }')
		v=measured
		[ "$tgt" != - ] && v=$(verdict "$side" "$tgt" '<=')
		if [ "$minact" -lt "$lo" ] || [ "$fails" -ne 0 ] || [ "$ramp" = -1 ]; then
			v=FAILED
			echo "    row $r $p FAILED: ramp $ramp s, active min $minact, failed $fails" >&2
		fi
		grep '^tables:' "$f" | sed 's/^/    /' >&2
		row "$r" "$(awk -v n="$flows" 'BEGIN { printf "%g", n / 1e6 }') M $p flows held (ramp ${ramp} s, held ${held} s, min $minact, $fails failed)" \
			"$per B/flow" "$side B/side" "-" "$v" \
			"$flows within 0.1 %, 0 failed$([ "$tgt" != - ] && echo ", <= $tgt B/side")"
	done
}

echo "flowgen $($FG -V | awk '{print $2}') bench, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs${FGB:+, against $BASE ($($FGB -V | awk '{print $2}'))}"
printf '%-3s %-44s %14s %14s %8s %-10s %-34s %s\n' row figure flowgen baseline ratio verdict target "${FGB:+vs base}"

run_row()
{ # ROW: one run of the row
	local r=$1
	case $r in
	a | b)
		prof=$B/stl_64b_fixed.yaml
		what="64 B streams, fixed fields, net_null"
		tgt=1.25
		if [ "$r" = b ]; then
			prof=$B/stl_64b_var.yaml
			what="64 B streams, 2,500 pairs + rand ports"
			tgt=0.9
		fi
		read -r fg base q vsb < <(paired "" "$B/null.yaml" "$prof" --vdev=net_null0,no-rx=1)
		row "$r" "$what" "$(mpps "$fg")" "$(mpps "$base")" "$q" "$(verdict "$q" $tgt '>=')" \
			">= ${tgt}x testpmd" "$vsb"
		;;
	c | d)
		# Unpaced first; if more than 0.1 % fail, search down (-m N cps)
		# for the highest rate that holds, as RFC 9693 asks.
		prof=$B/udp_rr.yaml
		what="UDP request/response flows/s, loop"
		tgt=5000000
		if [ "$r" = d ]; then
			prof=profiles/tcp_short.yaml
			what="TCP CPS (64 B req, 512 B resp), loop"
			tgt=2200000
		fi
		base=$(testpmd_pps "" --vdev=net_null0,no-rx=1)
		trial()
		{ # MULT [BINARY] -> "completed/s fail% started/s counters"
			# counters: jclean's "ok", or the ones that were not 0
			local f=$out/flows.$r.$RANDOM
			"${2:-$FG}" -C $B/loop.yaml -x "start -f $prof -m $1 -d $SECS; wait; sleep 1; stats -a --json" >"$f" 2>&1
			awk -v c="$(jget "$f" flows.client.completed)" -v f="$(jget "$f" flows.client.failed)" \
				-v s="$(jget "$f" flows.client.started)" -v t="$SECS" -v k="$(jclean "$f")" \
				'BEGIN { printf "%.0f %.3f %.0f %s\n", c / t, (s > 0) ? 100 * f / s : 100, s / t, k }'
		}
		# Three unpaced trials, the median by rate: one trial that a
		# busy spell of the host hits does not decide the row.
		# With BASE, each trial is followed by one of the base's.
		vs=()
		trials=$(for _ in 1 2 3; do
			trial max
			if [ -n "$FGB" ]; then trial max "$FGB" | sed 's/^/base /'; fi
		done)
		printf '%s\n' "$trials" | awk '{ b = ($1 == "base"); if (b) $0 = substr($0, 6); else n++
			printf "    %strial%s: %.3f M/s, %s%% failed, counters %s\n", b ? "base " : "",
				b ? "" : " " n, $1 / 1e6, $2, $4 }' >&2
		if [ -n "$FGB" ]; then
			mapfile -t vs < <(printf '%s\n' "$trials" | awk '$1 == "base" { printf "%.2f\n", ($2 > 0) ? m / $2 : 0; next } { m = $1 }')
			trials=$(printf '%s\n' "$trials" | grep -v '^base ')
		fi
		# Every trial of this tree's flowgen: no flow failed (either
		# side), no payload mismatched, no foreign server; one that
		# breaks a counter fails the row, whatever its rate. bad names
		# the trials and counters (the base's trials only compare).
		bad=$(printf '%s\n' "$trials" | awk '$4 != "ok" { printf "%strial %d: %s", s, NR, $4; s = "; " }')
		read -r rate failpct offered _ < <(printf '%s\n' "$trials" | sort -g | sed -n 2p)
		if [ "$(verdict "$failpct" 0.1 '<=')" != holds ]; then
			# Search between nothing and what -m max offered.
			lo=0 hi=$offered best=0 bestf=$failpct
			for _ in 1 2 3 4 5 6; do
				m=$(((lo + hi) / 2))
				[ "$m" -gt 0 ] || break
				read -r got fp _ ck < <(trial "${m}cps")
				[ "$ck" = ok ] || bad="${bad:+$bad; }trial at -m ${m}cps: $ck"
				if [ "$(verdict "$fp" 0.1 '<=')" = holds ]; then
					lo=$m best=$got bestf=$fp
				else
					hi=$m
				fi
			done
			rate=$best failpct=$bestf
		fi
		v=$(verdict "$rate" $tgt '>=')
		if [ -n "$bad" ]; then
			v=FAILED
			echo "    row $r FAILED: $bad" >&2
		fi
		row "$r" "$what ($failpct% failed${bad:+; $bad})" \
			"$(awk -v a="$rate" 'BEGIN { printf "%.3f M/s", a / 1e6 }')" \
			"$(mpps "$base")" "-" "$v" ">= $(awk -v t=$tgt 'BEGIN { print t / 1e6 }') M/s, 0 failed/bad/foreign" \
			"$(vs_cell "${vs[@]}")"
		;;
	e)
		held_rows e 1000000 64
		;;
	l)
		held_rows l 10000000 -
		;;
	f)
		ip netns add "$NS"
		ip -n "$NS" link add fgb0 type veth peer name fgb1
		ip -n "$NS" link set fgb0 up
		ip -n "$NS" link set fgb1 up
		# Port 1 is a null sink: like testpmd, flowgen only sends on fgb0
		# and nothing reads fgb1 back.
		cat >"$out/veth.yaml" <<-EOF
			interfaces: ['--vdev=net_af_packet0,iface=fgb0', '--vdev=net_null1,no-rx=1']
			port_info:
			  - {ip: 198.18.1.2, default_gw: 198.18.1.1, dest_mac: '02:00:00:00:00:02'}
			  - {ip: 198.19.1.2, default_gw: 198.19.1.1, dest_mac: '02:00:00:00:00:01'}
			platform: {master_thread_id: 0, dual_if: [{socket: 0, threads: [1]}]}
		EOF
		read -r fg base q vsb < <(paired "ip netns exec $NS" "$out/veth.yaml" $B/stl_64b_fixed.yaml \
			--vdev=net_af_packet0,iface=fgb0)
		row f "64 B TX on an af_packet veth" "$(mpps "$fg")" "$(mpps "$base")" "$q" \
			"$(verdict "$q" 0.9 '>=')" ">= 0.9x testpmd" "$vsb"
		ip netns del "$NS"
		;;
	g)
		# Binary search on -m for the highest udp_short rate with no failed flow.
		export FG_NS_TST=fgbt-$$ FG_NS_DUT=fgbd-$$
		examples/lab.sh up nat >/dev/null
		sed "s/iface=fg0/iface=fg0/" examples/lab.yaml >"$out/lab.yaml"
		# A step holds when no flow failed and the offered rate was
		# achieved (started within 1 % of -m x 5 s): the tester must not
		# be what limits the figure.
		lo=1000 hi=200000 best=0 bestcps=0
		while [ $((hi - lo)) -gt $((lo / 10)) ]; do
			m=$(((lo + hi) / 2))
			f=$out/nat.$m
			ip netns exec "$FG_NS_TST" "$FG" -C "$out/lab.yaml" \
				-x "arp; start -f profiles/udp_short.yaml -m $m -d 5; wait; sleep 1; stats -a --json" >"$f" 2>&1
			s=$(jget "$f" flows.client.started)
			fl=$(jget "$f" flows.client.failed)
			if [ "${s:-0}" -ge $((m * 5 * 99 / 100)) ] && [ "${fl:-1}" -eq 0 ]; then
				best=$m lo=$m bestcps=$((s / 5))
			else
				hi=$m
			fi
		done
		examples/lab.sh down >/dev/null
		row g "NAT lab: udp_short, no failed flow (-m $best)" "$bestcps CPS" "-" "-" "measured" \
			"the Linux DUT's figure"
		;;
	h)
		# Two workers per pair against one on the ring ports; on a
		# machine with fewer than 3 CPUs the second worker shares a CPU
		# (flowgen warns), which caps what the ratio can reach.
		sed 's/threads: \[1\]/threads: [1, 2]/' $B/loop.yaml >"$out/loop2.yaml"
		workers_rows h "" "$out/loop2.yaml" 1.6
		;;
	i)
		# The same over a veth pair: each port an af_packet socket per
		# worker queue (the kernel's fanout spreads what arrives).
		ip netns add "$NS"
		ip -n "$NS" link add fgb0 type veth peer name fgb1
		ip -n "$NS" link set fgb0 up
		ip -n "$NS" link set fgb1 up
		cat >"$out/veth2.yaml" <<-EOF
			interfaces: ['--vdev=net_af_packet0,iface=fgb0', '--vdev=net_af_packet1,iface=fgb1']
			port_info:
			  - {ip: 198.18.1.2, default_gw: 198.18.1.1, dest_mac: '02:00:00:00:00:02'}
			  - {ip: 198.19.1.2, default_gw: 198.19.1.1, dest_mac: '02:00:00:00:00:01'}
			platform: {master_thread_id: 0, dual_if: [{socket: 0, threads: [1, 2]}]}
			mbufs: 131072
			flows_max: 65536
		EOF
		workers_rows i "ip netns exec $NS" "$out/veth2.yaml" -
		ip netns del "$NS"
		;;
	j)
		# testpmd's txonly sends IPv4 UDP only: the baseline is its
		# frames of the same size (80 bytes, 84 with FCS)
		read -r fg base q vsb < <(TXPKTS=80 paired "" "$B/null.yaml" "$B/stl_84b6.yaml" \
			--vdev=net_null0,no-rx=1)
		row j "84 B IPv6 streams, fixed fields, net_null" "$(mpps "$fg")" "$(mpps "$base")" \
			"$q" "$(verdict "$q" 1.1 '>=')" ">= 1.1x testpmd (IPv4 txonly, 84 B)" "$vsb"
		;;
	k)
		# flowgen against flowgen: the same veths, one worker, net_af_xdp
		# (native XDP on the veth, README "Ports") or net_af_packet
		ip netns add "$NS"
		ip -n "$NS" link add fgb0 type veth peer name fgb1
		ip -n "$NS" link set fgb0 up
		ip -n "$NS" link set fgb1 up
		local kind
		for kind in xdp packet; do
			cat >"$out/k_tx_$kind.yaml" <<-EOF
				interfaces: ['--vdev=net_af_${kind}0,iface=fgb0', '--vdev=net_null1,no-rx=1']
				port_info:
				  - {ip: 198.18.1.2, default_gw: 198.18.1.1, dest_mac: '02:00:00:00:00:02'}
				  - {ip: 198.19.1.2, default_gw: 198.19.1.1, dest_mac: '02:00:00:00:00:01'}
				platform: {master_thread_id: 0, dual_if: [{socket: 0, threads: [1]}]}
				mbufs: 65536
			EOF
			sed "s/net_null1,no-rx=1/net_af_${kind}1,iface=fgb1/" "$out/k_tx_$kind.yaml" \
				>"$out/k_pair_$kind.yaml"
		done
		local x a xs=() as=() qs=()
		for _ in $(seq 1 "$ROUNDS"); do
			a=$(flowgen_pps "ip netns exec $NS" "$out/k_tx_packet.yaml" $B/stl_64b_fixed.yaml)
			x=$(flowgen_pps "ip netns exec $NS" "$out/k_tx_xdp.yaml" $B/stl_64b_fixed.yaml)
			as+=("$a") xs+=("$x") qs+=("$(ratio "$x" "$a")")
			printf '    round %d: af_xdp %s, af_packet %s, ratio %s\n' "${#qs[@]}" "$(mpps "$x")" \
				"$(mpps "$a")" "${qs[-1]}" >&2
		done
		row k "64 B TX on a veth, af_xdp vs af_packet" \
			"$(mpps "$(printf '%s\n' "${xs[@]}" | median)")" \
			"$(mpps "$(printf '%s\n' "${as[@]}" | median)")" \
			"$(printf '%s\n' "${qs[@]}" | median)" measured "report (baseline: af_packet)"
		# TCP: unpaced trials, af_xdp and af_packet alternating as the
		# rounds above; the median trial of each (and the worst failure)
		local xt=() at=() xf=0 af=0 t
		for _ in $(seq 1 "$ROUNDS"); do
			t=$(flows_trial "ip netns exec $NS" "$out/k_pair_xdp.yaml" 1 profiles/tcp_short.yaml max)
			xt+=("${t%% *}") xf=$(printf '%s\n%s\n' "$xf" "$(echo "$t" | cut -d' ' -f2)" | sort -g | tail -n 1)
			a=$t
			t=$(flows_trial "ip netns exec $NS" "$out/k_pair_packet.yaml" 1 profiles/tcp_short.yaml max)
			at+=("${t%% *}") af=$(printf '%s\n%s\n' "$af" "$(echo "$t" | cut -d' ' -f2)" | sort -g | tail -n 1)
			printf '    round %d: TCP CPS af_xdp %s, af_packet %s\n' "${#xt[@]}" "$(mps "${a%% *}")" \
				"$(mps "${t%% *}")" >&2
		done
		x=$(printf '%s\n' "${xt[@]}" | median) a=$(printf '%s\n' "${at[@]}" | median)
		row k "$(printf 'TCP CPS on a veth pair, af_xdp vs af_packet (%.1f/%.1f%% failed)' "$xf" "$af")" \
			"$(mps "$x")" "$(mps "$a")" "$(ratio "$x" "$a")" measured "report (baseline: af_packet)"
		ip netns del "$NS"
		;;
	*) echo "bench: unknown row '$r'" ;;
	esac
}

for r in $ROWS; do
	for k in $(seq 1 "$RUNS"); do
		[ "$RUNS" -gt 1 ] && echo "# row $r, run $k of $RUNS" >&2
		run_row "$r"
	done
done
echo
echo "median of $RUNS runs per row (BENCH_RUNS), lowest-highest in brackets:"
summary
echo
echo "command: ${BASE:+BASE=$BASE }BENCH_RUNS=$RUNS test/bench/run.sh $ROWS"
