#!/bin/bash
# The layers and the size of the sources (DESIGN.md, issues 12 and 23):
# clyde.c -> bench -> fsops; bench and clyde.c -> report; report includes
# neither bench nor fsops (it works on records only), fsops neither report
# nor bench, lib/ none of them.  Inside report/ the folders are its
# pipeline and point one way: the command (report/*.c) -> write ->
# analyze -> model, import and json -> model; nothing below includes
# anything above.  Inside bench/ the commands' folders (classic, matrix,
# zones) use parallel/ (workers, semaphores, MPI) and the command plumbing
# in bench/ itself, never each other; the plumbing uses none of them.
# Files are split where a concept ends, not at a line count; what a
# reader must hold in their head is a function: none over MAX_FUNC lines.
# Includes point one way inside a folder too: no two .c files each
# include (directly or through headers) the other's header (X.h of X.c),
# and no header includes itself (issue 25 section 4).
. "$(dirname "$0")/lib.sh"

MAX_FUNC=80
# Functions over MAX_FUNC lines when the cap came (issues 23 and 25), each
# with the length it must not grow past until it is split (then its entry
# goes): a ratchet, NAME@FILE:LINES.
KNOWN_LONG=""

# "LINES FILE NAME" for every function definition of the C files named,
# in the style this tree is written in (the name's line starts with the
# type, the body runs from a line "{" to the first line "}").
FUNCS_AWK='
FNR == 1 { infn = 0; pending = 0 }
!infn && /^[A-Za-z_][A-Za-z0-9_ \t*]*\(/ && !/;[ \t]*$/ {
	start = FNR; name = $0
	sub(/\(.*/, "", name); n = split(name, w, /[ \t*]+/)
	name = w[n]; pending = 1
}
pending && /^\{/ { infn = 1; pending = 0; next }
pending && /;[ \t]*$/ { pending = 0 }
infn && /^\}/ { print FNR - start + 1, FILENAME, name; infn = 0 }
'

# layer_of PATH (relative to the tree): lib, fsops, report, bench, top, or
# other (generated templates, t/)
layer_of () {
	case $1 in
	lib/*) echo lib ;;
	fsops/*) echo fsops ;;
	report/model/*) echo report-model ;;
	report/json/*) echo report-json ;;
	report/import/*) echo report-import ;;
	report/analyze/*) echo report-analyze ;;
	report/write/*) echo report-write ;;
	report/*) echo report ;;
	bench/classic/*) echo bench-classic ;;
	bench/matrix/*) echo bench-matrix ;;
	bench/zones/*) echo bench-zones ;;
	bench/parallel/*) echo bench-parallel ;;
	bench/*) echo bench ;;
	clyde.c) echo top ;;
	*) echo other ;;
	esac
}

REPORT="report report-write report-analyze report-import report-json report-model"
BENCH="bench bench-classic bench-matrix bench-zones bench-parallel"

# What a layer must not include.
forbidden () {
	case $1 in
	lib) echo "fsops $REPORT $BENCH top" ;;
	fsops) echo "$REPORT $BENCH top" ;;
	report) echo "fsops $BENCH top" ;;
	report-write) echo "report report-import fsops $BENCH top" ;;
	report-analyze) echo "report report-write report-import report-json fsops $BENCH top" ;;
	report-import) echo "report report-write report-analyze fsops $BENCH top" ;;
	report-json) echo "report report-write report-analyze report-import fsops $BENCH top" ;;
	report-model) echo "report report-write report-analyze report-import report-json fsops $BENCH top" ;;
	bench) echo "bench-classic bench-matrix bench-zones bench-parallel top" ;;
	bench-parallel) echo "bench-classic bench-matrix bench-zones top" ;;
	bench-classic) echo "bench-matrix bench-zones top" ;;
	bench-matrix) echo "bench-classic bench-zones top" ;;
	bench-zones) echo "bench-classic bench-matrix top" ;;
	esac
}

# includes: "FILE LAYER-INCLUDED INCLUDED" for every #include "..." of the
# layered sources, the included path resolved as the compiler does (the
# including file's directory first, then the tree: -I.)
includes () {
	local f dir inc path
	(cd "$SRC_DIR" && ls lib/*.[ch] fsops/*.[ch] report/*.[ch] report/*/*.[ch] bench/*.[ch] bench/*/*.[ch] clyde.c) |
	while read -r f; do
		dir=$(dirname "$f")
		sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' \
			"$SRC_DIR/$f" |
		while read -r inc; do
			if [ -e "$SRC_DIR/$dir/$inc" ]; then
				path=$(realpath -m --relative-to="$SRC_DIR" "$SRC_DIR/$dir/$inc")
			else
				path=$(realpath -m --relative-to="$SRC_DIR" "$SRC_DIR/$inc")
			fi
			echo "$f $(layer_of "$path") $path"
		done
	done
}

test_expect_success 'no layer includes one above it' '
	includes >all && test -s all &&
	: >bad &&
	while read -r f layer path; do
		for no in $(forbidden "$(layer_of "$f")"); do
			[ "$layer" != "$no" ] || echo "$f includes $path ($layer)" >>bad
		done
	done <all &&
	echo "$(wc -l <all) includes checked" &&
	{ ! test -s bad || { cat bad; false; }; }
'

test_expect_success 'the check sees every layer (write -> analyze -> model, import and json -> model, bench -> fsops)' '
	grep -q "^report/write/[^ ]* report-analyze " all &&
	grep -q "^report/analyze/[^ ]* report-model " all &&
	grep -q "^report/json/[^ ]* report-model " all &&
	grep -q "^report/import/[^ ]* report-model " all &&
	grep -q "^report/[^/ ]* report-write " all &&
	grep -q "^bench/classic/[^ ]* bench-parallel " all &&
	grep -q "^bench/matrix/[^ ]* bench " all &&
	grep -q "^bench/[^ ]* fsops " all &&
	grep -q "^bench/[^ ]* report-model " all && grep -q "^fsops/[^ ]* lib " all
'

# circles: reads "FILE HEADER" lines (every #include of the tree's own
# headers, resolved); prints "A.c <-> B.c" for two .c files each reaching
# the other's header X.h through includes, and "header cycle: H" for a
# header that reaches itself
circles () {
	awk '
	{ inc[$1] = inc[$1] " " $2; file[$1] = 1 }
	function walk(f, start,   n, i, a) {
		n = split(inc[f], a, " ")
		for (i = 1; i <= n; i++) {
			if (a[i] == start)
				cyc[start] = 1
			if ((start SUBSEP a[i]) in reach)
				continue
			reach[start, a[i]] = 1
			walk(a[i], start)
		}
	}
	function stem(f) { sub(/\.[ch]$/, "", f); return f }
	END {
		for (f in file)
			walk(f, f)
		for (f in cyc)
			if (f ~ /\.h$/)
				print "header cycle: " f
		for (k in reach) {
			split(k, p, SUBSEP); a = p[1]; b = stem(p[2]) ".c"
			if (a !~ /\.c$/ || b == a || !(b in file))
				continue
			if (a < b && ((b SUBSEP stem(a) ".h") in reach))
				print a " <-> " b
		}
	}' | sort
}

# Circles there were when the check came, each to be broken by the area
# that owns it (then its entry goes): "A.c<->B.c".
KNOWN_CIRCLES="\
	report/analyze/compare_matrix.c<->report/analyze/figures.c \
	report/model/layers.c<->report/model/record.c \
	report/model/matrix.c<->report/model/record.c \
	report/model/matrix_extras.c<->report/model/record.c \
	report/model/record.c<->report/model/record_util.c \
	report/model/record.c<->report/model/zones.c"

test_expect_success 'no include circle: two .c files each including the other'"'"'s header, or a header including itself' '
	sed -n "s/^\([^ ]*\) [^ ]* \([^ ]*\.h\)$/\1 \2/p" all >edges &&
	test -s edges &&
	circles <edges >found &&
	: >bad &&
	while read -r a arrow b; do
		case " $(echo $KNOWN_CIRCLES) " in
		*" $a<->$b "*) ;;
		*) echo "$a $arrow $b" >>bad ;;
		esac
	done <found &&
	{ ! test -s bad || { echo "include circles:"; cat bad; false; }; }
'

test_expect_success 'the circle check sees a planted circle and a planted header cycle' '
	printf "%s\n" "x/a.c x/b.h" "x/b.c x/b.h" "x/b.h x/a.h" \
		"x/a.c x/a.h" "x/c.h x/d.h" "x/d.h x/c.h" "x/e.c x/c.h" |
		circles >planted &&
	grep -qx "x/a.c <-> x/b.c" planted &&
	grep -qx "header cycle: x/c.h" planted &&
	grep -qx "header cycle: x/d.h" planted &&
	test "$(wc -l <planted)" = 3
'

test_expect_success "no function over $MAX_FUNC lines (t/ excepted, the known ones not growing)" '
	(cd "$SRC_DIR" && { git ls-files -co --exclude-standard -- "*.c" 2>/dev/null ||
	 find . -name "*.c" | sed "s|^\./||"; } |
	 grep -v "^t/" | grep -v "^templates/templates\.c$" | sort -u |
	 xargs awk "$FUNCS_AWK") >lengths &&
	test "$(wc -l <lengths)" -gt 1000 &&
	: >over &&
	while read -r n f name; do
		[ "$n" -gt $MAX_FUNC ] || continue
		max=$MAX_FUNC
		for k in $KNOWN_LONG; do
			[ "${k%:*}" != "$name@$f" ] || max=${k##*:}
		done
		[ "$n" -le "$max" ] || echo "$f: $name() is $n lines (at most $max)" >>over
	done <lengths &&
	{ ! test -s over || { echo "too long:"; cat over; false; }; }
'

test_expect_success 'the count sees a planted 83-line function' '
	{ echo "static int planted(int i)"; echo "{"
	  i=0; while [ $i -lt 80 ]; do echo "	i++;"; i=$((i + 1)); done
	  echo "}"; } >planted.c &&
	awk "$FUNCS_AWK" planted.c >one &&
	test "$(cat one)" = "83 planted.c planted"
'

test_done
