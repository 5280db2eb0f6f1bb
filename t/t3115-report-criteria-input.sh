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

test_expect_success 'an INI section or --figure with control characters: escaped in the one-line error' '
	printf "[put\033[31mblock]\nmin = 1\n" >esc.ini &&
	test_expect_code 2 "$CLYDE" report -f text --criteria esc.ini "$FIX/clyde.jsonl" 2>err &&
	test_line_count = 1 err &&
	grep -qF "[put\x1b[31mblock]: no such test" err &&
	test_expect_code 2 "$CLYDE" report -f text --rows fs --columns raid \
		--figure "$(printf "a\033b")" "$FIX/seed002-pivot.csv" 2>err &&
	grep -qF -- "--figure '"'"'a\x1bb'"'"': no such test" err &&
	! LC_ALL=C grep -q "$(printf "\033")" err
'

test_done
