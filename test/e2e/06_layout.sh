#!/usr/bin/env bash
#
# 06_layout.sh — the shape of the code, checked on the tree and on the
# objects of the last build. Needs no lab and no root; `make` first.
#
#  a. the worker rule: code in src/dataplane/ runs on worker lcores, so no
#     object build/obj/dataplane/*.o may call the allocator (malloc, calloc,
#     realloc, free, aligned_alloc, posix_memalign, strdup, rte_malloc*,
#     rte_zmalloc*, rte_calloc*, rte_free), qsort, stdio output (printf,
#     fprintf, snprintf, vsnprintf, sprintf, vfprintf, puts, fputs, fwrite,
#     putchar, and their fortified __*_chk forms), pthread mutexes or
#     condition variables, or sleep (usleep, nanosleep, sleep; the one
#     sleep a worker takes, an idle turn's pause on a CPU shared with
#     another lcore, goes through DPDK's rte_delay_us_sleep: worker.c
#     says why). The undefined
#     symbols of an object's ELF symbol table (readelf -s) are what it
#     calls; one check per object. An object whose
#     source is gone is stale (it would be checked in place of the code that
#     replaced it): it fails too, `make clean` removes it. No object at all
#     fails as well;
#  b. no .c file under src/ is longer than 800 lines;
#  c. the repository stands on its own: src/, include/, test/, man/, README,
#     Makefile and examples/ name no document kept outside it (the strings
#     are listed in OUTSIDE below; this file is the one exception);
#  d. every .c file under src/ begins with a comment block that says what
#     the file is for (at least 8 words of text before its closing */);
#  e. headers sit beside their code: every src/F/X.h has src/F/X.c (or is
#     an X_int.h shared by X*.c files beside it); include/ holds at most
#     8 headers, each types only (no prototypes, extern data or inline
#     functions) and named *-t.h, save fg.h and ctr.h;
#  f. the include direction (README, "Design"): a folder includes only
#     headers of the folders it may (core: include, core; config: + config;
#     dataplane: include, core, dataplane; control: include, core, config,
#     dataplane, control; cmd: + cmd; console: + cmd, console; api: + cmd,
#     api; main.c: all), no path in an #include; the
#     Makefile builds each folder with only those -I paths, and a scratch
#     copy of a core file that includes a control header fails to compile;
#  g. no function in src/ is longer than 120 lines.

. "$(dirname "$0")/lib.sh"

cd "$FG_TOP" || exit 1

OBJDIR=build/obj/dataplane
MAXLINES=800
HEADER_WORDS=8

# --- a. the worker rule ------------------------------------------------------------

NAMES='malloc|calloc|realloc|free|aligned_alloc|posix_memalign|strdup|rte_free|qsort'
NAMES=$NAMES'|printf|fprintf|snprintf|vsnprintf|sprintf|vfprintf|puts|fputs|fwrite|putchar'
NAMES=$NAMES'|usleep|nanosleep|sleep'
FORBIDDEN="^(($NAMES)|__($NAMES)_chk|__strdup|rte_malloc.*|rte_zmalloc.*|rte_calloc.*|pthread_mutex_.*|pthread_cond_.*)\$"

shopt -s nullglob
objs=("$OBJDIR"/*.o)
if [ ${#objs[@]} -gt 0 ]; then
	pass "worker rule: $OBJDIR holds ${#objs[@]} objects"
else
	fail "worker rule: $OBJDIR holds objects" "none found (run make first)"
fi
for o in "${objs[@]}"; do
	name="worker rule: $o calls no allocator, stdio output, lock or sleep"
	src=src/dataplane/$(basename "$o" .o).c
	if [ ! -f "$src" ]; then
		fail "$name" "stale object: $src does not exist (make clean)"
		continue
	fi
	# The objects are fat LTO objects: nm (through the LTO plugin) lists
	# the LTO symbol table, where calls GCC treats as built-ins (calloc,
	# free, snprintf) do not appear. readelf reads the ELF symbol table of
	# the plain code beside it, where they do.
	if ! syms=$(readelf -Ws "$o" 2>&1 | awk '$7 == "UND" && $8 != "" { print $8 }'); then
		fail "$name" "readelf -s failed: $syms"
		continue
	fi
	bad=$(printf '%s\n' "$syms" | awk '{ print $NF }' | sed 's/@.*//' | grep -E "$FORBIDDEN" | sort -u | tr '\n' ' ')
	if [ -z "$bad" ]; then
		pass "$name"
	else
		fail "$name" "calls ${bad% }"
	fi
done

# --- b. file length ----------------------------------------------------------------

long=$(find src -name '*.c' -type f -exec wc -l {} + | awk -v max=$MAXLINES '
	$2 != "total" && $1 > max { printf "%s%s (%d lines)", sep, $2, $1; sep = ", " }')
nsrc=$(find src -name '*.c' -type f | wc -l)
if [ "$nsrc" -eq 0 ]; then
	fail "no .c file under src/ is longer than $MAXLINES lines" "no .c file found under src/"
elif [ -z "$long" ]; then
	pass "no .c file under src/ is longer than $MAXLINES lines ($nsrc files)"
else
	fail "no .c file under src/ is longer than $MAXLINES lines" "$long"
fi

# --- c. no reference outside the repository ------------------------------------

OUTSIDE=('SPEC §' 'SPEC.md' 'METHOD.md' 'STYLE.md' 'SCENARIOS.md' '../shared')
pats=()
for s in "${OUTSIDE[@]}"; do
	pats+=(-e "$s")
done
where=()
for p in src include test man README Makefile examples profiles .ci; do
	[ -e "$p" ] && where+=("$p")
done
refs=$(grep -rnIF "${pats[@]}" -- "${where[@]}" 2>/dev/null | grep -v '^test/e2e/06_layout\.sh:')
if [ -z "$refs" ]; then
	pass "no reference to documents outside the repository (${where[*]})"
else
	fail "no reference to documents outside the repository" \
		"$(printf '%s\n' "$refs" | wc -l) lines: $(printf '%s\n' "$refs" | cut -c1-120 | tr '\n' '|')"
	# every offending line, for whoever fixes them
	printf '%s\n' "$refs" | sed 's/^/#   /'
fi

# --- d. narrative headers ----------------------------------------------------------

nohead=
for f in $(find src -name '*.c' -type f | sort); do
	# the first line opens a /* comment; the words of the block up to its */
	words=$(awk '
		NR == 1 && !/^[ \t]*\/\*/ { found = 1; print 0; exit }
		{
			line = $0
			end = index(line, "*/")
			if (end) line = substr(line, 1, end - 1)
			if (NR == 1) sub(/^[ \t]*\/\*+/, "", line)
			else sub(/^[ \t]*\*?/, "", line)
			n += split(line, w, " ")
			if (end) { found = 1; print n; exit }
		}
		END { if (!found) print 0 }' "$f")
	[ "${words:-0}" -ge $HEADER_WORDS ] || nohead="$nohead $f"
done
if [ "$nsrc" -eq 0 ]; then
	fail "every .c file under src/ begins with a comment block" "no .c file found under src/"
elif [ -z "$nohead" ]; then
	pass "every .c file under src/ begins with a comment block ($nsrc files)"
else
	fail "every .c file under src/ begins with a comment block" "no header of $HEADER_WORDS words or more:$nohead"
fi

# --- e. headers beside their code -------------------------------------------------

MAXINC=8
nohome=
for h in src/*/*.h; do
	d=$(dirname "$h") b=$(basename "$h" .h)
	[ -f "$d/$b.c" ] && continue
	case $b in *_int) compgen -G "$d/${b%_int}*.c" >/dev/null && continue ;; esac
	nohome="$nohome $h"
done
if [ -z "$nohome" ]; then
	pass "every header under src/ sits beside its source ($(ls src/*/*.h | wc -l) headers)"
else
	fail "every header under src/ sits beside its source" "no X.c beside:$nohome"
fi
incs=(include/*.h)
check_le=$(( ${#incs[@]} <= MAXINC ))
if [ "$check_le" = 1 ]; then
	pass "include/ holds at most $MAXINC headers (${#incs[@]})"
else
	fail "include/ holds at most $MAXINC headers" "${#incs[@]}: ${incs[*]}"
fi
notypes=
for h in "${incs[@]}"; do
	case $(basename "$h") in fg.h | ctr.h | *-t.h) ;; *) notypes="$notypes $h (name)"; continue ;; esac
	# outside comments: a prototype ends in `);`, data is `extern`, code `inline`
	if sed -e 's://.*$::' "$h" | awk '
		/\/\*/ { c = 1 } !c { print } /\*\// { c = 0 }' |
		grep -qE '^[^#(]*[A-Za-z_][A-Za-z0-9_]*[ *]+[A-Za-z_][A-Za-z0-9_]*\([^)]*\)? *;|^extern |inline'; then
		notypes="$notypes $h"
	fi
done
if [ -z "$notypes" ]; then
	pass "every header of include/ is types only"
else
	fail "every header of include/ is types only" "prototypes, data or code in:$notypes"
fi

# --- f. include direction ------------------------------------------------------------

# may FOLDER include headers of folder DEP?
may_include()
{
	case "$1:$2" in
	*:include | *:core | main:*) return 0 ;;
	config:config | dataplane:dataplane) return 0 ;;
	control:config | control:dataplane | control:control) return 0 ;;
	cmd:config | cmd:dataplane | cmd:control | cmd:cmd) return 0 ;;
	console:config | console:dataplane | console:control | console:cmd | console:console) return 0 ;;
	api:config | api:dataplane | api:control | api:cmd | api:api) return 0 ;;
	esac
	return 1
}
# where a header lives: its folder name (include, core, ...), or "" if not ours
home_of()
{
	local f
	for f in include/"$1" src/*/"$1"; do
		[ -f "$f" ] || continue
		case $f in include/*) echo include ;; *) f=${f#src/}; echo "${f%%/*}" ;; esac
		return
	done
}
broken=
nfiles=0
for f in src/main.c src/*/*.c src/*/*.h include/*.h; do
	case $f in src/main.c) from=main ;; include/*) from=include ;; *) from=${f#src/}; from=${from%%/*} ;; esac
	nfiles=$((nfiles + 1))
	while IFS= read -r inc; do
		case $inc in */*) broken="$broken|$f includes \"$inc\" (a path: name the header only)"; continue ;; esac
		to=$(home_of "$inc")
		[ -n "$to" ] || continue
		if [ "$from" = include ]; then
			[ "$to" = include ] || [ "$to" = core ] && continue
			broken="$broken|$f includes $to/$inc (include/ is types only: it may include include/ and core/)"
		elif ! may_include "$from" "$to"; then
			broken="$broken|$f includes $to/$inc ($from may include: $(for d in include core config dataplane control cmd console api; do may_include "$from" $d && printf '%s ' $d; done))"
		fi
	done < <(sed -n 's/^[ \t]*#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$f")
done
if [ -z "$broken" ]; then
	pass "the include direction holds ($nfiles files)"
else
	fail "the include direction holds" "${broken#|}"
fi

# The build keeps it: a scratch copy of src/ where a core file includes a
# control header must fail to compile with the Makefile's -I of core, and
# the untouched file must compile.
# (in FG_TMP, which lib.sh's exit trap removes: a trap of its own here
# would replace that one and leave FG_TMP behind)
scratch=$(mktemp -d "$FG_TMP/scratch.XXXXXX")
cp -r Makefile include src "$scratch"/
probe=src/core/units.c
# the core -I flags, as the Makefile computes them (inc_of)
cflags="$(printf 'print-cflags-core:\n\t@echo $(call inc_of,core/units)\n' |
	make -s -C "$scratch" -f Makefile -f - print-cflags-core 2>&1) $(pkg-config --cflags libdpdk)"
if (cd "$scratch" && cc -std=gnu11 $cflags -fsyntax-only "$probe") >/dev/null 2>&1; then
	pass "build rule: $probe compiles with the core -I paths"
else
	fail "build rule: $probe compiles with the core -I paths" "cc failed with: $cflags"
fi
sed -i '0,/^#include "/s//#include "port.h"\n#include "/' "$scratch/$probe"
if out=$(cd "$scratch" && cc -std=gnu11 $cflags -fsyntax-only "$probe" 2>&1); then
	fail "build rule: a core file that includes control's port.h fails to compile" "it compiled"
elif printf '%s\n' "$out" | grep -q 'port\.h: No such file'; then
	pass "build rule: a core file that includes control's port.h fails to compile (core may include: include core)"
else
	fail "build rule: a core file that includes control's port.h fails to compile" \
		"failed for another reason: $(printf '%s\n' "$out" | head -3 | tr '\n' '|')"
fi

# --- g. function length --------------------------------------------------------------

MAXFN=120
longfn=$(for f in src/*.c src/*/*.c; do
	awk -v f="$f" -v max=$MAXFN '
		/^[A-Za-z].*\(/ { sig = $0 }
		/^\{/ { start = NR; name = sig }
		/^\}/ && start { n = NR - start + 1; if (n > max) { sub(/\(.*/, "", name); printf "%s: %s (%d lines); ", f, name, n } start = 0 }' "$f"
done)
if [ -z "$longfn" ]; then
	pass "no function under src/ is longer than $MAXFN lines"
else
	fail "no function under src/ is longer than $MAXFN lines" "${longfn%; }"
fi

finish
