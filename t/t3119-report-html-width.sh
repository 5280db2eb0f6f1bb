#!/bin/bash
# clyde report HTML at 1400 pixels: in headless Chromium, no table and no
# chart of a report of 2 to 4 configurations is wider than the window (a
# matrix of seed 000's eight cells for three configurations, a bonnie++
# comparison, both in one page).  Measured in the browser: a script added
# to a copy of the page writes each table's and svg's right edge into the
# DOM, which --dump-dom prints.
. "$(dirname "$0")/lib.sh"

FIX=$TEST_DIR/fixtures/report

test_lazy_prereq CHROMIUM '
	command -v chromium || command -v chromium-browser
'
test_have_prereq CHROMIUM ||
	test_skip_all 'chromium is not installed (scripts/install-deps --browser installs it); the widths are measured in it'

# widths PAGE: "tag id-or-class right-edge" per table and svg, at 1400 px
widths () {
	sed 's|</body>|<script>window.addEventListener("load",function(){var o=[];document.querySelectorAll("table,svg").forEach(function(e){var r=e.getBoundingClientRect();o.push(e.tagName+" "+(e.getAttribute("id")\|\|e.getAttribute("class")\|\|"-")+" "+Math.ceil(Math.max(r.right,r.left+e.scrollWidth)))});var p=document.createElement("pre");p.id="widths";p.textContent=o.join("\\n");document.body.appendChild(p)});</script></body>|' "$1" >measure.html &&
	chrome=$(command -v chromium || command -v chromium-browser) &&
	timeout 120 "$chrome" --headless --no-sandbox --disable-gpu \
		--disable-quic --no-first-run --disable-background-networking \
		--disable-component-update --disable-sync \
		--user-data-dir="$TRASH/chrome" --window-size=1400,2000 \
		--virtual-time-budget=2000 --dump-dom \
		"file://$TRASH/measure.html" 2>chrome.err |
	sed -n '/<pre id="widths">/,/<\/pre>/p' |
	sed 's/<[^>]*>//g' | grep -v '^$' >"$2"
}

# probe PAGE OUT: what a reader of PAGE at 1400 px sees of its charts, a
# line each: "CLIP svg-class text" for every text of an svg not wholly
# inside it, "LABEL text" for every bar's label, "KEY text" for every
# legend entry (its lines joined), "NAME text" for every bar name in full
probe () {
	cat >probe.js <<-\EOF &&
	window.addEventListener("load", function () {
		var o = [];
		document.querySelectorAll("svg").forEach(function (s) {
			var b = s.getBoundingClientRect();
			s.querySelectorAll("text").forEach(function (t) {
				var r = t.getBoundingClientRect();
				if (r.left < b.left - 1 || r.right > b.right + 1 ||
				    r.top < b.top - 1 || r.bottom > b.bottom + 1)
					o.push("CLIP " + s.getAttribute("class") + " " + t.textContent);
			});
		});
		document.querySelectorAll("div.chart text.label").forEach(function (t) {
			o.push("LABEL " + t.textContent);
		});
		document.querySelectorAll("g.key text").forEach(function (t) {
			var l = [];
			t.querySelectorAll("tspan").forEach(function (x) { l.push(x.textContent); });
			o.push("KEY " + l.join(""));
		});
		document.querySelectorAll("#chart-names li").forEach(function (t) {
			o.push("NAME " + t.textContent);
		});
		var p = document.createElement("pre");
		p.id = "probe";
		p.textContent = o.join("\n");
		document.body.appendChild(p);
	});
	EOF
	perl -pe 'BEGIN { local $/; open(F, "probe.js") or die; $js = <F> } s|</body>|<script>$js</script></body>|' "$1" >probe.html &&
	chrome=$(command -v chromium || command -v chromium-browser) &&
	timeout 120 "$chrome" --headless --no-sandbox --disable-gpu \
		--disable-quic --no-first-run --disable-background-networking \
		--disable-component-update --disable-sync \
		--user-data-dir="$TRASH/chrome" --window-size=1400,2000 \
		--virtual-time-budget=2000 --dump-dom \
		"file://$TRASH/probe.html" 2>chrome.err |
	sed -n '/<pre id="probe">/,/<\/pre>/p' |
	sed -e 's/<[^>]*>//g' -e 's/&amp;/\&/g' | grep -v '^$' >"$2"
}

# too_wide LIST: the lines of LIST wider than 1400 px; fails when any
too_wide () {
	test -s "$1" &&
	awk '$3 > 1400 { print; bad = 1 } END { exit bad }' "$1"
}

test_expect_success 'matrix of three configurations: every table and chart fits 1400 px' '
	dir=$(mktemp -d /dev/shm/t3119.XXXXXX) &&
	test_cleanup "rm -rf \"$dir\"" &&
	for l in raid10-fs7200 draid6-fs7200 raid5-v7000; do
		"$CLYDE" matrix -d "$dir" --profile xdisk --bs 8k --threads 1 \
			--size 2M --time 0.03 --ramp 0 -m $l \
			--json m.jsonl >/dev/null 2>&1 || return 1
	done &&
	"$CLYDE" report -o page.html m.jsonl &&
	widths page.html w.txt &&
	grep -q "^TABLE mx-" w.txt &&
	too_wide w.txt
'

test_expect_success 'bonnie++ comparison: every table and chart fits 1400 px' '
	"$CLYDE" report -o page.html "$FIX/bonnie-1.03.csv" &&
	widths page.html w.txt &&
	grep -q "^TABLE bonnie-table" w.txt &&
	too_wide w.txt
'

test_expect_success XMLLINT,JQ 'a VM mark every configuration has is said once, not on every column head or row' '
	jq -c ".host.virt = {\"vm\": true, \"hypervisor\": \"KVM\"}" m.jsonl >vm.jsonl &&
	"$CLYDE" report -o page.html vm.jsonl &&
	test "$(xmllint --xpath "string(//*[@id=\"vm-all\"]/*[@class=\"vm\"])" page.html)" = "[VM: KVM]" &&
	test "$(xmllint --xpath "count(//*[@class=\"matrix\"]//*[@class=\"vm\"])" page.html)" = 0 &&
	# nor on every row of the other tables (configurations, curves)
	test "$(xmllint --xpath "count(//*[@class=\"cfg\"]//*[@class=\"vm\"])" page.html)" = 0 &&
	test "$(xmllint --xpath "count(//*[@class=\"matrix\"]//*[@class=\"cfg\"])" page.html)" -ge 3
'

test_expect_success XMLLINT 'response-time chart: points joined in order of achieved IO/s, the uncapped maximum marked' '
	dir=$(mktemp -d /dev/shm/t3119.XXXXXX) &&
	test_cleanup "rm -rf \"$dir\"" &&
	for l in c-a c-b; do
		"$CLYDE" matrix -d "$dir" --bs 4k --threads 1 --pattern random \
			--mix 100 --size 2M --time 0.05 --ramp 0 -m $l \
			--curve 30,60,100 --json c.jsonl >/dev/null 2>&1 || return 1
	done &&
	"$CLYDE" report -o page.html c.jsonl &&
	svg="//*[local-name()=\"svg\"][@class=\"curve\"]" &&
	test "$(xmllint --xpath "count(($svg)[1]//*[local-name()=\"circle\"][@data-pct=\"max\"])" page.html)" = 2 &&
	for g in 1 2; do
		xmllint --xpath "string(($svg)[1]//*[local-name()=\"polyline\"][@data-group=\"$g\"]/@points)" page.html |
		tr " " "\n" | cut -d, -f1 >x$g &&
		test "$(wc -l <x$g)" = 4 &&
		sort -n x$g | test_cmp - x$g || return 1
	done
'

test_expect_success JQ 'a mixed page of four configurations at 1400 px: no label, legend or value cut' '
	dir=$(mktemp -d /dev/shm/t3119.XXXXXX) &&
	test_cleanup "rm -rf \"$dir\"" &&
	# a bonnie++ 1.03 line and a clyde run of one label, told apart by
	# what differs (names as long as issue 22 saw them)
	sed -n "1p;2s/^old-scsi-ext3,/fc-single-ext3-1disks,/p" \
		"$FIX/bonnie-1.03.csv" >b.csv &&
	"$CLYDE" -d "$dir" -s 4M -n 1 -m fc-single-ext3-1disks \
		--tag controller=fc --char-io stdio -b -q \
		--json r.jsonl >/dev/null 2>&1 &&
	jq -c ".host.virt = {\"vm\": true, \"hypervisor\": \"KVM\"}" r.jsonl >cl.jsonl &&
	# a matrix pair over two block sizes and thread counts whose curve
	# points cannot reach a target of a billion IO/s
	for l in vsp-8k-hit-cache-area-1m vsp-8k-miss-cache-area-none; do
		"$CLYDE" matrix -d "$dir" --bs 4k,8k --threads 1,2 \
			--pattern random --mix 100 --size 2M --time 0.03 \
			--ramp 0 --curve 50,100 --curve-max 1000000000 -m $l \
			--json mx.jsonl >/dev/null 2>&1 || return 1
	done &&
	"$CLYDE" report -o page.html b.csv cl.jsonl mx.jsonl &&
	widths page.html w.txt &&
	too_wide w.txt &&
	probe page.html p.txt &&
	grep "^LABEL " p.txt >labels &&
	grep -q "^NAME " p.txt &&
	grep -q "^LABEL \[1\] fc-single-ext3-1disks$" labels &&
	grep -q "^LABEL \[2\] fc-single-ext3-1disks \[VM\]$" labels &&
	# every label the start (or all) of its name in full, ext3 kept
	while read -r _ n rest; do
		full=$(grep -F "NAME $n " p.txt | head -1 | cut -d" " -f2-) &&
		short="$n ${rest% \[VM\]}" &&
		short=${short%...} &&
		case "$full" in "$short"*) ;; *) echo "cut: $n $rest"; return 1;; esac &&
		case "$full" in *ext3*) case "$short" in *ext3*) ;; *) return 1;; esac;; esac ||
		return 1
	done <labels &&
	# the legends in full: the configurations, the uncapped maximum, the
	# points that fell short (a triangle each on the chart)
	# (the VM mark of the host that ran them, if any, after the name)
	grep -q "^KEY \[3\] vsp-8k-hit-cache-area-1m\( \[VM: [^]]*\]\)\?$" p.txt &&
	grep -q "^KEY \[4\] vsp-8k-miss-cache-area-none\( \[VM: [^]]*\]\)\?$" p.txt &&
	grep -q "^KEY target not reached" p.txt &&
	grep -q "^KEY uncapped maximum" p.txt &&
	test "$(grep -c "<polygon[^>]*class=\"short\"" page.html)" -ge 2 &&
	# the chart against block size and threads
	grep -q "class=\"mxchart\"" page.html &&
	! grep "^CLIP " p.txt
'

test_done
