#!/bin/bash
# EIO mid-run (issue 13.9): when clyde cannot remove its own files after an
# I/O error, it says what was left where instead of staying silent.  The
# filesystem is an xfs on a loop device, shut down under clyde with
# `xfs_io -x -c shutdown` (from then on every operation on it fails with
# EIO, unlink too).
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-loop.sh"

test_lazy_prereq XFS_IO 'command -v xfs_io'

test_expect_success LOOP,XFS,XFS_IO,JQ 'EIO in block write, cleanup fails: exit 1, what is left where' '
	loop_fs xfs 320 mnt &&
	# a shut-down xfs fails mountpoint(1)'"'"'s stat: unmount it by name
	test_cleanup "! grep -q \" $mnt \" /proc/self/mounts || umount \"$mnt\"" &&
	{ "$CLYDE" -d "$mnt" -s 160M -f -n 0 -q -m eio --json r.jsonl \
		>out 2>err & pid=$!; } &&
	wait_for_file "$mnt/clyde.*/Bonnie.*" &&
	dir=$(echo "$mnt"/clyde.*) &&
	xfs_io -x -c shutdown "$mnt" &&
	{ wait $pid; status=$?; } ;
	cat err &&
	test "$status" -eq 1 &&
	grep -q "Input/output error" err &&
	grep -q "^clyde: cannot remove .$dir[^ ]*.: Input/output error; [0-9]* entr[a-z]* of clyde.s left in .$dir.$" err &&
	jq -e ".exit_status == 1" r.jsonl
'

test_done
