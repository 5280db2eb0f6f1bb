#!/bin/bash
# clyde matrix -c N: every cell run by N worker processes in step, each on
# files of its own; a row per worker per cell, and the cell's IO/s is all
# I/Os over the recorded span.
. "$(dirname "$0")/lib.sh"

test_have_prereq JQ || test_skip_all 'jq is needed to read the JSON record'

test_expect_success 'bad matrix -c is a usage error' '
	test_expect_code 2 "$CLYDE" matrix -c 0 -d . 2>err &&
	grep -q "^clyde: -c: process count .0. must be a number from 1" err &&
	test_expect_code 2 "$CLYDE" matrix -c 2 --curve 50 -d . 2>err &&
	grep -q "^clyde: -c: --curve" err
'

test_expect_success TMPFS 'matrix -c 2 on tmpfs: rows per worker, aggregate' '
	mkdir tmpfs &&
	mount -t tmpfs -o size=200m clyde-t2306 tmpfs &&
	test_cleanup "umount \"$TRASH/tmpfs\"" &&
	"$CLYDE" matrix -d tmpfs -c 2 --size 4M --bs 4k --threads 1,2 \
		--pattern random,seq --mix 100,0 --time 0.3 --ramp 0.1 \
		--buffered --json r.jsonl >out 2>err &&
	test_line_count = 1 r.jsonl &&
	jq -e "
		.exit_status == 0 and .params.concurrency == 2 and
		(.matrix.cells | length) == 8 and
		all(.matrix.cells[]; .status == \"ok\" and
			(.workers | length) == 2 and
			([.workers[].worker] == [0, 1]) and
			all(.workers[]; .status == \"ok\" and .ops > 0 and
				.last_s > .first_s) and
			(.reads + .writes) == ([.workers[].ops] | add) and
			(.elapsed - ([.workers[].last_s] | max) +
				([.workers[].first_s] | min) | fabs) < 1e-6 and
			((.reads + .writes) / .elapsed / .iops - 1 | fabs)
				< 1e-6)
	" r.jsonl >/dev/null &&
	test -z "$(ls -A tmpfs)"
'

test_done
