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
#     condition variables, or sleep (usleep, nanosleep, sleep). The undefined
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
#     the file is for (at least 8 words of text before its closing */).

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

finish
