#!/usr/bin/env bash
#
# 40_interactive.sh — the interactive console in a real terminal (tmux):
# the `flowgen>` prompt, TAB completion, history recall, Ctrl-C at the prompt
# not killing the process, `quit`, and the terminal left as it was found
# (`stty -g` identical before and after). HOME is a private directory so the
# history file is this test's own. Uses a [loop, loop] config.

. "$(dirname "$0")/lib.sh"

command -v tmux >/dev/null || {
	fail "tmux available" "tmux is not installed"
	exit 1
}
if ! have_flowgen; then
	echo "# $FG_BIN is not built: the flowgen checks below fail"
fi

CFG=$(fg_loop_cfg)
H=$FG_TMP/home
mkdir -p "$H"
# A plain shell in a 160x40 pane, 200 lines of scrollback.
tmux_start 160 40 200

# last_prompt : the last pane line holding the prompt
last_prompt()
{
	screen | grep 'flowgen>' | tail -n 1
}


keys "stty -g > $H/stty.before" Enter
keys "cd $FG_TOP && $FG_BIN -C $CFG; echo \"FG-EXIT=\$?\" > $H/rc" Enter

if wait_screen 'flowgen> ?$' 40 && [ ! -e "$H/rc" ]; then
	pass "interactive: prompt flowgen> appears"
else
	fail "interactive: prompt flowgen> appears" "screen: $(screen | grep . | tail -n 5)"
	# Without a running console the remaining checks mean nothing.
	for n in "ser + TAB completes to service" "echo hi prints hi" \
		"Up recalls echo hi" "Ctrl-C at the prompt does not kill flowgen" \
		"commands run after Ctrl-C" "quit exits 0" \
		"terminal modes (stty -g) unchanged" "history saved in ~/.flowgen_history"; do
		fail "interactive: $n" "no flowgen console"
	done
	exit 1
fi

keys "ser" Tab
sleep 0.5
l=$(last_prompt)
if [[ $l =~ flowgen\>\ service ]]; then
	pass "interactive: ser + TAB completes to service"
else
	fail "interactive: ser + TAB completes to service" "prompt line: '$l'"
fi
keys Enter
sleep 0.5
keys "service --off" Enter
sleep 0.5

keys "echo hi" Enter
if wait_screen '^hi$' 10; then
	pass "interactive: echo hi prints hi"
else
	fail "interactive: echo hi prints hi" "screen: $(screen | grep . | tail -n 3)"
fi
sleep 0.3
keys Up
sleep 0.5
l=$(last_prompt)
if [[ $l =~ flowgen\>\ echo\ hi ]]; then
	pass "interactive: Up recalls echo hi"
else
	fail "interactive: Up recalls echo hi" "prompt line: '$l'"
fi

# Ctrl-C at the prompt (over the recalled line): the process stays.
keys C-c
sleep 2.5
if [ -e "$H/rc" ]; then
	fail "interactive: Ctrl-C at the prompt does not kill flowgen" "it exited: $(cat "$H/rc")"
else
	pass "interactive: Ctrl-C at the prompt does not kill flowgen"
fi
keys "echo still-alive" Enter
if wait_screen '^still-alive$' 10; then
	pass "interactive: commands run after Ctrl-C"
else
	fail "interactive: commands run after Ctrl-C" "screen: $(screen | grep . | tail -n 3)"
fi

keys "quit" Enter
wait_file "$H/rc" 20
check_eq "interactive: quit exits 0" "FG-EXIT=0" "$(cat "$H/rc" 2>/dev/null)"

keys "stty -g > $H/stty.after" Enter
wait_file "$H/stty.after" 5
check_eq "interactive: terminal modes (stty -g) unchanged" \
	"$(cat "$H/stty.before" 2>/dev/null)" "$(cat "$H/stty.after" 2>/dev/null)"
# libedit stores history vis(3)-encoded: a space is written as \040
check_grep "interactive: history saved in ~/.flowgen_history" 'echo(\\040| )hi' "$H/.flowgen_history"

finish
