#!/bin/bash
# Issue 24.3 and 25.3: one file named for two outputs (--json and --csv)
# is refused by every command, before anything is measured or written:
# the same name, another path to an existing file (a hard link), a
# symlink to a file not made yet, /dev/stdout twice.  Exit 2, one line
# naming both, no output file made, nothing left in -d.  An output option
# given twice, likewise.
. "$(dirname "$0")/lib.sh"

# refused CMD...: exit 2 with the one line
refused () {
	test_expect_code 2 "$CLYDE" "$@" >out 2>err &&
	test_line_count = 1 err &&
	grep -q "^clyde: --json '.*' and --csv '.*' are one file" err
}

test_expect_success 'run: --json and --csv naming one new file' '
	refused -s 0 -n 1 --json x.out --csv x.out &&
	test_path_is_missing x.out
'

test_expect_success 'run: an existing file and its hard link, untouched' '
	echo "{}" >h.jsonl && ln h.jsonl h2 &&
	refused -s 0 -n 1 --json h.jsonl --csv h2 &&
	test "$(cat h.jsonl)" = "{}"
'

test_expect_success 'run: a symlink to a file not made yet' '
	ln -s later.out dangling &&
	refused -s 0 -n 1 --json later.out --csv dangling &&
	test_path_is_missing later.out
'

test_expect_success 'run: /dev/stdout twice' '
	refused -s 0 -n 1 --json /dev/stdout --csv /dev/stdout
'

test_expect_success 'matrix: --json and --csv naming one file, nothing made' '
	mkdir md &&
	refused matrix -d md --buffered --size 4M --bs 4k --threads 1 \
		--time 0.1 --ramp 0 --json m.out --csv ./m.out &&
	test_path_is_missing m.out &&
	test -z "$(ls -A md)"
'

test_expect_success 'zones: --json and --csv naming one file, nothing made' '
	mkdir zd &&
	refused zones -d zd --size 4M --engine psync --json z.out \
		--csv "$PWD/z.out" &&
	test_path_is_missing z.out &&
	test -z "$(ls -A zd)"
'

# An output option given twice is refused, never "the last one wins": a
# script reading the first file would lose its runs without a word.
test_expect_success 'an output given twice: refused by every command, nothing made' '
	mkdir d2 &&
	for cmd in "-s 0 -n 1" matrix zones; do
		for o in --json --csv; do
			test_expect_code 2 "$CLYDE" $cmd -d d2 \
				$o one.out $o two.out >out 2>err &&
			test_line_count = 1 err &&
			grep -q "^clyde: $o: given twice (.one.out., then .two.out.); give one$" err &&
			test_path_is_missing one.out &&
			test_path_is_missing two.out || return 1
		done
	done &&
	test -z "$(ls -A d2)" &&
	test_expect_code 2 "$CLYDE" report -o one.html -o two.html \
		"$TEST_DIR/fixtures/report/clyde.jsonl" 2>err &&
	test_line_count = 1 err &&
	grep -q "^clyde report: -o: given twice (.one.html., then .two.html.); give one$" err &&
	test_path_is_missing one.html && test_path_is_missing two.html
'

test_expect_success JQ 'run: two files of their own are written' '
	"$CLYDE" -s 0 -n 1 -q --json r.jsonl --csv r.csv >/dev/null 2>&1 &&
	jq -e ".results | length > 0" r.jsonl &&
	grep -q "^1.98," r.csv
'

test_done
