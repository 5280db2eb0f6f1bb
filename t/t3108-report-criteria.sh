#!/bin/bash
# clyde report: --criteria verdicts (text, CSV, exit status 3 on a
# failure, 2 on a bad criteria file), repeat statistics against hand
# values and the regression watch (copies summed: t3125).
. "$(dirname "$0")/lib.sh"

FIX=$TEST_DIR/fixtures/report

# mk LABEL REP PUT_BLOCK REWRITE: a clyde record of the fixture's first
test_lazy_prereq JQ 'command -v jq'
mk () {
	head -1 "$FIX/clyde.jsonl" | jq -c --arg l "$1" --argjson r "$2" \
		--argjson w "$3" --argjson rw "$4" '
		.label = $l | .repetition = $r | .tags = {} |
		(.results[] | select(.name == "put_block") | .value) = $w |
		(.results[] | select(.name == "rewrite") | .value) = $rw'
}

test_expect_success 'criteria that all hold: PASS, exit status 0' '
	cat >pass.ini <<-\EOF &&
	[baseline]
	label = scsi-raid5-xfs-4disks-8kbSegment
	[put_block]
	min = 30 MB/s
	[Random seeks]
	min = 250
	EOF
	"$CLYDE" report -f text --criteria pass.ini "$FIX/seed002-pivot.csv" >out.txt 2>err &&
	head -1 out.txt | grep -q "^Verdict: PASS, 0 of 16 checks failed" &&
	tail -1 err | grep -q "criteria pass.ini: PASS" &&
	"$CLYDE" report -f csv --criteria pass.ini "$FIX/seed002-pivot.csv" >long.csv &&
	grep ",put_block," long.csv | grep -c ",min 30 MB/s: pass,pass," >n &&
	test "$(cat n)" = 8
'

test_expect_success 'one failing criterion: its rows FAIL, exit status 3, the report still written' '
	cat >fail.ini <<-\EOF &&
	[baseline]
	label = scsi-raid5-xfs-4disks-8kbSegment
	[put_block]
	min = 40 MB/s
	min_ratio = 0.5
	EOF
	test_expect_code 3 "$CLYDE" report -f text --criteria fail.ini -o out.txt "$FIX/seed002-pivot.csv" 2>err &&
	head -1 out.txt | grep -q "^Verdict: FAIL, 1 of 15 checks failed" &&
	# fc-raid5-jfs: 39000 KiB/s = 38.09 MB/s (MiB/s) < 40
	grep -q "^4 *Block write *min *40 MB/s *38.09 MB/s *FAIL$" out.txt &&
	grep -q "^6\* *Block write *min " out.txt &&
	! grep -q "^6\* *Block write *min_ratio" out.txt &&
	tail -1 err | grep -q "criteria fail.ini: FAIL, 1 of 15 checks failed" &&
	grep -q "^Block write  *KiB/s" out.txt &&
	test_expect_code 3 "$CLYDE" report -f csv --criteria fail.ini -o long.csv "$FIX/seed002-pivot.csv" 2>/dev/null &&
	grep "^4,4,fc-raid5-jfs.*,put_block," long.csv | grep -q "min 40 MB/s: fail; min_ratio 0.5: pass,fail," &&
	test_expect_code 3 "$CLYDE" report -o page.html --criteria fail.ini "$FIX/seed002-pivot.csv" 2>/dev/null &&
	test -s page.html
'

test_expect_success 'a figure nobody measured fails as not measured' '
	printf "[matrix 8k 16 random 100]\nmin_iops = 1000\n" >mx.ini &&
	test_expect_code 3 "$CLYDE" report -f text --criteria mx.ini "$FIX/seed002-pivot.csv" >out.txt 2>/dev/null &&
	grep -q "^- *matrix 8k 16 random 100 *min_iops *1000 *not measured *FAIL$" out.txt
'

test_expect_success 'fio cells checked as matrix cells' '
	printf "[matrix 4k 1 random 100]\nmin_iops = 10000\nmax_read_mean = 1 ms\n" >fio.ini &&
	"$CLYDE" report -f text --criteria fio.ini "$FIX/fio-randread-plus.json" >out.txt &&
	grep -q "^Verdict: PASS, 0 of 2 checks failed" out.txt &&
	printf "[matrix 4k 1 random 100]\nmin_iops = 20000\n" >fio.ini &&
	test_expect_code 3 "$CLYDE" report -f text --criteria fio.ini "$FIX/fio-randread-plus.json" >out.txt
'

test_expect_success 'matrix bounds on every figure of the latency summary, shown in their units' '
	# the fio job: read clat p50 68.096 us, p90 85.504 us, max 1.012342 ms
	printf "[matrix 4k 1 random 100]\nmax_read_p50 = 60 us\nmax_read_p90 = 0.09 ms\nmax_read_max = 1 ms\nmax_write_p90 = 1 ms\n[put_block]\nmax_latency_mean = 1 s\n" >all.ini &&
	test_expect_code 3 "$CLYDE" report -f text --criteria all.ini \
		"$FIX/fio-randread-plus.json" >out.txt 2>/dev/null &&
	grep -q "^Verdict: FAIL, 4 of 5 checks failed" out.txt &&
	grep -q "^1\* *4K 1 thr qd 1 Random 100% read max_read_p50 *60 us *68.1 us *FAIL$" out.txt &&
	grep -q "^1\* *4K 1 thr qd 1 Random 100% read max_read_p90 *0.09 ms *0.0855 ms *pass$" out.txt &&
	grep -q "^1\* *4K 1 thr qd 1 Random 100% read max_read_max *1 ms *1.012 ms *FAIL$" out.txt &&
	grep -q "^1\* *4K 1 thr qd 1 Random 100% read max_write_p90 *1 ms *not measured *FAIL$" out.txt &&
	# a block write mean of microseconds against a bound in seconds
	"$CLYDE" report -f text --criteria all.ini "$FIX/clyde.jsonl" \
		>out.txt 2>/dev/null;
	grep -q "^1\* *Block write *max_latency_mean *1 s *[0-9.]* us *pass$" out.txt
'

test_expect_success JQ 'a figure a signal left unmeasured fails as interrupted, not measured' '
	head -1 "$FIX/clyde.jsonl" | jq -c "(.results[] | select(.name == \"rewrite\")) |=
		(.status = \"skipped\" | .reason = \"interrupted by signal 2 (SIGINT)\" |
		 .value = null | .low_precision = false)" >cut.jsonl &&
	printf "[rewrite]\nmin = 1\n[put_block]\nmin = 1\n" >cut.ini &&
	test_expect_code 3 "$CLYDE" report -f text --criteria cut.ini cut.jsonl >out.txt 2>/dev/null &&
	grep -q "^1\* *Rewrite *min *1 KiB/s *interrupted *FAIL$" out.txt &&
	grep -q "^1\* *Block write *min *1 KiB/s *[0-9,]* KiB/s *pass$" out.txt &&
	# a matrix cell a signal stopped
	mkdir mxd &&
	"$CLYDE" matrix -d mxd --bs 4k --threads 1 --pattern random --mix 100 \
		--size 4M --time 0.05 --ramp 0 -q --json mx.jsonl >/dev/null &&
	jq -c ".matrix.cells[0] |= (.status = \"skipped\" |
		.reason = \"interrupted by signal 2 (SIGINT)\")" mx.jsonl >mxcut.jsonl &&
	printf "[matrix 4k 1 random 100]\nmin_iops = 1\n" >mx.ini &&
	test_expect_code 3 "$CLYDE" report -f text --criteria mx.ini mxcut.jsonl >out.txt 2>/dev/null &&
	grep -q "^1\* *4K 1 thr qd 1 Random 100% read *min_iops *1 IO/s *interrupted *FAIL$" out.txt
'

test_expect_success JQ '[all] over a run with a failed test: that test fails the bound, never 0 checks and PASS' '
	head -1 "$FIX/clyde.jsonl" | jq -c "(.results[] | select(.name == \"rewrite\")) |=
		(.status = \"failed\" | .reason = \"write: No space left on device\" |
		 .value = null | .low_precision = false)" >failed.jsonl &&
	printf "[all]\nmax_latency = 10 s\n" >all.ini &&
	test_expect_code 3 "$CLYDE" report -f text --criteria all.ini failed.jsonl >out.txt 2>err &&
	grep -q "^Verdict: FAIL, 1 of 12 checks failed" out.txt &&
	grep -q "^1\* *Rewrite *max_latency *10 s *failed *FAIL$" out.txt
'

test_expect_success 'a bad criteria file: one line naming FILE:LINE, exit status 2, nothing written' '
	printf "[put_block]\nmin = 40 MB/s\nfastest = yes\n" >bad.ini &&
	test_expect_code 2 "$CLYDE" report -f text --criteria bad.ini -o none.txt "$FIX/seed002-pivot.csv" 2>err &&
	test_line_count = 1 err && grep -q "bad.ini:3: .*fastest" err &&
	! test -e none.txt &&
	printf "[put_block]\nmin = fast\n" >bad.ini &&
	test_expect_code 2 "$CLYDE" report -f text --criteria bad.ini "$FIX/seed002-pivot.csv" 2>err &&
	grep -q "bad.ini:2: " err &&
	# only decimal numbers: strtod alone would read hex, inf and nan
	for v in "0x10 MB/s" "inf" "nan" "+5 MB/s" "1e400"; do
		printf "[put_block]\nmin = %s\n" "$v" >bad.ini &&
		test_expect_code 2 "$CLYDE" report -f text --criteria bad.ini \
			"$FIX/seed002-pivot.csv" 2>err &&
		grep -q "bad.ini:2: min: cannot read" err || { echo "$v"; return 1; }
	done &&
	test_expect_code 2 "$CLYDE" report --criteria nosuch.ini "$FIX/seed002-pivot.csv" 2>err &&
	grep -q "cannot open .nosuch.ini." err
'

test_expect_success JQ 'repeats: intervals, a noisy mark and a significance verdict' '
	{ mk raid10-xfs 1 400000 300000; mk raid10-xfs 2 410000 360000
	  mk raid10-xfs 3 405000 240000; mk raid5-xfs 1 430000 310000
	  mk raid5-xfs 2 440000 300000; mk raid5-xfs 3 435000 305000; } >st.jsonl &&
	"$CLYDE" report -f text st.jsonl >out.txt &&
	sed -n "/^Block write /,/^$/p" out.txt >block &&
	# logs: mean 12.9115915, sd 0.0123464, t(0.975, 2) = 4.302653:
	# exp(12.9115915 -+ 0.0306700), never the symmetric 392579..417421
	grep -q "^    95% CI 392,747..417,593, cv 1.2 %$" block &&
	# Welch: t = 7.348, df 4, p = 0.0018
	grep -q "^      significantly higher (Welch p 0.0018, df 4.0)$" block &&
	sed -n "/^Rewrite /,/^$/p" out.txt >rewrite &&
	grep -q "^raid10-xfs .* base LN$" rewrite &&
	grep -q "cv 20.0 %, noisy$" rewrite &&
	grep -q "not significant (Welch p 0.9" rewrite &&
	"$CLYDE" report -f csv st.jsonl >long.csv &&
	grep "^4,2,raid5-xfs,.*,put_block," long.csv |
		grep -q ",3,435000.000,5000.000,422735.745,447580.635,0.01149,0,significant,0.001826" &&
	printf "[put_block]\nnot_worse = yes\n[rewrite]\nmax_cv = 10 %%\n" >nw.ini &&
	test_expect_code 3 "$CLYDE" report -f text --criteria nw.ini st.jsonl >out.txt 2>/dev/null &&
	grep -q "^2 *Block write *not_worse *yes, margin 0.95 *x1.07 (1.05..1.10) *pass$" out.txt &&
	grep -q "^1\* *Rewrite *max_cv *10 % *20 % *FAIL$" out.txt
'

test_expect_success JQ 'a single run says single run, never an interval' '
	mk solo 1 400000 300000 >solo.jsonl &&
	"$CLYDE" report -f text solo.jsonl st.jsonl >out.txt &&
	sed -n "/^Block write /,/^$/p" out.txt >block &&
	grep -A1 "^solo " block | grep -q "^    single run$" &&
	! grep -A1 "^solo " block | grep -q CI
'

test_expect_success JQ 'regression watch: the significant change listed first' '
	{ mk raid5-xfs 1 430000 310000; mk raid5-xfs 2 440000 300000
	  mk raid5-xfs 3 435000 305000; } >old.jsonl &&
	{ mk raid5-xfs 1 330000 310000; mk raid5-xfs 2 340000 301000
	  mk raid5-xfs 3 335000 306000; } >new.jsonl &&
	"$CLYDE" report -f text --baseline-file old.jsonl new.jsonl >out.txt &&
	grep -q "^Regression watch against old.jsonl: 1 significant change in 12 compared figures$" out.txt &&
	sed -n "/^cfg /,\$p" out.txt >rows &&
	sed -n 2p rows | grep -q "^1 *raid5-xfs *Block write *435,000 *335,000 *0.77 DOWN$" &&
	sed -n 3p rows | grep -q "^--- not significant or untested:$" &&
	# a single new run: a change only beyond the noise band, marked *
	mk raid5-xfs 1 300000 300000 >new1.jsonl &&
	"$CLYDE" report -f text --baseline-file old.jsonl new1.jsonl >out.txt &&
	grep -q "^1 *raid5-xfs *Block write *435,000 *300,000 *0.69 DOWN\*$" out.txt &&
	grep -q "^1 *raid5-xfs *Rewrite *305,000 *300,000 *0.98 same\*$" out.txt &&
	grep -q "noise band" out.txt &&
	"$CLYDE" report -f text --noise-band 1 --baseline-file old.jsonl new1.jsonl >out.txt &&
	grep -q "^1 *raid5-xfs *Rewrite *305,000 *300,000 *0.98 DOWN\*$" out.txt
'

test_expect_success 'a title from the input reaches the verdict and the rate table escaped' '
	sed -n 2p "$FIX/clyde.jsonl" |
		jq -c ".results[1].title = \"Blk\u001b[2J\nwrite\" | .results[1].name = \"put\u001bblock\"" >ht.jsonl &&
	printf "[all]\nmax_p99 = 1 s\n" >ca.ini &&
	"$CLYDE" report -f text --criteria ca.ini ht.jsonl >out.txt 2>err &&
	! grep -q "$(printf "\033")" out.txt &&
	test "$(LC_ALL=C.UTF-8 wc -L <out.txt)" -le 80 &&
	grep -q "^1\* *Blk\\\\x1b\[2J\\\\nwrite *max_p99 *1 s .*pass$" out.txt &&
	grep -q "^Blk\\\\x1b\[2J\\\\nwrite  *KiB/s  *sd  *n  *%CP  *ratio mk$" out.txt &&
	! grep -q "^write" out.txt
'

test_expect_success 'matrix cells in the verdict read apart; a name too wide for its column whole on its own line' '
	mkdir mxm &&
	"$CLYDE" matrix -d mxm --bs 8k --threads 1 --pattern random --mix 0,50,100 \
		--size 4M --time 0.05 --ramp 0 -q --json mxm.jsonl >/dev/null &&
	printf "[matrix 8k 1 random 0]\nmax_write_p50 = 1 s\n[matrix 8k 1 random 100]\nmax_read_p50 = 1 s\n[matrix 8k 1 random 50]\nmax_read_p50 = 1 s\n" >cm.ini &&
	"$CLYDE" report -f text --criteria cm.ini mxm.jsonl >out.txt 2>/dev/null &&
	grep -q "^1\* *8K 1 thr qd 1 Random 100% write *max_write_p50 *1 s .*pass$" out.txt &&
	grep -q "^1\* *8K 1 thr qd 1 Random 100% read *max_read_p50 *1 s .*pass$" out.txt &&
	grep -q "^1\* *8K 1 thr qd 1 Random 50/50 *max_read_p50 *1 s .*pass$" out.txt &&
	# wide key and bound columns: a name wider than its column whole on
	# a line of its own, its check under it (issue 22)
	printf "[matrix 8k 1 random 0]\nmax_write_p50 = 1000000000 us\n[matrix 8k 1 random 100]\nmax_read_p50 = 1 s\n[put_block]\nmax_latency_mean = 1 s\n" >cm.ini &&
	test_expect_code 3 "$CLYDE" report -f text --criteria cm.ini mxm.jsonl >out.txt 2>/dev/null &&
	test "$(LC_ALL=C.UTF-8 wc -L <out.txt)" -le 80 &&
	grep -A1 "^1\*   8K 1 thr qd 1 Random 100% write$" out.txt |
		grep -q "^  *max_write_p50  *1000000000 us .* pass$" &&
	grep -A1 "^1\*   8K 1 thr qd 1 Random 100% read$" out.txt |
		grep -q "^  *max_read_p50  *1 s .* pass$" &&
	grep -q "^- *put_block *max_latency_mean *1 s *not measured *FAIL$" out.txt
'

# Section 4 of issue 21: no verdict passes for lack of data.
test_expect_success JQ 'not_worse with two runs at a ratio of 0.60: inconclusive, exit 3, the runs that would settle it' '
	{ mk base 1 150000 300000; mk base 2 240000 300000
	  mk cand 1 100000 300000; mk cand 2 134000 300000; } >nw2.jsonl &&
	printf "[baseline]\nlabel = base\n[put_block]\nnot_worse = yes\n" >nw2.ini &&
	test_expect_code 3 "$CLYDE" report -f text --criteria nw2.ini nw2.jsonl >out.txt 2>err &&
	# Welch: not significant (p 0.31); that is no evidence of "not worse"
	grep -q "not significant (Welch p 0.31, df 1.3)" out.txt &&
	head -1 out.txt | grep -q "^Verdict: FAIL, 0 of 1 check failed, 1 inconclusive (criteria nw2.ini)$" &&
	grep -q "^2 *Block write *not_worse *yes, margin 0.95 *x0.61 (0.14..2.58) *inconclusive$" out.txt &&
	# mpmath: the least n with (t(.975,2n-2) + t(.8,2n-2)) S sqrt(2/n) <= |D - log .95| is 8
	grep -q "^      lower 95 % bound 0.144 not above margin 0.95; about 8 runs of each would$" out.txt &&
	tail -1 err | grep -q "criteria nw2.ini: FAIL, 0 of 1 checks failed, 1 inconclusive$" &&
	# allowed on request: exit 0, still said
	"$CLYDE" report -f text --allow-inconclusive --criteria nw2.ini nw2.jsonl >out.txt 2>err &&
	head -1 out.txt | grep -q "^Verdict: PASS, 0 of 1 check failed, 1 inconclusive, allowed (criteria nw2.ini)$" &&
	"$CLYDE" report -f csv --criteria nw2.ini nw2.jsonl >long.csv 2>/dev/null;
	grep "^3,2,cand,.*,put_block," long.csv | grep -q ",not_worse yes: inconclusive,inconclusive,"
'

test_expect_success JQ 'not_worse passes only when the lower bound clears the margin; margin is a key' '
	{ mk base 1 100000 300000; mk base 2 101000 300000; mk base 3 99000 300000
	  mk cand 1 98000 300000; mk cand 2 100000 300000; mk cand 3 102000 300000; } >nw3.jsonl &&
	printf "[baseline]\nlabel = base\n[put_block]\nnot_worse = yes\n" >nw3.ini &&
	# log-ratio interval 0.959..1.042 (mpmath): above 0.95
	"$CLYDE" report -f text --criteria nw3.ini nw3.jsonl >out.txt &&
	grep -q "^2 *Block write *not_worse *yes, margin 0.95 *x1.00 (0.96..1.04) *pass$" out.txt &&
	grep -q "^      lower 95 % bound 0.959 > margin 0.95$" out.txt &&
	# the same data, a margin of 0.97 in the section: not shown
	printf "[baseline]\nlabel = base\n[put_block]\nnot_worse = yes\nmargin = 0.97\n" >nw3.ini &&
	test_expect_code 3 "$CLYDE" report -f text --criteria nw3.ini nw3.jsonl >out.txt 2>/dev/null &&
	grep -q "^2 *Block write *not_worse *yes, margin 0.97 .*inconclusive$" out.txt &&
	# [all] gives the margin of every section without its own
	printf "[baseline]\nlabel = base\n[all]\nmargin = 97 %%\n[put_block]\nnot_worse = yes\n" >nw3.ini &&
	test_expect_code 3 "$CLYDE" report -f text --criteria nw3.ini nw3.jsonl >out.txt 2>/dev/null &&
	grep -q "^2 *Block write *not_worse *yes, margin 0.97 .*inconclusive$" out.txt &&
	printf "[put_block]\nnot_worse = yes\nmargin = 1.5\n" >bad.ini &&
	test_expect_code 2 "$CLYDE" report -f text --criteria bad.ini nw3.jsonl 2>err &&
	grep -q "bad.ini:3: margin: cannot read .1.5." err
'

test_expect_success JQ 'not_worse that the data show worse than the margin fails; failures first, then inconclusive, then passes' '
	{ mk base 1 200000 300000; mk base 2 220000 300000; mk base 3 240000 300000
	  mk cand 1 100000 300000; mk cand 2 120000 300000; mk cand 3 140000 300000
	  mk solo 1 230000 300000; } >nw4.jsonl &&
	printf "[baseline]\nlabel = base\n[put_block]\nnot_worse = yes\nmin = 1 MB/s\n" >nw4.ini &&
	test_expect_code 3 "$CLYDE" report -f text --criteria nw4.ini nw4.jsonl >out.txt 2>/dev/null &&
	# cand: x0.54 (0.38..0.77): the upper bound below the margin
	grep -q "^2 *Block write *not_worse *yes, margin 0.95 *x0.54 (0.38..0.77) *FAIL$" out.txt &&
	grep -q "upper 95 % bound 0.766 < margin 0.95: worse than the margin" out.txt &&
	# a single run: no interval, the spread of the other side estimates the runs
	grep -q "^3 *Block write *not_worse .* inconclusive$" out.txt &&
	grep -q "too few runs for an interval (n = 1 and 3)" out.txt &&
	sed -n "/^cfg /,/^$/p" out.txt | grep -E "^[0-9-]" | awk "{print \$NF}" >order &&
	printf "FAIL\ninconclusive\npass\npass\npass\n" >expect &&
	test_cmp expect order
'

test_expect_success 'every bound shows its unit, the one its key implies when none was written' '
	printf "[matrix 4k 1 random 100]\nmin_mbps = 1\nmin_iops = 10000\nmax_read_mean = 1\n" >u.ini &&
	"$CLYDE" report -f text --criteria u.ini "$FIX/fio-randread-plus.json" >out.txt &&
	grep -q "min_mbps *1 MB/s *[0-9.,]* MB/s *pass$" out.txt &&
	grep -q "min_iops *10000 IO/s *[0-9,]* IO/s *pass$" out.txt &&
	grep -q "max_read_mean *1 ms *[0-9.]* ms *pass$" out.txt &&
	printf "[put_block]\nmin = 1000\nmax_cpu = 100\nmin_ratio = 0.5\n" >u.ini &&
	"$CLYDE" report -f text --criteria u.ini "$FIX/seed002-pivot.csv" >out.txt &&
	grep -q "Block write *min *1000 KiB/s *[0-9,]* KiB/s *pass$" out.txt &&
	grep -q "Block write *max_cpu *100 % *[0-9.]* % *pass$" out.txt &&
	grep -q "Block write *min_ratio *0.5 x base *[0-9.]* x base *pass$" out.txt
'

test_done
