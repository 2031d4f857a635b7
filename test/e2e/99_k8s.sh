#!/usr/bin/env bash
#
# 99_k8s.sh — the Kubernetes manifests of deploy/kubernetes, offline (no
# cluster, no kubectl): test/k8s/validate.js checks what kubectl apply -k
# builds, as it is and with each component (af_xdp, sriov), against the
# Kubernetes API's OpenAPI schemas and prometheus-operator's ServiceMonitor
# schema (types, formats, enums, required fields, and no unknown field),
# and against flowgen's own rules: hugepages-2Mi, memory and whole CPUs
# requested at their limits, the hugepages emptyDir at /dev/hugepages,
# exactly IPC_LOCK, NET_ADMIN and NET_RAW added (and SYS_ADMIN with af_xdp) after
# dropping ALL, not privileged, the API's certificate, key and token from
# Secrets defined in the manifests, the Service selecting the pods and
# targeting the port named api, the ServiceMonitor selecting the Service
# with the token Secret and the certificate, the scrape annotations.
# validate.js prints a PASS or FAIL line per check; each becomes one here.
#
# Meanwhile broken copies of the manifests (a wrong type, a hugepages
# request without its limit, an unknown field, a Secret that does not
# exist, a ServiceMonitor selecting nothing, one capability too many,
# privileged, the runtime's default seccomp profile, under which DPDK
# gets no hugepages): each must make validate.js exit 1 with the FAIL it
# is there for.
#
# Then the container as the manifests start it, with the real binary:
# start.sh from the ConfigMap renders each tester's platform config, which
# flowgen --check takes with the tester's profiles; flowgen-0's command
# line (paths moved under a directory, $(POD_NAME) expanded) runs in a
# network namespace of its own, its ports net_af_packet on fg0 and fg1
# (a veth pair there, as Multus would give), its stdin /dev/null, and
# must serve the API over TLS with the token (401 without it) and end on
# SIGTERM.
#
# The npm packages (test/k8s/package-lock.json) are installed by npm ci
# into test/k8s/node_modules when that is missing or older than the lock
# (--prefer-offline: from npm's cache when it has them). Without node and
# npm (make deps installs Debian's), or when npm ci fails, the scenario
# fails and says why.

. "$(dirname "$0")/lib.sh"

K8S=$FG_TOP/test/k8s
MAN=$FG_TOP/deploy/kubernetes
cd "$FG_TOP" || exit 1

# --- the checker's packages -------------------------------------------------------

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
	fail "node and npm are installed" "make deps installs Debian's nodejs and npm"
	finish
	exit
fi
major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null)
check_ge "node is version 18 or later (test/k8s/package.json engines)" "$major" 18
if ! [ "${major:-0}" -ge 18 ] 2>/dev/null; then
	finish
	exit
fi
stamp=$K8S/node_modules/.flowgen-lock
want=$(sha256sum "$K8S/package-lock.json" | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
	if (cd "$K8S" && timeout -k 10 300 npm ci --prefer-offline --no-audit --no-fund) >"$FG_TMP/npm.out" 2>&1; then
		echo "$want" >"$stamp"
		pass "npm ci: test/k8s's packages installed from its package-lock.json"
	else
		fail "npm ci: test/k8s's packages installed from its package-lock.json" \
			"npm ci failed (no registry and nothing in npm's cache?): $(grep -m 3 -E 'ERR|error' "$FG_TMP/npm.out" | tr '\n' ' ')"
		finish
		exit
	fi
else
	pass "npm ci: test/k8s's packages are those of its package-lock.json"
fi

# The runs of validate.js (and mutate.js's patches) go to two
# `validate.js --jobs` processes, one per CPU, each of which starts node
# and reads the models and TypeScript's declarations once for all its
# runs: a process per run (12 of validate.js, 8 of mutate.js) read them
# each time, and the scenario took 19 s of CPU (user) where it now takes
# 7. job OUT ERR RC MUTATE-FILE MUTATE-TARGET MUTATE-PATCH ARG... lists a
# run (validate.js --jobs says what the fields are) for the process with
# the lighter load: a run with the TypeScript pass weighs 5 (its checker,
# half a second), one with --no-fields 1. validate_start starts both.
JOB_W=(0 0)
declare -A JOB_LIST
job()
{
	local l=0 w=5 a
	for a in "${@:7}"; do
		[ "$a" = --no-fields ] && w=1
	done
	[ "${JOB_W[1]}" -lt "${JOB_W[0]}" ] && l=1
	JOB_W[l]=$((JOB_W[l] + w))
	JOB_LIST[$3]=$l
	printf '%s\0' "$@" '' >>"$FG_TMP/jobs.$l"
}
validate_start()
{
	local l
	for l in 0 1; do
		[ -f "$FG_TMP/jobs.$l" ] || continue
		(node "$K8S/validate.js" --jobs "$FG_TMP/jobs.$l" >"$FG_TMP/jobs.$l.log" 2>&1
		echo "exit $?" >>"$FG_TMP/jobs.$l.log") &
	done
}
# jobs_log RC : what the process that had the run of RC printed, when the
# run left no exit status (the process ended before it)
jobs_log()
{
	[ -s "$1" ] && return
	echo "(no exit status: validate.js --jobs ended before it: $(tail -n 3 "$FG_TMP/jobs.${JOB_LIST[$1]}.log" 2>/dev/null | tr '\n' ' '))"
}

# validate TAG ARGS... : a run of validate.js --tsv ARGS..., its output in
# files of its own; validate_judge TAG then makes its PASS and FAIL
# lines checks, in the order the judgements are called
validate()
{
	local t=$1
	shift
	V_ARGS[$t]="$*"
	job "$FG_TMP/v.$t.out" "$FG_TMP/v.$t.err" "$FG_TMP/v.$t.rc" '' '' '' --tsv "$@"
}
declare -A V_ARGS
validate_judge()
{
	local t=$1 k n r rc
	wait
	rc=$(cat "$FG_TMP/v.$t.rc" 2>/dev/null)
	while IFS=$'\t' read -r k n r; do
		case "$k" in
		PASS) pass "$n" ;;
		FAIL) fail "$n" "$r" ;;
		esac
	done <"$FG_TMP/v.$t.out"
	if [ "$rc" != 0 ] && ! grep -q '^FAIL' "$FG_TMP/v.$t.out"; then
		fail "validate.js ${V_ARGS[$t]}" "exit $rc with no FAIL line: $(tail -n 3 "$FG_TMP/v.$t.err")$(jobs_log "$FG_TMP/v.$t.rc")"
	fi
}

# --- broken copies --------------------------------------------------------------------

# broken WHAT FILE KIND/NAME PATCH PATTERN [ARG] : a copy of deploy/kubernetes
# with PATCH (JSON 6902) applied to KIND/NAME of FILE (by mutate.js) must
# make validate.js fail with a FAIL line matching PATTERN. The copies are
# checked while the manifests are, then judged in order (broken_judge);
# ARG (--no-fields) spares a copy the TypeScript pass, half a second each,
# where its fault is not a field's.
NB=0
broken()
{
	local d=$FG_TMP/broken.$NB
	B_WHAT[NB]=$1
	B_PAT[NB]=$5
	cp -r "$MAN" "$d"
	job "$d.out" "$d.out" "$d.rc" "$d/$2" "$3" "$4" --label broken ${6:-} --extra "$d/secrets.example.yaml" "$d"
	NB=$((NB + 1))
}
broken_judge()
{
	local i d rc pat line
	wait
	for ((i = 0; i < NB; i++)); do
		d=$FG_TMP/broken.$i
		rc=$(cat "$d.rc" 2>/dev/null)
		pat="^FAIL k8s broken: .*${B_PAT[i]}"
		line=$(grep -Em1 -- "$pat" "$d.out" | sed 's/^FAIL k8s broken: //' | cut -c 1-160)
		if [ "$rc" = mutate ]; then
			fail "broken copy (${B_WHAT[i]}): made" "$(cat "$d.out")"
		elif [ "$rc" = 1 ] && [ -n "$line" ]; then
			pass "broken copy (${B_WHAT[i]}): rejected: $line"
		else
			fail "broken copy (${B_WHAT[i]}): rejected" "exit $rc; $(grep -m 3 '^FAIL' "$d.out" | tr '\n' ' ')$(jobs_log "$d.rc")"
		fi
	done
}

# --- the manifests as they are, and with each component ------------------------
# (listed first: the heavier runs first in each process)

SECRETS=(--extra "$MAN/secrets.example.yaml")
# the base run also lays out the run below (--dump-run)
RUN=$FG_TMP/pod
DUMP=()
is_root && DUMP=(--dump-run "$RUN")
validate base --label base "${SECRETS[@]}" "${DUMP[@]}" "$MAN"
validate af_xdp --label af_xdp --caps IPC_LOCK,NET_ADMIN,NET_RAW,SYS_ADMIN --component "$MAN/components/af_xdp" "${SECRETS[@]}" "$MAN"
validate sriov --label sriov --component "$MAN/components/sriov" "${SECRETS[@]}" "$MAN"

C=/spec/template/spec/containers/0
broken 'replicas: "two"' statefulset.yaml StatefulSet/flowgen \
	'[{"op": "replace", "path": "/spec/replicas", "value": "two"}]' \
	'schema: .*StatefulSet/flowgen: /spec/replicas must be integer' --no-fields
broken 'a hugepages-2Mi request without its limit' statefulset.yaml StatefulSet/flowgen \
	"[{\"op\": \"remove\", \"path\": \"$C/resources/limits/hugepages-2Mi\"}]" \
	'hugepages-2Mi requested, request = limit.*no hugepages-2Mi limit' --no-fields
broken 'a misspelt field: securityContex' statefulset.yaml StatefulSet/flowgen \
	"[{\"op\": \"move\", \"from\": \"$C/securityContext\", \"path\": \"$C/securityContex\"}]" \
	"fields: StatefulSet/flowgen: .*'\"securityContex\"' does not exist in type 'IContainer'"
broken 'the token from a Secret not in the manifests' statefulset.yaml StatefulSet/flowgen \
	'[{"op": "test", "path": "/spec/template/spec/volumes/4/name", "value": "api-token"},
	  {"op": "replace", "path": "/spec/template/spec/volumes/4/secret/secretName", "value": "flowgen-api-tokn"}]' \
	'--api-token-file /etc/flowgen/token/token is a key of a Secret in the manifests: Secret flowgen-api-tokn .*is not in the manifests' --no-fields
broken 'a ServiceMonitor that selects no Service' servicemonitor.yaml ServiceMonitor/flowgen \
	'[{"op": "replace", "path": "/spec/selector/matchLabels/app.kubernetes.io~1component", "value": "dut"}]' \
	'Service/flowgen: a ServiceMonitor selects it' --no-fields
broken 'SYS_ADMIN added' statefulset.yaml StatefulSet/flowgen \
	"[{\"op\": \"add\", \"path\": \"$C/securityContext/capabilities/add/-\", \"value\": \"SYS_ADMIN\"}]" \
	'adds exactly IPC_LOCK, NET_ADMIN, NET_RAW: adds IPC_LOCK, NET_ADMIN, NET_RAW, SYS_ADMIN' --no-fields
broken 'privileged' statefulset.yaml StatefulSet/flowgen \
	"[{\"op\": \"replace\", \"path\": \"$C/securityContext/privileged\", \"value\": true}]" \
	'not privileged, no privilege escalation: privileged true' --no-fields
broken 'seccomp RuntimeDefault without SYS_NICE' statefulset.yaml StatefulSet/flowgen \
	"[{\"op\": \"replace\", \"path\": \"$C/securityContext/seccompProfile/type\", \"value\": \"RuntimeDefault\"}]" \
	'seccomp lets DPDK set its NUMA memory policy .*: seccompProfile RuntimeDefault' --no-fields

validate_start
validate_judge base
validate_judge af_xdp
validate_judge sriov
check_nogrep "secrets.example.yaml is not among the kustomization's resources (its placeholders never replace real Secrets)" \
	'^[[:space:]]*-[[:space:]]*secrets\.example\.yaml' "$MAN/kustomization.yaml"

broken_judge

# --- the container, run ------------------------------------------------------------------

need_root "the tester container's command runs flowgen"
need_flowgen
wait
if [ "$(cat "$FG_TMP/v.base.rc" 2>/dev/null)" != 0 ]; then
	fail "the tester container's command line, laid out" "$(grep -m 2 '^FAIL' "$FG_TMP/v.base.out")"
	finish
	exit
fi
POD=$(grep '^{' "$FG_TMP/v.base.out" | tail -n 1)
# the pod's command line, environment and mounts, read by one python3 as
# shell assignments (each value quoted; one that is not there is empty)
eval "$(python3 - "$POD" <<'PY'
import json, shlex, sys
o = json.loads(sys.argv[1])
def mount(f):
    d = [m["dir"] for m in o["mounts"] if f(m)]
    return shlex.quote(d[0] if d else "")
print("ARGV=(" + " ".join(shlex.quote(a) for a in o["argv"]) + ")")
print("ENVS=(" + " ".join(shlex.quote(k + "=" + v) for k, v in o["env"].items()) + ")")
print("TLS=" + mount(lambda m: m["secret"] == "flowgen-api-tls"))
print("TOK=" + mount(lambda m: m["secret"] == "flowgen-api-token"))
print("PROF_DIR=" + mount(lambda m: m["mountPath"].endswith("/profiles")))
PY
)"
# the Secrets' files, as kubectl create secret makes them (secrets.example.yaml)
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=flowgen \
	-addext "subjectAltName=DNS:flowgen,DNS:*.flowgen.default.svc" \
	-keyout "$TLS/tls.key" -out "$TLS/tls.crt" >/dev/null 2>&1
head -c 24 /dev/urandom | base64 >"$TOK/token"
TOKEN=$(head -n 1 "$TOK/token")
# the image's flowgen is this build's
for i in "${!ARGV[@]}"; do
	[ "${ARGV[$i]}" = flowgen ] && ARGV[i]=$FG_BIN
done
check_eq "the container runs start.sh, then flowgen" "/bin/sh start.sh $FG_BIN" \
	"${ARGV[0]} $(basename "${ARGV[1]}") ${ARGV[2]}"
if ! "$FG_BIN" -h 2>&1 | grep -q -- '--name'; then
	# --name comes with the metrics (flowgen(8)); until then this build
	# runs the command line without it
	echo "# note: $FG_BIN has no --name yet: run without the manifests' --name=\$(POD_NAME)"
	for i in "${!ARGV[@]}"; do
		case "${ARGV[$i]}" in --name=*) unset 'ARGV[i]' ;; esac
	done
	ARGV=("${ARGV[@]}")
fi
CONF_DIR=$(dirname "${ARGV[1]}")

# every tester's config, rendered by start.sh as in its pod, with its profiles
for cfg in "$CONF_DIR"/flowgen-*.yaml; do
	t=$(basename "$cfg" .yaml)
	out=$FG_TMP/$t.yaml
	check "$t: start.sh renders its config, flowgen --check takes it with its profiles" \
		env "${ENVS[@]}" POD_NAME="$t" sh "$CONF_DIR/start.sh" "$FG_BIN" -C "$out" \
		--check "$PROF_DIR/$t"-*.yaml
done

NS=fgk-$BASHPID
[ -n "$FG_RESULTS" ] && echo "$NS" >>"$FG_RESULTS.ns"
ip netns add "$NS"
at_exit "ip netns del $NS"
ip -n "$NS" link set lo up
ip -n "$NS" link add fg0 type veth peer name fg1
ip -n "$NS" link set fg0 up
ip -n "$NS" link set fg1 up

ERR=$FG_TMP/pod.err
ip netns exec "$NS" env "${ENVS[@]}" "${ARGV[@]}" </dev/null >"$FG_TMP/pod.out" 2>"$ERR" &
FG_PID=$!
at_exit "kill $FG_PID"
if wait_for '^api: listening on https://0\.0\.0\.0:8443 ' "$ERR" 60 "$FG_PID"; then
	pass "flowgen-0's container: flowgen serves the API on 0.0.0.0:8443, over TLS"
else
	fail "flowgen-0's container: flowgen serves the API on 0.0.0.0:8443, over TLS" "$(tail -n 5 "$ERR")"
fi
check_grep "flowgen-0's container: start.sh put net_af_packet on fg0 and fg1 in its config" \
	'ports --vdev=net_af_packet0,iface=fg0 --vdev=net_af_packet1,iface=fg1' "$ERR"
API_NS=$NS
BASE=https://flowgen:8443
RES=(--resolve flowgen:8443:127.0.0.1 --cacert "$TLS/tls.crt")
http GET /capabilities/version '' "${RES[@]}"
check_eq "flowgen-0's container: no token, 401 (the certificate verified)" 401 "$ST"
http GET /capabilities/version '' "${RES[@]}" -H "Authorization: Bearer $TOKEN"
check_eq "flowgen-0's container: the Secret's token, 200" "200 $("$FG_BIN" -V | awk '{ print $2 }')" \
	"$ST $(jq_ 'o["app_version"]')"
http POST /flowgen/v1/command '{"command": "portattr"}' "${RES[@]}" -H "Authorization: Bearer $TOKEN"
check_eq "flowgen-0's container: a command over the API sees the ports of its config" \
	"200 True 198.18.1.10 net_af_packet 198.19.1.10 net_af_packet" \
	"$ST $(jq_ '" ".join(str(x) for x in [o["ok"]] + [v for p in o["json"]["ports"] for v in (p["ip"], p["driver"])])')"
check_eq "flowgen-0's container: still serving after its stdin's end (/dev/null, no -x)" yes \
	"$(kill -0 "$FG_PID" 2>/dev/null && echo yes)"
kill -TERM "$FG_PID"
pid_end "$FG_PID"
check_eq "flowgen-0's container: SIGTERM ends it, status 0" 0 "$RC"

finish
