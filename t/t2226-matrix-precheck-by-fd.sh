#!/bin/bash
# Issue 24.2: clyde matrix's pre-checks of a directory -d (what it is,
# the filesystem's detection and free space, write access, the leftovers
# of a killed run) and its own clyde-matrix.* go through one descriptor
# of the -d, opened once (bench/rundir.c), as clyde run's do (t2116): a
# symlink -d swapped meanwhile cannot split them between two
# directories.  Seen by strace: the -d's name is in one system call.
. "$(dirname "$0")/lib.sh"

test_lazy_prereq STRACE 'command -v strace && strace -f -o /dev/null true'

# calls LOG NAME: the system calls in strace's LOG that name NAME, as
# given or at the end of a longer path (realpath's readlink)
calls () {
	grep -v "execve(" "$1" | grep -E "[\"/]$2\"" || :
}

M="--buffered --size 1M --bs 4k --threads 1 --pattern seq --mix 0
   --time 0.05 --ramp 0 -q"

test_expect_success STRACE 'the -d is opened once; the checks and the run go by that' '
	mkdir target &&
	ln -s target link &&
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	strace -f -o st.log "$CLYDE" matrix -d link $M >/dev/null 2>err &&
	calls st.log link >named &&
	test_line_count = 1 named &&
	grep -q "O_PATH" named &&
	test -z "$(ls -A target)"
'

test_expect_success STRACE 'the same with a leftover to warn of' '
	mkdir -p target/clyde-matrix.fake00 &&
	printf "clyde matrix\\npid 1\\npstart 1\\nhost %s\\nboot no\\nstart x\\n" \
		"$(hostname)" >target/clyde-matrix.fake00/.clyde-owner &&
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	strace -f -o st2.log "$CLYDE" matrix -d link $M >/dev/null 2>err &&
	grep -q "^clyde: warning: .link/clyde-matrix.fake00. is left by clyde matrix" err &&
	calls st2.log link >named &&
	test_line_count = 1 named &&
	test "$(ls -A target)" = clyde-matrix.fake00
'

test_expect_success 'a -d missing, or a file without --overwrite: one line, exit 2' '
	test_expect_code 2 "$CLYDE" matrix -d nope $M 2>err &&
	test_line_count = 1 err &&
	grep -q "^clyde: -d: .nope.: No such file or directory$" err &&
	echo x >file &&
	test_expect_code 2 "$CLYDE" matrix -d file $M 2>err &&
	test_line_count = 1 err &&
	grep -q "^clyde: -d: .file. is an existing file; --overwrite" err
'

test_done
