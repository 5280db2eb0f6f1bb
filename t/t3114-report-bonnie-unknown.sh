#!/bin/bash
# clyde report -f bonnie: a line converted from bonnie++ 1.03 or 1.96
# leaves the settings the input did not record empty (findings F22):
# no "8192,5" seeks/seekers (1.03 used 3 seeker processes and wrote
# neither), no "8k" for an empty chunk field; bon_csv2html still takes it.
. "$(dirname "$0")/lib.sh"

FIX=$TEST_DIR/fixtures/report

test_lazy_prereq BON_CSV2HTML 'command -v bon_csv2html'

test_expect_success 'a 1.03 line: chunk, seeks and seekers stay empty' '
	sed -n 2p "$FIX/bonnie-1.03.csv" >in103.csv &&
	"$CLYDE" report -f bonnie in103.csv >out 2>err && test ! -s err &&
	test "$(cut -d, -f3,6-9 out)" = "old-scsi-ext3,300M,,," &&
	# the figures are unchanged: putc 21340, put_block 40123
	test "$(cut -d, -f10,12 out)" = "21340,40123"
'

test_expect_success 'a 1.03 size:chunk keeps its chunk, nothing else' '
	sed -n 3p "$FIX/bonnie-1.03.csv" >in103c.csv &&
	"$CLYDE" report -f bonnie in103c.csv >out &&
	test "$(cut -d, -f6-9 out)" = "1G,4k,,"
'

test_expect_success 'a 1.96 line with an empty chunk field: empty, not 8k' '
	sed -n 2p "$FIX/bonnie-1.97.csv" |
		awk -F, -v OFS=, "{ \$1 = \$2 = \"1.96\"; \$7 = \"\"; print }" \
		>in196.csv &&
	test "$(cut -d, -f1,7 in196.csv)" = "1.96," &&
	"$CLYDE" report -f bonnie in196.csv >out &&
	test "$(cut -d, -f7-9 out)" = ",," &&
	test "$(cut -d, -f10 out)" = "$(cut -d, -f8 in196.csv)"
'

test_expect_success BON_CSV2HTML 'bon_csv2html draws the converted lines' '
	cat in103.csv in103c.csv in196.csv >all.csv &&
	"$CLYDE" report -f bonnie all.csv >conv.csv &&
	bon_csv2html <conv.csv >page.html 2>err && test ! -s err &&
	grep -q "old-scsi-ext3" page.html && grep -q "21340" page.html &&
	grep -q "old-fc-xfs" page.html
'

test_expect_success 'clyde records keep their seeks and seekers' '
	"$CLYDE" report -f bonnie "$FIX/clyde.jsonl" >out &&
	test "$(head -n 1 out | cut -d, -f8,9)" = "8192,5"
'

test_done
