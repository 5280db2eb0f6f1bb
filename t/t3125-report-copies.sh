#!/bin/bash
# clyde report sums runs as copies of one concurrent run only on evidence
# (issue 21.1): clyde's -y s records, one fio output's clients, a
# --concurrent-window the user gives.  Repeats stay repeats (n, mean,
# interval): real bonnie++ -x 3, clyde -x 2 --csv, the real-world NVMe_4G
# file; a line written twice is read once; tight seed groups far apart
# are pointed out.
. "$(dirname "$0")/lib.sh"

FIX=$TEST_DIR/fixtures/report
top=$(git -C "$SRC_DIR" rev-parse --show-toplevel 2>/dev/null || echo "$SRC_DIR")
RW=${CLYDE_REALWORLD:-$top/../shared/realworld}
[ -n "${CLYDE_REALWORLD:-}" ] || [ -d "$RW" ] || RW=$top/../../shared/realworld
test_lazy_prereq REALWORLD '[ -f "$RW/bonnie-laura-dietz-wifo3-2-1.97-lines.csv" ]'
test_lazy_prereq BONNIEPP 'command -v bonnie++'

# field TEST NAME: column NAME of the long CSV (long.csv) rows of TEST, one
# a line, in run order (RFC 4180: a quoted field may hold commas)
field () {
	awk -v t="$1" -v c="$2" '
	function split_csv(line, f,   n, i, ch, q, cur) {
		n = 0; cur = ""; q = 0
		for (i = 1; i <= length(line); i++) {
			ch = substr(line, i, 1)
			if (q && ch == "\"" && substr(line, i + 1, 1) == "\"") {
				cur = cur ch; i++
			} else if (ch == "\"") {
				q = !q
			} else if (ch == "," && !q) {
				f[++n] = cur; cur = ""
			} else {
				cur = cur ch
			}
		}
		f[++n] = cur
		return n
	}
	{ n = split_csv($0, f) }
	NR == 1 { for (i = 1; i <= n; i++) if (f[i] == c) k = i; next }
	f[11] == t { print f[k] }' long.csv
}

# sum/mean of the numbers on stdin, with 3 decimals
mean () { awk '{ s += $1; n++ } END { printf "%.3f\n", s / n }'; }
sum () { awk '{ s += $1 } END { printf "%.3f\n", s }'; }

# tmpfs DIR SIZE: a fresh tmpfs at DIR, unmounted at the end
tmpfs () {
	mkdir "$1" && mount -t tmpfs -o size="$2" clyde-t3125 "$1" &&
	test_cleanup "umount '$TRASH/$1'"
}

test_expect_success ROOT,TMPFS,BONNIEPP 'bonnie++ 2.00a -x 3: three repeats, never three copies summed' '
	tmpfs m 600m &&
	bonnie++ -d m -s 256M -n 0 -r 64 -x 3 -f -u root -q -m bx3 >bx3.csv 2>/dev/null &&
	grep "^1.98,2.00a,bx3," bx3.csv >lines &&
	test_line_count = 3 lines &&
	# bonnie++ writes one seed on every -x line
	test "$(cut -d, -f5 lines | sort -u | wc -l)" = 1 &&
	"$CLYDE" report -f text bx3.csv >out.txt 2>err &&
	grep -q "^3 runs in 1 configuration$" out.txt &&
	grep -q "bx3 (3 runs)$" out.txt &&
	! grep -q "separately timed" out.txt &&
	"$CLYDE" report -f csv bx3.csv >long.csv &&
	# each line its own run; the configuration: n the lines bonnie++
	# timed (a tmpfs may be too fast: +++++, a run with no value), their
	# mean
	for t in put_block rewrite; do
		case $t in put_block) f=12 ;; rewrite) f=14 ;; esac
		cut -d, -f$f lines >all &&
		grep -v "^+" all >want || continue
		awk "/^[+]/ { print \"\"; next } { printf \"%.3f\n\", \$1 }" \
			all >want3 &&
		field $t value >got && test_cmp want3 got &&
		field $t cfg_n | sort -u >n && wc -l <want >expect &&
		test_cmp expect n &&
		field $t workers | sort -u >w && echo 1 >expect && test_cmp expect w &&
		mean <want >mean1 && field $t cfg_mean | sort -u | mean >mean2 &&
		test_cmp mean1 mean2 || return 1
	done &&
	"$CLYDE" report -o page.html bx3.csv &&
	! grep -q "separately timed" page.html &&
	grep -q "data-workers=\"1\"" page.html
'

test_expect_success ROOT,TMPFS 'clyde -x 2 --csv: two repeats, never two copies' '
	tmpfs m2 300m &&
	"$CLYDE" -d m2 -s 64M -n 0 -x 2 -f -q -m cx2 --csv r.csv >/dev/null 2>&1 &&
	test_line_count = 2 r.csv &&
	"$CLYDE" report -f text r.csv >out.txt 2>err &&
	grep -q "^2 runs in 1 configuration$" out.txt &&
	grep -q "cx2 (2 runs)$" out.txt &&
	! grep -q "separately timed" out.txt &&
	"$CLYDE" report -f csv r.csv >long.csv &&
	field put_block cfg_n | sort -u >n && echo 2 >expect && test_cmp expect n
'

test_expect_success REALWORLD 'NVMe_4G.txt: nine runs in sequence are nine repeats' '
	f="$RW/bonnie-cunnie-cloud_storage_benchmarks-1.97-NVMe_4G.txt" &&
	"$CLYDE" report -f text "$f" >out.txt 2>err &&
	grep -q "^9 runs in 1 configuration$" out.txt &&
	grep -q "NVMe_4G (9 runs)$" out.txt &&
	! grep -q "separately timed" out.txt &&
	"$CLYDE" report -f csv "$f" >long.csv 2>/dev/null &&
	field put_block value >v &&
	test_line_count = 9 v &&
	grep -qx 451437.000 v && grep -qx 478881.000 v &&
	! grep -q 930318 v &&
	# the seeds are spread (gaps of 3 s to 375 s): no sign of copies, no
	# hint; the text tables said once
	test_line_count = 1 err &&
	grep -q "NVMe_4G.txt: 90 lines of bonnie++.s text tables ignored$" err
'

test_expect_success REALWORLD 'a line written twice (laura-dietz line 3 = line 1) is read once, one warning' '
	f="$RW/bonnie-laura-dietz-wifo3-2-1.97-lines.csv" &&
	"$CLYDE" report -f text "$f" >out.txt 2>err &&
	grep -q "^4 runs in 1 configuration$" out.txt &&
	test_line_count = 1 err &&
	grep -q "lines.csv:3: the same line as line 1: read once$" err
'

# copies.csv: bonnie++ 1.97 lines of 8 processes started together, twice
# (seeds 0..7 s apart within a round, rounds 10 minutes apart); process p
# of round r writes 10000 + 100 r + p KiB/s
copies_csv () {
	for r in 0 1; do for p in 0 1 2 3 4 5 6 7; do
		printf "1.97,1.97,r8,1,%d,4G,,,,%d,10,%d,5,,,%d,9,%d.5,1,16,,,,,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,,1ms,2ms,,3ms,4ms,1us,1us,1us,1us,1us,1us\n" \
			$((1600000000 + r * 600 + p)) $((10000 + 100 * r + p)) \
			$((5000 + p)) $((20000 + p)) $((100 + p))
	done; done
}

test_expect_success 'seeds in tight groups far apart: repeats, and one line suggesting --concurrent-window' '
	copies_csv >copies.csv &&
	"$CLYDE" report -f text copies.csv >out.txt 2>err &&
	grep -q "^16 runs in 1 configuration$" out.txt &&
	! grep -q "separately timed" out.txt &&
	test_line_count = 1 err &&
	grep -q "^clyde report: copies.csv: the seeds (start times) of 16 bonnie++ lines of .r8. fall in 2 groups, each within 7 s and 593 s or more from the next, .*--concurrent-window 7 sums it as one run$" err
'

# The hint names the setup of the file's first line that shows copies,
# whatever the order of labels: a label that sorts first ("a9") but comes
# later in the file is not the one named; a setup of spread seeds before
# them names nothing.
test_expect_success 'the hint: the first setup in the file that shows copies' '
	{ for p in 0 1 2; do
		printf "1.97,1.97,spread,1,%d,4G,,,,100,10,100,5,,,100,9,1.5,1,16,,,,,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,,1ms,2ms,,3ms,4ms,1us,1us,1us,1us,1us,1us\n" \
			$((1600000000 + p * 200))
	  done
	  copies_csv
	  copies_csv | sed "s/,r8,/,a9,/"; } >order.csv &&
	"$CLYDE" report -f text order.csv >out.txt 2>err &&
	grep -q "^35 runs in 3 configurations$" out.txt &&
	test_line_count = 1 err &&
	grep -q "^clyde report: order.csv: the seeds (start times) of 16 bonnie++ lines of .r8. fall in 2 groups" err
'

test_expect_success 'a --concurrent-window the user gives: eight copies summed, twice' '
	copies_csv >copies.csv &&
	"$CLYDE" report -f text --concurrent-window 8 copies.csv >out.txt 2>err &&
	grep -q "^2 runs in 1 configuration$" out.txt &&
	grep -q "(2 runs, 8 separately timed copies)$" out.txt &&
	! grep -q "suggest\|sums it as one run" err &&
	"$CLYDE" report -f csv --concurrent-window 8 copies.csv >long.csv 2>/dev/null &&
	# round 0: 8 x 10000 + 28 = 80028; round 1: 8 x 10100 + 28 = 80828
	field put_block value | sort >sums &&
	printf "80028.000\n80828.000\n" >expect && test_cmp expect sums &&
	field put_block cpu | sort -u >cpu &&
	echo 80.0 >expect && test_cmp expect cpu &&
	# the page says on whose word they were summed
	"$CLYDE" report -o page.html --concurrent-window 8 copies.csv 2>/dev/null &&
	grep -q "8 copies of bonnie++ started within --concurrent-window 8 s (their seeds): one run of 8 processes" page.html
'

test_expect_success 'under a window, equal seeds (-x repeats) never sum with each other' '
	line () {
		printf "1.97,1.97,xw,1,%d,4G,,,,%d,10,5000,5,,,9000,9,100.5,1,16,,,,,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,,1ms,2ms,,3ms,4ms,1us,1us,1us,1us,1us,1us\n" "$1" "$2"
	} &&
	# copy A (seed ...000) and copy B (seed ...001), each with -x 2
	{ line 1600000000 1000; line 1600000000 1001
	  line 1600000001 2000; line 1600000001 2002; } >x2.csv &&
	"$CLYDE" report -f csv --concurrent-window 100 x2.csv >long.csv 2>/dev/null &&
	# the k-th line of each seed together: 1000 + 2000, 1001 + 2002
	field put_block value | sort >sums &&
	printf "3000.000\n3003.000\n" >expect && test_cmp expect sums &&
	# -x 3 alone (one seed): three repeats, whatever the window
	{ line 1600000000 1000; line 1600000000 1001; line 1600000000 1002; } >x3.csv &&
	"$CLYDE" report -f text --concurrent-window 100 x3.csv >out.txt 2>/dev/null &&
	grep -q "^3 runs in 1 configuration$" out.txt &&
	! grep -q "separately timed" out.txt
'

# ysync START END WRITE: a clyde record of a -y s copy on host "h1"
ysync () {
	head -1 "$FIX/clyde.jsonl" | jq -c --arg s "$1" --arg e "$2" \
		--argjson w "$3" '
		.label = "ysync" | .params.sync = "semaphores" |
		.host.hostname = "h1" | .start = $s | .end = $e |
		(.results[] | select(.name == "put_block") | .value) = $w'
}

test_expect_success JQ 'clyde -y s copies: summed where their runs overlapped, not where one followed the other' '
	# session 1: the second copy started 8 s after the first (which waited
	# on the semaphore) and both ended together; session 2 after it
	{ ysync 2026-11-29T19:00:00Z 2026-11-29T19:00:30Z 100000
	  ysync 2026-11-29T19:00:08Z 2026-11-29T19:00:30Z 100001
	  ysync 2026-11-29T19:00:31Z 2026-11-29T19:01:00Z 200000
	  ysync 2026-11-29T19:00:33Z 2026-11-29T19:01:00Z 200002; } >y.jsonl &&
	"$CLYDE" report -f csv y.jsonl >long.csv 2>/dev/null &&
	field put_block value | sort >sums &&
	printf "200001.000\n400002.000\n" >expect && test_cmp expect sums &&
	"$CLYDE" report -f text y.jsonl >out.txt 2>/dev/null &&
	grep -q "(2 runs, 2 separately timed copies)$" out.txt &&
	# without the semaphores nothing says they ran together
	jq -c ".params.sync = \"none\"" y.jsonl >n.jsonl &&
	"$CLYDE" report -f text n.jsonl >out.txt 2>/dev/null &&
	grep -q "^4 runs in 1 configuration$" out.txt
'

# listening PORT: wait until a socket listens on 127.0.0.1:PORT (up to
# 60 s; /proc/net/tcp: the address in hex in the host's byte order, state
# 0A is LISTEN)
listening () {
	local i hex
	hex=$(printf "(0100007F|7F000001):%04X 00000000:0000 0A" "$1")
	for i in $(seq 600); do
		grep -qE "$hex" /proc/net/tcp && return 0
		sleep 0.1
	done
	echo "nothing listens on 127.0.0.1:$1 after 60 s" >&2
	return 1
}

# fio --server on two ports of this host, the ids in fio*.pid; each
# listens when this returns (fio --daemonize returns before its server
# listens: a pause would only hope the machine is quick enough)
fio_servers () {
	base=$((20000 + $$ % 20000)) &&
	for k in 0 1; do
		fio --server=ip:127.0.0.1,$((base + k)) --daemonize="$TRASH/fio$k.pid" \
			>/dev/null 2>&1 || return 1
		test_cleanup "kill \$(cat '$TRASH/fio$k.pid') 2>/dev/null"
	done &&
	listening $base && listening $((base + 1))
}

test_expect_success FIO,JQ 'fio client/server: two clients at once are one run of two, summed' '
	fio_servers &&
	mkdir -p fdir &&
	printf "[cs]\ndirectory=%s\nrw=write\nbs=64k\nsize=16m\nioengine=psync\n" \
		"$TRASH/fdir" >job.fio &&
	fio --client=ip:127.0.0.1,$base --client=ip:127.0.0.1,$((base + 1)) \
		--output-format=json job.fio >cs.json 2>/dev/null &&
	test "$(jq "[.client_stats[] | select(.jobname == \"cs\")] | length" cs.json)" = 2 &&
	"$CLYDE" report -f text cs.json >out.txt 2>err &&
	grep -q "^1 run in 1 configuration$" out.txt &&
	grep -q "cs (1 run, 2 fio clients)$" out.txt &&
	! grep -q "95% CI" out.txt &&
	"$CLYDE" report -f csv cs.json >long.csv 2>/dev/null &&
	jq -r ".client_stats[] | select(.jobname == \"cs\") | .write.bw_bytes / 1024" cs.json |
		sum >want &&
	field put_block value >got &&
	awk -v a="$(cat want)" -v b="$(cat got)" "BEGIN { exit !(a - b < 0.01 && b - a < 0.01) }" &&
	field put_block workers >w && echo 2 >expect && test_cmp expect w &&
	field put_block cfg_n >n && echo 1 >expect && test_cmp expect n
'

test_done
