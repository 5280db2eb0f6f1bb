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

test_expect_success 'several unusable inputs: a line each, nothing more' '
	: >empty.csv &&
	test_expect_code 2 "$CLYDE" report missing.csv empty.csv >out 2>err &&
	test_line_count = 2 err &&
	grep -q "missing.csv: cannot open" err && grep -q "empty.csv: empty" err
'

test_expect_success 'a 1 MB binary input: one line, exit 2' '
	head -c 1048576 /dev/urandom >bin &&
	test_expect_code 2 "$CLYDE" report -f text bin >out 2>err &&
	test_line_count = 1 err &&
	grep -q "^clyde report: bin: binary data" err
'

test_expect_success 'a 1 MB text of foreign lines: one line, how many problems and the first' '
	head -c 786432 /dev/urandom | base64 >junk.txt &&
	lines=$(wc -l <junk.txt) && test "$lines" -gt 10000 &&
	test_expect_code 2 "$CLYDE" report -f text junk.txt >out 2>err &&
	test_line_count = 1 err &&
	grep -q "^clyde report: junk.txt: no results found (neither clyde JSON, bonnie++ CSV nor fio JSON): $lines problems, the first on line 1: not a bonnie++ CSV line" err
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

test_expect_success 'a --baseline-file missing, empty or not a results file: one line each' '
	test_expect_code 2 "$CLYDE" report -f text --baseline-file nosuch \
		"$FIX/clyde.jsonl" >out 2>err &&
	test_line_count = 1 err &&
	grep -q "^clyde report: --baseline-file: nosuch: cannot open: No such file or directory$" err &&
	: >empty &&
	test_expect_code 2 "$CLYDE" report -f text --baseline-file empty \
		"$FIX/clyde.jsonl" >out 2>err &&
	test_line_count = 1 err &&
	grep -q "^clyde report: --baseline-file: empty: empty$" err &&
	seq 8 >eight &&
	test_expect_code 2 "$CLYDE" report -f text --baseline-file eight \
		"$FIX/clyde.jsonl" >out 2>err &&
	test_line_count = 1 err &&
	grep -q "^clyde report: --baseline-file: eight: no results found (neither clyde JSON, bonnie++ CSV nor fio JSON): 8 problems, the first on line 1: not a bonnie++ CSV line (1 field;" err &&
	test_expect_code 2 "$CLYDE" report -f text eight >out 2>err &&
	test_line_count = 1 err
'

test_expect_success 'a line of 10,001 fields is called that, not "64 fields"' '
	printf "x%.0s," $(seq 10000) >wide.csv && echo x >>wide.csv &&
	test_expect_code 2 "$CLYDE" report -f text wide.csv >out 2>err &&
	test_line_count = 1 err &&
	grep -q "not a bonnie++ CSV line (10001 fields;" err &&
	{ printf "1.98"; printf ",x%.0s" $(seq 10000); echo; } >wide198.csv &&
	test_expect_code 2 "$CLYDE" report -f text wide198.csv >out 2>err &&
	grep -q ": 10001 fields where bonnie++ 1.98 CSV has 50$" err
'

test_expect_success 'a pivot of a dimension against itself is refused' '
	test_expect_code 2 "$CLYDE" report -f text --rows fs --columns fs \
		"$FIX/seed002-pivot.csv" >out 2>err &&
	test_line_count = 1 err &&
	grep -q "^clyde report: the dimension .fs. is named twice in --rows and --columns" err &&
	test_expect_code 2 "$CLYDE" report -f text --rows fs,raid --columns raid \
		"$FIX/seed002-pivot.csv" >out 2>err &&
	grep -q "dimension .raid. is named twice" err &&
	"$CLYDE" report -f text --rows fs --columns raid \
		"$FIX/seed002-pivot.csv" >out
'

test_expect_success 'U+202E, a C1 control and bytes that are not UTF-8 in a label: escaped in -f text' '
	awk -F, "BEGIN { OFS = \",\" } NR == 1 { \$3 = \"a\342\200\256b\302\205c\377d\" } { print }" \
		"$FIX/bonnie-1.98.csv" >u.csv &&
	"$CLYDE" report -f text u.csv >out 2>err &&
	grep -qF "a\u202Eb\u0085c\xffd (1 run)" out &&
	! LC_ALL=C grep -q "$(printf "\342\200\256\\|\302\205\\|\377")" out
'

test_done
