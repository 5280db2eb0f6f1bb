#!/bin/bash
# Every input that once crashed clyde (t/fixtures/fuzz/TARGET/*, found by
# the fuzzers or the sanitizers) goes through clyde report in every format
# and ends as a normal run does: exit 0, or 2 for input with nothing
# usable, never a crash or a sanitizer's abort.
. "$(dirname "$0")/lib.sh"

FIX=$TEST_DIR/fixtures/fuzz

n=0
for f in "$FIX"/*/*; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	test_expect_success "$(basename "$(dirname "$f")")/$(basename "$f"): every format, no crash" '
		for fmt in html csv bonnie text; do
			"$CLYDE" report -f $fmt "$f" >out 2>err; status=$?
			test $status -eq 0 -o $status -eq 2 ||
			{ echo "-f $fmt: exit $status"; cat err; return 1; }
		done
	'
done
[ $n -gt 0 ] || skip 'crash fixtures' 'none in t/fixtures/fuzz'

# make fuzz builds only with clang; this keeps the targets compiling
# against the report API of today for everyone's make test.
test_expect_success 'the fuzz targets compile (t/fuzz/fuzz-*.c)' '
	for f in "$SRC_DIR"/t/fuzz/fuzz-*.c; do
		${CC:-cc} -std=gnu11 -Wall -Werror -D_GNU_SOURCE -I"$SRC_DIR" \
			$(pkg-config --cflags json-c 2>/dev/null) \
			-fsyntax-only "$f" || return 1
	done
'

test_done
