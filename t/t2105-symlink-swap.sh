#!/bin/bash
# Issue 13.6: the classic tests open their file relative to the run
# directory's descriptor, never by path.  Swapping the run directory for a
# symlink to another directory mid-run, where a file of the same name
# waits, must leave that file alone: not truncated, not overwritten, not
# deleted.
. "$(dirname "$0")/lib.sh"

# wait_for GLOB: up to 20 s for it to exist
wait_for () {
	local i
	for i in $(seq 200); do
		compgen -G "$1" >/dev/null && return 0
		sleep 0.1
	done
	echo "no $1 appeared" >&2
	return 1
}

test_expect_success 'run directory swapped for a symlink: the other directory is untouched' '
	mkdir -p wd other &&
	# per-char write of 4 MiB, one write(2) a byte: seconds to swap in
	{ "$CLYDE" -d wd -s 8M -f4 -n 0 -q -m swap >out.csv 2>err & pid=$!; } &&
	wait_for "wd/clyde.*/Bonnie.*" &&
	run=$(basename wd/clyde.*) && bonnie=$(basename wd/$run/Bonnie.*) &&
	head -c 1M /dev/urandom >"other/$bonnie" &&
	sum=$(sha256sum <"other/$bonnie") &&
	mv "wd/$run" "wd/moved" &&
	ln -s "$PWD/other" "wd/$run" &&
	{ wait $pid; status=$?; } ;
	test "$status" -eq 0 &&
	test -f "other/$bonnie" &&
	test "$(sha256sum <"other/$bonnie")" = "$sum" &&
	test "$(ls other)" = "$bonnie" &&
	# clyde worked on in its own directory, and removed its file there
	test -d wd/moved && ! compgen -G "wd/moved/Bonnie.*"
'

test_done
