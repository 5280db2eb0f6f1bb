#!/bin/bash
# The file tests' inodes are checked up front like their bytes: -n on a
# filesystem with too few free inodes is refused before anything is
# created (findings F17), not failed midway with ENOSPC.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-loop.sh"

test_expect_success ROOT,LOOP 'too few free inodes for -n: exit 2 naming -n' '
	loop_fs ext4 16 fs -N 512 &&
	free=$(stat -f -c %d "$fs") &&
	test "$free" -lt 1024 &&
	before=$(ls -A "$fs") &&
	test_expect_code 2 "$CLYDE" -d "$fs" -s 0 -n 1 --json r.json \
		>out 2>err &&
	test_line_count = 1 err &&
	grep -q "^clyde: -n: the file tests need 1028 inodes but .$fs. has only $free free" err &&
	test_path_is_missing r.json &&
	test "$(ls -A "$fs")" = "$before" &&
	: hard links take one inode: -n 1:-1 fits and runs &&
	"$CLYDE" -d "$fs" -s 0 -n 1:-1 -q >out 2>err
'

test_done
