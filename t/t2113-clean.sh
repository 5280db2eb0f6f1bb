#!/bin/bash
# Issue 24.2: what a killed clyde leaves is found again.  Each directory
# clyde makes in a -d holds a marker (pid, host, boot, start, command); a
# later run in the same place warns of those whose process is gone, one
# line each with the path, and `clyde clean DIR` removes them, and only
# them: a look-alike directory without the marker stays.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-hold.sh"

# killed_matrix DIR: a clyde matrix in DIR, held where it has made its
# files (its --json FIFO's open waits for a reader), killed with SIGKILL
killed_matrix () {
	rm -f "$1.fifo" && mkfifo "$1.fifo" &&
	{ "$CLYDE" matrix -d "$1" --buffered --size 4M --bs 4k --threads 1 \
		--time 0.1 --ramp 0 -q --json "$1.fifo" 2>/dev/null & } &&
	kpid=$! &&
	wait_for_file "$1/clyde-matrix.*/matrix.0" &&
	kill -KILL $kpid && { wait $kpid; test $? -eq 137; }
}

test_expect_success 'a killed matrix leaves its marked directory' '
	mkdir d &&
	killed_matrix d &&
	left=$(echo d/clyde-matrix.*) &&
	test -d "$left" &&
	grep -q "^pid $kpid$" "$left/.clyde-owner" &&
	grep -q "^clyde matrix$" "$left/.clyde-owner"
'

test_expect_success 'a killed run (held before a test by -y p) leaves its own' '
	hold_start killed -d d -s 8M -f -n 0 -q &&
	hold_before Rewrite &&
	kill -KILL $hold_pid && hold_wait &&
	test "$hold_status" -eq 137 &&
	test -d d/clyde.* &&
	grep -q "^pid $hold_pid$" d/clyde.*/.clyde-owner
'

test_expect_success 'a later run there warns of each, one line with its path' '
	mkdir d/clyde-matrix.fake00 &&
	"$CLYDE" matrix -d d --buffered --size 4M --bs 4k --threads 1 \
		--pattern seq --mix 100 --time 0.1 --ramp 0 -q 2>err &&
	grep "warning: .d/clyde" err >warn &&
	test_line_count = 2 warn &&
	grep -q "^clyde: warning: .$left. is left by clyde matrix (pid $kpid, started .*), which no longer runs: clyde clean .d. removes it$" warn &&
	grep -q "^clyde: warning: .d/clyde\.[A-Za-z0-9]*. is left by clyde run " warn &&
	"$CLYDE" -d d -s 0 -n 1 -q >/dev/null 2>err &&
	test "$(grep -c "warning: .d/clyde.* is left by" err)" -eq 2
'

test_expect_success 'clyde clean --dry-run says, removes nothing' '
	"$CLYDE" clean --dry-run d >out &&
	grep -q "^would remove .$left. (clyde matrix, pid $kpid, started " out &&
	test -d "$left"
'

test_expect_success 'clyde clean removes them, and leaves the look-alike alone' '
	"$CLYDE" clean d >out &&
	grep -q "^removed .$left. (clyde matrix, pid $kpid, started " out &&
	grep -q "^removed .d/clyde\.[A-Za-z0-9]*. (clyde run, " out &&
	test "$(ls -A d)" = clyde-matrix.fake00 &&
	"$CLYDE" clean d >out &&
	grep -q "^nothing of clyde.s to remove in .d.$" out
'

test_expect_success 'a directory of a clyde still running is kept' '
	mkdir e && mkfifo e.fifo &&
	{ "$CLYDE" matrix -d e --buffered --size 4M --bs 4k --threads 1 \
		--time 0.1 --ramp 0 -q --json e.fifo 2>/dev/null & } &&
	lpid=$! &&
	test_cleanup "kill -KILL $lpid 2>/dev/null || :" &&
	wait_for_file "e/clyde-matrix.*/matrix.0" &&
	"$CLYDE" clean e >out &&
	grep -q "^kept .e/clyde-matrix\..*.: clyde matrix, pid $lpid, still runs$" out &&
	test -d e/clyde-matrix.* &&
	cat e.fifo >/dev/null && wait $lpid &&
	test -z "$(ls -A e)"
'

# bad_clean WHAT args...: exit 2, one line "clyde: clean: ..." matching
# WHAT, nothing on stdout
bad_clean () {
	local what=$1
	shift
	test_expect_code 2 "$CLYDE" clean "$@" >out 2>err &&
	test_line_count = 1 err && test_line_count = 0 out &&
	grep -q "^clyde: clean: " err && grep -q -e "$what" err
}

test_expect_success 'clean: bad input is exit 2 with one line, nothing removed' '
	mkdir -p f && cp -r d/clyde-matrix.fake00 f/ &&
	bad_clean "no directory given" &&
	bad_clean "nope.: No such file or directory" nope &&
	bad_clean "empty directory name" "" &&
	echo x >file && bad_clean "file. is not a directory" file &&
	bad_clean "option -x is unknown" -x d &&
	bad_clean "nope" d nope &&
	test -d d/clyde-matrix.fake00
'

test_expect_success 'clean: --help, --version, and clyde --help names it' '
	"$CLYDE" clean --help >out &&
	grep -q "^usage: clyde clean \[--dry-run\] DIR" out &&
	grep -q -- "--dry-run" out &&
	"$CLYDE" clean --version | grep -q "^clyde " &&
	"$CLYDE" --help | grep -q "^  clean "
'

test_done
