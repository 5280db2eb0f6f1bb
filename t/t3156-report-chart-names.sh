#!/bin/bash
# A bar chart's configuration label is shown by textesc's one rule, as
# every text output shows an input: a control character in a label reads
# \x01 on the chart, as in the text report, not a '?' of its own.
. "$(dirname "$0")/lib.sh"

FIX=$TEST_DIR/fixtures/report

test_expect_success JQ 'a control character in a chart label: \x01' '
	jq -c ".label = \"ctl\u0001-\" + .label" "$FIX/clyde.jsonl" >ctl.jsonl &&
	"$CLYDE" report -o page.html ctl.jsonl &&
	grep -q "\[1\] ctl\\\\x01-" page.html &&
	! grep -q "\[1\] ctl?-" page.html
'

test_done
