#!/bin/bash
# clyde report -f text: the latency of every test per configuration, the
# summary every writer shows (ops, mean, min, p50, p90, p99, p99.9, max)
# of the configuration's runs' histograms merged; a bonnie++ line, which
# keeps only the maximum, shows that alone; 80 columns.
. "$(dirname "$0")/lib.sh"

FIX=$TEST_DIR/fixtures/report

test_have_prereq JQ || test_skip_all 'jq is needed to read the JSON records'

# ns FIGURE: a figure as the text prints it ("5.10us") in ns
ns () {
	awk -v v="$1" 'BEGIN {
		n = v + 0; u = v; sub(/^[0-9.]+/, "", u)
		m = -1
		if (u == "ns") m = 1; if (u == "us") m = 1e3
		if (u == "ms") m = 1e6; if (u == "s") m = 1e9
		if (u == "d") m = 86400e9
		if (m < 0) exit 1
		printf "%.0f\n", n * m }'
}

test_expect_success 'a row per configuration and test, the runs merged' '
	"$CLYDE" report -f text "$FIX/clyde.jsonl" "$FIX/bonnie-1.98.csv" \
		>out.txt 2>/dev/null &&
	test "$(LC_ALL=C.UTF-8 wc -L <out.txt)" -le 80 &&
	grep -q "^Latency per operation: a tool.s own figures where one run gave them" out.txt &&
	sed -n "/^Latency: Block write$/,/^$/p" out.txt >block &&
	sed -n 2p block | grep -q "^  *ops  *mean  *min  *p50  *p90  *p99  *p99.9  *max$" &&
	grep "^base " block >row &&
	test_line_count = 1 row &&
	# configuration "base": records 2 and 3 of the fixture
	sed -n 2,3p "$FIX/clyde.jsonl" | jq -s -r "
		[.[].results[] | select(.name == \"put_block\").histogram] |
		[(map(.count) | add), ((map(.sum_ns) | add) / (map(.count) | add)),
		 (map(.min_ns) | min), (map(.max_ns) | max)] |
		map(tostring) | join(\" \")" >exp &&
	read -r ops mean min max <exp &&
	set -- $(cat row) &&
	test "$2" = "$ops" &&
	# three significant digits: within 0.5 %
	for pair in "$3 $mean" "$4 $min" "$9 $max"; do
		set -- $pair
		got=$(ns "$1") &&
		awk -v g="$got" -v e="$2" "BEGIN { d = g - e; if (d < 0) d = -d
			exit !(d <= 0.005 * e + 1) }" ||
		{ echo "figure $1, expected $2 ns"; return 1; }
	done &&
	# min <= p50 <= p90 <= p99 <= p99.9 <= max, the mean within
	set -- $(cat row) &&
	prev=0 &&
	for f in $4 $5 $6 $7 $8 $9; do
		v=$(ns "$f") && test "$v" -ge "$prev" || return 1
		prev=$v
	done &&
	m=$(ns "$3") && test "$m" -ge "$(ns "$4")" && test "$m" -le "$prev"
'

test_expect_success 'a bonnie++ line: the maximum only' '
	grep "^deb-big  *max  *-  *-  *-  *-  *-  *-  *[0-9.]*[mun]*s$" block
'

# rows ... NAMEW TABLE-HEADING-REGEX: the names of a table's rows
rows_of () {
	sed -n "/$2/,/^\$/p" out.txt | sed 1d | grep -v "^  *ops " |
		grep -v "^\$" | cut -c1-"$1" | sed "s/ *\$//"
}

test_expect_success 'names that differ in the middle stay apart in every table' '
	for l in ibm-ds4800-fc-raid5-ext4-8disks-seg64k \
		 ibm-ds4800-fc-raid0-ext4-8disks-seg64k; do
		sed -n 2p "$FIX/clyde.jsonl" | jq -c --arg l $l ".label = \$l" &&
		sed -n 2p "$FIX/clyde.jsonl" |
			jq -c --arg l $l ".label = \$l | .params.direct = 1" ||
		return 1
	done >mid.jsonl &&
	"$CLYDE" report -f text mid.jsonl >out.txt 2>err &&
	! test -s err &&
	test "$(LC_ALL=C.UTF-8 wc -L <out.txt)" -le 80 &&
	rows_of 17 "^Latency: Block write\$" >lat &&
	rows_of 34 "^Block write  " >rate &&
	for t in lat rate; do
		test_line_count = 4 $t &&
		test "$(sort -u $t | wc -l)" = 4 &&
		test "$(grep -c raid5 $t)" = 2 &&
		test "$(grep -c raid0 $t)" = 2 ||
		{ cat $t; return 1; }
	done
'

test_expect_success 'names no span can tell apart are numbered, never twins' '
	a=$(printf "%040d" 0 | tr 0 x) &&
	for l in $a-raid5-$a $a-raid0-$a; do
		sed -n 2p "$FIX/clyde.jsonl" | jq -c --arg l $l ".label = \$l" &&
		sed -n 2p "$FIX/clyde.jsonl" |
			jq -c --arg l $l ".label = \$l | .params.direct = 1" ||
		return 1
	done >twin.jsonl &&
	sed -n 2p "$FIX/clyde.jsonl" | jq -c ".label = \"zfs\"" >>twin.jsonl &&
	"$CLYDE" report -f text twin.jsonl >out.txt 2>err &&
	test "$(LC_ALL=C.UTF-8 wc -L <out.txt)" -le 80 &&
	rows_of 17 "^Latency: Block write\$" >lat &&
	rows_of 34 "^Block write  " >rate &&
	for t in lat rate; do
		test_line_count = 5 $t &&
		test "$(sort -u $t | wc -l)" = 5 || { cat $t; return 1; }
	done
'

# More configurations than clyde weighs each label against all the others:
# each is weighed against its neighbours in the labels' order from the start
# and from the end (compare_names.c), and must still keep what tells it
# apart: its site (at its start and its end) and its number and RAID level
# (in the middle), which a plain middle cut would not keep.
test_expect_success 'among 400 configurations, each name keeps what tells it apart' '
	sed -n 2p "$FIX/clyde.jsonl" | jq -c ". as \$r |
		range(0; 50) as \$h | (0, 5, 6, 10) as \$d | (\"a\", \"b\") as \$s |
		\$r | .label = \"site\(\$s)-ibm-ds4800-fc-\(100 + \$h | tostring |
		.[1:])-raid\(\$d)-array-frankfurt-rack\(\$s)\"" >many.jsonl &&
	"$CLYDE" report -f text many.jsonl >out.txt 2>err &&
	! test -s err &&
	test "$(LC_ALL=C.UTF-8 wc -L <out.txt)" -le 80 &&
	rows_of 34 "^Block write  " >rate &&
	test_line_count = 400 rate &&
	test "$(sort -u rate | wc -l)" = 400 &&
	for s in a b; do
		for h in 00 17 49; do
			for d in 0 5 6 10; do
				grep -q -e "^site$s-.*-$h-raid$d-" \
					-e "$h-raid$d-.*-rack$s\$" rate ||
				{ echo "site$s $h raid$d:"; grep -e "$h-raid$d-" rate
				  return 1; }
			done
		done
	done
'

test_done
