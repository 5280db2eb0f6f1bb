#!/bin/bash
# Faults end a run cleanly: a signal or ENOSPC removes clyde's files, writes
# the record of the finished tests, and exits with the documented status.
# Each signal finds clyde held where the test says (t/lib-hold.sh: at a -y
# p prompt, or blocked in a test by a frozen filesystem), never timed.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-loop.sh"
. "$TEST_DIR/lib-hold.sh"

test_have_prereq JQ || test_skip_all 'jq is needed to read the JSON record'

check_empty () {
	test -z "$(ls -A "$1" | grep -v '^lost+found$')"
}

test_expect_success LOOP,EXT4 'SIGINT mid-run: exit 130, partial record, nothing left' '
	# inodes for all 64 Ki files: the signal, not ENOSPC, must end it
	loop_fs ext4 600 mnt -N 100000 &&
	hold_start sigint -d "$mnt" -s 32M -f1 -n 64 -m sigint --json r.jsonl \
		--csv r.csv &&
	# the 64 Ki files of the sequential create are there
	hold_before "Sequential read" &&
	kill -INT $hold_pid &&
	hold_wait && status=$hold_status &&
	test "$status" -eq 130 &&
	check_empty "$mnt" &&
	test_line_count = 1 r.jsonl &&
	jq -e "(.exit_status == 130) and (.results | length) == 12 and
		all(.results[0:6][]; .status == \"ok\" and .value > 0) and
		(.results[6:] | any(.status != \"ok\" and
			(.reason | test(\"interrupted\")))) and
		(.results[6:] | all(.status == \"ok\" or
			(.reason | test(\"interrupted\")))) and
		(.results[11].status != \"ok\")" r.jsonl &&
	test_line_count = 1 r.csv &&
	awk -F, "\$1 == \"1.98\" && NF == 50 && \$12 != \"\"" r.csv | grep -q .
'

# cut SIG NAME clyde-args...: start clyde on $mnt, signal it with SIG
# inside its per-char write: started on the frozen filesystem, it waits
# to create its file (clyde, or each worker of -c N) until the signal has
# come; wait for it.
cut () {
	local sig=$1 name=$2 workers
	shift 2
	hold_start "$name" -d "$mnt" -m "$name" --json "$name.jsonl" \
		--csv "$name.csv" "$@" &&
	hold_before "Per-char write" &&
	workers=$(hold_workers) &&
	hold_frozen "$mnt" ${workers:-$hold_pid} &&
	kill -"$sig" $hold_pid &&
	# the parent of workers answers it now (a blocked clyde on thawing)
	{ [ -z "$workers" ] || hold_handled; } &&
	fsfreeze -u "$mnt" &&
	hold_go && hold_wait &&
	status=$hold_status &&
	echo "exit $status"
}

# cut_recorded NAME CODE SIGNAME: the record of a run cut as above says
# the test cut short was skipped, naming the signal (a Ctrl-C is no
# failure of the device), and the later tests were not run; the text
# and the bonnie++ CSV print no figure for it.
cut_recorded () {
	local name=$1 code=$2 signame=$3 sig=$(($2 - 128))
	check_empty "$mnt" &&
	jq -e --argjson code "$code" \
		--arg cut "interrupted by signal $sig ($signame)" \
		--arg later "not run: interrupted by signal $sig ($signame)" '
		.exit_status == $code and
		(.results[0] | .name == "putc" and .status == "skipped" and
			.reason == $cut and .value == null) and
		all(.results[1:][]; .status == "not_run" or
			(.status == "skipped" and .reason == $later)) and
		all(.results[]; .status != "failed") and
		all(.results[].workers[]?; .status == "skipped" and
			.reason == $cut)' "$name.jsonl" &&
	grep -q "^Per-char write skipped: interrupted by signal $sig ($signame)\$" \
		"$name.out" &&
	! grep -q " fail " "$name.out" &&
	grep -q "^clyde: Per-char write: interrupted by signal $sig ($signame)\$" \
		"$name.err" &&
	awk -F, "\$1 == \"1.98\" && NF == 50 && \$10 == \"\" && \$11 == \"\"" \
		"$name.csv" | grep -q .
}

test_expect_success LOOP,EXT4,FREEZE 'SIGINT inside a test: skipped, naming the signal, not failed' '
	cut INT cutint -s 32M -f4 -n 1 &&
	test "$status" -eq 130 &&
	cut_recorded cutint 130 SIGINT
'

test_expect_success LOOP,EXT4,FREEZE 'SIGTERM inside a test: skipped, naming the signal, not failed' '
	cut TERM cutterm -s 32M -f4 -n 1 &&
	test "$status" -eq 143 &&
	cut_recorded cutterm 143 SIGTERM
'

test_expect_success LOOP,EXT4,FREEZE 'SIGINT inside a test of two workers (-c 2): the same, each worker skipped' '
	cut INT cutc2 -c 2 -s 32M -f4 -n 1 &&
	test "$status" -eq 130 &&
	cut_recorded cutc2 130 SIGINT &&
	jq -e ".results[0].workers | length == 2" cutc2.jsonl
'

test_expect_success LOOP,EXT4,FREEZE 'SIGTERM during the file tests: exit 143, nothing left' '
	hold_start sigterm -d "$mnt" -s 0 -n 64 -m sigterm --json r2.jsonl &&
	hold_before "Sequential delete" &&
	hold_frozen "$mnt" &&
	kill -TERM $hold_pid &&
	fsfreeze -u "$mnt" &&
	hold_go && hold_wait &&
	test "$hold_status" -eq 143 &&
	check_empty "$mnt" &&
	jq -e ".exit_status == 143 and any(.results[];
		.title == \"Sequential delete\" and
		(.reason | test(\"^interrupted by signal 15 \")))" r2.jsonl
'

# two signals reach clyde blocked in the rewrite: handled together, one
# of them is the second
test_expect_success LOOP,EXT4,FREEZE 'a second signal still removes the test file' '
	hold_start second -d "$mnt" -s 64M -f -n 0 &&
	hold_before Rewrite &&
	hold_frozen "$mnt" &&
	kill -INT $hold_pid && kill -TERM $hold_pid &&
	fsfreeze -u "$mnt" &&
	hold_go && hold_wait &&
	{ test "$hold_status" -eq 130 || test "$hold_status" -eq 143; } &&
	test -z "$(find "$mnt" -name "Bonnie.*")"
'

test_expect_success LOOP,EXT4 'ENOSPC in a test: exit 1, message, record, nothing left' '
	# the up-front inode check passes (1 Ki files fit in 2 Ki inodes),
	# then, with clyde held before the sequential create, a filler (no
	# fork per file) takes every free inode
	loop_fs ext4 64 tiny -N 2048 &&
	mkdir "$tiny/filler" &&
	hold_start enospc -d "$tiny" -s 4M -f1 -n 1 -m enospc \
		--json r3.jsonl &&
	hold_before "Sequential create" &&
	i=0 && while { : >"$tiny/filler/$i"; } 2>/dev/null; do i=$((i + 1)); done &&
	hold_go && hold_wait && status=$hold_status &&
	mv enospc.err err &&
	test "$status" -eq 1 &&
	test "$i" -gt 1024 &&
	rm -rf "$tiny/filler" &&
	grep -q "^clyde: Sequential create: .*$tiny/clyde\..*No space left on device" err &&
	check_empty "$tiny" &&
	jq -e ".exit_status == 1 and
		(.results[] | select(.name == \"put_block\") | .status == \"ok\") and
		(.results[] | select(.name == \"seq_create\") |
			.status == \"failed\" and
			(.reason | test(\"No space left on device\")))" r3.jsonl
'

test_done
