#!/bin/bash
# Issue 24.4: one escaping rule for every message.  A hostile name (ESC
# starting a colour, U+202E reordering the line, a byte that is not UTF-8)
# reaches each command's errors and warnings, and clyde clean's lines, as
# \x1b, \u202E and \xff (lib/textesc.h): never raw, whatever prints it
# (clyde.c's dispatch, run's outputs, the leftover warning, clean).
. "$(dirname "$0")/lib.sh"

H=$(printf 'h\033[31m\342\200\256\377')
E='h\\x1b\[31m\\u202E\\xff'

# escaped FILE: FILE holds the hostile name escaped and none of its bytes
escaped () {
	grep -q "$E" "$1" &&
	! grep -q "$(printf '\033')" "$1" &&
	! grep -q "$(printf '\342\200\256')" "$1" &&
	! LC_ALL=C grep -q "$(printf '\377')" "$1"
}

test_expect_success 'an unknown command is named escaped' '
	test_expect_code 2 "$CLYDE" "x$H" 2>err &&
	test_line_count = 1 err &&
	grep -q "^clyde: .x$E. is not a clyde command; commands: run matrix " err &&
	escaped err
'

test_expect_success 'each command refuses a missing hostile path escaped' '
	for c in run info clean report matrix zones; do
		case $c in
		info|clean|report) set -- "$H" ;;
		*) set -- -d "$H" ;;
		esac &&
		test_expect_code 2 "$CLYDE" $c "$@" >out 2>err &&
		test_line_count = 1 err && escaped err ||
		{ echo "$c:" >&2; cat err >&2; return 1; }
	done
'

test_expect_success 'a --json that cannot be written is named escaped' '
	mkdir d &&
	ln -s /dev/full "o$H" &&
	test_expect_code 1 "$CLYDE" -d d -s 0 -n 1 -q --json "o$H" \
		>/dev/null 2>err &&
	grep -q "^clyde: --json: cannot write .o$E.: No space left on device$" err &&
	escaped err
'

# A leftover in the hostile -d, of a process of another boot (so gone),
# whose marker's start is hostile too.
test_expect_success 'the leftover warning and clean name it escaped' '
	mkdir -p "$H/clyde.fake00" &&
	printf "clyde run\\npid 1\\npstart 1\\nhost %s\\nboot not-this-one\\nstart 2026%s\\ncommand x\\n" \
		"$(hostname)" "$H" >"$H/clyde.fake00/.clyde-owner" &&
	"$CLYDE" -d "$H" -s 0 -n 1 -q >/dev/null 2>err &&
	grep -q "^clyde: warning: .$E/clyde.fake00. is left by clyde run (pid 1, started 2026$E), which no longer runs: clyde clean .$E. removes it$" err &&
	escaped err &&
	"$CLYDE" clean --dry-run "$H" >out &&
	grep -q "^would remove .$E/clyde.fake00. (clyde run, pid 1, started 2026$E)$" out &&
	escaped out &&
	"$CLYDE" clean "$H" >out &&
	grep -q "^removed .$E/clyde.fake00. " out &&
	escaped out &&
	"$CLYDE" clean "$H" >out &&
	grep -q "^nothing of clyde.s to remove in .$E.$" out &&
	escaped out
'

test_done
