#!/usr/bin/env bash
# 12_nohuge.sh — with no hugepages reserved, flowgen falls back to
# --no-huge by itself, says so, and works (also with a config whose `eal`
# asks for --in-memory, which --no-huge does not allow).
. "$(dirname "$0")/lib.sh"

need_flowgen
need_root "hugepages sysctl"
saved=$(cat /proc/sys/vm/nr_hugepages)
at_exit "echo $saved > /proc/sys/vm/nr_hugepages"
echo 0 >/proc/sys/vm/nr_hugepages
# the loop config's `eal` holds --in-memory
grep -q -- "--in-memory" "$(fg_loop_cfg)" || fail "the loop config asks for --in-memory" "it does not"
out=$FG_TMP/nohuge.out
rc=0
fg_plain -C "$(fg_loop_cfg)" -x "service; ping -p 0 -d 198.19.1.2 -n 2" >"$out" 2>&1 || rc=$?
check_eq "no hugepages: exit 0" 0 "$rc"
check_grep "no hugepages: says it runs with --no-huge" 'no free hugepages.*--no-huge' "$out"
check_grep "no hugepages: the dataplane works (ping over the loop)" '2 received' "$out"
echo "$saved" >/proc/sys/vm/nr_hugepages
finish
