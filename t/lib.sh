# t/lib.sh - a small TAP library for clyde's shell tests (bash).
#
# A test script t/tNNNN-what.sh looks like this:
#
#	#!/bin/bash
#	. "$(dirname "$0")/lib.sh"
#
#	test_expect_success 'help exits 0' '
#		"$CLYDE" --help >out &&
#		grep -q "^usage:" out
#	'
#	test_expect_success ROOT,LOOP,XFS 'runs on xfs' '
#		loop_fs xfs 320 mnt &&
#		"$CLYDE" -d "$mnt" -s 16M -n 1 -q >csv
#	'
#	test_done
#
# and prints TAP: "ok 1 - help exits 0", "ok 2 # skip runs on xfs (missing
# XFS)", and the plan "1..2" at the end (test_done).
#
# Each test body is eval'ed in the script's own shell (variables it sets are
# seen by later tests), in the scratch directory $TRASH, with stdin from
# /dev/null and its output saved; the output is printed as TAP comments when
# the test fails (or always with -v, or under prove -v).  Chain the commands
# of a body with && : its status is that of its last command.
#
# API
#   test_expect_success [PREREQ[,PREREQ...]] 'name' 'body'
#   test_expect_failure [PREREQ...] 'name' 'body'   known breakage (TODO)
#   skip 'name' 'reason'                  report one test as skipped
#   test_skip_all 'reason'                skip the whole script (before any
#                                         test), exits
#   test_done                             print the plan, clean up, exit
#   test_have_prereq PREREQ[,...]         true if all are met (probed once);
#                                         !PREREQ negates
#   test_lazy_prereq NAME 'script'        define a prerequisite probe
#   test_set_prereq NAME                  declare a prerequisite met
#   test_cleanup 'cmd'                    run cmd when the script exits,
#                                         even on failure or signal; the
#                                         last registered runs first
#   test_comment 'text'                   print "# text"
#   test_must_fail cmd...                 cmd exits 1..125 (not a crash)
#   test_expect_code N cmd...             cmd exits with status N
#   test_cmp expected actual              diff -u, quiet when equal
#   test_path_is_file / _is_dir / _is_missing PATH
#   test_line_count = N FILE              compare the line count of FILE
#
#   test_disk_dir VAR                     VAR := a new directory on a
#                                         disk-backed filesystem (DISKDIR)
#
# Prerequisites known: ROOT, LOOP (root and a free loop device), EXT2, EXT3,
# EXT4, XFS, BTRFS (mkfs present and the kernel has or can load the fs),
# TMPFS (root and a tmpfs mounts), DISKDIR (a disk-backed directory for
# test_disk_dir: $TRASH, or /var/tmp when ${TMPDIR:-/tmp} is a tmpfs),
# BONNIE (bon_csv2html, bon_csv2txt), FIO, JQ, XMLLINT.
#
# Variables: $CLYDE (the binary; `make test` exports it, default
# t/../clyde), $TEST_DIR (absolute t/), $SRC_DIR (the source tree), $TRASH
# (the per-script scratch directory under ${TMPDIR:-/tmp}, removed when all
# tests passed, kept and named in a comment otherwise).

export LC_ALL=C LANG=C TZ=UTC
unset CDPATH

TEST_DIR=$(cd "$(dirname "$0")" && pwd) || exit 1
SRC_DIR=$(cd "$TEST_DIR/.." && pwd) || exit 1
TEST_NAME=$(basename "$0" .sh)
CLYDE=${CLYDE:-$SRC_DIR/clyde}
case $CLYDE in
/*) ;;
*) CLYDE=$(cd "$(dirname "$CLYDE")" && pwd)/$(basename "$CLYDE") ;;
esac
export CLYDE TEST_DIR SRC_DIR

_test_verbose=
case "${1-}" in
-v|--verbose) _test_verbose=1 ;;
esac
[ -n "${HARNESS_IS_VERBOSE-}" ] && [ "$HARNESS_IS_VERBOSE" != 0 ] &&
	_test_verbose=1

_test_count=0
_test_failed=0
_test_fixed=0
_test_done=
_test_cleanup_failed=0
_test_cleanups=()
declare -A _test_prereq_cache=()
declare -A _test_prereq_probe=()

# stdout is the TAP stream; fd 3 keeps it while a body's output is captured.
exec 3>&1

test_comment () {
	local line
	while IFS= read -r line; do
		printf '# %s\n' "$line" >&3
	done <<EOF
$*
EOF
}

_test_bail () {
	printf 'Bail out! %s\n' "$*" >&3
	exit 1
}

TRASH=$(mktemp -d "${TMPDIR:-/tmp}/clyde-trash.$TEST_NAME.XXXXXX") ||
	_test_bail "cannot create a scratch directory under ${TMPDIR:-/tmp}"
export TRASH
_test_log=$(mktemp "${TMPDIR:-/tmp}/clyde-log.$TEST_NAME.XXXXXX") ||
	_test_bail "cannot create a log file under ${TMPDIR:-/tmp}"

# ---- cleanup ---------------------------------------------------------------

test_cleanup () {
	_test_cleanups+=("$1")
}

_test_run_cleanups () {
	local i cmd
	for ((i = ${#_test_cleanups[@]} - 1; i >= 0; i--)); do
		cmd=${_test_cleanups[i]}
		unset '_test_cleanups[i]'
		if ! (eval "$cmd") </dev/null >"$_test_log" 2>&1; then
			_test_cleanup_failed=1
			test_comment "cleanup failed: $cmd"
			test_comment "$(cat "$_test_log" 2>/dev/null)"
		fi
	done
	: >"$_test_log"
}

_test_remove_trash () {
	cd / || return
	if [ "$_test_failed" -eq 0 ] && [ "$_test_cleanup_failed" -eq 0 ] &&
	   [ -n "$_test_done" ]; then
		# never descend into something left mounted below it
		rm -rf --one-file-system "$TRASH"
	else
		test_comment "scratch directory kept: $TRASH"
	fi
}

_test_exit () {
	local status=$?
	trap - EXIT INT TERM
	_test_run_cleanups
	if [ -z "$_test_done" ]; then
		# died before test_done: exit, set -e or a bug in the script
		test_comment "$TEST_NAME exited with status $status before test_done"
		[ "$status" -eq 0 ] && status=1
	elif [ "$_test_cleanup_failed" -ne 0 ] && [ "$status" -eq 0 ]; then
		status=1
	fi
	rm -f "$_test_log"
	_test_remove_trash
	exit "$status"
}

_test_signal () {
	test_comment "$TEST_NAME: caught SIG$1"
	trap - INT TERM
	exit "$2"
}

trap _test_exit EXIT
trap '_test_signal INT 130' INT
trap '_test_signal TERM 143' TERM

# ---- prerequisites ---------------------------------------------------------

test_set_prereq () {
	_test_prereq_cache[$1]=0
}

# wait_for_file GLOB: up to 60 s for a file matching GLOB to appear (a
# command starting on a loaded machine)
wait_for_file () {
	local i
	for i in $(seq 600); do
		compgen -G "$1" >/dev/null && return 0
		sleep 0.1
	done
	echo "no file matching $1 appeared" >&2
	return 1
}

test_lazy_prereq () {
	_test_prereq_probe[$1]=$2
}

_test_probe () {
	local name=$1 dir status
	if [ -z "${_test_prereq_probe[$name]+set}" ]; then
		_test_bail "unknown prerequisite '$name'"
	fi
	dir=$(mktemp -d "$TRASH/.prereq-$name.XXXXXX") || return 1
	(cd "$dir" && eval "${_test_prereq_probe[$name]}") \
		</dev/null >/dev/null 2>&1
	status=$?
	rm -rf --one-file-system "$dir"
	return "$status"
}

test_have_prereq () {
	local p name want list
	IFS=, read -ra list <<<"$1"
	for p in "${list[@]}"; do
		name=${p#!}
		want=0
		[ "$name" != "$p" ] && want=1
		if [ -z "${_test_prereq_cache[$name]+set}" ]; then
			if _test_probe "$name"; then
				_test_prereq_cache[$name]=0
			else
				_test_prereq_cache[$name]=1
			fi
		fi
		[ "${_test_prereq_cache[$name]}" -eq "$want" ] || return 1
	done
	return 0
}

_test_missing_prereqs () {
	local p out= list
	IFS=, read -ra list <<<"$1"
	for p in "${list[@]}"; do
		test_have_prereq "$p" || out=${out:+$out,}$p
	done
	printf '%s' "$out"
}

# Is filesystem $1 usable: its mkfs exists and the kernel knows it or has a
# module for it (mount loads the module on demand).
_test_fs_ok () {
	command -v "mkfs.$1" && {
		grep -qw "$1" /proc/filesystems || modprobe -n -q "$1"
	}
}

test_lazy_prereq ROOT '[ "$(id -u)" -eq 0 ]'
test_lazy_prereq LOOP '
	[ "$(id -u)" -eq 0 ] && command -v losetup && losetup -f
'
test_lazy_prereq EXT2 '_test_fs_ok ext2'
test_lazy_prereq EXT3 '_test_fs_ok ext3'
test_lazy_prereq EXT4 '_test_fs_ok ext4'
test_lazy_prereq XFS '_test_fs_ok xfs'
test_lazy_prereq BTRFS '_test_fs_ok btrfs'
test_lazy_prereq TMPFS '
	[ "$(id -u)" -eq 0 ] && mkdir m &&
	mount -t tmpfs -o size=1m clyde-probe m && umount m
'
test_lazy_prereq DISKDIR '_test_disk_base'
test_lazy_prereq BONNIE 'command -v bon_csv2html && command -v bon_csv2txt'
test_lazy_prereq FIO 'command -v fio'
test_lazy_prereq JQ 'command -v jq'
test_lazy_prereq XMLLINT 'command -v xmllint'

# ---- places ----------------------------------------------------------------

# _test_memory_fs DIR: DIR is on a memory filesystem (tmpfs, ramfs), whose
# pages are the files' only copy: nothing there can be evicted, and no
# device is below it.
_test_memory_fs () {
	case $(stat -f -c %T "$1" 2>/dev/null) in
	tmpfs|ramfs) return 0 ;;
	esac
	return 1
}

# _test_disk_base: print where disk-backed scratch directories go: $TRASH
# when it is on a disk-backed filesystem, else /var/tmp (FHS: kept across
# reboots, so on disk) when that is; fail when neither is.
_test_disk_base () {
	local d
	for d in "$TRASH" /var/tmp; do
		if [ -d "$d" ] && [ -w "$d" ] && ! _test_memory_fs "$d"; then
			printf '%s\n' "$d"
			return 0
		fi
	done
	return 1
}

# test_disk_dir VAR: VAR := a new empty directory on a disk-backed
# filesystem, under $TRASH or removed when the script exits (guard the
# test with DISKDIR).
# For what must be evictable or have a block device below it: a loop
# image, a run whose record should show a device stack.
test_disk_dir () {
	local _dd_base _dd_dir
	_dd_base=$(_test_disk_base) || {
		echo "test_disk_dir: neither $TRASH nor /var/tmp is disk-backed" >&2
		return 1
	}
	_dd_dir=$(mktemp -d "$_dd_base/clyde-disk.$TEST_NAME.XXXXXX") ||
		return 1
	# under $TRASH it stays with it for a failed test; elsewhere it goes
	[ "$_dd_base" = "$TRASH" ] ||
		test_cleanup "rm -rf --one-file-system '$_dd_dir'"
	printf -v "$1" '%s' "$_dd_dir"
}

# ---- running tests ---------------------------------------------------------

# Run a body in this shell, in $TRASH, output to a log; return its status.
_test_eval () {
	local status
	cd "$TRASH" || _test_bail "cannot enter $TRASH"
	eval "$1" </dev/null >"$_test_log" 2>&1
	status=$?
	cd "$TRASH" || _test_bail "cannot enter $TRASH"
	return "$status"
}

_test_show_output () {
	if [ -s "$_test_log" ]; then
		test_comment "$(cat "$_test_log")"
	fi
	: >"$_test_log"
}

# _test_args N "$@": split optional prerequisites off the arguments.
_test_args () {
	local n=$1
	shift
	if [ $# -eq $((n + 1)) ]; then
		_test_prereq=$1
		shift
	elif [ $# -eq "$n" ]; then
		_test_prereq=
	else
		_test_bail "bug in $TEST_NAME: wrong number of arguments: $*"
	fi
	_test_title=$1
	_test_body=$2
}

_test_skip_missing () {
	local missing
	[ -n "$_test_prereq" ] || return 1
	missing=$(_test_missing_prereqs "$_test_prereq")
	[ -n "$missing" ] || return 1
	printf 'ok %d - %s # SKIP missing %s\n' "$_test_count" "$_test_title" \
		"$missing" >&3
	return 0
}

test_expect_success () {
	_test_args 2 "$@"
	_test_count=$((_test_count + 1))
	_test_skip_missing && return 0
	if _test_eval "$_test_body"; then
		printf 'ok %d - %s\n' "$_test_count" "$_test_title" >&3
		[ -n "$_test_verbose" ] && _test_show_output
	else
		_test_failed=$((_test_failed + 1))
		printf 'not ok %d - %s\n' "$_test_count" "$_test_title" >&3
		test_comment "$_test_body"
		_test_show_output
	fi
	: >"$_test_log"
	return 0
}

test_expect_failure () {
	_test_args 2 "$@"
	_test_count=$((_test_count + 1))
	_test_skip_missing && return 0
	if _test_eval "$_test_body"; then
		_test_fixed=$((_test_fixed + 1))
		printf 'ok %d - %s # TODO known breakage vanished\n' \
			"$_test_count" "$_test_title" >&3
	else
		printf 'not ok %d - %s # TODO known breakage\n' \
			"$_test_count" "$_test_title" >&3
	fi
	[ -n "$_test_verbose" ] && _test_show_output
	: >"$_test_log"
	return 0
}

skip () {
	_test_count=$((_test_count + 1))
	printf 'ok %d - %s # SKIP %s\n' "$_test_count" "$1" "${2-}" >&3
}

test_skip_all () {
	if [ "$_test_count" -gt 0 ]; then
		test_comment "skipping the rest: $1"
		test_done
	fi
	printf '1..0 # SKIP %s\n' "$1" >&3
	_test_done=1
	exit 0
}

test_done () {
	printf '1..%d\n' "$_test_count" >&3
	[ "$_test_fixed" -gt 0 ] &&
		test_comment "$_test_fixed known breakage(s) vanished"
	_test_done=1
	if [ "$_test_failed" -gt 0 ]; then
		test_comment "failed $_test_failed of $_test_count"
		exit 1
	fi
	exit 0
}

# ---- helpers for test bodies -----------------------------------------------

test_must_fail () {
	"$@"
	local status=$?
	if [ "$status" -eq 0 ]; then
		echo "test_must_fail: '$*' succeeded" >&2
		return 1
	elif [ "$status" -gt 125 ]; then
		echo "test_must_fail: '$*' died with status $status" >&2
		return 1
	fi
	return 0
}

test_expect_code () {
	local want=$1 status
	shift
	"$@"
	status=$?
	if [ "$status" -ne "$want" ]; then
		echo "test_expect_code: '$*' exited $status, wanted $want" >&2
		return 1
	fi
	return 0
}

test_cmp () {
	diff -u "$1" "$2" >&2
}

# test_cmp_printed DECIMALS EXACT PRINTED: the numbers of PRINTED, line by
# line and field by field, are those of EXACT printed with DECIMALS
# decimals: each within half a unit of the last place.  EXACT is not
# rounded first: a value on a rounding boundary (527.65 in binary) may be
# printed either way, and a rounded expectation then misses by a unit.
test_cmp_printed () {
	awk -v d="$1" '
	BEGIN { tol = 0.5 * 10 ^ -d * (1 + 1e-6) }
	FNR == NR { want[FNR] = $0; nwant = FNR; next }
	{
		ngot = FNR
		n = split(want[FNR], x)
		ok = split($0, y) == n
		for (i = 1; ok && i <= n; i++)
			ok = y[i] - x[i] <= tol && x[i] - y[i] <= tol
		if (!ok) {
			printf "line %d: %s is not %s printed\n", FNR, $0,
				want[FNR] >"/dev/stderr"
			bad = 1
		}
	}
	END {
		if (ngot != nwant) {
			printf "%d lines printed, %d wanted\n", ngot, nwant \
				>"/dev/stderr"
			bad = 1
		}
		exit bad
	}' "$2" "$3"
}

test_path_is_file () {
	[ -f "$1" ] || { echo "not a file: '$1'" >&2; return 1; }
}

test_path_is_dir () {
	[ -d "$1" ] || { echo "not a directory: '$1'" >&2; return 1; }
}

test_path_is_missing () {
	if [ -e "$1" ] || [ -L "$1" ]; then
		echo "should not exist: '$1'" >&2
		ls -ld "$1" >&2
		return 1
	fi
}

test_line_count () {
	local n
	n=$(wc -l <"$3") || return 1
	if ! [ "$n" "$1" "$2" ]; then
		echo "test_line_count: '$3' has $n lines, wanted $1 $2" >&2
		return 1
	fi
}

cd "$TRASH" || _test_bail "cannot enter $TRASH"
