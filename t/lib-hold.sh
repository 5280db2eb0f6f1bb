# t/lib-hold.sh - hold `clyde run` at a known point, for the tests of what
# a signal or a dying worker does there, without hoping that a phase lasts
# long enough on a loaded machine.
#
# Source after t/lib.sh.  How clyde is held, with nothing but its own
# features and the kernel's job control:
#
# - `clyde run -y p` (bonnie++'s -y p) prints "clyde: press Enter to start
#   'TITLE'" on stderr before each test and reads a line from its standard
#   input; here that input is a FIFO, so the test decides when each test
#   starts and knows which one clyde waits for.  Only the tests that apply
#   (not -f's per-char ones, not the file tests of -n 0) ask.
# - SIGSTOP stops a process wherever it is; after `kill -STOP` returns it
#   runs no more of its own code until SIGCONT (or SIGKILL).  Signals sent
#   to a stopped process wait, and are handled when it continues, the
#   lowest-numbered first (SIGHUP 1, SIGINT 2, SIGTERM 15); two of one kind
#   are one.
# - Forked workers (-c N) are the children of clyde.  While they are
#   stopped, the parent waits for them, as for a worker stuck in slow I/O,
#   and answers signals meanwhile.
#
#	hold_start NAME clyde-args...
#		start "$CLYDE" -y p clyde-args... in the background, its output
#		in NAME.out and NAME.err, its input the FIFO NAME.fifo; sets
#		hold_pid.  If the script ends with clyde still there, it and its
#		workers are killed (the scratch directory is kept then).
#	hold_before TITLE
#		answer the prompts until clyde asks for TITLE (up to 60 s)
#	hold_release
#		start the test clyde asks for
#	hold_go
#		answer every prompt still to come and close the input
#	hold_stop PID... / hold_cont PID...
#		SIGSTOP (and wait until stopped) / SIGCONT
#	hold_workers
#		print the pids of clyde's workers, one a line, in fork order
#	hold_handled
#		wait until clyde has no signal pending: its handlers have run
#	hold_frozen MOUNT [PID...]
#		freeze the filesystem on MOUNT (thawed at exit too), start the
#		test clyde asks for and wait until PID (clyde; its workers for
#		-c N) is blocked in it: the test cannot end before
#		`fsfreeze -u MOUNT`, as it must write.  Prerequisite FREEZE.
#	hold_blocked PID...
#		wait until each is blocked in the kernel (state D: a write or a
#		create on a filesystem frozen by fsfreeze waits there)
#	hold_wait
#		wait for clyde, close the input; hold_status := its exit status
#
# A command without prompts (clyde matrix, clyde zones) shows where it is
# on a terminal: its progress, redrawn on stderr about four times a second.
# Under a pty (script(1), prerequisite SCRIPT) the test reads it and
# signals once clyde shows what the test needs (a cell's timed part
# begun, a second pass), whatever the machine's speed.
#
#	hold_pty NAME clyde-args...
#		start "$CLYDE" clyde-args... in the background, its stdout in
#		NAME.out, its stderr a pty whose output goes to NAME.pty; sets
#		hold_pid (clyde's pid; killed at exit if still there)
#	hold_shows ERE
#		wait until a line clyde wrote to the pty, progress included,
#		matches ERE (up to 60 s)
#	hold_pty_lines
#		print what clyde wrote to the pty, one line a redraw, without
#		the escapes
#	hold_pty_wait
#		wait for clyde; hold_status := its exit status

if ! declare -F test_cleanup >/dev/null; then
	echo "lib-hold.sh: source t/lib.sh first" >&2
	exit 1
fi

# The tests of the classic suite: clyde never asks more often in a run.
_HOLD_PROMPTS_MAX=12

hold_start () {
	hold_name=$1
	shift
	rm -f "$hold_name.fifo" &&
	mkfifo "$hold_name.fifo" || return 1
	# the open of the FIFO for reading waits for the writer below
	"$CLYDE" -y p "$@" <"$hold_name.fifo" >"$hold_name.out" \
		2>"$hold_name.err" &
	hold_pid=$!
	hold_answered=0
	test_cleanup "_hold_kill $hold_pid"
	exec {hold_fd}>"$hold_name.fifo"
}

# _hold_kill PID: at exit, a clyde still held (a failed test) and its
# workers, which a stopped parent would leave stopped for ever
_hold_kill () {
	[ "$(ps -o comm= -p "$1" 2>/dev/null)" = clyde ] || return 0
	local i
	pkill -KILL -P "$1"
	kill -KILL "$1"
	# gone or a zombie: its files are closed (a filesystem may be
	# unmounted next)
	for i in $(seq 100); do
		case $(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null) in
		''|Z*) return 0 ;;
		esac
		sleep 0.1
	done
}

# _hold_answer N: write N lines to clyde's input; a clyde gone meanwhile
# (EPIPE) is no reason for this shell to die of SIGPIPE
_hold_answer () {
	(
		trap '' PIPE
		for ((i = 0; i < $1; i++)); do
			printf '\n'
		done >&"$hold_fd"
	) 2>/dev/null
}

# _hold_prompts: the titles clyde asked for so far, one a line
_hold_prompts () {
	sed -n "s/^clyde: press Enter to start '\\(.*\\)'\$/\\1/p" \
		"$hold_name.err"
}

hold_before () {
	local i n last
	for i in $(seq 1200); do
		n=$(_hold_prompts | wc -l)
		if [ "$n" -gt "$hold_answered" ]; then
			last=$(_hold_prompts | sed -n "${n}p")
			[ "$last" = "$1" ] && return 0
			hold_release || return 1
			continue
		fi
		if ! kill -0 "$hold_pid" 2>/dev/null; then
			echo "clyde ended before asking for '$1':" >&2
			cat "$hold_name.err" >&2
			return 1
		fi
		sleep 0.05
	done
	echo "clyde did not ask for '$1' in 60 s; it asked for:" >&2
	_hold_prompts >&2
	return 1
}

hold_release () {
	_hold_answer 1 &&
	hold_answered=$((hold_answered + 1))
}

hold_go () {
	_hold_answer "$_HOLD_PROMPTS_MAX"
	hold_answered=$((hold_answered + _HOLD_PROMPTS_MAX))
	_hold_close
}

_hold_close () {
	if [ -n "${hold_fd-}" ]; then
		exec {hold_fd}>&-
		unset hold_fd
	fi
}

hold_stop () {
	local p i
	kill -STOP "$@" || return 1
	for p in "$@"; do
		for i in $(seq 400); do
			# the state follows the command name, which has no ')'
			case $(sed 's/.*) //' "/proc/$p/stat") in
			T*|t*) continue 2 ;;
			esac
			sleep 0.05
		done
		echo "process $p did not stop in 20 s" >&2
		return 1
	done
}

hold_cont () {
	kill -CONT "$@"
}

hold_workers () {
	pgrep -P "$hold_pid" | sort -n
}

hold_handled () {
	local i
	for i in $(seq 400); do
		# SigPnd: the thread's own, ShdPnd: the process's (kill(2))
		awk '$1 == "SigPnd:" || $1 == "ShdPnd:" { if ($2 !~ /^0+$/) p = 1 }
			END { exit p }' "/proc/$hold_pid/status" && return 0
		sleep 0.05
	done
	echo "clyde still has a signal pending after 20 s" >&2
	return 1
}

test_lazy_prereq SCRIPT 'command -v script'

hold_pty () {
	local args
	hold_name=$1
	shift
	rm -f "$hold_name.pid" "$hold_name.rc" &&
	# at the test's own priority: under nice 19, beside other busy
	# processes, clyde's progress stood still for seconds (the ticker
	# starved), so the test never saw what it waited for
	args=$(printf '%q ' "$CLYDE" "$@") || return 1
	# clyde in the background of the pty's shell, its stderr the pty;
	# -f: script(1) passes on each redraw as it comes (without it, its
	# output to a file goes in 4 KiB blocks: 10 s of progress a block,
	# and a test signalled clyde at "5 %" long after that was shown)
	SHELL=/bin/bash script -fqec "$args >$hold_name.out &
		echo \$! >$hold_name.pid.t; mv $hold_name.pid.t $hold_name.pid
		wait \$!; echo \$? >$hold_name.rc" /dev/null </dev/null \
		>"$hold_name.pty" &
	hold_script=$!
	wait_for_file "$hold_name.pid" || return 1
	hold_pid=$(cat "$hold_name.pid")
	test_cleanup "_hold_kill $hold_pid"
}

hold_pty_lines () {
	tr '\r' '\n' <"$hold_name.pty" | sed 's/\x1b\[K//g'
}

hold_shows () {
	local i text
	# Without a fork in the loop (the file read by a redirection, the
	# match by [[ =~ ]], the pause a read that times out): beside a busy
	# clyde on a loaded machine a fork took seconds, and a watcher of
	# pipelines saw the progress it waited for only after the cell's end.
	# The lines a redraw ends in \r are one string here: ERE without ^ $.
	if [ -z "$_hold_nap_fd" ]; then
		# a FIFO open for reading and writing: never data, never EOF
		mkfifo "$TRASH/hold-nap.fifo" &&
		exec {_hold_nap_fd}<>"$TRASH/hold-nap.fifo" || return 1
	fi
	for i in $(seq 1200); do
		IFS= read -r -d '' text <"$hold_name.pty"
		[[ $text =~ $1 ]] && return 0
		if ! kill -0 "$hold_pid" 2>/dev/null; then
			hold_pty_lines | grep -aqE "$1" && return 0
			echo "clyde ended before showing '$1':" >&2
			hold_pty_lines | tail -5 >&2
			return 1
		fi
		read -r -t 0.05 -u "$_hold_nap_fd"
	done
	echo "clyde did not show '$1' in 60 s; last:" >&2
	hold_pty_lines | tail -3 >&2
	return 1
}

# hold_signal SIG: send SIG to the held clyde, which must be clyde itself
# (not a shell before its exec); what the kernel shows of its threads'
# signals just after goes to NAME.sig, so that a signal clyde seemed not
# to take leaves evidence of where it went (pending, blocked, ignored)
hold_signal () {
	local comm t
	comm=$(ps -o comm= -p "$hold_pid") &&
	if [ "$comm" != clyde ]; then
		echo "hold_signal: pid $hold_pid is '$comm', not clyde" >&2
		return 1
	fi
	kill -"$1" "$hold_pid" || return 1
	for t in /proc/"$hold_pid"/task/*; do
		echo "$t $(grep -E "^(State|SigQ|SigPnd|ShdPnd|SigBlk|SigIgn|SigCgt):" \
			"$t/status" 2>/dev/null | tr -s "\t\n" "  ")"
	done >"$hold_name.sig" 2>&1
	return 0
}

hold_pty_wait () {
	wait "$hold_script"
	hold_status=$(cat "$hold_name.rc")
}

test_lazy_prereq FREEZE '[ "$(id -u)" -eq 0 ] && command -v fsfreeze'

hold_frozen () {
	local mnt=$1
	shift
	fsfreeze -f "$mnt" || return 1
	# registered after hold_start: thawed before a held clyde is killed
	test_cleanup "fsfreeze -u '$mnt' 2>/dev/null; true"
	hold_release &&
	hold_blocked "${@:-$hold_pid}"
}

hold_blocked () {
	local p i
	for p in "$@"; do
		for i in $(seq 400); do
			case $(sed 's/.*) //' "/proc/$p/stat") in
			D*) continue 2 ;;
			esac
			sleep 0.05
		done
		echo "process $p not blocked (state D) after 20 s" >&2
		return 1
	done
}

hold_wait () {
	wait "$hold_pid"
	hold_status=$?
	_hold_close
	return 0
}

# A process stopped inside its timed span (t2110, t2225: issue 24, 5).
# stop_when PID COND: poll COND (shell builtins only, so that the polling
# keeps up on a loaded machine) while PID lives (not a zombie); when it
# holds, SIGSTOP PID and wait until it is stopped.  PID must be clyde's
# own: a background command alone, not the end of an && list.
stop_when () {
	local pid=$1 cond=$2 state
	until eval "$cond"; do
		read -r _ _ state _ </proc/$pid/stat 2>/dev/null &&
		test "$state" != Z || return 1
	done
	kill -STOP "$pid" &&
	until read -r _ _ state _ </proc/$pid/stat && test "$state" = T; do
		:
	done
}

# io_count PID FIELD: set $count to /proc/PID/io's rchar or wchar, by
# builtins (no subshell: a fork per poll is too slow on a loaded machine).
io_count () {
	local k v
	count=0
	while read -r k v; do
		if test "$k" = "$2:"; then
			count=$v
			return 0
		fi
	done <"/proc/$1/io"
}
