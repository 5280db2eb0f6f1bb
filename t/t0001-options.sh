#!/bin/bash
# clyde run: the command line.  Every bad input gets one line naming the
# option and the problem, exit status 2, and creates nothing.
. "$(dirname "$0")/lib.sh"

mkdir -p "$TRASH/target"

# bad_input 'name' args...: exit 2, one line on stderr starting "clyde: ",
# nothing on stdout, nothing created in the target or as --json/--csv.
bad_input () {
	local title=$1
	shift
	_bad_args=("$@")
	test_expect_success "refuses $title" '
		test_expect_code 2 "$CLYDE" "${_bad_args[@]}" \
			--json "$TRASH/out.json" --csv "$TRASH/out.csv" \
			>stdout 2>stderr &&
		test_line_count = 1 stderr &&
		grep -q "^clyde: " stderr &&
		test_line_count = 0 stdout &&
		test_path_is_missing "$TRASH/out.json" &&
		test_path_is_missing "$TRASH/out.csv" &&
		test -z "$(ls -A "$TRASH/target")"
	'
}

T=$TRASH/target

bad_input "a size with a bad suffix" -d "$T" -s 12x
bad_input "a negative size" -d "$T" -s -5
bad_input "a chunk that is not a power of two" -d "$T" -s 64M:1000
bad_input "a chunk below 256 bytes" -d "$T" -s 64M:128
bad_input "a chunk above 1M" -d "$T" -s 64M:2m
bad_input "a zero seek count" -d "$T" -s 64M:8k:0
bad_input "zero seekers" -d "$T" -s 64M:8k:100:0
bad_input "too many -s fields" -d "$T" -s 64M:8k:100:3:9
bad_input "a chunk larger than the file" -d "$T" -s 512k:1m -f0
bad_input "a file count that is not a number" -d "$T" -n x
bad_input "a file minimum above the maximum" -d "$T" -n 1:100:200
bad_input "a bad file maximum" -d "$T" -n 1:abc
bad_input "a bad directory count" -d "$T" -n 1:0:0:-1
bad_input "a bad file chunk" -d "$T" -n 1:0:0:0:1000
bad_input "too many -n fields" -d "$T" -n 1:0:0:0:4096:7
bad_input "-x 0" -d "$T" -x 0
bad_input "-x that is not a number" -d "$T" -x two
bad_input "a negative seed" -d "$T" -z -1
bad_input "a seed above 32 bits" -d "$T" -z 4294967296
bad_input "a bad -r" -d "$T" -r lots
bad_input "a bad --device-cache" -d "$T" --device-cache 1q
bad_input "an unknown --char-io" -d "$T" --char-io=mmap
bad_input "a tag without =" -d "$T" --tag controller
bad_input "an unknown option" -d "$T" --frobnicate
bad_input "an unknown short option" -d "$T" -Q
bad_input "a missing option argument" -d "$T" -s
bad_input "a stray argument" -d "$T" stray
bad_input "an unknown user" -d "$T" -u no-such-user-clyde
bad_input "an unknown group" -d "$T" -g no-such-group-clyde
bad_input "an empty label" -d "$T" -m ""
bad_input "a label with a comma" -d "$T" -m a,b
bad_input "a label with a newline" -d "$T" -m "$(printf 'a\nb')"
# F21: a label reaches the tables' terminal, like a tag value
bad_input "a label with an escape sequence" -d "$T" -m "$(printf 'lab\033[31mel')"
bad_input "a label with DEL" -d "$T" -m "$(printf 'lab\177el')"
bad_input "a label with a tab" -d "$T" -m "$(printf 'a\tb')"
bad_input "a tag key with a space" -d "$T" --tag "a b=1"
bad_input "a tag value with a newline" -d "$T" --tag "$(printf 'k=a\nb')"
bad_input "a tag value with a tab" -d "$T" --tag "$(printf 'k=a\tb')"
bad_input "a hexadecimal --sync-timeout" -d "$T" --sync-timeout 0x10
bad_input "an exponent in --stonewall" -d "$T" --stonewall 1e3
# issue 13 item 4: size products are checked, not wrapped past the space check
bad_input "a file size that wraps with -c 2" -d "$T" -s 8388608T -c 2 -n 0
bad_input "a file-test size that wraps" -d "$T" -s 0 -n 1:36028797018963968
bad_input "a --device-cache whose double wraps" -d "$T" --device-cache 8388608T -n 0
# issue 13 item 9: -f's argument goes attached
bad_input "-f with a separate argument" -d "$T" -f 2
bad_input "a missing directory" -d "$TRASH/no/such/dir"
bad_input "a file as directory" -d /etc/hostname
bad_input "a file that does not fit" -d "$T" -s 100t

test_expect_success 'the messages name the option' '
	"$CLYDE" -d "$T" -s 64M:1000 2>err; grep -q -- "-s: chunk size .1000. must be a power of two" err &&
	"$CLYDE" -d "$T" -n 1:100:200 2>err; grep -q -- "-n: minimum size 200 is larger than maximum 100" err &&
	"$CLYDE" -d "$TRASH/nope" 2>err; grep -q -- "-d: .*nope.: No such file or directory" err &&
	"$CLYDE" -d "$T" -s 100t 2>err; grep -q -- "-s: the test files need 100.0 TiB but .* free" err
'

test_expect_success 'an unwritable --json fails before any test' '
	test_expect_code 2 "$CLYDE" -d "$T" -s 1M -n 0 \
		--json "$TRASH/no/such/dir/r.json" >stdout 2>stderr &&
	grep -q "^clyde: --json: cannot open .*No such file or directory" stderr &&
	test_line_count = 1 stderr &&
	test -z "$(ls -A "$T")"
'

test_expect_success ROOT 'a read-only filesystem is refused' '
	mkdir ro &&
	mount -t tmpfs -o ro,size=1m clyde-ro ro &&
	test_cleanup "umount \"$TRASH/ro\"" &&
	test_expect_code 2 "$CLYDE" -d ro -s 1M -n 0 2>stderr &&
	grep -q "^clyde: -d: .ro. is on a read-only filesystem" stderr
'

test_expect_success 'the size errors name the option that needs the room' '
	test_expect_code 2 "$CLYDE" -d "$T" -s 8388608T -c 2 -n 0 2>err &&
	grep -q "^clyde: -s: the test files need more than 16 EiB" err &&
	test_expect_code 2 "$CLYDE" -d "$T" -s 0 -n 1:36028797018963968 2>err &&
	grep -q "^clyde: -n: " err &&
	test_expect_code 2 "$CLYDE" -d "$T" -s 1M -n 100000:1g 2>err &&
	grep -q "^clyde: -n: the test files need" err &&
	test_expect_code 2 "$CLYDE" -d "$T" -f 2 2>err &&
	grep -q "^clyde: -f: unexpected argument .2.: .*-f2 or --per-char=2" err
'

# issue 13 item 5: a rejected output leaves no other output behind
test_expect_success 'an unwritable --csv leaves no --json file behind' '
	test_expect_code 2 "$CLYDE" -d "$T" -s 1M -n 0 --json "$TRASH/ok.json" \
		--csv /nonexistent/x.csv >out 2>err &&
	test_line_count = 1 err &&
	grep -q "^clyde: --csv: cannot open ./nonexistent/x.csv." err &&
	test_path_is_missing "$TRASH/ok.json" &&
	test -z "$(ls -A "$T")" &&
	echo "{\"keep\":1}" >"$TRASH/old.json" &&
	test_expect_code 2 "$CLYDE" -d "$T" -s 1M -n 0 --json "$TRASH/old.json" \
		--csv /nonexistent/x.csv 2>err &&
	test "$(cat "$TRASH/old.json")" = "{\"keep\":1}"
'

test_expect_success ROOT '-u nobody with an unwritable --csv leaves nothing' '
	chmod 755 "$TRASH" && mkdir -p "$TRASH/u" && chmod 1777 "$TRASH/u" &&
	test_expect_code 2 "$CLYDE" -u nobody -d "$TRASH/u" -s 1M -n 0 \
		--json "$TRASH/u.json" --csv /nonexistent/x.csv 2>err &&
	test_line_count = 1 err && grep -q "^clyde: --csv: cannot open" err &&
	test_path_is_missing "$TRASH/u.json" && test -z "$(ls -A "$TRASH/u")"
'

test_expect_success '--help lists every option of the table' '
	"$CLYDE" --help >help &&
	grep -q "^usage: clyde" help &&
	for o in directory size files label ram repeat user group quiet \
		 per-char char-io sync-writes direct seed json csv tag \
		 device-cache bonnie-size drop-caches help version; do
		grep -q -- "--$o" help || { echo "missing --$o"; return 1; }
	done &&
	for s in d s n m r x u g q f b D z; do
		grep -q -- "-$s, --" help || { echo "missing -$s"; return 1; }
	done
'

test_expect_success '--help shows the real defaults and lists the commands' '
	"$CLYDE" --help >help &&
	# the help of an option: its lines up to the next option
	awk "/--sync-timeout/ { p = 1; next } /^  -|^      --/ { p = 0 } p" help |
		tr "\n" " " | grep -q "(default 600)" &&
	awk "/--repeat N/ { p = 1; next } /^  -|^      --/ { p = 0 } p" help |
		tr "\n" " " | grep -q "(default 1)" &&
	# in 80 columns
	test "$(LC_ALL=C.UTF-8 wc -L <help)" -le 80 &&
	for c in matrix zones report info; do
		"$CLYDE" $c --help >h2 &&
		test "$(LC_ALL=C.UTF-8 wc -L <h2)" -le 80 || { echo "$c"; return 1; }
	done &&
	sed -n "/^Commands/,\$p" help >cmds &&
	for c in run matrix info report; do
		grep -q "^  $c " cmds || { echo "missing command $c"; return 1; }
	done
'

test_expect_success 'a newline in an argument keeps the error on one line' '
	test_expect_code 2 "$CLYDE" -d "$T" -m "$(printf "a\nb")" 2>err &&
	test_line_count = 1 err && grep -q "label .a.nb." err
'

# findings F16: a count that is only too large says so, with the limit
test_expect_success 'a too large -n says the limit, not "not a number"' '
	test_expect_code 2 "$CLYDE" -d "$T" -n 8388608 2>err &&
	test_line_count = 1 err &&
	grep -q "^clyde: -n: file count .8388608. is too large: at most 4194303" err &&
	test -z "$(ls -A "$T")"
'

# findings F18: --json/--csv never append to a file of another format
test_expect_success 'an output file of another format is refused, untouched' '
	echo "<html>" >page.html && cp page.html page.orig &&
	test_expect_code 2 "$CLYDE" -d "$T" -s 0 -n 1 --json page.html \
		>out 2>err &&
	test_line_count = 1 err &&
	grep -q "^clyde: --json: .page.html. is not empty and does not hold clyde JSON" err &&
	cmp page.html page.orig &&
	printf "label,start,engine,direct,bs\n" >m.csv && cp m.csv m.orig &&
	test_expect_code 2 "$CLYDE" -d "$T" -s 0 -n 1 --csv m.csv 2>err &&
	grep -q "^clyde: --csv: .m.csv. is not empty and does not hold bonnie++ 1.98" err &&
	cmp m.csv m.orig &&
	"$CLYDE" -d "$T" -s 0 -n 1 -q --csv b.csv >/dev/null 2>&1 &&
	cp b.csv b.orig &&
	test_expect_code 2 "$CLYDE" matrix -d "$T" --bs 8k --threads 1 \
		--mix 100 --size 1M --time 0.1 --ramp 0 -q --csv b.csv 2>err &&
	grep -q "^clyde: --csv: .b.csv. is not empty and does not hold a clyde matrix CSV" err &&
	cmp b.csv b.orig &&
	test -z "$(ls -A "$T")" &&
	: an empty file and a file of the same format are appended to &&
	: >e.json && "$CLYDE" -d "$T" -s 0 -n 1 -q --json e.json --csv b.csv \
		>/dev/null 2>&1 &&
	test "$(wc -l <e.json)" = 1 && test "$(wc -l <b.csv)" = 2 &&
	"$CLYDE" -d "$T" -s 0 -n 1 -q --json e.json >/dev/null 2>&1 &&
	test "$(wc -l <e.json)" = 2
'

# findings F16: clyde info takes -d like every other command
test_expect_success 'clyde info -d PATH' '
	"$CLYDE" info -d "$T" >out &&
	grep -q "^path: *$T\$" out &&
	"$CLYDE" info --json -d "$T" "$T" >out.json &&
	test "$(wc -l <out.json)" = 2
'

test_expect_success '--version prints the version' '
	"$CLYDE" --version >out &&
	grep -Eq "^clyde [0-9]+\.[0-9]+" out
'

# issue 25: the conventions of every command
test_expect_success '-h is --help for every command: usage on stdout, status 0' '
	for c in "" run matrix zones info report; do
		"$CLYDE" $c --help >long 2>err.long &&
		"$CLYDE" $c -h >short 2>err.short &&
		grep -q "^usage: clyde" short &&
		grep -q -- "-h, --help" short &&
		test_cmp long short &&
		test_line_count = 0 err.short ||
		{ echo "clyde $c -h"; return 1; }
	done
'

test_expect_success 'every option of every command names its default once' '
	for c in run matrix zones info report; do
		"$CLYDE" $c --help >h &&
		# an option help paragraph: from its "-x, --name" line to the next
		awk "/^ *-/ { if (n > 1) print prev; n = 0; prev = \$0 }
		     { n += gsub(/[(]default /, \"&\") }
		     END { if (n > 1) print prev }" h >twice &&
		test_line_count = 0 twice || { echo "clyde $c:"; cat twice; return 1; }
	done
'

test_expect_success '--version for every command' '
	"$CLYDE" --version >top &&
	for c in run matrix zones info report; do
		"$CLYDE" $c --version >v 2>err &&
		test_cmp top v && test_line_count = 0 err &&
		"$CLYDE" $c --help | grep -q -- "--version" ||
		{ echo "clyde $c --version"; return 1; }
	done
'

test_expect_success "-Z FILE (bonnie++'s random file) is refused, saying why" '
	test_expect_code 2 "$CLYDE" -d "$T" -s 1M -Z /etc/hostname \
		>out 2>err &&
	test_line_count = 0 out &&
	grep -q "^clyde: -Z ./etc/hostname.: not supported: .*unique and incompressible.*-z" err &&
	test -z "$(ls -A "$T")"
'

test_expect_success 'an unknown command is refused' '
	test_expect_code 2 "$CLYDE" frobnicate 2>stderr &&
	grep -q "is not a clyde command" stderr
'

test_expect_success 'an ESC, U+202E or a byte that is not UTF-8 in -d: escaped in the message' '
	test_expect_code 2 "$CLYDE" -d "$(printf "/x/\033[31m\342\200\256\377")" 2>err &&
	test_line_count = 1 err &&
	grep -qF "clyde: -d: '"'"'/x/\x1b[31m\u202E\xff'"'"': No such file or directory" err
'

test_done
