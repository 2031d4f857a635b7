# test/bench/lib.sh — sourced by test/bench/run.sh (make bench) and
# test/bench/pgo-train.sh (make PGO=1).

# jget FILE PATH: a value of the last JSON line of FILE that parses (PATH:
# dot-separated keys and list indices, flows.client.completed); 0 when
# there is none.
jget() { python3 -c 'import json,sys
d = None
for line in open(sys.argv[1]):
    line = line.strip()
    if line.startswith("{"):
        try: d = json.loads(line)
        except ValueError: pass
v = d
for k in sys.argv[2].split("."):
    v = v[int(k)] if isinstance(v, list) else v[k]
print(v)' "$1" "$2" 2>/dev/null || echo 0; }
