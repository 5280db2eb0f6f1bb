#!/bin/bash
# clyde matrix as the seeds ran it, on tmpfs: the prefill (its block size,
# timed and recorded), vdbench's hit and miss areas, the rate curve as a
# table, the named workloads (--profile), --steady, several -d with a row
# per target, the default --size and refused sizes, and every cell in the
# record after a signal (issue 13 item 7) or an --overwrite that cannot
# fit (item 8).
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-hold.sh"

test_have_prereq JQ || test_skip_all 'jq is needed to read the JSON record'

test_expect_success TMPFS 'prefill: --prefill-bs, timed, recorded and shown' '
	mkdir tm && mount -t tmpfs -o size=128m tmpfs tm &&
	test_cleanup "umount \"$TRASH/tm\"" &&
	"$CLYDE" matrix -d tm --bs 4k --threads 2 --pattern random --mix 100 \
		--size 4M --time 0.05 --ramp 0 --json d.jsonl >d.txt &&
	jq -e ".params.prefill_bs == 1048576 and
	       .matrix.prefill.bs == 1048576 and
	       .matrix.prefill.status == \"ok\"" d.jsonl >/dev/null &&
	"$CLYDE" matrix -d tm --bs 4k --threads 2 --pattern random --mix 100 \
		--size 4M --time 0.05 --ramp 0 --prefill-bs 256k \
		--json p.jsonl >p.txt &&
	jq -e ".params.prefill_bs == 262144 and
	       (.matrix.prefill | .bs == 262144 and .kind == \"write\" and
		.bytes == 2 * 4194304 and .elapsed > 0 and
		((.mbps - .bytes / .elapsed / 1048576) | fabs) < 1e-6 * .mbps)" \
		p.jsonl >/dev/null &&
	grep -q "^Prefill: 8.0 MiB of unique data, 256K sequential writes:$" p.txt &&
	grep -q "^  [0-9.]* s with fsync, [0-9.,]* MB/s$" p.txt &&
	test_expect_code 2 "$CLYDE" matrix -d tm --prefill-bs 1000 2>err &&
	grep -q "^clyde: --prefill-bs: .1000. is not a block size" err &&
	test -z "$(ls -A tm)"
'

# hits N PCT: a random read cell with a 1M hit area in 4M files, 1 s (a
# loaded machine once let the thread of a 0.1 s cell do 1 read)
hits () {
	"$CLYDE" matrix -d tm --bs 4k --threads 1 --pattern random --mix 100 \
		--size 4M --time 1 --ramp 0 --hit-area 1M --hit-pct "$2" \
		--json "h$1.jsonl" >/dev/null
}

test_expect_success TMPFS 'hit area: hits in the first SIZE, misses only in the rest' '
	hits 0 0 && hits 1 100 && hits 2 50 &&
	jq -e ".matrix.cells[0] | .reads > 100 and .hits == 0" h0.jsonl &&
	jq -e ".matrix.cells[0] | .reads > 100 and .hits == .reads" h1.jsonl &&
	jq -e ".matrix.cells[0] | .hits > .reads * 0.3 and
	       .hits < .reads * 0.7" h2.jsonl >/dev/null &&
	test_expect_code 2 "$CLYDE" matrix -d tm --bs 4k --threads 1 \
		--size 4M --hit-area 4M --hit-pct 50 2>err &&
	grep -q "^clyde: --hit-area: .* leaves no miss area" err &&
	test -z "$(ls -A tm)"
'

# (a point of fewer than 10 I/Os, as a loaded machine makes, is marked
# low precision: its figure followed by ~)
test_expect_success TMPFS 'rate curve: a row per point, "not reached" as the record says' '
	"$CLYDE" matrix -d tm --bs 4k --threads 1 --pattern random --mix 100 \
		--size 4M --time 0.2 --ramp 0 --curve 10,50,100 \
		--json c.jsonl >c.txt &&
	sed -n "/^Rate curve, Random 100% read (maximum [0-9,]* IO\/s)$/,/^$/p" \
		c.txt >curve &&
	test_line_count = 6 curve &&
	jq -r ".matrix.cells[0].curve[] |
		\"\(.pct) \(.target_iops | round) \(.iops | round) \(.reached)\"" \
		c.jsonl >points &&
	test_line_count = 3 points &&
	while read pct target achieved reached; do
		t=$(printf "%d" "$target" | sed ":a;s/\B[0-9]\{3\}\>/,&/;ta") &&
		a=$(printf "%d" "$achieved" | sed ":a;s/\B[0-9]\{3\}\>/,&/;ta") &&
		if test "$reached" = true; then
			grep -q "^ *$pct  *$t  *$a~\?  *[0-9.]*  *[0-9.]*  *—  *—$" curve
		else
			grep -q "^ *$pct  *$t  *$a~\?  *[0-9.]*  *[0-9.]*  *—  *—  not reached$" curve
		fi || { echo "point $pct $t $a $reached"; cat curve; return 1; }
	done <points &&
	test "$(LC_ALL=C.UTF-8 wc -L <c.txt)" -le 80
'

test_expect_success TMPFS '--profile: the seeds'\'' workloads, options given override' '
	"$CLYDE" matrix -d tm --profile vdbench-hit --threads 1 --size 4M \
		--time 0.05 --ramp 0 --json v.jsonl >v.txt &&
	jq -e ".params.profile == \"vdbench-hit\" and
	       .matrix.profile == \"vdbench-hit\" and
	       .params.block_sizes == [8192] and .params.threads == [1] and
	       .params.patterns == [\"random\"] and .params.read_pcts == [100] and
	       .params.hit_area == 1048576 and .params.hit_pct == 100 and
	       .params.prefill_bs == 262144 and
	       .params.curve == [10, 50, 70, 80, 90, 100] and
	       (.matrix.cells | length) == 1 and
	       (.matrix.cells[0] | .hits == .reads and
		(.curve | length) == 6)" v.jsonl >/dev/null &&
	grep -q "^Workload: --profile vdbench-hit, hit area 1M, 100 % hits$" v.txt &&
	"$CLYDE" matrix --bs 4k --profile dd -d tm --size 4M --time 0.05 \
		--ramp 0 --json dd.jsonl >/dev/null &&
	jq -e ".params.profile == \"dd\" and .params.block_sizes == [4096] and
	       .params.patterns == [\"seq\"] and .params.read_pcts == [0, 100] and
	       .matrix.direct == true" dd.jsonl >/dev/null &&
	"$CLYDE" matrix --help >help &&
	grep -q -- "--profile NAME" help &&
	test_expect_code 2 "$CLYDE" matrix --profile fio -d tm 2>err &&
	grep -q "^clyde: --profile: .fio. is not xdisk, vdbench-hit or dd" err &&
	test_expect_code 2 "$CLYDE" matrix --profile dd --profile xdisk -d tm \
		2>err && test_line_count = 1 err &&
	test -z "$(ls -A tm)"
'

test_expect_success TMPFS '--steady: ended when steady, figures from the window' '
	"$CLYDE" matrix -d tm --bs 4k --threads 1 --pattern random \
		--mix 100,0 --size 4M --time 10 --ramp 0 --steady iops:90% \
		--steady-window 0.3 --json s.jsonl >s.txt &&
	# (a quiet machine is steady in well under a second; under two
	# CPU-bound loads it took up to 8 s: the cell ends when steady)
	jq -e ".params.steady == \"iops:90%\" and .params.steady_window == 0.3 and
	       all(.matrix.cells[]; .steady.attained and .steady.at < 10 and
		   .steady.window == 0.3 and .steady.value <= 90 and
		   ((.elapsed - .steady.window) | fabs) < 1e-9 and
		   ((.iops - .steady.mean) | fabs) <= 1e-6 * .iops)" \
		s.jsonl >/dev/null &&
	grep -q "^Steady state (--steady iops:90% over 0.3 s)$" s.txt &&
	"$CLYDE" matrix -d tm --bs 4k --threads 1 --pattern random --mix 100 \
		--size 4M --time 0.5 --ramp 0 --steady iops_slope:0 \
		--steady-window 0.2 --json n.jsonl >/dev/null &&
	jq -e ".matrix.cells[0].steady | .attained == false and
	       .at >= 0.49 and .value > 0" n.jsonl >/dev/null &&
	test_expect_code 2 "$CLYDE" matrix -d tm --steady speed:5 2>err &&
	grep -q "^clyde: --steady: .speed:5. is not KIND:LIMIT" err &&
	test_expect_code 2 "$CLYDE" matrix -d tm --steady iops:5 \
		--steady-window 9 --time 1 2>err &&
	grep -q "longer than --time" err
'

test_expect_success TMPFS 'several -d: threads round robin, a row per target, every target named' '
	mkdir tm2 && mount -t tmpfs -o size=64m tmpfs tm2 &&
	test_cleanup "umount \"$TRASH/tm2\"" &&
	"$CLYDE" matrix -d tm -d tm2 --bs 4k --threads 3 --pattern random \
		--mix 100,0 --size 4M --time 0.1 --ramp 0 --json t.jsonl >t.txt &&
	jq -e ".params.targets == \"tm,tm2\" and .params.ntargets == 2 and
	       ([.targets[] | .path] == [\"tm\", \"tm2\"]) and
	       all(.targets[]; .fstype == \"tmpfs\") and
	       .matrix.prefill.bytes == 3 * 4194304 and
	       all(.matrix.cells[]; .status == \"ok\" and
		   (.targets | length) == 2 and
		   ([.targets[] | .reads] | add) == .reads and
		   ([.targets[] | .writes] | add) == .writes and
		   all(.targets[]; .reads + .writes > 0))" t.jsonl >/dev/null &&
	grep -q "^  1 tm (tmpfs" t.txt && grep -q "^  2 tm2 (tmpfs" t.txt &&
	test "$(grep -c "^Random  *100% \(read\|write\)  *[12]  *[0-9,]* " t.txt)" = 4 &&
	test_expect_code 2 "$CLYDE" matrix -d tm -d tm 2>err &&
	grep -q "given twice" err &&
	touch f && test_expect_code 2 "$CLYDE" matrix -d tm -d f \
		--overwrite 2>err && grep -q "not of one kind" err &&
	test -z "$(ls -A tm)" && test -z "$(ls -A tm2)"
'

test_expect_success TMPFS 'text: every -d named, wrapped; control characters escaped; -d # column' '
	a="tm/a-directory-name-long-enough-to-wrap-$(printf %030d 0)" &&
	nl="tm/x
warning: forged" &&
	mkdir "$a" "$nl" tm2/b &&
	"$CLYDE" matrix -d "$a" -d "$nl" -d tm2/b --bs 4k --threads 3 \
		--pattern random --mix 100 --size 1M --time 0.05 --ramp 0 \
		>w.txt &&
	sed -n 2p w.txt | grep -qx "on $a," &&
	sed -n 3p w.txt | grep -qFx "   tm/x\\nwarning: forged, tm2/b" &&
	! grep -q "^warning: forged" w.txt &&
	grep -qF "  2 tm/x\\nwarning: forged (tmpfs" w.txt &&
	! sed -n 2,3p w.txt | awk "length > 80" | grep -q . &&
	grep -q "^Pattern    Profile      -d #  *IO/s" w.txt &&
	! grep -q " Target  *IO/s" w.txt &&
	"$CLYDE" info "$nl" >i.txt &&
	grep -qFx "path:      tm/x\\nwarning: forged" i.txt &&
	! grep -q "^warning: forged" i.txt &&
	rmdir "$a" "$nl" tm2/b
'

test_expect_success TMPFS 'tmpfs: O_DIRECT marked not honoured, once in the text and the record' '
	"$CLYDE" matrix -d tm --bs 4k --threads 1 --pattern random --mix 100 \
		--size 1M --time 0.05 --ramp 0 --json o.jsonl >o.txt &&
	sed -n 1p o.txt | grep -q "(.*, O_DIRECT not honoured)$" &&
	test "$(grep -c "^warning: O_DIRECT not honoured: -d 1 is on tmpfs, a memory filesystem;$" o.txt)" = 1 &&
	jq -e ".matrix.direct and
	       .matrix.direct_ignored == \"-d 1 is on tmpfs, a memory filesystem\" and
	       ([.warnings[] | select(startswith(\"O_DIRECT not honoured\"))] | length) == 1" \
		o.jsonl >/dev/null &&
	"$CLYDE" report -f text o.jsonl >or.txt &&
	grep -q "^warning: O_DIRECT not honoured: -d 1 is on tmpfs" or.txt &&
	"$CLYDE" matrix -d tm --bs 4k --threads 1 --pattern random --mix 100 \
		--size 1M --time 0.05 --ramp 0 --buffered --json ob.jsonl >ob.txt &&
	! grep -q "not honoured" ob.txt &&
	jq -e ".matrix.direct_ignored == null" ob.jsonl >/dev/null &&
	test -z "$(ls -A tm)"
'

test_expect_success TMPFS 'a cell of too few I/Os per thread is warned of as low precision' '
	"$CLYDE" matrix -d tm --bs 32m --threads 1 --pattern seq --mix 0 \
		--size 32M --time 0.01 --ramp 0 --json lp.jsonl >/dev/null 2>err &&
	jq -e "[.warnings[] | select(test(\"^matrix cell 1 .*: [0-9]+ I/Os in .* s, fewer than 10 per thread: low precision\"))] | length == 1" \
		lp.jsonl >/dev/null &&
	grep -q "^clyde: warning: matrix cell 1 .*low precision, not a rate$" err &&
	test -z "$(ls -A tm)"
'

test_expect_success TMPFS 'sizes: default clipped to half the free space; impossible ones refused' '
	"$CLYDE" matrix -d tm --bs 4k --threads 2 --pattern random --mix 100 \
		--time 0.05 --ramp 0 --json z.jsonl >/dev/null &&
	jq -e ".params.file_size == 32 * 1048576" z.jsonl >/dev/null &&
	test_expect_code 2 "$CLYDE" matrix -d tm --threads 2 \
		--size 8388608T 2>err &&
	test_line_count = 1 err && grep -q "^clyde: --size: 8.0 EiB" err &&
	test_expect_code 2 "$CLYDE" matrix -d tm --threads 16 --bs 4k 2>err &&
	test_line_count = 1 err &&
	grep -q "^clyde: -d: .tm. has 128 MiB free; the 16 files of --threads 16 need at least 512 MiB" err &&
	test_expect_code 2 "$CLYDE" matrix -d tm --threads 4 --size 64M 2>err &&
	grep -q "^clyde: --size: 4 files of 64 MiB (--threads 4) need 256 MiB but .tm. has 128 MiB free$" err &&
	test -z "$(ls -A tm)"
'

test_expect_success TMPFS '--overwrite: a file that cannot grow is refused up front, left alone' '
	head -c 1048576 /dev/urandom >tm/user.dat &&
	cp tm/user.dat keep.dat &&
	test_expect_code 2 "$CLYDE" matrix -d tm/user.dat --overwrite \
		--size 1G --bs 4k --threads 1 2>err &&
	test_line_count = 1 err &&
	grep -q "^clyde: --size: growing .tm/user.dat. from 1.0 MiB to 1.0 GiB needs more than the" err &&
	! grep -q removed err &&
	cmp tm/user.dat keep.dat && rm tm/user.dat
'

# prefilling N: wait until N prefill files exist (the prefill has begun:
# at memory speed it lasts tens of milliseconds, so no sleep after this)
prefilling () {
	local i
	for ((i = 0; i < 2000; i++)); do
		test "$(ls tm/clyde-matrix.*/matrix.* 2>/dev/null | wc -l)" -ge "$1" &&
			return 0
		sleep 0.002
	done
	return 1
}

# The signals below go when clyde shows, in its progress on a pty
# (t/lib-hold.sh), that it is in the cell or curve point they must cut,
# with seconds to spare: a loaded machine only makes them later in it.

test_expect_success TMPFS,SCRIPT 'a signal: every cell in the record, the one cut short interrupted, not failed' '
	hold_pty i matrix -d tm --bs 4k --threads 1 --pattern random,seq \
		--mix 100,0 --size 4M --time 2 --ramp 0 --json i.jsonl &&
	# in cell 2 (a miss would cut cell 3: one cut short all the same)
	hold_shows "\(2/4\): +[1-9][0-9]*%" && kill -INT $hold_pid &&
	hold_pty_wait && test "$hold_status" = 130 &&
	{ cat i.out; hold_pty_lines; } >out &&
	jq -e ".exit_status == 130 and (.matrix.cells | length) == 4 and
	       any(.matrix.cells[]; .status == \"not_run\") and
	       all(.matrix.cells[]; .status != \"failed\") and
	       ([.matrix.cells[] | select(.status == \"skipped\")] | length) == 1 and
	       all(.matrix.cells[] | select(.status == \"skipped\");
		   .reason == \"interrupted by signal 2 (SIGINT)\") and
	       all(.matrix.cells[] | select(.status == \"not_run\");
		   .reason == \"not run: interrupted by signal 2 (SIGINT)\")" \
		i.jsonl >/dev/null &&
	grep -q "skipped: interrupted by signal 2 (SIGINT)" out &&
	grep -q " interrupted " out && ! grep -q failed out &&
	"$CLYDE" report -f text i.jsonl >rep &&
	grep -q "skipped: interrupted by signal 2 (SIGINT)" rep &&
	test -z "$(ls -A tm)"
'

# cut_cell N: a 300 s random read cell with -c N, SIGINT once it shows 2 %
# (6 s) done: the run ends well before the 294 s left (within 120 s: the
# exit of -c 2 under load takes seconds; a run that let the cell finish
# would take minutes more).  The cell is that long only for a watcher
# starved on a loaded machine: beside stress-ng and -c 2's two busy
# workers one saw 2 % only after a 60 s cell had ended (its script(1)
# stalled too), and signalled a clyde that had finished.  The cut cell's
# figures are over the time it ran
# (its workers skipped, not failed), and the --csv row has no rate and no
# latency (as the report's CSV)
cut_cell () {
	hold_pty "cut$1" matrix -c "$1" -d tm --bs 4k --threads 1 \
		--pattern random --mix 100 --size 4M --time 300 --ramp 0 \
		--json "cut$1.jsonl" --csv "cut$1.csv" &&
	hold_shows "\(1/1\): +([2-9]|[1-9][0-9])%" &&
	hold_signal INT && t0=$EPOCHREALTIME &&
	hold_pty_wait &&
	{ test "$hold_status" = 130 &&
	  awk -v a="$t0" -v b="$EPOCHREALTIME" "BEGIN { exit !(b - a < 120) }" ||
	  { echo "exit $hold_status, ended $(awk -v a="$t0" -v b="$EPOCHREALTIME" \
		"BEGIN { print b - a }") s after the signal; its threads then:"
	    cat "cut$1.sig"; false; }; } &&
	hold_pty_lines >"cut$1.err" &&
	jq -e ".matrix.cells[0] | .status == \"skipped\" and
	       .reason == \"interrupted by signal 2 (SIGINT)\" and
	       .elapsed > 0.3 and .elapsed < 250 and .reads > 0 and
	       ((.iops * .elapsed - .reads) | fabs) <= 1e-6 * .reads" \
		"cut$1.jsonl" >/dev/null &&
	grep -qx "clyde: matrix cell 1: interrupted by signal 2 (SIGINT)" \
		"cut$1.err" &&
	jq -e "all(.matrix.cells[0].workers[]?; .status == \"skipped\" and
		   .reason == \"interrupted by signal 2 (SIGINT)\")" \
		"cut$1.jsonl" >/dev/null &&
	tail -n 1 "cut$1.csv" >row &&
	grep -q ",random,100,skipped,0,[0-9.]*,,,,[1-9][0-9]*,0,,,,,,,,,,,,,,,0,0,0$" row &&
	test -z "$(ls -A tm)"
}

test_expect_success TMPFS,SCRIPT 'a signal: the cut cell measured over the time it ran, -c 1 and -c 2' '
	cut_cell 1 && cut_cell 2
'

test_expect_success TMPFS,SCRIPT 'a signal in a curve point: the cell measured in full keeps its figures, the point skipped' '
	hold_pty cp matrix -d tm --bs 4k --threads 1 --pattern random \
		--mix 100,0 --curve 10,50 --size 4M --time 6 --ramp 0 \
		--json cp.jsonl --csv cp.csv &&
	# the cell, then its two points, 6 s each: the point of 10 % runs
	# from 33 % to 67 % of the progress of cell 1, the point of 50 % from
	# 67 % (a watcher starved on a loaded machine may see 40 % late)
	hold_shows "\(1/2\): +[4-9][0-9]%" && kill -INT $hold_pid &&
	hold_pty_wait && test "$hold_status" = 130 &&
	hold_pty_lines >cp.err &&
	jq -e ".exit_status == 130 and (.matrix.cells[0] |
		.status == \"ok\" and .reason == null and .elapsed >= 6 and
		.iops > 0 and .read_latency_ms.p99 > 0 and
		(.curve | length) >= 1 and
		all(.curve[:-1][]; .status == \"ok\" and .reads > 0) and
		(.curve[-1] | .status == \"skipped\" and .reads == 0 and
		 .read_latency_ms == null)) and
	       (.matrix.cells[1] | .status == \"not_run\" and
		.reason == \"not run: interrupted by signal 2 (SIGINT)\")" \
		cp.jsonl >/dev/null &&
	# on a line of its own: the progress line cleared before it
	grep -qxE "clyde: matrix cell 1: curve point (10|50)%: interrupted by signal 2 \(SIGINT\)" \
		cp.err &&
	grep -qE "^ *(10|50) *[0-9,]* *skipped$" cp.out && ! grep -q failed cp.out &&
	grep -q ",random,100,ok,[0-9.]*,[0-9.]*,[0-9.]*," cp.csv &&
	printf "[matrix 4k 1 random 100]\nmin_iops = 1\n" >cp.ini &&
	"$CLYDE" report -f text --criteria cp.ini cp.jsonl >rep 2>&1 &&
	grep -q "criteria cp.ini: PASS" rep &&
	test -z "$(ls -A tm)"
'

test_expect_success TMPFS 'a signal in the prefill: every cell not run, the reason' '
	"$CLYDE" matrix -d tm --bs 4k --threads 1 --pattern random --mix 100,0 \
		--size 100M --prefill-bs 512 --buffered --time 0.1 --json f.jsonl \
		>/dev/null 2>&1 &
	pid=$! && prefilling 1 && kill -INT $pid &&
	{ wait $pid; test $? = 130; } &&
	jq -e ".matrix.error == \"prefill interrupted by SIGINT\" and
	       .matrix.prefill.status == \"failed\" and
	       (.matrix.cells | length) == 2 and
	       all(.matrix.cells[]; .status == \"not_run\" and
		   .reason == \"not run: prefill interrupted by SIGINT\")" \
		f.jsonl >/dev/null &&
	test -z "$(ls -A tm)"
'

test_expect_success TMPFS 'a signal in the prefill of -c 2: every cell not run, the reason' '
	"$CLYDE" matrix -c 2 -d tm --bs 4k --threads 1 --pattern random \
		--mix 100 --size 50M --prefill-bs 512 --buffered --time 0.1 \
		--json w.jsonl >/dev/null 2>&1 &
	pid=$! && prefilling 2 && kill -INT $pid &&
	{ wait $pid; test $? = 130; } &&
	jq -e "(.matrix.error | startswith(\"prefill interrupted by\")) and
	       all(.matrix.cells[]; .status == \"not_run\" and
		   (.reason | startswith(\"not run: \")))" \
		w.jsonl >/dev/null &&
	test -z "$(ls -A tm)"
'

test_done
