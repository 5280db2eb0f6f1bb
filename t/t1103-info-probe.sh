#!/bin/bash
# clyde info --probe: libblkid names the filesystem on an image file
# without mounting it: jfs and reiserfs (made with mkfs.jfs and
# mkreiserfs), and xfs, ext2/3/4 and btrfs; with uuid and label.

. "$(dirname "$0")/lib.sh"

test_lazy_prereq JFSUTILS 'command -v mkfs.jfs'
test_lazy_prereq REISERFSPROGS 'command -v mkreiserfs'
test_lazy_prereq MKFS_XFS 'command -v mkfs.xfs'
test_lazy_prereq MKFS_BTRFS 'command -v mkfs.btrfs'
test_lazy_prereq MKFS_EXT4 'command -v mkfs.ext4'

# probe IMG TYPE LABEL: text and JSON name TYPE and LABEL, and the UUID
# that blkid(8) reads.
probe () {
	local uuid
	"$CLYDE" info --probe "$1" >probe.txt &&
	grep "^$1: type=$2 " probe.txt &&
	grep " label=$3\( \|\$\)" probe.txt &&
	"$CLYDE" info --probe --json "$1" >probe.json &&
	test "$(jq -r .type probe.json)" = "$2" &&
	test "$(jq -r .label probe.json)" = "$3" &&
	uuid=$(blkid -p -o value -s UUID "$1") &&
	test "$(jq -r .uuid probe.json)" = "$uuid"
}

test_expect_success JFSUTILS,JQ 'jfs image' '
	truncate -s 64M jfs.img &&
	mkfs.jfs -q -L clydejfs jfs.img >/dev/null &&
	probe "$TRASH/jfs.img" jfs clydejfs
'

test_expect_success REISERFSPROGS,JQ 'reiserfs image' '
	truncate -s 64M reiser.img &&
	mkreiserfs -q -f -l clydereiser reiser.img >/dev/null 2>&1 &&
	probe "$TRASH/reiser.img" reiserfs clydereiser &&
	grep " block_size=4096" probe.txt
'

test_expect_success MKFS_XFS,JQ 'xfs image' '
	truncate -s 320M xfs.img &&
	mkfs.xfs -q -f -L clydexfs xfs.img &&
	probe "$TRASH/xfs.img" xfs clydexfs
'

test_expect_success MKFS_EXT4,JQ 'ext2, ext3 and ext4 images' '
	for t in ext2 ext3 ext4; do
		truncate -s 16M $t.img &&
		mkfs.$t -q -F -L clyde$t $t.img &&
		probe "$TRASH/$t.img" $t clyde$t || return 1
	done
'

test_expect_success MKFS_BTRFS,JQ 'btrfs image' '
	truncate -s 128M btrfs.img &&
	mkfs.btrfs -q -f -L clydebtrfs btrfs.img >/dev/null &&
	probe "$TRASH/btrfs.img" btrfs clydebtrfs
'

test_expect_success 'an empty image: nothing found, exit 1' '
	truncate -s 1M empty.img &&
	test_expect_code 1 "$CLYDE" info --probe empty.img 2>err &&
	grep "no filesystem" err
'

# bad input is exit status 2 (issue 13 item 9), with one line
test_expect_success 'a missing image: one line with the reason, exit 2' '
	test_expect_code 2 "$CLYDE" info --probe nosuch.img 2>err &&
	test_line_count = 1 err && grep "nosuch.img.*No such file" err
'

test_done
