#!/bin/bash
# Workers in step: -c N and several -d.  Every worker starts each test
# together with the others (from the recorded first-operation times), the
# aggregate is the total work over the recorded span, each worker works in
# a directory of its own, and a worker that dies or a signal ends the run
# cleanly.  Where a test needs the workers at a point of the run (their
# files there, a worker dying or a signal coming mid-test), clyde is held
# there (t/lib-hold.sh: -y p prompts, stopped workers), never timed.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-loop.sh"
. "$TEST_DIR/lib-hold.sh"

test_have_prereq JQ || test_skip_all 'jq is needed to read the JSON record'

check_empty () {
	test -z "$(ls -A "$1" | grep -v '^lost+found$')"
}

# check_workers N: r.jsonl holds one record of N workers in step with
# consistent aggregates
check_workers () {
	test_line_count = 1 r.jsonl &&
	jq -e --argjson n "$1" '
		def spread(f): ([.workers[] | f] | max - min);
		.exit_status == 0 and .params.concurrency == $n and
		(.results | length) == 12 and
		([.results[] | select(.status == "ok")] | length) >= 9 and
		all(.results[] | select(.status != "not_run");
			.status == "ok" and (.workers | length) == $n and
			([.workers[].worker] == [range($n)]) and
			all(.workers[]; .status == "ok" and .value > 0 and
				.first_s >= 0 and .last_s > .first_s) and
			# the span is from the first start to the last end
			(.elapsed - ([.workers[].last_s] | max) +
				([.workers[].first_s] | min) | fabs) < 1e-6 and
			# aggregate = total work / span
			((([.workers[] | .value * .elapsed] | add) / .elapsed)
				/ .value - 1 | fabs) < 1e-6 and
			.ops == ([.workers[].ops] | add) and
			.bytes == ([.workers[].bytes] | add) and
			.histogram.count == ([.workers[].ops] | add)) and
		# released together: in the longest test (on tmpfs the block
		# tests of -s 160M take 0.06-0.14 s on a quiet machine, more on
		# a busy one) the first operations are close together relative
		# to its length, and all overlap.  Not in every test: on a
		# loaded machine a worker may wait for a CPU longer than a
		# short file test lasts, and finish before another starts.
		([.results[] | select(.status == "ok")] | max_by(.elapsed) |
			.elapsed >= 0.05 and
			spread(.first_s) <= 0.25 * .elapsed + 0.05 and
			([.workers[].first_s] | max) < ([.workers[].last_s] | min))
	' r.jsonl >/dev/null || {
		# what did not hold, for the log
		jq -c '.exit_status, (.results[] | select(.status != "not_run") |
			{name, status, reason, elapsed, value,
			 first: [.workers[].first_s], last: [.workers[].last_s]})' \
			r.jsonl >&2
		return 1
	}
}

test_expect_success 'bad -c is a usage error' '
	test_expect_code 2 "$CLYDE" -c 0 -d . 2>err &&
	grep -q "^clyde: -c: process count .0. must be a number from 1" err &&
	test_expect_code 2 "$CLYDE" --procs x -d . 2>err &&
	grep -q "^clyde: -c: process count .x." err
'

test_expect_success TMPFS '4 workers on tmpfs: in step, aggregate, CSV' '
	mkdir tmpfs &&
	mount -t tmpfs -o size=900m clyde-t2301 tmpfs &&
	test_cleanup "umount \"$TRASH/tmpfs\"" &&
	hold_start four -c 4 -d tmpfs -s 160M -f -n 2 -m four -q -z 5 \
		--json r.jsonl &&
	# held after the block write: every worker has its file there
	hold_before Rewrite &&
	dirs=$(compgen -G "tmpfs/clyde.*/Bonnie.*" | xargs -n1 dirname |
		sort -u | wc -l) &&
	hold_go && hold_wait &&
	mv four.out out.csv &&
	echo "exit $hold_status, $dirs directories" &&
	test "$hold_status" -eq 0 &&
	test "$dirs" -eq 4 &&
	check_workers 4 &&
	check_empty tmpfs &&
	awk -F, "\$1 == \"1.98\" && \$4 == 4 && NF == 50" out.csv | grep -q .
'

test_expect_success LOOP,XFS '4 workers on loop xfs: in step, aggregate' '
	loop_fs xfs 600 xmnt &&
	rm -f r.jsonl &&
	"$CLYDE" -c 4 -d "$xmnt" -s 48M -f -n 1 -m xfs4 -q -z 6 \
		--json r.jsonl >out.csv 2>out.txt &&
	check_workers 4 &&
	jq -e ".target.fstype == \"xfs\"" r.jsonl &&
	check_empty "$xmnt"
'

test_expect_success LOOP,EXT4,XFS 'two -d on two loop filesystems' '
	loop_fs ext4 300 emnt &&
	rm -f r.jsonl &&
	"$CLYDE" -d "$xmnt" -d "$emnt" -s 64M -f -n 1 -m two -q -z 8 \
		--json r.jsonl >out.csv 2>out.txt &&
	check_workers 2 &&
	# the text table shows each directory per test
	sed -n "/^Per worker /,/^(rates/p" out.txt >pw &&
	test "$(grep -A1 "^Block write " pw |
		grep -c -e "$(basename "$xmnt")" -e "$(basename "$emnt")")" = 2 &&
	jq -e --arg x "$xmnt" --arg e "$emnt" "
		all(.results[] | select(.status == \"ok\");
			[.workers[].dir] == [\$x, \$e])" r.jsonl &&
	check_empty "$xmnt" && check_empty "$emnt"
'

# the victim is stopped before the rewrite is released and killed after:
# it dies in the rewrite, whatever the others did meanwhile
test_expect_success LOOP,XFS 'a worker killed mid-test: exit 1, nothing left, record names it' '
	rm -f r.jsonl &&
	hold_start kill -c 3 -d "$xmnt" -s 120M -f -n 0 -m kill -q \
		--json r.jsonl &&
	hold_before Rewrite &&
	victim=$(hold_workers | sed -n 2p) &&
	test -n "$victim" &&
	hold_stop $victim &&
	hold_release &&
	kill -9 $victim &&
	hold_go && hold_wait &&
	test "$hold_status" -eq 1 &&
	check_empty "$xmnt" &&
	# which worker it was: the record says, and the rest agrees
	k=$(jq -r ".results[] | select(.title == \"Rewrite\") | .reason" r.jsonl |
		sed -n "s/^worker \([0-9]\) in .*killed by signal 9.*/\1/p") &&
	test -n "$k" &&
	grep -q "^clyde: Rewrite: worker $k in .*killed by signal 9" kill.err &&
	jq -e --argjson k "$k" ".exit_status == 1 and
		any(.results[]; .title == \"Rewrite\" and .status == \"failed\" and
			.workers[\$k].status == \"failed\" and
			([.workers[] | select(.worker != \$k) | .status] ==
				[\"ok\", \"ok\"]))" r.jsonl
'

# SIGINT while the workers are stopped at the release of the rewrite; they
# go on only once clyde has handled it: each meets the stop in the rewrite
test_expect_success LOOP,XFS 'SIGINT stops every worker: exit 130, partial record' '
	rm -f r.jsonl &&
	hold_start int -c 2 -d "$xmnt" -s 200M -f -n 0 -m int -q \
		--json r.jsonl &&
	hold_before Rewrite &&
	workers=$(hold_workers) &&
	hold_stop $workers &&
	hold_release &&
	kill -INT $hold_pid &&
	hold_handled &&
	hold_cont $workers &&
	hold_go && hold_wait &&
	test "$hold_status" -eq 130 &&
	check_empty "$xmnt" &&
	for w in $workers; do
		test ! -e /proc/$w || { echo "worker $w still there"; return 1; }
	done &&
	# stopped: the rest did not run; the rewrite, cut short, says so
	jq -e ".exit_status == 130 and
		[.results[] | select(.status == \"ok\") | .title] ==
			[\"Block write\"] and
		any(.results[]; .title == \"Rewrite\" and
			.status == \"skipped\" and
			(.reason | test(\"^interrupted by signal 2 \")) and
			all(.workers[]; .reason | test(\"^interrupted by signal 2 \"))) and
		all(.results[]; .status == \"ok\" or .status == \"not_run\" or
			(.reason | test(\"interrupted by signal 2\")))" r.jsonl
'

test_done
