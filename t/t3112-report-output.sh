#!/bin/bash
# clyde report -o: never one of its own inputs (findings F6), and written
# to a temporary file renamed into place, so a failed report leaves the
# previous file as it was.
. "$(dirname "$0")/lib.sh"

FIX=$TEST_DIR/fixtures/report

# refused CMD...: exit 2, one line naming -o, every file unchanged
refused () {
	md5sum ./* >../before &&
	test_expect_code 2 "$CLYDE" report "$@" 2>../err &&
	test "$(wc -l <../err)" = 1 &&
	grep -q "^clyde report: -o .* is also an input" ../err &&
	md5sum ./* | diff - ../before >/dev/null
}

test_expect_success 'setup' '
	mkdir d && cp "$FIX/clyde.jsonl" d/same.json &&
	cp "$FIX/clyde.jsonl" d/bl.json &&
	printf "[put_block]\nmin = 1\n" >d/crit.ini
'

test_expect_success '-o naming the input itself is refused' '
	cd d && refused same.json -o same.json &&
	refused -f csv ./same.json -o same.json &&
	refused -f text same.json -o "$PWD/same.json"
'

test_expect_success '-o reaching an input through a hard link is refused' '
	cd d && ln same.json link.json && refused -f text link.json -o same.json &&
	rm link.json
'

test_expect_success '-o naming --baseline-file or --criteria is refused' '
	cd d && refused -f text same.json --baseline-file bl.json -o bl.json &&
	refused -f text same.json --criteria crit.ini -o crit.ini
'

test_expect_success '-o of another file is written, its mode kept' '
	cd d && echo old >out.txt && chmod 640 out.txt &&
	"$CLYDE" report -f text same.json -o out.txt &&
	grep -q "Block write" out.txt && test "$(stat -c %a out.txt)" = 640 &&
	test -z "$(ls -A | grep "^\.")"
'

test_expect_success 'a report that cannot be written whole leaves the old file' '
	cd d && echo old >out.html &&
	( trap "" XFSZ; ulimit -f 4; "$CLYDE" report same.json -o out.html ) \
		2>err; rc=$? &&
	test $rc = 1 && grep -q "^clyde report: cannot write" err &&
	test "$(cat out.html)" = old && test -z "$(ls -A | grep "^\.")"
'

# A signal while the page is written (here as soon as its temporary file
# is there): the report ends with the signal's status, the temporary file
# removed, the old page as it was.  clyde is started with SIGINT and
# SIGTERM at their defaults: a job in the background of a shell without
# job control (CI's) inherits SIGINT ignored, and clyde keeps a signal
# ignored

test_expect_success JQ 'a signal while the page is written leaves the old file, nothing else' '
	cd d && echo old >page.html &&
	jq -c -s ". as \$b | range(0; 4000) as \$i | \$b[\$i % (\$b | length)] |
		.label = \"n\(\$i % 400)\"" same.json >many.json &&
	for sig in TERM INT; do
		( env --default-signal=INT,TERM \
			"$CLYDE" report -o page.html many.json & pid=$!
		  i=0
		  while [ $i -lt 3000 ]; do
			set -- .page.html.*
			[ ! -e "$1" ] || break
			sleep 0.01; i=$((i + 1))
		  done
		  [ -e "$1" ] || { echo "no temporary file seen"; exit 1; }
		  kill -$sig $pid
		  wait $pid
		  echo $? >rc ) || return 1
		case $sig in TERM) test "$(cat rc)" = 143 ;; INT) test "$(cat rc)" = 130 ;; esac || return 1
		test "$(cat page.html)" = old || return 1
		test -z "$(ls -A | grep "^\.")" || return 1
	done
'

# The signal the moment the temporary file exists, 25 times: it was
# left behind when the signal came before the handler was in place (8
# times in 40 kills here)
test_expect_success JQ 'a signal as the temporary file appears leaves nothing' '
	cd d && rm -f page.html &&
	head -100 many.json >some.json &&
	for i in $(seq 1 25); do
		( env --default-signal=INT,TERM \
			"$CLYDE" report -o page.html some.json & pid=$!
		  while kill -0 $pid 2>/dev/null; do
			set -- .page.html.*
			[ ! -e "$1" ] || break
		  done
		  kill -TERM $pid 2>/dev/null
		  wait $pid
		  true ) || return 1
		test -z "$(ls -A | grep "^\.")" || { ls -A; return 1; }
		rm -f page.html
	done
'

test_done
