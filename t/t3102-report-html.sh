#!/bin/bash
# clyde report: the HTML page.  Well-formed (strict XML parse), every
# input string escaped, colours only for a difference from the baseline
# (CPU: lower is better), ratios to the chosen baseline, per-char modes
# never compared unmarked, templates overridable, and rendered by headless Chromium when it is installed.
. "$(dirname "$0")/lib.sh"

FIX=$TEST_DIR/fixtures/report
ALL="$FIX/bonnie-1.03.csv $FIX/bonnie-1.97.csv $FIX/bonnie-1.98.csv
$FIX/fio-write.json $FIX/fio-randread-plus.json $FIX/fio-client.json
$FIX/fio-concat.txt $FIX/clyde.jsonl"

cell () {
	xmllint --xpath "string(//*[local-name()='td'][@data-test='$1'][@data-group='$2']/@${3:-data-v})" page.html
}
cell_text () {
	xmllint --xpath "string(//*[local-name()='td'][@data-test='$1'][@data-group='$2'])" page.html
}
ratio () {
	xmllint --xpath "string(//*[local-name()='td'][@data-test='$1'][@data-group='$2']/*[@class='ratio']/@data-ratio)" page.html
}

test_lazy_prereq CHROMIUM '
	command -v chromium || command -v chromium-browser
'

test_expect_success XMLLINT 'a mix of every input is one well-formed page' '
	"$CLYDE" report -o page.html $ALL 2>err &&
	# fio-concat.txt: the message of fio it holds, and the note between
	# its documents, each said once
	test_line_count = 2 err &&
	grep -q "fio-concat.txt: 1 line of fio.s own messages ignored" err &&
	grep -q "fio-concat.txt: 1 line of text outside fio.s JSON ignored" err &&
	xmllint --noout page.html &&
	head -1 page.html | grep -qx "<!DOCTYPE html>" &&
	grep -q "<html xmlns=\"http://www.w3.org/1999/xhtml\"" page.html
'

test_expect_success 'self-contained: no network, no external resources' '
	! grep -Eiq "(src|href)=\"(https?:)?//" page.html &&
	! grep -qi "<link" page.html &&
	grep -q "<svg xmlns=\"http://www.w3.org/2000/svg\"" page.html &&
	grep -q "<style>" page.html
'

test_expect_success XMLLINT 'a label <script>alert(1)</script> is escaped' '
	! grep -q "<script>alert" page.html &&
	grep -q "xfs&lt;script&gt;alert(1)&lt;/script&gt;" page.html &&
	test "$(xmllint --xpath "count(//*[local-name()=\"script\"])" page.html)" = 1 &&
	# and the bonnie++ label "deb<1>"
	grep -q "deb&lt;1&gt;" page.html
'

test_expect_success XMLLINT 'invalid UTF-8 and control characters stay well-formed' '
	printf "1.98,2.00a,bad\\377\\001name\",1,1,64M,,8192,5,1,1,2,2,3,3,4,4,5,5,6,6,1,,,,,7,7,8,8,9,9,10,10,11,11,12,12,1us,1us,1us,1us,1us,1us,1us,1us,1us,1us,1us,1us\\n" >odd.csv &&
	"$CLYDE" report -o odd.html -t "a & b < c" odd.csv &&
	xmllint --noout odd.html &&
	grep -q "<title>a &amp; b &lt; c</title>" odd.html
'

# bonnie++ only, in input order: 1 old-scsi-ext3 (1.03, stdio), 2
# old-fc-xfs (1.03), 3 fc-raid5 (1.97), 4 int-raid10, 5 deb<1>, 6 deb-big
test_expect_success XMLLINT 'colours: only a difference from the baseline, better green, worse red' '
	"$CLYDE" report -o page.html "$FIX/bonnie-1.03.csv" \
		"$FIX/bonnie-1.97.csv" "$FIX/bonnie-1.98.csv" &&
	# block write: deb-big 260026 against old-scsi-ext3 40123, single runs
	test "$(cell put_block 6 class)" = "num better" &&
	test "$(cell put_block 6 data-diff)" = higher &&
	test "$(cell put_block 1 class)" = num &&
	# CPU: higher is worse
	test "$(cell put_block_cpu 6 class)" = "num worse" &&
	test -z "$(cell put_block 6 style)"
'

test_expect_success XMLLINT 'per-char: stdio and syscall never compared' '
	# 1.03 (stdio): 23111 against 21340, x1.08: within the noise band
	test "$(cell putc 2 class)" = num &&
	test "$(cell putc 2 data-diff)" = same &&
	# 1.9x/1.98 (syscall) against a stdio baseline: no difference at all
	test "$(cell putc 5 class)" = num &&
	test -z "$(cell putc 5 data-diff)" &&
	cell_text putc 1 | grep -q stdio &&
	cell_text putc 3 | grep -q syscall &&
	cell_text putc 3 | grep -q "no ratio: other per-char mode" &&
	test -z "$(ratio putc 3)" &&
	test "$(ratio putc 2)" = 1.0830
'

test_expect_success XMLLINT 'ratios to the first configuration by default' '
	test "$(ratio put_block 3)" = 6.2308 &&
	test "$(ratio get_block 3)" = 6.5677 &&
	test -z "$(ratio put_block 1)" &&
	grep -q "Baseline: <b>old-scsi-ext3</b>" page.html
'

test_expect_success XMLLINT '--baseline LABEL' '
	"$CLYDE" report -o page.html --baseline fc-raid5 \
		"$FIX/bonnie-1.03.csv" "$FIX/bonnie-1.97.csv" &&
	test "$(ratio put_block 1)" = 0.1605 &&
	test "$(ratio seeks 4)" = 1.8466 &&
	xmllint --xpath "string(//*[@id=\"bonnie-table\"]//*[local-name()=\"tr\"][@class=\"baseline\"]/@id)" page.html >id &&
	test "$(cat id)" = row3 &&
	test_expect_code 2 "$CLYDE" report --baseline nosuch \
		"$FIX/bonnie-1.03.csv" 2>err &&
	grep -q "no run has that label" err
'

test_expect_success XMLLINT 'low precision and cached marks are shown' '
	"$CLYDE" report -o page.html "$FIX/clyde.jsonl" &&
	cell_text put_block 1 | grep -q "\*" &&
	grep -q "title=\"low precision" page.html
'

test_expect_success XMLLINT 'configurations: grouped by what differs, repeats together' '
	"$CLYDE" report -o page.html "$FIX/clyde.jsonl" &&
	test "$(xmllint --xpath "count(//*[@id=\"config-table\"]//*[local-name()=\"tbody\"]/*)" page.html)" = 2 &&
	xmllint --xpath "string(//*[@id=\"cfg1\"])" page.html >c1 &&
	grep -q "tag:controller=fc" c1 &&
	xmllint --xpath "string(//*[@id=\"cfg2\"])" page.html >c2 &&
	grep -q "tag:controller=sas" c2 &&
	test "$(xmllint --xpath "string(//*[@id=\"cfg2\"]/*[3])" page.html)" = 2
'

test_expect_success XMLLINT 'bar charts and the environment of each run' '
	"$CLYDE" report -o page.html $ALL &&
	test "$(xmllint --xpath "count(//*[@id=\"chart-put_block\"]//*[local-name()=\"rect\"])" page.html)" -ge 5 &&
	grep -q "<dt>fs type</dt><dd>ext4</dd>" page.html &&
	grep -q "<dt>tag controller</dt><dd>fc</dd>" page.html &&
	grep -q "<dt>param char_io</dt><dd>stdio</dd>" page.html
'

# a fleet's runs share most of their environment: it is listed once, and
# each run lists only its own; a device stack goes whole, never a field
# of a device apart from the device it belongs to
env_dt () {	# env_dt WHERE KEY: how many <dt>KEY</dt> under WHERE
	xmllint --xpath "count(//*[local-name()=\"details\"][$1]//*[local-name()=\"dt\"][.=\"$2\"])" page.html
}
test_expect_success XMLLINT,JQ 'the environment: what every run shares once, each run its own' '
	stack="[{\"kind\":\"disk\",\"name\":\"sda\",\"parent\":-1,\"rotational\":1}]" &&
	head -1 "$FIX/clyde.jsonl" | jq -c ".target.stack = $stack" >one.jsonl &&
	jq -c ".label = \"a\"" one.jsonl >env.jsonl &&
	jq -c ".label = \"b\" | .host.kernel = \"6.1.0-other\"" one.jsonl \
		>>env.jsonl &&
	"$CLYDE" report -o page.html env.jsonl &&
	runs="starts-with(@id,\"run\")" &&
	test "$(env_dt "@id=\"env-shared\"" cpu)" = 1 &&
	test "$(env_dt "$runs" cpu)" = 0 &&
	test "$(env_dt "@id=\"env-shared\"" kernel)" = 0 &&
	test "$(env_dt "$runs" kernel)" = 2 &&
	grep -q "<dt>kernel</dt><dd>6.1.0-other</dd>" page.html &&
	test "$(env_dt "@id=\"env-shared\"" "device 0 rotational")" = 1 &&
	test "$(env_dt "$runs" "device 0")" = 0 &&
	jq -c ".label = \"c\" | .target.stack[0].rotational = 0" one.jsonl \
		>>env.jsonl &&
	"$CLYDE" report -o page.html env.jsonl &&
	test "$(env_dt "@id=\"env-shared\"" "device 0")" = 0 &&
	test "$(env_dt "@id=\"env-shared\"" "device 0 rotational")" = 0 &&
	test "$(env_dt "$runs" "device 0")" = 3 &&
	test "$(env_dt "$runs" "device 0 rotational")" = 3 &&
	test "$(env_dt "@id=\"env-shared\"" cpu)" = 1 &&
	"$CLYDE" report -o page.html one.jsonl &&
	test "$(env_dt "@id=\"env-shared\"" cpu)" = 0 &&
	test "$(env_dt "$runs" cpu)" = 1
'

test_expect_success XMLLINT,JQ 'the environment: what a configuration'"'"'s runs share, once above them' '
	jq -c ".label = \"a\" | .params.seed = 11" one.jsonl >cfg.jsonl &&
	jq -c ".label = \"b\" | .params.seed = 22" one.jsonl >>cfg.jsonl &&
	jq -c ".label = \"a\" | .params.seed = 11 | .repetition = 2" \
		one.jsonl >>cfg.jsonl &&
	"$CLYDE" report -o page.html cfg.jsonl &&
	runs="starts-with(@id,\"run\")" &&
	test "$(env_dt "@id=\"env-shared\"" "param seed")" = 0 &&
	test "$(env_dt "@id=\"env-cfg1\"" "param seed")" = 1 &&
	test "$(env_dt "@id=\"env-cfg1\"" cpu)" = 0 &&
	test "$(env_dt "$runs" "param seed")" = 1 &&
	test "$(env_dt "$runs" repetition)" = 3 &&
	test "$(xmllint --xpath "count(//*[@id=\"env-cfg2\"])" page.html)" = 0 &&
	xmllint --xpath "//*[local-name()=\"details\"][starts-with(@id,\"env\") or $runs]/@id" \
		page.html | tr -d " \n" >order &&
	test "$(cat order)" = "id=\"env-shared\"id=\"env-cfg1\"id=\"run1\"id=\"run3\"id=\"run2\""
'

# what would read alike and is not: stacks whose fields only join alike,
# a warning one run has twice, a full filesystem's 0 free bytes
test_expect_success XMLLINT,JQ 'the environment: nothing shared that is not the same' '
	runs="starts-with(@id,\"run\")" &&
	jq -c ".label = \"a\" | .target.stack[0] += {\"x=1\": \"2\"}" \
		one.jsonl >odd.jsonl &&
	jq -c ".label = \"a\" | .target.stack[0] += {\"x\": \"1=2\"} |
		.repetition = 2" one.jsonl >>odd.jsonl &&
	"$CLYDE" report -o page.html odd.jsonl &&
	test "$(env_dt "$runs" "device 0 x=1")" = 1 &&
	test "$(env_dt "$runs" "device 0 x")" = 1 &&
	test "$(env_dt "$runs" "device 0")" = 2 &&
	test "$(env_dt "@id=\"env-shared\"" "device 0")" = 0 &&
	jq -c ".label = \"a\" | .warnings = [\"w\", \"w\"]" one.jsonl >dup.jsonl &&
	jq -c ".label = \"b\" | .warnings = [\"w\"] |
		.target.free_bytes = 0" one.jsonl >>dup.jsonl &&
	"$CLYDE" report -o page.html dup.jsonl &&
	test "$(env_dt "@id=\"env-shared\"" warning)" = 0 &&
	test "$(env_dt "@id=\"run1\"" warning)" = 2 &&
	test "$(env_dt "@id=\"run2\"" warning)" = 1 &&
	grep -q "<dt>free bytes</dt><dd>0</dd>" page.html
'

test_expect_success XMLLINT '--template DIR overrides the built-in page' '
	mkdir tpl &&
	printf "<html xmlns=\"http://www.w3.org/1999/xhtml\"><head><title>@TITLE@</title><style>@CSS@</style></head><body><p id=\"mine\">custom</p>@BODY@</body></html>\\n" >tpl/report.html &&
	"$CLYDE" report --template tpl -o page.html "$FIX/bonnie-1.98.csv" &&
	xmllint --noout page.html &&
	grep -q "<p id=\"mine\">custom</p>" page.html &&
	grep -q "border-collapse" page.html &&
	test_expect_code 2 "$CLYDE" report --template nodir \
		"$FIX/bonnie-1.98.csv" 2>err &&
	grep -q "nodir" err
'

test_expect_success XMLLINT 'latency tables: the one summary set, min included' '
	"$CLYDE" report -o page.html "$FIX/clyde.jsonl" &&
	xmllint --xpath "//*[@id=\"lat-put_block\"]//*[local-name()=\"thead\"]//*[local-name()=\"th\"]/text()" page.html >heads &&
	printf "%s\n" Configuration samples mean min p50 p90 p99 p99.9 max >expect &&
	test_cmp expect heads &&
	# put_block of run 1 in the fixture: min 4.016 us
	test "$(xmllint --xpath "string(//*[@id=\"lat-put_block\"]//*[local-name()=\"tbody\"]/*[1]/*[4]/@data-v)" page.html)" = 4.016
'

test_expect_success CHROMIUM 'headless Chromium renders the page' '
	"$CLYDE" report -o page.html $ALL &&
	chrome=$(command -v chromium || command -v chromium-browser) &&
	timeout 120 "$chrome" --headless --no-sandbox --disable-gpu \
		--user-data-dir="$TRASH/chrome" --dump-dom \
		"file://$TRASH/page.html" >dom.html 2>chrome.err &&
	grep -q "bonnie-table" dom.html &&
	grep -q "xfs&lt;script&gt;" dom.html &&
	timeout 120 "$chrome" --headless --no-sandbox --disable-gpu \
		--user-data-dir="$TRASH/chrome" --window-size=1400,1000 \
		--screenshot="$TRASH/shot.png" "file://$TRASH/page.html" \
		>/dev/null 2>&1 &&
	test -s shot.png
'
test_have_prereq CHROMIUM ||
	test_comment "chromium is not installed (scripts/install-deps --browser installs it)"

test_done
