#!/bin/bash
# fsops/devcheck: a raw device is written without --force only when it is
# blank or holds what clyde wrote.  A filesystem whose primary superblock
# is damaged (libblkid finds nothing) but whose copies are intact -- xfs
# secondary superblocks, a btrfs mirror, ext4 backups -- is refused with
# exit 2, one line naming the copy, the device unchanged; so is data that
# is not clyde's (issue 24, 1).  A blank device, one clyde wrote before
# (zones, matrix, matrix --verify) and --force are accepted.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-loop.sh"

test_lazy_prereq MKFS_BTRFS 'command -v mkfs.btrfs'
test_lazy_prereq MKFS_EXT4 'command -v mkfs.ext4'

MATRIX="--raw-device --bs 64k --threads 1 --pattern seq --mix 0 --time 0.3
	--ramp 0 -q"

# refused PATTERN CMD...: exit 2, one line on stderr matching PATTERN,
# nothing on stdout, $dev unchanged.
refused () {
	local pattern=$1 before after
	shift
	before=$(sha256sum <"$dev") &&
	test_expect_code 2 "$@" >out 2>err &&
	test_line_count = 1 err &&
	grep -q -- "$pattern" err &&
	grep -q -- "--force to destroy it" err &&
	test_must_fail test -s out &&
	after=$(sha256sum <"$dev") &&
	test "$before" = "$after"
}

test_expect_success ROOT,LOOP,XFS 'xfs with its first 4 KiB zeroed: matrix and zones refuse, naming a secondary superblock' '
	truncate -s 512M xfs.img &&
	mkfs.xfs -q -f xfs.img &&
	dd if=/dev/zero of=xfs.img bs=4k count=1 conv=notrunc status=none &&
	_loop_attach "$TRASH/xfs.img" dev &&
	test_must_fail blkid -p "$dev" &&
	refused "'\''$dev'\'' carries an xfs secondary superblock (AG 1 of 4) at 128 MiB" \
		"$CLYDE" matrix $MATRIX -d "$dev" &&
	refused "xfs secondary superblock" \
		"$CLYDE" zones --write -q --engine psync -d "$dev"
'

test_expect_success ROOT,LOOP,XFS '--force overwrites it' '
	"$CLYDE" matrix $MATRIX --size 8M --force -d "$dev" >out 2>err &&
	test_must_fail grep -q "^clyde:" err
'

test_expect_success ROOT,LOOP,MKFS_BTRFS 'btrfs with its superblock zeroed: the mirror at 64 MiB refuses' '
	truncate -s 200M btrfs.img &&
	mkfs.btrfs -q -f btrfs.img >/dev/null &&
	dd if=/dev/zero of=btrfs.img bs=4k seek=16 count=1 conv=notrunc \
		status=none &&
	_loop_attach "$TRASH/btrfs.img" dev &&
	test_must_fail blkid -p "$dev" &&
	refused "a btrfs superblock mirror at 64 MiB" \
		"$CLYDE" zones --write --size 8M -q -d "$dev"
'

test_expect_success ROOT,LOOP,MKFS_EXT4 'ext4 with its primary superblock zeroed: a backup refuses' '
	truncate -s 600M ext4.img &&
	mkfs.ext4 -q -F -b 4096 ext4.img &&
	dd if=/dev/zero of=ext4.img bs=1k seek=1 count=1 conv=notrunc \
		status=none &&
	_loop_attach "$TRASH/ext4.img" dev &&
	test_must_fail blkid -p "$dev" &&
	refused "an ext2/3/4 backup superblock (group 1) at 128 MiB" \
		"$CLYDE" matrix $MATRIX -d "$dev"
'

test_expect_success ROOT,LOOP 'data that is not clyde'\''s, past the first MiB: refused' '
	truncate -s 64M rand.img &&
	head -c 1M /dev/urandom |
		dd of=rand.img bs=1M seek=40 conv=notrunc status=none &&
	_loop_attach "$TRASH/rand.img" dev &&
	refused "data that is not clyde'\''s at 40 MiB" \
		"$CLYDE" zones --write --size 8M -q -d "$dev"
'

test_expect_success ROOT,LOOP 'blank, then what clyde wrote: accepted without --force' '
	truncate -s 96M blank.img &&
	_loop_attach "$TRASH/blank.img" dev &&
	"$CLYDE" zones --write -q --engine psync -d "$dev" >out 2>err &&
	"$CLYDE" matrix $MATRIX -d "$dev" >out 2>err &&
	"$CLYDE" matrix --raw-device --verify --bs 12k --threads 2 \
		--pattern random --mix 50 --time 0.2 --ramp 0 -q -d "$dev" \
		>out 2>err &&
	"$CLYDE" zones --write --size 8M -q --engine psync -d "$dev" \
		>out 2>err &&
	test_must_fail grep -q "^clyde:" err
'

test_done
