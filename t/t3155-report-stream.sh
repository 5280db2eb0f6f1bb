#!/bin/bash
# clyde report reads clyde JSON lines one at a time, never the whole
# file into memory: a file far larger than a memory limit (ulimit -v)
# whose lines are few records and long lines of padding is read under
# it, every line's number right; a file that turns out binary or fio
# JSON half-way is read as such, through a file or a pipe.
. "$(dirname "$0")/lib.sh"

FIX=$TEST_DIR/fixtures/report

[ -z "${CLYDE_SANITIZE:-}" ] ||
	test_skip_all "a sanitizer build (SANITIZE=1): ASan's shadow memory does not fit under ulimit -v"

# LINES lines of MIB MiB each: '{', spaces, '}' (a JSON object, not a
# record: a warning each)
padding () {
	awk -v n="$1" -v mib="$2" 'BEGIN {
		pad = sprintf("%1024s", "")
		for (i = 0; i < 10; i++)
			pad = pad pad
		for (l = 0; l < n; l++) {
			printf "{"
			for (m = 0; m < mib; m++)
				printf "%s", pad
			print "}"
		}
	}'
}

test_expect_success 'a file twice a 48 MB memory limit, read under it' '
	{ head -n 1 "$FIX/clyde.jsonl" && padding 48 2 &&
	  tail -n 1 "$FIX/clyde.jsonl"; } >big.jsonl &&
	test $(wc -c <big.jsonl) -gt 100000000 &&
	( ulimit -v 48000 &&
	  "$CLYDE" report -f text - <big.jsonl >out.txt 2>err ) &&
	grep -q "runs in 2 configurations" out.txt &&
	grep -q "^clyde report: -:2: no .schema. version: not a clyde run record$" err &&
	grep -q "^clyde report: -: 43 more warnings not shown$" err
'

test_expect_success 'line numbers of records and warnings, streamed' '
	{ head -n 1 "$FIX/clyde.jsonl" && echo && echo "{\"schema\":1}" &&
	  echo "# a comment" && tail -n 1 "$FIX/clyde.jsonl"; } >mixed.jsonl &&
	"$CLYDE" report -f text mixed.jsonl >out.txt 2>err &&
	grep -q "^clyde report: mixed.jsonl:3: " err &&
	"$CLYDE" report -f csv mixed.jsonl >out.csv &&
	grep -q "mixed.jsonl:1 (clyde JSON)" out.csv &&
	grep -q "mixed.jsonl:5 (clyde JSON)" out.csv
'

test_expect_success 'records, then a NUL byte: binary, no records' '
	{ cat "$FIX/clyde.jsonl" && printf "x\0y\n"; } >nul.jsonl &&
	test_expect_code 2 "$CLYDE" report -f text nul.jsonl >out.txt 2>err &&
	grep -q "^clyde report: nul.jsonl: binary data (a NUL byte)" err &&
	test_line_count = 1 err
'

# fio's JSON is one document: found after lines were read, it is read
# again whole (a file from its start, a pipe from what was kept)
for how in file pipe; do
	test_expect_success "fio JSON after fio's messages, through a $how" '
		{ echo "fio: a message of fio" && cat "$FIX/fio-write.json"; } >fio.txt &&
		"$CLYDE" report -f text "$FIX/fio-write.json" >want.txt 2>/dev/null &&
		if [ '"$how"' = file ]; then
			"$CLYDE" report -f text - <fio.txt >got.txt 2>err
		else
			cat fio.txt | "$CLYDE" report -f text - >got.txt 2>err
		fi &&
		grep -q "1 line of fio.s own messages ignored" err &&
		sed -n "2,\$p" want.txt >want.body && sed -n "2,\$p" got.txt >got.body &&
		test_cmp want.body got.body
	'
done

test_done
