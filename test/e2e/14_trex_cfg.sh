#!/usr/bin/env bash
#
# 14_trex_cfg.sh — TRex configs as people have them load unchanged and run
# (flowgen(8), PLATFORM CONFIG, TRex keys): port_limit with longer
# port_info lists and more interfaces than ports used, a repeated key (the
# last value counts, a warning names both lines), prefix and limit_memory
# reaching the EAL, c and memory.dp_flows reaching the workers and the flow
# table. Each config passes --check with the port count and what it derives,
# then really runs on loop ports. Two instances with different prefixes run
# at once (with hugepages and without, where the prefix is what lets the
# second one start). A config that really is wrong still fails with
# FILE:LINE:COL and exit 78. The configs are test/data/trex_*.yaml.

. "$(dirname "$0")/lib.sh"

D=$FG_TOP/test/data
O=$FG_TMP/out
E=$FG_TMP/err
RUN='start -f profiles/stl_64b.yaml -m 10kpps -d 0.5 -t learn=0,drain=0.3; wait; stats'

if ! have_flowgen; then
	echo "# $FG_BIN is not built: every check below fails"
fi
cd "$FG_TOP" || exit 1

# check_fg ARGS... : flowgen --check, stdout in $O, stderr in $E; sets RC
check_fg()
{
	RC=0
	fg_plain --check "$@" </dev/null >"$O" 2>"$E" || RC=$?
}

# run_fg NAME CFG [EAL-ARGS...] : a short stateless run on the loop ports,
# --json statistics in $FG_TMP/NAME.out, stderr in $FG_TMP/NAME.err; checks
# exit 0, two ports in the statistics and traffic received on them
run_fg()
{
	local name=$1 cfg=$2 rc=0 v
	shift 2
	fg_plain -C "$cfg" --json -x "$RUN" ${1:+--} "$@" </dev/null \
		>"$FG_TMP/$name.out" 2>"$FG_TMP/$name.err" || rc=$?
	check_eq "$name: runs (exit 0)" 0 "$rc"
	# the port count and the frames, from one python3
	mapfile -t v < <(jvals "$FG_TMP/$name.out" '=len(o["ports"])' global.tx_pkts global.rx_pkts)
	check_eq "$name: two ports in the statistics" 2 "${v[0]:-}"
	check_ge "$name: frames sent" "${v[1]:-0}" 1000
	check_eq "$name: every frame received" "${v[1]:-}" "${v[2]:-}"
}

# DPDK's runtime directories (root's, else the user's)
RUNDIR=/var/run/dpdk
is_root || RUNDIR=${XDG_RUNTIME_DIR:-/tmp}/dpdk

# unique CFG TAG : a copy of CFG with its prefix made unique to this run,
# in $UCFG. The DPDK runtime directory it names is removed on exit.
unique()
{
	local p=fg14-$$-$2
	sed -E "s/^( *prefix *: *).*/\\1$p/" "$1" >"$FG_TMP/$2.yaml"
	at_exit "rm -rf $RUNDIR/$p"
	UCFG=$FG_TMP/$2.yaml
}

# --- they really run ----------------------------------------------------------

# runs : each config really runs, one after the other (the first four
# share DPDK's default prefix)
runs()
{
	run_fg limit2_info4 "$D/trex_limit2_info4.yaml"
	run_fg limit2_info8 "$D/trex_limit2_info8.yaml"
	run_fg if4_limit2 "$D/trex_if4_limit2.yaml"
	run_fg c_memory "$D/trex_c_memory.yaml"
	check_grep "c_memory: two workers per port pair" 'port 0 \(loop\): link up, .*, 2 worker queue\(s\)' "$FG_TMP/c_memory.err"
	run_fg dup_port_info "$DUP"
	check "dup_port_info: the prefix reached the EAL (its runtime directory)" test -d "$RUNDIR/fg14-$$-dup"
}

# --- two instances at once, one prefix each ---------------------------------

# pair MODE CFG-A CFG-B [EAL-ARGS...] : instance a runs until b is done; b
# starts once a's ports are up and must come up while a still runs; both
# end with exit 0 and traffic.
pair()
{
	local mode=$1 a=$2 b=$3 pa pb rca=0 rcb=0
	shift 3
	# a runs until b has run: its commands come through a FIFO, the stop
	# once b is done (a --no-huge start of the heap this config's
	# limit_memory asks for takes 2 s alone and 5 s or more next to a
	# running instance on a machine of two CPUs)
	local fifo=$FG_TMP/$mode-a.in ain
	mkfifo "$fifo"
	fg_plain -C "$a" --json -b ${1:+--} "$@" <"$fifo" >"$FG_TMP/$mode-a.out" 2>"$FG_TMP/$mode-a.err" &
	pa=$!
	exec {ain}>"$fifo"
	echo "start -f profiles/stl_64b.yaml -m 10kpps -t learn=0" >&"$ain"
	if ! wait_for 'port 1 \(loop\): link up' "$FG_TMP/$mode-a.err" 30 "$pa"; then
		fail "$mode: instance a comes up" "$(head -c 300 "$FG_TMP/$mode-a.err")"
	fi
	if [ "$mode" = nohuge ]; then
		# The same prefix twice: the second cannot start (DPDK's config lock).
		rc=0
		fg_plain -C "$a" -x quit -- "$@" </dev/null >"$FG_TMP/same.out" 2>"$FG_TMP/same.err" || rc=$?
		check_eq "$mode: the same prefix twice, the second fails (exit 70)" 70 "$rc"
		check_grep "$mode: the same prefix twice, DPDK's config is taken" 'EAL: .*config' "$FG_TMP/same.err"
	fi
	fg_plain -C "$b" --json -x "$RUN" ${1:+--} "$@" </dev/null \
		>"$FG_TMP/$mode-b.out" 2>"$FG_TMP/$mode-b.err" &
	pb=$!
	if wait_for 'port 1 \(loop\): link up' "$FG_TMP/$mode-b.err" 30 "$pb" && kill -0 "$pa" 2>/dev/null; then
		pass "$mode: instance b is up while a runs"
	else
		fail "$mode: instance b is up while a runs" "$(head -c 300 "$FG_TMP/$mode-b.err")"
	fi
	wait "$pb" || rcb=$?
	printf 'stop\nstats\n' >&"$ain"
	exec {ain}>&-
	wait "$pa" || rca=$?
	check_eq "$mode: both exit 0" "0 0" "$rca $rcb"
	for i in a b; do
		local v
		mapfile -t v < <(jvals "$FG_TMP/$mode-$i.out" global.tx_pkts global.rx_pkts)
		check_ge "$mode: instance $i sent frames" "${v[0]:-0}" 1000
		check_eq "$mode: instance $i received every frame" "${v[0]:-}" "${v[1]:-}"
		check "$mode: instance $i has its own runtime directory" test -d "$RUNDIR/fg14-$$-$mode-$i"
	done
}

# The runs and the two pairs go side by side, in three lanes (beside the
# --check runs and the configs that really are wrong): each has
# prefixes of its own (the runs DPDK's default one, used by nothing else
# here), and none of their checks is about a rate or a time. The prefixes
# are made here, so that their runtime directories are removed at exit.
unique "$D/trex_dup_port_info.yaml" dup
DUP=$UCFG
unique "$D/trex_prefix.yaml" huge-a
HA=$UCFG
unique "$D/trex_prefix.yaml" huge-b
HB=$UCFG
unique "$D/trex_prefix.yaml" nohuge-a
NA=$UCFG
unique "$D/trex_prefix.yaml" nohuge-b
NB=$UCFG
lane runs runs
lane huge pair huge "$HA" "$HB"
# Without hugepages DPDK keeps its config in the runtime directory and
# locks it: the prefix is what lets two instances start at all.
lane nohuge pair nohuge "$NA" "$NB" --no-huge

# The --check runs beside them (no EAL, no traffic)

# --- --check: the port count and what each config gives ------------------

check_fg -C "$D/trex_limit2_info4.yaml"
check_eq "port_limit 2, 4 port_info entries: --check exit 0" 0 "$RC"
check_grep "port_limit 2, 4 port_info entries: 2 ports" 'trex_limit2_info4\.yaml: ok \(2 ports\)' "$O"
check_grep "port_limit 2, 4 port_info entries: ports 2 of 2, port_limit 2" '^  ports: 2 of 2 interfaces listed \(port_limit 2\)' "$O"
check_grep "port_limit 2, 4 port_info entries: one note names FILE:LINE" "trex_limit2_info4\\.yaml:11: note: 'port_info' has 4 entries for 2 ports" "$E"
check_eq "port_limit 2, 4 port_info entries: nothing else on stderr" 1 "$(count_lines "$E")"

check_fg -C "$D/trex_limit2_info8.yaml"
check_eq "port_limit 2, 8 port_info entries: --check exit 0" 0 "$RC"
check_grep "port_limit 2, 8 port_info entries: 2 ports" 'ok \(2 ports\)' "$O"
check_grep "port_limit 2, 8 port_info entries: one note, entries 3..8" "trex_limit2_info8\\.yaml:16: note: .*entries 3\\.\\.8 are ignored" "$E"
check_grep "port_limit 2, 8 port_info entries: interface_mask has no effect" "trex_limit2_info8\\.yaml:6: warning: 'interface_mask' has no effect" "$E"
check_nogrep "port_limit 2, 8 port_info entries: no TRex key is unknown" 'unknown key' "$E"

check_fg -C "$D/trex_if4_limit2.yaml"
check_eq "4 interfaces, port_limit 2: --check exit 0" 0 "$RC"
check_grep "4 interfaces, port_limit 2: 2 ports" 'ok \(2 ports\)' "$O"
check_grep "4 interfaces, port_limit 2: ports 2 of 4" '^  ports: 2 of 4 interfaces listed \(port_limit 2\)' "$O"
check_grep "4 interfaces, port_limit 2: the second dual_if is noted" "trex_if4_limit2\\.yaml:28: note: 'dual_if' has 2 entries for 1 port pair" "$E"
check_nogrep "4 interfaces, port_limit 2: no TRex key is unknown" 'unknown key' "$E"

check_fg -C "$D/trex_dup_port_info.yaml"
check_eq "repeated port_info: --check exit 0" 0 "$RC"
check_grep "repeated port_info: 2 ports" 'ok \(2 ports\)' "$O"
check_grep "repeated port_info: a warning names both lines" "trex_dup_port_info\\.yaml:10: warning: duplicate key 'port_info' \\(also at line 7\\): the last one counts" "$E"
check_eq "repeated port_info: one line on stderr" 1 "$(count_lines "$E")"
check_grep "repeated port_info: prefix gives --file-prefix" '^  eal from the config: --file-prefix=fg14dup ' "$O"
check_grep "repeated port_info: limit_memory gives the EAL memory limit" 'eal from the config: .*(--socket-limit=640(,640)*|-m640)$' "$O"

check_fg -C "$D/trex_prefix.yaml"
check_eq "prefix and limit_memory: --check exit 0" 0 "$RC"
check_grep "prefix and limit_memory: 2 ports" 'ok \(2 ports\)' "$O"
check_grep "prefix and limit_memory: the EAL arguments" '^  eal from the config: --file-prefix=fg14a (--socket-limit=640(,640)*|-m640)$' "$O"
check_fg -C "$D/trex_prefix.yaml" -- --no-huge
check_grep "prefix and limit_memory: without hugepages, -m" '^  eal from the config: --file-prefix=fg14a -m640$' "$O"
check_fg -C "$D/trex_prefix.yaml" -- --file-prefix=mine -m 2048
check_grep "prefix and limit_memory: EAL arguments after -- win" '^  eal from the config: \(none\)$' "$O"

check_fg -C "$D/trex_c_memory.yaml"
check_eq "c and memory: --check exit 0" 0 "$RC"
check_grep "c and memory: 2 ports" 'ok \(2 ports\)' "$O"
check_grep "c and memory: c gives the workers per port pair" '^  workers per port pair: 2 \(c\)$' "$O"
check_grep "c and memory: dp_flows gives flows_max" '^  flows_max: 65536 \(memory\.dp_flows\)$' "$O"
check_grep "c and memory: mbuf_* give the mbufs per port" '^  mbufs per port: 7168 \(memory\)$' "$O"
check_eq "c and memory: nothing on stderr" 0 "$(count_lines "$E")"
check_fg -c 1 -C "$D/trex_c_memory.yaml"
check_grep "c and memory: -c wins over c" '^  workers per port pair: 1 \(-c\)$' "$O"

# TRex's own example files name PCI ports: --check only.
check_fg -C "$D/trex_cfg.yaml"
check_eq "trex_cfg.yaml (PCI ports): --check exit 0, no warning" "0 0" "$RC $(count_lines "$E")"

# A key that is neither flowgen's nor TRex's still warns.
sed 's/^  telnet_port .*/&\n  fg_not_trex: 1/' "$D/trex_limit2_info4.yaml" >"$FG_TMP/unknown.yaml"
check_fg -C "$FG_TMP/unknown.yaml"
check_eq "a key not TRex's: exit 0" 0 "$RC"
check_grep "a key not TRex's: a warning names FILE:LINE" "unknown\\.yaml:10: warning: unknown key 'fg_not_trex' ignored" "$E"

# --- configs that really are wrong ------------------------------------------

for f in cfg_trex_syntax cfg_port_limit_odd cfg_port_limit_big cfg_dup_last_bad cfg_prefix \
	cfg_limit_memory cfg_dp_flows; do
	check_fg -C "$D/$f.yaml"
	check_eq "$f: exit 78" 78 "$RC"
	want=$(head -n 1 "$D/$f.yaml" | sed 's/^# error: //')
	check_eq "$f: one line, FILE:LINE:COL: message" "$D/$f.yaml$want" "$(cat "$E")"
done

lane_end runs
lane_end huge
lane_end nohuge

finish
