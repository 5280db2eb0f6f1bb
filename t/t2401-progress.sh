#!/bin/bash
# Progress on a terminal: the test or cell running, its progress and the
# time left, redrawn in place on stderr; nothing in a pipe or with -q.
. "$(dirname "$0")/lib.sh"

test_lazy_prereq SCRIPT 'command -v script'
CR=$(printf '\r')
CLR=$(printf '\033[K')

# lines <PTY: the redrawn status lines, one a line, without the escapes
lines () { tr '\r' '\n' | sed 's/\x1b\[K//g'; }

# on_pty CMD: run CMD (a shell command line) with a pseudo-terminal as its
# standard streams; what it wrote to them goes to standard output
on_pty () {
	script -fqec "$1" /dev/null </dev/null
}

test_expect_success SCRIPT 'clyde run shows each test with progress under a pty' '
	mkdir d &&
	on_pty "\"$CLYDE\" -d d -s 8M -f1 -n 1 -m p >table" >pty &&
	grep -q "^Version\|^p " table &&
	lines <pty >lines &&
	grep -q "^clyde: Per-char write (1/12): .*%" lines &&
	grep -q "^clyde: Block write (2/12): .*%" lines &&
	grep -q "^clyde: Random seeks (6/12): " lines &&
	grep -q "^clyde: Random delete (12/12): .*%" lines &&
	grep -qF "$CR$CLR" pty &&
	# the line is cleared at the end: nothing after the last clear
	test "$(tail -c 4 pty | od -An -c | tr -d " ")" = "\\r033[K" &&
	test -z "$(ls -A d)"
'

test_expect_success 'nothing of it when stderr is a pipe or a file' '
	mkdir -p d &&
	"$CLYDE" -d d -s 8M -f1 -n 0 -m p 2>err | cat >table &&
	grep -q "^p " table &&
	test_must_fail grep -q "$CR" err &&
	test_must_fail grep -q "(2/12)" err
'

test_expect_success SCRIPT 'nothing of it with -q, even on a terminal' '
	mkdir -p d &&
	on_pty "\"$CLYDE\" -q -d d -s 8M -f1 -n 0 -m p >csv" >pty &&
	grep -q ",p," csv &&
	test_must_fail grep -q "(2/12)" pty &&
	test_must_fail grep -qF "$CLR" pty
'

test_expect_success SCRIPT 'clyde matrix shows the cell running and the time left' '
	mkdir -p d &&
	on_pty "\"$CLYDE\" matrix -d d --buffered --bs 64k --threads 1,2 --pattern seq \
		--mix 100 --size 4M --time 0.5 --ramp 0 >out" >pty &&
	lines <pty >lines &&
	grep -q "^clyde: bs 65536, 1 threads, seq, 100% read (1/2): .*left" lines &&
	grep -q "^clyde: bs 65536, 2 threads, seq, 100% read (2/2): " lines &&
	"$CLYDE" matrix -d d --buffered --bs 64k --threads 1 --pattern seq --mix 100 \
		--size 4M --time 0.2 --ramp 0 2>err >out &&
	test_must_fail grep -q "threads, seq" err
'
test_done
