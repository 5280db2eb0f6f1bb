#!/bin/bash
# The classic suite end to end on real filesystems: tmpfs, and ext4 and xfs
# on loop devices doing direct I/O to their images.  Every test present with
# a plausible value, the JSON parses, bonnie++'s own tools accept the CSV,
# nothing left behind.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-loop.sh"

test_have_prereq JQ || test_skip_all 'jq is needed to read the JSON record'

# run_suite DIR LABEL [args]: a small suite; out.csv, out.txt, r.jsonl, r.csv
run_suite () {
	local dir=$1 label=$2
	shift 2
	rm -f r.jsonl r.csv
	"$CLYDE" -d "$dir" -s 32M -f1 -n 1 -m "$label" -q -z 7 \
		--json r.jsonl --csv r.csv --tag suite=t2101 "$@" \
		>out.csv 2>out.txt
}

# check_record FSTYPE: the JSON record is complete and plausible
check_record () {
	test_line_count = 1 r.jsonl &&
	jq -e --arg fs "$1" '
		.schema == 1 and .tool == "clyde" and .exit_status == 0 and
		.target.fstype == $fs and .tags.suite == "t2101" and
		.params.file_size == 33554432 and .params.seed == 7 and
		(.results | length) == 12 and
		([.results[].name] == ["putc","put_block","rewrite","getc",
			"get_block","seeks","seq_create","seq_stat","seq_del",
			"ran_create","ran_stat","ran_del"]) and
		all(.results[]; .status == "ok" and .value > 0 and
			.ops > 0 and .elapsed > 0 and .latency_us.max > 0 and
			.latency_us.p50 <= .latency_us.p99 and
			.latency_us.p99 <= .latency_us.max and
			.histogram.count == .ops)
	' r.jsonl >/dev/null
}

# check_csv LABEL: one 1.98 line, 50 fields, the same in both places,
# accepted by bon_csv2html and bon_csv2txt
check_csv () {
	test_line_count = 1 out.csv &&
	test_cmp out.csv r.csv &&
	awk -F, -v l="$1" '$1 != "1.98" || $3 != l || NF != 50 { exit 1 }' \
		out.csv &&
	! grep -q "+++" out.csv
}

check_bonnie_tools () {
	bon_csv2html <out.csv >out.html &&
	grep -q "$1" out.html &&
	bon_csv2txt <out.csv >out.bon.txt &&
	grep -q "$1" out.bon.txt
}

check_text () {
	grep -q "^Version .*------Sequential Output------" out.txt &&
	grep -q "^Latency " out.txt &&
	grep -q "Sequential Create" out.txt &&
	grep -q "^mount: .* type " out.txt &&
	grep -q "^stack:" out.txt
}

check_empty () {
	test -z "$(ls -A "$1" | grep -v '^lost+found$')"
}

test_expect_success TMPFS 'suite on tmpfs' '
	mkdir tmpfs &&
	mount -t tmpfs -o size=256m clyde-t2101 tmpfs &&
	test_cleanup "umount \"$TRASH/tmpfs\"" &&
	run_suite tmpfs on-tmpfs &&
	check_record tmpfs && check_csv on-tmpfs && check_text &&
	check_empty tmpfs
'

test_expect_success TMPFS 'tmpfs reads are marked cached: it cannot evict' '
	jq -e ".results[] | select(.name == \"get_block\") |
		.cached == true and .residency > 0.9" r.jsonl &&
	grep -qi "cached" out.txt
'

test_expect_success TMPFS,BONNIE 'bon_csv2html and bon_csv2txt accept the tmpfs line' '
	check_bonnie_tools on-tmpfs
'

test_expect_success LOOP,EXT4 'suite on ext4 on a loop device' '
	loop_fs ext4 256 ext4 &&
	run_suite "$ext4" on-ext4 &&
	check_record ext4 && check_csv on-ext4 && check_text &&
	check_empty "$ext4"
'

test_expect_success LOOP,EXT4 'ext4 reads start from the disk, not the cache' '
	jq -e "[.results[] | select(.name == \"get_block\" or
		.name == \"getc\" or .name == \"seeks\")] |
		length == 3 and all(.residency < 0.1 and .cached == false)" r.jsonl
'

test_expect_success LOOP,EXT4 'the record says where it ran' '
	jq -e --arg m "$ext4" --arg d "$ext4_dev" "
		.target.mountpoint == \$m and .target.source == \$d and
		.target.total_bytes > 0 and .host.cores > 0 and .host.ram > 0 and
		(.start | test(\"^[0-9]{4}-[0-9]{2}-[0-9]{2}T\")) and
		(.target.vfs_options | test(\"rw\"))" r.jsonl
'

test_expect_success LOOP,EXT4,BONNIE 'bon_csv2html and bon_csv2txt accept the ext4 line' '
	check_bonnie_tools on-ext4
'

test_expect_success LOOP,EXT4 '--direct on ext4 is honoured' '
	run_suite "$ext4" direct-ext4 --direct &&
	check_record ext4 &&
	jq -e ".params.direct == 1 and
		all(.results[]; .direct_ignored == false)" r.jsonl &&
	check_empty "$ext4"
'

test_expect_success LOOP,XFS 'suite on xfs on a loop device' '
	loop_fs xfs 320 xfs &&
	run_suite "$xfs" on-xfs &&
	check_record xfs && check_csv on-xfs && check_text &&
	check_empty "$xfs"
'

test_expect_success LOOP,XFS,BONNIE 'bon_csv2html and bon_csv2txt accept the xfs line' '
	check_bonnie_tools on-xfs
'

test_expect_success LOOP,XFS '-x 2 writes two records, hard links and dirs work' '
	"$CLYDE" -d "$xfs" -s 0 -n 1:-1:0:4 -x 2 -q --json r2.jsonl >out2.csv &&
	test_line_count = 2 r2.jsonl &&
	test_line_count = 2 out2.csv &&
	jq -se "map(.repetition) == [1,2] and
		all(.[].results[]; (.name | test(\"create|stat|del\")) ==
			(.status == \"ok\"))" r2.jsonl &&
	check_empty "$xfs"
'

test_done
