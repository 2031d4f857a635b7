#!/usr/bin/env bash
#
# 10_config.sh — command line and platform config handling:
# exit codes 0 / 64 / 70 / 78, FILE:LINE:COL errors, one-line messages,
# warnings for unknown keys, never a core dump. Needs no lab and no root.

. "$(dirname "$0")/lib.sh"

D=$FG_TOP/test/data
O=$FG_TMP/out
E=$FG_TMP/err

if ! have_flowgen; then
	echo "# $FG_BIN is not built: every check below fails"
fi

# run_fg ARGS... : flowgen with stdout in $O, stderr in $E; sets RC
run_fg()
{
	RC=0
	fg_plain "$@" </dev/null >"$O" 2>"$E" || RC=$?
}

# one_line NAME : stderr holds exactly one non-empty line
one_line()
{
	local n
	n=$(count_lines "$E")
	if [ "$n" = 1 ]; then
		pass "$1"
	else
		fail "$1" "expected 1 line on stderr, got $n: $(head -c 300 "$E")"
	fi
}

# no_core NAME : the last run ended by exit, not by a signal
no_core()
{
	if [ "$RC" -lt 128 ]; then
		pass "$1"
	else
		fail "$1" "exit status $RC (killed by a signal)"
	fi
}

# The config owner's TRex-style file: PCI addresses, dest_mac, threads 2..31.
if [ -f "$D/trex_cfg.yaml" ]; then
	run_fg --check -C "$D/trex_cfg.yaml"
	check_eq "--check accepts test/data/trex_cfg.yaml (exit 0)" 0 "$RC"
else
	fail "--check accepts test/data/trex_cfg.yaml (exit 0)" "test/data/trex_cfg.yaml does not exist"
fi

run_fg --check -C "$FG_TOP/examples/lab.yaml"
check_eq "--check accepts examples/lab.yaml (exit 0)" 0 "$RC"
run_fg --check -C "$D/e2e_loop.yaml"
check_eq "--check accepts a [loop, loop] config (exit 0)" 0 "$RC"

# An invalid address on line 10: exit 78 and FILE:LINE:COL on stderr.
run_fg --check -C "$D/e2e_bad_addr.yaml"
check_eq "invalid address: exit 78" 78 "$RC"
check_grep "invalid address: stderr names FILE:10:COL" 'e2e_bad_addr\.yaml:10:[0-9]+' "$E"
one_line "invalid address: one-line error"

# An unknown key on line 5: a warning naming FILE:5, exit 0.
run_fg --check -C "$D/e2e_unknown_key.yaml"
check_eq "unknown key: exit 0" 0 "$RC"
cat "$O" "$E" >"$FG_TMP/both"
check_grep "unknown key: warning names FILE:5" 'e2e_unknown_key\.yaml:5\b.*(unknown|ignor|warn)|(unknown|ignor|warn).*e2e_unknown_key\.yaml:5\b' "$FG_TMP/both"
check_grep "unknown key: warning names the key" 'fg_no_such_key' "$FG_TMP/both"

# A missing file: a one-line error naming it, exit 78.
run_fg --check -C "$FG_TMP/no-such-config.yaml"
check_eq "missing file: exit 78" 78 "$RC"
check_grep "missing file: error names the file" 'no-such-config\.yaml' "$E"
one_line "missing file: one-line error"

# A duplicate key (lines 6 and 7): as in TRex the last value counts; a
# one-line warning names both lines, exit 0.
run_fg --check -C "$D/e2e_dup_key.yaml"
check_eq "duplicate key: exit 0" 0 "$RC"
check_grep "duplicate key: warning names FILE:7 and line 6" 'e2e_dup_key\.yaml:7\b.*warning.*line 6' "$E"
one_line "duplicate key: one-line warning"

# Three ports: ports come in pairs.
run_fg --check -C "$D/e2e_odd_ports.yaml"
check_eq "odd number of ports: exit 78" 78 "$RC"
one_line "odd number of ports: one-line error"

# A port that cannot be opened: exit 70, a message naming the interface,
# never a core dump. Run in a namespace of its own when root, so nothing of
# the host's is ever touched.
if is_root; then
	ns=fgc-$$
	[ -n "$FG_RESULTS" ] && echo "$ns" >>"$FG_RESULTS.ns"
	ip netns add "$ns"
	at_exit "ip netns del $ns"
	RC=0
	timeout -k 5 60 ip netns exec "$ns" "$FG_BIN" -C "$D/e2e_noiface.yaml" -x quit \
		</dev/null >"$O" 2>"$E" || RC=$?
else
	run_fg -C "$D/e2e_noiface.yaml" -x quit
fi
check_eq "nonexistent interface: exit 70" 70 "$RC"
no_core "nonexistent interface: no core dump (exit < 128)"
check_grep "nonexistent interface: error names the interface" 'nonexistent' "$E"
# DPDK's EAL logs its own lines on stderr; flowgen's own error is one line.
grep -Ev '^(EAL|ETHDEV|TELEMETRY|PMD|AFPACKET|USER[0-9]|MBUF|MEMPOOL|RING|LCORE|rte_|net_af_packet|[a-z_]+\(\)):' "$E" >"$FG_TMP/own" || true
if [ "$(count_lines "$FG_TMP/own")" = 1 ]; then
	pass "nonexistent interface: one-line error"
else
	fail "nonexistent interface: one-line error" "flowgen's own stderr lines: $(head -c 300 "$FG_TMP/own")"
fi

# Options.
run_fg -h
check_eq "-h: exit 0" 0 "$RC"
check_grep "-h: usage lists --config" '--config' "$O"
run_fg -V
check_eq "-V: exit 0" 0 "$RC"
# the version make wrote beside the binary (`git describe` at build time)
check_eq "-V: prints flowgen and the built version" \
	"flowgen $(cat "$(dirname "$FG_BIN")/version" 2>/dev/null || echo '(no version file)')" "$(cat "$O")"
run_fg --no-such-option
check_eq "bad option: exit 64" 64 "$RC"
check_grep "bad option: stderr names it" 'no-such-option' "$E"
run_fg -c
check_eq "option missing its argument: exit 64" 64 "$RC"
no_core "option missing its argument: no core dump"

finish
