#!/bin/bash
# --stonewall (mdtest -W): a file phase ends for every worker once the
# first has run it that long; the rates count only the files done, the
# later phases work on the files that exist, and nothing is left behind.
. "$(dirname "$0")/lib.sh"

test_have_prereq JQ || test_skip_all 'jq is needed to read the JSON record'

test_expect_success 'bad --stonewall is a usage error' '
	test_expect_code 2 "$CLYDE" --stonewall x -d . 2>err &&
	grep -q "^clyde: --stonewall: .x. must be a number of seconds" err
'

# check_stonewall N: r.jsonl holds one record of N workers whose creates
# were stonewalled before their 100k files, and whose stats and deletes
# worked on the files made: on all of them, or stonewalled in turn
check_stonewall () {
	test_line_count = 1 r.jsonl &&
	jq -e --argjson n "$1" '
		.exit_status == 0 and .params.stonewall == 0.01 and
		all(.results[] | select(.name | test("_create$"));
			.status == "ok" and .stonewalled and
			.ops > 0 and .ops < 102400 * $n and
			((.value * .elapsed / .ops) - 1 | fabs) < 1e-6) and
		# stat and delete worked on the files made: all of them, unless
		# the stonewall ended them too (a loaded machine can take more
		# than 10 ms to delete what was made in 10 ms)
		([("seq_", "ran_") as $f |
			(.results[] | select(.name == $f + "create")) as $c |
			.results[] | select(.name == $f + "stat" or
					    .name == $f + "del") |
			.status == "ok" and .ops > 0 and .ops <= $c.ops and
			(.stonewalled or .ops == $c.ops)] | length == 4 and
			all) and
		(if $n > 1 then all(.results[] | select(.status == "ok");
			(.workers | length) == $n and
			.ops == ([.workers[].ops] | add)) else true end)
	' r.jsonl >/dev/null || {
		jq -c '.results[] | select(.status != "not_run") |
			{name, status, reason, ops, elapsed, stonewalled}' \
			r.jsonl >&2
		return 1
	}
}

test_expect_success 'one worker: --stonewall caps the file phases' '
	mkdir d &&
	"$CLYDE" -q -d d -s 0 -n 100 --stonewall 0.01 --json r.jsonl \
		>out 2>err &&
	check_stonewall 1 &&
	grep -q "Sequential create: stonewalled" err &&
	test -z "$(ls -A d)"
'

test_expect_success '2 workers: the first to reach it stops all' '
	rm -rf d r.jsonl && mkdir d &&
	"$CLYDE" -q -d d -c 2 -s 0 -n 100 --stonewall 0.01 --json r.jsonl \
		>out 2>err &&
	check_stonewall 2 &&
	test -z "$(ls -A d)"
'

test_done
