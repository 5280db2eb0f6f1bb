#!/bin/bash
# clyde info on real loop-mounted filesystems: ext3, ext4, xfs with su/sw,
# btrfs single, raid0, raid1 and raid10 over several loop devices; tmpfs
# and overlay.  Each checks the fields a user reads: fs type, source,
# geometry, and the device stack down to each loop's backing file.

. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-loop.sh"

# info PATH: the JSON record of `clyde info --json PATH` into info.json.
info () {
	"$CLYDE" info --json "$1" >info.json &&
	jq -e . info.json >/dev/null
}

# jq_is FILTER VALUE: the filter on info.json prints VALUE.
jq_is () {
	local got
	got=$(jq -r "$1" info.json) || return 1
	if [ "$got" != "$2" ]; then
		echo "$1: '$got', expected '$2'" >&2
		return 1
	fi
}

# check_loops "DEVS": the stack holds exactly these loop devices, each with
# its backing file, direct I/O on, and a "file" device under it naming that
# backing file.
check_loops () {
	local want got d name back
	want=$(for d in $1; do basename "$d"; done | sort | tr '\n' ' ')
	got=$(jq -r '.target.stack[] | select(.kind == "loop") | .name' \
		info.json | sort | tr '\n' ' ')
	if [ "$want" != "$got" ]; then
		echo "loops: '$got', expected '$want'" >&2
		return 1
	fi
	for d in $1; do
		name=$(basename "$d")
		back=$(losetup -n -O BACK-FILE "$d") &&
		jq_is ".target.stack[] | select(.name == \"$name\") |
			.backing_file" "$back" &&
		jq_is ".target.stack[] | select(.name == \"$name\") | .dio" 1 &&
		jq_is "[.target.stack as \$s | \$s | to_entries[] |
			select(.value.kind == \"file\" and
			\$s[.value.parent].name == \"$name\") |
			.value.name] | first" "$back" || return 1
	done
}

test_expect_success ROOT,LOOP,EXT4,JQ 'ext4: type, source, stride, journal, loop' '
	loop_fs ext4 64 mnt -E stride=16,stripe_width=64 &&
	info "$mnt" &&
	jq_is .target.fstype ext4 &&
	jq_is .target.mountpoint "$mnt" &&
	jq_is .target.source "$mnt_dev" &&
	jq_is .target.fs.stride 16 &&
	jq_is .target.fs.stripe_width 64 &&
	jq_is .target.fs.has_journal 1 &&
	jq_is .target.fs.journal_mode ordered &&
	jq_is ".target.fs.inodes > 0" true &&
	jq_is ".target.stack[0].kind" loop &&
	jq_is ".target.stack[0].parent" -1 &&
	check_loops "$mnt_dev" &&
	jq_is ".host.virt.evidence != null" true
'

test_expect_success ROOT,LOOP,EXT3,JQ 'ext3: type, journal, loop' '
	loop_fs ext3 64 mnt3 &&
	info "$mnt3" &&
	jq_is .target.fstype ext3 &&
	jq_is .target.fs.has_journal 1 &&
	jq_is .target.fs.extents 0 &&
	jq_is .target.fs.stride 0 &&
	check_loops "$mnt3_dev" &&
	"$CLYDE" info "$mnt3" >info.txt &&
	grep "^mount: *$mnt3 type ext3 from $mnt3_dev\$" info.txt &&
	grep "journal_mode=ordered" info.txt &&
	grep "^  loop $(basename "$mnt3_dev") .*backing_file=$mnt3_img" info.txt
'

test_expect_success ROOT,LOOP,XFS,JQ 'xfs: su=64k,sw=4 as sunit/swidth' '
	loop_fs xfs 320 xmnt -d su=64k,sw=4 -d agcount=4 &&
	info "$xmnt" &&
	jq_is .target.fstype xfs &&
	jq_is .target.fs.sunit 65536 &&
	jq_is .target.fs.swidth 262144 &&
	jq_is .target.fs.agcount 4 &&
	jq_is .target.fs.block_size 4096 &&
	check_loops "$xmnt_dev" &&
	"$CLYDE" info "$xmnt" >info.txt &&
	grep "^fs: .* sunit=65536 swidth=262144" info.txt
'

# btrfs_check PROFILE NDEV
btrfs_check () {
	local m=bt_$1
	btrfs_raid_fs "$1" "$2" 128 "$m" &&
	info "${!m}" &&
	jq_is .target.fstype btrfs &&
	jq_is .target.fs.data_profile "$1" &&
	jq_is .target.fs.metadata_profile "$1" &&
	jq_is .target.fs.num_devices "$2" &&
	jq_is ".target.stack[0].kind" btrfs &&
	jq_is ".target.stack[0].data_profile" "$1" &&
	jq_is ".target.stack[0].name" "$(findmnt -n -o UUID --mountpoint "${!m}")" &&
	jq_is "[.target.stack[] | select(.kind == \"loop\") | .parent] |
		unique | join(\",\")" 0 &&
	eval "check_loops \"\$${m}_dev\""
}

test_expect_success ROOT,LOOP,BTRFS,JQ 'btrfs single: profile, device' '
	loop_fs btrfs 128 bmnt &&
	info "$bmnt" &&
	jq_is .target.fs.data_profile single &&
	jq_is .target.fs.num_devices 1 &&
	check_loops "$bmnt_dev"
'
test_expect_success ROOT,LOOP,BTRFS,JQ 'btrfs raid0 over 2 loops' '
	btrfs_check raid0 2
'
test_expect_success ROOT,LOOP,BTRFS,JQ 'btrfs raid1 over 2 loops' '
	btrfs_check raid1 2
'
test_expect_success ROOT,LOOP,BTRFS,JQ 'btrfs raid10 over 4 loops' '
	btrfs_check raid10 4
'

test_expect_success TMPFS,JQ 'tmpfs: no block device, no warning' '
	mkdir tm &&
	mount -t tmpfs -o size=4m,mode=0700 clyde-t1102 tm &&
	test_cleanup "umount \"$TRASH/tm\"" &&
	info tm &&
	jq_is .target.fstype tmpfs &&
	jq_is .target.source clyde-t1102 &&
	jq_is ".target.vfs_options | test(\"rw\")" true &&
	jq_is ".target.fs_options | test(\"size=4096k\")" true &&
	jq_is ".target.stack | length" 0 &&
	jq_is ".warnings | length" 0 &&
	"$CLYDE" info tm | grep "^stack: *no block device"
'

test_expect_success ROOT,JQ 'overlay: directories and the upper fs device' '
	mkdir -p ov/lower ov/upper ov/work ov/merged &&
	mount -t overlay clyde-ov -o lowerdir="$TRASH/ov/lower",upperdir="$TRASH/ov/upper",workdir="$TRASH/ov/work" ov/merged &&
	test_cleanup "umount \"$TRASH/ov/merged\"" &&
	info ov/merged &&
	jq_is .target.fstype overlay &&
	jq_is ".target.stack[0].kind" overlay &&
	jq_is ".target.stack[0].upperdir" "$TRASH/ov/upper" &&
	jq_is ".target.stack[0].lowerdir" "$TRASH/ov/lower" &&
	# st_dev of the upper dir (findmnt -T finds no mount in a chroot
	# whose root is not a mount point)
	majmin=$(stat -c %Hd:%Ld "$TRASH/ov/upper") &&
	if [ -e "/sys/dev/block/$majmin" ]; then
		jq_is ".target.stack[1].dev" "$majmin" &&
		jq_is ".target.stack[1].parent" 0
	fi
'

# bad input is exit status 2 (issue 13 item 9), with one line
test_expect_success 'a path that does not exist: one line, exit 2' '
	test_expect_code 2 "$CLYDE" info /nonexistent/clyde 2>err &&
	test_line_count = 1 err && grep "nonexistent" err
'

test_expect_success 'no path: usage error, exit 2' '
	test_expect_code 2 "$CLYDE" info 2>err &&
	grep "no path" err
'

test_done
