#!/bin/bash
# clyde report: dimensions (tags, detected facts, inferred from labels by
# the documented rules or --label-pattern), configurations identified by
# them and never by device nodes, and the pivot --rows/--columns in text
# and CSV, checked cell by cell against the input.
. "$(dirname "$0")/lib.sh"

FIX=$TEST_DIR/fixtures/report
RW=${CLYDE_REALWORLD:-$(cd "$TEST_DIR/../.." && pwd)/shared/realworld}
export RW
test_lazy_prereq REALWORLD 'ls "$RW"/bonnie-* "$RW"/fio-*.json'

# dims FILE...: "label|dims|inferred keys" per configuration, sorted
dims () {
	"$CLYDE" report -f csv "$@" 2>/dev/null | perl -MText::ParseWords -ne '
		chomp; my @f = parse_line(",", 0, $_);
		if ($. == 1) { %c = map { $f[$_] => $_ } 0..$#f; next }
		print "$f[$c{label}]|$f[$c{dims}]|$f[$c{dims_inferred}]\n"' |
	sort -u
}

test_expect_success 'labels of seed 002: controller, RAID, fs, disks, segment inferred' '
	cat >labels.csv <<-\EOF &&
	fc-raid5-xfs-4disks-8kbSegment,5G,1,1,40000,25,1,1,1,1,1,1,1,1,16,1,1,1,1,1,1,1,1,1,1,1,1
	scsi-raid0-reiserfs-2disks,5G,1,1,40000,25,1,1,1,1,1,1,1,1,16,1,1,1,1,1,1,1,1,1,1,1,1
	fc_raid_5.ext3.8disks.16kSegment,5G,1,1,40000,25,1,1,1,1,1,1,1,1,16,1,1,1,1,1,1,1,1,1,1,1,1
	SCSI-RAID10-JFS-6Drives,5G,1,1,40000,25,1,1,1,1,1,1,1,1,16,1,1,1,1,1,1,1,1,1,1,1,1
	plainhost,5G,1,1,40000,25,1,1,1,1,1,1,1,1,16,1,1,1,1,1,1,1,1,1,1,1,1
	EOF
	dims labels.csv >actual &&
	cat >expect <<-\EOF &&
	SCSI-RAID10-JFS-6Drives|controller=scsi;raid=10;fs=jfs;disks=6|controller;raid;fs;disks
	fc-raid5-xfs-4disks-8kbSegment|controller=fc;raid=5;fs=xfs;disks=4;segment=8k|controller;raid;fs;disks;segment
	fc_raid_5.ext3.8disks.16kSegment|controller=fc;raid=5;fs=ext3;disks=8;segment=16k|controller;raid;fs;disks;segment
	plainhost||
	scsi-raid0-reiserfs-2disks|controller=scsi;raid=0;fs=reiserfs;disks=2|controller;raid;fs;disks
	EOF
	test_cmp expect actual
'

test_expect_success '--label-pattern: the fields of a scheme of ones own' '
	"$CLYDE" report -f csv --label-pattern "{controller}-raid{raid}-{fs}-{disks}disks-{segment}Segment" \
		labels.csv >long.csv &&
	grep -q "^[0-9]*,[0-9]*,fc-raid5-xfs-4disks-8kbSegment,.*,controller=fc;raid=5;fs=xfs;disks=4;segment=8k,controller;raid;fs;disks;segment," long.csv &&
	# a label the pattern does not match falls back to the rules
	grep -q "^[0-9]*,[0-9]*,scsi-raid0-reiserfs-2disks,.*,controller=scsi;raid=0;fs=reiserfs;disks=2," long.csv &&
	"$CLYDE" report -f csv --label-pattern "{site}/{fs}" labels.csv >long.csv &&
	! grep -q "site=" long.csv
'

test_expect_success 'a malformed --label-pattern is bad usage' '
	test_expect_code 2 "$CLYDE" report -f text --label-pattern "{fs" labels.csv >out 2>err &&
	test_line_count = 1 err && grep -q "label-pattern" err &&
	test_expect_code 2 "$CLYDE" report -f text --label-pattern "{a}{b}" labels.csv 2>err &&
	test_line_count = 1 err
'

test_expect_success REALWORLD 'labels of the real-world files: only what they say' '
	for f in "$RW"/bonnie-* "$RW"/fio-*.json; do
		dims --concurrent-window 0 "$f"
	done | sort -u >actual &&
	# NVMe_4G names a transport; hosts, job names and sizes name nothing
	grep -q "^NVMe_4G|controller=nvme|controller$" actual &&
	test "$(grep -vc "^[^|]*||$" actual)" = 1 &&
	grep -q "^gce_pd-ssd||$" actual &&
	grep -q "^rand_16k_read_100%-io-depth-1-num-jobs-2||$" actual
'

test_expect_success 'pivot: eight seed-002 configurations by fs against controller and RAID, cell by cell' '
	"$CLYDE" report -f csv --rows fs --columns controller,raid --figure put_block \
		"$FIX/seed002-pivot.csv" >pivot.csv &&
	head -1 pivot.csv >head &&
	echo "test,unit,fs,controller=fc;raid=0,controller=fc;raid=5,controller=scsi;raid=0,controller=scsi;raid=5" >expect &&
	test_cmp expect head &&
	# every cell: the block write of the line whose label names it
	awk -F, "{ split(\$1, w, \"-\"); sub(\"raid\", \"\", w[2]);
		print w[3] \",\" \"controller=\" w[1] \";raid=\" w[2] \",\" \$5 }" \
		"$FIX/seed002-pivot.csv" | sort >expect &&
	sed -n "/^test,unit,row,column/,\$p" pivot.csv | tail -n +2 |
		awk -F, "{ printf \"%s,%s,%d\\n\", \$3, \$4, \$6; if (\$5 != 1 || \$11 != 1) exit 1 }" |
		sort >actual &&
	test_line_count = 8 actual &&
	test_cmp expect actual &&
	# and the wide rows say the same
	grep -q "^put_block,KiB/s,xfs,61000.000,41000.000,99000.000,77000.000$" pivot.csv &&
	grep -q "^put_block,KiB/s,jfs,58000.000,39000.000,95000.000,74000.000$" pivot.csv
'

test_expect_success 'pivot text: long dimension names still in 80 columns, the heading wrapped' '
	"$CLYDE" report -f text \
		--label-pattern "{controller_kind_of_the_array}-raid{raid_level_of_the_array}-{filesystem_type_used}" \
		--rows filesystem_type_used \
		--columns controller_kind_of_the_array,raid_level_of_the_array \
		"$FIX/seed002-pivot.csv" >long.txt &&
	test "$(LC_ALL=C.UTF-8 wc -L <long.txt)" -le 80 &&
	grep -q "^Block write (KiB/s): rows filesystem_type_used, columns$" long.txt &&
	grep -q "^  controller_kind_of_the_array,raid_level_of_the_array$" long.txt &&
	grep -q "^xfs-4disks-8kbSegment  *61,000 " long.txt
'

test_expect_success 'pivot text: one table per test, 80 columns, header per column dimension' '
	"$CLYDE" report -f text --rows fs --columns controller,raid "$FIX/seed002-pivot.csv" >out.txt &&
	test "$(LC_ALL=C.UTF-8 wc -L <out.txt)" -le 80 &&
	grep -q "^Block write (KiB/s): rows fs, columns controller,raid$" out.txt &&
	grep -q "^  *fc  *fc  *scsi  *scsi  controller$" out.txt &&
	grep -q "^fs  *0  *5  *0  *5  raid$" out.txt &&
	grep -q "^xfs  *61,000  *41,000  *99,000  *77,000$" out.txt &&
	grep -q "^Random seeks (seeks/s)" out.txt &&
	test_expect_code 2 "$CLYDE" report -f text --rows fs --columns nosuch "$FIX/seed002-pivot.csv" 2>err &&
	grep -q "nosuch" err &&
	test_expect_code 2 "$CLYDE" report -f text --rows fs "$FIX/seed002-pivot.csv" 2>err
'

test_expect_success JQ 'one layout on /dev/loop18 and /dev/loop19 is one configuration' '
	stack="[{\"kind\":\"loop\",\"name\":\"loop18\",\"parent\":-1,\"backing_file\":\"/tmp/a.img\",\"dio\":1},
		{\"kind\":\"file\",\"name\":\"/tmp/a.img\",\"parent\":0},
		{\"kind\":\"disk\",\"name\":\"vda\",\"parent\":1,\"transport\":\"virtio\"}]" &&
	head -1 "$FIX/clyde.jsonl" | jq -c --argjson s "$stack" \
		".label = \"xfs-raid0\" | .target.source = \"/dev/loop18\" | .target.path = \"/mnt/a\" | .params.directory = \"/mnt/a\" | .tags = {} | .target.stack = \$s" >two.jsonl &&
	head -1 "$FIX/clyde.jsonl" | jq -c --argjson s "$stack" \
		".label = \"xfs-raid0\" | .target.source = \"/dev/loop19\" | .target.path = \"/mnt/b\" | .params.directory = \"/mnt/b\" | .tags = {} | .target.stack = (\$s | .[0].name = \"loop19\" | .[0].backing_file = \"/tmp/b.img\")" >>two.jsonl &&
	"$CLYDE" report -f text two.jsonl >out.txt &&
	grep -q "^2 runs in 1 configuration$" out.txt &&
	grep -q "^  1 \* xfs-raid0.* (2 runs)$" out.txt &&
	# one loop device is one disk; the disk under its image is not
	# the controller of the layout
	"$CLYDE" report -f csv two.jsonl >long.csv &&
	grep -q ",\"fs=ext4;mount=rw,relatime;disks=1;raid=0\",raid," long.csv
'

test_expect_success JQ 'names: the emulation said once; runs that read alike are numbered' '
	head -1 "$FIX/clyde.jsonl" | jq -c ".label = \"vm\" | .host.virt = {\"vm\": true, \"hypervisor\": \"QEMU TCG\", \"emulation\": \"tcg\"}" >vm.jsonl &&
	head -1 "$FIX/clyde.jsonl" | jq -c ".label = \"vm\" | .host.virt = {\"vm\": true, \"hypervisor\": \"QEMU TCG\", \"emulation\": \"tcg\"} | .params.char_size = 2097152" >>vm.jsonl &&
	"$CLYDE" report -f text vm.jsonl >out.txt &&
	! grep -q "TCG TCG" out.txt &&
	grep -q "^  1 \* vm #1 \[VM: QEMU TCG, emulated\] (1 run)$" out.txt &&
	grep -q "^  2   vm #2 \[VM: QEMU TCG, emulated\] (1 run)$" out.txt &&
	sed -n "/^Block write/,/^$/p" out.txt >block &&
	test "$(grep "^vm " block | cut -c1-34 | sort -u | wc -l)" = 2
'

test_done
