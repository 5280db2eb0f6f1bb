/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_MATRIX_RUN_H
#define CLYDE_MATRIX_RUN_H

/*
 * The parts of `clyde matrix` (bench/matrix*.c), for each other only:
 *   matrix.c          the command: options, outputs, the cells in order
 *   matrix_target.c   the target checked and opened, prefill, buffers
 *   matrix_pass.c     a cell (and its curve points) run by its threads
 *   matrix_io.c       one thread's I/O loop
 *   matrix_workers.c  -c N: worker processes running the cells in step
 */

#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "bench/matrix/matrix_options.h"
#include "bench/parallel/workers.h"
#include "bench/rundir.h"
#include "fsops/datagen.h"
#include "fsops/engine.h"
#include "fsops/file.h"
#include "fsops/target.h"
#include "fsops/verify.h"
#include "report/model/histogram.h"
#include "report/model/matrix.h"
#include "report/model/record.h"

enum target_kind { TARGET_DIR, TARGET_FILE, TARGET_DEVICE };

/* What the I/O loops poll to stop: the signal flag, or in a -c worker the
 * flag its parent sets (bench/parallel/workers.h). */
extern volatile sig_atomic_t *matrix_stop;

/* Everything a run works on. */
struct matrix_run {
	const struct matrix_config *cfg;
	const char *path;	/* its -d */
	unsigned index;		/* its place among the -d (0..) */
	unsigned ntargets;	/* how many -d the threads spread over */
	enum target_kind kind;
	struct rundir *own;	/* our own directory (TARGET_DIR) */
	char **paths;		/* nfiles */
	int *fds;
	unsigned nfiles;
	uint64_t file_size;	/* each file */
	uint64_t orig_size;	/* --overwrite: the file's size before */
	dev_t dev;		/* st_dev of -d: targets on one filesystem
				 * share its free space */
	struct dio_align align;
	const struct io_engine_ops *engine;
	unsigned engine_flags;	/* IO_SETUP_*: --sqpoll, --hipri */
	int direct;
	/* --verify: the check unit and each file's generation per unit */
	size_t vunit;
	uint32_t **gens;
	/* -c N: this worker's place among the others (wk NULL: alone) */
	struct workers *wk;
	unsigned widx, wstep;
};

/* A thread's memory, made once per run: its slot buffers (qd x the
 * largest --bs, aligned) and, when the run writes without --verify, its
 * own datagen pool (writes stamp windows of it in place). */
struct matrix_tmem {
	void *buf;
	size_t len;
	struct datagen *dg;	/* NULL: no writes, or --verify's data */
};

/* --- matrix_target.c --- */

/* The datagen stream of file `file` of run: unique across -c workers and
 * targets, so no two files hold the same data. */
uint32_t matrix_data_stream(const struct matrix_run *run, unsigned file);

/* Threads of a cell of `threads` threads that run on target `index` of n
 * (round robin: thread t on target t % n). */
unsigned matrix_target_threads(unsigned threads, unsigned index,
			       unsigned n);

/* Check the target run->path and set up run (creating nothing yet but
 * probes).  0 or EXIT_USAGE after a message. */
int matrix_check_target(const struct matrix_config *cfg,
			struct matrix_run *run, struct fs_target *target);

/*
 * Size the files of every directory or file target (runs[0..n), their
 * detected filesystems in targets, procs workers each with files of their
 * own): --size, or its default of 1 GiB per file clipped so that every
 * filesystem's files fit in half its free space, no smaller than a floor;
 * every product checked for overflow.  0 or EXIT_USAGE after a message in
 * human units naming the option that needs the room.
 */
int matrix_size_files(const struct matrix_config *cfg,
		      struct matrix_run *runs, unsigned n,
		      const struct fs_target *targets, unsigned procs);

/* Open (and for a directory, create) the files.  0, EXIT_USAGE or
 * EXIT_FAILED; on failure what was created is removed by
 * matrix_run_release(). */
int matrix_open_files(const struct matrix_config *cfg,
		      struct matrix_run *run);

/* What needs the files open: the hit area fits, the --verify generation
 * maps.  0 or EXIT_USAGE. */
int matrix_check_layout(const struct matrix_config *cfg,
			struct matrix_run *run);

/*
 * Sequential large writes of unique data over every file, then fsync;
 * with --verify every unit is stamped at generation 0.  With --no-prefill
 * and --verify, read every unit instead, check it and learn its
 * generation.  0, or -errno with *why set (malloc'ed) when there is more
 * to say (-EILSEQ: a unit failed the check).
 */
int matrix_prefill(const struct matrix_config *cfg, struct matrix_run *run,
		   char **why, uint64_t *bytes);

/* Close the files; in our own directory, remove them and it. */
void matrix_run_release(struct matrix_run *run);

/* Per-thread memory for the largest cell (outside every timed span). */
struct matrix_tmem *matrix_alloc_buffers(const struct matrix_config *cfg,
					 const struct matrix_run *run);
void matrix_free_buffers(struct matrix_tmem *mem, unsigned n);

/* "no clyde header" or what a verify header says. */
void matrix_found_str(char *buf, size_t len, enum verify_result res,
		      const struct verify_id *id);

/* --- matrix_io.c --- */

/* Releases a cell's threads together, at a start time they all share. */
struct start_gate {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int go;			/* 1 go, -1 abort */
	uint64_t start_ns;
};

/* A verify mismatch, as a worker found it. */
struct verify_fail {
	enum verify_result res;
	struct verify_id want, found;
};

/* One thread's share of a pass (a cell's maximum run or a curve point). */
struct worker {
	pthread_t tid;
	struct matrix_run *run;
	const struct matrix_cell *cell;
	struct start_gate *gate;
	uint64_t ramp_ns, time_ns;
	uint64_t interval_ns;		/* ns between I/Os; 0: no limit */
	int fd;
	unsigned stream;		/* file index */
	uint32_t *gens;			/* --verify: generations */
	uint64_t region_off, nblocks;	/* in cell->bs blocks */
	uint64_t nhit;			/* hit area, blocks (0: none) */
	unsigned hit_pct;
	uint64_t seed;
	unsigned index;
	const struct matrix_tmem *mem;	/* the thread's buffers, pool */
	struct hist_dense rlat, wlat;
	uint64_t hits;			/* measured I/Os in hit area */
	uint64_t mstart, mend;		/* measured from, last done */
	/* --steady: the pass's sample epoch (set by the pass), a latency
	 * histogram pair per epoch (ring of nring), measured I/Os so far */
	const uint64_t *epoch;
	struct hist_dense *ring_r, *ring_w;
	unsigned nring;
	uint64_t ring_epoch;
	uint64_t done;			/* atomic: I/Os measured so far */
	const int *pass_stop;		/* the pass ended early (steady) */
	int measured;			/* mstart is set */
	int err;			/* -errno of a failed I/O */
	uint64_t err_off;
	struct verify_fail vfail;	/* err == -EILSEQ */
};

/* Sleep until monotonic time t (ns), or until matrix_stop. */
void matrix_sleep_until(uint64_t t);

/* A thread's body (pthread_create): the I/O loop of w. */
void *matrix_worker_main(void *arg);

/* --- matrix_pass.c --- */

/* What one pass of a cell measured. */
struct pass_result {
	struct histogram *rlat, *wlat;	/* merged into */
	struct matrix_target_row *trows;	/* per target, or NULL */
	struct matrix_steady *steady;	/* --steady: filled; NULL: none */
	double elapsed, cpu;
	uint64_t hits;
	uint64_t first_ns, last_ns;	/* measured span (monotonic) */
	char *reason;			/* failed: why (malloc'ed) */
	int err;			/* failed: -errno of the I/O, or 0 */
};

/*
 * Run cell c once with its threads released together: for --ramp, then
 * measured for --time; interval_ns > 0 limits each thread to one I/O per
 * interval.  0, or -1 with res->reason set.
 */
int matrix_run_pass(struct matrix_run *runs, unsigned nruns,
		    const struct matrix_cell *c, uint64_t seed,
		    uint64_t interval_ns, const struct matrix_tmem *mem,
		    struct pass_result *res);

/* The seed of pass point (0: the maximum run) of cell index. */
uint64_t matrix_pass_seed(const struct matrix_config *cfg, unsigned index,
			  unsigned point);

/* Run one cell (its threads spread over runs[0..nruns)), then its rate
 * curve; 0, or with the cell marked failed -errno of the failed I/O
 * (-ENOSPC...) or -1. */
int matrix_run_cell(struct matrix_run *runs, unsigned nruns,
		    struct matrix_cell *c, unsigned index,
		    const struct matrix_tmem *mem);

/* Cell c cut short by signal sig: not a failure of the I/O but a stop,
 * recorded as `clyde run` records the tests a stop prevented (skipped,
 * "interrupted by signal N (SIGINT)"); its partial figures stay. */
void matrix_cell_interrupted(struct matrix_cell *c, int sig);

/*
 * After cell i (0-based; what describes it): when the process was
 * stopped and continued since the clock_stopped() before it, the cell
 * marked stopped (as a classic test is RESULT_STOPPED) and a warning in
 * rec naming it, whose figures include the time stopped.
 */
void matrix_note_stop(struct record *rec, size_t i, const char *what);

/* --- matrix_direct.c --- */

struct fs_target;
struct record;

/* The mean page-cache residency (0..1) of run's files, or -1 when it
 * cannot be told (mincore failed, no files open). */
double matrix_resident(const struct matrix_run *r);

/*
 * After the cells: mark rec's matrix direct_ignored, with a warning in the
 * record, when a target is a memory filesystem or its files' residency
 * grew by more than RESULT_CACHED_FRACTION from before[i] (NULL or < 0:
 * not measured) while O_DIRECT was asked.
 */
void matrix_check_direct(const struct matrix_run *runs, unsigned n,
			 const struct fs_target *targets,
			 const double *before, struct record *rec);

/* Flag (low_precision) and warn of (stderr and record) every ok cell and
 * curve point with fewer than MATRIX_MIN_IOS I/Os per thread
 * (report/model/matrix.h). */
void matrix_check_precision(struct record *rec);

/* --- matrix_workers.c --- */

/*
 * Run every cell of rec->matrix with n workers, one matrix_run each (files
 * open).  Returns 0 or EXIT_FAILED; the caller removes the files.
 */
int matrix_run_workers(const struct matrix_config *cfg,
		       struct matrix_run *runs, unsigned n,
		       struct record *rec, const char *host);

/* The second-signal hook: kill the workers at once. */
void matrix_second_signal(void);

#endif
