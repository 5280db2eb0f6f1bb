#!/bin/bash
# scripts/mkloopfs: makes loop-backed layouts doing direct I/O, mounts them,
# and removes exactly what it made.
. "$(dirname "$0")/lib.sh"

MK=$SRC_DIR/scripts/mkloopfs
export TMPDIR=$TRASH

# layout_roundtrip SPEC SIZE FSTYPE NDEV: make, check, remove, check gone
layout_roundtrip () {
	local spec=$1 size=$2 fstype=$3 ndev=$4 m=$TRASH/clyde-mnt-$RANDOM devs d
	test_cleanup "\"$MK\" --remove \"$m\" >/dev/null 2>&1 || true"
	"$MK" -s "$size" -d "$TRASH/img" "$spec" "$m" >out &&
	test "$(findmnt -n -o FSTYPE "$m")" = "$fstype" &&
	devs=$(sed 's/^.*: //' out) &&
	test "$(echo $devs | wc -w)" -eq "$ndev" &&
	for d in $devs; do
		test "$(losetup -n -O DIO "$d" | tr -d " ")" = 1 || return 1
	done &&
	"$MK" --remove "$m" &&
	! mountpoint -q "$m" && test_path_is_missing "$m" &&
	for d in $devs; do
		! losetup -n -O BACK-FILE "$d" 2>/dev/null | grep -q "$TRASH/img" || return 1
	done &&
	test -z "$(ls -A "$TRASH/img" 2>/dev/null)"
}

test_expect_success LOOP,EXT3 'ext3 is made, mounted with direct I/O loops, and removed' '
	layout_roundtrip ext3 64M ext3 1
'
test_expect_success LOOP,XFS 'xfs is made and removed' '
	layout_roundtrip xfs 300M xfs 1
'
test_expect_success LOOP,BTRFS 'btrfs raid10 over four devices is made and removed' '
	layout_roundtrip btrfs:raid10 128M btrfs 4 &&
	true
'
test_expect_success LOOP,BTRFS 'btrfs raid1 really is raid1' '
	m=$TRASH/clyde-r1 &&
	test_cleanup "\"$MK\" --remove \"$m\" >/dev/null 2>&1 || true" &&
	"$MK" -s 128M -d "$TRASH/img" btrfs:raid1 "$m" >/dev/null &&
	btrfs filesystem df "$m" | grep -q "^Data, RAID1" &&
	"$MK" --remove "$m" >/dev/null
'
test_expect_success ROOT 'refuses to remove a mount it did not make' '
	mkdir other &&
	mount -t tmpfs -o size=1m clyde-other other &&
	test_cleanup "umount \"$TRASH/other\"" &&
	test_expect_code 2 "$MK" --remove "$TRASH/other" 2>err &&
	grep -q "was not made by mkloopfs" err &&
	mountpoint -q other
'
test_expect_success ROOT 'bad input is refused with exit 2' '
	test_expect_code 2 "$MK" ntfs "$TRASH/x" 2>err && grep -q "unknown filesystem type" err &&
	test_expect_code 2 "$MK" ext4:raid1 "$TRASH/x" 2>err && grep -q "btrfs only" err &&
	test_expect_code 2 "$MK" -s 100M xfs "$TRASH/x" 2>err && grep -q "300M" err &&
	test_path_is_missing "$TRASH/x"
'
test_expect_success ROOT 'a filesystem the kernel lacks is a clear skip (exit 3)' '
	if grep -qw jfs /proc/filesystems || modprobe -n -q jfs 2>/dev/null; then
		echo "this kernel has jfs: nothing to check"
	else
		test_expect_code 3 "$MK" jfs "$TRASH/j" 2>err &&
		grep -q "cannot mount jfs" err && test_path_is_missing "$TRASH/j"
	fi
'
test_done
