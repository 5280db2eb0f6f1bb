#!/bin/bash
# clyde report with hostile input: every string field of every input
# format (clyde JSON from a real run, a real matrix with a rate curve and a
# real zones run, the fixtures' records, bonnie++ CSV, fio JSON including
# client/server output, the input's file name, the title) set to markup,
# attribute breakouts, CDATA ends and control characters.  The page stays
# well-formed XML, has no element or attribute that an input put there,
# and in headless Chromium no injected script runs (each payload would
# mark the page if it did).
. "$(dirname "$0")/lib.sh"

FIX=$TEST_DIR/fixtures/report

# The page is made of every input at once, and the run's record must have
# a device stack (its fields are inputs too): on a memory filesystem the
# stack is empty.
test_have_prereq DISKDIR || test_skip_all "the real run needs a disk-backed directory (a device stack in its record): ${TMPDIR:-/tmp} and /var/tmp are on memory filesystems"

test_lazy_prereq CHROMIUM '
	command -v chromium || command -v chromium-browser
'

# The payloads: a string field gets payload (i mod n) followed by
# "~TAGi~", i its index in the record, so that each field can be found on
# the page.  The result name, title and unit have short ones, cycling with
# the result's index (the reader limits them to 31, 63 and 15 bytes).
# Each script would set data-pwned on the root element if it ran.
cat >payloads.json <<'EOF'
["\"><script src=p.js></script>",
 "x\" onmouseover=\"alert(1)",
 "</textarea><img src=x onerror=\"document.documentElement.setAttribute('data-pwned','img')\">",
 "]]><script>document.documentElement.setAttribute('data-pwned','cdata')</script>",
 "x' autofocus onfocus='document.documentElement.setAttribute(\"data-pwned\",\"focus\")' y='",
 "<svg onload=\"document.documentElement.setAttribute('data-pwned','svg')\"></svg>",
 "ctl\u0001\u001b[31m\u007f\r\t\n<!-- -->&amp;&#0;<![CDATA[x]]>\ufffe",
 "</title></style></script><script>document.title='pwned'</script>"]
EOF
cat >short.json <<'EOF'
["\"><script src=p></script>", "x\" onmouseover=\"alert(1)",
 "'><svg onload=alert(1)>", "]]></textarea>\u0001\u001b"]
EOF
cat >unit.json <<'EOF'
["x\" o=\"1", "<b>u</b>", "'<i>&", "\u0001]]>"]
EOF
printf '%s\n' "document.documentElement.setAttribute('data-pwned','p.js');" >p.js
cp p.js p

# Every string of a JSON document replaced (statuses, patterns and zone
# directions kept: the reader knows only its own), then hostile keys where
# keys are free.
cat >hostile.jq <<'EOF'
# pick(list; n; i): payload n of the list (cycling), marked with i
def pick($l; $n; $i): $l[$n % ($l|length)] + "~\($T)\($i)~";
[paths(type == "string")] as $ps
| reduce range(0; $ps|length) as $i (.;
    $ps[$i] as $p | $p[-1] as $k
    | if $k == "status" or $k == "pattern" or $k == "direction" then .
      elif $p[0] == "results" and $p[2] == "unit"
      then setpath($p; pick($U; $p[1]; $i))
      elif $p[0] == "results" and $p[2] == "name"
      then setpath($p; pick($S; $p[1]; $i))
      elif $p[0] == "results" and $p[2] == "title"
      then setpath($p; pick($S; $p[1] + 1; $i))
      else setpath($p; pick($P; $i; $i)) end)
EOF
# Only for clyde records: keys of tags, params, fs facts and device fields,
# a warning, a failed result's reason, workers' host names (MPI), a failed
# matrix cell and run.
cat >keys.jq <<'EOF'
def k($n): $P[$n % ($P|length)] + "~\($T)k\($n)~";
if .tags then .tags += {(k(0)): k(1), (k(2)): k(3)} else . end
| .params += {(k(4)): k(5)}
| .warnings += [k(6)]
| if .target.stack then
    .target.fs = ((.target.fs // {}) + {(k(7)): k(8)})
    | .target.stack |= map(. + {(k(9)): k(10)})
  else . end
| if (.results // []) != [] then (.results | length - 1) as $n
    | .results[$n] |= (.status = "failed" | .reason = k(11))
    | .results |= map(if .workers then .workers |= map(.host = k(14))
                      else . end)
  else . end
| if (.matrix.cells // []) != [] then
    (.matrix.cells | length - 1) as $n
    | .matrix.cells[$n] |= (.status = "failed" | .reason = k(12))
    | .matrix.error = k(13)
  else . end
EOF

# hostile TAG FILE...: the markers are "~TAG<i>~", unique on the page
hostile () {
	local tag=$1
	shift
	jq -c --arg T "$tag" --argjson P "$(cat payloads.json)" \
		--argjson S "$(cat short.json)" --argjson U "$(cat unit.json)" \
		-f hostile.jq "$@"
}
keys () {
	jq -c --arg T "$1" --argjson P "$(cat payloads.json)" -f keys.jq
}

# Whether some text or attribute value of page.html contains $1.
on_page () {
	test "$(xmllint --xpath "count(//text()[contains(., '$1')] | //@*[contains(., '$1')])" "${2:-page.html}")" -gt 0
}

test_expect_success JQ 'hostile clyde records from a real run and a real matrix' '
	test_disk_dir w &&
	mkdir in &&
	"$CLYDE" -c 2 -d "$w" -s 1M -f -n 1 -q --tag controller=fc -m lab \
		--json run.jsonl >/dev/null &&
	"$CLYDE" matrix -d "$w" --size 4M --bs 4k --threads 1 --pattern random \
		--mix 100,0 --time 0.1 --ramp 0 --curve 50 -q \
		--json mx.jsonl >/dev/null &&
	"$CLYDE" zones -d "$w" --size 4M --zone 1 --bs 64k -q \
		--json zones.jsonl >/dev/null 2>&1 &&
	# in a chroot whose root is no mount point the mount is unknown
	# (null): give every mount field a string for hostile to replace
	jq -c ".target.mountpoint //= \"/m\" | .target.source //= \"/dev/m\" |
		.target.vfs_options //= \"rw\" | .target.fs_options //= \"rw\"" \
		run.jsonl >run-mount.jsonl &&
	hostile r run-mount.jsonl | keys r >in/run.jsonl &&
	hostile m mx.jsonl | keys m >in/mx.jsonl &&
	hostile c "$FIX/clyde.jsonl" "$FIX/clyde-tcg.jsonl" | keys c >in/fix.jsonl &&
	hostile z zones.jsonl | keys z >in/zones.jsonl &&
	# every string was replaced: none of the original values is left
	for f in in/run.jsonl in/mx.jsonl in/fix.jsonl in/zones.jsonl; do
		jq -e "[paths(type == \"string\") as \$p |
			select(\$p[-1] != \"status\" and \$p[-1] != \"pattern\" and \$p[-1] != \"direction\") |
			getpath(\$p) | select(test(\"~[a-z]+[0-9]+~\") | not)] |
			length == 0" $f >/dev/null || return 1
	done &&
	test "$(jq "[.. | .workers? // empty | .[]] | length" in/run.jsonl)" -gt 0 &&
	test "$(jq ".target.stack | length" in/run.jsonl)" -gt 0
'

test_expect_success JQ 'hostile fio JSON: jobs, options, client/server hosts' '
	hostile fw "$FIX/fio-write.json" >in/fio-write.json &&
	hostile fr "$FIX/fio-randread-plus.json" >in/fio-randread-plus.json &&
	hostile fc "$FIX/fio-client.json" >in/fio-client.json &&
	# a job name and rw that fit the test name whole
	jq -c ".jobs[0][\"job options\"].rw = \"x\\\" on=\\\"a\" |
		.jobs[0].jobname = \"\\\"><script src=p.js></script>\"" \
		"$FIX/fio-write.json" >in/fio-rw.json &&
	jq -e ".client_stats[0].hostname | test(\"~\")" in/fio-client.json &&
	# fio text around concatenated documents (fio --output-format=normal,json)
	{ printf "%s\n" "<script src=p.js></script> fio-3.33" "x\" onmouseover=\"a" &&
	  cat in/fio-randread-plus.json &&
	  printf "%s\n" "]]></textarea>" &&
	  jq -c ".jobs[0].jobname = \"</textarea>~cat~\"" "$FIX/fio-write.json"; } >in/fio-concat.txt
'

test_expect_success 'hostile bonnie++ CSV: name, version and every text field' '
	# 1.98: version, name, size, chunk size, a value, latencies; 1.03: name
	# and size; and a file name that is markup
	while read -r p; do
		printf "1.98,%s,%s,1,1,%s,%s,8192,5,1357,99,+++++,+++,+++++,+++,1891,99,+++++,+++,+++++,+++,1,,,,,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,%sus,69us,61us,4539us,112us,8044us,596us,102us,300us,1078us,10us,102us\\n" \
			"$p" "$p" "$p" "$p" "$p"
		printf "%s,300M,21340,89,40123,25,15234,12,20987,88,45678,18,215.3,1,16,1234,98,+++++,+++,2345,97,1300,99,+++++,+++,1987,95\\n" "$p"
	done >"in/\"><img src=x onerror=alert(1)>.csv" <<-\EOF
	"><script src=p.js></script>
	x" onmouseover="alert(1)
	</textarea><svg onload=alert(1)>
	]]>&amp;<!--
	EOF
	printf "1.98,2.00a,ctl\\001\\033[31m\\177,1,1,64M,,8192,5,1,1,2,2,3,3,4,4,5,5,6,6,1,,,,,7,7,8,8,9,9,10,10,11,11,12,12,1us,1us,1us,1us,1us,1us,1us,1us,1us,1us,1us,1us\\n" >in/ctl.csv
'

test_expect_success XMLLINT,JQ 'the page of every hostile input is well-formed XML' '
	"$CLYDE" report -t "</title><script>alert(1)</script>" -o page.html \
		in/* 2>err &&
	xmllint --noout page.html &&
	grep -q "is not a size" err
'

test_expect_success XMLLINT,JQ 'no element or attribute from the input' '
	test "$(xmllint --xpath "count(//*[local-name()=\"script\"])" page.html)" = 1 &&
	test "$(xmllint --xpath "count(//*[local-name()=\"img\" or local-name()=\"textarea\" or local-name()=\"iframe\" or local-name()=\"i\" or local-name()=\"u\"])" page.html)" = 0 &&
	test "$(xmllint --xpath "count(//@*[starts-with(local-name(), \"on\")] | //@src | //@autofocus | //@data-pwned)" page.html)" = 0 &&
	# the charts: one per test, the response-time curve, the zones,
	# the matrix against block size and threads and its legend
	test "$(xmllint --xpath "count(//*[local-name()=\"svg\"][not(parent::*[@class=\"chart\"])][not(@class=\"curve\" or @class=\"zones-chart\" or @class=\"mxchart\" or @class=\"mxlegend\")])" page.html)" = 0 &&
	test "$(xmllint --xpath "count(//*[local-name()=\"svg\"][@class=\"curve\"])" page.html)" -ge 1 &&
	test "$(xmllint --xpath "count(//*[local-name()=\"svg\"][@class=\"zones-chart\"])" page.html)" = 1 &&
	test "$(xmllint --xpath "count(//*[local-name()=\"b\"][not(ancestor::*[@class=\"meta\" or @class=\"note\"])])" page.html)" = 0 &&
	# the elements and attributes are the page'"'"'s own vocabulary
	sed -e "/<script>/,/<\\/script>/d" -e "/<style>/,/<\\/style>/d" page.html |
		grep -o "<[a-zA-Z][a-zA-Z0-9:-]*" | sort -u >elements &&
	grep -vxE "<(html|head|meta|title|body|h1|h2|h3|h4|p|b|a|code|small|span|table|caption|thead|tbody|tr|th|td|details|summary|dl|dt|dd|ul|li|div|svg|g|text|rect|line|polyline|polygon|circle|path|tspan)" elements >bad-elements;
	test_line_count = 0 bad-elements &&
	sed -e "/<script>/,/<\\/script>/d" -e "/<style>/,/<\\/style>/d" page.html |
		grep -oE " [a-zA-Z_:][-a-zA-Z0-9_:.]*=\"" | sort -u >attrs &&
	grep -vxE " (xmlns|lang|charset|name|content|id|class|href|title|style|colspan|rowspan|open|role|width|height|x|y|dy|x1|y1|x2|y2|cx|cy|r|d|points|fill|stroke|stroke-width|stroke-dasharray|transform|aria-label|text-anchor|data-[a-z-]+)=\"" attrs >bad-attrs;
	test_line_count = 0 bad-attrs
'

# One marker per kind of field: it reached the page (as text or an
# attribute value), so the checks above saw it.
field () {
	jq -r "$2" "in/$1" | grep -o "~[a-z]*[0-9]*~" | sed -n 1p
}
test_expect_success XMLLINT,JQ 'every kind of string field reached the page' '
	for q in \
		"run.jsonl .label" "run.jsonl .host.hostname" \
		"run.jsonl .host.kernel" "run.jsonl .host.cpu_model" \
		"run.jsonl .host.virt.evidence" "run.jsonl .target.path" \
		"run.jsonl .target.mountpoint" "run.jsonl .target.source" \
		"run.jsonl .target.vfs_options" "run.jsonl .target.fs_options" \
		"run.jsonl .target.stack[0].name" "run.jsonl .target.stack[0].kind" \
		"run.jsonl (.target.stack[0]|to_entries[-1].key)" \
		"run.jsonl (.target.stack[0]|to_entries[-1].value)" \
		"run.jsonl (.target.fs|to_entries[-1].key)" \
		"run.jsonl (.tags|keys[])" "run.jsonl .tags[]" \
		"run.jsonl (.params|keys[])" "run.jsonl .params.directory" \
		"run.jsonl .warnings[]" "run.jsonl .results[0].name" \
		"run.jsonl .results[0].title" "run.jsonl .results[0].unit" \
		"run.jsonl .results[-1].reason" \
		"run.jsonl .results[].workers[]?.host" \
		"run.jsonl .results[].workers[]?.dir" \
		"run.jsonl .tool" "run.jsonl .version" "run.jsonl .start" \
		"mx.jsonl .matrix.error" "mx.jsonl .matrix.cells[-1].reason" \
		"zones.jsonl .label" "zones.jsonl .target.path" \
		"fix.jsonl .host.virt.emulation" \
		"fio-write.json .jobs[0].jobname" \
		"fio-client.json .client_stats[0].hostname" \
		"fio-client.json .client_stats[0].jobname" \
		"fio-write.json (.\"fio version\")"
	do
		m=$(field "${q%% *}" "${q#* }") && test -n "$m" &&
		{ on_page "$m" || { echo "not on the page: $q ($m)" >&2; return 1; }; } ||
		return 1
	done &&
	# a test name from a record and from fio rw, whole, as data-test
	xmllint --xpath "//@data-test" page.html >data-test &&
	grep -q "data-test=\"fio_x&quot; on=&quot;a_write\"" data-test &&
	grep -q "data-test=\"x&quot; onmouseover=&quot;alert(1)~r[0-9]*~\"" data-test &&
	on_page "><script src=p.js></script>" &&
	on_page "\"><script src=p></script>~r" &&
	on_page "</textarea><svg onload=alert(1)>" &&
	# the job of the concatenated fio output
	on_page "</textarea>~cat~" &&
	grep -q "<code>in/&quot;&gt;&lt;img src=x onerror=alert(1)&gt;.csv</code>" page.html &&
	grep -q "<title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>" page.html
'

# The page's escaping of a value, as text (esc_text) or inside an attribute
# (esc_attr): & < > " ' as references, control characters, U+FFFE and
# (in attributes) tab and newline as the emitter writes them.
esc_text () {
	perl -0777 -pe 's/&/&amp;/g; s/</&lt;/g; s/>/&gt;/g; s/"/&quot;/g;
		s/\x27/&#39;/g; s/[\x00-\x08\x0b-\x1f\x7f]|\xef\xbf\xbe/\xef\xbf\xbd/g'
}
esc_attr () {
	esc_text | perl -0777 -pe 's/\t/&#9;/g; s/\n/&#10;/g'
}
# An id made of a name (h_slug): bytes outside [A-Za-z0-9_-] as ".xx".
slug () {
	perl -0777 -pe 's/([^A-Za-z0-9_-])/sprintf(".%02x", ord $1)/ge'
}
# has BEFORE FILE EXPR AFTER ESC: the value of EXPR in in/FILE, escaped by
# ESC, stands whole between BEFORE and AFTER somewhere in the page
has () {
	printf "%s%s%s" "$1" "$(jq -nj "input | $3" "in/$2" | $5)" "$4" >want &&
	grep -qF -f want page.html ||
	{ echo "not on the page whole: $2 $3" >&2; return 1; }
}

test_expect_success JQ 'test names, tag keys, fio job names, mount options: whole and escaped' '
	has "data-test=\"" run.jsonl ".results[0].name" "\"" esc_attr &&
	has "data-test=\"" run.jsonl ".results[1].name" "\"" esc_attr &&
	has "<tr data-test=\"" run.jsonl "[.results[] | select(.workers) | .name][0]" "\"" esc_attr &&
	has "id=\"chart-" run.jsonl ".results[1].name" "\"" slug &&
	has "id=\"lat-" run.jsonl ".results[1].name" "\"" slug &&
	# ids from names are unique on the page
	grep -o " id=\"[^\"]*\"" page.html | sort | uniq -d >dup-ids &&
	test_line_count = 0 dup-ids &&
	has "<dt>tag " run.jsonl ".tags | keys[0]" "</dt><dd>" esc_text &&
	has "<dt>tag " run.jsonl ".tags | keys[1]" "</dt><dd>" esc_text &&
	has "</dt><dd>" run.jsonl ".tags[(.tags | keys[0])]" "</dd>" esc_text &&
	has "<dt>mount options</dt><dd>" run.jsonl ".target.vfs_options" "</dd>" esc_text &&
	has "<dt>fs options</dt><dd>" run.jsonl ".target.fs_options" "</dd>" esc_text &&
	has "<dt>mount options</dt><dd>" fix.jsonl ".target.vfs_options" "</dd>" esc_text &&
	has ">" fio-write.json ".jobs[0].jobname" "<" esc_text &&
	has ">" fio-client.json ".client_stats[0].jobname" "<" esc_text &&
	has "<dt>host</dt><dd>" fio-client.json ".client_stats[0].hostname" "</dd>" esc_text &&
	has "title=\"" run.jsonl "[.results[] | select(.workers) | .workers[0].host][0]" " " esc_attr
'

test_expect_success CHROMIUM 'in headless Chromium no injected script runs' '
	chrome=$(command -v chromium || command -v chromium-browser) &&
	timeout 120 "$chrome" --headless --no-sandbox --disable-gpu \
		--disable-quic --no-first-run --disable-background-networking \
		--disable-component-update --disable-sync \
		--user-data-dir="$TRASH/chrome" --virtual-time-budget=3000 \
		--dump-dom "file://$TRASH/page.html" >dom.html 2>chrome.err &&
	# the page loaded and its own script ran (the sortable headers)
	grep -q "config-table" dom.html &&
	grep -q "</html>" dom.html &&
	xmllint --html --xpath "count(//@data-pwned)" dom.html 2>/dev/null >n &&
	test "$(cat n)" = 0 &&
	xmllint --html --xpath "string(//title)" dom.html 2>/dev/null >n &&
	grep -q "^</title><script>alert(1)</script>$" n &&
	xmllint --html --xpath "count(//script)" dom.html 2>/dev/null >n &&
	test "$(cat n)" = 1 &&
	xmllint --html --xpath "count(//img | //textarea | //iframe | //@*[starts-with(name(), \"on\")] | //@src | //@autofocus)" dom.html 2>/dev/null >n &&
	test "$(cat n)" = 0
'
test_have_prereq CHROMIUM ||
	test_comment "chromium is not installed (make deps, or scripts/install-deps --browser, installs it)"

test_done
