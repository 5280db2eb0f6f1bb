#!/bin/bash
# clyde report reads everything it is given, or stops (issue 21.5): an
# input that cannot be read or gives no results among good ones is exit 2
# with one line and no report; standard input is read once; bonnie++'s
# text tables and fio's messages are said once per file.
. "$(dirname "$0")/lib.sh"

FIX=$TEST_DIR/fixtures/report
top=$(git -C "$SRC_DIR" rev-parse --show-toplevel 2>/dev/null || echo "$SRC_DIR")
RW=${CLYDE_REALWORLD:-$top/../shared/realworld}
[ -n "${CLYDE_REALWORLD:-}" ] || [ -d "$RW" ] || RW=$top/../../shared/realworld
test_lazy_prereq REALWORLD '[ -f "$RW/bonnie-cunnie-cloud_storage_benchmarks-1.97-gce_pd-ssd.txt" ]'

# stops BAD: a good input and BAD give exit 2, no page, one line naming BAD
stops () {
	test_expect_code 2 "$CLYDE" report -o out.html "$1" \
		"$FIX/clyde.jsonl" >out 2>err &&
	test_line_count = 1 err &&
	grep -q "^clyde report: $1: $2" err &&
	test_path_is_missing out.html &&
	# the same among the inputs in the other order
	test_expect_code 2 "$CLYDE" report -o out.html "$FIX/clyde.jsonl" \
		"$1" >out 2>err &&
	test_line_count = 1 err &&
	test_path_is_missing out.html
}

test_expect_success 'a missing input among good ones: exit 2, one line, no report' '
	stops missing.jsonl "cannot open: No such file or directory$"
'

test_expect_success '/dev/null among the inputs: exit 2, one line' '
	stops /dev/null "empty$"
'

test_expect_success 'a directory among the inputs: exit 2, one line' '
	mkdir dir &&
	stops dir "cannot read: Is a directory$"
'

test_expect_success 'an input with no results among good ones: exit 2, no report, the reason with its first problem' '
	printf "hello, world\n" >junk.txt &&
	test_expect_code 2 "$CLYDE" report -o out.html junk.txt "$FIX/clyde.jsonl" 2>err &&
	test_path_is_missing out.html &&
	grep -q "junk.txt: no results found (neither clyde JSON, bonnie++ CSV nor fio JSON): 1 problem, the first on line 1: not a bonnie++ CSV line (2 fields" err
'
test_expect_success 'standard input named twice: refused, nothing read' '
	test_expect_code 2 "$CLYDE" report -f text - - <"$FIX/clyde.jsonl" >out 2>err &&
	test_line_count = 0 out &&
	test_line_count = 1 err &&
	grep -q "^clyde report: .-. named twice: standard input can be read once$" err &&
	# once is fine
	"$CLYDE" report -f text - <"$FIX/clyde.jsonl" >out 2>err &&
	grep -q "runs* in" out
'

test_expect_success 'one file named twice would count its runs twice: refused' '
	cp "$FIX/bonnie-1.98.csv" b.csv &&
	test_expect_code 2 "$CLYDE" report -f text b.csv ./b.csv >out 2>err &&
	test_line_count = 1 err &&
	grep -q "^clyde report: .b.csv. and .\./b.csv. are the same file: its runs would count twice$" err
'

test_expect_success 'bonnie++ output with its text tables and progress: said once, the lines read' '
	# what bonnie++ 2.00a prints without -q (2>&1), for two runs
	for s in 1796171836 1796173000; do
		cat <<-EOF
		Using uid:0, gid:0.
		Writing a byte at a time...done
		Writing intelligently...done
		Rewriting...done
		Reading a byte at a time...done
		Reading intelligently...done
		start '"'"'em...done...done...done...done...done...
		Version 2.00a       ------Sequential Output------ --Sequential Input- --Random-
		                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--
		Name:Size etc        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP
		t1              64M  191k  31 +++++ +++ +++++ +++  190k  30 +++++ +++ +++++ +++
		Latency             89602us   16129us   14246us     100ms   11420us   72113us
		1.98,2.00a,t1,1,$s,64M,,8192,5,191,31,5000,3,4000,2,190,30,9000,4,+++++,+++,,,,,,,,,,,,,,,,,,89602us,16129us,14246us,100ms,11420us,72113us,,,,,,
		EOF
	done >plain.out &&
	"$CLYDE" report -f text plain.out >out.txt 2>err &&
	grep -q "^2 runs in 1 configuration$" out.txt &&
	test_line_count = 1 err &&
	grep -q "^clyde report: plain.out: 24 lines of bonnie++.s text tables and progress messages ignored$" err
'

test_expect_success REALWORLD 'a real-world file with bonnie++ tables: one line, not one a table line' '
	f="$RW/bonnie-cunnie-cloud_storage_benchmarks-1.97-gce_pd-ssd.txt" &&
	"$CLYDE" report -f text "$f" >out.txt 2>err &&
	test_line_count = 1 err &&
	grep -q "gce_pd-ssd.txt: 10 lines of bonnie++.s text tables ignored$" err
'

test_expect_success 'fio messages around its JSON: said once, with the first' '
	{ echo "fio: terminating on signal 2"; cat "$FIX/fio-write.json"
	  echo "fio: job seqw dropped"; } >sig.json &&
	"$CLYDE" report -f text sig.json >out.txt 2>err &&
	grep -q "^1 run in" out.txt &&
	test "$(grep -c "fio: " err)" = 1 &&
	grep -q "^clyde report: sig.json: 2 lines of fio.s own messages ignored (the first: fio: terminating on signal 2)$" err
'

# A line clyde wrote ("schema" first) is a clyde record whatever its
# strings say: a tag named like fio's version member does not make the
# file fio JSON (it did: the report said no fio output was found).
test_expect_success JQ 'a clyde record that names "fio version" is read as clyde, from a file and a pipe' '
	head -1 "$FIX/clyde.jsonl" |
	jq -c ".tags = {\"fio version\": \"fio-3.33\"}" >tagged.jsonl &&
	"$CLYDE" report -f text tagged.jsonl >out.txt 2>err &&
	grep -q "^1 run in 1 configuration" out.txt &&
	grep -q "fio version=fio-3.33" out.txt &&
	! test -s err &&
	"$CLYDE" report -f text - <tagged.jsonl >pipe.txt &&
	test_cmp out.txt pipe.txt
'

test_expect_success FIO 'fio 3.33 --output-format=normal,json: the JSON read, its text said once, as what it is' '
	mkdir -p fiodir &&
	fio --name=both --directory=fiodir --rw=read --bs=64k --size=4M \
		--output-format=normal,json >both.out 2>&1 &&
	rm -rf fiodir &&
	# the text before the JSON (the job line, the version) and after it
	# (the run status; disk stats too where fiodir is on a disk, not on
	# a tmpfs as on a system whose /tmp is one)
	head -1 both.out | grep -q "^both: (g=0): rw=read" &&
	sed -n "/^}/,\$p" both.out | grep -q "^Run status group 0" &&
	"$CLYDE" report -f text both.out >out.txt 2>err &&
	grep -q "^1 run in 1 configuration$" out.txt &&
	test_line_count = 1 err &&
	grep -q "^clyde report: both.out: [0-9]* lines of fio.s normal (text) output ignored (the first: both: (g=0): rw=read, bs=(R) 64.0KiB-64.0KiB, (W) 64.0KiB-64\.\.\.)$" err
'

test_expect_success FIO 'fio 3.33 normal output alone: exit 2, one line saying what it is, no report' '
	mkdir -p fiodir &&
	fio --name=txt --directory=fiodir --rw=read --bs=64k --size=4M >normal.out 2>&1 &&
	rm -rf fiodir &&
	grep -q "Run status group 0" normal.out &&
	test_expect_code 2 "$CLYDE" report -o out.html normal.out "$FIX/clyde.jsonl" >out 2>err &&
	test_line_count = 1 err &&
	grep -q "^clyde report: normal.out: fio.s text output (normal or terse), not its JSON: no results (fio --output-format=json writes them)$" err &&
	test_path_is_missing out.html &&
	# terse output likewise, from standard input
	fio --name=t --filename=/dev/zero --rw=read --size=1M --output-format=terse >terse.out 2>&1 &&
	test_expect_code 2 "$CLYDE" report -f text - <terse.out >out 2>err &&
	test_line_count = 1 err &&
	grep -q "^clyde report: -: fio.s text output (normal or terse), not its JSON" err
'

test_expect_success REALWORLD 'an fio error log alone is no result: exit 2, one line with what fio said' '
	f="$RW/fio-CyberHuey-System-Testing-error-only.json" &&
	test_expect_code 2 "$CLYDE" report -f text "$f" "$FIX/clyde.jsonl" >out 2>err &&
	test_line_count = 1 err &&
	grep -q "error-only.json: no results, only fio.s own messages (3 lines, the first: fio: \"C is not a directory)$" err
'

test_done
