#!/bin/bash
# clyde matrix -c N forks its workers while no other thread of the parent
# is alive: a child forked while the progress ticker runs may block for
# good in a lock the ticker held (under ASan, its allocator's), so the
# ticker is ended across the forks (progress_pause) and started again.
. "$(dirname "$0")/lib.sh"

test_lazy_prereq SCRIPT 'command -v script'
test_lazy_prereq STRACE 'strace -f -o /dev/null true'

# forks_alone TRACE: every fork of the traced parent (the first task of
# the trace) made while none of its threads was alive; the count of its
# forks and of its threads on stdout ("FORKS THREADS")
forks_alone () {
	awk '
	NR == 1 { parent = $1 }
	$1 == parent && /clone3?\(|<\.\.\. clone3? resumed>/ {
		if (/CLONE_THREAD/) {
			pending = 1
			if (/<unfinished/)
				next
		} else if (/<\.\.\. clone3? resumed>/ && pending) {
		} else if (!/<\.\.\. clone3? resumed>/) {
			forks++
			for (t in alive)
				if (alive[t]) {
					print "fork " forks " with thread " t " alive"
					bad = 1
				}
			next
		} else
			next
		if (pending && match($0, /= [0-9]+$/)) {
			alive[substr($0, RSTART + 2)] = 1
			threads++
			pending = 0
		}
	}
	/\+\+\+ exited with/ { alive[$1] = 0 }
	END { print forks + 0, threads + 0; exit bad }
	' "$1"
}

test_expect_success SCRIPT,STRACE 'the trace check sees a fork beside a live thread' '
	# (the trace of a fork while the ticker ran, as before progress_pause)
	cat >forged <<-\EOF &&
	100 clone3({flags=CLONE_VM|CLONE_FS|CLONE_THREAD, exit_signal=0}, 88) = 101
	100 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|SIGCHLD, child_tidptr=0x1) = 102
	101 +++ exited with 0 +++
	EOF
	test_must_fail forks_alone forged >out &&
	grep -q "^fork 1 with thread 101 alive" out
'

test_expect_success SCRIPT,STRACE 'matrix -c 2 on a terminal forks its workers with no thread alive' '
	mkdir d &&
	# LeakSanitizer cannot run under ptrace (make test SANITIZE=1)
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	script -qec "strace -f -q -o trace -e trace=clone,clone3,fork,vfork \
		\"$CLYDE\" matrix -d d -c 2 --buffered --bs 64k --threads 1 \
		--pattern seq --mix 100 --size 2M --time 0.3 --ramp 0 \
		--json r.jsonl >out" /dev/null </dev/null >pty &&
	# the ticker ran: the cell was shown on the terminal
	grep -q "clyde: bs 65536, 1 threads x 2 workers" pty &&
	forks_alone trace >counts &&
	read forks threads <counts &&
	test "$forks" -ge 2 && test "$threads" -ge 2 &&
	test_line_count = 1 r.jsonl &&
	test -z "$(ls -A d)"
'

test_done
