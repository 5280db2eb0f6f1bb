#!/bin/bash
# clyde matrix end to end: small matrices on tmpfs and on xfs and ext4 on
# loop devices (direct I/O to their images).  Every cell present, MB/s =
# IO/s x bs / 2^20, IO/s = I/Os / time, read-only cells have no write
# latency and the reverse, the XDISK tables and the long CSV complete,
# nothing left behind; a file with --overwrite, raw-device refusals.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-loop.sh"

test_have_prereq JQ || test_skip_all 'jq is needed to read the JSON record'

# run_matrix DIR [args]: 2 bs x 2 threads x 2 patterns x 3 mixes = 24 cells
run_matrix () {
	local dir=$1
	shift
	rm -f r.jsonl r.csv
	"$CLYDE" matrix -d "$dir" --bs 4k,64k --threads 1,2 \
		--pattern random,seq --mix 100,0,50 --size 4M --time 0.1 \
		--ramp 0.02 --seed 3 -m t2202 --tag suite=t2202 \
		--json r.jsonl --csv r.csv "$@" >out.txt 2>err.txt
}

# check_cells FSTYPE NCELLS ENGINE: the record is complete and consistent
check_cells () {
	test_line_count = 1 r.jsonl &&
	jq -e --arg fs "$1" --argjson n "$2" --arg eng "$3" '
		.exit_status == 0 and .target.fstype == $fs and
		.tags.suite == "t2202" and .label == "t2202" and
		.params.seed == 3 and .matrix.engine == $eng and
		(.matrix.cells | length) == $n and
		([.matrix.cells[] | [.bs, .threads, .pattern, .read_pct]] |
			unique | length) == $n and
		all(.matrix.cells[];
			.status == "ok" and .iops > 0 and .elapsed > 0 and
			((.mbps - .iops * .bs / 1048576) | fabs) <=
				1e-9 * .mbps and
			(((.reads + .writes) / .elapsed - .iops) | fabs) <=
				1e-9 * .iops and
			(if .read_pct == 100 then
				.writes == 0 and .write_latency_ms == null and
				.reads > 0 and .read_latency_ms.mean > 0
			 elif .read_pct == 0 then
				.reads == 0 and .read_latency_ms == null and
				.writes > 0 and .write_latency_ms.mean > 0
			 else .reads > 0 and .writes > 0 end) and
			(.read_histogram == null or
				.read_histogram.count == .reads) and
			(.write_histogram == null or
				.write_histogram.count == .writes) and
			(.read_latency_ms == null or
				(.read_latency_ms.p50 <= .read_latency_ms.p99 and
				 .read_latency_ms.p99 <= .read_latency_ms.max)))
	' r.jsonl >/dev/null || {
		# say what was wrong in the failure's log
		cat err.txt
		jq -c ".matrix.cells[] | del(.read_histogram, .write_histogram)" \
			r.jsonl
		false
	}
}

# check_text NTABLES NCELLS: XDISK tables (a row per cell with a number in
# IO/s, marked ~ where a stall of a loaded machine left a cell too few
# I/Os; every line within 80 columns) and long CSV
check_text () {
	test "$(grep -c "block size — .* thread" out.txt)" = "$1" &&
	test "$(grep -c "^Pattern  *Profile  *IO/s  *MB/s  *Read (ms)  *Write (ms)$" out.txt)" = "$1" &&
	test "$(awk "/^Pattern +Profile +IO\/s/ { t = 1; next }
		/^\$/ { t = 0 }
		t && /^(Random|Sequential) / && \$(NF - 3) ~ /^[0-9][0-9,]*~?\$/ { n++ }
		END { print n + 0 }" out.txt)" = "$2" &&
	test "$(LC_ALL=C.UTF-8 wc -L <out.txt)" -le 80 &&
	grep -q "^4K block size — 2 threads\(, queue depth [0-9]*\)\?$" out.txt &&
	grep -q "^64K block size — 1 thread\(, queue depth [0-9]*\)\?$" out.txt &&
	test_line_count = $(($2 + 1)) r.csv &&
	head -1 r.csv | grep -q "^label,start,engine,direct,bs,threads" &&
	test "$(awk -F, "NR > 1 && \$10 == \"ok\"" r.csv | wc -l)" = "$2"
}

# the default engine: io_uring, or libaio with a note saying why not
default_engine () {
	jq -r "if any(.warnings[]?; test(\"io_uring unavailable\"))
	       then \"libaio\" else \"io_uring\" end" r.jsonl
}

test_expect_success TMPFS 'small matrix on tmpfs (default engine, O_DIRECT)' '
	mkdir tm && mount -t tmpfs -o size=256m tmpfs tm &&
	test_cleanup "umount \"$TRASH/tm\"" &&
	run_matrix tm &&
	check_cells tmpfs 24 "$(default_engine)" &&
	check_text 4 24 &&
	jq -e ".matrix.direct == true" r.jsonl >/dev/null &&
	test -z "$(ls -A tm)"
'

# F12: a long label and a long path are wrapped, broken inside when a
# word is longer than a line, in the run's text and in the report's
test_expect_success TMPFS 'a long label and path: the text within 80 columns' '
	L="$(printf "label-%.0s" $(seq 15))$(printf "\303\204\303\226")" &&
	D="tm/$(printf "p%.0s" $(seq 120))" &&
	mkdir "$D" &&
	"$CLYDE" matrix -d "$D" --bs 4k --threads 1 --pattern random \
		--mix 100 --size 1M --time 0.05 --ramp 0 -m "$L" \
		--json long.jsonl >long.txt &&
	rmdir "$D" &&
	"$CLYDE" report -f text long.jsonl >longr.txt &&
	for f in long.txt longr.txt; do
		test "$(LC_ALL=C.UTF-8 wc -L <$f)" -le 80 ||
		{ echo "$f"; cat $f; return 1; }
	done &&
	head -1 long.txt | grep -q "^clyde matrix, label label-label-" &&
	# nothing of the label and path lost: the lines joined give them back
	sed -n 1,4p long.txt | sed "s/^ *//" | tr -d "\n" >joined &&
	grep -qF "label $L (" joined &&
	grep -qF ")on $D" joined
'

test_expect_success TMPFS 'libaio, queue depth 4, shared file, buffered' '
	run_matrix tm --engine libaio --qd 4 --shared-file --buffered &&
	check_cells tmpfs 24 libaio &&
	jq -e ".matrix.direct == false and .params.shared_file == 1 and
	      .matrix.cells[0].qd == 4" r.jsonl >/dev/null &&
	grep -q "queue depth 4" out.txt &&
	test -z "$(ls -A tm)"
'

test_expect_success ROOT,LOOP,XFS 'small matrix on loop xfs (libaio)' '
	loop_fs xfs 320 mnt &&
	run_matrix "$mnt" --engine libaio --qd 8 --time 0.25 --ramp 0 &&
	check_cells xfs 24 libaio &&
	check_text 4 24 &&
	test -z "$(ls -A "$mnt")"
'

test_expect_success ROOT,LOOP,EXT4 'small matrix on loop ext4 (psync)' '
	loop_fs ext4 64 emnt &&
	run_matrix "$emnt" --engine psync --time 0.25 --ramp 0 &&
	check_cells ext4 24 psync &&
	test -z "$(ls -A "$emnt" | grep -v lost+found)"
'

test_expect_success TMPFS 'an existing file with --overwrite' '
	head -c 2097152 /dev/zero >tm/f &&
	"$CLYDE" matrix -d tm/f --overwrite --bs 4k --threads 1,2 \
		--pattern random --mix 100,0 --time 0.1 --ramp 0 \
		--json r.jsonl >out.txt 2>err.txt &&
	jq -e "(.matrix.cells | length) == 4 and .params.file_size == 2097152" \
		r.jsonl >/dev/null &&
	test "$(stat -c %s tm/f)" = 2097152 &&
	! cmp -s tm/f /dev/zero 2>/dev/null &&
	test "$(tr -d "\\0" <tm/f | head -c 1 | wc -c)" = 1 &&
	rm tm/f
'

test_expect_success TMPFS '-q: the tables on stderr, stdout empty, param quiet' '
	jq -e ".params.quiet == 0" r.jsonl >/dev/null &&
	rm -f r.jsonl &&
	"$CLYDE" matrix -d tm -q --json r.jsonl --bs 4k --threads 1 \
		--pattern random,seq --mix 100 --size 2M --time 0.05 \
		--ramp 0 >out.txt 2>err.txt &&
	test_must_fail test -s out.txt &&
	grep -q "^4K block size — 1 thread$" err.txt &&
	test "$(grep -c "^Pattern  *Profile  *IO/s " err.txt)" = 1 &&
	grep -q "^Random  *100% read  *[0-9,]* " err.txt &&
	grep -q "^Sequential 100% read  *[0-9,]* " err.txt &&
	jq -e ".params.quiet == 1 and (.matrix.cells | length) == 2" \
		r.jsonl >/dev/null &&
	test -z "$(ls -A tm)"
'

test_expect_success ROOT,LOOP,XFS 'raw device: mounted refused even with --force' '
	test_expect_code 2 "$CLYDE" matrix -d "$mnt_dev" --raw-device --force \
		--bs 4k --threads 1 --pattern random --mix 100 --time 0.1 \
		2>err &&
	test_line_count = 1 err && grep -q "exclusively" err
'

test_expect_success ROOT,LOOP,XFS 'raw device: a filesystem signature needs --force' '
	truncate -s 320M raw.img &&
	rdev=$(losetup --direct-io=on -f --show raw.img) &&
	test_cleanup "losetup -d $rdev" &&
	mkfs.xfs -q "$rdev" &&
	test_expect_code 2 "$CLYDE" matrix -d "$rdev" --raw-device --bs 4k \
		--threads 1 --pattern random --mix 100 --time 0.1 2>err &&
	test_line_count = 1 err && grep -q xfs err &&
	test_expect_code 2 "$CLYDE" matrix -d "$rdev" --bs 4k 2>err &&
	grep -q -- --raw-device err &&
	"$CLYDE" matrix -d "$rdev" --raw-device --force --size 8M --bs 4k \
		--threads 1,2 --pattern random --mix 100,50 --time 0.1 \
		--ramp 0 --json r.jsonl >out.txt &&
	jq -e "(.matrix.cells | length) == 4 and
	       all(.matrix.cells[]; .status == \"ok\")" r.jsonl >/dev/null &&
	! blkid -p "$rdev" >/dev/null 2>&1
'
# The two -d must be on unlike storage: one disk-backed (DISKDIR: where
# the scratch directory is a tmpfs, as /tmp on many systems, elsewhere).
test_expect_success TMPFS,DISKDIR 'a matrix warning shows a hostile directory name escaped (lib/diag)' '
	esc=$(printf "\033") &&
	test_disk_dir dd &&
	mkdir "$dd/disk${esc}[31m" "tm${esc}[31m" &&
	mount -t tmpfs -o size=64m clyde-t2202 "tm${esc}[31m" &&
	test_cleanup "umount \"\$TRASH/tm${esc}[31m\"" &&
	"$CLYDE" matrix -d "$dd/disk${esc}[31m" -d "tm${esc}[31m" --buffered \
		--size 1M --bs 4k --threads 2 --pattern seq --mix 100 \
		--time 0.1 --ramp 0 >out 2>err &&
	grep -q "^clyde: warning: -d: the directories are on different kinds" err &&
	grep -qF "tm\\x1b[31m" err &&
	test_must_fail grep -qF "$esc" err
'
test_done
