#!/bin/bash
# scripts/qualify: clyde over labelled targets into one results directory,
# resumable.
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-hold.sh"	# FREEZE

Q=$SRC_DIR/scripts/qualify
MK=$SRC_DIR/scripts/mkloopfs
export TMPDIR=$TRASH

test_expect_success 'bad input: one line, exit 2, nothing made' '
	test_expect_code 2 "$Q" -o res nolabel 2>err && test_line_count = 1 err &&
	grep -q "expected LABEL:PATH" err &&
	test_expect_code 2 "$Q" -o res -x 0 "a:$TRASH" 2>err && grep -q "^qualify: -x:" err &&
	test_expect_code 2 "$Q" -o res "a:$TRASH/nope" 2>err && grep -q "not a directory" err &&
	test_expect_code 2 "$Q" -o res "a:$TRASH:raid" 2>err && grep -q "not key=value" err &&
	test_expect_code 2 "$Q" -o res "a:$TRASH" "a:$TRASH" 2>err && grep -q "given twice" err &&
	test_expect_code 2 "$Q" -o res "a:vm:ntfs" 2>err && grep -q "vmfs cannot make" err &&
	test_expect_code 2 "$Q" -o res --bogus "a:$TRASH" 2>err && grep -q "unknown option" err &&
	test_expect_code 2 "$Q" -o res -T missing.txt 2>err && grep -q "cannot read" err &&
	test_path_is_missing res
'

test_expect_success LOOP,EXT4,XFS 'two loop layouts give records and a report naming both' '
	test_cleanup "\"$MK\" --remove \"$TRASH/a\" >/dev/null 2>&1 || true" &&
	test_cleanup "\"$MK\" --remove \"$TRASH/b\" >/dev/null 2>&1 || true" &&
	"$MK" -s 256M -d "$TRASH/img" ext4 "$TRASH/a" >/dev/null &&
	"$MK" -s 300M -d "$TRASH/img" xfs "$TRASH/b" >/dev/null &&
	printf "# targets\n\nlay-xfs:%s:raid=0,disks=1\n" "$TRASH/b" >targets &&
	"$Q" -q -o res -x 2 -s 16M -n 1 "lay-ext4:$TRASH/a:controller=loop raid=none" \
		-T targets &&
	test_line_count = 4 res/qualify.state &&
	test_line_count = 4 res/records.jsonl &&
	test "$(grep -c "\"label\":\"lay-ext4\"" res/records.jsonl)" = 2 &&
	test "$(grep -c "\"label\":\"lay-xfs\"" res/records.jsonl)" = 2 &&
	grep -q "\"controller\":\"loop\"" res/records.jsonl &&
	grep -q lay-ext4 res/report.html && grep -q lay-xfs res/report.html &&
	"$CLYDE" report -f text res/records.jsonl >text &&
	grep -q "^4 runs in 2 configurations" text &&
	test -z "$(ls -A "$TRASH/a" "$TRASH/b" | grep -v "^/\|^\$\|lost+found")"
'

# second_held PID: qualify (PID) has finished its first run and waits for
# the second, whose clyde is blocked (state D) on the frozen filesystem: a
# signal now finds it there however slow or fast the machine (up to 10
# minutes for the first run: the machine may be loaded)
second_held () {
	local i c
	for i in $(seq 6000); do
		kill -0 "$1" 2>/dev/null ||
			{ echo "qualify ended early:" >&2; cat err >&2; return 1; }
		if test -s res2/qualify.state && c=$(pgrep -x -P "$1" clyde); then
			case $(sed "s/.*) //" "/proc/$c/stat" 2>/dev/null) in
			D*) return 0 ;;
			esac
		fi
		sleep 0.1
	done
	echo "the second run was not held in 10 minutes" >&2
	return 1
}

# end_qualify PID: at exit, a qualify still there (a failed test) ended,
# its clyde thawed, before the filesystems are removed
end_qualify () {
	local i
	kill -TERM "$1" 2>/dev/null || return 0
	fsfreeze -u "$TRASH/b" 2>/dev/null
	for i in $(seq 600); do
		kill -0 "$1" 2>/dev/null || return 0
		sleep 0.1
	done
}

test_expect_success LOOP,EXT4,XFS,FREEZE 'an interrupted qualify resumes without rerunning what finished' '
	fsfreeze -f "$TRASH/b" &&
	test_cleanup "fsfreeze -u \"$TRASH/b\" 2>/dev/null; true" &&
	{ "$Q" -o res2 -s 24M -n 1 "first:$TRASH/a" "second:$TRASH/b" \
		>out 2>err & pid=$!; } &&
	test_cleanup "end_qualify $pid" &&
	second_held $pid &&
	kill -TERM $pid && fsfreeze -u "$TRASH/b" &&
	{ wait $pid; test $? = 143; } &&
	grep -q "interrupted" err &&
	test_line_count = 1 res2/qualify.state &&
	grep -q "^first suite 1 " res2/qualify.state &&
	test_path_is_file res2/records/first.suite.1.jsonl &&
	test_path_is_missing res2/records/second.suite.1.jsonl &&
	test -z "$(ls -d res2/.partial* 2>/dev/null)" &&
	cp res2/records/first.suite.1.jsonl first.before &&
	"$Q" -o res2 -s 24M -n 1 "first:$TRASH/a" "second:$TRASH/b" 2>err2 &&
	grep -q "first: suite 1/1 .*done before, not run again" err2 &&
	! grep -q "first: suite 1/1 on [^:]*\$" err2 &&
	test_cmp first.before res2/records/first.suite.1.jsonl &&
	test_line_count = 2 res2/qualify.state &&
	test_line_count = 2 res2/records.jsonl &&
	grep -q second res2/report.html && grep -q first res2/report.html &&
	test_expect_code 2 "$Q" -o res2 "first:$TRASH/b" 2>err3 &&
	grep -q "was .*not" err3
'
test_done
