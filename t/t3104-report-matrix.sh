#!/bin/bash
# clyde report over clyde matrix records (XDISK tables in HTML, text and
# long CSV, figures in their cells), the VM/emulation mark wherever runs
# are named, and the per-worker rows of clyde -c N.
. "$(dirname "$0")/lib.sh"

FIX=$TEST_DIR/fixtures/report

test_have_prereq JQ || test_skip_all 'jq is needed to read the JSON records'

# xp XPATH: the string value of XPATH in page.html
xp () {
	xmllint --xpath "string($1)" page.html
}
# mx BS:THREADS:QD:PATTERN:READ_PCT ROW GROUP: a matrix cell's data-v
mx () {
	xp "//*[local-name()='td'][@data-mx='$1'][@data-row='$2'][@data-group='$3'][not(@data-pt)]/@data-v"
}

test_expect_success 'two real matrix runs and a real -c 2 run' '
	dir=$(mktemp -d /dev/shm/t3104.XXXXXX) &&
	test_cleanup "rm -rf \"$dir\"" &&
	for l in mx-a mx-b; do
		"$CLYDE" matrix -d "$dir" --bs 4k,64k --threads 1,2 \
			--pattern random,seq --mix 100,0,70 --size 4M \
			--time 0.05 --ramp 0 -m $l --json m.jsonl \
			$(test $l = mx-b && echo --buffered --curve 50) \
			>/dev/null || return 1
	done &&
	"$CLYDE" -c 2 -d "$dir" -s 8M -f1 -n 1 -m work2 --json w.jsonl \
		>/dev/null 2>&1 &&
	test_line_count = 2 m.jsonl && test_line_count = 1 w.jsonl &&
	jq -e ".results[] | select(.name == \"put_block\") |
		(.workers | length) == 2" w.jsonl
'

test_expect_success XMLLINT 'HTML: one XDISK table per block size and threads, figures in their cells' '
	"$CLYDE" report -o page.html -b mx-a m.jsonl w.jsonl &&
	xmllint --noout page.html &&
	test "$(xp "count(//*[local-name()=\"table\"][@class=\"matrix\"])")" = 4 &&
	for g in 1 2; do
		sed -n ${g}p m.jsonl | jq -r ".matrix.cells[] |
			\"\(.bs):\(.threads):\(.qd):\(.pattern):\(.read_pct) \(.iops) \(.mbps) \(.read_latency_ms.mean // \"-\") \(.write_latency_ms.mean // \"-\")\"" >cells &&
		test_line_count = 24 cells &&
		while read key iops mbps rd wr; do
			awk -v a="$(mx $key iops $g)" -v b="$iops" \
				"BEGIN { exit !(a > 0 && (a - b) / b < 1e-6 && (b - a) / b < 1e-6) }" &&
			awk -v a="$(mx $key mbps $g)" -v b="$mbps" \
				"BEGIN { exit !(a > 0 && (a - b) / b < 1e-6 && (b - a) / b < 1e-6) }" &&
			if test "$rd" != -; then
				awk -v a="$(mx $key read_ms $g)" -v b="$rd" \
					"BEGIN { exit !((a - b) / b < 1e-6 && (b - a) / b < 1e-6) }"
			else
				test -z "$(mx $key read_ms $g)"
			fi &&
			if test "$wr" != -; then
				awk -v a="$(mx $key write_ms $g)" -v b="$wr" \
					"BEGIN { exit !((a - b) / b < 1e-6 && (b - a) / b < 1e-6) }"
			else
				test -z "$(mx $key write_ms $g)"
			fi || { echo "cell $key of run $g"; return 1; }
		done <cells || return 1
	done
'

test_expect_success XMLLINT 'HTML: ratio to the baseline, curve points' '
	a=$(mx 4096:2:1:random:70 iops 1) && b=$(mx 4096:2:1:random:70 iops 2) &&
	r=$(xp "//*[local-name()=\"td\"][@data-mx=\"4096:2:1:random:70\"][@data-row=\"iops\"][@data-group=\"2\"][not(@data-pt)]/*[@class=\"ratio\"]/@data-ratio") &&
	awk -v a=$a -v b=$b -v r=$r "BEGIN { d = b / a - r; exit !(d < 1e-3 && d > -1e-3) }" &&
	test -z "$(xp "//*[local-name()=\"td\"][@data-mx=\"4096:2:1:random:70\"][@data-row=\"iops\"][@data-group=\"1\"]/*[@class=\"ratio\"]/@data-ratio")" &&
	p=$(sed -n 2p m.jsonl | jq ".matrix.cells[] | select(.bs == 65536 and .threads == 1 and .pattern == \"seq\" and .read_pct == 0) | .curve[0].iops") &&
	v=$(xp "//*[local-name()=\"td\"][@data-mx=\"65536:1:1:seq:0\"][@data-row=\"iops\"][@data-group=\"2\"][@data-pt=\"50\"]/@data-v") &&
	awk -v a="$v" -v b="$p" "BEGIN { exit !(a > 0 && (a - b) / b < 1e-6 && (b - a) / b < 1e-6) }"
'

test_expect_success XMLLINT 'HTML: workers in the configuration, a rate per worker and test' '
	test "$(xp "//*[@id=\"cfg3\"]/*[local-name()=\"td\"]/@data-workers")" = 2 &&
	for w in 0 1; do
		v=$(jq ".results[] | select(.name == \"put_block\") | .workers[] | select(.worker == $w) | .value" w.jsonl) &&
		h=$(xp "//*[@id=\"workers3\"]//*[local-name()=\"tr\"][@data-test=\"put_block\"]/*[@data-worker=\"$w\"]/@data-v") &&
		awk -v a="$h" -v b="$v" "BEGIN { exit !(a > 0 && (a - b) / b < 1e-6 && (b - a) / b < 1e-6) }" || return 1
	done
'

test_expect_success XMLLINT 'HTML: matrix runs have no bonnie++ rows, charts or latency' '
	"$CLYDE" report -o page.html -b mx-a m.jsonl w.jsonl &&
	xmllint --noout page.html &&
	test "$(xp "count(//*[@id=\"bonnie-table\"]/*[local-name()=\"tbody\"]/*)")" = 1 &&
	test "$(xp "//*[@id=\"bonnie-table\"]/*/*[local-name()=\"tr\"]/@id")" = row3 &&
	test "$(xp "count(//*[@id=\"config-table\"]/*[local-name()=\"tbody\"]/*)")" = 3 &&
	test "$(xp "count(//*[@class=\"latency\"]//*[local-name()=\"a\"][@href=\"#cfg1\" or @href=\"#cfg2\"])")" = 0 &&
	test "$(xp "count(//*[local-name()=\"rect\"][@data-group=\"1\" or @data-group=\"2\"])")" = 0 &&
	test "$(xp "count(//*[local-name()=\"rect\"][@data-group=\"3\"])")" -ge 12
'

test_expect_success XMLLINT 'HTML: matrix runs only: no bonnie++ section, nor its link' '
	"$CLYDE" report -o mx.html m.jsonl &&
	xmllint --noout mx.html &&
	! grep -q "id=\"bonnie" mx.html && ! grep -q "href=\"#bonnie\"" mx.html &&
	! grep -q "id=\"charts\"\|id=\"latency\"" mx.html &&
	grep -q "href=\"#matrix\"" mx.html &&
	test "$(xmllint --xpath "count(//*[@id=\"config-table\"]/*[local-name()=\"tbody\"]/*)" mx.html)" = 2 &&
	test "$(xmllint --xpath "count(//*[local-name()=\"table\"][@class=\"matrix\"])" mx.html)" = 4 &&
	test "$(xmllint --xpath "count(//*[@id=\"runs-table\"]/*[local-name()=\"tbody\"]/*)" mx.html)" = 2
'

# Each cell (pattern and mix: 6 here) charted once, the same page whatever
# the allocator left in memory (cells were compared with their padding:
# 6 to 10 charts from run to run)
test_expect_success 'HTML: each matrix cell charted once, the same page every time' '
	n=$(jq -r ".matrix.cells[] | \"\(.pattern) \(.read_pct)\"" m.jsonl | sort -u | wc -l) &&
	test "$n" = 6 &&
	for p in 0 85 170; do
		MALLOC_PERTURB_=$p "$CLYDE" report m.jsonl >perturb$p.html || return 1
		test "$(grep -c "chart mxcell" perturb$p.html)" = "$n" || return 1
	done &&
	grep -v "generated" perturb0.html >a && grep -v "generated" perturb170.html >b &&
	test_cmp a b
'

test_expect_success 'text: matrix runs have no lines in the test comparison' '
	"$CLYDE" report -f text m.jsonl >mx.txt &&
	! grep -q "KiB/s\|files/s\|marks:" mx.txt &&
	test "$(grep -c "^Pattern  *Profile  *IO/s  *MB/s  *Read (ms)  *Write (ms)$" mx.txt)" = 8 &&
	"$CLYDE" report -f text -b mx-a m.jsonl w.jsonl >out.txt &&
	sed -n "/^Block write /,/^$/p" out.txt >block &&
	test_line_count = 3 block && grep -q "^work2" block
'

test_expect_success 'without -b a matrix run given first is not the tests'\'' baseline' '
	"$CLYDE" report -f text m.jsonl w.jsonl >nob.txt &&
	sed -n "/^Block write /,/^$/p" nob.txt >block &&
	grep -q "^work2.* base" block &&
	grep -q "^  3 \* work2" nob.txt
'

test_expect_success 'text: the matrix side by side and each run'\''s XDISK tables' '
	"$CLYDE" report -f text -b mx-a m.jsonl w.jsonl >out.txt &&
	grep -q "^Matrix side by side: 64K block size — 2 threads$" out.txt &&
	grep -q "^  3   work2.* (1 run, 2 workers)$" out.txt &&
	# the runs own tables (the appendix) and one side by side per shape,
	# the two configurations across, each under its number (named above)
	test "$(grep -c "^Pattern  *Profile  *IO/s  *MB/s  *Read (ms)  *Write (ms)$" out.txt)" = 8 &&
	test "$(grep -c "^Pattern  *Profile  *IO/s  *Rd ms  *Wr ms  *IO/s  *Rd ms  *Wr ms  *ratio$" out.txt)" = 4 &&
	sed -n "/^Matrix side by side: 4K block size — 1 thread$/,/^$/p" out.txt >table &&
	grep -q "^\[1\] mx-a " table &&
	grep -q "^\[2\] mx-b " table &&
	grep -q "^  *\[1\]  *\[2\]$" table &&
	grep "^Random  *70/30 " table >cell &&
	test_line_count = 1 cell &&
	i=$(sed -n 1p m.jsonl | jq ".matrix.cells[] | select(.bs == 4096 and .threads == 1 and .pattern == \"random\" and .read_pct == 70) | .iops | round" | sed ":a;s/\B[0-9]\{3\}\>/,&/;ta") &&
	j=$(sed -n 2p m.jsonl | jq ".matrix.cells[] | select(.bs == 4096 and .threads == 1 and .pattern == \"random\" and .read_pct == 70) | .iops") &&
	k=$(sed -n 1p m.jsonl | jq ".matrix.cells[] | select(.bs == 4096 and .threads == 1 and .pattern == \"random\" and .read_pct == 70) | .iops") &&
	grep -q "^Random  *70/30  *$i~\\? " cell &&
	r=$(awk "{ print \$NF }" cell) &&
	# (two decimals, one from 10, none from 100: within 0.6 %)
	awk -v r="$r" -v a="$j" -v b="$k" "BEGIN { q = a / b; d = r - q; if (q > 1) d /= q; exit !(d < 0.006 && d > -0.006) }"
'

test_expect_success 'long CSV: one row per run and cell, curve points' '
	"$CLYDE" report -f csv m.jsonl w.jsonl >long.csv &&
	test "$(grep -c ",matrix," long.csv)" = 48 &&
	test "$(grep -c ",matrix_curve," long.csv)" = 24 &&
	# every row as many fields as the header
	perl -MText::ParseWords -ne "chomp; print scalar(parse_line(\",\", 1, \$_)), qq(\\n)" long.csv | sort -u >nf &&
	test_line_count = 1 nf &&
	test "$(cat nf)" = "$(head -1 long.csv | tr , "\n" | wc -l)" &&
	i=$(sed -n 2p m.jsonl | jq ".matrix.cells[] | select(.bs == 65536 and .threads == 2 and .pattern == \"random\" and .read_pct == 100) | .iops") &&
	grep "^2,2,mx-b,.*,matrix,.*,65536,2,1,random,100,," long.csv >row &&
	test_line_count = 1 row &&
	awk -F, -v b="$i" "{ exit !((\$15 - b) / b < 1e-6 && (b - \$15) / b < 1e-6) }" row
'

# latency FILE: per matrix row (not curve) of the long CSV, label bs
# threads pattern read_pct, then the read and the write latency summary in
# ms, mean min p50 p90 p99 p99_9 max ("-" where empty)
latency () {
	perl -MText::ParseWords -ne '
		chomp; my @f = parse_line(",", 0, $_);
		if ($. == 1) { %c = map { $f[$_] => $_ } 0..$#f; next }
		next unless $f[$c{test}] eq "matrix";
		my @l;
		for my $d ("read", "write") {
			push @l, map { $_ eq "" ? "-" : $_ }
				@f[map { $c{$_} // die "no column $_\n" }
				   "mx_${d}_ms", map { "mx_${d}_${_}_ms" }
				   qw(min p50 p90 p99 p99_9 max)];
		}
		print join(" ", @f[@c{qw(label mx_bs mx_threads mx_pattern
			mx_read_pct)}], @l), "\n";' "$1"
}

test_expect_success 'long CSV: a matrix cell has the whole latency summary, as in its record' '
	"$CLYDE" report -f csv m.jsonl >long.csv &&
	latency long.csv >got &&
	jq -r "
		def lat(o): if o then (o.mean, o.min, o.p50, o.p90,
			o.p99, o.p99_9, o.max) | tostring
			else range(7) | \"-\" end;
		.label as \$l | .matrix.cells[] | select(.status == \"ok\") |
		[\$l, .bs, .threads, .pattern, .read_pct,
		 lat(.read_latency_ms), lat(.write_latency_ms)] |
		map(tostring) | join(\" \")" m.jsonl >exp &&
	test_line_count = 48 got &&
	paste -d"\n" exp got | awk "
		NR % 2 { n = split(\$0, e); next }
		{
			if (split(\$0, g) != n) { print \"fields: \" \$0; bad = 1 }
			for (i = 1; i <= 5; i++) if (e[i] != g[i]) bad = 1
			for (i = 6; i <= n; i++) {
				if (e[i] == \"-\" || g[i] == \"-\") {
					if (e[i] != g[i]) { print \"missing \" i \": \" \$0; bad = 1 }
					continue
				}
				d = e[i] - g[i]; if (d < 0) d = -d
				if (d > 0.0000005 + 1e-9 * e[i]) { print \"value \" i \": \" e[i] \" \" g[i]; bad = 1 }
			}
			# in order: min <= p50 <= p90 <= p99 <= p99.9 <= max, mean inside
			for (s = 6; s <= 13; s += 7) if (g[s] != \"-\") {
				for (i = s + 2; i <= s + 6; i++) if (g[i] < g[i - 1]) { print \"order: \" \$0; bad = 1 }
				if (g[s] < g[s + 1] || g[s] > g[s + 6]) { print \"mean: \" \$0; bad = 1 }
			}
		}
		END { exit bad }"
'

test_expect_success XMLLINT 'HTML: under each run'"'"'s XDISK table, its cells'"'"' whole latency summary' '
	"$CLYDE" report -o page.html m.jsonl &&
	xmllint --noout page.html &&
	test "$(xp "count(//*[local-name()=\"table\"][@class=\"xdisk-lat\"])")" = \
		"$(xp "count(//*[local-name()=\"table\"][@class=\"xdisk\"])")" &&
	# the first run, 4K 1 thread, random 70/30: its read and write figures
	jq -r "select(.label == \"mx-a\") | .matrix.cells[] |
		select(.bs == 4096 and .threads == 1 and .pattern == \"random\" and .read_pct == 70) |
		[.read_latency_ms, .write_latency_ms][] |
		(.mean, .min, .p50, .p90, .p99, .p99_9, .max)" m.jsonl >exp &&
	test_line_count = 14 exp &&
	xmllint --xpath "(//*[local-name()=\"table\"][@class=\"xdisk-lat\"])[1]//*[local-name()=\"tr\"][*[2] = \"70/30\"][*[1] = \"Random\"]/*[local-name()=\"td\"]/@data-v" page.html |
		grep -o "\"[^\"]*\"" | tr -d "\"" >got &&
	paste exp got | awk "{ d = \$1 - \$2; if (d < 0) d = -d; if (d > 1e-9 * \$1 + 1e-12) bad = 1 } END { exit bad || NR != 14 }"
'

test_expect_success XMLLINT 'VM mark: an emulated run is marked wherever it is named' '
	"$CLYDE" report -o page.html "$FIX/clyde.jsonl" \
		"$FIX/clyde-tcg.jsonl" &&
	xmllint --noout page.html &&
	# its own configuration, though it matches "base" in all but fs/virt
	test "$(xp "count(//*[local-name()=\"table\"][@id=\"config-table\"]/*/*[local-name()=\"tr\"])")" = 4 &&
	test "$(xp "//*[@id=\"cfg3\"]//*[@class=\"vm\"]")" = "[VM: QEMU TCG, emulated]" &&
	test "$(xp "//*[@id=\"row3\"]//*[@class=\"vm\"]")" = "[VM: QEMU TCG, emulated]" &&
	test "$(xp "count(//*[@id=\"row2\"]//*[@class=\"vm\"])")" = 0 &&
	xp "//*[@id=\"chart-put_block\"]" | grep -q "jfs-run \[VM: QEMU TCG, emulated\]" &&
	xp "//*[@id=\"run4\"]/*[local-name()=\"summary\"]" | grep -q "VM: QEMU TCG, emulated" &&
	"$CLYDE" report -f text "$FIX/clyde.jsonl" "$FIX/clyde-tcg.jsonl" >out.txt &&
	grep -q "^  3   jfs-run \[VM: QEMU TCG, emulated\] (1 run)$" out.txt &&
	sed -n "/^Block write/,/^$/p" out.txt | grep -q "^jfs-run \[VM: QEMU TCG, emulated\]  *670,073 " &&
	"$CLYDE" report -f csv "$FIX/clyde-tcg.jsonl" >long.csv &&
	test "$(grep -c ",VM: QEMU TCG\\, emulated,\|,\"VM: QEMU TCG, emulated\"," long.csv)" = 12
'

test_done
