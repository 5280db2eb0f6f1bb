#!/bin/bash
# clyde matrix: bad input gives a one-line error naming the option, exit
# status 2 and nothing created; an existing file needs --overwrite, a block
# device --raw-device.
. "$(dirname "$0")/lib.sh"

mkdir d

test_expect_success 'matrix --help lists the options' '
	"$CLYDE" matrix --help >out &&
	grep -q "^usage: clyde matrix" out &&
	for o in bs threads pattern mix qd engine buffered shared-file size \
		 time ramp seed json csv tag overwrite raw-device verify \
		 no-prefill hit-area hit-pct curve quiet sqpoll hipri; do
		grep -q -- "--$o" out || return 1
	done
'

# bad OPTION-SUBSTRING args...: exit 2, one line naming it, nothing created
bad () {
	local what=$1
	shift
	test_expect_code 2 "$CLYDE" matrix -d d --json d.json --csv d.csv \
		--time 0.1 --ramp 0 --size 1M "$@" >out 2>err &&
	test_line_count = 1 err &&
	grep -q -e "$what" err &&
	test_path_is_missing d.json &&
	test_path_is_missing d.csv &&
	test -z "$(ls -A d)"
}

test_expect_success 'bad block sizes' '
	bad --bs --bs 8x && bad --bs --bs 100 && bad --bs --bs 8k,,16k &&
	bad --bs --bs 128m && bad --bs --bs ""
'
test_expect_success 'bad thread counts' '
	bad --threads --threads 0 && bad --threads --threads 1,x &&
	bad --threads --threads 2000
'
test_expect_success 'bad patterns and mixes' '
	bad --pattern --pattern zigzag && bad --mix --mix 101 &&
	bad --mix --mix 50,-1
'
test_expect_success 'bad queue depth, engine, time, ramp, seed, size' '
	bad --qd --qd 0 && bad --qd --qd 4 --engine psync &&
	bad --engine --engine nosuch && bad --time --time 0 &&
	bad --sqpoll --sqpoll --engine libaio &&
	bad --hipri --hipri --engine psync &&
	bad --hipri --hipri --buffered &&
	bad --time --time 2x && bad --ramp --ramp -1 &&
	bad --seed --seed abc && bad --size --size 0 &&
	bad --force --force && bad "--tag" --tag novalue
'
test_expect_success 'bad hit area, hit percentage and rate curve' '
	bad --hit-area --hit-area 0 --hit-pct 10 &&
	bad --hit-area --hit-area 1x --hit-pct 10 &&
	bad --hit-pct --hit-area 64k --hit-pct 101 &&
	bad "--hit-area: needs --hit-pct" --hit-area 64k &&
	bad "--hit-pct: needs --hit-area" --hit-pct 10 &&
	bad --hit-area --hit-area 2M --hit-pct 10 &&
	bad --curve --curve 0 && bad --curve --curve 10,,50 &&
	bad --curve --curve 101 && bad --curve --curve fast
'
# issue 13 item 11: one rule per option, the same as clyde run's
test_expect_success 'labels, tags and durations follow the rules of clyde run' '
	bad "-m: empty label" -m "" && bad "-m: label .a,b." -m a,b &&
	bad "-m: label .a.nb. must be one line" -m "$(printf "a\nb")" &&
	bad "--tag: key in .a b=1." --tag "a b=1" &&
	bad "--tag: .=v. is not KEY=VALUE" --tag =v &&
	bad "--time: .0x10. must be a number of seconds" --time 0x10 &&
	bad "--ramp: .1e1. must be a number of seconds" --ramp 1e1 &&
	bad "--time: .inf." --time inf && bad "--time: .nan." --time nan
'
test_expect_success 'matrix --help shows the real defaults' '
	"$CLYDE" matrix --help >out &&
	grep -A1 -- "--bs SIZE" out | grep -q "(default 8k,16k,1M)" &&
	grep -A1 -- "--pattern" out | grep -q "(default random,seq)" &&
	grep -A1 -- "--time SECONDS" out | grep -q "(default 5)"
'
test_expect_success '--no-prefill needs an existing file or a device' '
	bad --no-prefill --no-prefill --verify
'
test_expect_success 'unknown option and stray argument' '
	bad "--frobnicate" --frobnicate && bad "stray" stray
'
test_expect_success 'missing target and too small a size' '
	bad "-d: .nope" -d nope &&
	bad --size --bs 1m --size 512k
'
test_expect_success 'an existing file needs --overwrite' '
	head -c 1048576 /dev/urandom >f &&
	cksum f >before &&
	test_expect_code 2 "$CLYDE" matrix -d f --time 0.1 --ramp 0 \
		--bs 4k --threads 1 --pattern random --mix 100 >out 2>err &&
	grep -q -- --overwrite err &&
	cksum f >after && test_cmp before after
'
# tmpfs reports a direct I/O alignment of 4096 (STATX_DIOALIGN): 512-byte
# blocks fail only once a file is open, after the outputs used to be opened
test_expect_success TMPFS 'a direct I/O misfit leaves no output file behind' '
	mkdir tm && mount -t tmpfs -o size=16m tmpfs tm &&
	test_cleanup "umount \"$TRASH/tm\"" &&
	test_expect_code 2 "$CLYDE" matrix -d tm --json d.json --csv d.csv \
		--bs 512 --threads 1 --pattern random --mix 100 --time 0.1 \
		--ramp 0 --size 1M >out 2>err &&
	test_line_count = 1 err && grep -q "direct I/O alignment" err &&
	test_path_is_missing d.json && test_path_is_missing d.csv &&
	test -z "$(ls -A tm)" &&
	echo keep >d.json &&
	test_expect_code 2 "$CLYDE" matrix -d tm --json d.json --bs 512 \
		--size 1M 2>err &&
	test "$(cat d.json)" = keep && test -z "$(ls -A tm)"
'
test_expect_success 'a block device needs --raw-device' '
	test_expect_code 2 "$CLYDE" matrix -d /dev/null --time 0.1 >out 2>err &&
	test_line_count = 1 err &&
	test_expect_code 2 "$CLYDE" matrix -d /dev/loop-nonexistent 2>err &&
	test_line_count = 1 err
'
test_done
