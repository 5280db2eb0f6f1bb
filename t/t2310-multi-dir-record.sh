#!/bin/bash
# clyde -d A -d B: the record names every directory's target and stack,
# and clyde report reads them back.
. "$(dirname "$0")/lib.sh"

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

test_expect_success 'one directory: no targets array' '
	"$CLYDE" -q -d "$TRASH/a" -s 4M -n 1 -m one --json o.jsonl >/dev/null &&
	test "$(jq "has(\"targets\")" o.jsonl)" = false
'

test_done
