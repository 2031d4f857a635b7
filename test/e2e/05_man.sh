#!/usr/bin/env bash
#
# 05_man.sh — the man pages document the program as built: every command of
# the command tables (src/cmd/cmds.c, the built-ins of src/cmd/cli.c, and
# the rows of src/api/api.c and src/console/console.c) has an entry
# in flowgen(8) with each option word of its usage, every option of main.c's
# getopt table is in OPTIONS, every platform config key of src/config/cfg.c and
# every statistics field that src/control/stats_json.c prints in JSON is described, every
# profile key of src/config/prof.c's schema tables is in flowgen-profile(5), and
# both pages render without a groff warning. The names are read from the
# sources, so a new command, option or key without documentation fails here.

. "$(dirname "$0")/lib.sh"

M8=$FG_TOP/man/flowgen.8
M5=$FG_TOP/man/flowgen-profile.5
cd "$FG_TOP" || exit 1

# plain FILE : the roff source with \- as -, font escapes and \(aq removed,
# so that words can be searched as a reader sees them.
plain()
{
	sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e "s/\\\\(aq/'/g" -e 's/\\e/\\/g' "$1"
}

# section FILE NAME : the plain text of one .SH section
section()
{
	plain "$1" | awk -v s="$2" '
		/^\.SH / { on = (substr($0, 5) == s || substr($0, 5) == "\"" s "\""); next }
		on'
}

# entry TEXT NAME : the .TP paragraph whose tag line is ".B NAME ..." (the
# paragraph runs to the next .TP at the same level, or the end of an .RS
# block), from the plain text on stdin
entry()
{
	awk -v n="$1" '
		/^\.TP/ { tp = 1; if (on && depth == 0) on = 0; next }
		/^\.RS/ { depth++ }
		/^\.RE/ { depth--; if (depth < 0) { depth = 0; on = 0 } }
		tp == 1 { tp = 0; if (!on && ($0 == ".B " n || index($0, ".B " n " ") == 1)) { on = 1; depth = 0; print; next } }
		on { print }'
}

for f in "$M8" "$M5"; do
	[ -f "$f" ] || fail "man: $(basename "$f") exists" "missing"
done

# --- rendering --------------------------------------------------------------

for f in "$M8" "$M5"; do
	b=$(basename "$f")
	if ! command -v groff >/dev/null 2>&1; then
		fail "man: $b renders without warnings" "groff is not installed (Debian: groff-base)"
		continue
	fi
	w=$(groff -man -ww -z "$f" 2>&1)
	check_eq "man: $b renders without groff warnings" "" "$w"
	if ! command -v man >/dev/null 2>&1; then
		fail "man: man -l $b without warnings" "man is not installed (Debian: man-db)"
		continue
	fi
	w=$(MANWIDTH=80 man --warnings -l "$f" 2>&1 >/dev/null)
	check_eq "man: man -l $b without warnings" "" "$w"
	n=$(MANWIDTH=80 man -l "$f" 2>/dev/null | wc -l)
	check_ge "man: $b renders to text" "$n" 40
done

# --- commands -----------------------------------------------------------------

# Rows of every `struct cli_cmd NAME[] = { ... };` table: {"name", handler, "usage", ...
cmd_rows()
{
	sed -n '/struct cli_cmd [A-Za-z_0-9]*\[\] *= *{/,/^};/p' src/cmd/cmds.c src/cmd/cli.c src/api/api.c src/console/console.c |
		tr -d '\n\t' | sed 's/},/},\n/g' |
		sed -nE 's/.*\{ *"([a-z_-]+)", *[A-Za-z_0-9]+, *"([^"]*)".*/\1\t\2/p'
}

mapfile -t rows < <(cmd_rows)
check_ge "man: command tables found in src/cmd/, src/api/api.c and src/console/console.c" "${#rows[@]}" 10
COMMANDS=$(section "$M8" COMMANDS)
for row in "${rows[@]}"; do
	name=${row%%$'\t'*}
	usage=${row#*$'\t'}
	text=$(printf '%s\n' "$COMMANDS" | entry "$name")
	if [ -z "$text" ]; then
		fail "man: command '$name' documented" "no '.TP / .B $name' entry in COMMANDS of flowgen.8"
		continue
	fi
	missing=
	for o in $(printf '%s\n' "$usage" | grep -oE '(^| |\[)--?[A-Za-z][A-Za-z-]*' | tr -d ' ['); do
		grep -qF -- "$o" <<<"$text" || missing="$missing $o"
	done
	if [ -z "$missing" ]; then
		pass "man: command '$name' documented with its options"
	else
		fail "man: command '$name' documented with its options" "usage '$usage': not in its entry:$missing"
	fi
done

# --- program options ----------------------------------------------------------

OPTIONS=$(section "$M8" OPTIONS)
longs=$(grep -oE '\{"[a-z][a-z-]*", *(no|required|optional)_argument' src/main.c |
	sed -E 's/\{"([^"]+)".*/\1/')
shorts=$(grep -oE 'getopt_long\([^"]*"[^"]*"' src/main.c | sed -E 's/.*"([^"]*)"/\1/' |
	tr -d '+:-' | fold -w1)
n=$(printf '%s\n' $longs $shorts | grep -c .)
check_ge "man: main.c option table found" "$n" 8
for o in $longs; do
	if grep -qE -- "(^|[ ,])--$o( |,|$)" <<<"$OPTIONS"; then
		pass "man: option --$o in OPTIONS"
	else
		fail "man: option --$o in OPTIONS" "not found in the OPTIONS section of flowgen.8"
	fi
done
for o in $shorts; do
	if grep -qE -- "^\.[A-Z]+ +\"?-$o( |\"|$)" <<<"$OPTIONS"; then
		pass "man: option -$o in OPTIONS"
	else
		fail "man: option -$o in OPTIONS" "no tag line for -$o in the OPTIONS section of flowgen.8"
	fi
done

# --- platform config keys -----------------------------------------------------

CONFIG=$(section "$M8" "PLATFORM CONFIG")
ckeys=$(grep -oE '\.key = "[a-z_]+"' src/config/cfg.c | sed -E 's/.*"(.*)"/\1/' | sort -u)
check_ge "man: platform config keys found in src/config/cfg.c" "$(printf '%s\n' $ckeys | grep -c .)" 5
for k in $ckeys; do
	if grep -qE -- "^\.B $k( |$)|[ (]$k( |,|\)|$)" <<<"$CONFIG"; then
		pass "man: config key '$k' documented"
	else
		fail "man: config key '$k' documented" "not in PLATFORM CONFIG of flowgen.8"
	fi
done

# --- statistics fields --------------------------------------------------------

STATS=$(section "$M8" STATISTICS)
# the keys the writers hand to the JSON writer (src/core/json.h): jw_u64(j, "tx_pkts", ...)
fields=$(sed -n '/^static void json_[a-z_]*(/,/^}/p' src/control/stats_json.c |
	grep -oE '(jw_[a-z0-9]+|jnum)\(j, "[a-z_0-9]+"' | sed -E 's/.*"(.*)"/\1/' | sort -u)
check_ge "man: JSON fields found in src/control/stats_json.c" "$(printf '%s\n' $fields | grep -c .)" 40
missing=
for k in $fields; do
	grep -qE -- "(^|[ \"])$k( |,|:|\"|$)" <<<"$STATS" || missing="$missing $k"
done
check_eq "man: every stats --json field is in STATISTICS" "" "$missing"

# --- fixed sections -----------------------------------------------------------

P8=$(plain "$M8")
for s in NAME SYNOPSIS DESCRIPTION OPTIONS COMMANDS "MULT FORMS" "PLATFORM CONFIG" STATISTICS \
	DASHBOARD "EXIT STATUS" FILES EXAMPLES "SEE ALSO"; do
	check "man: flowgen.8 has section $s" grep -qE "^\.SH \"?$s\"?$" <<<"$P8"
done
EXIT=$(section "$M8" "EXIT STATUS")
codes=$(grep -oE 'FG_EXIT_[A-Z]+ *= *[0-9]+' "$FG_TOP/include/fg.h" | grep -oE '[0-9]+$')
check_ge "man: exit codes found in include/fg.h" "$(printf '%s\n' $codes | grep -c .)" 4
for c in $codes; do
	check "man: exit status $c documented" grep -qx "\.B $c" <<<"$EXIT"
done
check "man: flowgen.8 refers to flowgen-profile(5)" grep -q 'flowgen-profile (5)' <<<"$P8"

# --- profile keys -------------------------------------------------------------

P5=$(plain "$M5")
TOP=$(section "$M5" "TOP-LEVEL KEYS")
tops=$(sed -n '/yamlu_field prof_fields\[\] *= *{/,/^};/p' src/config/prof.c | grep -oE '\.key = "[a-z_]+"' |
	sed -E 's/.*"(.*)"/\1/')
check_ge "man: top-level profile keys found in src/config/prof.c" "$(printf '%s\n' $tops | grep -c .)" 5
for k in $tops; do
	check "man: top-level profile key '$k' in flowgen-profile.5" grep -qx "\.B $k" <<<"$TOP"
done
# Every key of every table (templates, streams, field maps, imix ...).
missing=
pkeys=$(grep -hoE '\.key = "[a-z_]+"' src/config/prof*.c | sed -E 's/.*"(.*)"/\1/' | sort -u)
check_ge "man: profile keys found in src/config/prof*.c" "$(printf '%s\n' $pkeys | grep -c .)" 20
for k in $pkeys; do
	grep -qE -- "^\.B $k( |$)|[ {(]$k(:| |,|$)" <<<"$P5" || missing="$missing $k"
done
check_eq "man: every profile key of src/config/prof*.c in flowgen-profile.5" "" "$missing"
# Every value of the profile's name tables (flows, seq, rand, udp, send, inc ...).
missing=
pvals=$(sed -n '/_names\[[A-Z_]*\] *= *{/,/^};/p' src/config/prof.c | grep -oE '= "[a-z]+"' |
	sed -E 's/= "(.*)"/\1/' | sort -u)
check_ge "man: enumerated profile values found in src/config/prof.c" "$(printf '%s\n' $pvals | grep -c .)" 5
for v in $pvals; do
	grep -qE -- "(^\.B[R]? |[ {(]|^)$v( |:|,|\)|$)" <<<"$P5" || missing="$missing $v"
done
check_eq "man: every enumerated profile value in flowgen-profile.5" "" "$missing"

finish
