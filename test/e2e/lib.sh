# lib.sh — shared helpers for the end-to-end scenarios in test/e2e/.
#
# Source it from a scenario (`. "$(dirname "$0")/lib.sh"`). Each scenario
# reports individual checks with `check`, `check_eq`, `check_ge`, `pass` and
# `fail`; each check prints one line `PASS name` or `FAIL name: reason` and
# appends it to $FG_RESULTS, which test/run.sh counts. Run on its own, a
# scenario prints its lines and exits 1 if any check failed.
#
# Lab helpers bring up the namespace lab of examples/lab.sh under names
# unique to this process (fgt-PID / fgd-PID) and always tear it down on exit.
# The namespace names are also written to $FG_RESULTS.ns so that test/run.sh
# can remove them if the scenario is killed before its EXIT trap runs.

# Debian's tools before any version manager's shims (see test/run.sh)
export PATH=/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin:$PATH

FG_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# the helpers' python3 read flowgen's JSON through test/e2e/fg_e2e_json.py
export PYTHONPATH=$FG_TOP/test/e2e${PYTHONPATH:+:$PYTHONPATH}
FG_BIN=${FG_BIN:-$FG_TOP/build/flowgen}
FG_LAB=$FG_TOP/examples/lab.sh
FG_RESULTS=${FG_RESULTS:-}
FG_NFAIL=0
FG_NPASS=0
FG_TMP=$(mktemp -d "${TMPDIR:-/tmp}/fg-e2e.XXXXXX")
FG_LAB_UP=no
FG_EXIT_HOOKS=()

# --- reporting -------------------------------------------------------------

fg_record()
{
	local line=$1
	echo "$line"
	if [ -n "$FG_RESULTS" ]; then
		echo "$line" >>"$FG_RESULTS"
	fi
}

# pass NAME
pass()
{
	if [ -n "${FG_LANE:-}" ]; then
		printf 'PASS\t%s\n' "$1" >>"$FG_LANE"
		return 0
	fi
	FG_NPASS=$((FG_NPASS + 1))
	fg_record "PASS $1"
}

# fail NAME REASON
fail()
{
	if [ -n "${FG_LANE:-}" ]; then
		printf 'FAIL\t%s\t%s\n' "$1" "$(printf '%s' "${2:-failed}" | tr '\n\t' '  ' | cut -c1-300)" >>"$FG_LANE"
		return 0
	fi
	FG_NFAIL=$((FG_NFAIL + 1))
	# A reason stays on the result line: one check, one line.
	fg_record "FAIL $1: $(printf '%s' "${2:-failed}" | tr '\n' ' ' | cut -c1-300)"
}

# lane NAME CMD... : runs CMD... in the background (a subshell), its checks
# kept in a file of their own until lane_end NAME counts them in this
# shell (a subshell's counts would be lost). Clean-up a lane needs must be
# registered with at_exit before it starts: a subshell's is lost too.
lane()
{
	local name=$1
	shift
	: >"$FG_TMP/lane.$name"
	(
		FG_LANE=$FG_TMP/lane.$name
		"$@"
		echo "END" >>"$FG_LANE"
	) &
	eval "FG_LANE_PID_$name=\$!"
}

# lane_end NAME : waits for the lane and counts its checks here; a lane
# that did not reach its end is a failure
lane_end()
{
	local name=$1 pid k n r
	eval "pid=\${FG_LANE_PID_$name:-}"
	[ -n "$pid" ] && wait "$pid"
	while IFS=$'\t' read -r k n r; do
		case "$k" in
		PASS) pass "$n" ;;
		FAIL) fail "$n" "$r" ;;
		END) return 0 ;;
		esac
	done <"$FG_TMP/lane.$name"
	fail "lane $name: ran to its end" "it stopped early; its last checks: $(tail -n 2 "$FG_TMP/lane.$name" | tr '\n\t' '  ')"
}

# check NAME CMD... : passes when CMD exits 0. CMD's output goes to
# $FG_TMP/last.out (shown, shortened, in the failure reason; in a lane,
# last.out.PID, the lane's own).
check()
{
	local name=$1 rc=0 o=$FG_TMP/last.out
	shift
	[ -n "${FG_LANE:-}" ] && o=$FG_TMP/last.out.$BASHPID
	"$@" >"$o" 2>&1 || rc=$?
	if [ $rc -eq 0 ]; then
		pass "$name"
	else
		fail "$name" "exit $rc from '$*': $(tail -n 3 "$o")"
	fi
}

# check_eq NAME EXPECTED ACTUAL
check_eq()
{
	if [ "$2" == "$3" ]; then
		pass "$1"
	else
		fail "$1" "expected '$2', got '$3'"
	fi
}

# check_ge NAME ACTUAL MIN : integers, ACTUAL >= MIN
check_ge()
{
	if [[ $2 =~ ^-?[0-9]+$ ]] && [ "$2" -ge "$3" ]; then
		pass "$1"
	else
		fail "$1" "expected >= $3, got '$2'"
	fi
}

# check_grep NAME PATTERN FILE : extended regexp, case-insensitive
check_grep()
{
	if grep -Eiq -- "$2" "$3" 2>/dev/null; then
		pass "$1"
	else
		fail "$1" "no line matching /$2/ in $(basename "$3"): $(head -c 300 "$3" 2>&1)"
	fi
}

# check_nogrep NAME PATTERN FILE
check_nogrep()
{
	if grep -Eiq -- "$2" "$3" 2>/dev/null; then
		fail "$1" "unexpected line matching /$2/: $(grep -Ei -m1 -- "$2" "$3")"
	else
		pass "$1"
	fi
}

# json_get FILE PATH : prints the value at a dotted path ("global.tx_pkts",
# "ports.1.rx_pkts"); a file holding several JSON objects (one per line or
# concatenated) is read as its last object. Exit 1 if the path is absent.
# A value read beforehand by jpre (in this shell) is answered from there.
declare -A FG_JPRE=()
json_get()
{
	if [ -n "${FG_JPRE["$1|$2"]+set}" ]; then
		[ "${FG_JPRE["$1|$2"]}" = $'\001' ] && return 1
		printf '%s\n' "${FG_JPRE["$1|$2"]}"
		return 0
	fi
	python3 - "$1" "$2" <<-'EOF'
		import sys
		from fg_e2e_json import at, last, show
		o = last(open(sys.argv[1]).read())
		try:
		    print(show(at(o, sys.argv[2])))
		except (KeyError, IndexError, ValueError, TypeError):
		    sys.exit(1)
	EOF
}

# stats_nth FILE N : the N-th `stats --json` object (1-based) of FILE, as
# one line of JSON ("{}" when FILE has fewer)
stats_nth()
{
	python3 - "$1" "$2" <<-'PY'
		import json, sys
		from fg_e2e_json import objects
		objs, n = objects(open(sys.argv[1]).read(), '{"global"'), int(sys.argv[2])
		print(json.dumps(objs[n - 1]) if len(objs) >= n else "{}")
	PY
}

# jvals FILE ARG... : several values of the last JSON object of FILE from
# one python3 (not one per value), one line each: an ARG that is a dotted
# path gives what jn gives (the value as json_get prints it, or
# "missing(PATH)"), an ARG "=EXPR" the Python expression EXPR as print
# shows it, or "?" when it fails. EXPR reads the object o, and
#   L: the file's lines that are JSON objects, in order;
#   get(N, PATH, D="missing"): PATH of L[N] (of o for N None; of the
#     last JSON object of the file named N for a string), else D;
#   lat(STREAM, PORT, FIELD): a field of o's latency row of the stream
#     received on that port;
#   seen(PATH): PATH in the last of the file's objects that has it,
#     else "missing".
# Read them with mapfile -t.
jvals()
{
	python3 - "$@" <<-'EOF'
		import sys
		from fg_e2e_json import at, last, objects, show
		t = open(sys.argv[1]).read() if sys.argv[1] else ""
		o = last(t)
		L = [last(l) for l in t.splitlines() if l.startswith("{")]
		def get(n, path, d="missing"):
		    try:
		        if isinstance(n, str):
		            return at(last(open(n).read()), path)
		        return at(o if n is None else L[n], path)
		    except (KeyError, IndexError, ValueError, TypeError, OSError):
		        return d
		def lat(s, p, f):
		    return next(r[f] for r in o["latency"] if r["stream"] == s and r["port"] == p)
		def seen(path):
		    v = "missing"
		    for x in objects(t):
		        try:
		            v = at(x, path)
		        except (KeyError, IndexError, ValueError, TypeError):
		            pass
		    return v
		for a in sys.argv[2:]:
		    if a.startswith("="):
		        try:
		            r = show(eval(a[1:]))
		        except Exception:
		            r = "?"
		    else:
		        try:
		            r = show(at(o, a))
		        except (KeyError, IndexError, ValueError, TypeError):
		            r = "missing(%s)" % a
		    print(r.replace("\n", " "))
	EOF
}

# jpre FILE PATH... : reads PATHs of FILE (its last JSON object) with one
# python3 (jvals) for the json_get calls that follow, in this shell or
# its subshells; FILE must not change after it
jpre()
{
	local f=$1 i v
	shift
	mapfile -t v < <(jvals "$f" "$@")
	[ "${#v[@]}" -eq $# ] || return 0
	for ((i = 1; i <= $#; i++)); do
		if [ "${v[$((i - 1))]}" = "missing(${!i})" ]; then
			FG_JPRE["$f|${!i}"]=$'\001'
		else
			FG_JPRE["$f|${!i}"]=${v[$((i - 1))]}
		fi
	done
}

# count_lines FILE : non-empty lines
count_lines()
{
	grep -c . "$1" 2>/dev/null || true
}

# --- clean-up --------------------------------------------------------------

# at_exit CMD : run CMD (a string, eval'd) when the scenario exits
at_exit()
{
	FG_EXIT_HOOKS+=("$1")
}

# at_exit_kill PID : on exit, end what `fg ... &` or `fg_plain ... &`
# started: PID is the subshell that runs the function, and its child,
# timeout, passes the signal on to flowgen (a kill of the subshell alone
# leaves flowgen running until its timeout)
at_exit_kill()
{
	at_exit "pkill -P $1; kill $1"
}

fg_cleanup()
{
	local rc=$? i
	for ((i = ${#FG_EXIT_HOOKS[@]} - 1; i >= 0; i--)); do
		eval "${FG_EXIT_HOOKS[$i]}" >/dev/null 2>&1 || true
	done
	if [ "$FG_LAB_UP" = yes ]; then
		"$FG_LAB" down >/dev/null 2>&1 || true
	fi
	# a shell in a tmux pane that the hooks just killed may still be
	# writing its history into FG_TMP/home: once more after it is done
	rm -rf "$FG_TMP" 2>/dev/null || { sleep 0.3; rm -rf "$FG_TMP" 2>/dev/null; } || true
	if [ $FG_NFAIL -gt 0 ]; then
		exit 1
	fi
	exit $rc
}
trap fg_cleanup EXIT
trap 'exit 130' INT TERM

# finish : the last line of a scenario
finish()
{
	echo "# $(basename "$0"): $FG_NPASS passed, $FG_NFAIL failed"
	[ $FG_NFAIL -eq 0 ]
}

# --- preconditions ---------------------------------------------------------

is_root()
{
	[ "$(id -u)" -eq 0 ]
}

# need_root NAME... : if not root, every named check fails with the reason
# and the scenario ends.
need_root()
{
	is_root && return 0
	local n
	for n in "$@"; do
		fail "$n" "needs root (network namespaces)"
	done
	exit 1
}

have_flowgen()
{
	[ -x "$FG_BIN" ]
}

# need_flowgen : without the binary, one failed check and the scenario ends
need_flowgen()
{
	have_flowgen && return 0
	fail "flowgen built" "$FG_BIN is missing (make)"
	exit 1
}

# latency_row FILE STREAM PORT FIELD : a field of the latency row of one
# stream and rx port in the last `stats --json` object of FILE; answered
# without a python3 when latency_pre has read FILE
declare -A FG_LROW=()
latency_row()
{
	if [ -n "${FG_LROW["$1|"]+set}" ]; then
		[ -n "${FG_LROW["$1|$2|$3|$4"]+set}" ] || return 1
		printf '%s\n' "${FG_LROW["$1|$2|$3|$4"]}"
		return 0
	fi
	python3 - "$1" "$2" "$3" "$4" <<-'PY'
		import json, sys
		t = open(sys.argv[1]).read()
		j = t.rfind('{"global"')
		o = json.JSONDecoder().raw_decode(t, j)[0] if j >= 0 else {}
		for r in o.get("latency", []):
		    if r["stream"] == sys.argv[2] and r["port"] == int(sys.argv[3]):
		        print(r[sys.argv[4]])
		        sys.exit(0)
		sys.exit(1)
	PY
}

# latency_pre FILE : reads every latency row of FILE (its last `stats
# --json` object) with one python3, for the latency_row calls on FILE
# that follow, in this shell or its subshells (a python3 per figure cost
# 30 ms or more each, dozens per scenario); FILE must not change until
# latency_pre reads it again
latency_pre()
{
	local k s p f v rows=()
	for k in "${!FG_LROW[@]}"; do
		[ "${k%%|*}" = "$1" ] && unset "FG_LROW[$k]"
	done
	mapfile -t rows < <(python3 - "$1" <<-'PY'
		import json, sys
		t = open(sys.argv[1]).read()
		j = t.rfind('{"global"')
		o = json.JSONDecoder().raw_decode(t, j)[0] if j >= 0 else {}
		seen = set()
		for r in o.get("latency", []):
		    if (r["stream"], r["port"]) in seen:
		        continue
		    seen.add((r["stream"], r["port"]))
		    for f, v in r.items():
		        print("%s\t%s\t%s\t%s" % (r["stream"], r["port"], f, str(v).replace("\n", " ")))
		print("END")
	PY
	)
	# a file python3 could not read is left to latency_row's own python3
	[ "${#rows[@]}" -gt 0 ] && [ "${rows[-1]}" = END ] || return 0
	unset 'rows[-1]'
	for k in "${rows[@]}"; do
		IFS=$'\t' read -r s p f v <<<"$k"
		FG_LROW["$1|$s|$p|$f"]=$v
	done
	FG_LROW["$1|"]=1
}

# wait_file FILE SECONDS : until FILE exists and is not empty
wait_file()
{
	local i
	for ((i = 0; i < ${2:-10} * 5; i++)); do
		[ -s "$1" ] && return 0
		sleep 0.2
	done
	return 1
}

# --- a terminal in tmux ------------------------------------------------------

# tmux_start WIDTH HEIGHT [SCROLLBACK] : a private tmux server running a plain
# shell (nothing of the caller's environment but PATH, HOME=$H) in a pane of
# that size; torn down on exit. Then T (tmux on that server), screen, keys
# and wait_screen work on the pane.
tmux_start()
{
	TMUX_SOCK=fge2e-$$
	TMUX_PANE=main
	TMUX_SCROLL=${3:-0}
	at_exit "tmux -L $TMUX_SOCK kill-server"
	T -f /dev/null new-session -d -s "$TMUX_PANE" -x "$1" -y "$2" \
		"env -i HOME=$H TERM=xterm-256color LANG=C.UTF-8 PATH=$PATH bash --norc --noprofile"
	T set-option -t "$TMUX_PANE" remain-on-exit on >/dev/null
}

T()
{
	tmux -L "$TMUX_SOCK" "$@"
}

# screen : the pane's text (with TMUX_SCROLL lines of scrollback)
screen()
{
	T capture-pane -p -t "$TMUX_PANE" -S "-$TMUX_SCROLL"
}

keys()
{
	T send-keys -t "$TMUX_PANE" "$@"
}

# wait_screen PATTERN SECONDS : until the pane shows PATTERN
wait_screen()
{
	wait_screen_all "${2:-10}" "$1"
}

# wait_screen_all SECS ERE... : until one capture of the pane has a line
# matching each ERE (a redraw seen whole, not the pane cut to a new size
# before the dashboard redraws it), for up to SECS (a capture file per
# shell: lanes may wait at once)
wait_screen_all()
{
	local i secs=$1 re
	shift
	for ((i = 0; i < secs * 5; i++)); do
		[ "$i" -eq 0 ] || sleep 0.2
		screen >"$FG_TMP/screen.$BASHPID"
		for re in "$@"; do
			grep -Eq -- "$re" "$FG_TMP/screen.$BASHPID" || continue 2
		done
		return 0
	done
	return 1
}

# --- configs ---------------------------------------------------------------

# fg_loop_cfg : path of a [loop, loop] config (no lab, no kernel)
fg_loop_cfg()
{
	echo "$FG_TOP/test/data/e2e_loop.yaml"
}

# --- the lab ---------------------------------------------------------------

# lab_up [nat|router|l3] [TAG] : a private lab; sets NS_TST, NS_DUT and CFG. The
# names carry the shell's own PID (BASHPID, which is $$ in the scenario's
# shell), so a subshell started with & gets a lab of its own. With TAG,
# a further lab beside the one(s) already up (names fgt-PID-TAG,
# fgd-PID-TAG), torn down on exit as well; NS_TST and NS_DUT then name it.
lab_up()
{
	local flavour=${1:-nat} tag=${2:+-$2}
	need_root "lab up ($flavour)"
	NS_TST=fgt-$BASHPID$tag
	NS_DUT=fgd-$BASHPID$tag
	export FG_NS_TST=$NS_TST FG_NS_DUT=$NS_DUT
	if [ -n "$FG_RESULTS" ]; then
		echo "$NS_TST $NS_DUT" >>"$FG_RESULTS.ns"
	fi
	[ -z "$tag" ] || at_exit "FG_NS_TST=$NS_TST FG_NS_DUT=$NS_DUT $FG_LAB down"
	FG_LAB_UP=yes
	if ! "$FG_LAB" up "$flavour" >"$FG_TMP/lab.$BASHPID.out" 2>&1; then
		fail "lab up ($flavour)" "$(cat "$FG_TMP/lab.$BASHPID.out")"
		return 1
	fi
	# The lab's veths carry the same names in every lab instance (they live
	# inside the namespaces), so examples/lab.yaml fits as it is.
	CFG=$FG_TOP/examples/lab.yaml
	return 0
}

# lab_bg FLAVOUR TAG : a lab of its own (namespaces fgt-PID-TAG and
# fgd-PID-TAG) comes up in the background while the scenario goes on, and
# is torn down on exit; lab_use TAG (in the same shell) waits for it and
# makes it the lab of in_tst, in_dut and fg, with CFG as lab_up sets it
lab_bg()
{
	local t=fgt-$BASHPID-$2 d=fgd-$BASHPID-$2
	need_root "lab up ($1)"
	[ -z "$FG_RESULTS" ] || echo "$t $d" >>"$FG_RESULTS.ns"
	at_exit "FG_NS_TST=$t FG_NS_DUT=$d $FG_LAB down"
	FG_NS_TST=$t FG_NS_DUT=$d "$FG_LAB" up "$1" >"$FG_TMP/lab.$2.out" 2>&1 &
	eval "FG_LAB_BG_$2=\$! FG_LAB_BG_FLAVOUR_$2=\$1"
}

lab_use()
{
	local pid flavour
	eval "pid=\$FG_LAB_BG_$1 flavour=\$FG_LAB_BG_FLAVOUR_$1"
	NS_TST=fgt-$BASHPID-$1 NS_DUT=fgd-$BASHPID-$1
	export FG_NS_TST=$NS_TST FG_NS_DUT=$NS_DUT
	CFG=$FG_TOP/examples/lab.yaml
	if ! wait "$pid"; then
		fail "lab up ($flavour, $1)" "$(cat "$FG_TMP/lab.$1.out")"
		return 1
	fi
}

lab_down()
{
	"$FG_LAB" down >/dev/null 2>&1 || true
	FG_LAB_UP=no
}

# in_tst CMD... / in_dut CMD... : run in the lab's namespaces
in_tst()
{
	ip netns exec "$NS_TST" "$@"
}

in_dut()
{
	ip netns exec "$NS_DUT" "$@"
}

# dut_loss PCT : the DUT drops PCT % of what it forwards through dut1,
# both ways: netem when the kernel has it, else an nftables rule (numgen
# random); sets LOSS_UNDO, the command that takes it away
dut_loss()
{
	if in_dut tc qdisc add dev dut1 root netem loss "$1%" 2>/dev/null; then
		LOSS_UNDO="in_dut tc qdisc del dev dut1 root"
	else
		in_dut nft add table inet fgloss
		in_dut nft add chain inet fgloss lossy '{ type filter hook forward priority 0; }'
		in_dut nft add rule inet fgloss lossy oifname dut1 numgen random mod 100 lt "$1" drop
		in_dut nft add rule inet fgloss lossy iifname dut1 numgen random mod 100 lt "$1" drop
		LOSS_UNDO="in_dut nft delete table inet fgloss"
	fi
}

# dut_mac IFACE : the MAC of a DUT interface as the kernel shows it
dut_mac()
{
	ip netns exec "$NS_DUT" cat "/sys/class/net/$1/address"
}

tst_mac()
{
	ip netns exec "$NS_TST" cat "/sys/class/net/$1/address"
}

# fg ARGS... : flowgen inside the tester namespace with the lab config,
# bounded by $FG_TIMEOUT seconds (default 60). stdout is line-buffered so
# callers can watch its output file while it runs.
fg()
{
	timeout -k 5 "${FG_TIMEOUT:-60}" \
		ip netns exec "$NS_TST" stdbuf -oL -eL "$FG_BIN" -C "$CFG" "$@"
}

# fg_open OUT [ARGS...] : one flowgen in the lab's tester namespace (fg
# ARGS -b, bounded by $FG_TIMEOUT, default 60) for several runs: its
# commands come through a FIFO on fd 8 (fg_send, fg_wait, fg_run), its
# output goes to OUT.
# Sets FG_SPID. One process for several runs saves a start-up and an `arp`
# per run; `start` clears the counters, so each run's statistics are its
# own. fg_close ends it.
fg_open()
{
	FG_SOUT=$1
	shift
	rm -f "$FG_TMP/session.in"
	mkfifo "$FG_TMP/session.in"
	fg "$@" -b <"$FG_TMP/session.in" >"$FG_SOUT" 2>&1 &
	FG_SPID=$!
	at_exit_kill $FG_SPID
	exec 8>"$FG_TMP/session.in"
}

# fd_send FD LINE... : each LINE to file descriptor FD (a FIFO a flowgen
# reads its commands from), one a line; a flowgen that has ended must not
# take this shell with it (SIGPIPE)
fd_send()
{
	local fd=$1
	shift
	(
		trap '' PIPE
		printf '%s\n' "$@" >&"$fd"
	) 2>/dev/null
}

# fg_send NAME CMDS : CMDS (separated by ';' or newlines) to the flowgen
# of fg_open, followed by `echo MARK-NAME`; does not wait
fg_send()
{
	FG_SMARKS=$(grep -c "^MARK-$1\$" "$FG_SOUT" 2>/dev/null)
	fd_send 8 "$(printf '%s\n' "$2" | tr ';' '\n')" "echo MARK-$1"
}

# fg_wait NAME [SECS] [POLL] : until the flowgen of fg_open has run what
# fg_send NAME gave it (up to SECS, 60; looking every POLL seconds, 0.1);
# its output so far is then in $FG_TMP/NAME.out (the last `stats --json`
# there is this run's). False when flowgen ended or did not get there in
# time.
fg_wait()
{
	local i n
	n=$(awk -v s="${2:-60}" -v p="${3:-0.1}" 'BEGIN { print int(s / p) }')
	for ((i = 0; i < n; i++)); do
		[ "$(grep -c "^MARK-$1\$" "$FG_SOUT" 2>/dev/null)" -gt "${FG_SMARKS:-0}" ] && break
		kill -0 "$FG_SPID" 2>/dev/null || break
		sleep "${3:-0.1}"
	done
	cp "$FG_SOUT" "$FG_TMP/$1.out"
	[ "$(grep -c "^MARK-$1\$" "$FG_TMP/$1.out")" -gt "${FG_SMARKS:-0}" ]
}

# fg_run NAME CMDS [SECS] : fg_send, then fg_wait
fg_run()
{
	fg_send "$1" "$2"
	fg_wait "$1" "${3:-60}"
}

# fg_close : quit the flowgen of fg_open; FG_SRC is its exit status
fg_close()
{
	fd_send 8 quit
	exec 8>&-
	FG_SRC=0
	wait "$FG_SPID" || FG_SRC=$?
}

# check_samples NAME FILE FIELD BASE WANT... : the i-th JSON line of FILE
# (a `stats --json` sample) has FIELD (a dotted path) equal to the i-th
# WANT within 15 % of BASE (+1)
check_samples()
{
	local name=$1 file=$2 field=$3 base=$4 i=0 v want
	shift 4
	for want in "$@"; do
		i=$((i + 1))
		grep '^{' "$file" | sed -n "${i}p" >"$file.$i"
		v=$(json_get "$file.$i" "$field" || echo -1)
		if awk -v v="$v" -v w="$want" -v b="$base" 'BEGIN {
			d = v - w; if (d < 0) d = -d; exit !(v >= 0 && d <= b * 0.15 + 1) }'; then
			pass "$name: sample $i $field is $want (measured ${v%.*})"
		else
			fail "$name: sample $i $field is $want" "measured $v"
		fi
	done
}

# learn_off PROFILE : " -t learn=0,drain=0.3" for a streams profile (no
# learning phase before measured traffic, a 0.3 s drain after it: its
# callers read nothing once the last frame has left), "" for a flows one
# (flows take no such keys)
learn_off()
{
	grep -q '^mode: *streams' "$FG_TOP/$1" "$1" 2>/dev/null && echo " -t learn=0,drain=0.3"
	return 0
}

# fg_plain ARGS... : flowgen in the current namespace, no config added
fg_plain()
{
	timeout -k 5 "${FG_TIMEOUT:-60}" stdbuf -oL -eL "$FG_BIN" "$@"
}

# wait_for PATTERN FILE SECONDS [PID] : until FILE holds a line matching
# PATTERN; gives up early when process PID has ended
wait_for()
{
	local pat=$1 file=$2 secs=${3:-20} pid=${4:-} i
	for ((i = 0; i < secs * 5; i++)); do
		grep -Eq -- "$pat" "$file" 2>/dev/null && return 0
		if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then
			grep -Eq -- "$pat" "$file" 2>/dev/null
			return
		fi
		sleep 0.2
	done
	return 1
}

# bench_py EXPR FILE : evaluate a Python expression over the last `bench`
# JSON object `o` in FILE; prints the value
bench_py()
{
	python3 - "$2" "$1" <<-'PY'
		import sys
		from fg_e2e_json import last
		o = last(open(sys.argv[1]).read(), '{"bench"')
		print(eval(sys.argv[2], {"o": o, "all": all, "len": len, "abs": abs}))
	PY
}

# check_py NAME EXPR FILE : pass when bench_py EXPR FILE prints True
check_py()
{
	local v
	v=$(bench_py "$2" "$3" 2>&1)
	if [ "$v" = True ]; then pass "$1"; else fail "$1" "$2: $v"; fi
}

# eval_checks PRELUDE FILE NAME EXPR [NAME EXPR]... : each EXPR, evaluated
# by one python3 (not one per check) after PRELUDE, Python that reads the
# file sys.argv[1] and names what the expressions use (an error there fails
# every check), passes when it is True; the checks in their order
eval_checks()
{
	local pre=$1 file=$2 i v exprs=()
	shift 2
	for ((i = 2; i <= $#; i += 2)); do
		exprs+=("${!i}")
	done
	mapfile -t v < <(python3 - "$file" "$pre" "${exprs[@]}" 2>&1 <<-'PY'
		import sys, traceback
		def err(e):
		    return "".join(traceback.format_exception_only(type(e), e)).strip()
		g = {}
		try:
		    exec(sys.argv[2], g)
		    bad = None
		except Exception as e:
		    bad = err(e)
		for a in sys.argv[3:]:
		    if bad is None:
		        try:
		            r = str(eval(a, g))
		        except Exception as e:
		            r = err(e)
		    else:
		        r = bad
		    print(r.replace("\n", " "))
	PY
	)
	for ((i = 0; i < ${#exprs[@]}; i++)); do
		if [ "${v[$i]:-}" = True ]; then
			pass "${@:$((2 * i + 1)):1}"
		else
			fail "${@:$((2 * i + 1)):1}" "${exprs[$i]}: ${v[$i]:-no answer from python3}"
		fi
	done
}

# check_pys FILE NAME EXPR [NAME EXPR]... : check_py NAME EXPR FILE for
# each pair, from one python3; the same checks, in the same order
check_pys()
{
	eval_checks 'import sys
from fg_e2e_json import last
o = last(open(sys.argv[1]).read(), "{\"bench\"")' "$@"
}

# svg_check NAME SVG JSON PYTHON : the picture parses as SVG and PYTHON
# (over s, the root; marks(); bars(); o, the last JSON object of JSON) holds
svg_check()
{
	local v
	v=$(python3 - "$2" "$3" "$4" <<-'PY' 2>&1
		import sys
		import xml.etree.ElementTree as E
		from fg_e2e_json import last
		NS = '{http://www.w3.org/2000/svg}'
		s = E.parse(sys.argv[1]).getroot()
		assert s.tag == NS + 'svg', s.tag
		o = last(open(sys.argv[2]).read())
		def pts(root=s):
		    return [(float(e.get('data-x')), float(e.get('data-y')), e.get('data-label'))
		            for e in root.iter(NS + 'circle') if e.get('class') == 'point']
		def bars(root=s):
		    return [(float(e.get('data-x')), float(e.get('data-y')), e.get('data-label'))
		            for e in root.iter(NS + 'rect') if e.get('class') == 'bar']
		def marks(root=s):
		    return {e.get('data-label'): float(e.get('data-x'))
		            for e in root.iter(NS + 'line') if e.get('class') == 'mark'}
		def rows():
		    return [g for g in s.iter(NS + 'g') if g.get('class') == 'row']
		def eq(a, b):
		    return abs(a - b) <= 0.0005 + 1e-9 * abs(b)
		print(eval(sys.argv[3]))
	PY
	)
	if [ "$v" = True ]; then pass "$1"; else fail "$1" "$v"; fi
}

# within_pct NAME A B PCT : |A - B| <= PCT % of B, both integers, B > 0
within_pct()
{
	if [[ $2 =~ ^[0-9]+$ ]] && [[ $3 =~ ^[0-9]+$ ]] && [ "$3" -gt 0 ] &&
		awk -v a="$2" -v b="$3" -v p="$4" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d * 100 <= b * p) }'; then
		pass "$1"
	else
		fail "$1" "got $2, expected $3 +- $4 %"
	fi
}

# jn FILE PATH : the value at PATH in FILE's stats --json, or "missing(PATH)"
# (two absent fields never compare equal)
jn()
{
	json_get "$1" "$2" || echo "missing($2)"
}

# samples_py NAME EXPR FILE : EXPR over S, every stats object of FILE in
# order (S[-1] the last), holds; tpl(o, name) is the client counters of
# template (group) name in stats object o
samples_py()
{
	local v
	v=$(python3 - "$3" "$2" <<-'PY' 2>&1
		import sys
		from fg_e2e_json import objects
		S = [o for o in objects(open(sys.argv[1]).read()) if 'flows' in o]
		def tpl(o, name):
		    return next(g for g in o['templates'] if g['name'] == name)['client']
		print(eval(sys.argv[2]))
	PY
	)
	if [ "$v" = True ]; then pass "$1"; else fail "$1" "$2: $v"; fi
}

# samples_pys FILE NAME EXPR [NAME EXPR]... : samples_py NAME EXPR FILE
# for each pair, from one python3; the same checks, in the same order
samples_pys()
{
	eval_checks 'import sys
from fg_e2e_json import objects
S = [o for o in objects(open(sys.argv[1]).read()) if "flows" in o]
def tpl(o, name):
    return next(g for g in o["templates"] if g["name"] == name)["client"]' "$@"
}

# pairs_py NAME EXPR FILE : EXPR over o, the last stats object of FILE,
# rows(port), its host pairs received on port, and lat(port), the
# latency row received there, holds
pairs_py()
{
	local v
	v=$(python3 - "$3" "$2" <<-'PY' 2>&1
		import json, sys
		t = open(sys.argv[1]).read()
		o = json.JSONDecoder().raw_decode(t, t.rfind('{"global"'))[0]
		def rows(port):
		    return [r for r in o["pairs"]["rows"] if r["port"] == port]
		def lat(port):
		    return [r for r in o["latency"] if r["port"] == port][0]
		print(eval(sys.argv[2]))
	PY
	)
	if [ "$v" = True ]; then pass "$1"; else fail "$1" "$2: $v"; fi
}

# --- the HTTP API (96_api.sh, 97_otg.sh) ------------------------------------

# free_port : a TCP port free on loopback now
free_port()
{
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# cmd_body COMMAND [MORE] : the body of POST /flowgen/v1/command, {"command":
# COMMAND MORE}, COMMAND a JSON string (its backslashes and double quotes
# escaped: the scenarios' commands have no control characters); MORE
# further members, e.g. ', "async": true'
cmd_body()
{
	local c=${1//\\/\\\\}
	c=${c//\"/\\\"}
	printf '{"command": "%s"%s}' "$c" "${2:-}"
}

# http METHOD PATH [BODY|@FILE] [CURL-ARGS...] : a request to $BASE (default
# http://127.0.0.1:$PORT), from the namespace $API_NS if set (a flowgen in
# the lab's tester namespace listens on that namespace's loopback); the
# status in $ST, the body in $B
http()
{
	local method=$1 path=$2 body=${3-} data=()
	shift 3 2>/dev/null || shift $#
	[ -n "$body" ] && data=(--data-binary "$body" -H 'Content-Type: application/json')
	ST=$(${API_NS:+ip netns exec "$API_NS"} curl -s -m 30 -o "$FG_TMP/body" -w '%{http_code}' -X "$method" "${data[@]}" "$@" \
		"${BASE:-http://127.0.0.1:$PORT}$path" 2>"$FG_TMP/curl.err") || true
	B=$(cat "$FG_TMP/body" 2>/dev/null)
}

# jq_ EXPR : a Python expression over the last body, parsed as `o`
jq_()
{
	python3 -c 'import json, sys; o = json.loads(sys.argv[2]); print(eval(sys.argv[1]))' "$1" "$B" 2>&1
}


# api_start [ARGS...] : flowgen -C $CFG -k --api PORT ARGS in the background
# (in the namespace $API_NS if set), its console's stdin a FIFO open on fd
# 7, its output in $FG_TMP/out and err; sets PORT and FG_PID; true once it
# listens. -k: a console command the test makes fail must not end it.
api_start()
{
	PORT=$(free_port)
	rm -f "$FG_TMP/in"
	mkfifo "$FG_TMP/in"
	exec 7<>"$FG_TMP/in"
	${API_NS:+ip netns exec "$API_NS"} "$FG_BIN" -C "$CFG" -k --api "$PORT" "$@" \
		<"$FG_TMP/in" >"$FG_TMP/out" 2>"$FG_TMP/err" &
	FG_PID=$!
	at_exit "kill $FG_PID"
	wait_for '^api: listening on http://127.0.0.1:' "$FG_TMP/err" 60 "$FG_PID"
}

# pid_gone PID : PID runs no more: no such process, or one that has exited
# and waits as a zombie for its parent to collect it (a daemon's parent
# is init, which may take a second or two; lab.sh does not wait for it)
pid_gone()
{
	local st
	st=$(sed 's/.*) //; s/ .*//' "/proc/$1/stat" 2>/dev/null) || return 0
	[ -z "$st" ] || [ "$st" = Z ] || [ "$st" = X ]
}

# pid_end PID [SECS] : waits up to SECS (10) for PID to end; RC is its exit
# status, or "running"
pid_end()
{
	local i
	RC=running
	for ((i = 0; i < ${2:-10} * 5; i++)); do
		if ! kill -0 "$1" 2>/dev/null; then
			RC=0
			wait "$1" || RC=$?
			return
		fi
		sleep 0.2
	done
}

# child_stop SIG PID : a child ended with SIG (dumpcap writes out what it holds
# on SIGINT, flowgen leaves on SIGTERM), waited for at most 5 s, then
# killed: false if it had to be
child_stop()
{
	local k
	kill -"$1" "$2" 2>/dev/null
	for ((k = 0; k < 50; k++)); do
		kill -0 "$2" 2>/dev/null || { wait "$2" 2>/dev/null; return 0; }
		sleep 0.1
	done
	kill -KILL "$2" 2>/dev/null
	wait "$2" 2>/dev/null
	return 1
}
