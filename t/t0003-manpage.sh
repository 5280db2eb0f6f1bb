#!/bin/bash
# clyde.1 renders without warnings and documents every command and every
# option each command's --help lists (the options tables), in its section.
. "$(dirname "$0")/lib.sh"

MAN=$SRC_DIR/clyde.1
test_lazy_prereq MAN 'command -v man && command -v groff'

# help_options CMD: the options CMD's --help lists, one a line: "--long"
# ":long" or "s:long" (a short option with its long form)
help_options () {
	if [ "$1" = run ]; then "$CLYDE" --help; else "$CLYDE" "$1" --help; fi |
	sed -nE 's/^ +(-([A-Za-z0-9]), )?--([a-z][a-z0-9-]*).*/\2:\3/p'
}

# man_section CMD: the rendered text of the man page's "CMD OPTIONS"
man_section () {
	awk -v h="$(echo "$1" | tr a-z A-Z) OPTIONS" '
		$0 == h { on = 1; next }
		on && /^[A-Z]/ { exit }
		on' rendered
}

test_expect_success MAN 'the man page renders with man -l, without warnings' '
	MANWIDTH=100 man --warnings -l "$MAN" >rendered 2>err &&
	test_must_fail test -s err &&
	groff -man -ww -z "$MAN" 2>err && test_must_fail test -s err &&
	grep -q "^NAME" rendered && grep -q "^RUN OPTIONS" rendered
'

test_expect_success MAN 'every command has its section' '
	"$CLYDE" no-such-command 2>err; cmds=$(sed "s/.*commands://; s/(.*//" err) &&
	test "$(echo $cmds | wc -w)" -ge 4 &&
	for c in $cmds; do
		man_section $c >sec && test -s sec &&
		grep -q "clyde.*$c\|^ *clyde \[run\]" sec ||
		{ echo "no section for $c"; return 1; }
	done
'

for cmd in run matrix zones report info clean; do
	test_expect_success MAN "every option of clyde $cmd --help is in its man section" '
		help_options '$cmd' >opts &&
		test "$(wc -l <opts)" -ge 3 &&
		man_section '$cmd' >sec &&
		missing= &&
		while IFS=: read -r short long; do
			grep -qE -- "(^|[ ,\[])--$long([^a-z0-9-]|\$)" sec ||
				missing="$missing --$long"
			[ -z "$short" ] || grep -qE -- "-$short, --$long" sec ||
				missing="$missing -$short"
		done <opts &&
		{ [ -z "$missing" ] || { echo "missing in clyde.1:$missing"; false; }; }
	'
done

test_expect_success 'the options of run are really parsed (not an empty list)' '
	help_options run >opts &&
	grep -qx "d:directory" opts && grep -qx ":json" opts &&
	test "$(wc -l <opts)" -ge 20
'

test_expect_success 'make install puts clyde.1 in MANDIR/man1' '
	make -s -C "$SRC_DIR" install DESTDIR="$TRASH/inst" PREFIX=/usr >out 2>&1 &&
	test_path_is_file "$TRASH/inst/usr/share/man/man1/clyde.1" &&
	cmp "$MAN" "$TRASH/inst/usr/share/man/man1/clyde.1" &&
	test -x "$TRASH/inst/usr/bin/clyde"
'
test_done
