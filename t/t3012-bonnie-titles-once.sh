#!/bin/bash
# One bonnie++ test table (issue 25, 3): each test's title is written once
# in the sources, in report/model/bonnie.c's bonnie_tests[]; the suite,
# the readers and the writers take it from there.  A second list (a
# reader's own table, a writer's own titles) makes a title appear twice.
. "$(dirname "$0")/lib.sh"

# titles TABLE: the quoted titles of bonnie_tests[] in TABLE
titles () {
	sed -n 's/^[[:space:]]*\[BONNIE_[A-Z_]*\] = { "[a-z_]*", \("[^"]*"\),.*/\1/p' "$1"
}

# code DIR: the C sources under DIR (t/ left out) without their comments
# (a comment may quote a title as an example)
code () {
	(cd "$1" && find . -path ./t -prune -o \( -name "*.[ch]" -print \) |
		xargs cat) |
	sed -e 's|/\*.*\*/||g' -e 's|//.*||' -e '/^[[:space:]]*\*/d' \
	    -e 's|/\*.*||'
}

# twice DIR: "COUNT TITLE" for every title on other than one line of the
# code under DIR
twice () {
	local t n
	code "$1" >code.txt &&
	titles "$1/report/model/bonnie.c" | while read -r t; do
		n=$(grep -cF -- "$t" code.txt)
		[ "$n" -eq 1 ] || echo "$n $t"
	done
}

test_expect_success 'the table has the twelve titles' '
	titles "$SRC_DIR/report/model/bonnie.c" >list &&
	test "$(wc -l <list)" -eq 12 &&
	grep -qx "\"Block write\"" list && grep -qx "\"Random delete\"" list
'

test_expect_success 'each title is written once in the sources' '
	twice "$SRC_DIR" >dups &&
	{ ! test -s dups || { cat dups; false; }; }
'

test_expect_success 'a second list of titles is found' '
	mkdir -p tree/report/model tree/report/import &&
	cp "$SRC_DIR/report/model/bonnie.c" tree/report/model/ &&
	printf "static const char *t = \"Sequential read\";\n" \
		>tree/report/import/own_list.c &&
	twice tree >dups &&
	grep -qx "2 \"Sequential read\"" dups && test "$(wc -l <dups)" -eq 1
'

test_done
