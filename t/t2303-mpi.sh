#!/bin/bash
# The MPI build (make MPI=1): under mpirun every rank is a worker, rank 0
# writes one record with a row per rank and host, shaped like the record
# of forked workers (-c N), aggregated as mdtest does: total work over the
# longest rank's time from the shared barrier.
. "$(dirname "$0")/lib.sh"

test_have_prereq JQ || test_skip_all 'jq is needed to read the JSON record'
command -v mpirun >/dev/null && command -v mpicc >/dev/null ||
	test_skip_all 'OpenMPI (mpicc, mpirun) is not installed: scripts/install-deps --mpi'

MPIRUN="mpirun --oversubscribe"
[ "$(id -u)" -ne 0 ] || MPIRUN="$MPIRUN --allow-run-as-root"

# The MPI binary: $CLYDE when it is one, else a private build of the tree.
if ldd "$CLYDE" 2>/dev/null | grep -q libmpi; then
	MPI_CLYDE=$CLYDE
else
	test_expect_success 'make MPI=1 builds clyde with mpicc' '
		mkdir build &&
		(cd "$SRC_DIR" && tar --exclude="*.[oad]" --exclude=./clyde \
			--exclude="./t/*.t" --exclude=./.git --exclude="./results" \
			-cf - .) | tar -C build -xf - &&
		make -C build -j2 MPI=1 clyde >build.log 2>&1 &&
		ldd build/clyde | grep -q libmpi
	'
	MPI_CLYDE=$TRASH/build/clyde
fi

# shape: what a record of N workers looks like, values left out
shape () {
	jq -c '{concurrency: .params.concurrency,
		results: [.results[] | {name, status,
			workers: [.workers[]? | {worker, status,
				keys: (keys | sort)}]}]}' "$1"
}

test_expect_success 'mpirun -np 3: one record, a row per rank and host' '
	mkdir d &&
	$MPIRUN -np 3 "$MPI_CLYDE" -d d -s 16M -f -n 1 -z 9 -q \
		--json mpi.jsonl >mpi.csv 2>mpi.err &&
	test_line_count = 1 mpi.jsonl &&
	test_line_count = 1 mpi.csv &&
	test -z "$(ls -A d)" &&
	jq -e "
		.exit_status == 0 and .params.concurrency == 3 and
		.params.mpi_ranks == 3 and
		all(.results[] | select(.status != \"not_run\");
			.status == \"ok\" and
			([.workers[].worker] == [0, 1, 2]) and
			all(.workers[]; .host == \"$(hostname)\" and
				.first_s == 0 and .last_s > 0 and
				.value > 0) and
			# mdtest: total work / the longest rank time
			.elapsed == ([.workers[].last_s] | max) and
			((([.workers[] | .value * .elapsed] | add) / .elapsed)
				/ .value - 1 | fabs) < 1e-6 and
			.histogram.count == ([.workers[].ops] | add))
	" mpi.jsonl &&
	awk -F, "\$1 == \"1.98\" && \$4 == 3" mpi.csv | grep -q .
'

test_expect_success 'the MPI record has the shape of a forked run'"'"'s' '
	"$CLYDE" -c 3 -d d -s 16M -f -n 1 -z 9 -q --json fork.jsonl \
		>fork.csv 2>fork.err &&
	shape mpi.jsonl >mpi.shape &&
	shape fork.jsonl >fork.shape &&
	test_cmp fork.shape mpi.shape &&
	grep -q "\"workers\":\[{" mpi.shape
'

test_expect_success 'without mpirun the MPI build runs as one worker' '
	"$MPI_CLYDE" -d d -s 8M -f -n 0 -q --json one.jsonl >one.csv 2>one.err &&
	jq -e ".exit_status == 0 and .params.concurrency == 1 and
		all(.results[]; .workers == null)" one.jsonl
'

test_done
