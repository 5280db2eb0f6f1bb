#!/bin/bash
# Importer inputs at and past the limits (issue 13.10): sizes, latencies
# and values no integer holds are refused with a warning or written with
# their digits, never wrapped into nonsense; control characters from an
# input never reach the CSV or bonnie++ output raw.
. "$(dirname "$0")/lib.sh"

FIX=$TEST_DIR/fixtures/report

# line2 'awk assignments': the second line of the bonnie++ 1.98 fixture
# (deb-big, 512M, 2 Ki files) with some fields changed (1-based)
line2 () {
	sed -n 2p "$FIX/bonnie-1.98.csv" | awk -F, -v OFS=, "{ $1; print }"
}

# field N of the first line of FILE
field () {
	head -n 1 "$2" | cut -d, -f"$1"
}

test_expect_success 'a max file size past 8 EiB: a warning, never a negative size' '
	line2 "\$22 = \"0\"; \$23 = \"9900000000000000000\"" >in.csv &&
	"$CLYDE" report -o r.html in.csv 2>err &&
	grep -q "in.csv:1: file size .9900000000000000000. is out of range" err &&
	! grep -q -- "-9223372036854775808" r.html &&
	! grep -q "param max_size" r.html &&
	line2 "\$23 = \"9900000000000000000\"" >in2.csv &&
	"$CLYDE" report -f bonnie in2.csv >out 2>err &&
	grep -q "is out of range" err && test "$(field 23 out)" = ""
'

test_expect_success 'inf and nan sizes and file counts are refused, not converted' '
	line2 "\$6 = \"inf\"; \$23 = \"nan\"; \$22 = \"1e300\"" >in.csv &&
	"$CLYDE" report -f bonnie in.csv >out 2>err &&
	grep -q "file size .inf. is not a size" err &&
	grep -q "file size .nan. is not a size" err &&
	grep -q "file count .1e300. is out of range" err &&
	test "$(field 6 out)" = "" && test "$(field 22 out)" = "" &&
	! grep -q -- "-9223372036854775808" out
'

test_expect_success 'a latency past 2^64 ns (4E30s): a warning, no latency' '
	line2 "\$39 = \"4E30s\"; \$40 = \"1e400ms\"" >in.csv &&
	"$CLYDE" report -f bonnie in.csv >out 2>err &&
	grep -q "putc: latency .4E30s. is out of range" err &&
	grep -q "put_block: latency .1e400ms. is out of range" err &&
	test "$(field 39 out)" = "" && test "$(field 40 out)" = "" &&
	test "$(field 41 out)" = "151us"
'

test_expect_success 'a rate past int64 keeps its digits in the bonnie++ line' '
	line2 "\$10 = \"1e30\"; \$11 = \"1e19\"" >in.csv &&
	"$CLYDE" report -f bonnie in.csv >out 2>err &&
	test "$(field 10 out)" = 1000000000000000019884624838656 &&
	test "$(field 11 out)" = 10000000000000000000 &&
	test "$(field 12 out)" = 260026 &&
	"$CLYDE" report -f csv in.csv >long 2>err &&
	grep -q ",putc,.*,ok,1000000000000000019884624838656\.000," long
'

test_expect_success 'ESC and other control characters never reach -f csv or -f bonnie raw' '
	line2 "\$3 = \"a\\033[31mred\\007\\001\\177x\"; \$2 = \"v\\033]0;t\\007\"" \
		>in.csv &&
	grep -q "$(printf "\\033")" in.csv &&
	"$CLYDE" report -f bonnie in.csv >bonnie 2>err &&
	"$CLYDE" report -f csv in.csv >long 2>>err &&
	test_line_count = 1 bonnie &&
	! LC_ALL=C grep -q "[[:cntrl:]]" bonnie &&
	! LC_ALL=C tr -d "\n" <long | grep -q "[[:cntrl:]]" &&
	# escaped by the one rule of every text clyde writes (textesc.h)
	test "$(field 3 bonnie)" = "a\\x1b[31mred\\x07\\x01\\x7fx" &&
	test "$(field 2 bonnie)" = "bonnie++-v\\x1b]0;t\\x07" &&
	grep -qF "1,1,a\\x1b[31mred\\x07\\x01\\x7fx,bonnie++," long &&
	test "$(awk -F, "{ print NF }" bonnie)" = 50
'

test_expect_success JQ 'clyde records: NaN, a rate past any storage, a mean outside min and max are refused, each in one line' '
	r=$(head -1 "$FIX/clyde.jsonl") &&
	echo "$r" | jq -c ".results[1].value = 1e308" >big.jsonl &&
	echo "$r" | jq -c ".results[1].value = -5" >neg.jsonl &&
	echo "$r" | sed "s/\"cpu\":[0-9.]*/\"cpu\":NaN/" >nan.jsonl &&
	echo "$r" | jq -c ".results[1].histogram.sum_ns = 1e15" >sum.jsonl &&
	echo "$r" | jq -c ".results[1].histogram.max_ns = 9000000000000" >max.jsonl &&
	for f in big neg sum max; do
		test_expect_code 2 "$CLYDE" report -f text $f.jsonl >out 2>err &&
		test_line_count = 1 err &&
		grep -q "^clyde report: $f.jsonl: no results found (.*): 1 problem, the first on line 1: result [12]: " err &&
		test_must_fail test -s out || { echo "in $f"; cat err; return 1; }
	done &&
	# NaN is no JSON: refused where it stands
	test_expect_code 2 "$CLYDE" report -f text nan.jsonl >out 2>err &&
	test_line_count = 1 err && test_must_fail test -s out &&
	grep -q "^clyde report: nan.jsonl: .*: 1 problem, the first on line 1: not valid JSON near byte [0-9]*: invalid char in json text$" err &&
	"$CLYDE" report -f text big.jsonl 2>&1 >/dev/null | grep -q "'"'"'value'"'"' 1e+308 is out of range (0 to 1e+15)" &&
	"$CLYDE" report -f text sum.jsonl 2>&1 >/dev/null | grep -q "histogram mean .* lies outside its min and max" &&
	"$CLYDE" report -f text max.jsonl 2>&1 >/dev/null | grep -q "histogram min .* or max .* lies outside its buckets" &&
	# a good record beside them is still read
	cat big.jsonl "$FIX/clyde.jsonl" >mixed.jsonl &&
	"$CLYDE" report -f text mixed.jsonl >out 2>err &&
	grep -q "^3 runs in" out
'

test_expect_success JQ 'fio: a latency or a rate out of range is left out with a warning, never printed' '
	jq ".jobs[0].write.clat_ns.max = 1e25 | .jobs[0].write.clat_ns.mean = -1" \
		"$FIX/fio-write.json" >lat.json &&
	"$CLYDE" report -f csv lat.json >lat.csv 2>err &&
	grep -q "^clyde report: lat.json:1: fio job .seqw.: a write latency out of range (negative, infinite or past 2^64 ns): its latency left out$" err &&
	# the rate stays, no latency figure anywhere in the rows
	grep -q ",put_block,Block write,KiB/s,ok,3276800.000," lat.csv &&
	test_must_fail grep -q "e+\|-0.0\|18446744073709" lat.csv &&
	jq ".jobs[0].write.iops = 1e308" "$FIX/fio-write.json" >rate.json &&
	test_expect_code 2 "$CLYDE" report -f csv rate.json >rate.csv 2>err &&
	test_line_count = 1 err &&
	grep -q "^clyde report: rate.json: no results found (.*): 1 problem, the first on line 1: fio job .seqw.: a write rate out of range (negative, infinite or past 1e15 a second): left out$" err &&
	test_must_fail grep -q "moved no data" err
'

test_expect_success JQ 'a matrix cell whose histogram is missing: refused in one line, not shown at 0 IO/s' '
	mkdir mxd &&
	"$CLYDE" matrix -d mxd --bs 4k --threads 1 --pattern random --mix 100 \
		--size 4M --time 0.05 --ramp 0 -q --json mx.jsonl >/dev/null &&
	jq -c "del(.matrix.cells[0].read_histogram)" mx.jsonl >nohist.jsonl &&
	test_expect_code 2 "$CLYDE" report -f text nohist.jsonl >out 2>err &&
	test_line_count = 1 err &&
	grep -q "^clyde report: nohist.jsonl: no results found (.*): 1 problem, the first on line 1: matrix cell 1: [0-9]* reads and 0 writes, but its histograms hold 0 and 0$" err &&
	"$CLYDE" report -f text mx.jsonl >out 2>err &&
	test_must_fail test -s err
'

test_expect_success JQ 'fio: bs=0, numjobs=-1, iodepth past 2^32: refused in one line, never shown' '
	jq ".jobs[0].\"job options\".bs = \"0\"" "$FIX/fio-write.json" >bs0.json &&
	test_expect_code 2 "$CLYDE" report -f text bs0.json >out 2>err &&
	test_line_count = 1 err &&
	grep -q "^clyde report: bs0.json: no results found (.*): 1 problem, the first on line 1: fio job .seqw.: bs=0 is not one fio runs with" err &&
	jq ".jobs[0].\"job options\".numjobs = \"-1\"" "$FIX/fio-write.json" >nj.json &&
	test_expect_code 2 "$CLYDE" report -f text nj.json >out 2>err &&
	grep -q "numjobs=-1 is not one fio runs with" err &&
	jq ".jobs[0].\"job options\".iodepth = \"99999999999\"" "$FIX/fio-write.json" >qd.json &&
	test_expect_code 2 "$CLYDE" report -f text qd.json >out 2>err &&
	grep -q "iodepth=99999999999 is not one fio runs with" err &&
	jq ".jobs[0].\"job options\".iodepth = \"32\" | .jobs[0].\"job options\".numjobs = \"2\"" \
		"$FIX/fio-write.json" >ok.json &&
	"$CLYDE" report -f text ok.json >out 2>err &&
	grep -q "queue depth 32" out
'

test_done
