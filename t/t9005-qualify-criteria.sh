#!/bin/bash
# scripts/qualify --criteria: the verdict heads the report, is printed
# last, and a failing criterion is exit status 3.
. "$(dirname "$0")/lib.sh"

Q=$SRC_DIR/scripts/qualify
export TMPDIR=$TRASH

test_expect_success 'a bad criteria file is bad usage before any run' '
	mkdir d1 &&
	test_expect_code 2 "$Q" -o res --criteria nosuch.ini "a:$TRASH/d1" 2>err &&
	test_line_count = 1 err && grep -q "^qualify: --criteria: cannot read" err &&
	test_path_is_missing res
'

test_expect_success 'two targets, one criterion failing: verdict last, exit 3' '
	mkdir -p d2 &&
	printf "[seeks]\nmin = 1\n[put_block]\nmin = 100000 GB/s\n" >c.ini &&
	test_expect_code 3 "$Q" -o res -s 8M -n 1 --criteria c.ini \
		"one:$TRASH/d1:raid=0" "two:$TRASH/d2:raid=1" >out 2>err &&
	tail -1 out | grep -q "^qualify: criteria c.ini: FAIL$" &&
	grep -q "^Verdict: FAIL, 2 of 4 checks failed" out &&
	grep -q "Block write *min *100000 GB/s .*FAIL$" out &&
	grep -q "Random seeks *min *1 .*pass$" out &&
	grep -q "id=\"verdict\"" res/report.html &&
	head -1 res/verdict.txt | grep -q "^Verdict: FAIL" &&
	printf "[seeks]\nmin = 1\n" >ok.ini &&
	"$Q" -o res -s 8M -n 1 --criteria ok.ini "one:$TRASH/d1:raid=0" \
		"two:$TRASH/d2:raid=1" >out &&
	tail -1 out | grep -q "^qualify: criteria ok.ini: PASS$"
'

test_done
