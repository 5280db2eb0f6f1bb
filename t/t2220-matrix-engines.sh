#!/bin/bash
# clyde matrix engines on tmpfs: io_uring (with --sqpoll too), the null
# engine (every cell complete, histograms counted, --verify stamping still
# run, and nothing read to check), --hipri refused where the device cannot
# poll; a SIGINT mid-cell with io_uring and with null: exit 130, the record
# written with the cell marked interrupted, the files removed.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-hold.sh"

test_have_prereq JQ || test_skip_all 'jq is needed to read the JSON record'
test_have_prereq TMPFS || test_skip_all 'needs root and tmpfs'

mkdir tm && mount -t tmpfs -o size=128m tmpfs tm &&
test_cleanup "umount \"$TRASH/tm\"" || test_skip_all 'cannot mount tmpfs'

test_lazy_prereq URING '
	"$CLYDE" matrix -d "$TRASH/tm" --engine io_uring --bs 4k --threads 1 \
		--pattern seq --mix 100 --size 64k --time 0.01 --ramp 0 -q \
		2>/dev/null
'

M="--bs 4k,64k --threads 1,2 --pattern random,seq --mix 100,0,50
	--size 2M --time 0.1 --ramp 0 --seed 5"

# cells_ok ENGINE QD: every cell ok and consistent
cells_ok () {
	jq -e --arg e "$1" --argjson qd "$2" '
		.exit_status == 0 and .matrix.engine == $e and
		.params.engine == $e and .params.queue_depth == $qd and
		(.matrix.cells | length) == 24 and
		all(.matrix.cells[]; .status == "ok" and .iops > 0 and
			.qd == $qd and
			(.read_histogram == null or
			 .read_histogram.count == .reads) and
			(.write_histogram == null or
			 .write_histogram.count == .writes))' r.jsonl >/dev/null || {
		cat err
		jq -c "del(.matrix.cells[].read_histogram,
			   .matrix.cells[].write_histogram, .host, .target)" r.jsonl
		false
	}
}

test_expect_success URING 'io_uring, queue depth 16' '
	rm -f r.jsonl &&
	"$CLYDE" matrix -d tm --engine io_uring --qd 16 $M --json r.jsonl \
		-q 2>err &&
	cells_ok io_uring 16 &&
	jq -e ".params.sqpoll == 0 and .params.hipri == 0" r.jsonl \
		>/dev/null &&
	test -z "$(ls -A tm)"
'

test_expect_success URING 'io_uring with --sqpoll' '
	rm -f r.jsonl &&
	"$CLYDE" matrix -d tm --engine io_uring --sqpoll --qd 4 $M \
		--json r.jsonl -q 2>err &&
	cells_ok io_uring 4 &&
	jq -e ".params.sqpoll == 1" r.jsonl >/dev/null &&
	test -z "$(ls -A tm)"
'

test_expect_success URING '--hipri on tmpfs: refused, one line, nothing left' '
	test_expect_code 2 "$CLYDE" matrix -d tm --engine io_uring --hipri \
		$M --json r2.jsonl >out 2>err &&
	test_line_count = 1 err &&
	grep -q "^clyde: --hipri: .*not on a block device" err &&
	test_path_is_missing r2.jsonl &&
	test -z "$(ls -A tm)"
'

test_expect_success 'null engine: every cell complete, histograms counted' '
	rm -f r.jsonl &&
	"$CLYDE" matrix -d tm --engine null --qd 32 $M --json r.jsonl \
		-q 2>err &&
	cells_ok null 32 &&
	test -z "$(ls -A tm)" &&
	# its figures are the cost of clyde itself, and it says so
	grep -q "^clyde: warning: --engine null: no I/O reaches the kernel or the storage" err &&
	jq -e "any(.warnings[]; test(\"^--engine null: no I/O reaches\"))" \
		r.jsonl >/dev/null
'

# F3: the caveat in the matrix text too, not only on stderr: the tables
# kept on stdout (> result.txt) and the report's text of the record
test_expect_success 'null engine: the text and the report text say so, once' '
	"$CLYDE" matrix -d tm --engine null --bs 4k --threads 1 \
		--pattern random --mix 50 --size 2M --time 0.1 --ramp 0 \
		--json nt.jsonl >nt.txt 2>err &&
	"$CLYDE" report -f text nt.jsonl >ntr.txt &&
	for f in nt.txt ntr.txt; do
		test "$(grep -c "^warning: --engine null: no I/O reaches the kernel or the storage" $f)" = 1 &&
		tr -s "\n " "  " <$f |
		grep -q "the figures are clyde.s own cost per I/O, not the storage.s" &&
		test "$(LC_ALL=C.UTF-8 wc -L <$f)" -le 80 ||
		{ echo "$f"; cat $f; return 1; }
	done &&
	test -z "$(ls -A tm)"
'

test_expect_success 'null engine with --verify: stamps, checks no read' '
	rm -f r.jsonl &&
	"$CLYDE" matrix -d tm --engine null --verify --qd 8 $M \
		--json r.jsonl -q 2>err &&
	cells_ok null 8 &&
	jq -e "any(.warnings[]; test(\"null reads nothing\"))" r.jsonl \
		>/dev/null
'

# With the null engine an I/O itself costs nothing, so all a cell's time
# per I/O is clyde's: making 1 MiB of --verify units per write, checking
# them per read.  That work must stay outside each I/O's latency (issue
# 11): the median latency is a small part of the time per I/O.  The
# median, not the mean: on a loaded machine a thread preempted inside one
# of a few dozen I/Os (a sanitizer build makes few) lifts the mean past the
# bound (seen in a loaded SANITIZE run); had the stamping been inside, every
# I/O, so the median too, would hold it.
test_expect_success 'timing: --verify stamping and checking outside latency' '
	rm -f r.jsonl &&
	"$CLYDE" matrix -d tm --engine null --verify --qd 4 --bs 1m \
		--threads 1 --pattern random --mix 50 --size 16M --time 0.3 \
		--ramp 0 --json r.jsonl -q 2>err &&
	jq -e ".matrix.cells[0] | .status == \"ok\" and
	       .reads > 10 and .writes > 10 and
	       .read_latency_ms.p50 / 1000 < 0.1 / .iops and
	       .write_latency_ms.p50 / 1000 < 0.1 / .iops" r.jsonl >/dev/null ||
	{ jq -c ".matrix.cells[0] | del(.read_histogram, .write_histogram)" \
		r.jsonl; false; }
'

# sigint ENGINE: a signal in the middle of a long cell (its timed part
# begun, as its progress on a pty shows: t/lib-hold.sh); the cell is long
# (300 s) only so that a watcher starved for a minute on a loaded machine
# still signals it before its end: cut at once, it costs nothing
sigint () {
	rm -f s.jsonl
	hold_pty s matrix -d tm --engine "$1" --qd 8 --bs 4k --threads 2 \
		--pattern random --mix 50 --size 4M --time 300 --ramp 0 \
		--json s.jsonl &&
	hold_shows "\(1/1\): +[1-9][0-9]*%" &&
	hold_signal INT &&
	hold_pty_wait &&
	{ test "$hold_status" = 130 || { cat s.sig; false; }; } &&
	test_line_count = 1 s.jsonl &&
	jq -e ".exit_status == 130 and (.matrix.cells | length) == 1 and
	       .matrix.cells[0].status == \"skipped\" and
	       (.matrix.cells[0].reason | test(\"interrupted by signal 2\"))" s.jsonl \
		>/dev/null &&
	test -z "$(ls -A tm)"
}

test_expect_success URING,SCRIPT 'SIGINT mid-cell, io_uring: record, files removed' '
	sigint io_uring
'

test_expect_success SCRIPT 'SIGINT mid-cell, null engine: record, files removed' '
	sigint null
'
test_done
