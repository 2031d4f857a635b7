# fg_jq.sh — lib.sh's jq_ from one python3 for a whole scenario (the HTTP
# API scenarios evaluate dozens of expressions over response bodies, and
# a python3 start costs 80 ms or more on a busy machine). Source it after
# lib.sh; jq_start starts the python3 (test/e2e/fg_jq.py) and replaces
# jq_ by one that asks it.

# jq_start : the python3 behind jq_, torn down on exit; requests go to it
# through a FIFO, answers come back through another
jq_start()
{
	rm -f "$FG_TMP/jq.req" "$FG_TMP/jq.rep"
	mkfifo "$FG_TMP/jq.req" "$FG_TMP/jq.rep"
	python3 "$FG_TOP/test/e2e/fg_jq.py" <"$FG_TMP/jq.req" >"$FG_TMP/jq.rep" 2>/dev/null &
	at_exit "kill $!"
	exec {FG_JQW}>"$FG_TMP/jq.req" {FG_JQR}<"$FG_TMP/jq.rep"
}

# jq_ EXPR : a Python expression over the last body, parsed as `o` (EXPR
# on one line); prints what lib.sh's jq_ prints, an error as its last line
jq_()
{
	local n l
	printf '%s' "$B" >"$FG_TMP/jq.in"
	printf '%s\t%s\n' "$FG_TMP/jq.in" "$1" >&"$FG_JQW"
	read -r n <&"$FG_JQR" || return 0
	for ((; n > 0; n--)); do
		IFS= read -r l <&"$FG_JQR"
		printf '%s\n' "$l"
	done
}
