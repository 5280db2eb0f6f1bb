#!/bin/bash
# clyde report on clyde zones records: two runs (one of two passes)
# overlay in one chart, a line per run and sweep, with the legend, the
# min/mean/max table, each sweep's latency summary (the set of every
# clyde output) and the slowest zones; labels from the record are
# escaped; the text report carries each run's zone table; a zones section
# of a schema this clyde does not know, or a malformed one, is a warning.
. "$(dirname "$0")/lib.sh"

test_expect_success 'two zones records: both overlay in one chart' '
	mkdir d &&
	"$CLYDE" zones -d d --size 16 --zone 4 --bs 256k --passes 2 -q \
		-m "array <A> & \"one\"" --json z.jsonl 2>/dev/null &&
	"$CLYDE" zones -d d --size 24 --zone 4 --bs 256k -q -m array-B \
		--json z.jsonl 2>/dev/null &&
	test_line_count = 2 z.jsonl &&
	"$CLYDE" report z.jsonl -o r.html &&
	grep -q "<a href=\"#zones\">Zones</a>" r.html &&
	test "$(grep -c "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"zones-chart\"" r.html)" = 1 &&
	test "$(grep -c "<polyline " r.html)" = 3 &&
	grep -q "data-series=\"1\" data-name=\"run 1 (array &lt;A&gt; &amp; &quot;one&quot;): pass 1 read\"" r.html &&
	grep -q "data-series=\"2\" data-name=\"run 1 (array &lt;A&gt; &amp; &quot;one&quot;): pass 2 read\"" r.html &&
	grep -q "data-series=\"3\" data-name=\"run 2 (array-B): read\"" r.html &&
	grep -q "data-xmax-gib=\"0.023438\"" r.html &&
	test_must_fail grep -q "array <A>" r.html &&
	sed -n "/<table class=\"zones\">/,/<\/table>/p" r.html >sum &&
	test "$(grep -c "^<tr><td>run" sum)" = 3 &&
	sed -n "/<table class=\"zones-slow\">/,/<\/table>/p" r.html >slow &&
	# zones of low precision (time below their latency) are not listed
	rated=$(jq -s "[.[].zones.sweeps[].zones[] | select(.low_precision | not)] |
		length" z.jsonl) &&
	test "$rated" -ge 10 &&
	test "$(grep -c "^<tr><td>run" slow)" = 10 &&
	for k in 1 2 3; do
		grep -o "<g data-series=\"$k\".*" r.html |
			grep -o "points=\"[^\"]*\"" | head -1 |
			tr " " "\n" | grep -c , >n$k || return 1
	done &&
	test "$(cat n1)" = 4 && test "$(cat n2)" = 4 && test "$(cat n3)" = 6
'

# The latency summary every clyde output shows (mean, min, p50, p90, p99,
# p99.9, max): each sweep's in its own table, each slow zone's beside it.
test_expect_success JQ 'latency: the whole summary per sweep and per slow zone' '
	heads="<th>mean ms</th><th>min ms</th><th>p50 ms</th><th>p90 ms</th><th>p99 ms</th><th>p99.9 ms</th><th>max ms</th></tr>" &&
	sed -n "/<table class=\"zones-latency\">/,/<\/table>/p" r.html >lat &&
	grep -qF "<tr><th>run and sweep</th><th>I/Os</th>$heads" lat &&
	grep -qF "<th>MiB/s</th>$heads" slow &&
	grep "^<tr><td>run" lat >rows &&
	test_line_count = 3 rows &&
	# a cell per figure; mean, min and max those of the record histogram
	awk -F"<td" "NF != 10 { exit 1 }" rows &&
	awk -F"<td" "NF != 12 { exit 1 }" <(grep "^<tr><td>run" slow) &&
	sed "s/<[^>]*>/ /g" rows >cells &&
	awk "{ print \$(NF - 7), \$(NF - 6), \$(NF - 5), \$NF }" cells >got &&
	jq -r ".zones.sweeps[].histogram |
		\"\(.count) \(.sum_ns / .count / 1e6) \(.min_ns / 1e6) \(.max_ns / 1e6)\"" \
		z.jsonl >expect &&
	test_cmp_printed 3 expect got &&
	# min <= p50 <= p90 <= p99 <= p99.9 <= max, the mean within
	awk "{ for (i = NF - 4; i <= NF; i++) if (\$i + 0 < \$(i - 1) + 0) exit 1
		if (\$(NF - 6) + 0 < \$(NF - 5) + 0 || \$(NF - 6) + 0 > \$NF + 0) exit 1 }" cells
'

test_expect_success XMLLINT 'the page with the chart is well-formed XML' '
	xmllint --noout r.html
'

test_expect_success 'the text report has each zones run' '
	"$CLYDE" report -f text z.jsonl >t.txt &&
	grep -A1 "^Run 1: clyde zones: " t.txt | grep -q "^  16 MiB in 4 zones of 4 MiB" &&
	grep -A1 "^Run 2: clyde zones: " t.txt | grep -q "^  24 MiB in 6 zones of 4 MiB" &&
	grep -q "^  pass 2 read " t.txt
'

test_expect_success 'csv: a row per zone and sweep; bonnie: zones runs left out, said once' '
	"$CLYDE" report -f csv z.jsonl >z.csv 2>err &&
	test_must_fail test -s err &&
	test "$(grep -c ",zones,.* zone [0-9]* at [0-9.]* GiB.*,MiB/s,ok," z.csv)" = 14 &&
	grep -q ",zones,pass 2 read zone 4 at 0.012 GiB,MiB/s,ok," z.csv &&
	grep -q ",zones,read zone 6 at 0.020 GiB,MiB/s,ok," z.csv &&
	# as many fields on every row (quoted fields, which may hold commas,
	# taken out first)
	sed "s/\"[^\"]*\"//g" z.csv | awk -F, "{ print NF }" | sort -u >nf &&
	test_line_count = 1 nf &&
	# each zone row has its zone latency summary (us), as in its record
	perl -MText::ParseWords -ne "
		chomp; my @f = parse_line(\",\", 0, \$_);
		if (\$. == 1) { %c = map { \$f[\$_] => \$_ } 0..\$#f; next }
		next unless \$f[\$c{test}] eq \"zones\";
		print join(\" \", map { \$f[\$c{\"lat_\${_}_us\"}] }
			qw(mean min p50 p90 p99 p99_9 max)), qq(\\n)" z.csv >zl &&
	jq -r ".zones.sweeps[].zones[] | [.lat_mean_ms, .lat_min_ms,
		.lat_p50_ms, .lat_p90_ms, .lat_p99_ms, .lat_p99_9_ms,
		.lat_max_ms] | map(. * 1000 | tostring) |
		join(\" \")" z.jsonl >zl.exp &&
	test_line_count = 14 zl &&
	test_cmp_printed 1 zl.exp zl &&
	awk "{ for (i = 3; i <= NF; i++) if (\$i + 0 < \$(i - 1) + 0) exit 1 }" zl &&
	"$CLYDE" report -f bonnie z.jsonl >b.txt 2>err &&
	test_must_fail test -s b.txt &&
	test_line_count = 1 err &&
	grep -q "^clyde report: warning: 2 clyde zones runs left out: a bonnie++ line has no place for zones" err
'

test_expect_success JQ 'an unknown zones schema or a malformed section: a warning' '
	head -1 z.jsonl | jq -c ".zones.schema = 99" >new.jsonl &&
	test_expect_code 2 "$CLYDE" report new.jsonl -o n.html 2>err &&
	grep -q "new.jsonl: no results found (.*): 1 problem, the first on line 1: zones schema version 99 is not supported (this clyde reads 1 to 1)" err &&
	test_path_is_missing n.html &&
	head -1 z.jsonl | jq -c ".zones.sweeps = {\"x\": 1}" >bad.jsonl &&
	cat bad.jsonl z.jsonl >mixed.jsonl &&
	"$CLYDE" report mixed.jsonl -o m.html 2>err &&
	grep -q "mixed.jsonl:1: .zones. has no .sweeps. array" err &&
	test "$(grep -c "<polyline " m.html)" = 3
'

test_done
