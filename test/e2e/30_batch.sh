#!/usr/bin/env bash
#
# 30_batch.sh — batch (stdin) and -x modes: a failing command
# stops the batch with exit 1, -k runs the rest and still exits 1, help works.
# Uses a [loop, loop] config: no lab, no kernel in the path.

. "$(dirname "$0")/lib.sh"

CFG=$(fg_loop_cfg)
O=$FG_TMP/out
E=$FG_TMP/err

if ! have_flowgen; then
	echo "# $FG_BIN is not built: every check below fails"
fi

# batch INPUT ARGS... : INPUT on stdin; stdout $O, stderr $E; sets RC
batch()
{
	local input=$1
	shift
	RC=0
	printf '%s' "$input" | fg_plain -C "$CFG" "$@" >"$O" 2>"$E" || RC=$?
}

batch $'echo before-ok\n' -b
check_eq "batch: a good command exits 0" 0 "$RC"
check_grep "batch: echo prints" '^before-ok$' "$O"

batch $'echo first-line\nno-such-command\necho after-failure\n' -b
check_eq "batch: unknown command exits 1" 1 "$RC"
check_grep "batch: commands before the failure ran" '^first-line$' "$O"
# (a negative check means something only if the batch ran at all)
if grep -q '^first-line$' "$O" && ! grep -q 'after-failure' "$O"; then
	pass "batch: stops at the failing command"
else
	fail "batch: stops at the failing command" "output: $(head -c 200 "$O")"
fi
cat "$O" "$E" >"$FG_TMP/both"
check_grep "batch: the error names the command" 'no-such-command' "$FG_TMP/both"

batch $'no-such-command\necho after-failure\n' -b -k
check_eq "batch -k: still exits 1" 1 "$RC"
check_grep "batch -k: runs the rest" '^after-failure$' "$O"

# stdin that is not a terminal implies batch mode
batch $'echo implied\n'
check_eq "stdin not a tty implies batch: exit 0" 0 "$RC"
check_grep "stdin not a tty implies batch: echo prints" '^implied$' "$O"
if grep -q '^implied$' "$O" && ! grep -q 'flowgen>' "$O"; then
	pass "batch mode prints no prompt"
else
	fail "batch mode prints no prompt" "output: $(head -c 200 "$O")"
fi

batch '' -x help
check_eq "-x help: exit 0" 0 "$RC"
for c in service arp ping start stop stats portattr quit; do
	check_grep "-x help: lists $c" "\\b$c\\b" "$O"
done

batch '' -x 'echo one; echo two'
check_eq "-x two commands: exit 0" 0 "$RC"
check_eq "-x two commands: both ran in order" "one two" "$(grep -E '^(one|two)$' "$O" | tr '\n' ' ' | sed 's/ $//')"

batch '' -x 'echo first-line; no-such-command; echo after-failure'
check_eq "-x unknown command: exit 1" 1 "$RC"
if grep -q '^first-line$' "$O" && ! grep -q 'after-failure' "$O"; then
	pass "-x unknown command: stops there"
else
	fail "-x unknown command: stops there" "output: $(head -c 200 "$O")"
fi

batch '' -k -x 'no-such-command; echo after-failure'
check_eq "-x -k unknown command: exit 1" 1 "$RC"
check_grep "-x -k: runs the rest" '^after-failure$' "$O"

batch '' -x 'help start'
check_eq "help CMD: exit 0" 0 "$RC"
check_grep "help start: shows its usage" '-f' "$O"

finish
