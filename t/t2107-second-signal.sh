#!/bin/bash
# A second SIGINT/SIGTERM hurries the cleanup but never skips it (issue 13
# item 3): whatever clyde was doing when it came, the work directory is
# gone (every worker's, every phase's), the record of what finished is
# written (the test cut short skipped, not failed: workers killed to
# hurry are clyde's doing), and the exit status is 128 + the first signal.
. "$(dirname "$0")/lib.sh"

test_have_prereq JQ || test_skip_all 'jq is needed to read the JSON record'

# wait_for GLOB: up to 20 s for a file matching GLOB
wait_for () {
	local i
	for i in $(seq 400); do
		compgen -G "$1" >/dev/null && return 0
		sleep 0.05
	done
	echo "nothing matching $1 appeared" >&2
	return 1
}

# twice NAME SIG GAP GLOB DELAY clyde-args...: start clyde in a new
# directory NAME, wait for GLOB (relative to it) and DELAY seconds more,
# send SIG, GAP seconds later SIG again (when clyde is still there: its
# cleanup may be over by then); check the exit status, that
# nothing is left in NAME and that the record is whole.
twice () {
	local name=$1 sig=$2 gap=$3 glob=$4 delay=$5 status code
	shift 5
	mkdir "$name" &&
	{ "$CLYDE" -d "$name" --json "$name.jsonl" --csv "$name.csv" \
		-m "$name" "$@" >"$name.out" 2>"$name.err" & pid=$!; } &&
	wait_for "$name/$glob" &&
	sleep "$delay" &&
	kill -"$sig" $pid && sleep "$gap" &&
	{ kill -"$sig" $pid 2>/dev/null || echo "clyde was done before the second signal"; } &&
	{ wait $pid; status=$?; } ;
	case $sig in INT) code=130 ;; TERM) code=143 ;; esac
	test "$status" -eq "$code" || { echo "exit $status, not $code"; return 1; }
	left=$(find "$name" -mindepth 1 | wc -l) &&
	test "$left" -eq 0 || { echo "$left entries left"; find "$name" | head; return 1; }
	test_line_count = 1 "$name.jsonl" &&
	jq -e --argjson code "$code" '.exit_status == $code and
		(.results | length) == 12 and
		(.results | any(.status == "skipped")) and
		# a signal, however many, is no failure of the target
		all(.results[]; .status != "failed") and
		all(.results[].workers[]?; .status != "failed")' \
		"$name.jsonl" >/dev/null &&
	test_line_count = 1 "$name.csv"
}

test_expect_success 'during the block write' '
	twice bw INT 0.05 "clyde.*/Bonnie.*" 0 -s 512M -f -n 0
'
test_expect_success 'during the rewrite, 0.2 s apart' '
	twice rw TERM 0.02 "clyde.*/Bonnie.*" 0.4 -s 128M -f -n 0
'
test_expect_success 'during sequential create' '
	twice sc INT 0.02 "clyde.*/*" 0.1 -s 0 -n 64
'
test_expect_success 'during the file tests, later' '
	twice rc INT 0.01 "clyde.*/*" 0.7 -s 0 -n 64
'
test_expect_success 'two workers (-c 2) during the I/O tests' '
	twice c2 INT 0.05 "clyde.*/Bonnie.*" 0.2 -c 2 -s 128M -f -n 4
'
test_expect_success 'two workers (-c 2) during the file tests' '
	twice c2f TERM 0.02 "clyde.*/*/*" 0.2 -c 2 -s 0 -n 32
'
test_done
