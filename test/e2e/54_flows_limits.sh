#!/usr/bin/env bash
#
# 54_flows_limits.sh — a full flow table. With flows_max: 1000, UDP flows
# of 2 s of delay at 1,000/s (2,100 alive at once when the DUT answers
# within the 0.1 s allowed for it, 5,250 entries with their server sides
# and the margin) are refused before the start, naming the entries needed
# and flows_max's (flowgen(8), FLOW TABLES); unpaced
# (-m max, which no rate sizes: its table is flows_max's), the client
# flows fill their half of the table (500; the server sides flowgen
# learns take the other) and new ones wait for room: no table_full on
# either side, flowgen keeps running, and `stop` drains the rest.
# udp_short's server answers each request as it comes and takes no entry:
# at 5,000/s (500 flows alive when the DUT answers) its plan counts the
# client side alone, 625 entries (1,250 with server sides would be
# refused), prints so with -v, and the run is taken: every flow completes,
# none fails table_full, and no server entry is left.
# Runs on a [loop, loop] config: no lab needed.

. "$(dirname "$0")/lib.sh"

D=$FG_TOP/test/data
FG_TIMEOUT=40 fg_plain -C "$D/flows_small_cfg.yaml" \
	-k -x "start -f $D/flows_long.yaml -m 1000; start -f $D/flows_long.yaml -m max; wait 1; \
stats --json; wait 2; stop; stats --json" \
	>"$FG_TMP/lim.out" 2>&1
rc=$?
J=$FG_TMP/lim.out
# -k: the refused start fails the batch (exit 1), the rest still runs
check_eq "flows limits: flowgen exits 1 (one start refused)" 1 "$rc"
check_grep "flows limits: a run beyond flows_max refused before the start, both figures" \
	"^error: start: a worker's table would need 5,250 entries, [0-9.]+ MiB, for its 2,100 concurrent flows \(when the DUT answers; .*flows_max is 1,000 entries" "$J"
check_grep "flows limits: stop drained" '^stopped' "$J"
grep -m1 '^{' "$J" >"$FG_TMP/lim.1"
check_eq "flows limits: after 1 s, the client half of the table is full (500 flows)" 500 \
	"$(json_get "$FG_TMP/lim.1" flows.client.active || echo missing)"
check_eq "flows limits: ... and their 500 server sides the other half" 500 \
	"$(json_get "$FG_TMP/lim.1" flows.server.active || echo missing)"
started=$(json_get "$J" flows.client.started || echo 0)
check_ge "flows limits: flows started (half a table, then as flows end)" "$started" 500
check_eq "flows limits: no client flow failed table_full" 0 \
	"$(json_get "$J" flows.client.fail_reasons.table_full || echo missing)"
check_eq "flows limits: no server flow failed table_full" 0 \
	"$(json_get "$J" flows.server.fail_reasons.table_full || echo missing)"
check_ge "flows limits: flows completed" "$(json_get "$J" flows.client.completed || echo 0)" 500
check_eq "flows limits: started = completed + failed" "$started" \
	"$(( $(json_get "$J" flows.client.completed || echo 0) + $(json_get "$J" flows.client.failed || echo 0) ))"

# --- a server that takes no entry -------------------------------------------
U=$FG_TMP/srv_free.out
FG_TIMEOUT=40 fg_plain -C "$D/flows_small_cfg.yaml" \
	-x "start -v -f $FG_TOP/profiles/udp_short.yaml -m 5000 -d 2; wait; stats --json" >"$U" 2>&1
rc=$?
check_eq "srv_free: flowgen exits 0 (the run is taken)" 0 "$rc"
check_grep "srv_free: -v prints the plan, the client side alone (625 entries for 500 flows)" \
	'^tables: worker 0: need 500 flows \(625 entries\), want 10,000 \(11,600 entries\): table 1,000 entries' "$U"
grep -m1 '^{' "$U" >"$FG_TMP/srv_free.json"
jpre "$FG_TMP/srv_free.json" flows.client.started flows.client.completed flows.client.failed \
	flows.client.fail_reasons.table_full flows.server.fail_reasons.table_full flows.server.accepted \
	flows.server.active
s=$(jn "$FG_TMP/srv_free.json" flows.client.started)
check_ge "srv_free: >= 9,500 of 10,000 flows started" "$s" 9500
check_eq "srv_free: every flow completed" "$s" "$(jn "$FG_TMP/srv_free.json" flows.client.completed)"
check_eq "srv_free: none failed" 0 "$(jn "$FG_TMP/srv_free.json" flows.client.failed)"
check_eq "srv_free: no client table_full" 0 "$(jn "$FG_TMP/srv_free.json" flows.client.fail_reasons.table_full)"
check_eq "srv_free: no server table_full" 0 "$(jn "$FG_TMP/srv_free.json" flows.server.fail_reasons.table_full)"
check_eq "srv_free: the server accepted each" "$s" "$(jn "$FG_TMP/srv_free.json" flows.server.accepted)"
check_eq "srv_free: no server entry left" 0 "$(jn "$FG_TMP/srv_free.json" flows.server.active)"

finish
