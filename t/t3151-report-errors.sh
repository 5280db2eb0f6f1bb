#!/bin/bash
# clyde report on bad input and a bad -o (issue 13.9): exit status 2, one
# line per problem, a bounded number of warnings, nothing created.
. "$(dirname "$0")/lib.sh"

FIX=$TEST_DIR/fixtures/report

test_expect_success 'an -o in a missing directory: exit 2, one line, nothing written' '
	test_expect_code 2 "$CLYDE" report -o "$TRASH/no/such/dir/r.html" \
		"$FIX/bonnie-1.98.csv" >out 2>err &&
	test_line_count = 0 out &&
	test_line_count = 1 err &&
	grep -q "^clyde report: cannot create .$TRASH/no/such/dir/r.html.: No such file or directory$" err &&
	test_path_is_missing no
'

test_expect_success 'a missing, an empty and a directory input: exit 2 and one line each' '
	test_expect_code 2 "$CLYDE" report missing.csv >out 2>err &&
	test_line_count = 0 out && test_line_count = 1 err &&
	grep -q "^clyde report: missing.csv: cannot open: No such file or directory$" err &&
	: >empty.csv &&
	test_expect_code 2 "$CLYDE" report empty.csv >out 2>err &&
	test_line_count = 1 err && grep -q "^clyde report: empty.csv: empty$" err &&
	printf "\n \n\t\n" >blank.csv &&
	test_expect_code 2 "$CLYDE" report blank.csv >out 2>err &&
	test_line_count = 1 err && grep -q "blank.csv: empty (only white space)" err &&
	mkdir dir &&
	test_expect_code 2 "$CLYDE" report -o r.html dir >out 2>err &&
	test_line_count = 1 err &&
	grep -q "^clyde report: dir: cannot read: Is a directory$" err &&
	test_path_is_missing r.html
'

test_expect_success 'several unusable inputs: a line each, then one summary' '
	: >empty.csv &&
	test_expect_code 2 "$CLYDE" report missing.csv empty.csv >out 2>err &&
	test_line_count = 3 err &&
	grep -q "missing.csv: cannot open" err && grep -q "empty.csv: empty" err &&
	test "$(tail -n 1 err)" = "clyde report: nothing usable in the input"
'

test_expect_success 'a 1 MB binary input: one line, exit 2' '
	head -c 1048576 /dev/urandom >bin &&
	test_expect_code 2 "$CLYDE" report -f text bin >out 2>err &&
	test_line_count = 1 err &&
	grep -q "^clyde report: bin: binary data" err
'

test_expect_success 'a 1 MB text of foreign lines: the first 5 warnings, then how many more' '
	head -c 786432 /dev/urandom | base64 >junk.txt &&
	lines=$(wc -l <junk.txt) && test "$lines" -gt 10000 &&
	test_expect_code 2 "$CLYDE" report -f text junk.txt >out 2>err &&
	test_line_count = 7 err &&
	test "$(grep -c "^clyde report: junk.txt:[0-9]*: not a bonnie++ CSV line" err)" = 5 &&
	grep -q "^clyde report: junk.txt: $((lines - 5)) more warnings not shown$" err &&
	grep -q "^clyde report: junk.txt: no results found" err
'

test_expect_success 'the limit is per file: good runs with a few bad lines still report' '
	{ cat "$FIX/bonnie-1.98.csv"; for i in $(seq 8); do echo "bad,line"; done; } \
		>some.csv &&
	"$CLYDE" report -f text some.csv "$FIX/bonnie-1.03.csv" >out 2>err &&
	test "$(grep -c "some.csv:[0-9]*: not a bonnie++" err)" = 5 &&
	grep -q "^clyde report: some.csv: 3 more warnings not shown$" err &&
	test_line_count = 6 err &&
	grep -q "deb-big" out
'

test_done
