#!/usr/bin/env bash
#
# 96_api.sh — the HTTP API (flowgen(8), API) on a [loop, loop] config:
# flowgen runs in the background with --api on a free loopback port and
# its console's stdin on a FIFO, so the test speaks to both. Checked:
# GET /capabilities/version; every console command over
# POST /flowgen/v1/command (stats --json parsed into "json"; a short
# streams run started and waited for through the API, its counters equal
# to what the console's own `stats --json` prints); a run started from
# the console refuses an API start and the other way round; async
# commands polled to the end, and a request answered while one runs;
# cancel (^C's equivalent) ends an async `wait` and stops the traffic;
# malformed JSON 400, an oversized body 413, a depth bomb 400, an
# unknown path 404 (these in a lane once the bench is done), an OTG path
# reaches the OTG handlers; `api` lists the requests;
# a client stalled mid-body blocks nobody and is closed after the idle
# timeout; quit through the API ends flowgen. Beside those, in a lane once
# the bench is done, start-up checks: a non-loopback
# --api without TLS and a token is refused (exit 64); with a self-signed
# certificate and a token, a request without the token is 401, with it
# 200, and SIGTERM ends a flowgen that serves the API after an empty stdin.
#
# FG_E2E_NOHUGE=1 runs flowgen with --no-huge (no hugepages taken).

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fg_jq.sh"

CFG=$(fg_loop_cfg)
PROF=$FG_TOP/profiles/stl_64b.yaml
EAL=()
[ "${FG_E2E_NOHUGE:-0}" = 1 ] && EAL=(-- --no-huge)

if ! have_flowgen; then
	echo "# $FG_BIN is not built: every check below fails"
fi
if ! command -v curl >/dev/null 2>&1; then
	fail "curl is installed" "Debian: curl"
	finish
	exit
fi

# cmd COMMAND [async] : POST /flowgen/v1/command
cmd()
{
	local a=
	[ "${2:-}" = async ] && a=', "async": true'
	http POST /flowgen/v1/command "$(cmd_body "$1" "$a")"
}

# console LINE : a line for flowgen's console (its stdin FIFO)
console()
{
	printf '%s\n' "$1" >&7
}

# --- start ----------------------------------------------------------------------

OUT=$FG_TMP/out
ERR=$FG_TMP/err
jq_start
# the TLS part's certificate, made while flowgen starts (before any check
# that measures time)
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost \
	-keyout "$FG_TMP/key.pem" -out "$FG_TMP/cert.pem" >/dev/null 2>&1 &
KEYGEN=$!
if api_start "${EAL[@]}"; then
	pass "flowgen --api $PORT listens on loopback"
else
	fail "flowgen --api $PORT listens on loopback" "$(tail -n 5 "$ERR")"
fi

# a client that sends part of a body and stalls: the others are served,
# and libmicrohttpd closes it after the idle timeout (10 s); it stalls
# from here on while the checks below run (their requests are served
# beside it; one of them is checked for it once its request is sent), and
# its end is checked before quit (started this early, its 10 s pass while
# the checks run rather than at the end)
python3 - "$PORT" >"$FG_TMP/slow.out" 2>&1 <<-'PY' &
	import socket, sys, time
	s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
	s.sendall(b"POST /flowgen/v1/command HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{")
	print("sent", flush=True)
	t0 = time.time()
	s.settimeout(30)
	try:
	    d = s.recv(100)
	except Exception as e:
	    d = repr(e).encode()
	print("closed after %.0f s %r" % (time.time() - t0, d[:20]))
PY
SLOW=$!

http GET /capabilities/version
check_eq "GET /capabilities/version: 200" 200 "$ST"
check_eq "version: app_version is flowgen's" "$("$FG_BIN" -V | awk '{ print $2 }')" \
	"$(jq_ 'o["app_version"]')"
check_eq "version: api_spec_version is 1.x.y, sdk_version empty" "True" \
	"$(jq_ '__import__("re").fullmatch(r"1\.\d+\.\d+", o["api_spec_version"]) is not None and o["sdk_version"] == ""')"

cmd 'stats --json'
check_eq "command 'stats --json': 200" 200 "$ST"
check_eq "command 'stats --json': ok, exit 0, its JSON parsed" "True 0 True" \
	"$(jq_ 'o["ok"], o["exit"], "tx_pkts" in o["json"]["global"]' | tr -d '(),')"

check_eq "command 'stats --json': the value itself, with no JSON text in output" "True" \
	"$(jq_ 'isinstance(o["json"]["ports"], list) and "{" not in o["output"]')"

# trials of 0.5 s (the value's form is checked, not the figure it finds)
cmd "bench throughput -f $FG_TOP/profiles/stl_64b.yaml -m 5 --trial 0.5 --confirm 0.5 -t learn_wait=0.2,drain=0.3 --json"
check_eq "command 'bench throughput --json': 200, ok, the result value itself" "200 True True True" \
	"$ST $(jq_ 'o["ok"], o["json"]["result"]["found"] is not None, isinstance(o["json"]["trials"], list)' | tr -d '(),')"
check_eq "command 'bench throughput --json': the trial lines in output, no JSON text there" "True True" \
	"$(jq_ '"pass" in o["output"], "\"trials\"" not in o["output"]' | tr -d '(),')"

# --- security (a lane) -------------------------------------------------------------

# security : the start-up checks, in a lane of their own beside the
# checks below (their flowgen processes are not the one those speak to;
# only the bench above is a measurement, and it is over): its HTTP bodies
# in a folder of its own, its jq_ a python3 of its own (not the shared
# one of fg_jq.sh)
security()
{
	local D=$FG_TMP rc=0
	# the console's FIFO and fg_jq.sh's are not this lane's to hold open
	exec 7>&- {FG_JQW}>&- {FG_JQR}<&-
	FG_TMP=$D/security
	mkdir -p "$FG_TMP"
	jq_()
	{
		python3 -c 'import json, sys; o = json.loads(sys.argv[2]); print(eval(sys.argv[1]))' "$1" "$B" 2>&1
	}
	"$FG_BIN" -C "$CFG" --api "0.0.0.0:$(free_port)" "${EAL[@]}" </dev/null >"$FG_TMP/out" 2>"$FG_TMP/err" || rc=$?
	check_eq "a non-loopback --api without TLS and token: exit 64" 64 "$rc"
	check_grep "the refusal says why" 'not a loopback address.*TLS.*token' "$FG_TMP/err"

	head -c 24 /dev/urandom | base64 >"$FG_TMP/token"
	TOKEN=$(head -n 1 "$FG_TMP/token")
	PORT=$(free_port)
	"$FG_BIN" -C "$CFG" --api "0.0.0.0:$PORT" --api-cert "$D/cert.pem" \
		--api-key "$D/key.pem" --api-token-file "$FG_TMP/token" "${EAL[@]}" \
		</dev/null >"$FG_TMP/out" 2>"$FG_TMP/err" &
	FG_PID=$!
	echo "$FG_PID" >"$FG_TMP/pid"
	if wait_for '^api: listening on https://0.0.0.0:' "$FG_TMP/err" 60 "$FG_PID"; then
		pass "with TLS and a token, --api 0.0.0.0 listens (and serves on after an empty stdin)"
	else
		fail "with TLS and a token, --api 0.0.0.0 listens" "$(tail -n 5 "$FG_TMP/err")"
	fi
	BASE=https://127.0.0.1:$PORT
	http GET /capabilities/version '' -k
	check_eq "TLS, no token: 401" 401 "$ST"
	check_eq "TLS, no token: an OTG Error" "401 validation" "$(jq_ 'o["code"], o["kind"]' | tr -d "(),'")"
	http GET /capabilities/version '' -k -H "Authorization: Bearer ${TOKEN}x"
	check_eq "TLS, a wrong token: 401" 401 "$ST"
	http GET /capabilities/version '' -k -H "Authorization: Bearer $TOKEN"
	check_eq "TLS, the token: 200" 200 "$ST"
	http POST /flowgen/v1/command '{"command": "echo over-tls"}' -k -H "Authorization: Bearer $TOKEN"
	check_eq "TLS, the token: a command runs" "200 over-tls" "$ST $(jq_ 'o["output"].strip()')"
	BASE=http://127.0.0.1:$PORT
	http GET /capabilities/version '' -H "Authorization: Bearer $TOKEN"
	check_eq "plain HTTP to the TLS port gets no answer" "True" "$([ "$ST" != 200 ] && echo True)"
	kill -TERM "$FG_PID"
	pid_end "$FG_PID"
	check_eq "SIGTERM ends a flowgen that serves the API, status 0" 0 "$RC"
}
wait "$KEYGEN"
at_exit "kill \$(cat $FG_TMP/security/pid)"
lane security security

# bad_requests : requests flowgen refuses before any command runs, in a
# lane beside the checks below once the bench is done (as security): its
# HTTP bodies in a folder of its own, its jq_ a python3 of its own. The
# OTG path and `api` stay in this shell: `api` lists the last 10
# requests, and /config must be among them.
bad_requests()
{
	local D=$FG_TMP
	exec 7>&- {FG_JQW}>&- {FG_JQR}<&-
	FG_TMP=$D/bad
	mkdir -p "$FG_TMP"
	jq_()
	{
		python3 -c 'import json, sys; o = json.loads(sys.argv[2]); print(eval(sys.argv[1]))' "$1" "$B" 2>&1
	}
	http POST /flowgen/v1/command '{"command": "stats"'
	check_eq "malformed JSON: 400" 400 "$ST"
	check_eq "malformed JSON: an OTG Error" "400 validation True" \
		"$(jq_ 'o["code"], o["kind"], len(o["errors"]) == 1' | tr -d "(),'")"
	http POST /flowgen/v1/command '{"cmd": "stats"}'
	check_eq "a key that is not ours: 400" 400 "$ST"
	{ printf '{"command": "'; head -c $((1100 * 1024)) /dev/zero | tr '\0' x; printf '"}\n'; } >"$FG_TMP/big.json"
	http POST /flowgen/v1/command "@$FG_TMP/big.json"
	check_eq "a body over 1 MiB: 413" 413 "$ST"
	{ printf '{"command": '; head -c 200000 /dev/zero | tr '\0' '['; head -c 200000 /dev/zero | tr '\0' ']'; printf '}\n'; } >"$FG_TMP/deep.json"
	http POST /flowgen/v1/command "@$FG_TMP/deep.json"
	check_eq "a depth bomb: 400" 400 "$ST"
	check_eq "a depth bomb: says how deep is allowed" "True" "$(jq_ '"deeper than 32" in o["errors"][0]')"
	http GET /flowgen/v1/command
	check_eq "GET /flowgen/v1/command: 405" 405 "$ST"
	http GET /no/such/path
	check_eq "an unknown path: 404 (OTG Error)" "404 404" "$ST $(jq_ 'o["code"]')"
}
lane bad bad_requests

cmd 'portattr -p 1'
check_eq "command 'portattr': its value, port 1 of the loop pair with its address and a known TSC rate" \
	"True 1 198.19.1.2 True True" \
	"$(jq_ 'o["ok"], o["json"]["ports"][0]["port"], o["json"]["ports"][0]["ip"], len(o["json"]["ports"]) == 1, o["json"]["tsc_hz"] > 0' | tr -d "(),'")"
check_eq "command 'portattr': its text beside the value, as the console prints it" "True" \
	"$(jq_ '"TSC " in o["output"] and "driver" in o["output"]')"

# --- every command gives its value, its text beside it ----------------------------

cmd 'service'
check_eq "command 'service': its value, and its text" "True True" \
	"$(jq_ 'o["json"]["service"], o["output"] == "service mode on\n"' | tr -d '(),')"
cmd "start -f $PROF -d 30 -t learn=0,drain=0.3"
check_eq "command 'start': the run's number, engine, -m, how it ends, the service warning" \
	"True streams x1 duration 30.0 True True" \
	"$(jq_ 'isinstance(o["json"]["run_id"], int), o["json"]["engine"], o["json"]["mult"], o["json"]["ends"], o["json"]["duration_s"], o["json"]["profile"].endswith("stl_64b.yaml"), any("service mode" in w for w in o["json"]["warnings"])' | tr -d "(),'")"
check_eq "command 'start': its text beside the value, warning first" "True" \
	"$(jq_ 'o["output"].index("warning: start: service mode is on") < o["output"].index("started ")')"
cmd 'service --off'
check_eq "command 'service --off': its value" "False" "$(jq_ 'o["json"]["service"]')"
cmd 'update -m 2'
check_eq "command 'update': the rate against the start's" "2.0 True" \
	"$(jq_ 'o["json"]["scale"], o["output"] == "rate x2.000 of the start rate\n"' | tr -d '(),')"
cmd 'update -m 10%'
check_eq "command 'update' of another form than start's: refused, nothing changed" "False refused" \
	"$(jq_ 'o["ok"], o["error"]["code"]' | tr -d "(),'")"
cmd 'pause'
check_eq "command 'pause': the traffic's state" "True paused" "$(jq_ 'o["json"]["paused"], o["json"]["state"]' | tr -d "(),'")"
cmd 'resume'
check_eq "command 'resume': the traffic's state" "False running" "$(jq_ 'o["json"]["paused"], o["json"]["state"]' | tr -d "(),'")"
cmd 'capture start -p 1 --rx --limit 50'
check_eq "command 'capture start': the capture's state" "True 1 none" \
	"$(jq_ 'o["json"]["capture"]["running"], o["json"]["capture"]["rx_ports"], o["json"]["capture"]["tx_ports"]' | tr -d "(),'")"
# until it holds its 50 frames (20 kpps: a few ms)
for _ in $(seq 25); do
	cmd 'capture status --json'
	[ "$(jq_ 'o["json"]["capture"]["frames"] >= 50')" = True ] && break
	sleep 0.2
done
cmd 'capture stop'
check_eq "command 'capture stop': the frames it holds (its limit, 50)" "False 50" \
	"$(jq_ 'o["json"]["capture"]["running"], o["json"]["capture"]["frames"]' | tr -d "(),'")"
cmd "capture save $FG_TMP/api.pcapng"
check_eq "command 'capture save': the file and its frames" "$FG_TMP/api.pcapng 50" \
	"$(jq_ 'o["json"]["file"], o["json"]["frames"]' | tr -d "(),'")"
cmd 'wait 0.1'
check_eq "command 'wait 0.1' with traffic running: not idle, ~0.1 s waited" "False True" \
	"$(jq_ 'o["json"]["idle"], 0.09 <= o["json"]["waited_s"] < 5' | tr -d '(),')"
cmd 'stop'
check_eq "command 'stop': stopped, idle" "True idle True" \
	"$(jq_ 'o["json"]["stopped"], o["json"]["state"], o["output"] == "stopped\n"' | tr -d "(),'")"
cmd 'stop'
check_eq "command 'stop' with nothing running: not stopped, says so" "False True" \
	"$(jq_ 'o["json"]["stopped"], o["output"] == "no traffic running\n"' | tr -d "(),'")"
cmd 'pause'
check_eq "command 'pause' with nothing running: refused, with a hint" "False refused True" \
	"$(jq_ 'o["ok"], o["error"]["code"], o["error"]["hint"] != ""' | tr -d "(),'")"
cmd 'arp'
check_eq "command 'arp' on the loop pair: each port's static next hop (dest_mac), in the value and the text" \
	"2 static static 02:00:00:00:00:02 198.18.1.1 True True" \
	"$(jq_ 'len(o["json"]["next_hops"]), o["json"]["next_hops"][0]["source"], o["json"]["next_hops"][1]["source"], o["json"]["next_hops"][0]["gw_mac"], o["json"]["next_hops"][0]["gw"], all(h["resolved"] for h in o["json"]["next_hops"]), "gw 198.19.1.1 MAC 02:00:00:00:00:01 (static dest_mac)" in o["output"]' | tr -d "(),'")"
cmd 'ping -p 0 -d not-an-address'
check_eq "command 'ping' with a bad address: a usage error naming -d" "400 usage -d" \
	"$ST $(jq_ 'o["error"]["code"], o["error"]["path"]' | tr -d "(),'")"

cmd 'no-such-command'
check_eq "an unknown command: 400, ok false, exit 1, the error in output" "400 False 1 True" \
	"$ST $(jq_ 'o["ok"], o["exit"], "unknown command" in o["output"]' | tr -d '(),')"
check_eq "an unknown command: the error value names it" "unknown_command no-such-command True" \
	"$(jq_ 'o["error"]["code"], o["error"]["path"], "no-such-command" in o["error"]["message"]' | tr -d "(),'")"

cmd 'stats --bogus'
check_eq "a bad option: 400 with a usage error naming it" "400 usage --bogus" \
	"$ST $(jq_ 'o["error"]["code"], o["error"]["path"]' | tr -d "(),'")"

cmd 'wait nonsense-seconds'
check_eq "a bad argument: 400 with a usage error naming it" "400 usage nonsense-seconds" \
	"$ST $(jq_ 'o["error"]["code"], o["error"]["path"]' | tr -d "(),'")"

cmd 'capture stop'
check_eq "a command that runs and fails: 200, ok false, an error value" "200 False refused True" \
	"$ST $(jq_ 'o["ok"], o["error"]["code"], o["error"]["message"] != ""' | tr -d "(),'")"

# the stalled client's request is sent (the line it prints first)
wait_for '^sent$' "$FG_TMP/slow.out" 10 "$SLOW"
cmd 'echo beside-a-slow-client'
check_eq "a client stalled mid-body holds up no other request" "200 True" \
	"$ST $(jq_ 'o["output"] == "beside-a-slow-client\n"')"

# --- a short run through the API, against the console's figures ---------------

cmd "start -f $PROF -d 1 -t learn=0,drain=0.3"
check_eq "API start: ok" "True" "$(jq_ 'o["ok"]')"
cmd 'wait'
check_eq "API wait: returns once the run has ended" "True" "$(jq_ 'o["ok"]')"
# wait returns once the traffic is idle, its drain done: the counters are
# final
cmd 'stats --json'
api_tx=$(jq_ 'o["json"]["global"]["tx_pkts"]')
api_rx=$(jq_ 'o["json"]["global"]["rx_pkts"]')
check_ge "API run: 10 kpps for 1 s sent" "$api_tx" 9000
console 'stats --json'
console 'echo console-stats-done'
check "the console runs its stdin's lines beside the API" \
	wait_for '^console-stats-done$' "$OUT" 20 "$FG_PID"
jpre "$OUT" global.tx_pkts global.rx_pkts
con_tx=$(json_get "$OUT" global.tx_pkts)
con_rx=$(json_get "$OUT" global.rx_pkts)
check_eq "API and console stats agree: tx_pkts" "$con_tx" "$api_tx"
check_eq "API and console stats agree: rx_pkts" "$con_rx" "$api_rx"

# --- one run life cycle --------------------------------------------------------

console "start -f $PROF -d 20 -t drain=0.3"
check "a console start" wait_for '^started ' "$OUT" 20 "$FG_PID"
cmd "start -f $PROF -d 1 --force"
check_eq "a console run going: an API start is refused" "False" "$(jq_ 'o["ok"]')"
check_eq "the refusal names the console" "True" \
	"$(jq_ '"started from the console" in o["output"]')"
cmd 'stop'
check_eq "API stop of the console's run" "True" "$(jq_ 'o["ok"]')"

cmd "start -f $PROF -d 20"
check_eq "API start (for the console to be refused)" "True" "$(jq_ 'o["ok"]')"
console "start -f $PROF -d 1 --force"
console 'echo console-start-tried'
check "the console's start tried" wait_for '^console-start-tried$' "$OUT" 20 "$FG_PID"
check_grep "an API run going: a console start is refused, naming the API" \
	'started from the API is going' "$ERR"

# --- async, poll, cancel ---------------------------------------------------------

cmd 'wait' async
check_eq "async wait: 202" 202 "$ST"
id=$(jq_ 'o["id"]')
http GET "/flowgen/v1/command/$id"
check_eq "async wait: polled while running" "running" "$(jq_ 'o["state"]')"
t0=$(date +%s%N)
cmd 'echo inside'
check_eq "a command answered while an async wait runs" "True" \
	"$(jq_ 'o["ok"] and o["output"] == "inside\n"')"
http POST /flowgen/v1/cancel '{}'
check_eq "POST /flowgen/v1/cancel: 200" 200 "$ST"
state=
for _ in $(seq 50); do
	http GET "/flowgen/v1/command/$id"
	state=$(jq_ 'o["state"]')
	[ "$state" = done ] && break
	sleep 0.2
done
check_eq "cancel ends the async wait (20 s run) at once" "done" "$state"
check_eq "the ended wait has ok and output" "True" "$(jq_ '"ok" in o and "output" in o')"
cmd 'stats --json'
tx1=$(jq_ 'o["json"]["global"]["tx_pkts"]')
# counters are sampled every 100 ms (src/control/stats.h, STATS_SAMPLE_MS):
# 10 kpps would add 3,000 frames over the three samples of 0.3 s
sleep 0.3
cmd 'stats --json'
tx2=$(jq_ 'o["json"]["global"]["tx_pkts"]')
check_eq "cancel stops the traffic, as ^C does" "$tx1" "$tx2"
elapsed=$((($(date +%s%N) - t0) / 1000000000))
check_eq "async wait ended in seconds, not 20" "True" "$([ "$elapsed" -lt 10 ] && echo True)"

cmd 'sleep 0.5' async
id=$(jq_ 'o["id"]')
# polled until it is done (a 0.5 s sleep: well within 10 s)
for _ in $(seq 50); do
	sleep 0.2
	http GET "/flowgen/v1/command/$id"
	[ "$(jq_ 'o["state"]')" = done ] && break
done
check_eq "async sleep: done with ok true" "done True" "$(jq_ 'o["state"], o["ok"]' | tr -d "(),'")"
http GET /flowgen/v1/command/999999
check_eq "an unknown command id: 404" 404 "$ST"

# --- bad requests ----------------------------------------------------------------

http POST /config '{"flows": 3}'
check_eq "an OTG path goes to the OTG handlers: a wrong type is 400 with its path" "400 True" \
	"$ST $(jq_ 'o["errors"][0].startswith("flows:")')"

cmd 'api'
check_eq "the api command lists the last requests" "True" \
	"$(jq_ '"clients served" in o["output"] and "/config" in o["output"]')"
cmd 'tui'
check_eq "tui over HTTP: 400" 400 "$ST"

# the stalled client, started at the beginning
wait "$SLOW"
check_grep "the stalled connection is closed after the 10 s idle timeout" \
	"^closed after (9|1[0-3]) s b''" "$FG_TMP/slow.out"

cmd 'quit'
check_eq "quit through the API: answered" "True" "$(jq_ 'o["ok"]')"
pid_end "$FG_PID"
# the script's status: 1, since the console's start was refused
check_eq "quit through the API ends flowgen with the script's status" 1 "$RC"
exec 7>&-

lane_end security
lane_end bad

finish
