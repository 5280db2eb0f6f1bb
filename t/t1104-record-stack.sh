#!/bin/bash
# The record of a suite run carries the detected target: on a btrfs raid1
# over two loop devices it names raid1, both devices and their backing
# files; and the stack survives the JSON round trip clyde report uses.

. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-loop.sh"

test_expect_success ROOT,LOOP,BTRFS,JQ 'suite on btrfs raid1: record names the stack' '
	btrfs_raid_fs raid1 2 128 mnt &&
	"$CLYDE" -d "$mnt" -s 0 -n 1 -q --json r.jsonl >out.csv 2>out.txt &&
	test_line_count = 1 r.jsonl &&
	test "$(jq -r .target.fstype r.jsonl)" = btrfs &&
	test "$(jq -r .target.fs.data_profile r.jsonl)" = raid1 &&
	test "$(jq -r .target.fs.metadata_profile r.jsonl)" = raid1 &&
	test "$(jq -r ".target.stack[0].kind" r.jsonl)" = btrfs &&
	test "$(jq -r ".target.stack[0].data_profile" r.jsonl)" = raid1 &&
	for d in $mnt_dev; do
		n=$(basename "$d") &&
		back=$(losetup -n -O BACK-FILE "$d") &&
		test "$(jq -r ".target.stack[] | select(.kind == \"loop\" and
			.name == \"$n\") | .backing_file" r.jsonl)" = "$back" &&
		test "$(jq -r ".target.stack[] | select(.kind == \"loop\" and
			.name == \"$n\") | .parent" r.jsonl)" = 0 || return 1
	done &&
	test "$(jq "[.target.stack[] | select(.kind == \"loop\")] | length" \
		r.jsonl)" = 2 &&
	test "$(jq -r ".host.virt.vm | type" r.jsonl)" != string
'

test_expect_success ROOT,LOOP,BTRFS,JQ 'the run still has its results' '
	test "$(jq -r "[.results[] | select(.status == \"ok\")] | length" \
		r.jsonl)" -ge 6
'

test_done
