#!/bin/bash
# EIO mid-run (issue 13.9): when clyde cannot remove its own files after an
# I/O error, it says what was left where instead of staying silent.  The
# filesystem is an xfs on a loop device, shut down under clyde with
# `xfs_io -x -c shutdown` (from then on every operation on it fails with
# EIO, unlink too).
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-loop.sh"
. "$TEST_DIR/lib-hold.sh"

test_lazy_prereq XFS_IO 'command -v xfs_io'

# clyde cannot end before the shutdown, however fast the machine: it runs
# with -y p (t/lib-hold.sh), only the block write is started, and clyde is
# stopped (SIGSTOP) from when its file is there until the filesystem is
# shut down.  The EIO comes in the block write or, if it was done by
# then, in the rewrite.  (Not held by fsfreeze: a shut-down xfs cannot be
# opened to be thawed.)
test_expect_success LOOP,XFS,XFS_IO,JQ 'EIO in block write, cleanup fails: exit 1, what is left where' '
	loop_fs xfs 320 mnt &&
	# a shut-down xfs fails mountpoint(1)'"'"'s stat: unmount it by name
	test_cleanup "! grep -q \" $mnt \" /proc/self/mounts || umount \"$mnt\"" &&
	hold_start eio -d "$mnt" -s 160M -f -n 0 -q -m eio --json r.jsonl &&
	hold_before "Block write" &&
	hold_release &&
	wait_for_file "$mnt/clyde.*/Bonnie.*" &&
	hold_stop $hold_pid &&
	dir=$(echo "$mnt"/clyde.*) &&
	xfs_io -x -c shutdown "$mnt" &&
	hold_cont $hold_pid &&
	hold_go && hold_wait &&
	cat eio.err &&
	test "$hold_status" -eq 1 &&
	grep -q "Input/output error" eio.err &&
	grep -q "^clyde: cannot remove .$dir[^ ]*.: Input/output error; [0-9]* entr[a-z]* of clyde.s left in .$dir.$" eio.err &&
	jq -e ".exit_status == 1" r.jsonl
'

test_done
