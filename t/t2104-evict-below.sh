#!/bin/bash
# Before a read phase clyde evicts the caches under the filesystem: a loop
# device attached WITHOUT direct I/O is flushed and its backing file dropped
# from the host's page cache, and the record shows the backing file's
# residency measured afterwards; a layer it cannot evict (a VM's virtual
# disk) is named once as a caveat with the remedy.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-loop.sh"

# a loop xfs whose loop device does buffered I/O to its image
buffered_loop_xfs () {
	img=$TRASH/buffered.img &&
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

test_expect_success ROOT,LOOP,XFS,JQ 'loop without direct I/O: backing file evicted and verified' '
	buffered_loop_xfs &&
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
test_expect_success ROOT,LOOP,XFS,JQ '-u nobody:nogroup evicts the backing file like root' '
	buffered_loop_xfs &&
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

test_expect_success ROOT,LOOP,XFS,JQ 'a virtual machine: its disk is a caveat, named once, with the remedy' '
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

test_done
