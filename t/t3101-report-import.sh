#!/bin/bash
# clyde report: every input format read into the right columns.  Each
# figure of a fixture is looked up in the page by its test and its
# configuration (the td's data-test and data-group), so a per-char figure
# landing in the block column (the classic bug) fails here.
. "$(dirname "$0")/lib.sh"

FIX=$TEST_DIR/fixtures/report

# cell TEST GROUP [ATTR]: the cell's number (data-v) or ATTR of page.html
cell () {
	xmllint --xpath "string(//*[local-name()='td'][@data-test='$1'][@data-group='$2']/@${3:-data-v})" page.html
}
# cell_text TEST GROUP: the text shown in the cell
cell_text () {
	xmllint --xpath "string(//*[local-name()='td'][@data-test='$1'][@data-group='$2'])" page.html
}
# expect_cells GROUP TEST=VALUE...: each cell holds exactly that number
expect_cells () {
	local g=$1 kv got
	shift
	for kv in "$@"; do
		got=$(cell "${kv%%=*}" "$g")
		if [ "$got" != "${kv#*=}" ]; then
			echo "group $g ${kv%%=*}: expected ${kv#*=}, got '$got'"
			return 1
		fi
	done
}

test_expect_success XMLLINT 'bonnie++ 1.03, 1.97 and 1.98 lines in one page' '
	"$CLYDE" report -o page.html "$FIX/bonnie-1.03.csv" \
		"$FIX/bonnie-1.97.csv" "$FIX/bonnie-1.98.csv" 2>err &&
	test_line_count = 0 err &&
	xmllint --noout page.html
'

# groups in input order: 1 old-scsi-ext3, 2 old-fc-xfs (1.03), 3 fc-raid5
# (1.97), 4 int-raid10 (1.96), 5 deb<1>, 6 deb-big (1.98 from Debian's
# bonnie++)
test_expect_success XMLLINT '1.03: each figure in its own column' '
	expect_cells 1 putc=21340 putc_cpu=89 put_block=40123 \
		put_block_cpu=25 rewrite=15234 rewrite_cpu=12 getc=20987 \
		getc_cpu=88 get_block=45678 get_block_cpu=18 seeks=215.3 \
		seeks_cpu=1 seq_create=1234 seq_create_cpu=98 seq_del=2345 \
		ran_create=1300 ran_del=1987 ran_del_cpu=95 &&
	expect_cells 2 putc=23111 put_block=98765 getc=22222 \
		get_block=123456 seeks=812.4 seq_stat=5432 ran_stat=6001
'

test_expect_success XMLLINT '1.97 and 1.96: each figure in its own column' '
	expect_cells 3 putc=520 putc_cpu=99 put_block=250000 \
		put_block_cpu=35 rewrite=110000 getc=2400 getc_cpu=98 \
		get_block=300000 seeks=812.3 seeks_cpu=15 seq_create=12000 \
		seq_del=15000 ran_create=13000 ran_del=11000 &&
	expect_cells 4 putc=530 put_block=180000 getc=2500 seeks=1500
'

test_expect_success XMLLINT '1.98 from Debian bonnie++: figures and +++++' '
	expect_cells 6 putc=1230 putc_cpu=96 put_block=260026 \
		put_block_cpu=92 getc=2053 getc_cpu=99 seq_create=1758 \
		ran_create=1292 &&
	test "$(cell_text rewrite 6)" = "+++++" &&
	test "$(cell_text rewrite_cpu 6)" = "+++" &&
	test "$(cell_text put_block 5)" = "+++++" &&
	test -z "$(cell rewrite 6)"
'

test_expect_success XMLLINT 'file size, chunk and every -n shape' '
	row () {
		xmllint --xpath "string(//*[local-name()=\"tr\"][@id=\"row$1\"]/*[$2])" page.html
	} &&
	# the file tests are a table of their own (as bon_csv2html lays
	# them out), its runs after three heading rows
	frow () {
		xmllint --xpath "string((//*[local-name()=\"table\"][@id=\"bonnie-files-table\"]//*[local-name()=\"tr\"])[$(($1 + 3))]/*[$2])" page.html
	} &&
	test "$(row 1 2) $(frow 1 2)" = "300M 16" &&
	test "$(row 2 2) $(frow 2 2)" = "1G 16" &&
	"$CLYDE" report -f csv "$FIX/bonnie-1.03.csv" "$FIX/bonnie-1.97.csv" \
		>long.csv &&
	"$CLYDE" report -f bonnie "$FIX/bonnie-1.03.csv" \
		"$FIX/bonnie-1.97.csv" >b.csv &&
	# old-fc-xfs: 1G:4k, 16:1000:100/10; int-raid10: 16,1000,100,10
	# 1.03 has no seeks, seekers: left empty (F22)
	grep -q "^1.98,bonnie++-1.03,old-fc-xfs,1,,1G,4k,,," b.csv &&
	grep -q ",812.4,2,16,1000,100,10,," b.csv &&
	grep -q "^1.98,bonnie++-1.96,int-raid10,.*,1500,20,16,1000,100,10,," b.csv
'

test_expect_success XMLLINT 'latencies in us, ms and s become microseconds' '
	"$CLYDE" report -o lat.html "$FIX/bonnie-1.97.csv" &&
	# fc-raid5: put_block 450ms, seq_del 2s, seq_create 1200us (max only)
	test "$(xmllint --xpath "string(//*[@id=\"lat-put_block\"]//*[local-name()=\"tr\"][1]/*[last()]/@data-v)" lat.html)" = 450000.000 &&
	test "$(xmllint --xpath "string(//*[@id=\"lat-seq_del\"]//*[local-name()=\"tr\"][1]/*[last()]/@data-v)" lat.html)" = 2000000.000 &&
	test "$(xmllint --xpath "string(//*[@id=\"lat-seq_create\"]//*[local-name()=\"tr\"][1]/*[last()]/@data-v)" lat.html)" = 1200.000 &&
	grep -q "max only" lat.html
'

test_expect_success XMLLINT,JQ 'fio JSON: sequential jobs in the block columns, KiB/s' '
	"$CLYDE" report -o page.html "$FIX/fio-write.json" \
		"$FIX/fio-client.json" 2>err &&
	test_line_count = 0 err &&
	w=$(jq ".jobs[0].write.bw_bytes / 1024" "$FIX/fio-write.json") &&
	r=$(jq ".client_stats[0].read.bw_bytes / 1024" "$FIX/fio-client.json") &&
	awk -v a="$(cell put_block 1)" -v b="$w" "BEGIN { exit !(a - b < 1 && b - a < 1) }" &&
	awk -v a="$(cell get_block 2)" -v b="$r" "BEGIN { exit !(a - b < 1 && b - a < 1) }" &&
	test -z "$(cell putc 1)" && test -z "$(cell get_block 1)"
'

test_expect_success XMLLINT,JQ 'fio json+: latency histogram from the bins' '
	"$CLYDE" report -o page.html "$FIX/fio-randread-plus.json" &&
	n=$(jq ".jobs[0].read.clat_ns.N" "$FIX/fio-randread-plus.json") &&
	test "$(xmllint --xpath "string(//*[@id=\"lat-fio_randread_read\"]//*[local-name()=\"tr\"][1]/*[2]/@data-v)" page.html)" = "$n" &&
	bw=$(jq ".jobs[0].read.bw_bytes / 1024" "$FIX/fio-randread-plus.json") &&
	awk -v a="$(cell fio_randread_read 1)" -v b="$bw" "BEGIN { exit !(a - b < 1 && b - a < 1) }"
'

test_expect_success 'fio: text before, between and after documents' '
	"$CLYDE" report -f csv "$FIX/fio-concat.txt" >long.csv 2>err &&
	# the message of fio and the other text each said once, as what
	# they are
	test_line_count = 2 err &&
	grep -q "fio-concat.txt: 1 line of fio.s own messages ignored (the first: fio: this is text before the first document)$" err &&
	grep -q "fio-concat.txt: 1 line of text outside fio.s JSON ignored (the first: note between documents)$" err &&
	# a result row and a matrix cell row for each job
	grep -c "^[0-9]*,[0-9]*,seqw,fio," long.csv >n1 &&
	grep -c "^[0-9]*,[0-9]*,randr,fio," long.csv >n2 &&
	test "$(cat n1) $(cat n2)" = "2 2" &&
	test "$(grep -c ",fio,.*,matrix," long.csv)" = 2 &&
	grep -q "fio-concat.txt:2 (fio JSON)" long.csv
'

test_expect_success 'fio client/server: the client is the host' '
	"$CLYDE" report -o page.html "$FIX/fio-client.json" &&
	grep -q "<dt>host</dt><dd>127.0.0.1</dd>" page.html &&
	grep -q "client/server" page.html
'

test_expect_success XMLLINT,JQ 'clyde records: repeats summarised as mean, sd, count' '
	"$CLYDE" report -o page.html "$FIX/clyde.jsonl" &&
	# group 2 is "base", run twice with -x 2
	jq -s "[.[] | select(.label == \"base\") | .results[] |
		select(.name == \"put_block\") | .value]" \
		"$FIX/clyde.jsonl" >v &&
	mean=$(jq "add / length" v) &&
	sd=$(jq "(add / length) as \$m | (map((. - \$m) * (. - \$m)) | add) / (length - 1) | sqrt" v) &&
	awk -v a="$(cell put_block 2)" -v b="$mean" "BEGIN { exit !(a - b < 1 && b - a < 1) }" &&
	cell_text put_block 2 >text &&
	grep -q "n=2" text &&
	# rates grouped by thousands (issue 21): 12345 reads 12,345
	printf "%.0f\n" "$sd" | sed -e :a -e "s/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/;ta" >sd &&
	grep -q "±$(cat sd)" text
'

test_expect_success 'malformed lines: FILE:LINE warnings, the rest reported' '
	"$CLYDE" report -f csv "$FIX/malformed.csv" >long.csv 2>err &&
	grep -q "malformed.csv:2: 7 fields" err &&
	grep -q "malformed.csv:3: putc: .13x7. is not a number" err &&
	grep -q "malformed.csv:4: not a bonnie++ CSV line" err &&
	grep -q ",good-line,.*,put_block," long.csv &&
	grep -q ",bad-number,.*,put_block,.*,ok,5000.000," long.csv &&
	! grep -q ",bad-number,.*,putc," long.csv &&
	! grep -q short-line long.csv
'

test_expect_success 'a broken clyde record is a FILE:LINE warning' '
	{ head -1 "$FIX/clyde.jsonl" && echo "{\"schema\": 1, oops" &&
	  sed -n 2p "$FIX/clyde.jsonl"; } >mixed.jsonl &&
	"$CLYDE" report -f csv mixed.jsonl >long.csv 2>err &&
	grep -q "^clyde report: mixed.jsonl:2: " err &&
	test "$(cut -d, -f1 long.csv | sort -u | grep -c "^[0-9]")" = 2
'

test_expect_success 'nothing usable: exit 2' '
	echo "hello, world" >junk.txt &&
	: >empty.csv &&
	test_expect_code 2 "$CLYDE" report junk.txt empty.csv >out 2>err &&
	test_line_count = 0 out &&
	grep -q "junk.txt: no results found .*the first on line 1: " err &&
	grep -q "empty.csv: empty$" err &&
	test_expect_code 2 "$CLYDE" report no-such-file 2>err &&
	grep -q "no-such-file: cannot open: No such file" err &&
	test_expect_code 2 "$CLYDE" report 2>err &&
	grep -q "no input files" err
'

test_done
