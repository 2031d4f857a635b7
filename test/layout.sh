#!/usr/bin/env bash
#
# layout.sh — the shape checks that need no build, run by `make` before
# every link (and again, among the others, by test/e2e/06_layout.sh):
#
#  1. no #include in src/ or include/ names a path ("../console/cli.h",
#     "sub/x.h"): a file includes the headers of the folders its -I rule
#     in the Makefile allows, by name, so the rule is the whole story;
#  2. a header of include/ includes no header of ours but include/'s own
#     (system and DPDK headers with <...>): include/ is types only, shared
#     by every folder, and the -I rule cannot see what it pulls in, since
#     it is compiled with the -I paths of whichever file includes it.
#
# Prints what is wrong, one line each, and exits 1; silent and 0 otherwise.

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1

rc=0
bad=$(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*/' src/*.c src/*/*.[ch] include/*.h)
if [ -n "$bad" ]; then
	printf '%s\n' "$bad" | sed 's/^/layout: an #include with a path (include by name; the Makefile'"'"'s -I rule says which folders): /' >&2
	rc=1
fi
for h in include/*.h; do
	while IFS= read -r inc; do
		[ -f "include/$inc" ] && continue
		echo "layout: $h includes \"$inc\", not a header of include/ (include/ is types only: it includes include/ headers and system ones)" >&2
		rc=1
	done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$h")
done
exit $rc
