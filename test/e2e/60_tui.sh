#!/usr/bin/env bash
#
# 60_tui.sh — the `tui` dashboard in a real terminal (tmux), with 10 kpps
# of 64-byte frames running through the router lab: the panels of a
# streams run appear (Streams beside Global, no Flows panel), the measured
# rate is the offered one, the keys act (c clears, + raises the rate 10%,
# p pauses and resumes), the layout follows a resize down to 80x24 with
# the Global panel's lines clear of the panel beside it, q, ESC and Ctrl-C
# each return to the prompt with flowgen alive, and the terminal modes
# (stty -g) are the same after as before. Then a flows run of
# test/data/flows_groups.yaml (groups web and dns) at 80x24: Flows beside
# Global, each line whole, no latency table; t shows the group page (one
# row per group, dns with about three times web's flows) and t again the
# ports. Without a terminal (batch mode) `tui` is refused with a message
# and a failing status.

. "$(dirname "$0")/lib.sh"

command -v tmux >/dev/null || {
	fail "tmux available" "tmux is not installed"
	exit 1
}
if ! have_flowgen; then
	echo "# $FG_BIN is not built: the flowgen checks below fail"
fi

# No terminal: refused with a reason, and the command fails. On the ring
# ports (test/data/e2e_loop.yaml: the refusal is the console's, whatever
# the ports), in a lane while the lab comes up and the dashboard's
# flowgen starts; it ends before the traffic whose rates are read.
refusal()
{
	local out rc
	out=$(echo tui | TERM=xterm "$FG_BIN" -C "$(fg_loop_cfg)" -b 2>&1)
	rc=$?
	check_eq "tui: refused in batch mode (exit 1)" 1 "$rc"
	if grep -q 'needs an interactive terminal' <<<"$out"; then
		pass "tui: refusal says why"
	else
		fail "tui: refusal says why" "output: $out"
	fi
}
lane refusal refusal

lab_up router || finish
H=$FG_TMP/home
mkdir -p "$H"
tmux_start 132 40

# tx_kpps : the dashboard's global tx pps in hundredths of thousands
# ("pps 10.00 K ..." is 1000)
tx_kpps()
{
	screen | awk '/^pps / {
		v = $2; u = $3
		if (u == "K") v = v; else if (u == "M") v = v * 1000; else v = v / 1000
		printf "%d\n", v * 100 + 0.5; exit }'
}

# wait_kpps AWK-COND SECONDS : until the dashboard's tx rate (kpps x 100,
# as tx_kpps prints it, in v) meets AWK-COND; the rates span the last
# second (stats.c), so a change shows in full about 1.5 s after it
wait_kpps()
{
	local i
	for ((i = 0; i < $2 * 5; i++)); do
		awk -v v="$(tx_kpps)" "BEGIN { exit !(v != \"\" && ($1)) }" && return 0
		sleep 0.2
	done
	return 1
}

# in_range NAME VALUE_X100 LO HI : LO <= VALUE <= HI (kpps x 100: the
# pacer sends its rate exactly, and the dashboard's rate spans a second)
in_range()
{
	local v=$2
	if [[ $v =~ ^[0-9]+$ ]] && [ "$v" -ge "$3" ] && [ "$v" -le "$4" ]; then
		pass "$1"
	else
		fail "$1" "tx kpps x100 = '$v', wanted $3..$4; screen: $(screen | grep '^pps' | head -n 1)"
	fi
}

keys "stty -g > $H/stty.before" Enter
keys "cd $FG_TOP && ip netns exec $NS_TST $FG_BIN -C $CFG; echo \"FG-EXIT=\$?\" > $H/rc" Enter

if ! wait_screen 'flowgen> ?$' 40 || [ -e "$H/rc" ]; then
	fail "tui: flowgen console starts" "screen: $(screen | grep . | tail -n 5)"
	exit 1
fi
pass "tui: flowgen console starts"

keys "arp" Enter
if wait_screen 'port 1: .*MAC' 10; then
	pass "tui: arp learns the DUT's MACs"
else
	fail "tui: arp learns the DUT's MACs" "screen: $(screen | grep . | tail -n 4)"
fi
lane_end refusal
# no learning phase (-t learn=0: its 1.5 s learn_wait, flowgen(8)): the
# measured traffic from the start, and the dashboard at once (the rate
# checks below wait for the rate shown, not for a fixed time); a 0.3 s
# drain (drain=0.3) when the flows run below replaces it: nothing of it
# is read then
keys "start -f profiles/stl_64b.yaml -m 10kpps -t learn=0,drain=0.3" Enter
keys "tui" Enter
if wait_screen 'Global Statistics +Streams$' 10 && wait_screen '^Port Stat' 2 &&
	wait_screen '^tx pps' 2 && wait_screen '^Latency' 2; then
	pass "tui: global, streams, port, history and latency panels shown"
else
	fail "tui: global, streams, port, history and latency panels shown" "screen: $(screen | grep . | head -n 12)"
fi
check_nogrep_screen()
{ # NAME ERE : no line of the screen matches
	if screen | grep -Eq -- "$2"; then
		fail "$1" "$(screen | grep -E -m1 -- "$2")"
	else
		pass "$1"
	fi
}
check_nogrep_screen "tui: a streams run has no flows panel" 'Flows +client +server'
if wait_screen '^pps .* Rx .* +queue full +[0-9]' 2; then
	pass "tui: the streams panel counts frames the TX queue refused"
else
	fail "tui: the streams panel counts frames the TX queue refused" "screen: $(screen | grep . | head -n 6)"
fi
# the CPU figure is the busiest worker's, with the worker count (one here)
if wait_screen '^drop .* cpu [0-9]+\.[0-9] % \(busiest of 1\)' 3; then
	pass "tui: the CPU figure is the busiest worker's, of 1"
else
	fail "tui: the CPU figure is the busiest worker's, of 1" "screen: $(screen | grep '^drop')"
fi
# once the rate shown has reached the offer (it spans the last second):
# the rate shown is the run's
wait_kpps 'v >= 980 && v <= 1020' 5
in_range "tui: measured tx rate is the offered 10 kpps, +-2 %" "$(tx_kpps)" 980 1020
# a rate the tester makes is not short of its offer: no warning line
if screen | grep -q 'short of offer'; then
	fail "tui: no offered/achieved warning at a rate met" "$(screen | grep 'short of offer')"
else
	pass "tui: no offered/achieved warning at a rate met"
fi
check "tui: opackets row counts frames" bash -c \
	"tmux -L $TMUX_SOCK capture-pane -p -t $TMUX_PANE | grep -E '^opackets +[1-9]'"

keys c
if wait_screen 'statistics cleared' 3; then
	pass "tui: c clears the statistics"
else
	fail "tui: c clears the statistics" "no confirmation on the title line"
fi

# each change: once the rate shown has moved, the rest of the rate's
# second, then the figure is read
keys +
wait_kpps 'v >= 1050' 5
sleep 1.2
in_range "tui: + raises the rate by 10 %: 11 kpps, +-2 %" "$(tx_kpps)" 1078 1122

keys p
wait_kpps 'v == 0' 5
in_range "tui: p pauses the traffic" "$(tx_kpps)" 0 0
keys p
wait_kpps 'v >= 1000' 5
sleep 1.2
in_range "tui: p again resumes it at 11 kpps, +-2 %" "$(tx_kpps)" 1078 1122

T resize-window -t "$TMUX_PANE" -x 80 -y 24
# the redraw at 80 columns: the Streams panel at column 49, and the lines
# the two checks below read
wait_screen_all 5 '^Global Statistics {32}Streams$' '^imissed' 'total' \
	'^CPS .* done .* active [0-9.]+[KMGT]? +lost \(lat\) +[0-9]' \
	'^drop .* cpu [0-9.]+ % \(busiest of 1\) +late \(lat\) +[0-9]'
if screen | grep -Eq '^imissed' && screen | grep -Eq 'total' &&
	screen | grep -q 'Global Statistics'; then
	pass "tui: follows a resize to 80x24"
else
	fail "tui: follows a resize to 80x24" "screen: $(screen | grep . | tail -n 6)"
fi
# each Global line whole, then the Streams panel's (its column 49 at 80)
if screen | grep -Eq '^CPS .* done .* active [0-9.]+[KMGT]? +lost \(lat\) +[0-9]' &&
	screen | grep -Eq '^drop .* cpu [0-9.]+ % \(busiest of 1\) +late \(lat\) +[0-9]'; then
	pass "tui: at 80x24 the global lines end before the streams panel"
else
	fail "tui: at 80x24 the global lines end before the streams panel" "screen: $(screen | sed -n 2,7p)"
fi
T resize-window -t "$TMUX_PANE" -x 132 -y 40
# redrawn at 132 columns: the Streams panel at column 66
wait_screen_all 5 '^Global Statistics {49}Streams$'

keys q
if wait_screen 'flowgen> ?$' 5 && ! screen | grep -q 'Global Statistics'; then
	pass "tui: q returns to the prompt"
else
	fail "tui: q returns to the prompt" "screen: $(screen | grep . | tail -n 3)"
fi

keys "tui" Enter
wait_screen 'Global Statistics' 10
keys Escape
# the dashboard waits 25 ms for an escape sequence (set_escdelay), and
# wait_screen polls for the prompt
if wait_screen 'flowgen> ?$' 5 && ! screen | grep -q 'Global Statistics'; then
	pass "tui: ESC returns to the prompt"
else
	fail "tui: ESC returns to the prompt" "screen: $(screen | grep . | tail -n 3)"
fi

keys "tui" Enter
wait_screen 'Global Statistics' 10
keys C-c
if wait_screen 'flowgen> ?$' 5 && [ ! -e "$H/rc" ]; then
	pass "tui: Ctrl-C leaves the dashboard, flowgen stays"
else
	fail "tui: Ctrl-C leaves the dashboard, flowgen stays" "screen: $(screen | grep . | tail -n 3)"
fi
keys "echo after-tui" Enter
if wait_screen '^after-tui$' 5; then
	pass "tui: console works after the dashboard"
else
	fail "tui: console works after the dashboard" "screen: $(screen | grep . | tail -n 3)"
fi

# --- a flows run: the Flows panel at 80x24 and the group page (key t) -------
keys "start --force -f test/data/flows_groups.yaml -m 1 -d 60" Enter
if wait_screen 'started .*flows_groups' 10; then
	pass "tui: the flows run of groups starts"
else
	fail "tui: the flows run of groups starts" "screen: $(screen | grep . | tail -n 3)"
fi
T resize-window -t "$TMUX_PANE" -x 80 -y 24
keys "tui" Enter
if wait_screen 'Global Statistics +Flows +client +server$' 10; then
	pass "tui: a flows run shows the flows panel"
else
	fail "tui: a flows run shows the flows panel" "screen: $(screen | grep . | head -n 3)"
fi
# until the two lines show their figures, each in its columns
wait_screen_all 5 '^CPS [0-9.]+ [KM]? +done [0-9.]+ [KM]? +active [0-9.]+[KMGT]? +failed +[0-9]+ +[0-9]+$' \
	'^drop .* cpu [0-9.]+ % \(busiest of 1\) +active +[0-9.]+[KMGT]? +[0-9.]+[KMGT]?$'
# was "CPS 0.00  done 0.00  activfailed  0  0": now each panel in its columns
if screen | grep -Eq '^CPS [0-9.]+ [KM]? +done [0-9.]+ [KM]? +active [0-9.]+[KMGT]? +failed +[0-9]+ +[0-9]+$' &&
	screen | grep -Eq '^drop .* cpu [0-9.]+ % \(busiest of 1\) +active +[0-9.]+[KMGT]? +[0-9.]+[KMGT]?$'; then
	pass "tui: at 80x24 the global lines end before the flows panel"
else
	fail "tui: at 80x24 the global lines end before the flows panel" "screen: $(screen | sed -n 2,7p)"
fi
check_nogrep_screen "tui: a flows run has no latency table" '^Latency'
keys t
if wait_screen '^Group +started +completed +failed +CPS +active$' 3; then
	pass "tui: t shows the group page"
else
	fail "tui: t shows the group page" "screen: $(screen | grep . | head -n 12)"
fi
check_nogrep_screen "tui: the group page replaces the port table" '^Port Stat|^opackets'
# started of a group's row: web opens a quarter of the flows, dns three
# quarters, by smooth weighted round robin over the templates' cps
# (src/dataplane/flows_pick.c), so each template is within one flow of its
# share and dns = 3 x web +-3 at any moment. A capture may catch curses
# between two rows of a redraw (one row 0.5 s older, 200 flows apart): a
# few tries, one capture each; a split that is not 3:1 fails every one.
grp_ok()
{
	[[ $w =~ ^[0-9]+$ && $d =~ ^[0-9]+$ ]] && [ "$w" -ge 100 ] &&
		[ "$d" -ge $((3 * w - 3)) ] && [ "$d" -le $((3 * w + 3)) ]
}
# web's 100 cps give it 100 flows a second into the run
wait_screen '^ *web +[1-9][0-9]{2,}( |$)' 5
for ((i = 0; i < 5; i++)); do
	screen >"$H/groups.txt"
	w=$(awk '$1 == "web" { print $2; exit }' "$H/groups.txt")
	d=$(awk '$1 == "dns" { print $2; exit }' "$H/groups.txt")
	grp_ok && break
	sleep 0.3
done
echo "# tui groups: web $w dns $d"
if grp_ok; then
	pass "tui: the group page has web and dns rows, dns 3x web +-3 ($d, $w)"
else
	fail "tui: the group page has web and dns rows, dns 3x web +-3" "web '$w', dns '$d': $(screen | grep -E '^(web|dns) ')"
fi
keys t
if wait_screen '^Port Stat' 3 && ! screen | grep -Eq '^Group +started'; then
	pass "tui: t again shows the ports"
else
	fail "tui: t again shows the ports" "screen: $(screen | grep . | head -n 12)"
fi
keys q
wait_screen 'flowgen> ?$' 5
T resize-window -t "$TMUX_PANE" -x 132 -y 40

keys "stop" Enter
keys "quit" Enter
wait_file "$H/rc" 20
check_eq "tui: quit exits 0" "FG-EXIT=0" "$(cat "$H/rc" 2>/dev/null)"
keys "stty -g > $H/stty.after" Enter
wait_file "$H/stty.after" 5
check_eq "tui: terminal modes (stty -g) unchanged" \
	"$(cat "$H/stty.before" 2>/dev/null)" "$(cat "$H/stty.after" 2>/dev/null)"

finish
