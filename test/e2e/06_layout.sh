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
#  b. files are split by concern, not by line count (a unit that belongs
#     together may be one file longer than 800 lines rather than two
#     halves that call each other): no two files of one folder call each
#     other in a loop, but the loops the README's design section names
#     with the reason (its bullets "- `F/a.c` <-> `F/b.c`: why", under
#     "Files of one folder that call each other").
#     The call graph comes from the objects of the last build: file A
#     calls file B of its folder when an undefined symbol of
#     build/obj/F/A.o is a global function B.o defines (readelf -Ws, the
#     plain ELF symbols beside the LTO form, as in a); a loop is a
#     strongly connected set of two files or more. A loop the README does
#     not name fails, and so does a named one that is not a loop (any
#     more), or a stale object;
#  c. the repository stands on its own: src/, include/, test/, man/, README,
#     Makefile, examples/ and image/ name no document kept outside it (the strings
#     are listed in OUTSIDE below; this file is the one exception);
#  d. every .c file under src/ begins with a comment block that says what
#     the file is for (at least 8 words of text before its closing */);
#  e. headers sit beside their code: every src/F/X.h has src/F/X.c (or is
#     an X_int.h shared by X*.c files beside it); include/ holds at most
#     8 headers, each types only (no prototypes, extern data or inline
#     functions) and named *-t.h, save fg.h and ctr.h, and including no
#     header of ours but include/'s: each compiles on its own with
#     -I include only, and a scratch copy whose worker-t.h includes core's
#     own.h fails both that compile and test/layout.sh;
#  f. the include direction (README, "Design"): a folder includes only
#     headers of the folders it may (core: include, core; config: + config;
#     dataplane: include, core, dataplane; control: include, core, config,
#     dataplane, control; cmd: + cmd; console: + cmd, console; api: + cmd,
#     api; main.c: all; include/: include only), no path in an #include.
#     The Makefile builds each folder with only those -I paths, which
#     scratch copies of the tree show: a core file that includes a control
#     header (port.h), an api file that includes a console header (tui.h)
#     and a console file that includes an api header (api.h) each fail to
#     compile for that header (and compile untouched); a new folder
#     src/newfolder/ without an INC_newfolder rule stops make with the
#     Makefile's "has no include rule"; an #include of "../cmd/cli.h"
#     makes test/layout.sh fail naming it (the scratch copy passes
#     untouched);
#  g. no function in src/ is longer than 120 lines;
#  h. no redirected descriptor (dup2 and kin) and no temporary file in
#     src/cmd/ and src/api/: results travel as values.
#
# How they run: f's compiles of scratch copies, the slowest part, in three
# lanes from the start, and b's python3 in the background, beside the
# checks of the tree, each counted where its section is; d and g read
# every file with one awk, f every #include with one sed.

. "$(dirname "$0")/lib.sh"

cd "$FG_TOP" || exit 1

OBJDIR=build/obj/dataplane
HEADER_WORDS=8

shopt -s nullglob

# The slower parts start first and run beside the checks of the tree,
# each counted where its section has it: the compiles of section f's
# scratch copies in three lanes (lib.sh lane/lane_end), and section b's
# python3, which reads the symbols of every object, in the background.

# python3 prints one line per check: "pass<TAB>name" or
# "fail<TAB>name<TAB>why"; the named loops are README's design section's
# bullets of the form
#   - `F/a.c` <-> `F/b.c` [<-> `F/c.c` ...]: the reason
python3 - README >"$FG_TMP/loops" <<'EOF' &
import collections, glob, os, re, subprocess, sys

def out(*w):
    print('\t'.join(w))

# the design section: from its title to the next title (a line of dashes)
lines = open(sys.argv[1]).read().split('\n')
try:
    top = lines.index('Design in one page')
except ValueError:
    out('fail', 'README has a design section', 'no line "Design in one page"')
    sys.exit(0)
end = next((i - 1 for i in range(top + 2, len(lines)) if re.fullmatch(r'-{3,}', lines[i])), len(lines))
items, cur = [], None
for l in lines[top + 2:end]:
    if l.startswith('- '):
        cur = [l]; items.append(cur)
    elif cur is not None and l.startswith('  '):
        cur.append(l.strip())
    else:
        cur = None
named = {}
NAME = r'`([a-z0-9_]+/[a-z0-9_]+\.c)`'
for it in items:
    text = ' '.join(it)
    m = re.match(r'- (' + NAME + r'(?:\s*<->\s*' + NAME + r')+)\s*:\s*(.*)', text)
    if not m:
        continue
    files = frozenset(re.findall(NAME, m.group(1)))
    if len({f.split('/')[0] for f in files}) != 1 or len(m.group(m.lastindex).split()) < 4:
        out('fail', 'README names its loops well', text[:100] + ': files of one folder and a reason of 4 words or more')
        continue
    named[files] = text

# the call graph from the objects: FUNC GLOBAL defined, and undefined
defs, unds, stale = {}, {}, []
for o in sorted(glob.glob('build/obj/*/*.o')):
    folder = o.split('/')[2]
    f = folder + '/' + os.path.basename(o)[:-2] + '.c'
    if not os.path.isfile('src/' + f):
        stale.append(o)
        continue
    r = subprocess.run(['readelf', '-Ws', o], capture_output=True, text=True)
    if r.returncode:
        out('fail', 'readelf -Ws ' + o, r.stderr.strip()[:200])
        continue
    d, u = set(), set()
    for l in r.stdout.split('\n'):
        w = l.split()
        if len(w) < 8 or not w[0].endswith(':'):
            continue
        if w[6] == 'UND':
            u.add(w[7].split('@')[0])
        elif w[3] == 'FUNC' and w[4] == 'GLOBAL':
            d.add(w[7])
    defs[f], unds[f] = d, u
if stale:
    out('fail', 'call loops: no stale object in build/obj', 'no source for ' + ' '.join(stale) + ' (make clean)')
if not defs:
    out('fail', 'call loops: build/obj holds objects', 'none found (run make first)')
    sys.exit(0)
srcs = {f[4:] for f in glob.glob('src/*/*.c')}
if srcs - set(defs):
    out('fail', 'call loops: every src/*/*.c has its object', 'not built: ' + ' '.join(sorted(srcs - set(defs))) + ' (run make)')

byfolder = collections.defaultdict(list)
for f in sorted(defs):
    byfolder[f.split('/')[0]].append(f)
found = set()
for folder, files in sorted(byfolder.items()):
    edge = {a: [b for b in files if b != a and unds[a] & defs[b]] for a in files}
    # Tarjan's strongly connected components
    index, low, stack, on, sccs = {}, {}, [], set(), []
    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v); on.add(v)
        for w in edge[v]:
            if w not in index:
                visit(w); low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            c = []
            while True:
                w = stack.pop(); on.discard(w); c.append(w)
                if w == v:
                    break
            if len(c) > 1:
                sccs.append(frozenset(c))
    for v in files:
        if v not in index:
            visit(v)
    bad = []
    for c in sccs:
        found.add(c)
        if c not in named:
            calls = '; '.join(a + ' -> ' + b + ' (' + ' '.join(sorted(unds[a] & defs[b])) + ')'
                              for a in sorted(c) for b in edge[a] if b in c)
            bad.append(' <-> '.join(sorted(c)) + ' [' + calls + ']')
    name = 'no two files of src/%s/ call each other in a loop (%d files' % (folder, len(files))
    if bad:
        out('fail', name + ')', 'not named in the README\'s design section: ' + ' | '.join(bad))
    else:
        out('pass', name + ('; named: ' + ', '.join(' <-> '.join(sorted(c)) for c in sccs) if sccs else '') + ')')
for files, text in sorted(named.items(), key=lambda x: sorted(x[0])):
    if files not in found:
        out('fail', 'the README names only loops there are', text[:100] + ': not a loop of the objects')
EOF
LOOPS_PID=$!

# may FOLDER include headers of folder DEP? (section f)
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
# The build keeps the include direction (section f), which scratch copies
# of the tree show (in FG_TMP, which lib.sh's exit trap removes: a trap of
# its own here would replace that one and leave FG_TMP behind).
scratch_tree()
{
	local d
	d=$(mktemp -d "$FG_TMP/scratch.XXXXXX") &&
		cp -r Makefile include src "$d"/ && mkdir "$d/test" && cp test/layout.sh "$d/test/" &&
		echo "$d"
}
# the flags src/$2.c (FOLDER/NAME) compiles with in scratch $1: its -I
# paths as the Makefile computes them (inc_of), and the packages' own
cflags_of()
{
	printf 'print-cflags:\n\t@echo $(call inc_of,%s) $(shell pkg-config --cflags $(PKGS)) -DALLOW_EXPERIMENTAL_API\n' "$2" |
		make -s -C "$1" -f Makefile -f - print-cflags 2>&1
}
# refused NAME PASSNAME OKWHY GREPOPT PAT CMD... : CMD, which must fail
# with output matching PAT (grep GREPOPT: -F or -E): PASS PASSNAME (NAME
# when empty), or FAIL NAME with OKWHY when CMD went through, or with the
# first lines of its output when it failed for another reason
refused()
{
	local name=$1 pname=${2:-$1} okwhy=$3 opt=$4 pat=$5 out
	shift 5
	if out=$("$@" 2>&1); then
		fail "$name" "$okwhy"
	elif printf '%s\n' "$out" | grep -q "$opt" -- "$pat"; then
		pass "$pname"
	else
		fail "$name" "failed for another reason: $(printf '%s\n' "$out" | head -3 | tr '\n' '|')"
	fi
}
# FILE (src/F/x.c) compiles with F's -I paths; with #include "HEADER"
# added before its first #include of ours, it fails for want of HEADER
include_refused()
{
	local file=$1 hdr=$2 unit folder d cflags out may
	unit=${file#src/} && unit=${unit%.c} && folder=${unit%%/*}
	may=$(for x in include core config dataplane control cmd console api; do may_include "$folder" $x && printf '%s ' $x; done)
	if ! d=$(scratch_tree); then
		fail "build rule: a file of src/$folder/ that includes $hdr fails to compile" "no scratch copy"
		return
	fi
	cflags=$(cflags_of "$d" "$unit")
	if out=$(cd "$d" && cc -std=gnu11 $cflags -fsyntax-only "$file" 2>&1); then
		pass "build rule: $file compiles with the $folder -I paths"
	else
		fail "build rule: $file compiles with the $folder -I paths" \
			"cc failed with: $cflags: $(printf '%s\n' "$out" | head -3 | tr '\n' '|')"
		return
	fi
	sed -i '0,/^#include "/s//#include "'"$hdr"'"\n#include "/' "$d/$file"
	# shellcheck disable=SC2086 # cflags: words
	refused "build rule: a file of src/$folder/ that includes $hdr fails to compile" \
		"build rule: a file of src/$folder/ that includes $hdr fails to compile ($folder may include: ${may% })" \
		"it compiled" -F "$hdr: No such file" env -C "$d" cc -std=gnu11 $cflags -fsyntax-only "$file"
}
build_refused()
{
	include_refused src/core/units.c port.h      # control's
	include_refused src/api/api_run.c tui.h      # console's
	include_refused src/console/console.c api.h  # api's
}
build_alone()
{
	local incs=(include/*.h) pkgflags alone h out d
	# include/ stands on its own: each header compiles with -I include and
	# nothing of ours more; a scratch worker-t.h that includes core's own.h
	# does not, and test/layout.sh (run by make before every link) refuses it
	pkgflags="$(pkg-config --cflags libdpdk) -DALLOW_EXPERIMENTAL_API"
	alone=
	for h in include/*.h; do
		out=$(cc -std=gnu11 -I include $pkgflags -fsyntax-only -x c "$h" 2>&1) ||
			alone="$alone|$h: $(printf '%s\n' "$out" | grep -m1 -E 'error|No such')"
	done
	if [ -z "$alone" ]; then
		pass "build rule: every header of include/ compiles with -I include only (${#incs[@]})"
	else
		fail "build rule: every header of include/ compiles with -I include only" "${alone#|}"
	fi
	if d=$(scratch_tree); then
		sed -i '0,/^#include "/s//#include "own.h"\n#include "/' "$d/include/worker-t.h"
		# shellcheck disable=SC2086 # pkgflags: words
		refused "build rule: an include/ header that includes core's own.h fails to compile alone" "" \
			"it compiled" -F 'own.h: No such file' \
			cc -std=gnu11 -I "$d/include" $pkgflags -fsyntax-only -x c "$d/include/worker-t.h"
		refused "test/layout.sh refuses an include/ header that includes core's own.h" "" "it passed" \
			-F 'include/worker-t.h includes "own.h", not a header of include/' "$d/test/layout.sh"
	else
		fail "build rule: an include/ header that includes core's own.h fails" "no scratch copy"
	fi
}
build_scratch()
{
	local d out
	# a folder without an include rule stops make: src/newfolder/x.c in a
	# scratch copy, where `make -n` of an object otherwise goes through
	if d=$(scratch_tree); then
		if out=$(make -n -C "$d" build/obj/core/units.o 2>&1); then
			pass "build rule: make -n build/obj/core/units.o goes through in an untouched scratch copy"
		else
			fail "build rule: make -n build/obj/core/units.o goes through in an untouched scratch copy" \
				"$(printf '%s\n' "$out" | head -3 | tr '\n' '|')"
		fi
		mkdir "$d/src/newfolder"
		printf '/*\n * x.c — a file of a folder the Makefile has no include rule for.\n */\nint x(void);\nint x(void) { return 0; }\n' \
			>"$d/src/newfolder/x.c"
		refused "build rule: a folder without an INC_ rule stops make" \
			"build rule: a folder without an INC_ rule stops make (src/newfolder/: has no include rule)" \
			"make -n build/obj/newfolder/x.o went through" \
			-F 'src/newfolder/ has no include rule in the Makefile (INC_newfolder)' \
			make -n -C "$d" build/obj/newfolder/x.o
	else
		fail "build rule: a folder without an INC_ rule stops make" "no scratch copy"
	fi

	# an #include with a path gets past -I (the compiler finds it beside the
	# file), so test/layout.sh refuses it: a scratch complete.c that includes
	# "../cmd/cli.h"
	if d=$(scratch_tree); then
		if out=$("$d/test/layout.sh" 2>&1); then
			pass "test/layout.sh passes an untouched scratch copy"
		else
			fail "test/layout.sh passes an untouched scratch copy" "$(printf '%s\n' "$out" | head -3 | tr '\n' '|')"
		fi
		sed -i 's|^#include "cli\.h"|#include "../cmd/cli.h"|' "$d/src/console/complete.c"
		if ! grep -qF '#include "../cmd/cli.h"' "$d/src/console/complete.c"; then
			fail "test/layout.sh refuses an #include with a path" "src/console/complete.c no longer includes cli.h: pick another probe"
		else
			refused "test/layout.sh refuses an #include with a path" \
				"test/layout.sh refuses an #include with a path (\"../cmd/cli.h\" in src/console/complete.c)" "it passed" \
				-E 'an #include with a path.*src/console/complete\.c:[0-9]+:#include "\.\./cmd/cli\.h"' "$d/test/layout.sh"
		fi
	else
		fail "test/layout.sh refuses an #include with a path" "no scratch copy"
	fi
}
lane refused build_refused
lane alone build_alone
lane scratch build_scratch

# --- a. the worker rule ------------------------------------------------------------

NAMES='malloc|calloc|realloc|free|aligned_alloc|posix_memalign|strdup|rte_free|qsort'
NAMES=$NAMES'|printf|fprintf|snprintf|vsnprintf|sprintf|vfprintf|puts|fputs|fwrite|putchar'
NAMES=$NAMES'|usleep|nanosleep|sleep'
FORBIDDEN="^(($NAMES)|__($NAMES)_chk|__strdup|rte_malloc.*|rte_zmalloc.*|rte_calloc.*|pthread_mutex_.*|pthread_cond_.*)\$"

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

# --- b. loops between the files of a folder ------------------------------------

# (the python3 above)
wait "$LOOPS_PID" || fail "call loops: python3 ran" "exit status $?"
while IFS=$'\t' read -r verdict name why; do
	case $verdict in
	pass) pass "$name" ;;
	fail) fail "$name" "$why" ;;
	esac
done <"$FG_TMP/loops"

# --- c. no reference outside the repository ------------------------------------

OUTSIDE=('SPEC §' 'SPEC.md' 'METHOD.md' 'STYLE.md' 'SCENARIOS.md' '../shared')
pats=()
for s in "${OUTSIDE[@]}"; do
	pats+=(-e "$s")
done
where=()
for p in src include test man README Makefile examples profiles deploy image .ci; do
	[ -e "$p" ] && where+=("$p")
done
# (test/k8s/node_modules: npm's packages for 99_k8s.sh, not the repository's)
refs=$(grep -rnIF --exclude-dir=node_modules "${pats[@]}" -- "${where[@]}" 2>/dev/null | grep -v '^test/e2e/06_layout\.sh:')
if [ -z "$refs" ]; then
	pass "no reference to documents outside the repository (${where[*]})"
else
	fail "no reference to documents outside the repository" \
		"$(printf '%s\n' "$refs" | wc -l) lines: $(printf '%s\n' "$refs" | cut -c1-120 | tr '\n' '|')"
	# every offending line, for whoever fixes them
	printf '%s\n' "$refs" | sed 's/^/#   /'
fi

# --- d. narrative headers ----------------------------------------------------------

nsrc=$(find src -name '*.c' -type f | wc -l)
nohead=
# the words of each file's first comment block: the first line opens a /*
# comment, the words of the block up to its */ (one awk for all files;
# /dev/null last, so that it never reads its stdin)
mapfile -t cfiles < <(find src -name '*.c' -type f | sort)
declare -A hwords=()
while IFS=$'\t' read -r n f; do
	hwords[$f]=$n
done < <(awk '
	FNR == 1 {
		if (cur != "" && !done) print 0 "\t" cur
		cur = FILENAME; done = 0; n = 0
		if (!/^[ \t]*\/\*/) { done = 1; print 0 "\t" FILENAME; next }
	}
	done { next }
	{
		line = $0
		end = index(line, "*/")
		if (end) line = substr(line, 1, end - 1)
		if (FNR == 1) sub(/^[ \t]*\/\*+/, "", line)
		else sub(/^[ \t]*\*?/, "", line)
		n += split(line, w, " ")
		if (end) { done = 1; print n "\t" FILENAME; next }
	}
	END { if (cur != "" && !done) print 0 "\t" cur }' "${cfiles[@]}" /dev/null)
for f in "${cfiles[@]}"; do
	[ "${hwords[$f]:-0}" -ge $HEADER_WORDS ] || nohead="$nohead $f"
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
	d=${h%/*} b=${h##*/}
	b=${b%.h}
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

# where a header lives: its folder name (include, core, ...), or none if
# not ours: include/ first, then src/'s folders in order (one table for
# every #include below)
declare -A home=()
for f in include/* src/*/*; do
	[ -f "$f" ] || continue
	b=${f##*/}
	[ -n "${home[$b]+set}" ] && continue
	case $f in include/*) home[$b]=include ;; *) f=${f#src/}; home[$b]=${f%%/*} ;; esac
done
broken=
files=(src/main.c src/*/*.c src/*/*.h include/*.h)
nfiles=${#files[@]}
# each #include "..." of the files: a line naming its file (sed's F), then
# the header's (one sed for all files)
while IFS= read -r f && IFS= read -r inc; do
	case $f in src/main.c) from=main ;; include/*) from=include ;; *) from=${f#src/}; from=${from%%/*} ;; esac
	case $inc in */*) broken="$broken|$f includes \"$inc\" (a path: name the header only)"; continue ;; esac
	to=
	[ -n "$inc" ] && to=${home[$inc]:-}
	[ -n "$to" ] || continue
	if [ "$from" = include ]; then
		[ "$to" = include ] && continue
		broken="$broken|$f includes $to/$inc (include/ is types only: it may include include/ only)"
	elif ! may_include "$from" "$to"; then
		broken="$broken|$f includes $to/$inc ($from may include: $(for d in include core config dataplane control cmd console api; do may_include "$from" $d && printf '%s ' $d; done))"
	fi
done < <(sed -n '/^[ \t]*#[ \t]*include[ \t]*"\([^"]*\)".*/{F;s//\1/p}' "${files[@]}")
if [ -z "$broken" ]; then
	pass "the include direction holds ($nfiles files)"
else
	fail "the include direction holds" "${broken#|}"
fi
# the scratch copies' checks (their lanes started at the top)
lane_end refused
lane_end alone
lane_end scratch

# --- h. values, not text or files, between our own parts ---------------------------

# The command layer and the API hand results on as values (README, "The
# HTTP API"): no descriptor of the process redirected (dup2, dup3, freopen
# onto stdout or stderr), no temporary file (mkstemp*, tmpfile, tmpnam, a
# /tmp path) in src/cmd/ or src/api/.
redirect=$(grep -nE '\<(dup2|dup3|freopen|mkstemps?|mkostemps?|tmpfile|tmpnam)[[:space:]]*\(|"/tmp' \
	src/cmd/*.[ch] src/api/*.[ch] | grep -vE '^[^:]+:[0-9]+:[[:space:]]*(\*|/\*)')
if [ -z "$redirect" ]; then
	pass "no redirected descriptor or temporary file in src/cmd/ and src/api/"
else
	fail "no redirected descriptor or temporary file in src/cmd/ and src/api/" "$(printf '%s' "$redirect" | tr '\n' '|')"
fi
# and the check sees one: a scratch copy with a dup2 onto stdout fails it
scratch_r=$(mktemp -d "$FG_TMP/redir.XXXXXX")
mkdir -p "$scratch_r/src/api"
printf 'static void f(int fd) { dup2(fd, 1); }\n' >"$scratch_r/src/api/x.c"
if grep -qE '\<(dup2|dup3|freopen|mkstemps?|mkostemps?|tmpfile|tmpnam)[[:space:]]*\(' "$scratch_r/src/api/x.c"; then
	pass "the redirection check finds a dup2 in a scratch src/api/x.c"
else
	fail "the redirection check finds a dup2 in a scratch src/api/x.c" "not found"
fi

# --- g. function length --------------------------------------------------------------

MAXFN=120
longfn=$(awk -v max=$MAXFN '
	FNR == 1 { sig = ""; name = ""; start = 0 }
	/^[A-Za-z].*\(/ { sig = $0 }
	/^\{/ { start = FNR; name = sig }
	/^\}/ && start { n = FNR - start + 1; if (n > max) { sub(/\(.*/, "", name); printf "%s: %s (%d lines); ", FILENAME, name, n } start = 0 }' \
	src/*.c src/*/*.c /dev/null)
if [ -z "$longfn" ]; then
	pass "no function under src/ is longer than $MAXFN lines"
else
	fail "no function under src/ is longer than $MAXFN lines" "${longfn%; }"
fi

finish
