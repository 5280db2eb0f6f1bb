#!/bin/bash
# Before a read phase clyde evicts the caches under the filesystem: a loop
# device attached WITHOUT direct I/O is flushed and its backing file dropped
# from the host's page cache, and the record shows the backing file's
# residency measured afterwards; a layer it cannot evict (a VM's virtual
# disk) is named once as a caveat with the remedy.  Eviction needs the
# image on a disk-backed filesystem (DISKDIR: /var/tmp when the scratch
# directory is on a tmpfs); an image on a memory filesystem is named as
# such.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-loop.sh"

# buffered_loop_xfs DIR: a loop xfs whose loop device does buffered I/O to
# its image DIR/buffered.img
buffered_loop_xfs () {
	img=$1/buffered.img &&
	truncate -s 400M "$img" &&
	dev=$(losetup -f --show "$img") &&
	test_cleanup "losetup -d '$dev'" &&
	test "$(losetup -n -O DIO "$dev" | tr -d " ")" = 0 &&
	mkfs.xfs -q -f "$dev" &&
	mnt=$(mktemp -d "${TMPDIR:-/tmp}/clyde-mnt.XXXXXX") &&
	test_cleanup "rmdir '$mnt'" &&
	mount "$dev" "$mnt" &&
	test_cleanup "umount '$mnt'"
}

test_expect_success ROOT,LOOP,XFS,JQ,DISKDIR 'loop without direct I/O: backing file evicted and verified' '
	test_disk_dir disk &&
	buffered_loop_xfs "$disk" &&
	"$CLYDE" -d "$mnt" -s 64M -f0 -n 0 -q --json r.jsonl \
		>out.csv 2>out.txt &&
	loop=$(basename "$dev") &&
	for t in rewrite get_block seeks; do
		jq -e --arg t "$t" --arg l "$loop" "
			.results[] | select(.name == \$t) | .layers[] |
			select(.kind == \"loop\" and (.name | startswith(\$l))) |
			.state == \"evicted and verified\" and
			.residency < 0.10 and .note == null" r.jsonl ||
		{ echo "no verified eviction of $loop before $t" >&2; return 1; }
	done &&
	! jq -e --arg l "$loop" "any(.warnings[]; contains(\$l))" r.jsonl &&
	grep -q "below: $loop backing file $img: " out.txt
'

# findings F2: -u drops root, but the eviction below the fs keeps it (a
# root helper forked before the drop): the same verified eviction
test_expect_success ROOT,LOOP,XFS,JQ,DISKDIR '-u nobody:nogroup evicts the backing file like root' '
	test_disk_dir disk &&
	buffered_loop_xfs "$disk" &&
	chmod 1777 "$mnt" &&
	"$CLYDE" -u nobody:nogroup -d "$mnt" -s 64M -f0 -n 0 -q \
		--json u.jsonl >out.csv 2>out.txt &&
	loop=$(basename "$dev") &&
	for t in rewrite get_block seeks; do
		jq -e --arg t "$t" --arg l "$loop" "
			.results[] | select(.name == \$t) | .layers[] |
			select(.kind == \"loop\" and (.name | startswith(\$l))) |
			.state == \"evicted and verified\" and
			.residency < 0.10" u.jsonl ||
		{ echo "-u: no verified eviction of $loop before $t" >&2; return 1; }
	done &&
	! grep -q "cannot flush" out.txt &&
	test -z "$(ls -A "$mnt")" &&
	! pgrep -u 0 -f "^$CLYDE -u nobody:nogroup -d $mnt" >/dev/null
'

test_expect_success ROOT,LOOP,XFS,JQ,DISKDIR 'a virtual machine: its disk is a caveat, named once, with the remedy' '
	fake=$TRASH/sys &&
	mkdir -p "$fake/class/dmi/id" &&
	for d in /sys/*; do ln -s "$d" "$fake/$(basename "$d")" 2>/dev/null; done;
	for d in /sys/class/*; do
		[ "$(basename "$d")" = dmi ] || ln -s "$d" "$fake/class/"
	done &&
	echo QEMU >"$fake/class/dmi/id/sys_vendor" &&
	echo "Standard PC (Q35 + ICH9, 2009)" >"$fake/class/dmi/id/product_name" &&
	CLYDE_SYSFS=$fake "$CLYDE" -d "$mnt" -s 32M -f0 -n 0 -q \
		--json v.jsonl >out.csv 2>vm.txt &&
	test "$(jq .host.virt.vm v.jsonl)" = true &&
	jq -e "[.warnings[] | select(test(\"not evictable\"))] |
		length >= 1 and all(.[]; test(\"--device-cache SIZE\"))" \
		v.jsonl &&
	jq -e "[.results[] | select(.name == \"get_block\") | .layers[] |
		select(.state == \"not evictable\")] | length >= 1" v.jsonl &&
	test "$(grep -c "^warning: .*not evictable" vm.txt)" = \
		"$(jq "[.warnings[] | select(test(\"not evictable\"))] |
			length" v.jsonl)"
'

# the image on a tmpfs of its own, whatever TMPDIR is
test_expect_success ROOT,LOOP,XFS,JQ,TMPFS 'a loop image on a tmpfs: not evictable, a memory filesystem, named once' '
	mkdir mem &&
	mount -t tmpfs -o size=420m clyde-t2104 mem &&
	test_cleanup "umount '$TRASH/mem'" &&
	buffered_loop_xfs "$TRASH/mem" &&
	"$CLYDE" -d "$mnt" -s 64M -f0 -n 0 -q --json m.jsonl \
		>m.csv 2>m.txt &&
	loop=$(basename "$dev") &&
	for t in rewrite get_block seeks; do
		jq -e --arg t "$t" --arg l "$loop" "
			.results[] | select(.name == \$t) | .layers[] |
			select(.kind == \"loop\" and (.name | startswith(\$l))) |
			.state == \"not evictable\" and
			(.note | test(\"^memory filesystem: .* on tmpfs\")) and
			.residency > 0.1" m.jsonl ||
		{ echo "$loop before $t: not named a memory filesystem" >&2; return 1; }
	done &&
	test "$(jq --arg l "$loop" "[.warnings[] | select(contains(\$l) and
		contains(\"memory filesystem\"))] | length" m.jsonl)" = 1 &&
	grep -q "below: $loop backing file $img: .* (not evictable)" m.txt
'

test_done
