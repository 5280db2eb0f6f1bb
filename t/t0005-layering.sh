#!/bin/bash
# The layers and the size of the sources (DESIGN.md, issue 12): clyde.c ->
# bench -> fsops; bench and clyde.c -> report; report includes neither
# bench nor fsops (it works on records only), fsops neither report nor
# bench, lib/ none of them.  And no source file (t/ excepted) grows past
# what a reader holds in their head: over 650 lines fails (but for the
# files still waiting for their split, which must not grow), over 600 is
# named.
. "$(dirname "$0")/lib.sh"

MAX_LINES=650
WARN_LINES=600
# Files over MAX_LINES when this test came, each with the ceiling it must
# not grow past until its split lands (then its entry goes): a ratchet.
KNOWN_OVER=""

# layer_of PATH (relative to the tree): lib, fsops, report, bench, top, or
# other (generated templates, t/)
layer_of () {
	case $1 in
	lib/*) echo lib ;;
	fsops/*) echo fsops ;;
	report/*) echo report ;;
	bench/*) echo bench ;;
	clyde.c) echo top ;;
	*) echo other ;;
	esac
}

# What a layer must not include.
forbidden () {
	case $1 in
	lib) echo "fsops report bench top" ;;
	fsops) echo "report bench top" ;;
	report) echo "fsops bench top" ;;
	bench) echo "top" ;;
	esac
}

# includes: "FILE LAYER-INCLUDED INCLUDED" for every #include "..." of the
# layered sources, the included path resolved as the compiler does (the
# including file's directory first, then the tree: -I.)
includes () {
	local f dir inc path
	(cd "$SRC_DIR" && ls lib/*.[ch] fsops/*.[ch] report/*.[ch] bench/*.[ch] clyde.c) |
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

test_expect_success 'the check sees every layer (report -> report, bench -> fsops)' '
	grep -q "^report/[^ ]* report " all && grep -q "^bench/[^ ]* fsops " all &&
	grep -q "^bench/[^ ]* report " all && grep -q "^fsops/[^ ]* lib " all
'

test_expect_success "no source file over $MAX_LINES lines (t/ excepted); those over $WARN_LINES named" '
	(cd "$SRC_DIR" && git ls-files -co --exclude-standard -- "*.c" "*.h" 2>/dev/null ||
	 find . -name "*.[ch]" | sed "s|^\./||") |
	grep -v "^t/" | grep -v "^templates/templates\.c$" | sort -u >files &&
	test -s files &&
	: >over && : >big &&
	while read -r f; do
		[ -f "$SRC_DIR/$f" ] || continue
		n=$(wc -l <"$SRC_DIR/$f")
		[ "$n" -le $WARN_LINES ] || echo "$n $f" >>big
		max=$MAX_LINES
		for k in $KNOWN_OVER; do
			[ "${k%:*}" != "$f" ] || max=${k#*:}
		done
		[ "$n" -le "$max" ] || echo "$n $f (at most $max)" >>over
	done <files &&
	if test -s big; then
		echo "over $WARN_LINES lines (to split):"; sort -rn big
	fi &&
	{ ! test -s over || { echo "too long:"; sort -rn over; false; }; }
'

test_done
