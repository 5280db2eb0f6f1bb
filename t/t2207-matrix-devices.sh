#!/bin/bash
# clyde matrix on loop devices: seed 001's workload (--profile vdbench-hit)
# over three raw devices in one run, threads round robin, a row per device,
# every device's stack in the record and the curve table; and a btrfs
# raid10 that runs out of space mid-run (copy-on-write): the cell fails
# with ENOSPC, the reads after it still run, the writes are not run, each
# with its reason, and nothing is left behind.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-loop.sh"

test_have_prereq JQ || test_skip_all 'jq is needed to read the JSON record'

test_expect_success ROOT,LOOP 'vdbench-hit over three raw devices: one aggregate, a row per device' '
	devs= &&
	for i in 1 2 3; do
		truncate -s 24M raw$i.img &&
		_loop_attach "$TRASH/raw$i.img" dev || return 1
		devs="$devs -d $dev"
	done &&
	"$CLYDE" matrix $devs --raw-device --profile vdbench-hit --threads 3 \
		--time 0.2 --ramp 0.02 --json v.jsonl >v.txt 2>err &&
	jq -e ".params.profile == \"vdbench-hit\" and .params.ntargets == 3 and
	       (.targets | length) == 3 and
	       all(.targets[]; .source == .path and
		   any(.stack[]; .kind == \"loop\")) and
	       .matrix.prefill.bs == 262144 and
	       .matrix.prefill.bytes == 3 * 24 * 1048576 and
	       (.matrix.cells | length) == 1 and
	       (.matrix.cells[0] | .status == \"ok\" and .hits == .reads and
		(.targets | length) == 3 and
		([.targets[] | .reads] | add) == .reads and
		all(.targets[]; .reads > 0) and
		([.curve[].pct] == [10, 50, 70, 80, 90, 100]))" \
		v.jsonl >/dev/null &&
	sed -n "/^Rate curve, Random 100% read (maximum [0-9,]* IO\/s)$/,/^$/p" \
		v.txt >curve &&
	test "$(grep -c "^ *[0-9][0-9]*  *[0-9,][0-9,]*  *[0-9,][0-9,]*~\{0,1\} " curve)" = 6 &&
	test "$(grep -c "^Random  *100% read  *[123]  *[0-9,]* " v.txt)" = 3 &&
	test "$(LC_ALL=C.UTF-8 wc -L <v.txt)" -le 80
'

test_expect_success ROOT,LOOP,BTRFS 'btrfs raid10 out of space mid-run: ENOSPC, reads go on, writes not run' '
	btrfs_raid_fs raid10 4 128 bt &&
	free=$(df -B1M --output=avail "$bt" | tail -1) &&
	size=$(( (free - 2) / 2 )) &&
	test_expect_code 1 "$CLYDE" matrix -d "$bt" --bs 1m --threads 2 \
		--pattern seq,random --mix 0,100,50 --size ${size}M --time 1 \
		--ramp 0 --json e.jsonl >e.txt 2>e.err &&
	jq -e "[.matrix.cells[] | select(.status == \"failed\")] as \$f |
	       (\$f | length) == 1 and
	       (\$f[0].reason | endswith(\"No space left on device\")) and
	       (.matrix.cells | length) == 6 and
	       ([.matrix.cells[] | .status] | index(\"failed\")) as \$at |
	       all(.matrix.cells[\$at + 1:][];
		   if .read_pct == 100 then .status == \"ok\"
		   else .status == \"not_run\" and
			(.reason | test(\"^not run: cell [0-9]+ ran out of space and this cell writes$\"))
		   end)" e.jsonl >/dev/null &&
	grep -q "No space left on device" e.err &&
	grep -q "^\(Sequential\|Random\) [0-9/]*: not run: cell [0-9]* ran out of space and this cell writes$" e.txt &&
	# the reason is wrapped at 80 columns, its lines indented by 4
	awk "NR > 1 && /^    [^ ]/ { sub(/^ +/, \" \"); printf \"%s\", \$0; next }
	     NR > 1 { print \"\" } { printf \"%s\", \$0 } END { print \"\" }" \
		e.txt >e.joined &&
	grep -q ": failed: thread [0-9]: I/O failed at offset [0-9]* of .*: No space left on device$" e.joined &&
	test -z "$(ls -A "$bt")"
'

test_done
