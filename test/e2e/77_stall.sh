#!/usr/bin/env bash
#
# 77_stall.sh — the pacer catches up after a stall (flowgen(8), STATISTICS,
# late and the workers' stalls; src/core/pace.h). On a [loop, loop] pair
# (no lab), a python3 helper stops the whole flowgen process with SIGSTOP
# and lets it go on with SIGCONT (signal(7): the worker thread stops too),
# timing each stop with a busy wait:
#  - ten stops of about 3 ms during a paced run (streams at 100 kpps for
#    1.4 s; flows at 100,000/s for 1.4 s): the worker counts at least five
#    of them as stalls (1 ms or more, the longest 2 ms or more), and
#    every frame and every flow asked for goes
#    out: tx (started) = rate x duration, +-1, and late is what fell due in
#    the worker's stalls beyond the pacer's bound (20 ms of traffic), which
#    is 0 unless the machine itself kept the worker off its CPU that long;
#  - one stop of about 100 ms, far beyond the bound, during a paced run
#    of 1 s: the worker's longest stall is the helper's stop, tx + late =
#    rate x duration (+-1), and late = rate x the stalls' time beyond the
#    bound (stall_late_ms), +-2.
# The stops count from when the helper sees the run started (flowgen's
# "GO" line, after `start`): the short ones 0.1 s to 1.18 s into their
# run, 0.12 s apart, the long one 0.4 s into its own; each run goes on
# 0.2 s or 0.5 s after its last stop has ended, far longer than the
# pacer takes to send what it owes (the bound, 2,000 frames or flows, in
# a few milliseconds). The four runs (streams, then flows) share one
# flowgen, the worker's stall figures each run's own.
#
# The late checks take the stall's length from the worker itself (the gap
# between two turns of its loop, on the TSC the pacer reads), not from the
# helper's clock: a stop lands on the worker at its next kernel entry, and
# on a guest whose virtual CPU the host holds back that can be a
# millisecond or more after kill(2) returned, and another process or the
# host can keep the worker off its CPU beyond the bound at any time; what
# falls due then is rightly late. So there is one attempt, judged as it
# is. That the worker's figure is the helper's stop is a check of its own,
# within a tenth of the stop either side (10 ms: stops were seen landing
# up to 3 ms late on a shared machine; a counter that missed the stop, or
# counted in the wrong unit, is far outside it).
#
# Against the old pacer (one burst, 32 frames, of streams credit; 256 new
# flows) the 3 ms stops lose about 270 frames and 44 flows each, and the
# 100 ms stop about 1,970 frames and 1,740 flows more than here: every
# check on late fails.

. "$(dirname "$0")/lib.sh"

need_flowgen
T0=$SECONDS
CFG=$(fg_loop_cfg)
# the pacer's bound, PACE_BOUND_MS (20)
BOUND_MS=$(awk '$1 == "#define" && $2 == "PACE_BOUND_MS" { print $3 }' "$FG_TOP/src/core/pace.h")

# stall_helper OUT PID NRUNS : beside flowgen (PID: a process it runs
# under), whose output goes to OUT; for each of NRUNS lines "STALL TAG
# short|long" flowgen echoes (0.2 s before the run starts, and "GO TAG"
# once it has), it stops flowgen as asked and writes one JSON line to
# stdout: the stops as measured from the outside (stops_ms, max_ms: from
# before kill(SIGSTOP) to after kill(SIGCONT)) and the shortest as
# measured from the inside (min_ms: after the first kill, before the
# second).
stall_helper()
{
	python3 - "$@" <<-'PY'
		import json, os, signal, sys, time

		out, tpid, nruns = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])

		def flowgen_below(top):
		    """The flowgen process below top (a subshell, timeout, stdbuf)."""
		    for _ in range(500):
		        procs = {}
		        for d in os.listdir("/proc"):
		            if d.isdigit():
		                try:
		                    with open(f"/proc/{d}/stat") as f:
		                        st = f.read()
		                except OSError:
		                    continue
		                comm = st[st.index("(") + 1:st.rindex(")")]
		                procs[int(d)] = (comm, int(st[st.rindex(")") + 2:].split()[1]))
		        for p, (comm, _) in procs.items():
		            q = p
		            while comm == "flowgen" and q in procs and q > 1:
		                if q == top:
		                    return p
		                q = procs[q][1]
		        if top not in procs:
		            return None
		        time.sleep(0.01)
		    return None

		def spin_until(t):
		    # sleep while far, spin the last 2 ms: precise, and no CPU
		    # taken from the worker meanwhile
		    while t - time.perf_counter() > 0.002:
		        time.sleep(max(0.0, min(0.001, t - time.perf_counter() - 0.002)))
		    while time.perf_counter() < t:
		        pass

		def nstats():
		    try:
		        return open(out).read().count('{"global"')
		    except OSError:
		        return 0

		def stop(pid, secs):
		    """Stop pid for secs (busy wait). Returns the stop as measured
		    from before kill(SIGSTOP) to after kill(SIGCONT) (it lasted no
		    longer) and from after the first kill to before the second
		    (no shorter, but for the time a stop takes to land)."""
		    t0 = time.perf_counter()
		    os.kill(pid, signal.SIGSTOP)
		    t1 = time.perf_counter()
		    while time.perf_counter() < t0 + secs:
		        pass
		    t2 = time.perf_counter()
		    os.kill(pid, signal.SIGCONT)
		    return time.perf_counter() - t0, t2 - t1

		pid = flowgen_below(tpid)
		seen = 0
		while pid and seen < nruns:
		    try:
		        lines = [l.split() for l in open(out) if l.startswith("STALL ")]
		    except OSError:
		        lines = []
		    if len(lines) <= seen:
		        if not os.path.exists(f"/proc/{pid}"):
		            break
		        time.sleep(0.001)
		        continue
		    _, tag, kind = lines[seen][:3]
		    seen += 1
		    try:
		        # the stops count from "GO TAG", echoed once `start` is done
		        while not any(l.startswith(f"GO {tag}") for l in open(out)):
		            if not os.path.exists(f"/proc/{pid}"):
		                raise ProcessLookupError
		            time.sleep(0.001)
		        mark = time.perf_counter()
		        stops, inner = [], []
		        for i in range(10 if kind == "short" else 1):
		            spin_until(mark + (0.1 + 0.12 * i if kind == "short" else 0.4))
		            o, n = stop(pid, 0.003 if kind == "short" else 0.100)
		            stops.append(o)
		            inner.append(n)
		        # the run's stats are out: its traffic has ended
		        while nstats() < seen and os.path.exists(f"/proc/{pid}"):
		            time.sleep(0.005)
		    except (OSError, ProcessLookupError):
		        break
		    print(json.dumps({"tag": tag, "kind": kind,
		                      "stops_ms": [round(s * 1e3, 3) for s in stops],
		                      "max_ms": round(max(stops) * 1e3, 3),
		                      "min_ms": round(min(inner) * 1e3, 3)}), flush=True)
	PY
}

# py EXPR : exit 0 when the Python expression is true
py()
{
	python3 -c "import sys; sys.exit(0 if ($1) else 1)"
}

# run_all : one flowgen process, four runs: streams with the short stops
# (s1) and the long stop (s2), then flows (f1, f2); leaves $FG_TMP/stall.out
# (flowgen) and $FG_TMP/stall.stall (helper). The worker's stall figures
# are the run's own: its longest stall is reset at each start, the others
# counted from the `clear` before it (src/dataplane/worker.c).
run_all()
{
	local o=$FG_TMP/stall.out h=$FG_TMP/stall.stall s f cmd
	# 100 kpps for 1.4 s (short stops) or 1 s (the long one): 140,000 or
	# 100,000 frames, a bound of 2,000
	s="start -f $FG_TOP/profiles/stl_64b.yaml -m 100kpps -t learn=0,drain=0.3"
	# 100,000 flows/s for 1.4 s or 1 s: 140,000 or 100,000 flows, a bound
	# of 2,000
	f="start -f $FG_TOP/profiles/udp_short.yaml -m 100000"
	cmd="echo STALL s1 short; sleep 0.2; $s -d $SHORT_S; echo GO s1; wait; stats --json; clear; \
echo STALL s2 long; sleep 0.2; $s -d $LONG_S; echo GO s2; wait; stats --json; clear; \
echo STALL f1 short; sleep 0.2; $f -d $SHORT_S; echo GO f1; wait; stats --json; clear; \
echo STALL f2 long; sleep 0.2; $f -d $LONG_S; echo GO f2; wait; stats --json"
	: >"$o"
	FG_TIMEOUT=45 fg_plain -C "$CFG" -x "$cmd" >"$o" 2>&1 &
	local fpid=$!
	stall_helper "$o" "$fpid" 4 >"$h" 2>"$h.err"
	wait "$fpid"
}

# results : one line a run, s1 s2 f1 f2 (the N-th `stats --json` of
# $FG_TMP/stall.out is the N-th run's), read by one python3: "TAG tx late
# stalls stalled_ms stall_late_ms stall_max_ms max_ms min_ms stops_ms":
# tx and late from flowgen's stats (its one worker's stalls), the rest
# from the helper's line for run TAG (stops_ms joined by commas); "none"
# for what is missing
results()
{
	python3 - "$FG_TMP/stall.out" "$FG_TMP/stall.stall" <<-'PY'
		import json, sys
		from fg_e2e_json import at, objects, show
		objs = objects(open(sys.argv[1]).read(), '{"global"')
		helper = {}
		for l in open(sys.argv[2]):
		    if l.startswith("{"):
		        o = json.loads(l)
		        helper.setdefault(o["tag"], o)

		def get(o, path):
		    try:
		        return show(at(o, path))
		    except (KeyError, IndexError, ValueError, TypeError):
		        return "none"

		def lat(o, f):
		    for r in o.get("latency", []):
		        if r["stream"] == "s64" and r["port"] == 1:
		            return str(r[f])
		    return "none"

		for n, tag in enumerate(("s1", "s2", "f1", "f2")):
		    o = objs[n] if len(objs) > n else {}
		    if tag[0] == "s":
		        v = [lat(o, "tx"), lat(o, "late")]
		    else:
		        v = [get(o, "flows.client.started"), get(o, "flows.client.late")]
		    v += [get(o, "workers.0." + f) for f in ("stalls", "stalled_ms", "stall_late_ms", "stall_max_ms")]
		    h = helper.get(tag, {})
		    v += [str(h.get(f, "none")) for f in ("max_ms", "min_ms")]
		    v.append(",".join(map(str, h.get("stops_ms", []))) or "none")
		    print(tag, *v)
	PY
}

RATE=100000    # per second, frames or flows
SHORT_S=1.4    # the short stops' runs, in seconds
LONG_S=1       # the long stop's
S_ASKED=140000 # RATE x SHORT_S
L_ASKED=100000 # RATE x LONG_S
NUM='^[0-9]+(\.[0-9]+)?$'

run_all
mapfile -t R < <(results)
for eng in streams flows; do
	what=frames i=0
	[ "$eng" = flows ] && what=flows i=2
	read -r _ S_TX S_LATE S_N S_STALLED S_BEYOND S_WMAX S_MAX S_MIN S_STOPS <<<"${R[$i]:-}"
	read -r _ L_TX L_LATE L_N L_STALLED L_BEYOND L_WMAX L_MAX L_MIN _ <<<"${R[$((i + 1))]:-}"
	echo "# $eng, 10 short stops: sent $S_TX late $S_LATE; helper's stops ${S_STOPS//,/ } ms; worker: $S_N stalls, $S_STALLED ms, the longest $S_WMAX ms, $S_BEYOND ms beyond the bound"
	echo "# $eng, a long stop: sent $L_TX late $L_LATE; helper's stop $L_MAX ms (inside $L_MIN ms); worker: $L_N stalls, $L_STALLED ms, the longest $L_WMAX ms, $L_BEYOND ms beyond the bound"
	for v in S_TX S_LATE S_N S_STALLED S_BEYOND S_WMAX S_MAX S_MIN L_TX L_LATE L_N L_STALLED L_BEYOND L_WMAX L_MAX L_MIN; do
		[[ "${!v:-}" =~ $NUM ]] || printf -v "$v" '%s' -1
	done

	# the checks of one engine, evaluated by one python3 (eval_checks)
	C=()
	# a stop that lands late (above) is a shorter stall, or none when it
	# lands 2 ms late: most of the ten, not every one, must be seen. No
	# upper bound here: after SIGCONT the worker runs again once its CPU
	# is free of the process's other threads, woken with it (a longest of
	# 9.3 ms against the helper's 3.1 was seen at 0 hugepages); that the
	# worker's figure is the stop, in its unit, is the ~100 ms stop's check
	C+=("$eng, 10 stops of ~3 ms: the worker saw them (at least 5 stalls of 1 ms or more, the longest 2 ms or more: $S_N, $S_WMAX ms; the helper's longest $S_MAX ms)"
		"5 <= $S_N and 2 <= $S_WMAX")
	C+=("$eng, 10 stops of ~3 ms: sent + late = rate x $SHORT_S s, +-1 ($S_TX + $S_LATE)"
		"abs($S_TX + $S_LATE - $S_ASKED) <= 1")
	C+=("$eng, 10 stops of ~3 ms: late = rate x the stalls' time beyond the bound ($S_BEYOND ms), +-2 ($S_LATE)"
		"$S_LATE >= 0 and $S_BEYOND >= 0 and abs($S_LATE - $RATE * $S_BEYOND / 1000) <= 2")
	if py "$S_BEYOND == 0"; then
		C+=("$eng, 10 stops of ~3 ms: every one of the $S_ASKED $what sent, +-1 ($S_TX)"
			"abs($S_TX - $S_ASKED) <= 1")
	else
		# what the machine held back beyond the bound is rightly late
		# (checked above); that none is late is then not a claim to check
		echo "# $eng, 10 stops of ~3 ms: the machine kept the worker off its CPU beyond the bound ($S_BEYOND ms): \"every one sent\" not checked"
	fi
	C+=("$eng, a ~100 ms stop: the worker's longest stall is the helper's stop, +-10 % ($L_WMAX ms; helper $L_MIN .. $L_MAX ms)"
		"$L_MIN * 0.9 <= $L_WMAX <= $L_MAX * 1.1")
	C+=("$eng, a ~100 ms stop: sent + late = rate x $LONG_S s, +-1 ($L_TX + $L_LATE)"
		"abs($L_TX + $L_LATE - $L_ASKED) <= 1")
	C+=("$eng, a ~100 ms stop: late = rate x the stalls' time beyond the bound ($L_BEYOND ms), +-2 ($L_LATE)"
		"$L_LATE > 0 and abs($L_LATE - $RATE * $L_BEYOND / 1000) <= 2")
	C+=("$eng, a ~100 ms stop: that time is the longest stall less the bound, or more ($L_BEYOND >= $L_WMAX - $BOUND_MS)"
		"$L_BEYOND >= $L_WMAX - $BOUND_MS - 0.001 and $L_WMAX > $BOUND_MS")
	eval_checks "" /dev/null "${C[@]}"
done

echo "# 77_stall: $((SECONDS - T0)) s"
finish
