#!/bin/bash
# Issue 13.6: the classic tests open their file relative to the run
# directory's descriptor, never by path.  Swapping the run directory for a
# symlink to another directory mid-run, where a file of the same name
# waits, must leave that file alone: not truncated, not overwritten, not
# deleted.  With workers (-c 2) the same holds for the second signal's
# hurried cleanup, in which the parent unlinks the workers' files.
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

# wait_for_count N GLOB: up to 20 s for N files matching GLOB
wait_for_count () {
	local i f
	for i in $(seq 200); do
		f=$(compgen -G "$2" | wc -l)
		test "$f" -ge "$1" && return 0
		sleep 0.1
	done
	echo "$f of $1 $2 appeared" >&2
	return 1
}

test_expect_success JQ 'two workers (-c 2), two signals: the files behind the swapped directories are untouched' '
	mkdir -p wd2 other2 &&
	{ "$CLYDE" -d wd2 -c 2 -s 8M -f4 -n 0 -q -m swap2 \
		--json r2.jsonl >out2.csv 2>err2 & pid=$!; } &&
	wait_for_count 2 "wd2/clyde.*/Bonnie.*" &&
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
	# two signals at once (held while clyde is stopped; two of one kind
	# would merge): the second unlinks the files of the workers, which
	# are still writing, and kills them
	kill -STOP $pid && kill -INT $pid && kill -TERM $pid &&
	kill -CONT $pid &&
	{ wait $pid; status=$?; } ;
	# 128 + whichever of the two was handled first
	{ test "$status" -eq 130 || test "$status" -eq 143; } &&
	jq -e "all(.results[0].workers[];
		.reason == \"killed after a second signal\")" r2.jsonl &&
	sha256sum -c --quiet sums &&
	test "$(ls other2 | wc -l)" -eq 2 &&
	# the workers files were removed in their own (moved) directories
	test -d wd2/moved0 && test -d wd2/moved1 &&
	! compgen -G "wd2/moved*/Bonnie.*"
'

test_done
