// SPDX-License-Identifier: GPL-2.0-only
/*
 * Random seeks: -s ...:seekers threads share -s ...:seeks tickets.  Each
 * ticket is a random block of the file: read it; about one in ten is an
 * update, changed and written back.  Each thread has its own descriptor
 * (O_DIRECT under --direct), random generator and histogram.  The threads
 * are released together once all are ready; the rate is seeks over the
 * time from that release to the end of the one fsync after all threads
 * have finished, and CPU is the process's, counted once.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "bench/classic/tests.h"
#include "bench/measure.h"
#include "bench/classic/ioutil.h"
#include "fsops/clock.h"
#include "fsops/datagen.h"
#include "fsops/file.h"
#include "lib/xalloc.h"

/* One seek in UPDATE_ONE_IN rewrites its block, as in bonnie++. */
#define UPDATE_ONE_IN 10

struct seek_shared {
	const struct bench_ctx *ctx;
	uint64_t nseeks;
	uint64_t nblocks;
	size_t io;
	uint64_t next;		/* next ticket (atomic) */
	int abort;		/* a seeker failed (atomic) */

	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned ready;		/* seekers waiting for the start */
	int go;			/* 1: start; -1: give up */
};

struct seeker {
	struct seek_shared *sh;
	pthread_t tid;
	int started;
	int fd;
	unsigned char *buf;
	struct rng rng;
	struct hist_dense *lat;
	uint64_t reads, writes;
	int err;		/* negative errno, 0, or 1: short read */
	const char *what;
};

static int seeker_wait_start(struct seek_shared *sh)
{
	int go;

	pthread_mutex_lock(&sh->lock);
	sh->ready++;
	pthread_cond_broadcast(&sh->cond);
	while (!sh->go)
		pthread_cond_wait(&sh->cond, &sh->lock);
	go = sh->go;
	pthread_mutex_unlock(&sh->lock);
	return go > 0;
}

static void *seeker_main(void *arg)
{
	struct seeker *s = arg;
	struct seek_shared *sh = s->sh;
	volatile sig_atomic_t *stop = sh->ctx->stop;
	size_t io = sh->io;

	if (!seeker_wait_start(sh))
		return NULL;
	while (!*stop && !__atomic_load_n(&sh->abort, __ATOMIC_RELAXED)) {
		uint64_t t0, ticket = __atomic_fetch_add(&sh->next, 1,
							 __ATOMIC_RELAXED);
		off_t off;
		ssize_t r;

		if (ticket >= sh->nseeks)
			break;
		off = (off_t)(rng_below(&s->rng, sh->nblocks) * io);
		t0 = clock_ns();
		r = pread_full(s->fd, s->buf, io, off);
		if (r < 0 || (size_t)r < io) {
			s->err = r < 0 ? (int)r : 1;
			s->what = "read";
			break;
		}
		s->reads++;
		if (rng_below(&s->rng, UPDATE_ONE_IN) == 0) {
			/* one byte changes, the block stays unique */
			s->buf[rng_below(&s->rng, io)] ^= 0xa5;
			s->err = pwrite_full(s->fd, s->buf, io, off);
			if (s->err) {
				s->what = "write";
				break;
			}
			s->writes++;
			/* -b as bonnie++ 1.03: each update is synced */
			if ((sh->ctx->cfg->sync_writes ||
			     sh->ctx->cfg->fsync_writes) && fsync(s->fd)) {
				s->err = -errno;
				s->what = "fsync";
				break;
			}
		}
		hist_dense_add(s->lat, clock_ns() - t0);
	}
	if (s->err)
		__atomic_store_n(&sh->abort, 1, __ATOMIC_RELAXED);
	return NULL;
}

/* Release the seekers: go 1 starts them, -1 sends them home. */
static void seekers_release(struct seek_shared *sh, int go)
{
	pthread_mutex_lock(&sh->lock);
	sh->go = go;
	pthread_cond_broadcast(&sh->cond);
	pthread_mutex_unlock(&sh->lock);
}

static void seekers_wait_ready(struct seek_shared *sh, unsigned n)
{
	pthread_mutex_lock(&sh->lock);
	while (sh->ready < n)
		pthread_cond_wait(&sh->cond, &sh->lock);
	pthread_mutex_unlock(&sh->lock);
}

/* Each seeker's descriptor, buffer, histogram and generator; 0 or the
 * negative errno of the open that failed. */
static int seekers_open(const struct bench_ctx *ctx, struct seek_shared *sh,
			struct seeker *s, unsigned n, struct result *res)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		s[i].sh = sh;
		s[i].fd = -1;
	}
	for (i = 0; i < n; i++) {
		s[i].fd = io_open(ctx, O_RDWR, ctx->direct, res);
		if (s[i].fd < 0)
			return s[i].fd;
		s[i].buf = io_buffer(ctx, sh->io);
		s[i].lat = xmalloc(sizeof(*s[i].lat));
		hist_dense_init(s[i].lat);
		rng_seed(&s[i].rng, ctx->seed ^ (0x9e3779b97f4a7c15ull * (i + 1)));
	}
	return 0;
}

/* Start the seekers together (the timed period begins at m) and wait for
 * them all; 0 or the negative errno of a thread that could not start. */
static int seekers_run(struct seek_shared *sh, struct seeker *s, unsigned n,
		       struct measure *m)
{
	unsigned i;
	int err = 0;

	for (i = 0; i < n; i++) {
		err = -pthread_create(&s[i].tid, NULL, seeker_main, &s[i]);
		if (err) {
			seekers_release(sh, -1);
			break;
		}
		s[i].started = 1;
	}
	if (!err) {
		seekers_wait_ready(sh, n);
		measure_begin(m);
		seekers_release(sh, 1);
	}
	for (i = 0; i < n; i++)
		if (s[i].started)
			pthread_join(s[i].tid, NULL);
	return err;
}

/*
 * After the seekers: their first failure, an interruption, then the one
 * fsync and the closes inside the timed period.  0 or a negative errno
 * (1: a short read) with what failed in *what; the counts in reads and
 * writes.
 */
static int seekers_finish(const struct bench_ctx *ctx, struct seeker *s,
			  unsigned n, uint64_t nseeks, uint64_t *reads,
			  uint64_t *writes, const char **what)
{
	unsigned i;
	int err = 0;

	for (i = 0; i < n; i++) {
		if (s[i].err && !err) {
			*what = s[i].what;
			err = s[i].err;
		}
		*reads += s[i].reads;
		*writes += s[i].writes;
	}
	if (!err && *ctx->stop && *reads < nseeks)
		err = -EINTR;
	if (err)
		return err;
	/* one fsync for all seekers, inside the timed period */
	if (fsync(s[0].fd)) {
		*what = "fsync";
		return -errno;
	}
	for (i = 0; i < n; i++) {
		int fd = s[i].fd;

		s[i].fd = -1;
		if (close(fd) && !err) {
			err = -errno;
			*what = "close";
		}
	}
	return err;
}

static void seekers_free(struct seeker *s, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		if (s[i].fd >= 0)
			close(s[i].fd);
		free(s[i].buf);
		free(s[i].lat);
	}
	free(s);
}

static int run_seeks(struct bench_ctx *ctx, struct result *res)
{
	const struct bench_config *cfg = ctx->cfg;
	unsigned i, n = cfg->seekers ? cfg->seekers : 1;
	struct seek_shared sh = {
		.ctx = ctx,
		.nseeks = cfg->seeks,
		.io = ctx->io_size,
		.lock = PTHREAD_MUTEX_INITIALIZER,
		.cond = PTHREAD_COND_INITIALIZER,
	};
	struct seeker *s;
	struct io_probe probe;
	struct measure m;
	uint64_t reads = 0, writes = 0;
	const char *what = "open";
	int err;

	err = io_check_block_size(ctx, res);
	if (err)
		return err;
	sh.nblocks = cfg->file_size / sh.io;
	if (!sh.nblocks) {
		result_set_status(res, RESULT_FAILED,
				  "seeks: '%s' is smaller than one block",
				  ctx->path);
		return -EINVAL;
	}
	err = io_probe_begin(ctx, (off_t)cfg->file_size, &probe, res);
	if (err)
		return err;

	/* Everything that can fail before the start happens here. */
	s = xcalloc(n, sizeof(*s));
	err = seekers_open(ctx, &sh, s, n, res);
	if (!err) {
		err = seekers_run(&sh, s, n, &m);
		if (err)
			what = "thread";
	}
	if (!err)
		err = seekers_finish(ctx, s, n, sh.nseeks, &reads, &writes,
				     &what);
	if (!err) {
		measure_end(&m, res);
		io_probe_end(ctx, &probe, 1, res);
		for (i = 0; i < n; i++)
			hist_merge_dense(&res->lat, s[i].lat);
		res->ops = reads;
		res->bytes = (reads + writes) * sh.io;
		res->value = res->elapsed > 0 ? (double)reads / res->elapsed
					      : 0;
		result_set_status(res, RESULT_OK, NULL);
	}
	seekers_free(s, n);
	if (err) {
		io_probe_end(ctx, &probe, 0, res);
		if (err == 1)
			return io_short_read(ctx, res);
		return io_fail(ctx, res, err, what);
	}
	return 0;
}

const struct bench_test bench_seeks = {
	.def = &bonnie_tests[BONNIE_SEEKS],
	.flags = BENCH_IO | BENCH_READ,
	.after = BENCH_AFTER_UNLINK_IO,
	.run = run_seeks,
};
