#!/bin/bash
# Workers in step: -c N and several -d.  Every worker starts each test
# together with the others (from the recorded first-operation times), the
# aggregate is the total work over the recorded span, each worker works in
# a directory of its own, and a worker that dies or a signal ends the run
# cleanly.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-loop.sh"

test_have_prereq JQ || test_skip_all 'jq is needed to read the JSON record'

check_empty () {
	test -z "$(ls -A "$1" | grep -v '^lost+found$')"
}

# wait_for_count N GLOB: up to 20 s until N paths match GLOB
wait_for_count () {
	local i
	for i in $(seq 200); do
		[ "$(compgen -G "$2" | wc -l)" -ge "$1" ] && return 0
		sleep 0.1
	done
	echo "fewer than $1 paths match $2" >&2
	return 1
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
		# released together: in the tests long enough to time the
		# start of processes (50 ms: on tmpfs the block tests of -s 160M
		# now take 0.06-0.14 s), the first operations are close together
		# relative to the test length, and all overlap
		([.results[] | select(.status == "ok" and .elapsed >= 0.05) |
			select(spread(.first_s) <= 0.25 * .elapsed + 0.05 and
				([.workers[].first_s] | max) <
				([.workers[].last_s] | min))] | length) >= 1 and
		all(.results[] | select(.status == "ok" and .elapsed >= 0.05);
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
	{ "$CLYDE" -c 4 -d tmpfs -s 160M -f -n 2 -m four -q -z 5 \
		--json r.jsonl >out.csv 2>out.txt & pid=$!; } &&
	wait_for_count 4 "tmpfs/clyde.*/Bonnie.*" &&
	dirs=$(compgen -G "tmpfs/clyde.*/Bonnie.*" | xargs -n1 dirname |
		sort -u | wc -l) &&
	{ wait $pid; status=$?; } ;
	echo "exit $status, $dirs directories" &&
	test "$status" -eq 0 &&
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

test_expect_success LOOP,XFS 'a worker killed mid-test: exit 1, nothing left, record names it' '
	rm -f r.jsonl &&
	{ "$CLYDE" -c 3 -d "$xmnt" -s 120M -f -n 0 -m kill -q \
		--json r.jsonl >out.csv 2>err & pid=$!; } &&
	wait_for_count 3 "$xmnt/clyde.*/Bonnie.*" &&
	victim=$(pgrep -P $pid | sed -n 2p) &&
	test -n "$victim" &&
	kill -9 $victim &&
	{ wait $pid; status=$?; } ;
	test "$status" -eq 1 &&
	check_empty "$xmnt" &&
	grep -q "^clyde: .*: worker 1 in .*killed by signal 9" err &&
	jq -e ".exit_status == 1 and
		any(.results[]; .status == \"failed\" and
			(.reason | test(\"^worker 1 .*killed by signal 9\")) and
			.workers[1].status == \"failed\" and
			.workers[0].status == \"ok\")" r.jsonl
'

test_expect_success LOOP,XFS 'SIGINT stops every worker: exit 130, partial record' '
	rm -f r.jsonl &&
	{ "$CLYDE" -c 2 -d "$xmnt" -s 200M -f -n 0 -m int -q \
		--json r.jsonl >out.csv 2>err & pid=$!; } &&
	wait_for_count 2 "$xmnt/clyde.*/Bonnie.*" &&
	sleep 0.3 &&
	kill -INT $pid &&
	{ wait $pid; status=$?; } ;
	test "$status" -eq 130 &&
	check_empty "$xmnt" &&
	test -z "$(pgrep -P $pid)" &&
	# stopped: not every test ran; a test cut short says so
	jq -e ".exit_status == 130 and
		([.results[] | select(.status == \"ok\")] | length) < 4 and
		all(.results[]; .status == \"ok\" or .status == \"not_run\" or
			(.reason | test(\"interrupted\")))" r.jsonl
'

test_done
