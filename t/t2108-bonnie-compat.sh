#!/bin/bash
# bonnie++ 1.03's command line as seed 002 used it (issue 14): -u
# USER[:GROUP] runs as that user with the outputs where the invoking user
# asked for them, and -b syncs what bonnie++ syncs (each file the create
# tests make, each delete, each seek update), not each block write;
# --fsync-writes is the documented meaning.
. "$(dirname "$0")/lib.sh"

test_have_prereq JQ || test_skip_all 'jq is needed to read the JSON record'
# -u nobody must reach the scratch directory (mktemp -d makes it 0700)
chmod 755 "$TRASH"
test_lazy_prereq STRACE 'command -v strace'
test_lazy_prereq NOBODY 'getent passwd nobody && getent group nogroup'

test_expect_success ROOT,NOBODY '-u nobody:nogroup: outputs land where asked, readable, owned by the invoker' '
	mkdir work out && chmod 1777 work && chmod 755 out &&
	"$CLYDE" -u nobody:nogroup -d work -s 2M -n 1:4k:1k:2 -f -m seed002 \
		--json out/r.jsonl --csv out/r.csv -q >stdout.csv 2>err &&
	test_line_count = 1 out/r.jsonl && test_line_count = 1 out/r.csv &&
	test "$(stat -c %U:%G out/r.jsonl)" = "$(id -un):$(id -gn)" &&
	runuser -u nobody -- cat out/r.jsonl out/r.csv >/dev/null &&
	jq -e ".params.user == \"nobody\" and .params.group == \"nogroup\" and
		.exit_status == 0 and
		all(.results[]; .status == \"ok\" or .status == \"not_run\")" \
		out/r.jsonl &&
	grep -q "^1.98,.*,seed002," out/r.csv &&
	test -z "$(ls -A work)"
'

test_expect_success ROOT,NOBODY '-u nobody: a directory nobody cannot write is refused first' '
	mkdir rootonly && chmod 755 rootonly &&
	test_expect_code 2 "$CLYDE" -u nobody -d rootonly -s 1M -n 0 \
		--json out/no.jsonl 2>err &&
	test_line_count = 1 err && grep -q "^clyde: -d: cannot write in" err &&
	test_path_is_missing out/no.jsonl
'

# fsyncs COUNTFILE clyde-args...: run clyde under strace, fsync calls
fsyncs () {
	local out=$1
	shift
	mkdir -p f && rm -rf f/* &&
	# LeakSanitizer cannot run under ptrace (make test SANITIZE=1)
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	strace -f -qq -e trace=fsync -o trace "$CLYDE" -d f -q "$@" \
		>/dev/null 2>err &&
	{ grep -c "fsync(" trace || true; } >"$out"
}

test_expect_success STRACE '-b fsyncs each created file and its directory, as bonnie++' '
	fsyncs plain -s 0 -n 1 && fsyncs b -b -s 0 -n 1 &&
	echo "without -b: $(cat plain), with -b: $(cat b)" &&
	test "$(cat plain)" -lt 100 &&
	# two creates x 1024 files x (file + directory), two deletes x 1024
	test "$(cat b)" -ge 6144
'

test_expect_success STRACE '-b leaves block writes alone; --fsync-writes syncs every one' '
	# 8 MiB in 8 KiB chunks: 1024 block writes, 1024 rewrites; 10 seeks
	fsyncs plain -s 8M:8k:10:1 -f -n 0 && fsyncs b -b -s 8M:8k:10:1 -f -n 0 &&
	fsyncs each --fsync-writes -s 8M:8k:10:1 -f -n 0 &&
	echo "block phases: $(cat plain) plain, $(cat b) with -b, $(cat each) with --fsync-writes" &&
	test "$(cat b)" -lt "$(($(cat plain) + 10))" &&
	test "$(cat each)" -ge 2048
'

test_expect_success '-b and --fsync-writes are both in the record' '
	mkdir -p p && "$CLYDE" -d p -b -s 0 -n 1:0:0:1 -q --json p.jsonl >/dev/null &&
	jq -e ".params.sync_writes == 1 and .params.fsync_writes == 0" p.jsonl &&
	"$CLYDE" -d p --fsync-writes -s 1M -f -n 0 -q --json q.jsonl >/dev/null &&
	jq -e ".params.sync_writes == 0 and .params.fsync_writes == 1" q.jsonl
'
test_done
