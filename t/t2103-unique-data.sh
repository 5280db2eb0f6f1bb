#!/bin/bash
# What the classic suite writes is unique and incompressible where it
# lands: after a run on xfs on a loop device, the image's blocks that hold
# clyde's data (found by t/tool/datascan through the same generator, fsops/
# datagen, for the run's seed) are all different as whole 4 KiB blocks,
# cover at least the block-write file and one block of every small file,
# and do not compress (gzip, zstd: ratio above 0.99).
. "$(dirname "$0")/lib.sh"
. "$TEST_DIR/lib-loop.sh"

SCAN=$SRC_DIR/t/tool/datascan
test_lazy_prereq ZSTD 'command -v zstd'
test_lazy_prereq SCAN "test -x '$SCAN'"

# ratio FILE CMD...: compressed size / size, as a decimal
ratio () {
	local f=$1
	shift
	awk -v c="$("$@" <"$f" | wc -c)" -v s="$(stat -c %s "$f")" \
		'BEGIN { printf "%.4f\n", c / s }'
}

test_expect_success LOOP,XFS,ZSTD,SCAN 'a suite run on xfs: every 4 KiB block written is unique' '
	loop_fs xfs 400 mnt &&
	"$CLYDE" -d "$mnt" -s 64M -f2 -n 1:8192:8192 -z 2103 -q \
		-m unique >out.csv 2>out.txt &&
	umount "$mnt" &&
	"$SCAN" 2103 "$mnt_img" blocks.bin >scan &&
	cat scan &&
	read -r _ n _ d <scan &&
	# the Bonnie file (64 MiB) plus at least one block of each of the
	# 2 x 1024 small files (one family after the other may reuse blocks;
	# whole blocks, so that no file system padding is counted)
	test "$n" -ge $((64 * 256 + 1024)) &&
	test "$d" -eq "$n" &&
	g=$(ratio blocks.bin gzip -c) && z=$(ratio blocks.bin zstd -q -c) &&
	test_comment "distinct $d of $n blocks; gzip ratio $g, zstd ratio $z" &&
	awk -v g="$g" -v z="$z" "BEGIN { exit !(g > 0.99 && z > 0.99) }"
'

test_expect_success LOOP,XFS,ZSTD,SCAN 'the check can fail: the same blocks twice count once' '
	cat blocks.bin blocks.bin >twice &&
	rm -f blocks.bin &&
	"$SCAN" 2103 twice /dev/null >scan2 &&
	test "$(cat scan2)" = "blocks $((2 * n)) distinct $n" &&
	# a window that reaches the repeat: the ratio check would fail
	test "$(ratio twice zstd -q -c --long=28)" \< 0.6 &&
	rm -f twice
'

test_done
