"""Reading flowgen's JSON output in the e2e scenarios (test/e2e/lib.sh).

A run's output mixes text and JSON objects (`stats --json`, `bench`
results, API replies); the helpers of lib.sh import this module to find
them, through the PYTHONPATH lib.sh sets.
"""
import json


def objects(text, start="{"):
    """The JSON objects of text that begin with start, in order; text
    that does not parse as an object is skipped."""
    dec, i, out = json.JSONDecoder(), 0, []
    while True:
        j = text.find(start, i)
        if j < 0:
            return out
        try:
            o, i = dec.raw_decode(text, j)
            out.append(o)
        except ValueError:
            i = j + 1


def last(text, start="{"):
    """The last of objects(text, start), or None."""
    objs = objects(text, start)
    return objs[-1] if objs else None


def at(v, path):
    """The value at a dotted path ("ports.1.rx_pkts": list items by
    number); raises KeyError, IndexError, ValueError or TypeError."""
    for k in path.split("."):
        v = v[int(k)] if isinstance(v, list) else v[k]
    return v


def show(v):
    """A value as the scenarios compare it: objects and lists as JSON,
    anything else as Python prints it."""
    return json.dumps(v) if isinstance(v, (dict, list)) else str(v)
