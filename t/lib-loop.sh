# t/lib-loop.sh - filesystems on loop devices for clyde's shell tests.
#
# Source after t/lib.sh, and guard the tests with ROOT,LOOP and the
# filesystem's prerequisite (EXT4, XFS, BTRFS...):
#
#	. "$(dirname "$0")/lib.sh"
#	. "$TEST_DIR/lib-loop.sh"
#	test_expect_success LOOP,XFS 'xfs' '
#		loop_fs xfs 320 mnt &&
#		"$CLYDE" -d "$mnt" ...
#	'
#
# loop_fs TYPE SIZE_MB VAR [mkfs options...]
#	Makes a SIZE_MB sparse image under $TRASH, attaches it with
#	`losetup --direct-io=on` (so the page cache of the backing file does
#	not flatter the numbers; it fails if direct I/O cannot be set), makes
#	a TYPE filesystem on it (ext2, ext3, ext4, xfs, btrfs; the options go
#	to mkfs) and mounts it on a new directory ${TMPDIR:-/tmp}/clyde-mnt.*.
#	Sets VAR to the mount point, VAR_dev to the loop device and VAR_img
#	to the image.  Each step registers its undoing with test_cleanup as it
#	is done, so the unmount, the detach and the removal happen when the
#	script exits, whether the test passed, failed or was interrupted.
#	xfs needs SIZE_MB >= 300 (xfsprogs 6.x), btrfs >= 110.
#
# btrfs_raid_fs PROFILE NDEV SIZE_MB VAR [mkfs options...]
#	The same for a btrfs over NDEV loop devices of SIZE_MB each, with
#	data and metadata PROFILE (single, dup, raid0, raid1, raid10, raid5,
#	raid6...).  VAR_dev is the list of devices, space-separated.
#
# Both print what failed on stderr and return 1; call them in a test body
# (in the script's shell, not a subshell, so the cleanups are registered).

if ! declare -F test_cleanup >/dev/null; then
	echo "lib-loop.sh: source t/lib.sh first" >&2
	exit 1
fi

# _loop_attach IMG VAR: attach IMG with direct I/O, VAR := the device.
_loop_attach () {
	local _la_img=$1 _la_dev _la_dio
	_la_dev=$(losetup --direct-io=on -f --show "$_la_img") || {
		echo "loop_fs: cannot attach '$_la_img' to a loop device" >&2
		return 1
	}
	# Detach only if the device still is ours: another script may have
	# been given the same number once it was free.
	test_cleanup "_loop_detach '$_la_dev' '$_la_img'"
	_la_dio=$(losetup -n -O DIO "$_la_dev" | tr -d ' ')
	if [ "$_la_dio" != 1 ]; then
		echo "loop_fs: '$_la_dev' does not do direct I/O on" \
			"'$_la_img' (is ${TMPDIR:-/tmp} on tmpfs?)" >&2
		return 1
	fi
	printf -v "$2" '%s' "$_la_dev"
}

_loop_detach () {
	local back
	back=$(losetup -n -O BACK-FILE "$1" 2>/dev/null) || return 0
	# BACK-FILE may say "(deleted)" after the path
	case $back in
	"$2"|"$2 (deleted)") losetup -d "$1" ;;
	esac
}

_loop_image () {
	local _li_img
	_li_img=$(mktemp "$TRASH/loop-$1.XXXXXX") || return 1
	test_cleanup "rm -f '$_li_img'"
	truncate -s "${2}M" "$_li_img" || return 1
	printf -v "$3" '%s' "$_li_img"
}

# _loop_mount_dir VAR: a new empty directory for a mount, removed at exit.
_loop_mount_dir () {
	local _lm_dir
	_lm_dir=$(mktemp -d "${TMPDIR:-/tmp}/clyde-mnt.XXXXXX") || return 1
	test_cleanup "rmdir '$_lm_dir'"
	printf -v "$1" '%s' "$_lm_dir"
}

# Unmount, waiting a little for a process still closing its files (a
# killed clyde); lazily as a last resort, which still reports failure.
_loop_umount () {
	local i
	for i in 1 2 3 4 5 6 7 8 9 10; do
		mountpoint -q "$1" || return 0
		umount "$1" 2>/dev/null && return 0
		sleep 0.5
	done
	umount "$1" && return 0
	echo "loop_fs: '$1' is busy:" >&2
	command -v fuser >/dev/null && fuser -vm "$1" >&2 2>&1
	umount -l "$1"
	return 1
}

_loop_mkfs () {
	local type=$1 size=$2
	shift 2
	case $type in
	ext2|ext3|ext4)
		# initialise inode tables and journal now, not behind the
		# benchmark's back after mounting
		"mkfs.$type" -q -F -E lazy_itable_init=0,lazy_journal_init=0 \
			"$@" ;;
	xfs)
		if [ "$size" -lt 300 ]; then
			echo "loop_fs: xfs needs at least 300 MB, not $size" >&2
			return 1
		fi
		mkfs.xfs -q -f "$@" ;;
	btrfs)
		mkfs.btrfs -q -f "$@" >/dev/null ;;
	*)
		echo "loop_fs: unknown filesystem type '$type'" >&2
		return 1 ;;
	esac
}

loop_fs () {
	if [ $# -lt 3 ]; then
		echo "usage: loop_fs TYPE SIZE_MB VAR [mkfs options]" >&2
		return 1
	fi
	local _lf_type=$1 _lf_size=$2 _lf_var=$3 _lf_img _lf_dev _lf_dir
	shift 3
	case $_lf_type in
	ext2|ext3|ext4|xfs|btrfs) ;;
	*) echo "loop_fs: unknown filesystem type '$_lf_type'" >&2; return 1 ;;
	esac
	_loop_image "$_lf_type" "$_lf_size" _lf_img &&
	_loop_attach "$_lf_img" _lf_dev &&
	_loop_mkfs "$_lf_type" "$_lf_size" "$@" "$_lf_dev" &&
	_loop_mount_dir _lf_dir || return 1
	mount -t "$_lf_type" "$_lf_dev" "$_lf_dir" || {
		echo "loop_fs: cannot mount $_lf_type '$_lf_dev' on '$_lf_dir'" >&2
		return 1
	}
	test_cleanup "_loop_umount '$_lf_dir'"
	printf -v "$_lf_var" '%s' "$_lf_dir"
	printf -v "${_lf_var}_dev" '%s' "$_lf_dev"
	printf -v "${_lf_var}_img" '%s' "$_lf_img"
}

btrfs_raid_fs () {
	if [ $# -lt 4 ]; then
		echo "usage: btrfs_raid_fs PROFILE NDEV SIZE_MB VAR [mkfs options]" >&2
		return 1
	fi
	local _lb_profile=$1 _lb_ndev=$2 _lb_size=$3 _lb_var=$4
	local _lb_i _lb_img _lb_dev _lb_dir _lb_opts _lb_devs=()
	shift 4
	for ((_lb_i = 0; _lb_i < _lb_ndev; _lb_i++)); do
		_loop_image btrfs "$_lb_size" _lb_img &&
		_loop_attach "$_lb_img" _lb_dev || return 1
		_lb_devs+=("$_lb_dev")
	done
	# forget the devices in the kernel's btrfs list when done
	test_cleanup "btrfs device scan --forget ${_lb_devs[*]} 2>/dev/null || :"
	mkfs.btrfs -q -f -d "$_lb_profile" -m "$_lb_profile" "$@" \
		"${_lb_devs[@]}" >/dev/null || {
		echo "btrfs_raid_fs: mkfs.btrfs -d $_lb_profile" \
			"-m $_lb_profile failed on ${_lb_devs[*]}" >&2
		return 1
	}
	_loop_mount_dir _lb_dir || return 1
	_lb_opts=$(printf 'device=%s,' "${_lb_devs[@]}")
	mount -t btrfs -o "${_lb_opts%,}" "${_lb_devs[0]}" "$_lb_dir" || {
		echo "btrfs_raid_fs: cannot mount '${_lb_devs[0]}' on" \
			"'$_lb_dir'" >&2
		return 1
	}
	test_cleanup "_loop_umount '$_lb_dir'"
	printf -v "$_lb_var" '%s' "$_lb_dir"
	printf -v "${_lb_var}_dev" '%s' "${_lb_devs[*]}"
}
