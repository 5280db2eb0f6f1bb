#!/bin/bash
# clyde report: the long CSV (one row per run and test), bonnie++ 1.98
# lines that bonnie++'s own tools render, and the 80-column text.
. "$(dirname "$0")/lib.sh"

FIX=$TEST_DIR/fixtures/report
ALL="$FIX/bonnie-1.03.csv $FIX/bonnie-1.97.csv $FIX/bonnie-1.98.csv
$FIX/fio-write.json $FIX/fio-randread-plus.json $FIX/fio-client.json
$FIX/clyde.jsonl"

# col NAME: the column number of NAME in long.csv's header
col () {
	head -1 long.csv | tr , "\n" | grep -nx "$1" | cut -d: -f1
}

test_expect_success 'long CSV: a header, one row per run and test' '
	"$CLYDE" report -f csv -o long.csv $ALL &&
	head -1 long.csv | grep -q "^run,config,label,tool,version,source," &&
	# every run with a result that was run: 12 per bonnie++/clyde run
	# (1.03: 2, 1.9x: 2, 1.98: 2, clyde: 3), fio: 1 + 1 + 1, and each
	# fio job as a matrix cell: 3
	test "$(tail -n +2 long.csv | wc -l)" = $((9 * 12 + 3 + 3)) &&
	test "$(tail -n +2 long.csv | cut -d, -f1 | sort -u | wc -l)" = 12
'

test_expect_success 'long CSV: values in their columns, units, modes' '
	v=$(col value) && u=$(col unit) && m=$(col char_io) && c=$(col cpu) &&
	grep ",old-scsi-ext3,.*,putc," long.csv >row &&
	test "$(cut -d, -f$v,$c,$u,$m row)" = "KiB/s,21340.000,89.0,stdio" &&
	grep ",old-scsi-ext3,.*,put_block," long.csv >row &&
	test "$(cut -d, -f$v,$c row)" = "40123.000,25.0" &&
	grep ",fc-raid5,.*,putc," long.csv >row &&
	test "$(cut -d, -f$v,$m row)" = "520.000,syscall" &&
	grep ",deb-big,.*,rewrite," long.csv >row &&
	test "$(cut -d, -f$(col status),$v row)" = "skipped," &&
	grep ",fc-raid5,.*,seq_del," long.csv >row &&
	test "$(cut -d, -f$(col lat_max_us) row)" = 2000000.000
'

test_expect_success JQ 'long CSV: labels with commas and quotes are quoted' '
	head -1 "$FIX/clyde.jsonl" | jq -c ".label = \"a,b \\\"c\\\"\"" >q.jsonl &&
	"$CLYDE" report -f csv q.jsonl >long.csv &&
	grep -q "^1,1,\"a,b \"\"c\"\"\",clyde," long.csv &&
	test "$(tail -n +2 long.csv | wc -l)" = 12
'

# test_col FILE NAME: column NAME of every row of the long CSV FILE, a line each
test_col () {
	COL=$2 perl -MText::ParseWords -ne '
		chomp; my @f = parse_line(",", 0, $_);
		if ($. == 1) { %c = map { $f[$_] => $_ } 0..$#f; next }
		print "$f[$c{test}]|$f[$c{$ENV{COL}}]\n"' "$1"
}

test_expect_success JQ 'long CSV: the reason of a failed or stopped test; a stopped one has no latency' '
	head -1 "$FIX/clyde.jsonl" | jq -c "
		(.results[] | select(.name == \"rewrite\")) |= (.status = \"skipped\" |
			.reason = \"interrupted by signal 2 (SIGINT)\" | .value = null |
			.low_precision = false) |
		(.results[] | select(.name == \"putc\")) |= (.status = \"failed\" |
			.reason = \"cannot write a,b: No space left on device\")" \
		>why.jsonl &&
	"$CLYDE" report -f csv why.jsonl >why.csv &&
	test_col why.csv reason >reasons &&
	grep -qx "rewrite|interrupted by signal 2 (SIGINT)" reasons &&
	grep -qx "putc|cannot write a,b: No space left on device" reasons &&
	grep -qx "put_block|" reasons &&
	# the stopped test: no latency; the failed one keeps what it measured
	for k in mean min p50 p90 p99 p99_9 max; do
		test_col why.csv lat_${k}_us | grep -qx "rewrite|" &&
		test_col why.csv lat_${k}_us | grep -q "^putc|[0-9]" || return 1
	done
'

test_expect_success '--format bonnie: 1.98 lines, +++++ kept, fields kept' '
	"$CLYDE" report -f bonnie "$FIX/bonnie-1.98.csv" >b.csv &&
	test_line_count = 2 b.csv &&
	cut -d, -f8- b.csv >actual &&
	cut -d, -f8- "$FIX/bonnie-1.98.csv" >expect &&
	test_cmp expect actual &&
	test "$(head -1 b.csv | tr , "\n" | wc -l)" = 50
'

test_expect_success '--format bonnie: a run with no bonnie++ test is left out, said once, never an empty line' '
	"$CLYDE" report -f bonnie "$FIX/fio-randread-plus.json" "$FIX/fio-write.json" \
		>b.csv 2>err &&
	test_line_count = 1 b.csv &&
	grep -q "^1.98,fio-fio-3.33,seqw," b.csv &&
	test_line_count = 1 err &&
	grep -q "^clyde report: warning: 1 run without a bonnie++ test (matrix cells, fio jobs other than sequential read or write) left out" err
'

test_expect_success BONNIE '--format bonnie: bon_csv2html and bon_csv2txt render 1.03, 1.97 and clyde' '
	"$CLYDE" report -f bonnie $ALL >b.csv &&
	test "$(awk -F, "{ print NF }" b.csv | sort -u)" = 50 &&
	bon_csv2html <b.csv >b.html &&
	grep -q "old-scsi-ext3" b.html &&
	grep -q "fc-raid5" b.html &&
	bon_csv2txt <b.csv >b.txt &&
	# 1.03 per-char write 21340 K/s = 20.8m, block write 40123 = 39.2m
	# (no seeks/seekers invented for 1.03 and an empty 1.97 chunk: F22)
	grep -q "^old-scsi-ext3  300M 20.8m  89 39.2m  25" b.txt &&
	grep -q "^fc-raid5         2G  520k  99  244m  35" b.txt
'

test_expect_success 'text: 80 columns, a row per configuration and test' '
	"$CLYDE" report -f text $ALL >out.txt &&
	test "$(LC_ALL=C.UTF-8 wc -L <out.txt)" -le 80 &&
	grep -q "^Block write  *KiB/s" out.txt &&
	grep -q "^  1 \* old-scsi-ext3 (1 run)" out.txt &&
	sed -n "/^Block write/,/^$/p" out.txt >block &&
	grep -q "^fc-raid5  *250,000  *-  *1  *35  *6.23 *$" block &&
	sed -n "/^Per-char write/,/^$/p" out.txt >putc &&
	grep -q "^old-fc-xfs  *23,111 .* 1.08 S$" putc &&
	grep -q "^fc-raid5  *520 .*  - *$" putc
'

# cols FILE: the widest line in display columns (UTF-8 characters)
cols () {
	LC_ALL=C.UTF-8 wc -L <"$1"
}

# records of the fixture's first run with label $2.. and host.virt $1
vm_runs () {
	virt=$1 && shift &&
	for l in "$@"; do
		head -1 "$FIX/clyde.jsonl" |
		jq -c ".label = \"$l\" | .host.virt = $virt" || return 1
	done
}

test_expect_success 'text: the latency of each test, the seven figures of every writer (issue 12)' '
	"$CLYDE" report -f text $ALL >out.txt &&
	test "$(cols out.txt)" -le 80 &&
	sed -n "/^Latency: Block write$/,/^$/p" out.txt | grep . >lat &&
	sed -n 2p lat | grep -qx " \{17\}    ops    mean     min     p50     p90     p99   p99.9     max" &&
	# a clyde run: every figure, min <= p50 <= max read back in ns
	awk "
	function ns(v) {
		if (v ~ /ns\$/) return v + 0; if (v ~ /us\$/) return v * 1e3
		if (v ~ /ms\$/) return v * 1e6; if (v ~ /s\$/) return v * 1e9
		return -1
	}
	NR > 2 && \$0 ~ /^base / {
		n = split(substr(\$0, 18), f, \" +\")
		if (f[1] == \"\") { for (i = 1; i < n; i++) f[i] = f[i + 1]; n-- }
		if (n != 8 || f[1] !~ /^[0-9]+\$/) exit 1
		for (i = 2; i <= 8; i++) if (ns(f[i]) < 0) exit 1
		if (!(ns(f[3]) <= ns(f[4]) && ns(f[4]) <= ns(f[8]))) exit 1
		ok = 1
	}
	END { exit !ok }" lat &&
	# a bonnie++ 1.03 line knows no latency; a 1.98 line only the maximum
	! grep -q "^old-scsi-ext3 " lat &&
	grep -qx "fc-raid5 \{9\}    max\( \{7\}-\)\{6\}   450ms" lat
'

test_expect_success JQ 'text: labels that differ in the RAID level stay apart; a VM mark on every row said once (F15)' '
	vm_runs "{\"vm\": true, \"hypervisor\": \"KVM\"}" \
		fc-raid5-ext4 fc-raid0-ext4 scsi-raid0-ext4 >vm.jsonl &&
	"$CLYDE" report -f text --baseline-file vm.jsonl vm.jsonl >out.txt &&
	test "$(cols out.txt)" -le 80 &&
	# said once above the regression table and once above the tables
	test "$(grep -c "^Every configuration \[VM: KVM\]: measured in a virtual" out.txt)" = 2 &&
	grep -q "^  2   fc-raid0-ext4 \[VM: KVM\] (1 run)$" out.txt &&
	grep "^[0-9]  *.* Block write  " out.txt >rows &&
	test_line_count = 3 rows &&
	! grep -q "VM" rows &&
	cut -c5-24 rows | sort -u >names &&
	test_line_count = 3 names &&
	grep -qx "fc-raid5-ext4 *" names && grep -qx "fc-raid0-ext4 *" names &&
	grep -qx "scsi-raid0-ext4 *" names &&
	sed -n "/^Block write /,/^$/p" out.txt >block &&
	grep -q "^fc-raid5-ext4  *674,197 " block &&
	grep -q "^fc-raid0-ext4  *674,197 " block &&
	grep -q "^scsi-raid0-ext4  *674,197 " block
'

test_expect_success JQ 'text: long labels clipped where they agree, the RAID level kept; 80 columns (F15, F8)' '
	p=a-long-clyde-label-for-the-controller &&
	s=ext4-with-noatime-and-barrier &&
	{ vm_runs "{\"vm\": true, \"hypervisor\": \"KVM\"}" \
		$p-fc-raid5-$s $p-fc-raid0-$s &&
	  vm_runs "{\"vm\": false}" $p-scsi-raid0-$s; } >long.jsonl &&
	for r in 5 0; do
		jq -c ".jobs[0].jobname = \"fio-job-for-the-fc-array-raid$r-ext4-noatime-barrier-iodepth-16-numjobs-1\"" \
			"$FIX/fio-randread-plus.json" >fio$r.json || return 1
	done &&
	"$CLYDE" report -f text --baseline-file long.jsonl fio5.json fio0.json \
		long.jsonl >out.txt &&
	test "$(cols out.txt)" -le 80 &&
	# the list names each whole (wrapped), the tables clip
	tr -d "\n" <out.txt | tr -s " " | grep -q "fio-job-for-the-fc-array-raid5-ext4-noatime-barrier-iodepth-16-numjobs-1 (1 run)" &&
	sed -n "/^Block write /,/^$/p" out.txt | grep . >block &&
	test_line_count = 4 block &&
	grep -q "fc-raid5.*\[VM: KVM\]  *674,197 " block &&
	grep -q "fc-raid0.*\[VM: KVM\]  *674,197 " block &&
	grep -q "scsi-raid0.*  674,197 " block &&
	test "$(cut -c1-34 block | sort -u | wc -l)" = 4 &&
	# regression rows, 20 columns: still three names, the level in each
	grep "^[0-9]  *.* Block write  " out.txt | cut -c5-24 >names &&
	test "$(sort -u names | wc -l)" = 3 &&
	sed -n 1p names | grep -q "aid5" && sed -n 2p names | grep -q "aid0" &&
	# the side-by-side matrix: a name line per fio job, each its level
	grep "^\[[12]\] " out.txt >mx &&
	test_line_count = 2 mx &&
	grep -q "^\[1\] .*raid5.* (fio, psync)$" mx &&
	grep -q "^\[2\] .*raid0.* (fio, psync)$" mx &&
	# a run header too long for a line is wrapped, the label whole
	grep -A1 "^Run 1: fio, label" out.txt |
		grep -qx "    fio-job-for-the-fc-array-raid5-ext4-noatime-barrier-iodepth-16-numjobs-1"
'

# Labels that differ only in their middle, both ends shared by half the
# others: the tables cut each at both ends ("...lun07-raid6...") and keep
# what tells it apart, every name different (compare_names.c's elide).
test_expect_success JQ 'text: labels told apart in their middle are cut at both ends, each kept different' '
	for i in $(seq 10 29); do
		site=A; [ $((i % 2)) = 0 ] || site=B
		host=alpha; [ $((i / 2 % 2)) = 0 ] || host=bravo
		vm_runs "{\"vm\": false}" \
			site$site-array-fc-model-9000-firmware-lun$i-raid$((i % 3 + 5))-nightly-run-on-host-$host-with-direct-io ||
			return 1
	done >mid.jsonl &&
	"$CLYDE" report -f text mid.jsonl >out.txt &&
	test "$(cols out.txt)" -le 80 &&
	sed -n "/^Block write /,/^$/p" out.txt | sed 1d | grep . >block &&
	test_line_count = 20 block &&
	cut -c1-34 block | sort -u >names &&
	test_line_count = 20 names &&
	grep -c "^\.\.\.[^ ]*\.\.\. " block >both &&
	test "$(cat both)" -ge 10 &&
	i=10 && while read -r name rest; do
		case $name in *$i-raid*) ;; *) echo "row $i: $name"; return 1 ;; esac
		i=$((i + 1))
	done <block
'

test_expect_success JQ 'text: wide characters take two columns, combining marks none: 80 columns by wc -L, rows aligned (F1)' '
	w="ÄÖÜ-ééé-日本語-ボリューム-テスト-ラベル-長い-名前-です" &&
	for r in 5 0; do
		head -1 "$FIX/clyde.jsonl" |
			jq -c --arg l "$w-raid$r" ".label = \$l" &&
		head -1 "$FIX/clyde.jsonl" |
			jq -c --arg l "$(printf "e\314\201")-$w-raid$r" ".label = \$l" ||
		return 1
	done >wide.jsonl &&
	"$CLYDE" report -f text wide.jsonl >out.txt &&
	test "$(cols out.txt)" -le 80 &&
	sed -n "/^Block write /,/^$/p" out.txt | grep . | sed 1d >block &&
	test_line_count = 4 block &&
	# the figures end in the same display column on every row
	while IFS= read -r line; do
		printf "%s\n" "${line%% 1 *}" | LC_ALL=C.UTF-8 wc -L
	done <block | sort -u >ends &&
	test_line_count = 1 ends &&
	test "$(grep -c raid5 block)" = 2 && test "$(grep -c raid0 block)" = 2
'

test_expect_success JQ 'text: each failed or stopped test named per run with its reason, escaped, 80 columns (F5)' '
	head -1 "$FIX/clyde.jsonl" | jq -c "
		(.results[] | select(.name == \"rewrite\")) |= (.status = \"skipped\" |
			.reason = \"interrupted by signal 2 (SIGINT)\" | .value = null |
			.low_precision = false) |
		(.results[] | select(.name == \"put_block\")) |= (.status = \"failed\" |
			.reason = \"write /mnt/e/Bonnie.2384\u001b[2J: No space left on device in a path long enough to need a second line\") |
		(.results[] | select(.name == \"getc\")) |= (.status = \"skipped\" |
			.reason = \"not run: interrupted by signal 2\" | .value = null |
			.low_precision = false)" \
		>why.jsonl &&
	head -1 "$FIX/clyde.jsonl" | jq -c ".label = \"fine\"" >>why.jsonl &&
	"$CLYDE" report -f text why.jsonl >out.txt &&
	test "$(cols out.txt)" -le 80 &&
	! grep -q "$(printf "\033")" out.txt &&
	sed -n "/^Tests that failed or were stopped/,/^$/p" out.txt >why &&
	tr "\n" " " <why | tr -s " " >joined &&
	grep -q "Run 1 (xfs<script>alert(1)</script>): Rewrite skipped: interrupted by signal 2 (SIGINT) " joined &&
	grep -q "Run 1 (xfs<script>alert(1)</script>): Block write failed: write /mnt/e/Bonnie.2384\\\\x1b\[2J: No space left on device in a path long enough to need a second line Run 1" joined &&
	# a test the stop kept from starting: "not run", said once
	grep -q "Run 1 (xfs<script>alert(1)</script>): Per-char read not run: interrupted by signal 2 " joined &&
	test "$(grep -c "^Run " why)" = 3 &&
	! grep -q "^Run 2" why
'

# shared/realworld beside the repository (a worktree: one level up more)
RW=${CLYDE_REALWORLD:-$TEST_DIR/../../shared/realworld}
[ -n "${CLYDE_REALWORLD:-}" ] || [ -d "$RW" ] ||
	RW=$TEST_DIR/../../../shared/realworld
test_lazy_prereq REALWORLD 'ls "$RW"/fio-*.json'

test_expect_success REALWORLD 'text of the real-world files: every line in 80 columns (F8)' '
	# every file with results (README.md and an fio error log have none)
	"$CLYDE" report -f text $(ls "$RW"/bonnie-* "$RW"/fio-*.json |
		grep -v error-only) >rw.txt 2>/dev/null &&
	test "$(cols rw.txt)" -le 80 &&
	# repeats of a bonnie++ 1.97 label, never summed as copies
	tr -d "\n" <rw.txt | tr -s " " | grep -q "NVMe_4G (9 runs)" &&
	! grep -q "separately timed" rw.txt &&
	test "$(grep -c "^ *[0-9][0-9]* [* ] " rw.txt)" = "$(sed -n "s/^[0-9]* runs in \([0-9]*\) configurations$/\1/p" rw.txt)"
'

test_done
