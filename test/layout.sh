#!/usr/bin/env bash
#
# layout.sh — the shape checks that need no build, run by `make` before
# every link (and again, among the others, by test/e2e/06_layout.sh):
#
#  1. no #include in src/ or include/ names a path ("../console/cli.h",
#     "sub/x.h"): a file includes the headers of the folders its -I rule
#     in the Makefile allows, by name, so the rule is the whole story.
#
# Prints what is wrong, one line each, and exits 1; silent and 0 otherwise.

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1

bad=$(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*/' src/*.c src/*/*.[ch] include/*.h)
if [ -n "$bad" ]; then
	printf '%s\n' "$bad" | sed 's/^/layout: an #include with a path (include by name; the Makefile'"'"'s -I rule says which folders): /' >&2
	exit 1
fi
exit 0
