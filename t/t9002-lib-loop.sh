#!/bin/bash
# t/lib-loop.sh: loop_fs and btrfs_raid_fs mount what they say, with direct
# I/O on the loop device, and leave nothing behind when the script that
# used them passes, fails or is killed.
#
# Each case runs a small test script of its own (using t/lib.sh and
# t/lib-loop.sh, with TMPDIR inside our $TRASH); the inner script records
# what it saw while mounted in $OUT, and we check from outside, after it
# has exited, that the mount, the mount point, the loop devices and the
# images are gone.

. "$(dirname "$0")/lib.sh"

# write_inner DIR BODY: DIR/t5000-inner.sh runs one test with BODY, in
# which $OUT is DIR.
write_inner () {
	mkdir -p "$1/tmp" &&
	cat >"$1/t5000-inner.sh" <<-EOF &&
	#!/bin/bash
	. "$TEST_DIR/lib.sh"
	. "$TEST_DIR/lib-loop.sh"
	OUT='$1'
	test_expect_success 'inner' '$2'
	test_done
	EOF
	chmod +x "$1/t5000-inner.sh"
}

# What a body records once its filesystem is mounted on $mnt.
RECORD='
	echo "$mnt" >"$OUT/mnt" &&
	for d in $mnt_dev; do
		losetup -n -O BACK-FILE "$d" || return 1
	done >"$OUT/img" &&
	findmnt -n -o FSTYPE,SOURCE --mountpoint "$mnt" >"$OUT/findmnt" &&
	for d in $mnt_dev; do
		losetup --list -n -O NAME,DIO "$d" || return 1
	done >"$OUT/losetup"'

run_inner () {
	env -u HARNESS_IS_VERBOSE TMPDIR="$1/tmp" "$1/t5000-inner.sh" \
		>"$1/tap" 2>"$1/stderr"
}

# all_gone DIR: nothing the inner script set up is left.
all_gone () {
	local mnt img
	mnt=$(cat "$1/mnt") && test -n "$mnt" &&
	case $mnt in *clyde*) ;; *) echo "'$mnt' lacks clyde" >&2; false ;; esac &&
	if findmnt -n --mountpoint "$mnt" >&2; then
		echo "still mounted: $mnt" >&2
		return 1
	fi &&
	test_path_is_missing "$mnt" &&
	test -s "$1/img" &&
	while read -r img; do
		test_path_is_missing "$img" || return 1
		if losetup -l -n -O NAME,BACK-FILE | grep -F "$img" >&2; then
			echo "still attached: $img" >&2
			return 1
		fi
	done <"$1/img"
}

test_expect_success LOOP,EXT4 'loop_fs ext4: mounted on a loop device' '
	write_inner "$TRASH/ext4" "
		loop_fs ext4 64 mnt && $RECORD" &&
	run_inner "$TRASH/ext4" &&
	grep -qx "ok 1 - inner" ext4/tap &&
	grep -Eqx "ext4 +/dev/loop[0-9]+" ext4/findmnt
'

test_expect_success LOOP,EXT4 'loop_fs: the loop device does direct I/O' '
	grep -Eqx "/dev/loop[0-9]+ +1" ext4/losetup
'

test_expect_success LOOP,EXT4 'loop_fs: all gone after a passing script' '
	all_gone ext4 &&
	test_path_is_dir ext4/tmp &&
	test -z "$(ls -A ext4/tmp)"
'

test_expect_success LOOP,EXT4 'loop_fs: all gone after a failing test' '
	write_inner "$TRASH/fail" "
		loop_fs ext4 64 mnt && $RECORD && false" &&
	test_expect_code 1 run_inner "$TRASH/fail" &&
	grep -qx "not ok 1 - inner" fail/tap &&
	all_gone fail &&
	kept=$(sed -n "s/^# scratch directory kept: //p" fail/tap) &&
	test_path_is_dir "$kept"
'

test_expect_success LOOP,EXT4 'loop_fs: all gone after SIGTERM' '
	write_inner "$TRASH/term" "
		loop_fs ext4 64 mnt && $RECORD &&
		{ sleep 60 & echo \$! >\"\$OUT/sleep.pid\"; wait \$!; }" &&
	{
		env -u HARNESS_IS_VERBOSE TMPDIR="$TRASH/term/tmp" \
			term/t5000-inner.sh >term/tap 2>term/stderr &
	} &&
	pid=$! &&
	# up to 5 minutes for the inner test to make its filesystem (mkfs and
	# mount on a loaded machine)
	for i in $(seq 3000); do
		test -s term/sleep.pid && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done &&
	test -s term/sleep.pid &&
	kill -TERM "$pid" &&
	{ wait "$pid"; status=$?; } &&
	kill "$(cat term/sleep.pid)" &&
	test "$status" -eq 143 &&
	all_gone term
'

test_expect_success LOOP,XFS 'loop_fs xfs: mounted, direct I/O, then gone' '
	write_inner "$TRASH/xfs" "
		loop_fs xfs 300 mnt && $RECORD" &&
	run_inner "$TRASH/xfs" &&
	grep -Eqx "xfs +/dev/loop[0-9]+" xfs/findmnt &&
	grep -Eqx "/dev/loop[0-9]+ +1" xfs/losetup &&
	all_gone xfs
'

test_expect_success LOOP,XFS 'loop_fs xfs refuses a size mkfs.xfs cannot do' '
	write_inner "$TRASH/xfs-small" "loop_fs xfs 100 mnt" &&
	test_expect_code 1 run_inner "$TRASH/xfs-small" &&
	grep -q "xfs needs at least 300 MB" xfs-small/tap
'

test_expect_success LOOP,BTRFS 'btrfs_raid_fs raid1 over 2 devices' '
	write_inner "$TRASH/raid1" "
		btrfs_raid_fs raid1 2 128 mnt && $RECORD &&
		btrfs filesystem df \"\$mnt\" >\"\$OUT/df\"" &&
	run_inner "$TRASH/raid1" &&
	test_line_count = 2 raid1/img &&
	test_line_count = 2 raid1/losetup &&
	test -z "$(grep -Evx "/dev/loop[0-9]+ +1" raid1/losetup)" &&
	grep -Eqx "btrfs +/dev/loop[0-9]+" raid1/findmnt &&
	grep -q "^Data, RAID1:" raid1/df &&
	grep -q "^Metadata, RAID1:" raid1/df &&
	all_gone raid1
'

test_done
