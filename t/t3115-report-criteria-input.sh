#!/bin/bash
# --criteria: a section naming no test is bad input (exit 2, the section
# named), a known test nobody measured stays a failure (exit 3), and a
# line too long for the INI reader is reported at its own line (findings F9).
. "$(dirname "$0")/lib.sh"

FIX=$TEST_DIR/fixtures/report

test_expect_success 'a misspelt section: exit 2, the section named, no -o' '
	printf "[nosuchtest]\nmin = 1\n" >bad.ini &&
	test_expect_code 2 "$CLYDE" report -f text "$FIX/clyde.jsonl" \
		--criteria bad.ini -o out.txt 2>err &&
	test "$(wc -l <err)" = 1 &&
	grep -q "^clyde report: bad.ini: \[nosuchtest\]: no such test" err &&
	test ! -e out.txt
'

test_expect_success 'a known test that was not measured is still a FAIL' '
	printf "[Sequential create]\nmin = 1\n" >notrun.ini &&
	test_expect_code 3 "$CLYDE" report -f text "$FIX/fio-write.json" \
		--criteria notrun.ini >out 2>err &&
	grep -q "not measured" out && grep -q "FAIL, 1 of 1" err
'

test_expect_success 'a line over the INI limit: reported at its own line' '
	{ echo "[put_block]"; printf "min = 1%0300d\n" 0; } >long.ini &&
	test "$(wc -l <long.ini)" = 2 &&
	test_expect_code 2 "$CLYDE" report -f text "$FIX/clyde.jsonl" \
		--criteria long.ini 2>err &&
	grep -q "^clyde report: long.ini:2: longer than" err
'

test_expect_success 'an INI section with control characters refused, with U+202E or --figure with controls: escaped in the one-line error' '
	printf "[put\033[31mblock]\nmin = 1\n" >esc.ini &&
	test_expect_code 2 "$CLYDE" report -f text --criteria esc.ini "$FIX/clyde.jsonl" 2>err &&
	test_line_count = 1 err &&
	grep -qF "esc.ini:1: not text (a control character)" err &&
	printf "[put\342\200\256block]\nmin = 1\n" >bidi.ini &&
	test_expect_code 2 "$CLYDE" report -f text --criteria bidi.ini "$FIX/clyde.jsonl" 2>err &&
	test_line_count = 1 err &&
	grep -qF "[put\u202Eblock]: no such test" err &&
	test_expect_code 2 "$CLYDE" report -f text --rows fs --columns raid \
		--figure "$(printf "a\033b")" "$FIX/seed002-pivot.csv" 2>err &&
	grep -qF -- "--figure '"'"'a\x1bb'"'"': neither a test nor a matrix cell" err &&
	! LC_ALL=C grep -q "$(printf "\033")" err
'

test_expect_success 'criteria bytes that are not text: refused at their line' '
	printf "[put_block]\nmin = 1\000\001\377\376\n" >nul.ini &&
	test_expect_code 2 "$CLYDE" report -f text "$FIX/clyde.jsonl" \
		--criteria nul.ini -o out.txt 2>err &&
	test_line_count = 1 err &&
	grep -q "^clyde report: nul.ini:2: not text" err &&
	test ! -e out.txt &&
	printf "[put_block]\nmin = 1\n\000\000\000garbage\n" >garbage.ini &&
	test_expect_code 2 "$CLYDE" report -f text "$FIX/clyde.jsonl" \
		--criteria garbage.ini 2>err &&
	grep -q "^clyde report: garbage.ini:3: not text" err &&
	printf "[put_block]\nmin = 1 \377\n" >latin1.ini &&
	test_expect_code 2 "$CLYDE" report -f text "$FIX/clyde.jsonl" \
		--criteria latin1.ini 2>err &&
	grep -q "^clyde report: latin1.ini:2: not text (bytes that are not UTF-8)" err
'

test_expect_success 'a key given twice in a section: refused at its second line' '
	printf "[put_block]\nmin = 1\nmax_cpu = 90\nmin = 2\n" >twice.ini &&
	test_expect_code 2 "$CLYDE" report -f text "$FIX/clyde.jsonl" \
		--criteria twice.ini 2>err &&
	test_line_count = 1 err &&
	grep -q "^clyde report: twice.ini:4: \[put_block\]: .min. given twice" err &&
	printf "[baseline]\nlabel = a\nlabel = b\n[put_block]\nmin = 1\n" >label.ini &&
	test_expect_code 2 "$CLYDE" report -f text "$FIX/clyde.jsonl" \
		--criteria label.ini 2>err &&
	grep -q "^clyde report: label.ini:3: \[baseline\]: .label. given twice" err &&
	printf "[put_block]\nmin = 1\n[all]\nmin = 1\n" >two-sections.ini &&
	"$CLYDE" report -f text "$FIX/clyde.jsonl" --criteria two-sections.ini >out
'

test_expect_success 'not_worse = maybe: it must be yes or no' '
	printf "[put_block]\nnot_worse = maybe\n" >maybe.ini &&
	test_expect_code 2 "$CLYDE" report -f text "$FIX/clyde.jsonl" \
		--criteria maybe.ini 2>err &&
	test_line_count = 1 err &&
	grep -q "^clyde report: maybe.ini:2: not_worse: .maybe. must be yes or no" err
'

test_done
