#!/bin/bash
# clyde matrix: a cell during which the process was stopped (SIGSTOP) and
# continued (SIGCONT) is marked as a stopped classic test is ("stopped":
# true on the cell in the record; the warning naming it in the record and
# the text), for the time it stood still is in its figures; a cell
# without a stop is not (issue 24, 5).  The stop lands inside the cell's
# timed span by construction: once /proc/PID/io counts more writes than
# the prefill's, and the cell is checked to be unfinished while it stands
# still.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-hold.sh"

test_have_prereq JQ || test_skip_all 'jq is needed to read the JSON record'

mkdir m

test_expect_success 'a stop inside the second cell marks that cell only' '
	"$CLYDE" matrix -d m --size 32M --bs 64k --threads 1 --pattern seq \
		--mix 100,0 --time 6 --ramp 0 --engine psync -q \
		--json m.jsonl >out 2>err &
	pid=$! &&
	stop_when $pid "io_count $pid wchar; test \$count -gt $((33 << 20))" &&
	test_must_fail test -s m.jsonl &&
	sleep 2 &&
	kill -CONT $pid &&
	wait $pid &&
	jq -e "[.matrix.cells[] | .stopped] == [false, true]" m.jsonl &&
	jq -e "[.warnings[] | select(test(\"stopped\"))] | length == 1 and
	       (.[0] | startswith(\"matrix cell 2 (\"))" m.jsonl &&
	grep -q "^warning: matrix cell 2 (.*): stopped: the process" err
'

test_expect_success 'without a stop no cell is marked' '
	rm -f m.jsonl &&
	"$CLYDE" matrix -d m --size 32M --bs 64k --threads 1 --pattern seq \
		--mix 100,0 --time 0.3 --ramp 0 --engine psync -q \
		--json m.jsonl >out 2>err &&
	jq -e "[.matrix.cells[] | .stopped] == [false, false]" m.jsonl &&
	test_must_fail grep -q stopped err
'

test_done
