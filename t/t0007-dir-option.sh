#!/bin/bash
# Issue 25 section 3: -d is one option row (COMMON_DIRS, an OPT_PATHS row
# of lib/optable) in run, matrix and info, with one set of rules: an empty
# path, a path of PATH_MAX bytes or more, a path given twice and more than
# 256 paths are bad input (exit 2, one line, the same words in every
# command, nothing written); 256 paths and a 4,095-byte path pass the
# option parser (a later bad option is what is refused).
. "$(dirname "$0")/lib.sh"

# bad_dir CMD WHAT args...: exit 2, one line "-d: WHAT", no output file
bad_dir () {
	local cmd=$1 what=$2 json=
	shift 2
	test "$cmd" = info || json="--json $cmd.out"
	test_expect_code 2 "$CLYDE" $cmd "$@" $json >out 2>err &&
	test_line_count = 1 err && test_line_count = 0 out &&
	grep -q -e "^clyde: \(info: \)\?-d: $what" err &&
	test_path_is_missing "$cmd.out"
}

# paths N LEN: $dirs := N distinct -d arguments; $long := a path of LEN
# bytes (it need not exist: the parser refuses before anything is opened)
paths () {
	local i
	dirs=()
	for i in $(seq "$1"); do
		dirs+=(-d "$TRASH/d$i")
	done
	long=/$(printf "%0$(($2 - 1))d" 0 | tr 0 x)
}

test_expect_success 'an empty -d: the same words in run, matrix and info' '
	for cmd in run matrix info; do
		bad_dir $cmd "empty path\( (see\|$\)" -d "" || return 1
	done
'

test_expect_success 'a -d given twice: refused alike by run, matrix and info' '
	for cmd in run matrix info; do
		bad_dir $cmd ".\./t. is given twice\( (see\|$\)" -d . -d ./t -d ./t ||
		return 1
	done
'

test_expect_success 'a 257th -d: refused alike; 256 pass the parser' '
	paths 257 1 &&
	for cmd in run matrix info; do
		bad_dir $cmd "at most 256 paths\( (see\|$\)" "${dirs[@]}" || return 1
	done &&
	paths 256 1 &&
	test_expect_code 2 "$CLYDE" run "${dirs[@]}" -s 12x 2>err &&
	grep -q "^clyde: -s: .12x. is not a size" err &&
	test_expect_code 2 "$CLYDE" matrix "${dirs[@]}" --bs 1x 2>err &&
	grep -q "^clyde: --bs: " err &&
	test_expect_code 2 "$CLYDE" info "${dirs[@]}" -x 2>err &&
	grep -q "option -x is unknown" err
'

test_expect_success 'a -d of PATH_MAX bytes: refused alike; 4,095 bytes pass' '
	paths 0 4096 &&
	for cmd in run matrix info; do
		bad_dir $cmd "a path of 4096 bytes is too long" -d "$long" ||
		return 1
	done &&
	paths 0 4095 &&
	test_expect_code 2 "$CLYDE" run -d "$long" -s 12x 2>err &&
	grep -q "^clyde: -s: " err &&
	test_expect_code 2 "$CLYDE" matrix -d "$long" --bs 1x 2>err &&
	grep -q "^clyde: --bs: " err
'

test_expect_success JQ 'the record names the first -d as directory' '
	mkdir a b &&
	"$CLYDE" run -d a -d b -s 0 -n 0 -q --json r.jsonl >/dev/null &&
	jq -e ".params.directory == \"a\"" r.jsonl
'

test_done
