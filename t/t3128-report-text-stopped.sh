#!/bin/bash
# clyde report -f text: a figure of a test the run was stopped (SIGSTOP)
# and continued in is marked T in the comparison, as a cached read is
# marked C, with a legend line saying what T means; a comparison without
# one has neither (issue 24, 5).  And the configuration's dimensions under
# its name are escaped as every text (issue 24, 4): \x1b, \u202E, never
# the raw character nor a '?'.
. "$(dirname "$0")/lib.sh"

FIX=$TEST_DIR/fixtures/report

test_have_prereq JQ || test_skip_all 'jq is needed to make the records'

# The first configuration's block write stopped; its controller hostile.
test_expect_success 'setup' '
	jq -c "if .label == \"base\" then . else
		(.results[] |= (if .name == \"put_block\" then .stopped = true
				else . end)) |
		.tags.controller = \"fc\\u001b[31m\\u202e\\u0085x\" end" \
		"$FIX/clyde.jsonl" >stopped.jsonl &&
	test "$(jq -c "[.results[] | select(.stopped)] | length" stopped.jsonl |
		tr "\n" " ")" = "1 0 0 "
'

# row TEST LABEL FILE: the line of configuration LABEL in TEST's table
row () {
	sed -n "/^$1  /,/^$/p" "$3" | grep "^$2"
}

test_expect_success 'the stopped figure is marked T, the others not' '
	"$CLYDE" report -f text stopped.jsonl >out.txt &&
	test "$(LC_ALL=C.UTF-8 wc -L <out.txt)" -le 80 &&
	row "Block write" "xfs<script>" out.txt >r &&
	test_line_count = 1 r &&
	grep -q " base LT$" r &&
	row "Block write" base out.txt | grep -q " LN$" &&
	row Rewrite "xfs<script>" out.txt | grep -q " base L$" &&
	test "$(grep -c -E " (base|[0-9.-]+) [LCSN]*T$" out.txt)" = 1
'

test_expect_success 'the legend says what T means, once' '
	grep -q "^  T stopped: the process was stopped (SIGSTOP or SIGTSTP) and continued inside$" out.txt &&
	grep -q "^  the timed span: the time it stood still is in the figures$" out.txt &&
	test "$(grep -c "T stopped" out.txt)" = 1
'

test_expect_success 'no stop: no T and no legend line' '
	"$CLYDE" report -f text "$FIX/clyde.jsonl" >plain.txt &&
	! grep -q "T stopped" plain.txt &&
	! grep -q -E " (base|[0-9.-]+) [LCSN]*T$" plain.txt
'

test_expect_success 'the dimensions are escaped, in 72 columns' '
	grep -q "^      controller=fc\\\\x1b\[31m\\\\u202E\\\\u0085x fs=ext4$" out.txt &&
	! grep -q "$(printf "\033")" out.txt &&
	! grep -q "$(printf "\342\200\256")" out.txt &&
	jq -c ".tags.controller = \"\\u001b\" * 40" stopped.jsonl >wide.jsonl &&
	"$CLYDE" report -f text wide.jsonl >wide.txt &&
	grep -A1 "^  1 " wide.txt | sed -n 2p >dims &&
	test "$(LC_ALL=C.UTF-8 wc -L <dims)" -le 78 &&
	grep -q "^      fs=ext4$" dims
'

test_done
