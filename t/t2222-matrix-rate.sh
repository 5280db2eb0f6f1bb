#!/bin/bash
# clyde matrix's rate limiter with the null engine, whose maximum (clyde's
# own cost, millions of IO/s) is far above every target here: each curve
# point of a fixed --curve-max comes within 5 % of its target, also when
# the process is stopped now and then (time lost to a slow I/O or a thread
# kept off the CPU is made up, not given away); --curve none and
# --hit-area none switch off what --profile vdbench-hit sets, and the text
# names the hit area and hit % the cells used.
. "$(dirname "$0")/lib.sh"

test_have_prereq JQ || test_skip_all 'jq is needed to read the JSON record'

mkdir d || test_skip_all 'cannot make a directory'

# 2 threads, targets of at most 9,000 IO/s: a few % of one CPU
C="-d d --engine null --buffered --bs 4k --threads 2 --pattern random
	--mix 100 --size 1M --seed 3"

# within5 FILE PCTS: every point ok, its target pct % of --curve-max, its
# achieved IO/s within 5 % of the target
within5 () {
	jq -e --argjson pcts "$2" '
		.exit_status == 0 and .params.curve_max == 10000 and
		(.matrix.cells | length) == 1 and
		all(.matrix.cells[]; [.curve[].pct] == $pcts and
		    all(.curve[]; .status == "ok" and
			.target_iops == 100 * .pct and
			(.iops - .target_iops | fabs) <= 0.05 * .target_iops))
	' "$1" >/dev/null || {
		jq -c ".matrix.cells[].curve[] | {pct, target_iops, iops,
			elapsed}" "$1"
		false
	}
}

test_expect_success 'null engine: every point within 5 % of its target' '
	"$CLYDE" matrix $C --time 0.5 --ramp 0.05 --curve 10,30,50,70,90 \
		--curve-max 10000 --json r.jsonl >out.txt 2>err.txt &&
	within5 r.jsonl "[10, 30, 50, 70, 90]" &&
	grep -q "^Rate curve, Random 100% read (maximum [0-9,]* IO/s; targets % of 10,000 IO/s)$" out.txt
'

# The process stopped 30 ms in every 200 ms, as a slow I/O or a busy CPU
# would stall it: a limiter that lets a thread catch up by at most 1 ms
# loses about 15 % of every point; one that keeps its schedule makes the
# time up (only a stall over a point's end, at most 1.5 % of 2 s, is not).
test_expect_success 'a stalled process catches up: still within 5 %' '
	"$CLYDE" matrix $C --time 2 --ramp 0.05 --curve 10,50,90 \
		--curve-max 10000 --json s.jsonl >out.txt 2>err.txt &
	pid=$! &&
	test_cleanup "kill -CONT $pid 2>/dev/null; :" &&
	while kill -0 $pid 2>/dev/null; do
		sleep 0.17
		kill -STOP $pid 2>/dev/null
		sleep 0.03
		kill -CONT $pid 2>/dev/null
		:	# (it may have ended meanwhile)
	done &&
	wait $pid &&
	within5 s.jsonl "[10, 50, 90]"
'

test_expect_success '--curve none switches off the profile'"'"'s curve' '
	"$CLYDE" matrix --profile vdbench-hit --curve none -d d --engine null \
		--buffered --threads 1 --size 2M --time 0.05 --ramp 0 \
		--json n.jsonl >out.txt 2>err.txt &&
	jq -e ".params.curve == [] and .params.profile == \"vdbench-hit\" and
	       all(.matrix.cells[]; (.curve // []) == [] and
		   .hit_area == 1048576 and .hit_pct == 100)" n.jsonl \
		>/dev/null &&
	! grep -q "Rate curve" out.txt &&
	test_expect_code 2 "$CLYDE" matrix --curve-max 100 -d d \
		--engine null 2>err.txt &&
	grep -q "^clyde: --curve-max: needs --curve" err.txt
'

test_expect_success '--hit-area none, --hit-pct 0: the text says what ran' '
	"$CLYDE" matrix --profile vdbench-hit --curve none --hit-area none \
		-d d --engine null --buffered --threads 1 --size 2M \
		--time 0.05 --ramp 0 --json h.jsonl >out.txt 2>err.txt &&
	jq -e ".params.hit_area == 0 and
	       all(.matrix.cells[]; (.hit_area // 0) == 0 and
		   (.hits // 0) == 0)" h.jsonl >/dev/null &&
	grep -q "^Workload: --profile vdbench-hit, no hit area$" out.txt &&
	"$CLYDE" matrix --profile vdbench-hit --curve none --hit-pct 0 \
		-d d --engine null --buffered --threads 1 --size 2M \
		--time 0.05 --ramp 0 >out.txt 2>err.txt &&
	grep -q "^Workload: --profile vdbench-hit, hit area 1M, 0 % hits$" \
		out.txt &&
	test_expect_code 2 "$CLYDE" matrix --profile vdbench-hit \
		--hit-area none --hit-pct 50 -d d --engine null 2>err.txt &&
	grep -q "^clyde: --hit-pct: needs --hit-area" err.txt
'

test_done
