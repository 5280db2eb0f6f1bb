#!/bin/bash
# bonnie++'s -p / -y protocol: separately started copies, clyde or bonnie++,
# wait for each other before every test on the SysV semaphores with key
# 4711; a copy whose partner never comes gives up after --sync-timeout.
. "$(dirname "$0")/lib.sh"

test_have_prereq JQ || test_skip_all 'jq is needed to read the JSON record'
command -v ipcs >/dev/null || test_skip_all 'ipcs (util-linux) is needed'

# the id of the set with key 4711 (0x1267), empty when there is none
semid () {
	ipcs -s | awk '$1 == "0x00001267" { print $2 }'
}
[ -z "$(semid)" ] ||
	test_skip_all 'a semaphore set with key 4711 exists: another bonnie++ or clyde is using it'
test_cleanup '[ -z "$(semid)" ] || ipcrm -s "$(semid)"'

# semvals: the 12 values, space-separated
semvals () {
	ipcs -s -i "$(semid)" | awk '$1 ~ /^[0-9]+$/ && NF >= 2 { printf "%s ", $2 }'
}

# waiting: wait until one copy waits on the semaphore of the first test
# (Block write: the set is at 2, it took 1 of the second), up to 60 s
waiting () {
	local i
	for i in $(seq 600); do
		test "$(semvals)" = "2 1 2 2 2 2 2 2 2 2 2 2 " && return 0
		sleep 0.1
	done
	echo "no copy waits at the first test after 60 s: $(semvals)" >&2
	return 1
}

test_expect_success '-p N creates 12 semaphores at N, -p -1 removes them; asking for a set that exists, or removing none, is bad input (exit 2)' '
	"$CLYDE" -p 3 &&
	test -n "$(semid)" &&
	test "$(semvals)" = "3 3 3 3 3 3 3 3 3 3 3 3 " &&
	test_expect_code 2 "$CLYDE" -p 2 2>err &&
	test_line_count = 1 err &&
	grep -q "^clyde: -p: the semaphores with key 4711 exist already" err &&
	test "$(semvals)" = "3 3 3 3 3 3 3 3 3 3 3 3 " &&
	"$CLYDE" -p -1 &&
	test -z "$(semid)" &&
	test_expect_code 2 "$CLYDE" -p -1 2>err &&
	test_line_count = 1 err &&
	grep -q "there are none" err &&
	test_expect_code 2 "$CLYDE" -p 0 2>err &&
	test_expect_code 2 "$CLYDE" -y x -d . 2>err &&
	grep -q "^clyde: -y: .x. is neither" err
'

test_expect_success 'two clyde copies wait for each other at every test' '
	mkdir a b &&
	"$CLYDE" -p 2 &&
	{ "$CLYDE" -y s -d a -s 8M -f -n 1 -q --json a.jsonl \
		--sync-timeout 60 >a.csv 2>a.err & pid=$!; } &&
	waiting &&
	# the first copy waits before the first test: no test file yet
	kill -0 $pid &&
	test -z "$(find a -name "Bonnie.*")" &&
	"$CLYDE" -y s -d b -s 8M -f -n 1 -q --json b.jsonl \
		--sync-timeout 60 >b.csv 2>b.err &&
	wait $pid &&
	# each test the copies ran took both; the per-char ones were skipped
	test "$(semvals)" = "2 0 0 2 0 0 0 0 0 0 0 0 " &&
	jq -e ".exit_status == 0 and .params.sync == \"semaphores\"" a.jsonl &&
	jq -e ".exit_status == 0" b.jsonl &&
	"$CLYDE" -p -1
'

test_expect_success 'a copy whose partner never comes gives up, naming the test' '
	"$CLYDE" -p 2 &&
	test_expect_code 1 "$CLYDE" -y s -d a -s 8M -f -n 0 -q \
		--json t.jsonl --sync-timeout 1 >t.csv 2>err &&
	grep -q "^clyde: Block write: -y s: the other copies did not reach .Block write. within 1 s" err &&
	jq -e ".exit_status == 1 and
		(.results[] | select(.name == \"put_block\") |
			.status == \"failed\" and
			(.reason | test(\"--sync-timeout\")))" t.jsonl &&
	test -z "$(ls -A a)" &&
	"$CLYDE" -p -1
'

test_expect_success 'SIGINT while a copy waits for its partner: not run, not failed' '
	"$CLYDE" -p 2 &&
	{ "$CLYDE" -y s -d a -s 8M -f -n 0 -q --json w.jsonl \
		--sync-timeout 60 >w.csv 2>w.err & pid=$!; } &&
	# it waits on the semaphore of the first test (Block write)
	waiting
	waited=$?
	kill -INT $pid
	wait $pid
	status=$?
	# the set goes whatever happened, the next tests need the key
	"$CLYDE" -p -1 &&
	test "$waited" -eq 0 &&
	test "$status" -eq 130 &&
	jq -e ".exit_status == 130 and
		all(.results[]; .status == \"not_run\" or
			(.status == \"skipped\" and
			 .reason == \"not run: interrupted by signal 2 (SIGINT)\")) and
		(.results[] | select(.name == \"put_block\") |
			.status == \"skipped\")" w.jsonl &&
	! grep -q "interrupted$" w.err &&
	test -z "$(ls -A a)"
'

test_expect_success 'with -c 2 the whole set of workers is one copy' '
	"$CLYDE" -p 1 &&
	"$CLYDE" -y s -c 2 -d a -s 8M -f -n 0 -q --json c.jsonl \
		--sync-timeout 10 >c.csv 2>err &&
	test "$(semvals)" = "1 0 0 1 0 0 1 1 1 1 1 1 " &&
	jq -e ".exit_status == 0 and .params.concurrency == 2" c.jsonl &&
	"$CLYDE" -p -1
'

test_expect_success '-y p waits for Enter before each test' '
	printf "\n\n\n\n" |
		"$CLYDE" -y p -d a -s 8M -f -n 0 -q --json p.jsonl \
		>p.csv 2>p.err &&
	test "$(grep -c "^clyde: press Enter to start" p.err)" -eq 4 &&
	jq -e ".exit_status == 0 and .params.sync == \"prompt\"" p.jsonl &&
	: | test_expect_code 1 "$CLYDE" -y p -d a -s 8M -f -n 0 -q \
		>p.csv 2>p.err &&
	grep -q "^clyde: Block write: -y p: end of input before .Block write." p.err
'

if command -v bonnie++ >/dev/null; then
	test_set_prereq BONNIEPP
fi

test_expect_success BONNIEPP,ROOT 'clyde and bonnie++ run in step' '
	rm -rf a b && mkdir a b &&
	"$CLYDE" -p 2 &&
	{ bonnie++ -y s -d b -s 8M -r 4 -f -n 1 -u root -q \
		>bonnie.csv 2>bonnie.err & pid=$!; } &&
	waiting &&
	"$CLYDE" -y s -d a -s 8M -f -n 1 -q --json d.jsonl \
		--sync-timeout 60 >d.csv 2>d.err &&
	wait $pid &&
	test "$(semvals)" = "2 0 0 2 0 0 0 0 0 0 0 0 " &&
	grep -q "^1.98,2.00" bonnie.csv &&
	jq -e ".exit_status == 0" d.jsonl &&
	"$CLYDE" -p -1
'

test_done
