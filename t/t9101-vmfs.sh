#!/bin/bash
# scripts/vmfs: the classic suite and the matrix on jfs and reiserfs inside
# a qemu guest booting Debian's kernel; the record, the CSV line and the exit status come
# back to the host, and nothing is left behind.  KVM when qemu can start
# with it, else software emulation (tcg) with its reason in the record:
# about 20 s a run under tcg.

. "$(dirname "$0")/lib.sh"

VMFS=$SRC_DIR/scripts/vmfs

missing=
for cmd in qemu-system-x86_64 busybox cpio depmod dpkg mkfs.jfs mkreiserfs jq
do
	command -v "$cmd" >/dev/null 2>&1 || missing+=" $cmd"
done
if command -v busybox >/dev/null 2>&1 &&
   ldd "$(command -v busybox)" >/dev/null 2>&1; then
	missing+=" busybox-static"
fi
[ -z "$missing" ] ||
	test_skip_all "missing$missing (scripts/install-deps --vm installs them)"
# Under make test SANITIZE=1 the guest would run an ASan/UBSan binary
# without the suite's sanitizer options and suppressions (and ten times
# slower under emulation); the code it runs is the host's, checked there.
[ -z "${CLYDE_SANITIZE:-}" ] ||
	test_skip_all "a sanitizer build (SANITIZE=1): the guest is tested with the normal build"
cache=${CLYDE_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/clyde/vm}
if ! ls "$cache"/linux-image-*.deb >/dev/null 2>&1 &&
   ! apt-cache depends linux-image-amd64 2>/dev/null | grep -q 'Depends: linux-image-'
then
	test_skip_all "no guest kernel in $cache and apt-cache cannot name linux-image-amd64's"
fi

# small sizes that still run every test: 8 MiB file, 256 seeks by 2
# seekers, 64 KiB per-char, 1024 files
ARGS=(-s 8M:8192:256:2 -f64k -n 1)
TESTS='getc
put_block
putc
ran_create
ran_del
ran_stat
rewrite
seeks
seq_create
seq_del
seq_stat
get_block'
echo "$TESTS" | sort >tests.expect

# vmfs FSTYPE OPTS NAME: run it with its temporary files under $TRASH/NAME.tmp
# and its records in $TRASH/NAME.out; stdout, stderr, status in NAME.*
# A guest that never reports (status 3: the emulated guest kernel hung,
# seen as "task clyde blocked for more than 120 seconds" under TCG) is
# run once more, said in a comment; the second run is checked as the first.
vmfs () {
	local try
	for try in 1 2; do
		rm -rf "$3.tmp" "$3.out" && mkdir -p "$3.tmp" "$3.out" &&
		start=$SECONDS &&
		{ TMPDIR=$TRASH/$3.tmp "$VMFS" --clyde "$CLYDE" --out "$3.out" \
			--timeout 240 ${2:+-o "$2"} "$1" -- "${@:4}" \
			>"$3.stdout" 2>"$3.stderr"; echo $? >"$3.status"; }
		echo $((SECONDS - start)) >"$3.seconds"
		test "$(cat "$3.status")" = 3 || return 0
		test_comment "$3: the guest never reported (try $try): $(grep -m1 'blocked\|timed out' "$3.stderr")"
	done
}

# kvm_opens: /dev/kvm is a character device this user opens read-write
# (what qemu needs first; ":" opens it and closes it at once, never
# creating a file)
kvm_opens () {
	test -c /dev/kvm && { : 9<>/dev/kvm; } 2>/dev/null
}

# kvm_no_boot REASON: the reason is vmfs's for a KVM machine that
# starts but does not run the guest's kernel
kvm_no_boot () {
	case $1 in
	"the guest kernel printed nothing under it in 60 s" | \
	"the guest kernel did not finish booting under it in 60 s") true ;;
	*) false ;;
	esac
}

# check_accel NAME ACCEL RECORD: KVM, or tcg with the reason said on stderr
# and kept in the record; tcg although /dev/kvm opens read-write is a
# failure, qemu's reason in the output
check_accel () {
	local reason
	reason=$(sed -n "s/^vmfs: software emulation (tcg): KVM cannot start: //p" \
		"$1.stderr")
	test_comment "$1: $2 in $(cat "$1.seconds") s${reason:+ ($reason)}"
	case $2 in
	tcg)
		test -n "$reason" &&
		test "$(jq -r '.tags["vmfs.tcg_reason"]' "$3")" = "$reason" &&
		test "$(jq -r .host.virt.emulation "$3")" = tcg &&
		# KVM that does not open, or one whose machine starts but on
		# which the guest kernel does not boot (vmfs boots it to see)
		{ ! kvm_opens || kvm_no_boot "$reason"; } ;;
	kvm)
		test -z "$reason" &&
		test "$(jq -r '.tags["vmfs.tcg_reason"]' "$3")" = null &&
		test "$(jq -r .host.virt.hypervisor "$3")" = KVM &&
		test "$(jq -r .host.virt.emulation "$3")" = null ;;
	*)
		false ;;
	esac
}

# check_run FSTYPE OPTION NAME: what a user looks for in the returned record
check_run () {
	local rec
	test "$(cat "$3.status")" = 0 &&
	# the table, printed from inside the guest
	grep -q '^Version .*Sequential Output' "$3.stdout" &&
	grep -q '^Latency' "$3.stdout" &&
	# one record and one CSV line, named by fs type
	rec=$(ls "$3.out/vmfs-$1-"*.jsonl) &&
	test "$(echo "$rec" | wc -l)" = 1 &&
	test_line_count = 1 "$rec" &&
	test_line_count = 1 "${rec%.jsonl}.csv" &&
	grep -q '^1\.98,clyde-' "${rec%.jsonl}.csv" &&
	jq -r '.results[] | select(.status == "ok") | .name' "$rec" |
		sort >"$3.tests" &&
	test_cmp tests.expect "$3.tests" &&
	# what it ran on, as clyde saw it in the guest
	test "$(jq -r .target.fstype "$rec")" = "$1" &&
	jq -r .target.fs_options "$rec" | tr , '\n' | grep -qx "$2" &&
	test "$(jq -r .target.source "$rec")" = /dev/vda &&
	test "$(jq -r '.target.stack[0].transport' "$rec")" = virtio &&
	kernel=$(sed -n "s/.*(kernel \([^,]*\), \([a-z]*\)).*/\1/p" \
		"$3.stderr") &&
	accel=$(sed -n "s/.*(kernel \([^,]*\), \([a-z]*\)).*/\2/p" \
		"$3.stderr") &&
	test -n "$kernel" &&
	test "$(jq -r .host.kernel "$rec")" = "$kernel" &&
	test "$(jq -r .host.virt.vm "$rec")" = true &&
	check_accel "$3" "$accel" "$rec" &&
	# nothing left in the temporary directory
	test -z "$(ls -A "$3.tmp")"
}

test_expect_success 'jfs (nointegrity) in the guest: every test, record back' '
	vmfs jfs nointegrity jfs "${ARGS[@]}" &&
	check_run jfs nointegrity jfs
'

test_expect_success 'reiserfs (notail) in the guest: every test, record back' '
	vmfs reiserfs notail reiserfs "${ARGS[@]}" &&
	check_run reiserfs notail reiserfs
'

test_expect_success 'matrix on jfs in the guest: XDISK tables, record back' '
	vmfs jfs "" mx matrix --bs 4k,64k --threads 1,2 --pattern random \
		--mix 100,0 --size 8M --time 0.1 --ramp 0 &&
	test "$(cat mx.status)" = 0 &&
	grep -q "^4K block size — 1 thread$" mx.stdout &&
	grep -q "^64K block size — 2 threads$" mx.stdout &&
	test "$(grep -c "^Pattern  *Profile  *IO/s " mx.stdout)" = 4 &&
	rec=$(ls mx.out/vmfs-jfs-*.jsonl) &&
	test_line_count = 1 "$rec" &&
	jq -e ".target.fstype == \"jfs\" and .target.source == \"/dev/vda\" and
	       .host.virt.vm == true and (.matrix.cells | length) == 8 and
	       all(.matrix.cells[]; .status == \"ok\")" "$rec" >/dev/null &&
	test_line_count = 9 "${rec%.jsonl}.csv" &&
	test -z "$(ls -A mx.tmp)"
'

test_expect_success 'bad clyde arguments: error and status 2, nothing left' '
	vmfs jfs "" bad -s 8M --bogus &&
	test "$(cat bad.status)" = 2 &&
	grep -q "clyde: .*--bogus" bad.stderr &&
	test -z "$(ls -A bad.out)" &&
	test -z "$(ls -A bad.tmp)"
'

test_expect_success 'mount options the guest refuses: status 2, nothing left' '
	vmfs reiserfs nosuchoption badmnt -s 8M &&
	test "$(cat badmnt.status)" = 2 &&
	grep -q "cannot mount /dev/vda (reiserfs, options .nosuchoption.)" \
		badmnt.stderr &&
	test -z "$(ls -A badmnt.out)" &&
	test -z "$(ls -A badmnt.tmp)"
'

test_expect_success 'bad usage of vmfs itself: status 2 before any guest' '
	test_expect_code 2 "$VMFS" --clyde "$CLYDE" nosuchfs 2>err &&
	grep -q "unsupported filesystem .nosuchfs." err &&
	test_expect_code 2 "$VMFS" --clyde "$CLYDE" --accel hvf jfs 2>err &&
	grep -q "^vmfs: --accel takes auto, kvm or tcg, not .hvf.$" err
'

test_expect_success '--accel kvm where KVM cannot start: status 2, why' '
	reason=$(sed -n "s/^vmfs: software emulation (tcg): KVM cannot start: //p" \
		jfs.stderr) &&
	if kvm_opens && kvm_no_boot "$reason"; then
		mkdir kvm.tmp &&
		test_expect_code 2 env TMPDIR=$TRASH/kvm.tmp "$VMFS" \
			--clyde "$CLYDE" --accel kvm --out kvm.out jfs 2>err &&
		grep -q "^vmfs: KVM cannot start: $reason$" err &&
		test -z "$(ls -A kvm.out)" &&
		test -z "$(ls -A kvm.tmp)"
	elif kvm_opens; then
		test_comment "/dev/kvm opens here: --accel kvm is checked by the runs above"
	else
		mkdir kvm.tmp &&
		test_expect_code 2 env TMPDIR=$TRASH/kvm.tmp "$VMFS" \
			--clyde "$CLYDE" --accel kvm --out kvm.out jfs 2>err &&
		grep "^vmfs: KVM cannot start: ." err &&
		test_path_is_missing kvm.out &&
		test -z "$(ls -A kvm.tmp)"
	fi
'

test_done
