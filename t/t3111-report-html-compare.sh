#!/bin/bash
# clyde report HTML: the verdict table first, the pivot, dimensions with
# inferred values marked, repeat statistics, the regression watch, and the
# rate curves with their response-time chart; colours and marks only where
# a figure differs from the baseline's (Welch, else the noise band), said
# once on the page; the matrix comparison without empty column groups; a
# stopped test marked; well-formed XML every time.
. "$(dirname "$0")/lib.sh"

FIX=$TEST_DIR/fixtures/report

test_have_prereq XMLLINT || test_skip_all 'xmllint is needed to read the pages'

xp () {
	xmllint --xpath "string($1)" page.html
}

test_expect_success 'verdict table at the top, one row per check' '
	printf "[baseline]\nlabel = scsi-raid5-xfs-4disks-8kbSegment\n[put_block]\nmin = 40 MB/s\n" >c.ini &&
	test_expect_code 3 "$CLYDE" report -o page.html --criteria c.ini "$FIX/seed002-pivot.csv" 2>/dev/null &&
	xmllint --noout page.html &&
	test "$(xp "name((//*[local-name()=\"h2\"])[1]/@id)")" = id &&
	test "$(xp "(//*[local-name()=\"h2\"])[1]/@id")" = verdict &&
	test "$(xp "count(//*[@id=\"verdict-table\"]//*[local-name()=\"tbody\"]/*)")" = 8 &&
	test "$(xp "count(//*[@id=\"verdict-table\"]//*[@data-verdict=\"fail\"])")" = 1 &&
	xp "//*[@id=\"verdict-table\"]//*[@data-verdict=\"fail\"]" | grep -q "fc-raid5-jfs"
'

test_expect_success 'pivot and dimensions: values as data, inferred marked' '
	"$CLYDE" report -o page.html --rows fs --columns controller,raid "$FIX/seed002-pivot.csv" &&
	xmllint --noout page.html &&
	t="//*[local-name()=\"table\"][@class=\"pivot\"][@data-test=\"put_block\"]" &&
	test "$(xp "count($t//*[local-name()=\"tbody\"]/*)")" = 2 &&
	test "$(xp "$t//*[local-name()=\"tr\"][*[1][@data-value=\"xfs\"]]/*[local-name()=\"td\"][3]/@data-v")" = 99000 &&
	test "$(xp "count(//*[@id=\"dims-table\"]//*[@data-source=\"inferred\"])")" = 40
'

test_expect_success JQ 'repeat statistics and the regression watch' '
	for v in 400000 410000 405000; do
		head -1 "$FIX/clyde.jsonl" | jq -c --argjson w $v ".label = \"a\" | .tags = {} |
			(.results[] | select(.name == \"put_block\") | .value) = \$w"
	done >old.jsonl &&
	for v in 300000 310000 305000; do
		head -1 "$FIX/clyde.jsonl" | jq -c --argjson w $v ".label = \"a\" | .tags = {} |
			(.results[] | select(.name == \"put_block\") | .value) = \$w"
	done >new.jsonl &&
	"$CLYDE" report -o page.html --baseline-file old.jsonl new.jsonl &&
	xmllint --noout page.html &&
	test "$(xp "(//*[@id=\"regression-table\"]//*[local-name()=\"tbody\"]/*)[1]/@data-verdict")" = down &&
	sed "s/\"label\":\"a\"/\"label\":\"b\"/" new.jsonl >b.jsonl &&
	"$CLYDE" report -o page.html old.jsonl b.jsonl 2>/dev/null &&
	xmllint --noout page.html &&
	xp "//*[@id=\"stats-table\"]//*[local-name()=\"tr\"][@data-test=\"put_block\"][2]" | grep -q "significantly lower"
'

test_expect_success 'rate curves: a table per configuration and the response-time chart' '
	dir=$(mktemp -d /dev/shm/t3109.XXXXXX) &&
	test_cleanup "rm -rf \"$dir\"" &&
	for l in c-a c-b; do
		"$CLYDE" matrix -d "$dir" --bs 4k --threads 1 --pattern random \
			--mix 100 --size 2M --time 0.05 --ramp 0 -m $l \
			--curve 50,100 --json m.jsonl >/dev/null || return 1
	done &&
	"$CLYDE" report -o page.html m.jsonl &&
	xmllint --noout page.html &&
	test "$(xp "count(//*[local-name()=\"svg\"][@class=\"curve\"])")" = 1 &&
	test "$(xp "count(//*[local-name()=\"svg\"][@class=\"curve\"]/*[local-name()=\"polyline\"])")" = 2 &&
	test "$(xp "count(//*[local-name()=\"table\"][@class=\"curve\"])")" = 2 &&
	test "$(xp "count(//*[local-name()=\"table\"][@class=\"curve\"]//*[@data-pct])")" = 4 &&
	t=$(jq ".matrix.cells[0].curve[0].target_iops | round" m.jsonl | head -1) &&
	test "$(xp "round((//*[local-name()=\"table\"][@class=\"curve\"])[1]//*[@data-pct=\"50\"]/*[3]/@data-v)")" = "$t" &&
	# the matrix of each run in the XDISK layout: a row per pattern, profile
	test "$(xp "count(//*[local-name()=\"table\"][@class=\"xdisk\"])")" = 2 &&
	test "$(xp "count(//*[@id=\"mxrun1\"])")" = 1 &&
	xp "(//*[local-name()=\"table\"][@class=\"xdisk\"])[1]//*[local-name()=\"tbody\"]/*[1]" |
		grep -q "^RandomRandom\|^Random100% read" &&
	i=$(jq ".matrix.cells[0].iops" m.jsonl | head -1) &&
	test "$(xp "(//*[local-name()=\"table\"][@class=\"xdisk\"])[1]//*[local-name()=\"tbody\"]/*[1]/*[3]/@data-v")" = "$(printf "%.10g" "$i")" &&
	"$CLYDE" report -f text m.jsonl >out.txt &&
	grep -q "^Rate curve: 4K block size — 1 thread, Random 100% read$" out.txt &&
	test "$(grep -c "^\[[12]\] c-[ab]" out.txt)" -ge 2
'

# runs LABEL VALUE...: a run of clyde.jsonl per value, its block write set
# to it, labelled LABEL (each label a configuration of its own)
runs () {
	l=$1 && shift &&
	for v in "$@"; do
		head -1 "$FIX/clyde.jsonl" | jq -c --arg l "$l" --argjson w "$v" \
			".label = \$l | .tags = {} |
			 (.results[] | select(.name == \"put_block\") | .value) = \$w" ||
		return 1
	done
}

# td TEST GROUP ATTR: attribute ATTR of the bonnie++ table's cell
td () {
	xp "//*[@id=\"bonnie-table\"]//*[local-name()=\"td\"][@data-test=\"$1\"][@data-group=\"$2\"]/@$3"
}

test_expect_success JQ 'single runs: 2 % is noise (no colour), 40 % is coloured and marked' '
	{ runs base 400000 && runs noise 408000 && runs faster 560000 &&
	  runs slower 240000; } >single.jsonl &&
	"$CLYDE" report -o page.html single.jsonl &&
	xmllint --noout page.html &&
	test "$(td put_block 1 class)" = num &&
	test "$(td put_block 2 class)" = num &&
	test "$(td put_block 2 data-diff)" = same &&
	test "$(xp "count(//*[@id=\"bonnie-table\"]//*[@data-group=\"2\"]//*[@class=\"diff\"])")" = 0 &&
	test "$(td put_block 3 class)" = "num better" &&
	test "$(td put_block 3 data-diff)" = higher &&
	test "$(td put_block 4 class)" = "num worse" &&
	test "$(td put_block 4 data-diff)" = lower &&
	xp "//*[@id=\"bonnie-table\"]//*[@data-test=\"put_block\"][@data-group=\"3\"]/*[@class=\"diff\"]/@title" |
		grep -q "higher, beyond the +-10 % noise band (a single run)" &&
	# the rule said once, near the tables, with the band used
	test "$(xp "count(//*[@id=\"diff-legend\"])")" = 1 &&
	xp "//*[@id=\"diff-legend\"]" >legend &&
	grep -q "coloured only where it differs from the baseline" legend &&
	grep -q "Welch.s t-test at 95 %" legend &&
	grep -q "beyond the +-10 % noise band (--noise-band)" legend &&
	# a narrower band: the 2 % is then a difference, and the page says 1 %
	"$CLYDE" report -o page.html --noise-band 1 single.jsonl &&
	test "$(td put_block 2 class)" = "num better" &&
	xp "//*[@id=\"diff-legend\"]" | grep -q "+-1 % noise band" &&
	# latency percentiles carry no test of a difference: never coloured
	test "$(xp "count(//*[local-name()=\"table\"][@class=\"latency\"]//*[local-name()=\"td\"])")" -gt 0 &&
	test "$(xp "count(//*[local-name()=\"table\"][@class=\"latency\"]//*[@style or contains(@class, \"better\") or contains(@class, \"worse\")])")" = 0
'

test_expect_success JQ 'repeats: Welch decides; high variance is not coloured' '
	{ runs base 400000 410000 405000 && runs wild 300000 600000 450000 &&
	  runs tight 450000 455000 452000; } >rep.jsonl &&
	"$CLYDE" report -o page.html rep.jsonl &&
	xmllint --noout page.html &&
	# x1.11 beyond the band, but not significant with that spread
	test "$(td put_block 2 class)" = num &&
	test "$(td put_block 2 data-diff)" = same &&
	test "$(td put_block 3 class)" = "num better" &&
	xp "//*[@id=\"bonnie-table\"]//*[@data-test=\"put_block\"][@data-group=\"3\"]/*[@class=\"diff\"]/@title" |
		grep -q "significantly higher (Welch p" &&
	# the statistics table colours its verdict the same way
	test "$(xp "//*[@id=\"stats-table\"]//*[local-name()=\"tr\"][@data-test=\"put_block\"][2]/*[last()]/@class")" = "" &&
	test "$(xp "//*[@id=\"stats-table\"]//*[local-name()=\"tr\"][@data-test=\"put_block\"][3]/*[last()]/@class")" = better
'

test_expect_success JQ 'matrix comparison: colour only beyond the noise, no empty column group' '
	dir=$(mktemp -d /dev/shm/t3111.XXXXXX) &&
	test_cleanup "rm -rf \"$dir\"" &&
	"$CLYDE" matrix -d "$dir" --bs 4k --threads 1 --pattern random \
		--mix 100 --size 2M --time 0.05 --ramp 0 -m mx \
		--json one.jsonl >/dev/null 2>&1 &&
	"$CLYDE" matrix -d "$dir" --bs 8k --threads 1 --pattern random \
		--mix 100 --size 2M --time 0.05 --ramp 0 -m other-shape \
		--json other.jsonl >/dev/null 2>&1 &&
	# the same cell as 1, 1.02, 1.4 and 0.6 times as fast (a rate is
	# read back as the I/Os over the time)
	for c in a:1 b:1.02 c:1.4 d:0.6; do
		jq -c --arg l "${c%:*}" --argjson f "${c#*:}" \
			".label = \$l | .matrix.cells[0].elapsed /= \$f" \
			one.jsonl || return 1
	done >mx.jsonl &&
	cat other.jsonl >>mx.jsonl &&
	"$CLYDE" report -o page.html mx.jsonl &&
	xmllint --noout page.html &&
	iops="//*[@id=\"mx-4096-1-1\"]//*[@data-row=\"iops\"]" &&
	test "$(xp "$iops[@data-group=\"1\"]/@class")" = num &&
	test "$(xp "$iops[@data-group=\"2\"]/@class")" = num &&
	test "$(xp "$iops[@data-group=\"2\"]/@data-diff")" = same &&
	test "$(xp "$iops[@data-group=\"3\"]/@class")" = "num better" &&
	test "$(xp "$iops[@data-group=\"4\"]/@class")" = "num worse" &&
	test "$(xp "count($iops[@data-group=\"3\"]/*[@class=\"diff\"])")" = 1 &&
	test "$(xp "count($iops[@data-group=\"2\"]/*[@class=\"diff\"])")" = 0 &&
	# each table has the configurations of its shape only, the others named
	test "$(xp "count(//*[@id=\"mx-4096-1-1\"]//*[local-name()=\"th\"][@class=\"cfg\"])")" = 4 &&
	test "$(xp "count(//*[@id=\"mx-4096-1-1\"]//*[@data-group=\"5\"])")" = 0 &&
	test "$(xp "count(//*[@id=\"mx-8192-1-1\"]//*[local-name()=\"th\"][@class=\"cfg\"])")" = 1 &&
	test "$(xp "count(//*[@id=\"mx-8192-1-1\"]//*[@data-group=\"1\"])")" = 0 &&
	test "$(xp "count(//*[local-name()=\"p\"][@class=\"note mx-missing\"])")" = 2 &&
	xp "//*[@id=\"mx-8192-1-1\"]/following-sibling::*[1]" |
		grep -q "^Not measured in this shape: a, b, c, d.$" &&
	grep -q "href=\"#diff-legend\"" page.html
'

test_expect_success JQ 'a stopped test: marked in the tables and the long CSV' '
	head -1 "$FIX/clyde.jsonl" | jq -c ".tags = {} |
		(.results[] | select(.name == \"put_block\") | .stopped) = true" \
		>stopped.jsonl &&
	"$CLYDE" report -o page.html stopped.jsonl &&
	xmllint --noout page.html &&
	xp "//*[@id=\"bonnie-table\"]//*[@data-test=\"put_block\"]" | grep -q stopped &&
	test "$(xp "count(//*[@id=\"bonnie-table\"]//*[local-name()=\"span\"][.=\"stopped\"])")" = 1 &&
	test "$(xp "count(//*[@id=\"runs-table\"]//*[local-name()=\"span\"][.=\"stopped\"])")" = 1 &&
	xp "//*[@id=\"diff-legend\"]" |
		grep -q "stopped: the process was stopped (SIGSTOP or SIGTSTP) and continued inside the timed span" &&
	"$CLYDE" report -f csv stopped.jsonl >long.csv &&
	perl -MText::ParseWords -ne "
		chomp; my @f = parse_line(\",\", 0, \$_);
		if (\$. == 1) { %c = map { \$f[\$_] => \$_ } 0..\$#f; next }
		print \"\$f[\$c{test}]|\$f[\$c{stopped}]\n\"" long.csv >col &&
	grep -qx "put_block|1" col &&
	grep -qx "rewrite|0" col &&
	test "$(grep -c "|1$" col)" = 1 &&
	# a run without a stop: no mark
	"$CLYDE" report -o page.html "$FIX/clyde.jsonl" &&
	test "$(xp "count(//*[local-name()=\"span\"][.=\"stopped\"])")" = 0
'

test_done
