#!/bin/bash
# clyde report reads clyde JSON lines and bonnie++ CSV lines per line
# (findings F19): a comment or a foreign first line loses no record, and
# each line that is neither is warned about at its own line number.
. "$(dirname "$0")/lib.sh"

FIX=$TEST_DIR/fixtures/report

test_expect_success 'a "# comment" first line: every clyde record is read' '
	{ echo "# my notes"; cat "$FIX/clyde.jsonl"; } >comment.jsonl &&
	"$CLYDE" report -f text comment.jsonl >out 2>err &&
	grep -q "^3 runs in 2 configurations" out && test ! -s err
'

test_expect_success 'an <html> line, JSON and bonnie++ lines mixed, in file order' '
	{ echo "<html>"; head -n 1 "$FIX/clyde.jsonl"; echo;
	  sed -n 2p "$FIX/bonnie-1.98.csv"; echo "not, a, result";
	  sed -n 2p "$FIX/clyde.jsonl"; } >page.html &&
	"$CLYDE" report -f csv page.html >long.csv 2>err &&
	grep -q "^clyde report: page.html:1: not a bonnie++ CSV line" err &&
	grep -q "^clyde report: page.html:5: not a bonnie++ CSV line" err &&
	test "$(grep -c "page.html:" err)" = 2 &&
	test "$(tail -n +2 long.csv | cut -d, -f1 | sort -u | wc -l)" = 3 &&
	grep -q "page.html:2 (clyde JSON)" long.csv &&
	grep -q "page.html:4 (bonnie++ 1.98 CSV)" long.csv &&
	grep -q "page.html:6 (clyde JSON)" long.csv &&
	# runs keep the order of their lines
	grep -o "page.html:[0-9]*" long.csv | uniq >runs &&
	test "$(tr "\n" " " <runs)" = "page.html:2 page.html:4 page.html:6 "
'

test_lazy_prereq JQ 'command -v jq'

# findings F11: "x\u0000y" was cut to "x", merging two configurations
test_expect_success JQ 'a label holding a NUL: the line refused, named' '
	head -n 1 "$FIX/clyde.jsonl" | jq -c ".label = \"x\\u0000y\"" >nul.json &&
	head -n 1 "$FIX/clyde.jsonl" | jq -c ".label = \"x\"" >>nul.json &&
	grep -q "x.u0000y" nul.json &&
	"$CLYDE" report -f text nul.json >out 2>err &&
	grep -q "^clyde report: nul.json:1: .label. holds a NUL" err &&
	grep -q "^1 run in 1 configuration" out
'

test_done
