#!/bin/bash
# clyde report HTML: the verdict table first, the pivot, dimensions with
# inferred values marked, repeat statistics, the regression watch, and the
# rate curves with their response-time chart; well-formed XML every time.
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

test_done
