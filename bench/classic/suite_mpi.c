// SPDX-License-Identifier: GPL-2.0-only
/*
 * The suite by MPI ranks (stubs without MPI=1: bench/parallel/mpi.h): every rank
 * runs suite_loop() in its own context; the ranks agree before each test
 * whether to go on, and rank 0 aggregates the test from every rank's
 * slot, as mdtest does (the clocks of different hosts are not
 * comparable): total work over the longest rank's time from the shared
 * barrier.
 */
#include "bench/classic/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/parallel/aggregate.h"
#include "bench/cmdutil.h"
#include "bench/measure.h"
#include "bench/parallel/mpi.h"
#include "bench/parallel/workers.h"
#include "fsops/clock.h"
#include "lib/diag.h"
#include "lib/xalloc.h"

/* measure_begin()'s gate under MPI: a barrier of all ranks, once a test. */
struct mpi_gate {
	int passed;
	uint64_t ns;	/* when this rank left the barrier */
};

static void mpi_gate(void *arg)
{
	struct mpi_gate *g = arg;

	if (g->passed)
		return;
	g->passed = 1;
	clyde_mpi_barrier();
	g->ns = clock_ns();
}

#define MPI_NAME_LEN 256

struct mpi_run {
	struct bench_ctx ctx;
	int ctx_ok;		/* opened: the tests can run */
	struct mpi_gate gate;
	struct record *wrec;	/* this rank's own results */
	struct worker_slot *mine, *all;
	const char **hosts, **dirs;
	struct record *rec;
	int rank, size;
};

static int mpi_stopped(void *arg, int local)
{
	const struct mpi_run *r = arg;

	/* a rank without its directory stops them all, as a failure does */
	return clyde_mpi_max(local || !r->ctx_ok);
}

static int mpi_run_test(void *arg, size_t i, const struct bench_test *t,
			struct result *res)
{
	struct mpi_run *r = arg;
	size_t nwarn = r->wrec->nwarnings;
	struct result *mres = bench_test_result(t, r->wrec);
	uint64_t took;

	(void)i;
	r->gate.passed = 0;
	*r->ctx.wall = 0;	/* each rank's own, per test */
	suite_run_test(&r->ctx, t, mres);
	if (!r->gate.passed)	/* failed early: still one barrier */
		mpi_gate(&r->gate);
	took = mres->elapsed > 0 ? (uint64_t)(mres->elapsed * 1e9) : 0;
	/* times on this rank's clock from its barrier exit */
	worker_slot_fill(r->mine, mres, 0, took, r->wrec, nwarn);
	clyde_mpi_gather_slots(r->mine, r->all);
	if (!r->rank)
		return suite_aggregate(res, r->all, (unsigned)r->size, 0,
				       r->dirs, r->hosts, AGG_FROM_BARRIER,
				       r->rec);
	return mres->status == RESULT_FAILED ? -1 : 0;
}

int suite_run_mpi(const struct bench_config *cfg,
		  const struct dio_align *align, const char *host,
		  struct record *rec, int rank, int size)
{
	static const struct suite_backend backend = {
		.stopped = mpi_stopped,
		.run = mpi_run_test,
	};
	size_t ndirs = cfg->ndirs ? cfg->ndirs : 1;
	const char *dir = cfg->ndirs ? cfg->dirs[(size_t)rank % ndirs] : ".";
	/* --stonewall: each rank on its own clock from the shared barrier */
	volatile sig_atomic_t wall = 0;
	char name[MPI_NAME_LEN], *names = NULL, err[512];
	struct mpi_run r;
	int status = 0, k;

	memset(&r, 0, sizeof(r));
	r.rec = rec;
	r.rank = rank;
	r.size = size;
	r.wrec = record_new();
	r.mine = xcalloc(1, sizeof(*r.mine));
	snprintf(name, sizeof(name), "%s", host ? host : "");
	if (!rank) {
		r.all = xcalloc((size_t)size, sizeof(*r.all));
		names = xcalloc((size_t)size, MPI_NAME_LEN);
		r.hosts = xcalloc((size_t)size, sizeof(*r.hosts));
		r.dirs = xcalloc((size_t)size, sizeof(*r.dirs));
	}
	clyde_mpi_gather_names(name, names, MPI_NAME_LEN);
	for (k = 0; !rank && k < size; k++) {
		r.hosts[k] = names + (size_t)k * MPI_NAME_LEN;
		r.dirs[k] = cfg->ndirs ? cfg->dirs[(size_t)k % ndirs] : ".";
	}
	if (suite_ctx_open(&r.ctx, cfg, dir, -1,
			   (cfg->seed + 0x9e3779b9u * (uint64_t)rank) &
			   0xffffffffu, &cmd_stop_signal, &wall,
			   align ? &align[(size_t)rank % ndirs] : NULL,
			   r.wrec, err, sizeof(err))) {
		diag_error("rank %d: %s", rank, err);
		status = EXIT_FAILED;
	} else {
		r.ctx_ok = 1;
		suite_set_signal_file(&r.ctx);
	}
	measure_set_gate(mpi_gate, &r.gate);
	k = suite_loop(cfg, rec, &backend, &r);
	if (!status)
		status = k;
	measure_set_gate(NULL, NULL);
	suite_set_signal_file(NULL);
	suite_ctx_close(&r.ctx);
	record_free(r.wrec);
	free(r.mine);
	free(r.all);
	free(names);
	free(r.hosts);
	free(r.dirs);
	return status;
}
