#!/bin/bash
# fsops/blockdev: a raw device is destroyed only when libblkid probed it and
# found nothing, or with --force.  xfs with an ext4 superblock copied over
# it is ambivalent to blkid (two signatures): refused, the device unchanged
# (issue 13 item 1); a zeroed device runs without --force; --force runs on
# the ambivalent one.
. "$(dirname "$0")/lib.sh"

test_lazy_prereq MKFS_EXT4 'command -v mkfs.ext4'

MATRIX="--size 32M --bs 4k --threads 1 --pattern random --mix 0 --time 0.3
	--ramp 0 -q"

test_expect_success ROOT,LOOP,XFS,MKFS_EXT4 'setup: xfs with an ext4 superblock over it' '
	truncate -s 320M dev.img &&
	dev=$(losetup --direct-io=on -f --show dev.img) &&
	test_cleanup "losetup -d $dev" &&
	mkfs.xfs -q "$dev" &&
	truncate -s 16M ext4.img &&
	mkfs.ext4 -q -F ext4.img &&
	dd if=ext4.img of="$dev" bs=1024 skip=1 seek=1 count=1 \
		conv=notrunc status=none &&
	sync &&
	{ blkid -p "$dev" >blkid.out 2>&1 || :; } &&
	grep -qi ambivalent blkid.out
'

test_expect_success ROOT,LOOP,XFS,MKFS_EXT4 'ambivalent signatures: refused, first MB unchanged' '
	before=$(head -c 1M "$dev" | sha256sum) &&
	test_expect_code 2 "$CLYDE" matrix -d "$dev" --raw-device $MATRIX \
		>out 2>err &&
	test_line_count = 1 err &&
	grep -q "conflicting signatures" err && grep -q -- --force err &&
	after=$(head -c 1M "$dev" | sha256sum) &&
	test "$before" = "$after"
'

test_expect_success ROOT,LOOP,XFS,MKFS_EXT4 'ambivalent signatures with --force: run' '
	"$CLYDE" matrix -d "$dev" --raw-device --force $MATRIX \
		>out 2>err &&
	after=$(head -c 1M "$dev" | sha256sum) &&
	test "$before" != "$after"
'

test_expect_success ROOT,LOOP 'a zeroed device: no signature, runs without --force' '
	truncate -s 64M zero.img &&
	zdev=$(losetup --direct-io=on -f --show zero.img) &&
	test_cleanup "losetup -d $zdev" &&
	"$CLYDE" matrix -d "$zdev" --raw-device $MATRIX >out 2>err &&
	test_must_fail test -s out
'
test_done
