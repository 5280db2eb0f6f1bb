#!/bin/bash
# clyde matrix: a cell or curve point of fewer than 10 I/Os per thread is
# of low precision, a count rather than a rate: flagged in the record
# (low_precision), read back by clyde report, and marked in every table:
# the matrix text and CSV, the comparison text, the long CSV and the HTML
# (a mark and its note).  A figure of enough I/Os is not marked.
. "$(dirname "$0")/lib.sh"

test_have_prereq JQ || test_skip_all 'jq is needed to read the JSON record'

mkdir d || test_skip_all 'cannot make a directory'

# one 64 MiB write takes milliseconds at least: 0.02 s is a few I/Os; a
# curve point at 4 IO/s for 0.5 s is 2, one at 40 IO/s is 20
test_expect_success 'setup: a cell and a curve point of too few I/Os' '
	"$CLYDE" matrix -d d --engine psync --buffered --bs 64M --threads 1 \
		--pattern random --mix 0 --size 64M --time 0.02 --ramp 0 \
		-m big --json r.jsonl --csv m.csv >big.txt 2>big.err &&
	"$CLYDE" matrix -d d --engine null --buffered --bs 4k --threads 1 \
		--pattern random --mix 100 --size 1M --time 0.5 --ramp 0 \
		--curve 10,100 --curve-max 40 -m cur --json r.jsonl \
		>cur.txt 2>cur.err
'

test_expect_success 'the record flags them, and only them' '
	jq -se ".[0].matrix.cells[0] | .status == \"ok\" and
		.low_precision == true and .reads + .writes < 10" r.jsonl \
		>/dev/null &&
	jq -se ".[1].matrix.cells[0] | .low_precision == false and
		.curve[0].low_precision == true and
		.curve[0].reads < 10 and
		.curve[1].low_precision == false and .curve[1].reads >= 10" \
		r.jsonl >/dev/null &&
	grep -q "curve point 10%.*low precision, not a rate" cur.err
'

test_expect_success 'the matrix text marks them and says what ~ means' '
	grep -q "^Random     100% write  *[0-9,]*~ " big.txt &&
	grep -q "^~ low precision: fewer than 10 I/Os per thread" big.txt &&
	grep -q "^ *10  *4  *[0-9]~ " cur.txt &&
	! grep -q "^ *100  *40  *[0-9]*~" cur.txt &&
	! grep -q "^Random     100% read  *[0-9,]*~" cur.txt &&
	grep -q "^~ low precision" cur.txt &&
	test "$(cat big.txt cur.txt | LC_ALL=C.UTF-8 wc -L)" -le 80
'

test_expect_success 'the matrix CSV has a low_precision column' '
	head -1 m.csv | grep -q ",status,low_precision,elapsed_s," &&
	sed -n 2p m.csv | grep -q ",ok,1,"
'

test_expect_success 'clyde report reads the flag back: text, CSV, HTML' '
	jq -c ".label = \"big2\"" r.jsonl >r2.jsonl &&
	"$CLYDE" report -f text r.jsonl r2.jsonl >rep.txt &&
	# side by side (4c5ced1): the IO/s of both marked
	grep -q "^Random     100% write  *[0-9,]*~  *—  *[0-9.]*  *[0-9,]*~  .* 1\.00$" rep.txt &&
	grep -q "^~ low precision: fewer than 10 I/Os per thread, a count rather than a rate; a$" rep.txt &&
	"$CLYDE" report -f csv r.jsonl >rep.csv &&
	head -1 rep.csv | cut -d, -f17 | grep -qx low_precision &&
	test "$(grep -c "^[^,]*,[^,]*,big,.*,matrix,64M [^,]*write,IO/s,ok,[0-9.]*,[0-9.]*,1," rep.csv)" = 1 &&
	test "$(grep -c ",matrix_curve,.*,IO/s,ok,[0-9.]*,[0-9.]*,1," rep.csv)" = 1 &&
	test "$(grep -c ",matrix_curve,.*,IO/s,ok,[0-9.]*,[0-9.]*,0," rep.csv)" = 1 &&
	"$CLYDE" report -f html r.jsonl r2.jsonl >rep.html &&
	grep -q "<span class=\"mark\" title=\"low precision: fewer than 10 I/Os per thread, a count rather than a rate\">\*</span>" rep.html &&
	grep -q "<p class=\"note\"><b>\*</b> low precision: fewer than 10" \
		rep.html
'

test_expect_success 'a record written before the flag: marked by the rule' '
	jq -c "del(.matrix.cells[].low_precision,
		   .matrix.cells[].curve[]?.low_precision)" r.jsonl >old.jsonl &&
	! grep -q low_precision old.jsonl &&
	"$CLYDE" report -f text old.jsonl >old.txt &&
	grep -q "^Random     100% write  *[0-9,]*~ " old.txt &&
	grep -q "^ *10  *4  *[0-9]~ " old.txt &&
	! grep -q "^ *100  *40  *[0-9]*~" old.txt
'

test_done
