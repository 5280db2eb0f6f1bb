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
	grep -q "^Latency per operation, of each configuration" out.txt &&
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

test_done
