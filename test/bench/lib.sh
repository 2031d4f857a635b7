# test/bench/lib.sh — sourced by test/bench/run.sh (make bench) and
# test/bench/pgo-train.sh (make PGO=1).

# The start of a python3 program: d, the last JSON line of the file
# sys.argv[1] that parses (None when there is none).
JLAST='import json,sys
d = None
for line in open(sys.argv[1]):
    line = line.strip()
    if line.startswith("{"):
        try: d = json.loads(line)
        except ValueError: pass
'

# jget FILE PATH: a value of the last JSON line of FILE that parses (PATH:
# dot-separated keys and list indices, flows.client.completed); 0 when
# there is none.
jget() { python3 -c "$JLAST"'
v = d
for k in sys.argv[2].split("."):
    v = v[int(k)] if isinstance(v, list) else v[k]
print(v)' "$1" "$2" 2>/dev/null || echo 0; }

# jclean FILE: the counters of a stateful run (the last JSON line of FILE
# that parses, `stats --json`) that must be 0 in every trial: each flow's
# failures on either side (payloads that did not match among them: their
# reason payload_mismatch), servers that were not flowgen. "ok" when all
# are 0, else the others as NAME=VALUE joined by commas
# (client.failed=12,client.foreign_server=3); "no-stats" when FILE holds
# no stats.
jclean() { python3 -c "$JLAST"'
if not d or "flows" not in d:
    print("no-stats"); sys.exit()
want = {"client.failed": 0, "server.failed": 0, "client.foreign_server": 0}
bad = []
for k, v in want.items():
    side, name = k.split(".")
    got = d["flows"].get(side, {}).get(name)
    if got != v:
        bad.append("%s=%s" % (k, got))
print(",".join(bad) or "ok")' "$1" 2>/dev/null || echo no-stats; }
