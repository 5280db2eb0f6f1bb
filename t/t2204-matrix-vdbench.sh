#!/bin/bash
# clyde matrix, vdbench's extras on tmpfs: --verify (no false alarm with
# writes and reads in flight together; a byte flipped by another process
# between two runs is caught, named and fails the run), the cache-hit area
# and the rate curve (every point present, none above its target rate).
. "$(dirname "$0")/lib.sh"

test_have_prereq JQ || test_skip_all 'jq is needed to read the JSON record'
test_have_prereq TMPFS || test_skip_all 'needs root and tmpfs'

mkdir tm && mount -t tmpfs -o size=128m tmpfs tm &&
test_cleanup "umount \"$TRASH/tm\"" || test_skip_all 'cannot mount tmpfs'

# small cells: 0.15 s each, no ramp
M="--time 0.15 --ramp 0 --seed 11"

test_expect_success '--verify: writes and reads in flight together pass' '
	"$CLYDE" matrix -d tm --verify --engine libaio --qd 8 --shared-file \
		--bs 4k,12k --threads 1,3 --pattern random,seq --mix 0,50 \
		--size 3M $M --json v.jsonl >out.txt 2>err.txt &&
	jq -e ".exit_status == 0 and .matrix.verify == true and
	       .params.verify_unit == 4096 and
	       (.matrix.cells | length) == 16 and
	       all(.matrix.cells[]; .status == \"ok\" and .writes > 0)" \
		v.jsonl >/dev/null &&
	test -z "$(ls -A tm)"
'

# flip_byte FILE OFFSET: invert one bit, as another process would
flip_byte () {
	perl -e 'open(my $f, "+<", $ARGV[0]) or die "$!";
		sysseek($f, $ARGV[1], 0); sysread($f, my $b, 1) == 1 or die;
		sysseek($f, $ARGV[1], 0); syswrite($f, chr(ord($b) ^ 4));' \
		"$1" "$2"
}

test_expect_success '--verify catches a byte flipped between two runs' '
	head -c 2097152 /dev/zero >tm/f &&
	"$CLYDE" matrix -d tm/f --overwrite --verify --bs 4k,8k \
		--threads 1,2 --pattern random --mix 0,50 $M >out.txt &&
	"$CLYDE" matrix -d tm/f --overwrite --verify --no-prefill --bs 4k,8k \
		--threads 1 --pattern seq --mix 100 $M --json ok.jsonl \
		>out.txt &&
	jq -e ".exit_status == 0 and .matrix.error == null" ok.jsonl \
		>/dev/null &&
	cp tm/f before &&
	flip_byte tm/f 1234567 &&
	! cmp -s before tm/f &&
	test_expect_code 1 "$CLYDE" matrix -d tm/f --overwrite --verify \
		--no-prefill --bs 4k,8k --threads 1 --pattern seq --mix 100 \
		$M --json bad.jsonl >out.txt 2>err.txt &&
	grep -q "verify: .tm/f. offset 1232896: checksum mismatch" err.txt &&
	grep -q "^failed: verify: .tm/f. offset 1232896" out.txt &&
	jq -e ".exit_status == 1 and
	       (.matrix.error | test(\"offset 1232896: checksum mismatch: \" +
		\"expected offset 1232896 of file 0, found offset 1232896 \" +
		\"generation [0-9]+ of file 0\"))" bad.jsonl >/dev/null &&
	rm tm/f
'

test_expect_success '--verify without the header: an unverified file' '
	head -c 1048576 /dev/zero >tm/z &&
	test_expect_code 1 "$CLYDE" matrix -d tm/z --overwrite --verify \
		--no-prefill --bs 4k --threads 1 --pattern seq --mix 100 $M \
		>out.txt 2>err.txt &&
	grep -q "offset 0: no clyde verify header" err.txt &&
	rm tm/z
'

test_expect_success 'cache-hit area: every hit I/O lands in it' '
	"$CLYDE" matrix -d tm --bs 4k --threads 1,2 --pattern random,seq \
		--mix 100,50 --size 2M --hit-area 64k --hit-pct 100 $M \
		--json h.jsonl --csv h.csv >out.txt &&
	"$CLYDE" matrix -d tm --bs 4k --threads 1 --pattern random \
		--mix 100 --size 2M --hit-area 64k --hit-pct 50 $M \
		--json h.jsonl >out.txt &&
	jq -se ".[0].params.hit_area == 65536 and .[0].params.hit_pct == 100
		and all(.[0].matrix.cells[]; .hit_area == 65536 and
			.hit_pct == 100 and .hits == .reads + .writes and
			.hits > 0)
		and (.[1].matrix.cells[0] | .hit_pct == 50 and
			(.reads < 64 or (.hits > 0 and .hits < .reads)))" \
		h.jsonl >/dev/null &&
	head -1 h.csv | grep -q ",hit_area,hit_pct,hits$" &&
	test "$(awk -F, "NR > 1 && \$(NF-2) == 65536 && \$(NF-1) == 100" \
		h.csv | wc -l)" = 8
'

test_expect_success 'rate curve: every point present, none above its target' '
	"$CLYDE" matrix -d tm --bs 4k --threads 1,2 --pattern random \
		--mix 100,0 --size 2M --time 0.2 --ramp 0.02 \
		--curve 10,50,100 --json c.jsonl >out.txt &&
	jq -e ".params.curve == [10, 50, 100] and
	       all(.matrix.cells[]; . as \$c | .status == \"ok\" and
		   ([.curve[].pct] == [10, 50, 100]) and
		   all(.curve[]; .status == \"ok\" and .elapsed >= 0.2 and
		       ((.target_iops - \$c.iops * .pct / 100) | fabs) <=
			1e-9 * \$c.iops and
		       .iops <= .target_iops * 1.05 +
			\$c.threads * (2 * \$c.qd + 2) / .elapsed and
		       .iops <= \$c.iops * 1.05 +
			\$c.threads * (2 * \$c.qd + 2) / .elapsed and
		       (.reads + .writes) == (.read_histogram.count // 0) +
			(.write_histogram.count // 0)))" \
		c.jsonl >/dev/null &&
	test "$(grep -c "^Rate curve, Random 100% \(read\|write\) (maximum [0-9,]* IO/s)$" out.txt)" = 4 &&
	# a point of too few I/Os (a stall of a loaded machine) is marked ~
	for p in 10 50 100; do
		test "$(grep -c "^ *$p  *[0-9,][0-9,]*  *[0-9,][0-9,]*~\?  *\([0-9.][0-9.]*\|—\)  *\([0-9.][0-9.]*\|—\)  *\([0-9.][0-9.]*\|—\)  *\([0-9.][0-9.]*\|—\)\(  not reached\)\?$" out.txt)" = 4 ||
			return 1
	done
'
test_done
