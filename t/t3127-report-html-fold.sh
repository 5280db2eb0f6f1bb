#!/bin/bash
# clyde report's HTML for many configurations opens on what decides:
# the summary (runs, configurations, baseline) and the verdict stay on
# top, each per-configuration section is folded in a <details>; a page
# of a few configurations is not folded.
. "$(dirname "$0")/lib.sh"

FIX=$TEST_DIR/fixtures/report

test_expect_success JQ '200 configurations: the summary, then the folds' '
	jq -c -s ". as \$b | range(0; 200) as \$i | \$b[\$i % (\$b | length)] |
		.label = \"cfg-\(\$i)\"" "$FIX/clyde.jsonl" >many.jsonl &&
	"$CLYDE" report -o page.html many.jsonl &&
	grep -q "<details class=\"fold\"><summary>Configurations (200 configurations)</summary>" page.html &&
	grep -q "<details class=\"fold\"><summary>Runs (200 configurations)</summary>" page.html &&
	summary=$(grep -n -m1 "runs in 200 configurations" page.html | cut -d: -f1) &&
	fold=$(grep -n -m1 "<details" page.html | cut -d: -f1) &&
	test -n "$summary" && test "$summary" -lt "$fold" &&
	# a section with nothing to say leaves no fold: these runs are no
	# matrix, no zones sweep and no test beyond bonnie++'"'"'s
	grep -c "<summary>[A-Za-z+ ]* (200 configurations)</summary>" page.html >nfolds &&
	test "$(cat nfolds)" = 7 &&
	! grep -q "<summary>Matrix (200" page.html &&
	! grep -q "<summary>Zones (200" page.html &&
	! grep -q "<summary>Other tests (200" page.html &&
	test "$(grep -o "<details[ >]" page.html | wc -l)" = "$(grep -o "</details>" page.html | wc -l)"
'

test_expect_success XMLLINT 'the folded page is well-formed' '
	xmllint --noout page.html
'

test_expect_success 'a few configurations: no fold' '
	"$CLYDE" report -o few.html "$FIX/clyde.jsonl" &&
	! grep -q "class=\"fold\"" few.html
'

test_done
