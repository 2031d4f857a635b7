"""One python3 for a scenario's jq_ calls (96_api.sh, 97_otg.sh,
98_api_lab.sh): a python3 per expression costs 80 ms or more on a busy
machine, and those scenarios evaluate dozens.

Reads requests on stdin, one a line: the path of a file holding a JSON
text, a tab, then a Python expression over `o`, that text parsed (json and
sys are there as in lib.sh's jq_). Answers each on stdout: the number of
lines of what print(EXPR) would print, then those lines; an expression or
text that fails gives the error's text instead, as jq_'s 2>&1 would show
it (its last line).
"""
import json
import sys
import traceback

for req in sys.stdin:
    path, _, expr = req.rstrip("\n").partition("\t")
    try:
        with open(path) as f:
            o = json.loads(f.read())
        r = str(eval(expr, {"json": json, "sys": sys, "o": o}))
    except Exception as e:
        r = "".join(traceback.format_exception_only(type(e), e)).strip()
    lines = r.split("\n")
    sys.stdout.write("%d\n%s\n" % (len(lines), "\n".join(lines)))
    sys.stdout.flush()
