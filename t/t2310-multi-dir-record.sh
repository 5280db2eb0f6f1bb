#!/bin/bash
# clyde -d A -d B: the record names every directory's target and stack,
# and clyde report reads them back; directories on different kinds of
# storage are warned of (the combined figures mix them), not refused.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-loop.sh"

test_have_prereq JQ || test_skip_all 'jq is needed to read the record'

test_expect_success TMPFS 'two directories on two filesystems: two targets' '
	mkdir a && b=$(mktemp -d /dev/shm/t2310.XXXXXX) &&
	test_cleanup "rm -rf \"$b\"" &&
	"$CLYDE" -q -d "$TRASH/a" -d "$b" -s 4M -n 1 -m two --json r.jsonl >/dev/null &&
	test "$(jq ".targets | length" r.jsonl)" = 2 &&
	test "$(jq -r ".targets[0].path" r.jsonl)" = "$TRASH/a" &&
	test "$(jq -r ".targets[1].path" r.jsonl)" = "$b" &&
	test "$(jq -r ".targets[1].fstype" r.jsonl)" = tmpfs &&
	test "$(jq -r ".targets[0].fstype" r.jsonl)" = "$(jq -r .target.fstype r.jsonl)" &&
	jq -e ".targets[0] | has(\"stack\")" r.jsonl >/dev/null &&
	"$CLYDE" report -f csv r.jsonl >long.csv &&
	grep -q ",two,clyde," long.csv
'

KINDS="-d: the directories are on different kinds of storage:"

test_expect_success TMPFS,LOOP,EXT4 'a tmpfs and an ext4 on a loop device: warned once, naming both' '
	mkdir tm && mount -t tmpfs -o size=16m clyde-t2310 tm &&
	test_cleanup "umount \"$TRASH/tm\"" &&
	loop_fs ext4 64 mnt &&
	under=$(findmnt -n -o FSTYPE --target "$TRASH") &&
	"$CLYDE" -d "$TRASH/tm" -d "$mnt" -s 4M -n 1 -m kinds \
		--json k.jsonl >out 2>err &&
	jq -e --arg w "$KINDS $TRASH/tm tmpfs, $mnt ext4 on ${mnt_dev#/dev/} (a file on $under): the combined figures mix them" \
		"[.warnings[] | select(. == \$w)] | length == 1" k.jsonl &&
	test "$(jq "[.warnings[] | select(contains(\"kinds of storage\"))] | length" k.jsonl)" = 1 &&
	test "$(grep -c "^warning: $KINDS" out)" = 1 &&
	# still a result, summed over both
	jq -e "(.results[] | select(.name == \"put_block\") |
		.status == \"ok\" and (.workers | length) == 2)" k.jsonl
'

test_expect_success TMPFS,LOOP,EXT4 'clyde matrix on the same two: the same warning, on stderr and in the record' '
	"$CLYDE" matrix -d "$TRASH/tm" -d "$mnt" --buffered --bs 4k \
		--threads 1 --pattern random --mix 100 --size 2M --time 0.05 \
		--ramp 0 -m mkinds --json m.jsonl >mout 2>merr &&
	jq -e --arg w "$KINDS $TRASH/tm tmpfs, $mnt ext4 on ${mnt_dev#/dev/} (a file on $under): the combined figures mix them" \
		"[.warnings[] | select(. == \$w)] | length == 1" m.jsonl &&
	test "$(grep -c "^clyde: warning: $KINDS" merr)" = 1 &&
	jq -e ".matrix.cells[0].status == \"ok\"" m.jsonl
'

test_expect_success LOOP,EXT4 'two ext4 on two loop devices: one kind, no warning' '
	loop_fs ext4 64 one && loop_fs ext4 64 two &&
	"$CLYDE" -d "$one" -d "$two" -s 4M -n 1 -m same \
		--json s.jsonl >out2 2>err2 &&
	test "$(jq "[.warnings[] | select(contains(\"kinds of storage\"))] | length" s.jsonl)" = 0 &&
	! grep -q "kinds of storage" out2 err2
'

test_expect_success 'one directory: no targets array' '
	"$CLYDE" -q -d "$TRASH/a" -s 4M -n 1 -m one --json o.jsonl >/dev/null &&
	test "$(jq "has(\"targets\")" o.jsonl)" = false
'

test_done
