#!/bin/bash
# Issue 24.2: a -d whose path is 4,085 characters long, so that the paths
# of clyde's own files under it pass PATH_MAX (4096).  clyde makes and
# removes them through the directory's descriptor, never by path: run,
# matrix and zones alike work there, write a record with results and
# leave nothing (run exited 1 with a record without results).  A -d
# longer than PATH_MAX is bad input for all three: exit 2, one line,
# nothing written.
. "$(dirname "$0")/lib.sh"

# long_dir LEN: make a directory whose absolute path is LEN characters
# long, in components of 200; its path in $long
long_dir () {
	local part
	part=$(printf "%0200d" 0 | tr 0 d)
	long=$PWD
	while [ $((${#long} + 201)) -lt "$1" ]; do
		long=$long/$part
	done
	long=$long/$(printf "%0$(($1 - ${#long} - 1))d" 0 | tr 0 e)
	test "${#long}" -eq "$1" && mkdir -p "$long"
}

test_expect_success JQ 'run in a 4,085-character -d: a record with results, nothing left' '
	long_dir 4085 &&
	"$CLYDE" -d "$long" -s 8M -n 1:0:0:4 -q --json r.jsonl >/dev/null \
		2>err &&
	jq -e "[.results[] | select(.status == \"ok\")] | length >= 10" \
		r.jsonl &&
	test -z "$(ls -A "$long")"
'

test_expect_success JQ 'matrix in a 4,085-character -d: a record with results, nothing left' '
	long_dir 4085 &&
	"$CLYDE" matrix -d "$long" --buffered --size 4M --bs 4k --threads 1 \
		--pattern seq --mix 100 --time 0.1 --ramp 0 -q \
		--json m.jsonl 2>err &&
	jq -e ".matrix.cells[0].status == \"ok\"" m.jsonl &&
	test -z "$(ls -A "$long")"
'

test_expect_success JQ 'zones in a 4,085-character -d: a record with results, nothing left' '
	long_dir 4085 &&
	"$CLYDE" zones -d "$long" --size 4M --engine psync -q \
		--json z.jsonl 2>err &&
	jq -e ".zones.sweeps | length == 1" z.jsonl &&
	test -z "$(ls -A "$long")"
'

test_expect_success 'a -d longer than PATH_MAX: exit 2, one line, nothing written' '
	too=$(printf "%04200d" 0 | tr 0 d) &&
	for cmd in run matrix zones; do
		test_expect_code 2 "$CLYDE" $cmd -d "$PWD/$too" -q \
			--json "$cmd.out" 2>err >/dev/null &&
		test_line_count = 1 err &&
		test_path_is_missing "$cmd.out" || return 1
	done
'

test_done
