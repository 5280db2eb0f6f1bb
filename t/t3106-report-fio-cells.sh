#!/bin/bash
# clyde report: fio jobs as matrix cells (bs, pattern, profile, depth,
# threads), with IO/s and the latency summary equal to the file's own
# values, parsed here independently with jq; every fio file of the
# real-world corpus when it is there (../shared/realworld beside the
# repository, or $CLYDE_REALWORLD).
. "$(dirname "$0")/lib.sh"

FIX=$TEST_DIR/fixtures/report
RW=${CLYDE_REALWORLD:-$(cd "$TEST_DIR/../.." && pwd)/shared/realworld}
export RW
test_lazy_prereq REALWORLD 'ls "$RW"/fio-*.json'

# expect FILE: one line per job that moved data, as jq reads the file
# (text before the first '{' dropped): label, bs in bytes, threads, qd,
# pattern, read %, IO/s, then read and write mean, min, p90, p99 and max
# in ms ("-" where the direction has none).  fio 3.x has clat_ns in ns, 2.x clat in
# us; without a percentile list (json+), the value of the bin holding the
# ceil(0.9 N)-th or ceil(0.99 N)-th sample.
expect () {
	perl -0777 -pe 's/^[^{]*//' "$1" | jq -r '
	def num: if type == "string" then tonumber else . end;
	def size: (tostring | ascii_downcase | split(",")[0]) as $s |
		($s | capture("^(?<n>[0-9.]+)(?<u>[kmg]?)") ) as $m |
		($m.n | tonumber) * (if $m.u == "k" then 1024
			elif $m.u == "m" then 1048576
			elif $m.u == "g" then 1073741824 else 1 end) | floor;
	def clat: if .clat_ns then [.clat_ns, 1e-6] else [.clat, 1e-3] end;
	def pct($p; $key): clat as [$c, $k] |
		if $c.percentile then ($c.percentile[$key] * $k)
		elif $c.bins then
			([$c.bins | to_entries[] | {v: (.key | tonumber), n: .value}]
			 | sort_by(.v)) as $b |
			(($b | map(.n) | add) * $p | ceil) as $want |
			(reduce $b[] as $x ({s: 0, v: null};
				if .v == null then .s += $x.n |
				(if .s >= $want then .v = $x.v else . end)
				else . end) | .v) * $k
		else null end;
	def lat(d): if (d.total_ios // 0) > 0 then
		(d | clat as [$c, $k] | ($c.mean * $k), ($c.min * $k)),
		(d | pct(0.90; "90.000000")), (d | pct(0.99; "99.000000")),
		(d | clat as [$c, $k] | ($c.max * $k))
		else "-", "-", "-", "-", "-" end;
	(.["global options"] // {}) as $g |
	(.jobs // .client_stats)[] | select(.jobname != "All clients") |
	((.["job options"] // {}) as $o | $g + $o) as $opt |
	(($opt.rw // $opt.readwrite // "read") | split(":")[0]) as $rw |
	select((.read.io_bytes // 0) + (.write.io_bytes // 0) > 0) |
	[.jobname, ($opt.bs // $opt.blocksize // "4k" | size),
	 (if ($opt.group_reporting // "0") != "0" then ($opt.numjobs // 1 | num)
	  else ($opt.numjobs // 1 | num) end),
	 ($opt.iodepth // 1 | num),
	 (if ($rw | startswith("rand")) then "random" else "seq" end),
	 (if ($rw == "rw" or $rw == "readwrite" or $rw == "randrw") then
		($opt.rwmixread // (if $opt.rwmixwrite then
			100 - ($opt.rwmixwrite | num) else 50 end) | num)
	  elif ($rw | endswith("read")) then 100 else 0 end),
	 ((.read.iops // 0) + (.write.iops // 0)),
	 lat(.read), lat(.write)] | map(tostring) | join(" ")'
}

# got FILE: the same from clyde report's long CSV (matrix rows)
got () {
	"$CLYDE" report -f csv "$1" 2>/dev/null >long.csv || return 1
	perl -MText::ParseWords -ne '
		chomp; my @f = parse_line(",", 0, $_);
		if ($. == 1) { %c = map { $f[$_] => $_ } 0..$#f; next }
		next unless $f[$c{test}] eq "matrix";
		my @l = map { $_ eq "" ? "-" : $_ } @f[map { $c{$_} }
			map { ("mx_${_}_ms", "mx_${_}_min_ms", "mx_${_}_p90_ms",
			       "mx_${_}_p99_ms", "mx_${_}_max_ms") }
			qw(read write)];
		print join(" ", $f[$c{label}], @f[$c{mx_bs}, $c{mx_threads},
			$c{mx_qd}, $c{mx_pattern}, $c{mx_read_pct}, $c{value}],
			@l), "\n";' long.csv
}

# same EXPECTED GOT: shapes equal, numbers within the CSV's printing
# precision (IO/s 3 decimals, ms 6 decimals)
same () {
	paste -d"\n" "$1" "$2" | awk '
	NR % 2 == 1 { n = split($0, e, " "); next }
	{
		m = split($0, g, " ")
		if (n != m) { print "fields differ: " $0; bad = 1; next }
		for (i = 1; i <= 6; i++)
			if (e[i] != g[i]) { print "shape differs: " $0; bad = 1 }
		for (i = 7; i <= n; i++) {
			if (e[i] == "-" || g[i] == "-") {
				if (e[i] != g[i]) { print "missing: " $0; bad = 1 }
				continue
			}
			tol = (i == 7 ? 0.0005 : 0.0000005) + 1e-9 * (e[i] < 0 ? -e[i] : e[i])
			d = e[i] - g[i]; if (d < 0) d = -d
			if (d > tol) { print "value " i " differs: " e[i] " " g[i]; bad = 1 }
		}
	}
	END { exit bad }' &&
	test "$(wc -l <"$1")" = "$(wc -l <"$2")"
}

test_expect_success JQ 'fixtures: every fio job is a cell with its own figures' '
	for f in fio-write.json fio-randread-plus.json fio-client.json; do
		expect "$FIX/$f" >exp && got "$FIX/$f" >act &&
		test -s exp && same exp act || { echo "in $f"; return 1; }
	done
'

test_expect_success JQ,REALWORLD 'real-world fio files: IO/s, latency mean, min, p90, p99 and max as in the file' '
	n=0 &&
	for f in "$RW"/fio-*.json; do
		expect "$f" >exp 2>/dev/null || : >exp
		got "$f" >act || : >act
		same exp act || { echo "in $f"; cat exp act; return 1; }
		n=$((n + $(wc -l <exp)))
	done &&
	test "$n" -ge 18
'

test_expect_success REALWORLD 'fio 4k randread at depth 32, 2 jobs: its XDISK row' '
	f=$RW/fio-louwrentius-fio-plot-3.1-kingston-randread-32-2.json &&
	"$CLYDE" report -f text "$f" >out.txt &&
	grep -q "^Run 1: fio, label iotest (.*)$" out.txt &&
	sed -n "/^4K block size — 2 threads, queue depth 32$/,+3p" out.txt >t &&
	grep -q "^Random  *100% read  *57,898  *226.2  *1.10  *—$" t
'

test_expect_success 'cells of different shapes are never ranked together' '
	"$CLYDE" report -f text "$FIX/fio-write.json" "$FIX/fio-randread-plus.json" >out.txt &&
	grep -q "^Run 1: fio, label seqw" out.txt &&
	grep -q "^Run 2: fio, label randr" out.txt &&
	! grep -q "^Matrix side by side" out.txt &&
	# the same shape twice is compared
	sed "s/\"jobname\" *: *\"randr\"/\"jobname\": \"randr2\"/" \
		"$FIX/fio-randread-plus.json" >r2.json &&
	"$CLYDE" report -f text "$FIX/fio-randread-plus.json" r2.json \
		"$FIX/fio-write.json" >out.txt &&
	grep -q "^Matrix side by side: 4K block size — 1 thread$" out.txt
'

test_expect_success JQ 'without group_reporting: the threads of a job summed into one cell' '
	jq ".jobs[0][\"job options\"].numjobs = \"2\" | .jobs = [.jobs[0], (.jobs[0] | .read.iops = 1000)]" \
		"$FIX/fio-randread-plus.json" >two.json &&
	"$CLYDE" report -f csv two.json >long.csv 2>err &&
	test "$(grep -c ",matrix," long.csv)" = 1 &&
	i=$(jq "[.jobs[].read.iops] | add" two.json) &&
	perl -MText::ParseWords -ne "chomp; my @f = parse_line(\",\", 0, \$_);
		if (\$. == 1) { %c = map { \$f[\$_] => \$_ } 0..\$#f; next }
		print \"\$f[\$c{mx_threads}] \$f[\$c{value}]\\n\" if \$f[\$c{test}] eq \"matrix\"" long.csv >got &&
	awk -v i="$i" "{ exit !(\$1 == 2 && \$2 - i < 0.001 && i - \$2 < 0.001) }" got &&
	"$CLYDE" report -f text two.json >out.txt &&
	grep -q "^1 run in 1 configuration$" out.txt
'

# mxlat FILE: the write latency columns of the matrix row of the long CSV,
# mean min p50 p90 p99 p99.9 max ("-" where empty), and the IO/s
mxlat () {
	"$CLYDE" report -f csv "$1" 2>/dev/null | perl -MText::ParseWords -ne '
		chomp; my @f = parse_line(",", 0, $_);
		if ($. == 1) { %c = map { $f[$_] => $_ } 0..$#f; next }
		next unless $f[$c{test}] eq "matrix";
		print join(" ", map { $_ eq "" ? "-" : $_ } @f[map { $c{$_} }
			qw(mx_write_ms mx_write_min_ms mx_write_p50_ms
			   mx_write_p90_ms mx_write_p99_ms mx_write_p99_9_ms
			   mx_write_max_ms value)]), "\n"'
}

test_expect_success JQ 'fio without percentiles or latency: no figure made up' '
	# fio gave mean, min and max but no percentile list nor bins
	jq "del(.jobs[].write.clat_ns.percentile, .jobs[].write.clat_ns.bins)" \
		"$FIX/fio-write.json" >nopct.json &&
	jq -r ".jobs[0].write.clat_ns | [.mean, .min, .max] | map(. / 1e6 | tostring) | join(\" \")" \
		nopct.json >exp &&
	read -r mean min max <exp &&
	mxlat nopct.json >got &&
	awk -v a="$mean" -v b="$min" -v c="$max" "{
		if (\$3 != \"-\" || \$4 != \"-\" || \$5 != \"-\" || \$6 != \"-\") exit 1
		d = \$1 - a; e = \$2 - b; g = \$7 - c
		exit !(d * d < 1e-12 && e * e < 1e-12 && g * g < 1e-12) }" got &&
	# no latency at all: the rate stays, every latency column is empty
	jq "del(.jobs[].write.clat_ns, .jobs[].write.lat_ns)" "$FIX/fio-write.json" >nolat.json &&
	mxlat nolat.json >got &&
	grep -q "^- - - - - - - 51200.000$" got
'

# testlat FILE: per fio direction row (test rows, not matrix) of the long
# CSV, in us: mean min p50 p90 p99 p99_9 max ("-" where empty)
testlat () {
	"$CLYDE" report -f csv "$1" 2>/dev/null | perl -MText::ParseWords -ne '
		chomp; my @f = parse_line(",", 0, $_);
		if ($. == 1) { %c = map { $f[$_] => $_ } 0..$#f; next }
		next if $f[$c{test}] eq "matrix";
		print join(" ", map { $_ eq "" ? "-" : $_ } @f[map { $c{"lat_${_}_us"} }
			qw(mean min p50 p90 p99 p99_9 max)]), "\n"'
}
# fiolat FILE: the same from fio's own figures (clat_ns or clat), a line
# per direction that moved data, in the importer's order
fiolat () {
	perl -0777 -pe 's/^[^{]*//' "$1" | jq -r '
	def clat: if .clat_ns then [.clat_ns, 1e-3] else [.clat, 1] end;
	(.jobs // .client_stats)[] | select(.jobname != "All clients") |
	(.read, .write) | select((.io_bytes // 0) > 0) | clat as [$c, $k] |
	[$c.mean, $c.min, $c.percentile["50.000000"], $c.percentile["90.000000"],
	 $c.percentile["99.000000"], $c.percentile["99.900000"], $c.max] |
	map(if . == null then "-" else . * $k | tostring end) | join(" ")'
}

test_expect_success JQ 'fio test rows: the latency summary is fio'"'"'s, within a bucket' '
	for f in "$FIX/fio-write.json" "$FIX/fio-client.json" \
		$(ls "$RW"/fio-*.json 2>/dev/null); do
		testlat "$f" >got && fiolat "$f" >exp || return 1
		test -s exp || continue
		# mean, min, max exact (3 decimals of us); percentiles within
		# the histogram bucket (1.6 %) of fio'"'"'s
		paste -d"\n" exp got | awk -v f="$f" "
		NR % 2 { n = split(\$0, e); next }
		{
			split(\$0, g)
			for (i = 1; i <= n; i++) {
				if (e[i] == \"-\") continue
				d = g[i] - e[i]; if (d < 0) d = -d
				tol = (i == 1 || i == 2 || i == 7) ? 0.0006 + 1e-9 * e[i] : 0.016 * e[i] + 0.001
				if (g[i] == \"-\" || d > tol) {
					print f \": figure \" i \": fio \" e[i] \" clyde \" g[i]; bad = 1 }
			}
		}
		END { exit bad }" || return 1
	done
'

test_expect_success JQ 'fio without p90 and p99.9 in its list: those matrix figures are empty' '
	jq -c ".jobs[0].write.clat_ns.percentile |= del(.[\"90.000000\"], .[\"99.900000\"])" \
		"$FIX/fio-write.json" >nop90.json &&
	mxlat nop90.json >got &&
	read -r mean min p50 p90 p99 p999 max iops <got &&
	test "$p90" = - && test "$p999" = - &&
	test "$p50" != - && test "$p99" != -
'

test_done
