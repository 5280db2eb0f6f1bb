#!/bin/bash
# clyde report: fio jobs as matrix cells (bs, pattern, profile, depth,
# threads), with IO/s and the latency summary equal to the file's own
# values, parsed here independently with jq; every fio file of the
# real-world corpus when it is there (../shared/realworld beside the
# repository, or $CLYDE_REALWORLD).
. "$(dirname "$0")/lib.sh"

FIX=$TEST_DIR/fixtures/report
RW=${CLYDE_REALWORLD:-$(cd "$TEST_DIR/../.." && pwd)/shared/realworld}
# a worktree (/work/wt/NAME) has the shared folder one level further up
[ -n "${CLYDE_REALWORLD:-}" ] || [ -d "$RW" ] ||
	RW=$(cd "$TEST_DIR/../../.." && pwd)/shared/realworld
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
	(.["fio version"] | ltrimstr("fio-") | split(".")[0] | tonumber) as $major |
	(.["global options"] // {}) as $g |
	(.jobs // .client_stats)[] | select(.jobname != "All clients") |
	((.["job options"] // {}) as $o | $g + $o) as $opt |
	(($opt.rw // $opt.readwrite // "read") | split(":")[0]) as $rw |
	select((.read.io_bytes // 0) + (.write.io_bytes // 0) > 0) |
	# no option at all (pbench): bytes / I/Os in sectors, latency_depth
	def bytes: (.io_bytes // 0) * (if .io_kbytes == null and $major < 3
		then 1024 else 1 end);
	[.jobname,
	 (if $opt == {} then
		((.read | bytes) + (.write | bytes)) /
		((.read.total_ios // 0) + (.write.total_ios // 0)) / 512 | round * 512
	  else ($opt.bs // $opt.blocksize // "4k" | size) end),
	 (if ($opt.group_reporting // "0") != "0" then ($opt.numjobs // 1 | num)
	  else ($opt.numjobs // 1 | num) end),
	 (if $opt == {} then .latency_depth else ($opt.iodepth // 1 | num) end),
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
		# the jobs a signal stopped have no figures in the tables
		! grep -q "^fio: terminating on signal" "$f" || continue
		expect "$f" >exp 2>/dev/null || : >exp
		got "$f" >act || : >act
		same exp act || { echo "in $f"; cat exp act; return 1; }
		n=$((n + $(wc -l <exp)))
	done &&
	test "$n" -ge 15
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

test_expect_success JQ 'fio test rows: the latency summary is the one fio printed' '
	n=0 &&
	for f in "$FIX/fio-write.json" "$FIX/fio-client.json" \
		$(ls "$RW"/fio-*.json 2>/dev/null); do
		! grep -q "^fio: terminating on signal" "$f" || continue
		testlat "$f" >got && fiolat "$f" >exp || return 1
		test -s exp || continue
		n=$((n + $(wc -l <exp)))
		# every figure as fio listed it, to the CSV'"'"'s 3 decimals of
		# us (fio 2.x: 96 us, not the histogram bucket'"'"'s 95.7)
		paste -d"\n" exp got | awk -v f="$f" "
		NR % 2 { n = split(\$0, e); next }
		{
			m = split(\$0, g)
			if (m != n) { print f \": \" \$0; bad = 1 }
			for (i = 1; i <= n; i++) {
				if (e[i] == \"-\") continue
				d = g[i] - e[i]; if (d < 0) d = -d
				tol = 0.0006 + 1e-9 * e[i]
				if (g[i] == \"-\" || d > tol) {
					print f \": figure \" i \": fio \" e[i] \" clyde \" g[i]; bad = 1 }
			}
		}
		END { exit bad }" || return 1
	done &&
	test "$n" -ge 2
'

# The figures the issue names, as fio printed them (jq), in clyde report
# -f text'"'"'s Latency tables: fio 2.x percentiles are whole us.
test_expect_success JQ,REALWORLD 'fio 2.x percentiles in the text latency tables as fio listed them' '
	f=$RW/fio-GoogleCloudPlatform-PerfKitBenchmarker-2.17-hist.json &&
	test "$(jq ".jobs[0].read.clat.percentile[\"50.000000\"],
		.jobs[0].read.clat.percentile[\"99.900000\"],
		.jobs[1].write.clat.percentile[\"99.000000\"]" "$f" | tr "\n" " ")" = "96 1896 2384 " &&
	"$CLYDE" report -f text "$f" >out.txt &&
	grep -A2 "^Latency: fio randread" out.txt | tail -1 >r &&
	grep -A2 "^Latency: fio randwrite" out.txt | tail -1 >w &&
	set -- $(cat r) && test "$5" = 96.0us && test "$8" = 1.90ms &&
	set -- $(cat w) && test "$7" = 2.38ms &&
	f=$RW/fio-distributed-system-analysis-pbench-2.2.5-fio-result.json &&
	test "$(jq ".jobs[0].read.clat.percentile[\"99.000000\"]" "$f")" = 5088 &&
	"$CLYDE" report -f text "$f" >out.txt &&
	grep -A2 "^Latency: " out.txt | tail -1 >r &&
	set -- $(cat r) && test "$7" = 5.09ms &&
	f=$RW/fio-louwrentius-fio-plot-2.18-randread-01.json &&
	test "$(jq ".jobs[0].read.clat.percentile[\"50.000000\"]" "$f")" = 13504 &&
	"$CLYDE" report -f text "$f" >out.txt &&
	grep -A2 "^Latency: " out.txt | tail -1 >r &&
	set -- $(cat r) && test "$5" = 13.5ms
'

test_expect_success JQ,REALWORLD 'fio without job options: block size and depth from its figures, marked derived' '
	f=$RW/fio-distributed-system-analysis-pbench-2.2.5-fio-result.json &&
	# 21067712 KiB in 329152 I/Os: 64 KiB each; latency_depth 32
	jq -e ".jobs[0] | has(\"job options\") | not" "$f" &&
	test "$(jq "(.jobs[0].read.io_bytes * 1024 / .jobs[0].read.total_ios / 512 | round * 512), .jobs[0].latency_depth" "$f" | tr "\n" " ")" = "65536 32 " &&
	"$CLYDE" report -f text "$f" >out.txt &&
	grep -q "^64K block size — 1 thread, queue depth 32 (bs, qd derived)$" out.txt &&
	grep -q "^Run 1: fio, label job1 (unknown, " out.txt &&
	! grep -q "^4K block size" out.txt &&
	"$CLYDE" report -f csv "$f" >long.csv &&
	grep -q ",matrix,64K 1 thr qd 32 Seq 100% read," long.csv &&
	# bytes: fio'"'"'s (io_bytes in KiB before 3.0) on the test row; the
	# cell'"'"'s row none, ops times the derived size not being fio'"'"'s
	# (329152 x 65536 = 21571305472)
	test "$(jq ".jobs[0].read.io_bytes * 1024" "$f")" = 21573337088 &&
	awk -F, "\$11 == \"get_block\" { print \$21 }" long.csv >b &&
	echo 21573337088 >expect && test_cmp expect b &&
	awk -F, "\$11 == \"matrix\" { print \$20 \"/\" \$21 }" long.csv >b &&
	echo 329152/ >expect && test_cmp expect b
'

# The fixture as fio prints it when ^C stops it 4 s into runtime=10:
# the message before the JSON.
test_expect_success JQ 'a job fio stopped with a signal: interrupted, in the text, HTML and CSV' '
	{ printf "\nfio: terminating on signal 2\n"
	  jq ".jobs[0][\"job options\"].runtime = \"10\" | .jobs[0].job_runtime = 4000 |
	      .jobs[0].write.runtime = 4000" "$FIX/fio-write.json"; } >stopped.json &&
	bw=$(jq ".jobs[0].write.bw_bytes / 1024" "$FIX/fio-write.json") &&
	"$CLYDE" report -f text stopped.json >out.txt 2>err &&
	# the text wrapped at 80 columns, its lines joined
	tr -s "\n " "  " <out.txt >flat &&
	grep -q "Run 1 (seqw): Block write skipped: interrupted by signal 2 (SIGINT): fio ran 4.0 s of runtime=10; until then $bw.0 KiB/s" flat &&
	grep -q "^Sequential 100% write interrupted *$" out.txt &&
	"$CLYDE" report -f csv stopped.json >long.csv &&
	grep -q ",put_block,Block write,KiB/s,skipped,,,.*,interrupted by signal 2 (SIGINT): fio ran 4.0 s of runtime=10; until then $bw.0 KiB/s$" long.csv &&
	grep -q ",matrix,.*,IO/s,interrupted,.*interrupted by signal 2 (SIGINT)" long.csv &&
	"$CLYDE" report -o out.html stopped.json &&
	grep -q "interrupted by signal 2 (SIGINT): fio ran 4.0 s of runtime=10" out.html &&
	# a job that had run its whole runtime when the signal came: as it was
	{ printf "fio: terminating on signal 2\n"
	  jq ".jobs[0][\"job options\"].runtime = \"4s\" | .jobs[0].job_runtime = 4000 |
	      .jobs[0].write.runtime = 4000" "$FIX/fio-write.json"; } >whole.json &&
	"$CLYDE" report -f csv whole.json >long.csv &&
	grep -q ",put_block,Block write,KiB/s,ok,$bw.000," long.csv
'

test_expect_success REALWORLD 'bensonjohnson: 289 s of runtime=5m, interrupted' '
	f=$RW/fio-bensonjohnson-FIO-tests-3.33-signal.json &&
	"$CLYDE" report -f csv "$f" >long.csv &&
	grep -c ",skipped,.*,interrupted by signal 2 (SIGINT): fio ran 289.0 s of runtime=5m; until then [0-9.]* KiB/s$" long.csv >n &&
	test "$(cat n)" = 2
'

test_expect_success JQ 'a job that ended with an error: failed, with fio'"'"'s error' '
	jq ".jobs[0].error = 5" "$FIX/fio-write.json" >eio.json &&
	"$CLYDE" report -f text eio.json >out.txt 2>err &&
	grep -q "Block write failed: fio error 5 (Input/output error); until then" out.txt &&
	grep -q "^Sequential 100% write *failed$" out.txt &&
	"$CLYDE" report -f csv eio.json >long.csv &&
	bw=$(jq ".jobs[0].write.bw_bytes / 1024" "$FIX/fio-write.json") &&
	grep -q ",put_block,Block write,KiB/s,failed,.*,fio error 5 (Input/output error); until then $bw.0 KiB/s$" long.csv
'

test_lazy_prereq DEVFULL '[ -c /dev/full ] && [ -w /dev/full ]'
test_expect_success FIO,DEVFULL 'a real fio 3.33 job that an error ended before it moved data: the line names the error' '
	# writing to /dev/full fails at once with ENOSPC (fio exits 1)
	{ fio --name=full --filename=/dev/full --rw=write --bs=4k --size=1M \
		--output-format=json >full.json 2>fio.err; true; } &&
	grep -q "\"error\" : 28" full.json &&
	test_expect_code 2 "$CLYDE" report -f text full.json >out 2>err &&
	test_line_count = 1 err &&
	grep -q "^clyde report: full.json: no results found .*: fio job .full. moved no data: fio error 28 (No space left on device)$" err
'

test_expect_success JQ 'two fio runs of one configuration: percentiles from the merged histograms, and said so' '
	# the same job run again a minute later, a little faster
	jq ".timestamp += 60 | .jobs[0].write.iops += 1" "$FIX/fio-write.json" >again.json &&
	"$CLYDE" report -f text "$FIX/fio-write.json" again.json >out.txt 2>/dev/null &&
	grep -q "^percentiles from the merged histograms of runs that each gave their own:$" out.txt &&
	"$CLYDE" report -f text "$FIX/fio-write.json" >one.txt 2>/dev/null &&
	! grep -q "^percentiles from the merged" one.txt
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
