#!/bin/bash
# One escaping rule for every text output (issue 24, 4): a label or tag
# with ESC, U+202E and a line break reaches the pivot text, the bonnie++
# line and the long CSV as \x1b, \u202E and \n (lib/textesc.h), never raw
# and never as '?'.  The escaped form is wider: the pivot's columns still
# line up and fit 80 columns; the bonnie++ line, which has no quoting,
# keeps its 50 fields (a comma is \x2c).
. "$(dirname "$0")/lib.sh"

FIX=$TEST_DIR/fixtures/report

test_have_prereq JQ || test_skip_all 'jq is needed to make the records'

# raw FILE: FILE holds an ESC, a U+202E or a '?'
raw () {
	grep -q "$(printf "\033")" "$1" ||
	grep -q "$(printf "\342\200\256")" "$1" || grep -q "?" "$1"
}

test_expect_success 'setup' '
	jq -c "if .label == \"base\" then
		.tags.controller = \"sas\\u001b[31m\\u202e-a-long-controller-name\"
		else .tags.controller = \"fc\\u001b[2J\" end" \
		"$FIX/clyde.jsonl" >p.jsonl &&
	head -1 "$FIX/clyde.jsonl" |
		jq -c ".label = \"a\\u001b[2J\\u202e,b\\nc\"" >l.jsonl
'

test_expect_success 'pivot text: rows escaped, clipped by columns, aligned' '
	"$CLYDE" report -f text --rows controller --columns fs \
		--figure put_block p.jsonl >rows.txt &&
	! raw rows.txt &&
	test "$(LC_ALL=C.UTF-8 wc -L <rows.txt)" -le 80 &&
	grep -q "^controller  *ext4  fs$" rows.txt &&
	grep -q "^fc\\\\x1b\[2J  *674,197$" rows.txt &&
	grep -q "^sas\\\\x1b\[31m\\\\u202E-a-l\.\.\.  *703,781N$" rows.txt &&
	# the figures end where the column heading does
	head=$(grep "^controller " rows.txt) &&
	fc=$(grep "^fc" rows.txt) && sas=$(grep "^sas" rows.txt) &&
	test "${#fc}" -eq $((${#head} - 4)) &&
	test "${#sas}" -eq $((${#head} - 4))
'

test_expect_success 'pivot text: column keys escaped and fitted to their column' '
	"$CLYDE" report -f text --rows fs --columns controller \
		--figure put_block p.jsonl >cols.txt &&
	! raw cols.txt &&
	grep -q "^fs  *fc\\\\x1b\[2J sas\\\\x1b\[\.\.\.  controller$" cols.txt &&
	grep -q "^ext4  *674,197  *703,781N$" cols.txt &&
	head=$(grep "^fs " cols.txt) && row=$(grep "^ext4 " cols.txt) &&
	test "${#head}" -eq $((${#row} + 12))
'

test_expect_success 'bonnie++ line: the label escaped, a comma \x2c, 50 fields' '
	"$CLYDE" report -f bonnie l.jsonl >b.csv &&
	test_line_count = 1 b.csv &&
	test "$(awk -F, "{ print NF }" b.csv)" = 50 &&
	test "$(cut -d, -f3 b.csv)" = "a\\x1b[2J\\u202E\\x2cb\\nc" &&
	! raw b.csv
'

test_expect_success 'long CSV: the label escaped, then quoted for its comma' '
	"$CLYDE" report -f csv l.jsonl >long.csv &&
	test "$(wc -l <long.csv)" = 13 &&
	sed -n 2p long.csv |
		grep -q "^1,1,\"a\\\\x1b\[2J\\\\u202E,b\\\\nc\",clyde," &&
	! grep -q "$(printf "\033")" long.csv &&
	! grep -q "$(printf "\342\200\256")" long.csv
'

test_done
