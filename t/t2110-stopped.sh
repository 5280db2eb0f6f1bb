#!/bin/bash
# A run stopped (SIGSTOP) for 2 s inside a timed test and continued
# (SIGCONT) says so: the time stood still is in the figure, so clyde run
# marks the test ("stopped": true in the record, a line in the text),
# clyde matrix the cell and clyde zones the sweep (a warning naming it, in
# the record and the text).  The stop lands inside the timed span by
# construction: the process is stopped once the test's own I/O has begun
# (the block write's file holds data; /proc/PID/io counts more than the
# prefill or the fill), and while it stands still the test is checked to
# be unfinished.  A run without a stop is not marked (issue 24, 5).
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-hold.sh"

test_have_prereq JQ || test_skip_all 'jq is needed to read the JSON record'

mkdir d m

test_expect_success 'clyde run: a stop inside the block write marks that test' '
	"$CLYDE" -d d -s 1G -r 512 -n 0 -f -q --json r.jsonl >out 2>err &
	pid=$! &&
	stop_when $pid "for f in d/*/Bonnie.*; do test -s \"\$f\" && break; done
		test -s \"\$f\"" &&
	size=$(stat -c %s "$f") &&
	sleep 2 &&
	kill -CONT $pid &&
	wait $pid &&
	test "$size" -lt 1073741824 &&
	jq -e "[.results[] | select(.stopped) | .name] == [\"put_block\"]" \
		r.jsonl &&
	grep -q "^Block write: stopped: the process was stopped (SIGSTOP or" \
		err &&
	test "$(grep -c stopped err)" = 1
'

test_expect_success 'clyde run without a stop: no test marked' '
	rm -f r.jsonl &&
	"$CLYDE" -d d -s 64M -r 32 -n 0 -f -q --json r.jsonl >out 2>err &&
	jq -e "all(.results[]; .stopped == false)" r.jsonl &&
	test_must_fail grep -q stopped err
'

test_expect_success 'clyde matrix: a stop inside a cell is a warning naming it' '
	"$CLYDE" matrix -d m --size 32M --bs 64k --threads 1 --pattern seq \
		--mix 0 --time 6 --ramp 0 --engine psync -q \
		--json m.jsonl >out 2>err &
	pid=$! &&
	stop_when $pid "io_count $pid wchar; test \$count -gt $((33 << 20))" &&
	sleep 2 &&
	kill -CONT $pid &&
	wait $pid &&
	jq -e "[.warnings[] | select(test(\"stopped\"))] | length == 1 and
	       (.[0] | startswith(\"matrix cell 1 (\"))" m.jsonl &&
	grep -q "^warning: matrix cell 1 (.*): stopped: the process" err
'

test_expect_success 'clyde matrix without a stop: no warning' '
	rm -f m.jsonl &&
	"$CLYDE" matrix -d m --size 32M --bs 64k --threads 1 --pattern seq \
		--mix 0 --time 0.3 --ramp 0 --engine psync -q \
		--json m.jsonl >out 2>err &&
	jq -e "all(.warnings[]?; test(\"stopped\") | not)" m.jsonl
'

test_expect_success 'setup: a 512 MiB file for zones to read' '
	dd if=/dev/zero of=z.img bs=1M count=512 conv=fsync status=none
'

test_expect_success 'clyde zones: a stop inside a read sweep is a warning naming it' '
	"$CLYDE" zones -d z.img --engine psync --bs 64k --zone 64 -q \
		--json z.jsonl >out 2>err &
	pid=$! &&
	stop_when $pid "io_count $pid rchar; test \$count -gt $((4 << 20))" &&
	io_count $pid rchar &&
	read=$count &&
	sleep 2 &&
	kill -CONT $pid &&
	wait $pid &&
	test "$read" -lt $((512 << 20)) &&
	jq -e "[.warnings[] | select(test(\"stopped\"))] ==
	       [\"read: stopped: the process was stopped (SIGSTOP or SIGTSTP) and continued inside the timed span: the time it stood still is in the figures\"]" \
		z.jsonl &&
	grep -q "^      read: stopped: the process was stopped" err &&
	# the sweep itself is marked, in the record, its text and the report
	jq -e ".zones.sweeps[0].stopped == true" z.jsonl &&
	grep -q "^                stopped: the process was stopped" err &&
	"$CLYDE" report -f text z.jsonl >rep &&
	grep -q "^                stopped: the process was stopped" rep &&
	"$CLYDE" report z.jsonl -o z.html &&
	grep -q "<td>run 1 ([^)]*): read (stopped: the process was stopped" z.html
'

test_expect_success 'clyde zones without a stop: no warning' '
	rm -f z.jsonl &&
	"$CLYDE" zones -d z.img --engine psync --zone 256 --size 256M -q \
		--json z.jsonl >out 2>err &&
	jq -e "all(.warnings[]?; test(\"stopped\") | not) and
		.zones.sweeps[0].stopped == false" z.jsonl
'

test_done
