#!/bin/bash
# The HTML page is safe by construction: every file that writes HTML
# (has markup in its strings) includes report/write/html_emit.h and writes through
# the emitter only.  Raw stdio on
# the page is allowed only on lines that copy the templates, marked
# "/* template */" in report/write/html.c; h_lit_ is only called through the
# h_lit macro (which accepts string literals only).
. "$(dirname "$0")/lib.sh"

REPORT=$SRC_DIR/report/write

writers () {
	grep -l '#include "report/write/html_emit.h"' "$REPORT"/*.c | grep -v '/html_emit\.c$'
}

# The lines of the writers that call stdio themselves, unmarked.
raw_writes () {
	writers | xargs grep -nE "\<(printf|v?fprintf|fputs|fputc|putc|putchar|puts|fwrite)\(" |
		grep -v "/\* template \*/"
}

test_expect_success 'the HTML writers are found' '
	writers >files &&
	grep -q "/html\.c$" files &&
	grep -q "/html_tables\.c$" files &&
	test "$(wc -l <files)" -ge 5
'

test_expect_success 'no raw stdio on the page outside the template copy' '
	raw_writes >raw;
	test_line_count = 0 raw &&
	# the template'"'"'s own text, its CSS and its script (the body is
	# written through the emitter straight onto the page)
	test "$(grep -c "/\* template \*/" "$REPORT/html.c")" = 3
'

test_expect_success 'every file with HTML markup in its strings is a writer' '
	grep -l "\"[^\"]*<\(td\|tr\|th\|div\|span\|table\|p\|h[1-6]\|svg\|a\|li\|dd\|dt\|code\)[ >]" \
		"$REPORT"/*.c | grep -v "/html_emit\.c$" >markup &&
	writers >files &&
	! grep -vxFf files markup
'

test_expect_success 'h_lit_ only through h_lit (literals only)' '
	writers | xargs grep -n "h_lit_(" >direct;
	test_line_count = 0 direct
'

test_expect_success 'the check catches a raw write (a copy with one added)' '
	mkdir rep && cp "$REPORT"/html_env.c rep/ &&
	printf "%s\n" "static void bad(FILE *f, const char *s)" "{" \
		"	fprintf(f, \"<td data-x=\\\"%s\\\">\", s);" "}" >>rep/html_env.c &&
	REPORT=$TRASH/rep raw_writes >raw;
	test_line_count = 1 raw &&
	grep -q "data-x" raw
'

test_done
