#!/bin/bash
# Issue 24.2: clyde run's pre-checks (is it a directory, the filesystem's
# free space and detection, write access, free inodes, the --direct probe,
# the leftovers of a killed run) and the run's own directory go through
# one descriptor of the -d, opened once (bench/rundir.c): a symlink -d
# swapped meanwhile cannot send the checks to one directory and the run to
# another.  Seen by strace: the -d's name is in one system call, its open.
. "$(dirname "$0")/lib.sh"

test_lazy_prereq STRACE 'command -v strace && strace -f -o /dev/null true'

# calls LOG NAME: the system calls in strace's LOG that name the path NAME
calls () {
	grep -v "execve(" "$1" | grep -F "\"$2\"" || :
}

test_expect_success STRACE 'the -d is opened once; the checks and the run go by that' '
	mkdir target &&
	ln -s target link &&
	# LeakSanitizer cannot run under ptrace (make test SANITIZE=1)
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	strace -f -o st.log "$CLYDE" -d link -s 0 -n 2 -q >/dev/null 2>err &&
	calls st.log link >named &&
	test_line_count = 1 named &&
	grep -q "O_PATH" named &&
	test -z "$(ls -A target)"
'

test_expect_success STRACE 'the same with --direct and a leftover to warn of' '
	mkdir -p target/clyde.fake00 &&
	printf "clyde run\\npid 1\\npstart 1\\nhost %s\\nboot no\\nstart x\\n" \
		"$(hostname)" >target/clyde.fake00/.clyde-owner &&
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	strace -f -o st2.log "$CLYDE" -d link -s 8M -n 0 -f -q --direct \
		>/dev/null 2>err &&
	grep -q "^clyde: warning: .link/clyde.fake00. is left by clyde run" err &&
	calls st2.log link >named &&
	test_line_count = 1 named &&
	test "$(ls -A target)" = clyde.fake00
'

test_expect_success 'a -d that is not a directory, or missing: one line, exit 2' '
	echo x >file &&
	test_expect_code 2 "$CLYDE" -d file -s 0 -n 1 -q 2>err &&
	test_line_count = 1 err &&
	grep -q "^clyde: -d: .file. is not a directory$" err &&
	test_expect_code 2 "$CLYDE" -d nope -s 0 -n 1 -q 2>err &&
	grep -q "^clyde: -d: .nope.: No such file or directory$" err
'

test_done
