#!/bin/bash
# clyde info: bad input is exit status 2 with one line naming it (issue 13
# item 9); a target that cannot be examined is 1.
. "$(dirname "$0")/lib.sh"

# bad_info WHAT args...: exit 2, one line starting "clyde: info:" that
# matches WHAT, nothing on stdout
bad_info () {
	local what=$1
	shift
	test_expect_code 2 "$CLYDE" info "$@" >out 2>err &&
	test_line_count = 1 err && test_line_count = 0 out &&
	grep -q "^clyde: info: " err && grep -q -e "$what" err
}

test_expect_success 'a path that does not exist' '
	bad_info "nope.: No such file or directory" "$TRASH/nope"
'
test_expect_success 'an empty path' '
	bad_info "empty path" ""
'
test_expect_success '--probe of a missing, empty, character device or directory' '
	bad_info "nope.: No such file" --probe "$TRASH/nope" &&
	bad_info "empty image name" --probe "" &&
	bad_info "/dev/null. is neither an image file nor a block device" \
		--probe /dev/null &&
	mkdir d && bad_info "is a directory" --probe d
'
test_expect_success 'one bad operand among good ones: exit 2, the others shown' '
	test_expect_code 2 "$CLYDE" info . "$TRASH/nope" >out 2>err &&
	test_line_count = 1 err && grep -q "^target:\|^path\|mount" out
'
test_expect_success 'an unknown option is a usage error' '
	bad_info "option -x is unknown" -x .
'
test_done
