#!/bin/bash
# A second SIGINT/SIGTERM hurries the cleanup but never skips it (issue 13
# item 3): whatever clyde was doing when it came, the work directory is
# gone (every worker's, every phase's), the record of what finished is
# written (the test cut short skipped, not failed: workers killed to
# hurry are clyde's doing), and the exit status is 128 + the first signal.
#
# No test here hopes that a phase lasts long enough: clyde is held where
# the signals must find it (t/lib-hold.sh): at a -y p prompt, in a write(2)
# on a frozen filesystem (fsfreeze; root), or waiting for its stopped
# workers.  Signals sent to a held single process are handled together
# when it goes on; the parent of stopped workers answers each signal as it
# comes, so there the second comes later.  Which of two signals handled
# together is the first is the kernel's choice (Linux dequeues the
# lower-numbered first, and the other's handler, set up on top of it,
# runs first): the record and the exit status must agree on it.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-loop.sh"
. "$TEST_DIR/lib-hold.sh"

test_have_prereq JQ || test_skip_all 'jq is needed to read the JSON record'

# check NAME DIR CODE TITLE REASON: clyde (hold_wait) exited CODE, nothing
# is left in DIR, the record NAME.* is whole (every test, one line of CSV),
# no test and no worker failed, and the test TITLE is skipped with a
# reason matching REASON
check () {
	local name=$1 dir=$2 code=$3 title=$4 why=$5 left
	test "$hold_status" -eq "$code" ||
		{ echo "exit $hold_status, not $code"; cat "$name.err"; return 1; }
	test -d "$dir" &&
	left=$(find "$dir" -mindepth 1 | wc -l) &&
	test "$left" -eq 0 ||
		{ echo "$left entries left"; find "$dir" | head; return 1; }
	test_line_count = 1 "$name.jsonl" &&
	jq -e --argjson code "$code" --arg t "$title" --arg why "$why" '
		.exit_status == $code and
		(.results | length) == 12 and
		any(.results[]; .title == $t and .status == "skipped" and
			(.reason | test($why))) and
		# a signal, however many, is no failure of the target
		all(.results[]; .status != "failed") and
		all(.results[].workers[]?; .status != "failed")' \
		"$name.jsonl" >/dev/null ||
		{ jq -c '.exit_status, (.results[] | [.title, .status, .reason])' \
			"$name.jsonl"; return 1; }
	test_line_count = 1 "$name.csv"
}

# together N1 N2: clyde exited 128 + N1 or 128 + N2; first := that N
together () {
	case $hold_status in
	$((128 + $1))|$((128 + $2))) first=$((hold_status - 128)) ;;
	*) echo "exit $hold_status: neither 128 + $1 nor 128 + $2" >&2
	   return 1 ;;
	esac
}

# start NAME DIR clyde-args...: clyde -y p on DIR, its record in NAME.*
start () {
	local name=$1 dir=$2
	shift 2
	hold_start "$name" -d "$dir" --json "$name.jsonl" --csv "$name.csv" \
		-m "$name" "$@"
}

test_expect_success LOOP,XFS,FREEZE 'during the rewrite: INT and TERM together' '
	loop_fs xfs 320 fs &&
	start rw "$fs" -s 64M -f -n 0 &&
	hold_before Rewrite &&
	hold_frozen "$fs" &&
	kill -INT $hold_pid && kill -TERM $hold_pid &&
	kill -0 $hold_pid &&
	fsfreeze -u "$fs" &&
	hold_go && hold_wait &&
	together 2 15 &&
	check rw "$fs" $hold_status Rewrite "^interrupted by signal $first "
'

test_expect_success LOOP,XFS,FREEZE 'during sequential delete, its files there: TERM and HUP together' '
	start sd "$fs" -s 0 -n 8 &&
	hold_before "Sequential delete" &&
	hold_frozen "$fs" &&
	kill -TERM $hold_pid && kill -HUP $hold_pid &&
	fsfreeze -u "$fs" &&
	hold_go && hold_wait &&
	together 1 15 &&
	check sd "$fs" $hold_status "Sequential delete" "^interrupted by signal $first "
'

test_expect_success 'waiting to start the block read: INT and TERM together' '
	mkdir br &&
	start br br -s 32M -f -n 0 &&
	hold_before "Block read" &&
	hold_stop $hold_pid &&
	kill -TERM $hold_pid && kill -INT $hold_pid &&
	hold_cont $hold_pid &&
	hold_go && hold_wait &&
	together 2 15 &&
	check br br $hold_status "Block read" "^not run: interrupted by signal $first [(]SIG[A-Z]*[)]$"
'

# apart NAME SIG TITLE clyde-args...: two workers; stop them while clyde
# waits to start TITLE, let it start, SIG; clyde waits for its stopped
# workers, a second SIG 0.2 s after it handled the first kills them
apart () {
	local name=$1 sig=$2 title=$3 workers
	shift 3
	mkdir "$name" &&
	start "$name" "$name" -c 2 "$@" &&
	hold_before "$title" &&
	workers=$(hold_workers) &&
	test "$(echo "$workers" | wc -l)" -eq 2 &&
	hold_stop $workers &&
	hold_release &&
	kill -"$sig" $hold_pid &&
	# handled, not pending (a second of a kind would merge with it)
	hold_handled &&
	sleep 0.2 &&
	# held: not done before the second signal, however slow the machine
	kill -0 $hold_pid &&
	kill -"$sig" $hold_pid &&
	hold_go && hold_wait &&
	jq -e --arg t "$title" '.results[] | select(.title == $t) |
		[.workers[].reason] == ["killed after a second signal",
					"killed after a second signal"]' \
		"$name.jsonl" >/dev/null ||
		{ jq -c ".results[] | select(.title == \"$title\")" \
			"$name.jsonl"; return 1; }
}

test_expect_success 'two workers (-c 2) during the rewrite, 0.2 s apart' '
	apart c2 INT Rewrite -s 32M -f -n 4 &&
	check c2 c2 130 Rewrite "^interrupted by signal 2 "
'

test_expect_success 'two workers (-c 2) during sequential read, 0.2 s apart' '
	apart c2f TERM "Sequential read" -s 0 -n 4 &&
	check c2f c2f 143 "Sequential read" "^interrupted by signal 15 "
'

# in_finish: clyde waits in waitpid(2) for workers that will not exit
# (stopped): it is ending, past its last test
in_finish () {
	local i
	for i in $(seq 400); do
		test "$(cat /proc/$hold_pid/wchan 2>/dev/null)" = do_wait &&
			return 0
		sleep 0.05
	done
	echo "clyde not in waitpid after 20 s: $(cat /proc/$hold_pid/wchan)" >&2
	return 1
}

# gone: clyde ends within 20 s (not held for ever by its workers)
gone () {
	local i
	for i in $(seq 400); do
		kill -0 $hold_pid 2>/dev/null || return 0
		sleep 0.05
	done
	echo "clyde still there 20 s after the second signal" >&2
	return 1
}

test_expect_success 'two workers (-c 2) stopped while clyde ends: the second signal kills them' '
	mkdir fin &&
	start fin fin -c 2 -s 32M -f -n 0 &&
	hold_before Rewrite &&
	workers=$(hold_workers) &&
	test "$(echo "$workers" | wc -l)" -eq 2 &&
	hold_stop $workers &&
	kill -INT $hold_pid &&
	hold_handled &&
	in_finish &&
	kill -INT $hold_pid &&
	gone &&
	hold_go && hold_wait &&
	check fin fin 130 Rewrite "^not run: interrupted by signal 2 [(]SIGINT[)]$"
'

test_done
