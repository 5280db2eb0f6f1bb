#!/bin/bash
# The real-world corpus (shared/realworld beside the repository: real
# bonnie++ and fio outputs from public repositories): clyde report reads
# every file without crashing, keeps every run and leaves every value as
# the file gave it.  What clyde's long CSV says is compared with a parse
# of the file that does not go through clyde: awk for bonnie++ CSV, jq for
# fio JSON.  CLYDE_REALWORLD names another folder.  A bonnie++ line
# written twice in a file is read once (laura-dietz's line 3 is line 1).
. "$(dirname "$0")/lib.sh"

top=$(git -C "$SRC_DIR" rev-parse --show-toplevel 2>/dev/null || echo "$SRC_DIR")
RW=${CLYDE_REALWORLD:-$top/../shared/realworld}
# a worktree (/work/wt/NAME) has the shared folder one level further up
[ -n "${CLYDE_REALWORLD:-}" ] || [ -d "$RW" ] || RW=$top/../../shared/realworld
[ -d "$RW" ] ||
	test_skip_all "no real-world corpus at '$RW' (set CLYDE_REALWORLD)"
test_have_prereq JQ || test_skip_all 'jq is needed to read fio JSON'

# The long CSV as "FIELD<TAB>FIELD..." with the quotes undone (RFC 4180;
# mawk has no FPAT), one line per row, header first.
csv_to_tsv () {
	awk '
	{
		line = $0; out = ""; f = ""; q = 0
		for (i = 1; i <= length(line); i++) {
			c = substr(line, i, 1)
			if (q) {
				if (c == "\"" && substr(line, i + 1, 1) == "\"") {
					f = f "\""; i++
				} else if (c == "\"") {
					q = 0
				} else {
					f = f c
				}
			} else if (c == "\"") {
				q = 1
			} else if (c == ",") {
				out = out f "\t"; f = ""
			} else {
				f = f c
			}
		}
		print out f
	}'
}

# clyde's view: "LINE TEST STATUS VALUE CPU LOWPREC LATMAX_US" for each
# bonnie++ result that ran (a test no run ran has no row), or "LABEL DIR VALUE" for each fio result (no matrix
# rows), from `clyde report -f csv`
clyde_rows () {
	csv_to_tsv <long.csv | awk -F '\t' -v kind="$1" '
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	{
		src = $col["source"]; test = $col["test"]
		if (kind == "bonnie") {
			if ($col["status"] == "not run")
				next
			sub(/ \(.*/, "", src); sub(/.*:/, "", src)
			printf "%s %s %s %s %s %s %s\n", src, test,
				$col["status"] == "not run" ? "not_run" : $col["status"],
				$col["value"] == "" ? "-" : $col["value"],
				$col["cpu"] == "" ? "-" : $col["cpu"],
				$col["low_precision"],
				$col["lat_max_us"] == "" ? "-" : $col["lat_max_us"]
		} else if (test != "matrix") {
			dir = test
			if (test == "put_block") dir = "write"
			else if (test == "get_block") dir = "read"
			else sub(/.*_/, "", dir)
			gsub(/ /, "_", $col["label"])
			v = $col["value"]
			# a job fio stopped: skipped, saying the signal
			if ($col["status"] == "skipped" &&
			    $col["reason"] ~ /^interrupted by signal [0-9]+ /)
				v = "interrupted"
			else if ($col["status"] != "ok")
				v = $col["status"]
			printf "%s %s %s %s\n", $col["label"], dir, v,
				$col["bytes"]
		}
	}' | sort
}

# The file's own view of each bonnie++ CSV line, as clyde_rows prints it.
bonnie_rows () {
	awk -F, '
	BEGIN {
		split("putc put_block rewrite getc get_block seeks seq_create " \
		      "seq_stat seq_del ran_create ran_stat ran_del", name, " ")
	}
	function us(s,   v) {
		if (s == "") return "-"
		v = s + 0
		if (s ~ /ns$/) v /= 1000
		else if (s ~ /ms$/) v *= 1000
		else if (s ~ /us$/) v = v
		else if (s ~ /s$/) v *= 1000000
		return sprintf("%.3f", v)
	}
	{
		sub(/\r$/, "")
		if (seen[$0]++) next	# a line written twice is read once
		if ($1 == "1.98" && NF == 50) { io = 10; file = 27; lat = 39 }
		else if (($1 == "1.96" || $1 == "1.97") && NF == 48) {
			io = 8; file = 25; lat = 37
		} else if (NF == 27 && $1 != "name") { io = 3; file = 16; lat = 0 }
		else next
		for (t = 1; t <= 12; t++) {
			f = t <= 6 ? io + 2 * (t - 1) : file + 2 * (t - 7)
			v = $f; c = $(f + 1); l = lat ? us($(lat + t - 1)) : "-"
			if (v == "" && c == "")
				continue	# not run: the long CSV may leave it out
			else if (v ~ /^\++$/)
				printf "%d %s skipped - - 1 %s\n", NR, name[t], l
			else
				printf "%d %s ok %.3f %s %d %s\n", NR, name[t], v,
					c ~ /^\+/ || c == "" ? "-" : sprintf("%.1f", c),
					c ~ /^\+/ ? 1 : 0, l
		}
	}' "$1" | sort
}

# The file's own view of each fio job direction that moved data: "LABEL
# DIR KiB/s BYTES" (bw_bytes / 1024, or fio's KiB/s bw when it has no
# bw_bytes; io_bytes, which fio 2.x wrote in KiB: its stat.c has
# "io_bytes", ts->io_bytes[ddir] >> 10, 3.x bytes beside "io_kbytes")
# A job of a file where fio printed "fio: terminating on signal N" that
# ran less than its runtime is "interrupted" instead of its KiB/s; one
# with a non-zero "error" is "failed".
fio_rows () {
	sig=0
	grep -q "^fio: terminating on signal [0-9]" "$1" && sig=1
	# from the first '{' on: fio may print text (or '>') before it
	sed -n '/{/,$p' "$1" | sed '1s/^[^{]*//' | jq -rn --argjson sig $sig '
		def seconds: capture("^(?<n>[0-9.]+)(?<u>[a-z]*)") |
			(.n | tonumber) * ({"": 1, "s": 1, "m": 60, "h": 3600,
					    "ms": 0.001}[.u] // 1);
		inputs | (.["fio version"] | ltrimstr("fio-") | split(".")[0] |
			  tonumber) as $major | (.["global options"] // {}) as $g |
		(.client_stats // .jobs // [])[] |
		select(.jobname != "All clients") | . as $j |
		($g + (.["job options"] // {})) as $o |
		([.job_runtime // 0, .read.runtime // 0, .write.runtime // 0,
		  .trim.runtime // 0] | max) as $ran |
		(if (.error // 0) != 0 then "failed"
		 elif $sig == 1 and ($o.runtime == null or
			$ran < 0.99 * 1000 * ($o.runtime | seconds))
		 then "interrupted" else null end) as $stop |
		("read", "write", "trim") as $d | $j[$d] // empty |
		select((.io_bytes // 0) > 0) |
		"\($j.jobname | gsub(" "; "_")) \($d) \(
			$stop // (if (.bw_bytes // 0) > 0 then .bw_bytes / 1024
				  else .bw end)) \(
			if .io_kbytes == null and $major < 3 then .io_bytes * 1024
			else .io_bytes end)"' |
	awk '{ printf "%s %s %s %s\n", $1, $2,
		$3 ~ /^[0-9]/ ? sprintf("%.3f", $3) : $3, $4 }' | sort
}

n_bonnie=0 n_fio=0
for f in "$RW"/*; do
	case $(basename "$f") in
	bonnie-*) kind=bonnie ;;
	fio-*) kind=fio ;;
	*) continue ;;
	esac
	name=$(basename "$f")
	test_expect_success "$name: every run kept, every value unchanged" '
		"$CLYDE" report --concurrent-window 0 -f csv "$f" >long.csv 2>err
		status=$?
		cat err
		test $status -eq 0 -o $status -eq 2 &&
		if [ '"$kind"' = bonnie ]; then
			bonnie_rows "$f" >want
		else
			fio_rows "$f" >want
		fi &&
		if [ -s want ]; then
			test $status -eq 0 && clyde_rows '"$kind"' >got
		else
			: >got   # nothing usable, and clyde said so
			grep -q "no results\|moved no data" err
		fi &&
		echo "# $(wc -l <want) results" &&
		test_cmp want got
	'
	[ $kind = bonnie ] && n_bonnie=$((n_bonnie + 1)) || n_fio=$((n_fio + 1))
done

test_expect_success 'the corpus has both formats' '
	echo "$n_bonnie bonnie++ files, $n_fio fio files" &&
	test $n_bonnie -ge 1 && test $n_fio -ge 1
'

test_done
