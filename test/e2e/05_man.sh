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
#
# How they run: the rendering (groff and man, about a second) in a lane
# beside the rest, its checks counted last; each list of names is searched
# for by one awk (grep_each, the same extended regexps as grep -E, each
# against the lines of the section), and every command's entry and option
# words by one more, where a grep or awk a name took most of the time.

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

# grep_each TEXT PATTERN... : for each PATTERN, an extended regexp as
# grep -E takes it, a line "1" if a line of TEXT matches it, else "0"
# (one awk for all of them; the patterns are read from a file, where awk
# leaves their backslashes as they are)
grep_each()
{
	local text=$1 pf
	shift
	pf=$(mktemp "$FG_TMP/pats.XXXXXX")
	printf '%s\n' "$@" >"$pf"
	printf '%s\n' "$text" | awk -v pf="$pf" '
		BEGIN { while ((getline p < pf) > 0) pat[++np] = p }
		{ line[++nl] = $0 }
		END {
			for (i = 1; i <= np; i++) {
				hit = 0
				for (j = 1; j <= nl && !hit; j++)
					if (line[j] ~ pat[i]) hit = 1
				print hit
			}
		}'
}

# each_hit TEXT PAT ITEM... : grep_each's verdict for each ITEM (@ in the
# extended regexp PAT stands for it), one line each: 1 when a line of
# TEXT matches
each_hit()
{
	local text=$1 pat=$2 k pats=()
	shift 2
	for k in "$@"; do
		pats+=("${pat//@/"$k"}")
	done
	grep_each "$text" "${pats[@]}"
}

# each_in TEXT PAT NAME WHY ITEM... : a check per ITEM, NAME, that TEXT
# has a line matching the extended regexp PAT (grep_each); WHY is the
# failure's reason; @ in PAT, NAME and WHY stands for the item
each_in()
{
	local text=$1 pat=$2 name=$3 why=$4 k i=0 hit
	shift 4
	mapfile -t hit < <(each_hit "$text" "$pat" "$@")
	for k in "$@"; do
		if [ "${hit[i]}" = 1 ]; then
			pass "${name//@/"$k"}"
		else
			fail "${name//@/"$k"}" "${why//@/"$k"}"
		fi
		i=$((i + 1))
	done
}

# missing_in TEXT PAT ITEM... : the ITEMs (@ in PAT) that no line of TEXT
# matches, each after a space
missing_in()
{
	local text=$1 pat=$2 k i=0 hit out=
	shift 2
	mapfile -t hit < <(each_hit "$text" "$pat" "$@")
	for k in "$@"; do
		[ "${hit[i]}" = 1 ] || out="$out $k"
		i=$((i + 1))
	done
	printf '%s' "$out"
}

for f in "$M8" "$M5"; do
	[ -f "$f" ] || fail "man: $(basename "$f") exists" "missing"
done

# --- rendering --------------------------------------------------------------

# (a lane: its checks are counted at the end)
render()
{
	local f b w n
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
}
lane render render

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
# For each row: its entry, the .TP paragraph whose tag line is ".B NAME
# ..." (the paragraph runs to the next .TP at the same level, or the end
# of an .RS block), and the option words of its usage ((^| |\[)--?WORD,
# as grep -o finds them) that are not in that entry. One awk prints, per
# row, "none", "ok" or "missing", the name, the usage and the missing
# words, separated by \037.
printf '%s\n' "$COMMANDS" >"$FG_TMP/commands"
printf '%s\n' "${rows[@]}" >"$FG_TMP/rows"
while IFS=$'\037' read -r verdict name usage missing; do
	case $verdict in
	none) fail "man: command '$name' documented" "no '.TP / .B $name' entry in COMMANDS of flowgen.8" ;;
	ok) pass "man: command '$name' documented with its options" ;;
	*) fail "man: command '$name' documented with its options" "usage '$usage': not in its entry:$missing" ;;
	esac
done < <([ ${#rows[@]} -gt 0 ] && awk '
	NR == FNR {
		t = index($0, "\t")
		name[++nr] = t ? substr($0, 1, t - 1) : $0
		usage[nr] = t ? substr($0, t + 1) : $0
		next
	}
	{ line[++nl] = $0 }
	END {
		for (r = 1; r <= nr; r++) {
			n = name[r]; text = ""; on = 0; tp = 0; depth = 0
			for (i = 1; i <= nl; i++) {
				l = line[i]
				if (l ~ /^\.TP/) { tp = 1; if (on && depth == 0) on = 0; continue }
				if (l ~ /^\.RS/) depth++
				if (l ~ /^\.RE/) { depth--; if (depth < 0) { depth = 0; on = 0 } }
				if (tp == 1) {
					tp = 0
					if (!on && (l == ".B " n || index(l, ".B " n " ") == 1)) { on = 1; depth = 0; text = text l "\n"; continue }
				}
				if (on) text = text l "\n"
			}
			if (text == "") { printf "none\037%s\037%s\037\n", n, usage[r]; continue }
			missing = ""
			u = usage[r]
			while (match(u, /(^| |\[)--?[A-Za-z][A-Za-z-]*/)) {
				o = substr(u, RSTART, RLENGTH)
				u = substr(u, RSTART + RLENGTH)
				gsub(/[[ ]/, "", o)
				if (!index(text, o)) missing = missing " " o
			}
			printf "%s\037%s\037%s\037%s\n", missing == "" ? "ok" : "missing", n, usage[r], missing
		}
	}' "$FG_TMP/rows" "$FG_TMP/commands")

# --- program options ----------------------------------------------------------

OPTIONS=$(section "$M8" OPTIONS)
longs=$(grep -oE '\{"[a-z][a-z-]*", *(no|required|optional)_argument' src/main.c |
	sed -E 's/\{"([^"]+)".*/\1/')
shorts=$(grep -oE 'getopt_long\([^"]*"[^"]*"' src/main.c | sed -E 's/.*"([^"]*)"/\1/' |
	tr -d '+:-' | fold -w1)
n=$(printf '%s\n' $longs $shorts | grep -c .)
check_ge "man: main.c option table found" "$n" 8
# shellcheck disable=SC2086
each_in "$OPTIONS" '(^|[ ,])--@( |,|$)' "man: option --@ in OPTIONS" \
	"not found in the OPTIONS section of flowgen.8" $longs
# shellcheck disable=SC2086
each_in "$OPTIONS" '^\.[A-Z]+ +"?-@( |"|$)' "man: option -@ in OPTIONS" \
	"no tag line for -@ in the OPTIONS section of flowgen.8" $shorts

# --- platform config keys -----------------------------------------------------

CONFIG=$(section "$M8" "PLATFORM CONFIG")
ckeys=$(grep -oE '\.key = "[a-z_]+"' src/config/cfg.c | sed -E 's/.*"(.*)"/\1/' | sort -u)
check_ge "man: platform config keys found in src/config/cfg.c" "$(printf '%s\n' $ckeys | grep -c .)" 5
# shellcheck disable=SC2086
each_in "$CONFIG" '^\.B @( |$)|[ (]@( |,|\)|$)' "man: config key '@' documented" \
	"not in PLATFORM CONFIG of flowgen.8" $ckeys

# --- statistics fields --------------------------------------------------------

STATS=$(section "$M8" STATISTICS)
# the keys the writers hand to the JSON writer (src/core/json.h): jw_u64(j, "tx_pkts", ...)
fields=$(sed -n '/^static void json_[a-z_]*(/,/^}/p' src/control/stats_json.c |
	grep -oE '(jw_[a-z0-9]+|jnum)\(j, "[a-z_0-9]+"' | sed -E 's/.*"(.*)"/\1/' | sort -u)
check_ge "man: JSON fields found in src/control/stats_json.c" "$(printf '%s\n' $fields | grep -c .)" 40
# shellcheck disable=SC2086
check_eq "man: every stats --json field is in STATISTICS" "" \
	"$(missing_in "$STATS" '(^|[ "])@( |,|:|"|$)' $fields)"

# --- fixed sections -----------------------------------------------------------

P8=$(plain "$M8")
SECTIONS=(NAME SYNOPSIS DESCRIPTION OPTIONS COMMANDS "MULT FORMS" "PLATFORM CONFIG" STATISTICS
	DASHBOARD "EXIT STATUS" FILES EXAMPLES "SEE ALSO")
each_in "$P8" '^\.SH "?@"?$' "man: flowgen.8 has section @" \
	'no line matching /^\.SH "?@"?$/ in flowgen.8' "${SECTIONS[@]}"
EXIT=$(section "$M8" "EXIT STATUS")
codes=$(grep -oE 'FG_EXIT_[A-Z]+ *= *[0-9]+' "$FG_TOP/include/fg.h" | grep -oE '[0-9]+$')
check_ge "man: exit codes found in include/fg.h" "$(printf '%s\n' $codes | grep -c .)" 4
# (a line that is ".B CODE": grep -x)
# shellcheck disable=SC2086
each_in "$EXIT" '^\.B @$' "man: exit status @ documented" \
	"no line '.B @' in EXIT STATUS of flowgen.8" $codes
check "man: flowgen.8 refers to flowgen-profile(5)" grep -q 'flowgen-profile (5)' <<<"$P8"

# --- profile keys -------------------------------------------------------------

P5=$(plain "$M5")
TOP=$(section "$M5" "TOP-LEVEL KEYS")
tops=$(sed -n '/yamlu_field prof_fields\[\] *= *{/,/^};/p' src/config/prof.c | grep -oE '\.key = "[a-z_]+"' |
	sed -E 's/.*"(.*)"/\1/')
check_ge "man: top-level profile keys found in src/config/prof.c" "$(printf '%s\n' $tops | grep -c .)" 5
# shellcheck disable=SC2086
each_in "$TOP" '^\.B @$' "man: top-level profile key '@' in flowgen-profile.5" \
	"no line '.B @' in TOP-LEVEL KEYS of flowgen-profile.5" $tops
# Every key of every table (templates, streams, field maps, imix ...).
pkeys=$(grep -hoE '\.key = "[a-z_]+"' src/config/prof*.c | sed -E 's/.*"(.*)"/\1/' | sort -u)
check_ge "man: profile keys found in src/config/prof*.c" "$(printf '%s\n' $pkeys | grep -c .)" 20
# shellcheck disable=SC2086
check_eq "man: every profile key of src/config/prof*.c in flowgen-profile.5" "" \
	"$(missing_in "$P5" '^\.B @( |$)|[ {(]@(:| |,|$)' $pkeys)"
# Every value of the profile's name tables (flows, seq, rand, udp, send, inc ...).
pvals=$(sed -n '/_names\[[A-Z_]*\] *= *{/,/^};/p' src/config/prof.c | grep -oE '= "[a-z]+"' |
	sed -E 's/= "(.*)"/\1/' | sort -u)
check_ge "man: enumerated profile values found in src/config/prof.c" "$(printf '%s\n' $pvals | grep -c .)" 5
# shellcheck disable=SC2086
check_eq "man: every enumerated profile value in flowgen-profile.5" "" \
	"$(missing_in "$P5" '(^\.B[R]? |[ {(]|^)@( |:|,|\)|$)' $pvals)"

lane_end render

finish
