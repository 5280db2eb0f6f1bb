/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_MPI_H
#define CLYDE_MPI_H

/*
 * Runs across hosts with MPI (bench/parallel/mpi.c, built only with `make MPI=1`,
 * which defines CLYDE_MPI).  Under mpirun every rank is one worker of
 * `clyde run`; the barriers and the gathering of results are MPI's, and
 * rank 0 writes the record.  A waiting rank sleeps between polls of a
 * non-blocking barrier instead of spinning a core away from the others'
 * I/O.
 */

#include <stddef.h>

#include "bench/parallel/workers.h"

#ifdef CLYDE_MPI

/*
 * Start MPI when the process was started by mpirun (its environment says
 * so).  Returns the number of ranks: 1 when not under mpirun (MPI is then
 * not started at all).
 */
int clyde_mpi_init(void);

/* This rank, 0..size-1 (0 when MPI is not started). */
int clyde_mpi_rank(void);

/* Finish MPI if clyde_mpi_init() started it. */
void clyde_mpi_finalize(void);

/* Every rank's v, the largest one returned to all (a barrier too). */
int clyde_mpi_max(int v);

/* A barrier that sleeps while it waits. */
void clyde_mpi_barrier(void);

/*
 * Gather every rank's slot into all (n slots, on rank 0 only; NULL on the
 * others).  0, or -1 when MPI failed.
 */
int clyde_mpi_gather_slots(const struct worker_slot *mine,
			   struct worker_slot *all);

/* Gather every rank's host name (len bytes each) into all on rank 0. */
int clyde_mpi_gather_names(const char *mine, char *all, size_t len);

#else	/* without MPI: one rank, the calls do nothing */

#include <string.h>

static inline int clyde_mpi_init(void) { return 1; }
static inline int clyde_mpi_rank(void) { return 0; }
static inline void clyde_mpi_finalize(void) { }
static inline int clyde_mpi_max(int v) { return v; }
static inline void clyde_mpi_barrier(void) { }

static inline int clyde_mpi_gather_slots(const struct worker_slot *mine,
					 struct worker_slot *all)
{
	if (all)
		memcpy(all, mine, sizeof(*all));
	return 0;
}

static inline int clyde_mpi_gather_names(const char *mine, char *all,
					 size_t len)
{
	if (all)
		memcpy(all, mine, len);
	return 0;
}

#endif
#endif
