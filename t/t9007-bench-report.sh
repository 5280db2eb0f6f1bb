#!/bin/bash
# scripts/bench-report --quick: the table of clyde report's seconds (wall
# and CPU) and peak RSS at 10^2 and 10^3 records, in a tenth as many
# configurations, has its shape (the times themselves are the machine's,
# not checked).
. "$(dirname "$0")/lib.sh"

test_expect_success JQ 'bench-report --quick prints a row a decade' '
	"$SRC_DIR/scripts/bench-report" --quick \
		-r "$TEST_DIR/fixtures/report/clyde.jsonl" >table 2>err &&
	test_line_count = 3 table &&
	head -1 table | grep -q "^ *records *configs *text s *text cpu *text MiB *html s *html cpu *html MiB *text x *html x$" &&
	awk "NR > 1 && NF != 10 { exit 1 }" table &&
	awk "NR == 2 && !(\$1 == 100 && \$9 == \"-\" && \$10 == \"-\") { exit 1 }" table &&
	awk "NR == 3 && !(\$1 == 1000 && \$9 ~ /^[0-9.]+\$/ && \$10 ~ /^[0-9.]+\$/) { exit 1 }" table &&
	# N records in N/10 configurations (-p 10, the default)
	awk "NR > 1 && \$2 != \$1 / 10 { exit 1 }" table &&
	awk "NR > 1 && !(\$2 > 0 && \$3 ~ /^[0-9.]+\$/ && \$4 ~ /^[0-9.]+\$/ && \$5 > 0) { exit 1 }" table &&
	awk "NR > 1 && !(\$6 ~ /^[0-9.]+\$/ && \$7 ~ /^[0-9.]+\$/ && \$8 > 0) { exit 1 }" table
'

test_expect_success 'a bad --max is refused with status 2' '
	test_expect_code 2 "$SRC_DIR/scripts/bench-report" --max 1e3 2>err &&
	grep -q "^bench-report: " err
'

test_done
