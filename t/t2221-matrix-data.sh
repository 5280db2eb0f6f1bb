#!/bin/bash
# clyde matrix writes unique, incompressible data (issue 11): after the
# prefill and write cells (random and sequential, 4K and 64K blocks, one
# thread and two sharing the file by regions, as --shared-file does) on a
# file of a loop xfs, every 4 KiB block of the file is distinct, also from
# those of the same run with another seed, and neither gzip nor zstd
# shrinks it.  The 64K sequential write cells cover the whole file, so
# every block was last written by the matrix, not by the prefill (before
# the fix, a 64K write changed only its first 16 bytes: 15 of its 16
# sectors repeated the thread's buffer, and zstd shrank the file to 3 %).
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-loop.sh"

test_have_prereq JQ || test_skip_all 'jq is needed to read the JSON record'
test_lazy_prereq ZSTD 'command -v zstd'
SCAN=$SRC_DIR/t/tool/datascan
test_lazy_prereq SCAN "test -x '$SCAN'"

# distinct FILE...: the number of distinct 4 KiB blocks in all of them
distinct () {
	perl -e 'my %seen; for my $f (@ARGV) {
		open(my $h, "<", $f) or die "$f: $!"; binmode $h;
		while (read($h, my $b, 4096) == 4096) { $seen{$b} = 1 } }
		print scalar(keys %seen), "\n"' "$@"
}

# ratio FILE CMD...: compressed size / size
ratio () {
	local f=$1
	shift
	echo "$("$@" <"$f" | wc -c) $(stat -c %s "$f")" |
		awk '{ printf "%.4f\n", $1 / $2 }'
}

# write_cells FILE SEED [args]: the write cells, record in w.jsonl
write_cells () {
	local f=$1 seed=$2
	shift 2
	rm -f w.jsonl
	"$CLYDE" matrix -d "$f" --overwrite --bs 4k,64k --threads 1,2 \
		--pattern random,seq --mix 0 --time 0.5 --ramp 0 \
		--seed "$seed" --json w.jsonl -q "$@" 2>err &&
	jq -e "(.matrix.cells | length) == 8 and
	       all(.matrix.cells[]; .status == \"ok\" and .writes > 0) and
	       ([.matrix.cells[] | select(.pattern == \"seq\" and
		  .bs == 65536) | .writes * .bs] | min) >= $(stat -c %s "$f")" \
		w.jsonl >/dev/null || { cat err; false; }
}

test_expect_success ROOT,LOOP,XFS 'matrix writes: every 4 KiB block distinct' '
	loop_fs xfs 320 mnt &&
	head -c 2097152 /dev/zero >"$mnt/a" &&
	write_cells "$mnt/a" 1 &&
	test "$(distinct "$mnt/a")" = 512
'

test_expect_success ROOT,LOOP,XFS 'and distinct from another seed'"'"'s' '
	head -c 2097152 /dev/zero >"$mnt/b" &&
	write_cells "$mnt/b" 2 --engine libaio --qd 8 &&
	test "$(distinct "$mnt/b")" = 512 &&
	test "$(distinct "$mnt/a" "$mnt/b")" = 1024
'

test_expect_success ROOT,LOOP,XFS 'gzip does not shrink it' '
	r=$(ratio "$mnt/a" gzip -c) &&
	test_comment "gzip ratio $r" &&
	awk -v r="$r" "BEGIN { exit !(r > 0.99) }"
'

test_expect_success ROOT,LOOP,XFS,ZSTD 'zstd does not shrink it' '
	r=$(ratio "$mnt/a" zstd -c -q) &&
	test_comment "zstd ratio $r" &&
	awk -v r="$r" "BEGIN { exit !(r > 0.99) }"
'

# In a directory clyde removes its files at the end, but their blocks stay
# in the image: t/tool/datascan finds those holding clyde's data for a
# seed (the generator's pool) and counts the distinct ones.
test_expect_success ROOT,LOOP,XFS,SCAN 'a file per thread and --shared-file: every block distinct' '
	loop_fs xfs 320 dmnt &&
	"$CLYDE" matrix -d "$dmnt" --bs 4k,64k --threads 1,2 \
		--pattern random,seq --mix 0 --size 2M --time 0.3 --ramp 0 \
		--seed 2211 -q 2>err &&
	"$CLYDE" matrix -d "$dmnt" --shared-file --bs 4k,64k --threads 1,2 \
		--pattern random,seq --mix 0 --size 2M --time 0.3 --ramp 0 \
		--seed 2212 -q 2>err &&
	test -z "$(ls -A "$dmnt")" &&
	umount "$dmnt" &&
	"$SCAN" 2211 "$dmnt_img" files.bin >scan1 &&
	"$SCAN" 2212 "$dmnt_img" shared.bin >scan2 &&
	test_comment "per-thread files: $(cat scan1); shared: $(cat scan2)" &&
	read -r _ n1 _ d1 <scan1 && read -r _ n2 _ d2 <scan2 &&
	test "$n1" -ge 1024 && test "$d1" -eq "$n1" &&
	test "$n2" -ge 512 && test "$d2" -eq "$n2"
'

test_expect_success ROOT,LOOP,XFS 'null engine: prefilled, left as the prefill made it' '
	head -c 1048576 /dev/zero >"$mnt/c" &&
	"$CLYDE" matrix -d "$mnt/c" --overwrite --engine null --bs 4k \
		--threads 1 --pattern seq --mix 0 --time 0.1 --ramp 0 \
		--seed 3 -q 2>err &&
	test "$(distinct "$mnt/c")" = 256
'
test_done
