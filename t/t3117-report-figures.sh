#!/bin/bash
# clyde report: matrix cells and their figures by name (--list-figures,
# --figure, the pivot), a pivot that has nothing to show is bad usage,
# and a pivot cell pools only runs that measured the same thing.
. "$(dirname "$0")/lib.sh"

FIX=$TEST_DIR/fixtures/report

test_have_prereq JQ || test_skip_all 'jq is needed to read the JSON records'

test_expect_success 'two real matrix runs of the xdisk profile, tagged by layout' '
	dir=$(mktemp -d /dev/shm/t3117.XXXXXX) &&
	test_cleanup "rm -rf \"$dir\"" &&
	for l in raid10 raid6; do
		"$CLYDE" matrix --profile xdisk -d "$dir" --bs 8k --threads 1,2 \
			--pattern random --mix 100,80 --size 1M --buffered \
			--time 0.05 --ramp 0 -m $l --tag layout=$l \
			--json s000.jsonl >/dev/null || return 1
	done &&
	test_line_count = 2 s000.jsonl
'

# cell JQ-SELECT FIELD LINE: a cell's figure in the record of line LINE
cell () {
	sed -n "$3p" s000.jsonl | jq -r ".matrix.cells[] | select($1) | $2"
}

test_expect_success '--list-figures: every figure of every cell, one a line' '
	"$CLYDE" report --list-figures s000.jsonl >list &&
	grep -qx "8K 2 thr qd 1 Random 80/20 IO/s" list &&
	grep -qx "8K 2 thr qd 1 Random 80/20 MB/s" list &&
	grep -qx "8K 2 thr qd 1 Random 80/20 mean read ms" list &&
	grep -qx "8K 2 thr qd 1 Random 80/20 p99 write ms" list &&
	grep -qx "8K 1 thr qd 1 Random 100% read p99.9 read ms" list &&
	! grep -q "100% read .* write ms" list &&
	# 4 cells: IO/s, MB/s, CPU and 7 latency figures per side
	test_line_count = $((4 * 3 + 2 * 7 + 2 * 14)) list &&
	test "$(sort -u list | wc -l)" = "$(wc -l <list)"
'

test_expect_success 'pivot over matrix records: a table per cell, the cells measured' '
	"$CLYDE" report -f text --rows layout --columns raid s000.jsonl >out.txt &&
	test "$(LC_ALL=C.UTF-8 wc -L <out.txt)" -le 80 &&
	grep -q "^8K 2 thr qd 1 Random 80/20 IO/s: rows layout, columns raid$" out.txt &&
	v=$(cell ".threads == 2 and .read_pct == 80" ".iops | round" 2) &&
	# rates grouped by thousands in the text (issue 21)
	v=$(echo "$v" | sed -e :a -e "s/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/;ta") &&
	grep -q "^raid6  *$v *$" out.txt &&
	"$CLYDE" report -f csv --rows layout --columns raid s000.jsonl >p.csv &&
	v=$(cell ".threads == 1 and .read_pct == 100" ".iops" 1) &&
	row=$(grep "^8K 1 thr qd 1 Random 100% read IO/s,IO/s,raid10,raid=10,1," p.csv) &&
	awk -v a="$(echo "$row" | cut -d, -f6)" -v b="$v" \
		"BEGIN { exit !(a > 0 && (a - b) / b < 1e-4 && (b - a) / b < 1e-4) }" &&
	test "$(grep -c ",IO/s,raid" p.csv)" = 16 &&
	"$CLYDE" report -o page.html --rows layout --columns raid s000.jsonl &&
	grep -q "<table class=\"pivot\" data-test=\"8K 2 thr qd 1 Random 80/20 IO/s\"" page.html
'

test_expect_success '--figure: one cell in the spellings the tables print' '
	v=$(cell ".threads == 2 and .read_pct == 80" ".iops" 2) &&
	for name in "8K 2 thr qd 1 Random 80/20 IO/s" \
		"8k 2 threads qd 1 random 80/20 iops" \
		"8K block size — 2 threads, Random 80/20 IO/s" \
		"matrix 8k 2 random 80 io/s" "8KiB 2x1 rand 80% read IO/s"; do
		"$CLYDE" report -f csv --rows layout --columns raid \
			--figure "$name" s000.jsonl >f.csv &&
		test "$(grep -c "^8K 2 thr qd 1 Random 80/20 IO/s,IO/s,raid6,raid=6,1," f.csv)" = 1 &&
		test "$(grep -c ",IO/s,raid" f.csv)" = 4 || { echo "$name"; return 1; }
	done &&
	# a cell without a figure word: its XDISK figures
	"$CLYDE" report -f csv --rows layout --columns raid \
		--figure "8K 2 thr Random 80/20" s000.jsonl >f.csv &&
	test "$(grep -c "^test,unit,layout" f.csv)" = 4 &&
	grep -q "^8K 2 thr qd 1 Random 80/20 mean write ms,ms,raid10,," f.csv &&
	# and one latency figure
	"$CLYDE" report -f text --rows layout --columns raid \
		--figure "8K 2 thr Random 80/20 read p99" s000.jsonl >f.txt &&
	grep -q "^8K 2 thr qd 1 Random 80/20 p99 read ms: rows" f.txt
'

test_expect_success 'a pivot with nothing to show is exit 2 with the reason' '
	test_expect_code 2 "$CLYDE" report -f text --rows layout --columns raid \
		--figure "16K 2 thr Random 80/20" s000.jsonl >out 2>err &&
	test ! -s out && test_line_count = 1 err &&
	grep -q "no run has a figure of that name" err &&
	test_expect_code 2 "$CLYDE" report -f csv --rows layout --columns raid \
		--figure "8K 2 thr Randomm 80/20" s000.jsonl >out 2>err &&
	test ! -s out && grep -q "randomm" err &&
	# a record with neither tests nor cells
	sed -n 1p s000.jsonl | jq -c ".matrix.cells = []" >empty.jsonl &&
	test_expect_code 2 "$CLYDE" report -o page.html --rows layout --columns raid \
		empty.jsonl 2>err &&
	test ! -e page2.html && grep -q "nothing to lay out" err
'

test_expect_success 'a pivot cell pools only comparable runs, the others apart and named' '
	{ head -1 "$FIX/bonnie-1.03.csv" &&
	  echo "fc-xfs,5G,21340,89,270000,25,15234,12,20987,88,45678,18,215.3,1,16,1234,98,+++++,+++,2345,97,1300,99,+++++,+++,1987,95"
	} >b103.csv &&
	for r in 1 2; do
		head -1 "$FIX/clyde.jsonl" | jq -c --argjson r $r "
			.label = \"fc-xfs\" | .repetition = \$r |
			.target.fstype = \"xfs\" | .params.file_size = 268435456 |
			(.results[] | select(.name == \"put_block\") | .value) = (270000 + \$r * 1000)" ||
		return 1
	done >c256.jsonl &&
	"$CLYDE" report -f text --rows fs --columns controller --figure "Block write" \
		b103.csv c256.jsonl >out.txt &&
	grep -q "^xfs \[a\]  *270,000$" out.txt &&
	grep -q "^xfs \[b\]  *271,500$" out.txt &&
	grep -q "^\[a\] bonnie++, file 5G$" out.txt &&
	grep -q "^\[b\] clyde, file 256M$" out.txt &&
	! grep -q "N+" out.txt &&
	"$CLYDE" report -f csv --rows fs --columns controller --figure "Block write" \
		b103.csv c256.jsonl >p.csv &&
	grep -q "^put_block,KiB/s,xfs,271500.000,\"clyde, file 256M\"$" p.csv &&
	grep -q "^put_block,KiB/s,xfs,controller=fc,2,271500.000,.*,1,\"clyde, file 256M\"$" p.csv &&
	grep -q "^put_block,KiB/s,xfs,controller=fc,1,270000.000,,,,,1,\"bonnie++, file 5G\"$" p.csv
'

test_expect_success 'two curve runs that differ only by hit %' '
	dir=$(mktemp -d /dev/shm/t3117c.XXXXXX) &&
	test_cleanup "rm -rf \"$dir\"" &&
	for h in 100 0; do
		"$CLYDE" matrix --profile vdbench-hit -d "$dir" --size 4M \
			--threads 2 --hit-pct $h --curve 10,50,90 --buffered \
			--time 0.1 --ramp 0 -m vsp --json s001.jsonl >/dev/null ||
		return 1
	done &&
	"$CLYDE" report --list-figures s001.jsonl >list &&
	grep -qx "8K 2 thr qd 1 Random 100% read hit 1M 100% IO/s" list &&
	grep -qx "8K 2 thr qd 1 Random 100% read hit 1M 0% curve 50% p99 read ms" list &&
	# the same shape without a hit area: its listed name is it alone,
	# a name that leaves the hit out is every hit area and %
	"$CLYDE" matrix -d "$dir" --bs 8k --threads 2 --pattern random --mix 100 \
		--size 4M --buffered --time 0.05 --ramp 0 -m vsp \
		--json nohit.jsonl >/dev/null &&
	for n in "8K 2 thr qd 1 Random 100% read IO/s:1" \
		"8K 2 thr Random 100% read IO/s:3" \
		"8K 2 thr Random 100% read hit 0 IO/s:1" \
		"8K 2 thr Random 100% read hit 1M IO/s:2"; do
		"$CLYDE" report -f csv --label-pattern "{site}" --rows site \
			--columns fs --figure "${n%:*}" s001.jsonl nohit.jsonl >f.csv &&
		test "$(grep -c "^test,unit,site" f.csv)" = "${n##*:}" ||
		{ echo "$n"; return 1; }
	done
'

# Cells that differ only by hit % are two rows, two curves: each names its
# hit area and hit %; a configuration without a cell has no curve table and
# no legend entry in its chart; each run says its workload in the HTML.
test_expect_success 'cells apart by hit %: named in text and HTML, no empty curve table' '
	"$CLYDE" report -f text s001.jsonl >hit.txt &&
	grep -qx "Rate curve: 8K block size — 2 threads, Random 100% read, hit 1M 100%" hit.txt &&
	grep -qx "Rate curve: 8K block size — 2 threads, Random 100% read, hit 1M 0%" hit.txt &&
	sed -n "/^Matrix side by side/,/^Rate curve/p" hit.txt >sb.txt &&
	grep -A1 "^Random     100% read " sb.txt | grep -qx "           hit 1M 100%" &&
	grep -A1 "^Random     100% read " sb.txt | grep -qx "           hit 1M 0%" &&
	test "$(LC_ALL=C.UTF-8 wc -L <hit.txt)" -le 80 &&
	"$CLYDE" report -o hit.html s001.jsonl &&
	grep -q "<h3>8K block size — 2 threads, Random 100% read, hit 1M 100%</h3>" hit.html &&
	grep -q "<h3>8K block size — 2 threads, Random 100% read, hit 1M 0%</h3>" hit.html &&
	grep -q "<th>100% read at 50%<br>hit 1M 0%</th>" hit.html &&
	test "$(grep -c "<table class=\"curve\">" hit.html)" = 2 &&
	test "$(grep -o "<g class=\"key\" data-group=" hit.html | wc -l)" = 2 &&
	grep -q "<p class=\"workload\">Workload: --profile vdbench-hit, hit area 1M, 100 % hits</p>" hit.html &&
	grep -q "<p class=\"workload\">Workload: --profile vdbench-hit, hit area 1M, 0 % hits</p>" hit.html
'

# best LINE T: the most IO/s of the cell and its curve points in the
# record of line LINE with a read p99 at most T ms
best () {
	sed -n "$1p" s001.jsonl | jq --argjson t "$2" "
		.matrix.cells[0] | [., .curve[]] |
		map(select(.status == \"ok\" and .read_latency_ms.p99 <= \$t) | .iops) |
		max // 0"
}
# fastest LINE: the lowest read p99 of the cell and its points, + 0.5 us
fastest () {
	sed -n "$1p" s001.jsonl | jq ".matrix.cells[0] | [., .curve[]] |
		map(select(.status == \"ok\") | .read_latency_ms.p99) | min + 0.0005"
}

test_expect_success 'criteria: IO/s reached at a response time, bounds apart by hit %' '
	t=$(fastest 1) && t=$(printf "%.6f" "$t") && e=$(best 1 $t) && e=${e%.*} &&
	awk -v e=$e "BEGIN { exit !(e > 0) }" &&
	cat >at.ini <<-EOF &&
	[8K 2 thr Random 100% read hit 1M 100%]
	min_iops_at_p99 = $e IO/s at $t ms
	[8k 2 threads random 100% read hit 0%]
	min_iops_at_mean = 1M IO/s at 0.001 ms
	EOF
	test_expect_code 3 "$CLYDE" report -f csv --criteria at.ini s001.jsonl >at.csv 2>err &&
	tail -1 err | grep -q "FAIL, 1 of 2 checks failed" &&
	# the hit-100 % run passes its own bound, the hit-0 % run fails its own
	grep "^1,1,vsp,.*,matrix,8K 2 thr qd 1 Random 100% read hit 1M 100%," at.csv |
		grep -q "min_iops_at_p99 $e IO/s at $t ms: pass" &&
	grep "^2,2,vsp,.*,matrix,8K 2 thr qd 1 Random 100% read hit 1M 0%," at.csv |
		grep -q "min_iops_at_mean 1M IO/s at 0.001 ms: fail" &&
	# one IO/s more than reached at that time fails
	printf "[8K 2 thr Random 100%% read hit 1M 100%%]\nmin_iops_at_p99 = %s at %s ms\n" \
		$((e + 1)) $t >at2.ini &&
	test_expect_code 3 "$CLYDE" report -f text --criteria at2.ini s001.jsonl >at2.txt 2>err &&
	tail -1 err | grep -q "FAIL, 1 of 1 checks failed" &&
	# the bound whole in the verdict table, as seed 001 writes it
	# and the figure whole (on a line of its own when its column is
	# too narrow)
	grep -q "^1\*   8K 2 thr qd 1 Random 100% read hit 1M 100%" at2.txt &&
	grep -q " min_iops_at_p99 $((e + 1)) at $t ms  *[0-9,]* IO/s  *FAIL$" at2.txt &&
	test "$(LC_ALL=C.UTF-8 wc -L <at2.txt)" -le 80
'

test_expect_success 'criteria: a section names a cell or one figure of it' '
	v=$(jq -s "[.[].matrix.cells[] | select(.threads == 2 and .read_pct == 80) | .iops] | min | floor" s000.jsonl) &&
	cat >fig.ini <<-EOF &&
	[8K 2 thr qd 1 Random 80/20 IO/s]
	min = $v
	[8K 2 thr qd 1 Random 80/20 p99 write ms]
	max = 10 s
	[8K 1 thr Random 100% read]
	min_iops = 1
	EOF
	"$CLYDE" report -f text --criteria fig.ini -b raid10 s000.jsonl >out.txt 2>err &&
	tail -1 err | grep -q "PASS, 0 of 6 checks failed" &&
	# a figure'"'"'s section: the verdict names the key that bounds it
	grep -q "^1\*  *8K 2 thr qd 1 Random 80/20  *max_write_p99  *10 s .* pass$" out.txt &&
	grep -q "^2  *8K 2 thr qd 1 Random 80/20  *min_iops  *$v IO/s .* pass$" out.txt &&
	printf "[8K 2 thr qd 1 Random 80/20 IO/s]\nmax = 5\n" >bad.ini &&
	test_expect_code 2 "$CLYDE" report -f text --criteria bad.ini s000.jsonl >out 2>err &&
	test_line_count = 1 err && grep -q "does not bound the figure" err &&
	printf "[matrix 8k 2 rnd 80]\nmin_iops = 5\n" >bad.ini &&
	test_expect_code 2 "$CLYDE" report -f text --criteria bad.ini s000.jsonl >out 2>err &&
	grep -q "not a matrix cell: .rnd." err &&
	printf "[8K 2 thr Randomm 80/20]\nmin_iops = 5\n" >bad.ini &&
	test_expect_code 2 "$CLYDE" report -f text --criteria bad.ini s000.jsonl >out 2>err &&
	test_line_count = 1 err && grep -q "not a matrix cell: .randomm. is not a word" err
'

test_expect_success 'regression watch over matrix cells: IO/s halved is a significant DOWN' '
	for f in 1 1.02 2 2.04; do
		sed -n 1p s000.jsonl | jq -c --argjson f $f "
			.repetition = (if \$f == 1 or \$f == 2 then 1 else 2 end) |
			.matrix.cells |= map(.elapsed *= \$f)" || return 1
	done >all.jsonl &&
	head -2 all.jsonl >old.jsonl && tail -2 all.jsonl >new.jsonl &&
	"$CLYDE" report -f text --baseline-file old.jsonl new.jsonl >out.txt &&
	# (a cell of a loaded machine may have done no write: its mean
	# write ms is then no figure, so the count is not fixed)
	grep -q "^Regression watch against old.jsonl: [0-9]* significant changes in 1[0-4] compared" out.txt &&
	grep -A1 "^    8K 2 thr qd 1 Random 80/20:$" out.txt | grep -q "^1 *raid10 *IO/s .* 0.50 DOWN$" &&
	grep -A1 "^    8K 1 thr qd 1 Random 100% read:$" out.txt | grep -q "^1 *raid10 *MB/s .* 0.50 DOWN$"
'

test_done
