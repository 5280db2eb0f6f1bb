// SPDX-License-Identifier: GPL-2.0-only
/*
 * MPI for `clyde run` across hosts (see mpi.h).  Compiled only by
 * `make MPI=1` (mpicc, -DCLYDE_MPI).
 */
#include "bench/parallel/mpi.h"

#ifdef CLYDE_MPI

#include <mpi.h>
#include <stdlib.h>
#include <time.h>

static int started;

int clyde_mpi_init(void)
{
	int size = 1;

	if (!getenv("OMPI_COMM_WORLD_SIZE") && !getenv("PMIX_RANK") &&
	    !getenv("PMI_SIZE"))
		return 1;
	if (MPI_Init(NULL, NULL) != MPI_SUCCESS)
		return 1;
	started = 1;
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	return size;
}

int clyde_mpi_rank(void)
{
	int rank = 0;

	if (started)
		MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	return rank;
}

void clyde_mpi_finalize(void)
{
	if (started)
		MPI_Finalize();
	started = 0;
}

/* Complete req, sleeping 100 us between polls. */
static void wait_idle(MPI_Request *req)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = 100000 };
	int done = 0;

	for (;;) {
		MPI_Test(req, &done, MPI_STATUS_IGNORE);
		if (done)
			return;
		nanosleep(&ts, NULL);
	}
}

int clyde_mpi_max(int v)
{
	MPI_Request req;
	int out = v;

	if (!started)
		return v;
	MPI_Iallreduce(&v, &out, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &req);
	wait_idle(&req);
	return out;
}

void clyde_mpi_barrier(void)
{
	MPI_Request req;

	if (!started)
		return;
	MPI_Ibarrier(MPI_COMM_WORLD, &req);
	wait_idle(&req);
}

int clyde_mpi_gather_slots(const struct worker_slot *mine,
			   struct worker_slot *all)
{
	MPI_Request req;

	if (MPI_Igather(mine, (int)sizeof(*mine), MPI_BYTE, all,
			(int)sizeof(*mine), MPI_BYTE, 0, MPI_COMM_WORLD,
			&req) != MPI_SUCCESS)
		return -1;
	wait_idle(&req);
	return 0;
}

int clyde_mpi_gather_names(const char *mine, char *all, size_t len)
{
	return MPI_Gather(mine, (int)len, MPI_CHAR, all, (int)len, MPI_CHAR,
			  0, MPI_COMM_WORLD) == MPI_SUCCESS ? 0 : -1;
}

#endif
