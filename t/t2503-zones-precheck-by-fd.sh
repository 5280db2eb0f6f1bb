#!/bin/bash
# Issue 24.2: clyde zones's pre-checks of a directory -d (what it is, its
# free space, the leftovers of a killed run), its own clyde-zones.* and
# what it reads of the file it made (detection, page-cache residency,
# holes) go through descriptors: the -d's, opened once (bench/rundir.c),
# and the file's, as clyde run's do (t2116).  Seen by strace: the -d's
# name is in one system call.
. "$(dirname "$0")/lib.sh"

test_lazy_prereq STRACE 'command -v strace && strace -f -o /dev/null true'

# calls LOG NAME: the system calls in strace's LOG that name NAME, as
# given or as a longer path's directory or end (realpath's readlink)
calls () {
	grep -v "execve(" "$1" | grep -E "[\"/]$2[\"/]" || :
}

Z="--size 4M --bs 64k --engine psync -q"

test_expect_success STRACE 'the -d is opened once; the checks and the run go by that' '
	mkdir target &&
	ln -s target link &&
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	strace -f -o st.log "$CLYDE" zones -d link $Z >/dev/null 2>err ||
	{ cat err; false; } &&
	calls st.log link >named &&
	test_line_count = 1 named &&
	grep -q "O_PATH" named &&
	test -z "$(ls -A target)"
'

test_expect_success STRACE 'the same with a leftover to warn of' '
	mkdir -p target/clyde-zones.fake00 &&
	printf "clyde zones\\npid 1\\npstart 1\\nhost %s\\nboot no\\nstart x\\n" \
		"$(hostname)" >target/clyde-zones.fake00/.clyde-owner &&
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	strace -f -o st2.log "$CLYDE" zones -d link $Z >/dev/null 2>err &&
	grep -q "^clyde: warning: .link/clyde-zones.fake00. is left by clyde zones" err &&
	calls st2.log link >named &&
	test_line_count = 1 named &&
	test "$(ls -A target)" = clyde-zones.fake00
'

test_expect_success 'a -d file that does not exist is made in its directory, by it' '
	mkdir d2 &&
	ln -s d2 link2 &&
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	strace -f -o st3.log "$CLYDE" zones -d link2/new $Z >/dev/null 2>err &&
	# found missing (its open as a directory, its stat), then its
	# directory opened once
	calls st3.log link2 | grep -v "\"link2/new\".*= -1 ENOENT" >named &&
	test_line_count = 1 named &&
	grep -q "O_PATH" named &&
	test -z "$(ls -A d2)"
'

test_done
