#!/bin/bash
# The C tests' skips are skips under prove, never failures: cmocka 1.1.5
# (Debian 12) prints a skipped test as "not ok N # SKIP", and only
# t/cmocka-tap.h's tap_run_group_tests() turns that into "ok N # SKIP".
. "$(dirname "$0")/lib.sh"

test_lazy_prereq CMOCKA 'command -v "${CC:-cc}" && command -v pkg-config &&
	pkg-config --exists cmocka'
# root, setpriv, and a tree that nobody can read (a clone under a private
# directory cannot be)
test_lazy_prereq NOBODY 'command -v setpriv && [ "$(id -u)" -eq 0 ] &&
	id nobody && setpriv --reuid=nobody --regid=nogroup --clear-groups \
	test -x "$SRC_DIR/t/t1004-target.t"'

# The C tests that can skip: those calling skip(), SKIP() or skip_because().
can_skip () {
	grep -lE '(^|[^_a-z])(skip|SKIP|skip_because) *\(' \
		"$SRC_DIR"/t/t[0-9][0-9][0-9][0-9]-*.c
}

test_expect_success 'every C test that can skip runs through tap_run_group_tests' '
	can_skip >skippers && test -s skippers &&
	bad= &&
	while read -r f; do
		grep -qE "^#include \"(t/)?cmocka-tap.h\"" "$f" &&
		grep -q "tap_run_group_tests(" "$f" &&
		! grep -qE "(^|[^_a-z])_?cmocka_run_group_tests *\(" "$f" ||
		bad="$bad $(basename "$f")"
	done <skippers &&
	{ test -z "$bad" || { echo "not through t/cmocka-tap.h:$bad"; false; }; }
'

test_expect_success 'every C test includes t/cmocka-tap.h and runs through it' '
	bad= &&
	for f in "$SRC_DIR"/t/t[0-9][0-9][0-9][0-9]-*.c; do
		grep -q "tap_run_group_tests(" "$f" || bad="$bad $(basename "$f")"
	done &&
	{ test -z "$bad" || { echo "not through t/cmocka-tap.h:$bad"; false; }; }
'

# The header itself, with the Debian cmocka: a group with a skip passes prove.
test_expect_success CMOCKA 'a cmocka skip through t/cmocka-tap.h passes prove' '
	cat >skipper.c <<-\EOF &&
	#include <setjmp.h>
	#include <stdarg.h>
	#include <stddef.h>
	#include <stdint.h>
	#include <cmocka.h>
	#include "t/cmocka-tap.h"
	static void passes(void **state) { (void)state; assert_true(1); }
	static void skips(void **state) { (void)state; SKIP("no %s here", "disk"); }
	int main(void)
	{
		const struct CMUnitTest tests[] = {
			cmocka_unit_test(passes), cmocka_unit_test(skips),
		};
		return tap_run_group_tests(tests);
	}
	EOF
	${CC:-cc} -I"$SRC_DIR" -o skipper skipper.c -lcmocka &&
	./skipper >out; cat out &&
	grep -q "^ok 2 # SKIP" out && grep -q "^# skip: no disk here" out &&
	! grep -q "^not ok" out &&
	prove --exec "" ./skipper >prove.out 2>&1; cat prove.out &&
	grep -q "^Result: PASS" prove.out
'

# Run as nobody, the tests that need root skip instead of failing.
test_expect_success NOBODY 'as nobody, the C tests that can skip skip and never fail' '
	chmod 755 "$TRASH" && mkdir -m 1777 cwd &&
	can_skip >skippers && bad= && skipped=0 && ran=0 &&
	while read -r f; do
		bin=${f%.c}.t &&
		(cd cwd && setpriv --reuid=nobody --regid=nogroup \
			--clear-groups "$bin" </dev/null) >out 2>&1
		rc=$?
		ran=$((ran + 1))
		n=$(grep -c "^ok [0-9]* # SKIP" out)
		skipped=$((skipped + n))
		if [ $rc -ne 0 ] || grep -q "^not ok" out; then
			bad="$bad $(basename "$bin")"; cat out
		fi
	done <skippers
	echo "ran $ran as nobody, $skipped skips" &&
	test "$ran" -ge 5 && test "$skipped" -ge 1 &&
	{ test -z "$bad" || { echo "failed as nobody:$bad"; false; }; }
'

test_done
