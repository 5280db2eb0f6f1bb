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
	test -n "$summary" && test "$summary" -lt "$fold"
'

test_expect_success XMLLINT 'the folded page is well-formed' '
	xmllint --noout page.html
'

test_expect_success 'a few configurations: no fold' '
	"$CLYDE" report -o few.html "$FIX/clyde.jsonl" &&
	! grep -q "class=\"fold\"" few.html
'

test_done
