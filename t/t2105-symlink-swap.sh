#!/bin/bash
# Issue 13.6: the classic tests open their file relative to the run
# directory's descriptor, never by path.  Swapping the run directory for a
# symlink to another directory mid-run, where a file of the same name
# waits, must leave that file alone: not truncated, not overwritten, not
# deleted.  With workers (-c 2) the same holds for the second signal's
# hurried cleanup, in which the parent unlinks the workers' files.
# Issue 24.2: a -d that is a symlink, swapped to another directory while
# clyde runs, leaves nothing behind in either directory, in run, matrix
# and zones: clyde makes and removes its own through the descriptor of
# the directory it opened.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-hold.sh"

# The swap is made while clyde waits before the rewrite (t/lib-hold.sh:
# -y p), after the block write made its file: every later test opens,
# writes and removes it through the run directory's descriptor.
test_expect_success 'run directory swapped for a symlink: the other directory is untouched' '
	mkdir -p wd other &&
	hold_start swap -d wd -s 8M -f -n 0 -q -m swap &&
	hold_before Rewrite &&
	run=$(basename wd/clyde.*) && bonnie=Bonnie.$hold_pid &&
	test -f "wd/$run/$bonnie" &&
	head -c 1M /dev/urandom >"other/$bonnie" &&
	sum=$(sha256sum <"other/$bonnie") &&
	mv "wd/$run" "wd/moved" &&
	ln -s "$PWD/other" "wd/$run" &&
	hold_go && hold_wait &&
	test "$hold_status" -eq 0 &&
	test -f "other/$bonnie" &&
	test "$(sha256sum <"other/$bonnie")" = "$sum" &&
	test "$(ls other)" = "$bonnie" &&
	# clyde worked on in its own directory, and removed its file there
	test -d wd/moved && ! compgen -G "wd/moved/Bonnie.*"
'

test_expect_success JQ 'two workers (-c 2), two signals: the files behind the swapped directories are untouched' '
	mkdir -p wd2 other2 &&
	hold_start swap2 -d wd2 -c 2 -s 8M -f -n 0 -q -m swap2 \
		--json r2.jsonl &&
	hold_before Rewrite &&
	workers=$(hold_workers) &&
	# the run directory of each worker swapped for a symlink to other2, where
	# a file of the same name as the worker file waits
	k=0 &&
	for run in wd2/clyde.*; do
		bonnie=$(basename $run/Bonnie.*) &&
		head -c 64k /dev/urandom >"other2/$bonnie" &&
		mv "$run" "wd2/moved$k" &&
		ln -s "$PWD/other2" "$run" &&
		k=$((k + 1)) || break
	done &&
	test "$k" -eq 2 &&
	sha256sum other2/* >sums &&
	# the rewrite released to the workers stopped: clyde waits for
	# them; the first signal asks them to stop, the second unlinks their
	# files and kills them
	hold_stop $workers &&
	hold_release &&
	kill -INT $hold_pid &&
	# handled (pending, a second of a kind would merge with it), and
	# clyde still waits for its workers
	hold_handled &&
	kill -0 $hold_pid &&
	kill -INT $hold_pid &&
	hold_go && hold_wait &&
	test "$hold_status" -eq 130 &&
	jq -e "[.results[] | select(.title == \"Rewrite\") | .workers[] |
		.reason == \"killed after a second signal\"] == [true, true]" \
		r2.jsonl &&
	sha256sum -c --quiet sums &&
	test "$(ls other2 | wc -l)" -eq 2 &&
	# the workers files were removed in their own (moved) directories
	test -d wd2/moved0 && test -d wd2/moved1 &&
	! compgen -G "wd2/moved*/Bonnie.*"
'

# swap_link LINK TARGET: point LINK at TARGET in one rename, as a user
# switching a "current" link does
swap_link () {
	ln -sfn "$2" "$1.new" && mv -T "$1.new" "$1"
}

test_expect_success 'run -d LINK, the link swapped mid-run: nothing left in either directory' '
	mkdir -p ra rb && ln -s ra rlink &&
	hold_start rswap -d rlink -s 8M -f -n 1 -q -m rswap &&
	hold_before Rewrite &&
	test -d ra/clyde.* &&
	swap_link rlink rb &&
	hold_go && hold_wait &&
	test "$hold_status" -eq 0 &&
	test -z "$(ls -A ra)$(ls -A rb)"
'

# matrix and zones open their outputs after making their files: a --json
# FIFO holds them there (its open waits for a reader) while the link is
# swapped; reading it lets them run on
test_expect_success 'matrix -d LINK, the link swapped mid-run: nothing left in either directory' '
	mkdir -p ma mb && ln -s ma mlink && mkfifo m.fifo &&
	"$CLYDE" matrix -d mlink --buffered --size 8M --bs 4k --threads 2 \
		--time 0.1 --ramp 0 -q --json m.fifo 2>m.err &
	pid=$! &&
	test_cleanup "kill $pid 2>/dev/null || :" &&
	wait_for_file "ma/clyde-matrix.*/matrix.1" &&
	swap_link mlink mb &&
	cat m.fifo >m.jsonl &&
	wait $pid &&
	test -s m.jsonl &&
	test -z "$(ls -A ma)$(ls -A mb)"
'

test_expect_success 'zones -d LINK, the link swapped mid-run: nothing left in either directory' '
	mkdir -p za zb && ln -s za zlink && mkfifo z.fifo &&
	"$CLYDE" zones -d zlink --size 8M --engine psync --passes 1 -q \
		--json z.fifo 2>z.err &
	pid=$! &&
	test_cleanup "kill $pid 2>/dev/null || :" &&
	wait_for_file "za/clyde-zones.*" &&
	swap_link zlink zb &&
	cat z.fifo >z.jsonl &&
	wait $pid &&
	test -s z.jsonl &&
	test -z "$(ls -A za)$(ls -A zb)"
'

test_done
