#!/bin/bash
# clyde report says when its inputs cannot fit in the memory there is
# (here a RLIMIT_AS set by ulimit -v), before reading any of them: one
# line with what they need and what is available, exit 2, nothing
# written; inputs that fit are reported under the same limit.  Records
# piped in are held as their model only.
. "$(dirname "$0")/lib.sh"

FIX=$TEST_DIR/fixtures/report

# AddressSanitizer reserves terabytes of address space for its shadow: it
# cannot start under a ulimit -v of a gigabyte
[ -z "${CLYDE_SANITIZE:-}" ] ||
	test_skip_all "a sanitizer build (SANITIZE=1): ASan's shadow memory does not fit under ulimit -v"

# refused ARGS...: clyde report -f text ARGS under a ulimit -v of about a
# gigabyte, exit 2 expected; what it printed in stdout, its errors in err
refused () {
	( ulimit -v 1000000 &&
	  test_expect_code 2 "$CLYDE" report -f text "$@" >stdout 2>err )
}

# a sparse file that starts as JSON: 4 GiB by its size, no disk taken;
# read, it would need more than the limit lets clyde map (half a byte a
# byte of JSON: 2 GiB)
test_expect_success 'inputs beyond the memory limit: one line, exit 2' '
	printf "{" >big.jsonl && truncate -s 4G big.jsonl &&
	refused -o out.txt big.jsonl &&
	test_line_count = 1 err &&
	grep -q "^clyde report: these inputs need about 2.0 GiB, [0-9.]* GiB available$" err &&
	! test -s stdout && ! test -e out.txt
'

# read a line at a time, a file of JSON costs its records' model, half a
# byte a byte (cmd_report.c), not its size again for a buffer: 2 GiB and
# its baseline file of 1 GiB need 1.5 GiB
test_expect_success 'the baseline file counts in what the inputs need' '
	printf "{" >a.jsonl && truncate -s 2G a.jsonl &&
	printf "{" >b.jsonl && truncate -s 1G b.jsonl &&
	refused a.jsonl --baseline-file b.jsonl &&
	grep -q "need about 1.5 GiB" err
'

# bonnie++'"'"'s CSV: a line of a few hundred bytes is a record of a few
# KB (24 bytes a byte): 100 MiB of it need 2.3 GiB; a binary file (a NUL
# first) a byte a byte, its first line read whole before the NUL shows
test_expect_success 'text inputs count as what their lines become, binary as its size' '
	printf "1.98,2.00a," >big.csv && truncate -s 100M big.csv &&
	refused big.csv &&
	test_line_count = 1 err &&
	grep -q "need about 2.3 GiB" err &&
	truncate -s 4G nul.jsonl &&
	refused nul.jsonl &&
	test_line_count = 1 err &&
	grep -q "need about 4.0 GiB" err
'

# a line longer than the memory there is (no newline in 600 MB): said as
# what it is, not as an empty file
test_expect_success 'a line that cannot be held: cannot read, exit 2' '
	printf "{" >long.jsonl && truncate -s 600M long.jsonl &&
	refused long.jsonl &&
	test_line_count = 1 err &&
	grep -q "^clyde report: long.jsonl: cannot read: Cannot allocate memory$" err
'

test_expect_success 'inputs that fit are reported under the same limit' '
	( ulimit -v 1000000 &&
	  "$CLYDE" report -f text "$FIX/clyde.jsonl" >out.txt ) &&
	grep -q "runs in 2 configurations" out.txt
'

# A pipe's text is kept only until a record is read from it (it would be
# read again were it fio JSON): a fleet's records piped in are held once,
# as their model, not also as their text.  3,000 records (about 50 MB of
# JSON) take less memory than their text (they took twice as much).
test_lazy_prereq GNUTIME 'test -x /usr/bin/time'
test_expect_success JQ,GNUTIME 'records piped in are not held as text' '
	jq -c -s ". as \$b | range(0; 3000) as \$i | \$b[\$i % (\$b | length)] |
		.label = \"n\(\$i % 300)\"" "$FIX/clyde.jsonl" >fleet.jsonl &&
	bytes=$(wc -c <fleet.jsonl) &&
	# a pipe (a file given as standard input can be read again)
	cat fleet.jsonl |
	/usr/bin/time -f %M -o rss "$CLYDE" report -f text - >piped.txt &&
	"$CLYDE" report -f text fleet.jsonl >file.txt &&
	test_cmp file.txt piped.txt &&
	grep -q "^3000 runs in 300 configurations" piped.txt &&
	echo "peak RSS $(cat rss) KiB for $bytes bytes piped in" &&
	test "$(cat rss)" -lt $((bytes / 1024 * 3 / 4))
'

# records, then fio JSON: refused alike from a pipe (whose text before
# is no longer kept) and from a file, whether fio's JSON is printed on
# lines or compact, after clyde records or bonnie++ lines
test_expect_success JQ 'fio JSON after records, piped or a file: one line, exit 2' '
	cat "$FIX/clyde.jsonl" "$FIX/fio-write.json" >mixed.json &&
	{ cat "$FIX/bonnie-1.98.csv"; jq -c . "$FIX/fio-write.json"; } >mixed2.json &&
	for f in mixed.json mixed2.json; do
		cat $f | test_expect_code 2 "$CLYDE" report -f text - >out 2>err &&
		test_line_count = 1 err &&
		grep -q "^clyde report: -:[0-9]*: fio JSON after records in one input: give fio.s output as an input of its own$" err &&
		! test -s out &&
		test_expect_code 2 "$CLYDE" report -f text $f >out 2>err &&
		test_line_count = 1 err &&
		grep -q "^clyde report: $f:[0-9]*: fio JSON after records in one input" err || return 1
	done
'

test_done
