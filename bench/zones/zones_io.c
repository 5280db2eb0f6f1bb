// SPDX-License-Identifier: GPL-2.0-only
/* One sweep of `clyde zones` (see zones_io.h). */
#include "bench/zones/zones_io.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fsops/clock.h"
#include "lib/xalloc.h"

/* A zone under way: its I/Os' figures until the last one is done. */
struct zacc {
	struct hist_dense h;
	uint64_t nios;		/* I/Os the zone has */
	uint64_t done;		/* of them completed (well or not) */
	uint64_t bytes, ios, errors, err_off;
	int err;
};

/* One sweep under way: the requests, the zones in flight, where it is. */
struct sweep_state {
	struct io_req *reqs, **freelist, **batch, **done;
	struct zacc *acc;	/* ring of the zones under way */
	size_t ring;
	struct io_engine eng;
	struct zones_io *io;
	struct zones_sweep *s;	/* NULL: a fill, nothing measured */
	int write, stopping;
	uint32_t gen;
	enum zones_end end;
	char *why;		/* the caller's, len bytes */
	size_t len;
	uint64_t next;		/* offset of the next I/O to submit */
	uint64_t opened, zdone;	/* zones begun, zones finished */
	uint64_t start, prev, now;	/* ns: sweep start, last zone end,
					 * last reap */
	unsigned nfree, inflight;
};

static void state_init(struct sweep_state *st, struct zones_io *io)
{
	unsigned i;

	memset(st, 0, sizeof(*st));
	st->io = io;
	st->ring = 2 * (size_t)io->qd + 2;
	st->acc = xcalloc(st->ring, sizeof(*st->acc));
	st->reqs = xcalloc(io->qd, sizeof(*st->reqs));
	st->freelist = xcalloc(io->qd, sizeof(*st->freelist));
	st->batch = xcalloc(io->qd, sizeof(*st->batch));
	st->done = xcalloc(io->qd, sizeof(*st->done));
	for (i = 0; i < io->qd; i++) {
		st->reqs[i].buf = (char *)io->bufs + (size_t)i * io->bs;
		st->reqs[i].fd = io->fd;
		st->reqs[i].slot = i;
		st->freelist[i] = &st->reqs[i];
	}
	st->nfree = io->qd;
	st->end = ZONES_DONE;
}

static void state_release(struct sweep_state *st)
{
	free(st->acc);
	free(st->reqs);
	free(st->freelist);
	free(st->batch);
	free(st->done);
}

/* Zone z's bytes. */
static uint64_t zone_len(const struct zones_io *io, uint64_t z)
{
	uint64_t off = z * io->zone;

	return io->size - off < io->zone ? io->size - off : io->zone;
}

/* Zone z is done at now: its row, and its I/Os into the sweep's latency. */
static void finish_zone(const struct zones_io *io, struct zones_sweep *s,
			const struct zacc *a, uint64_t z, uint64_t from,
			uint64_t now)
{
	struct histogram lat;
	struct zone_row *r;

	if (!s)
		return;
	r = zones_add_row(s);
	r->offset = z * io->zone;
	r->length = zone_len(io, z);
	r->bytes = a->bytes;
	r->ios = a->ios;
	r->errors = a->errors;
	r->err = a->err;
	r->err_offset = a->err_off;
	r->elapsed = (double)(now - from) / 1e9;
	hist_init(&lat);
	hist_merge_dense(&lat, &a->h);
	zones_row_finish(r, &lat);
	hist_merge(&s->lat, &lat);
	hist_release(&lat);
}

/* The failed I/O r into its zone's figures. */
static void count_failure(struct zacc *a, const struct io_req *r)
{
	if (!a->errors) {
		a->err = r->res < 0 ? (int)-r->res : 0;
		a->err_off = r->off;
	}
	a->errors++;
}

/* Zone z begins: its slot of the ring, cleared. */
static void open_zone(struct sweep_state *st, uint64_t z)
{
	struct zacc *a = &st->acc[z % st->ring];

	memset(a, 0, sizeof(*a));
	hist_dense_init(&a->h);
	a->nios = (zone_len(st->io, z) + st->io->bs - 1) / st->io->bs;
	st->opened++;
}

/* The next I/Os into st->batch, as many as requests are free and the
 * ring of zones under way has room; how many. */
static unsigned fill_batch(struct sweep_state *st)
{
	const struct zones_io *io = st->io;
	unsigned n = 0;

	while (st->nfree && !st->stopping && st->next < io->size) {
		uint64_t z = st->next / io->zone;
		struct io_req *r;

		if (z - st->zdone >= st->ring)
			break;	/* the ring of zones under way is full */
		if (z == st->opened)
			open_zone(st, z);
		r = st->freelist[--st->nfree];
		r->off = st->next;
		r->len = (unsigned)(io->size - st->next < io->bs ?
				    io->size - st->next : io->bs);
		r->write = (unsigned char)st->write;
		if (st->write)
			datagen_stamp(io->dg, r->buf, r->len, 0, st->gen,
				      r->off);
		st->batch[n++] = r;
		st->next += r->len;
	}
	return n;
}

/* Submit the n I/Os of st->batch.  0, or -1 with the sweep failed. */
static int submit_batch(struct sweep_state *st, unsigned n)
{
	uint64_t t = clock_ns();
	unsigned i;
	int rc;

	for (i = 0; i < n; i++)
		st->batch[i]->start_ns = t;
	rc = io_engine_submit(&st->eng, st->batch, n);
	if (rc) {
		snprintf(st->why, st->len, "cannot submit %u I/Os at offset "
			 "%" PRIu64 ": %s", n, st->batch[0]->off,
			 strerror(-rc));
		st->end = ZONES_FAILED;
		return -1;	/* the engine's release waits */
	}
	st->inflight += n;
	return 0;
}

/* The zones whose I/Os are all done, in order: their rows. */
static void finish_ready(struct sweep_state *st)
{
	while (st->zdone < st->opened) {
		const struct zacc *a = &st->acc[st->zdone % st->ring];

		if (a->done < a->nios)
			break;
		finish_zone(st->io, st->s, a, st->zdone, st->prev, st->now);
		st->prev = st->now;
		st->zdone++;
	}
}

/* The completed I/O r into its zone; a short or failed write stops the
 * sweep (the file cannot grow). */
static void complete(struct sweep_state *st, struct io_req *r)
{
	struct zones_io *io = st->io;
	struct zacc *a = &st->acc[(r->off / io->zone) % st->ring];

	a->done++;
	if (__builtin_expect(r->res == (long)r->len, 1)) {
		hist_dense_add(&a->h, st->now - r->start_ns);
		a->bytes += r->len;
		a->ios++;
	} else if (st->write && (r->res == -ENOSPC || r->res >= 0)) {
		count_failure(a, r);
		if (st->end == ZONES_DONE) {
			snprintf(st->why, st->len, "no space left at offset "
				 "%" PRIu64, r->off);
			st->end = ZONES_NOSPACE;
		}
		st->stopping = 1;
	} else {
		count_failure(a, r);
	}
	st->freelist[st->nfree++] = r;
	io->done++;
}

/* Wait for one completion at least and take all there are; a stop asked
 * for (*io->stop) ends the submitting.  0, or -1 with the sweep failed. */
static int reap_batch(struct sweep_state *st)
{
	int rc = io_engine_reap(&st->eng, 1, st->done, st->io->qd, NULL);
	unsigned i;

	if (rc < 0) {
		snprintf(st->why, st->len, "cannot reap I/Os: %s",
			 strerror(-rc));
		st->end = ZONES_FAILED;
		return -1;
	}
	st->now = clock_ns();
	for (i = 0; i < (unsigned)rc; i++)
		complete(st, st->done[i]);
	st->inflight -= (unsigned)rc;
	if (*st->io->stop && !st->stopping) {
		st->stopping = 1;
		if (st->end == ZONES_DONE) {
			snprintf(st->why, st->len, "interrupted");
			st->end = ZONES_STOPPED;
		}
	}
	return 0;
}

/* Keep the queue full until every I/O is done, or the sweep ends. */
static void run_queue(struct sweep_state *st)
{
	for (;;) {
		unsigned n = fill_batch(st);

		if (n && submit_batch(st, n))
			break;
		/* the device is busy again: now the zones that are done */
		finish_ready(st);
		if (!st->inflight) {
			if (st->stopping || st->next >= st->io->size)
				break;
			continue;	/* the ring has room again */
		}
		if (reap_batch(st))
			break;
	}
}

enum zones_end zones_sweep(struct zones_io *io, int write, uint32_t gen,
			   struct zones_sweep *s, char *why, size_t len)
{
	const uint64_t nzones = (io->size + io->zone - 1) / io->zone;
	struct sweep_state st;
	int rc;

	why[0] = '\0';
	state_init(&st, io);
	st.write = write, st.gen = gen, st.s = s, st.why = why, st.len = len;
	rc = io_engine_init(&st.eng, io->ops, io->qd, NULL);
	if (rc) {
		snprintf(why, len, "cannot set up the %s engine for %u I/Os: "
			 "%s", io->ops->name, io->qd, strerror(-rc));
		state_release(&st);
		return ZONES_FAILED;
	}
	if (s)	/* no allocation inside the loop */
		xgrow((void **)&s->zones, &s->alloc, (size_t)nzones,
		      sizeof(*s->zones));
	st.start = st.prev = st.now = clock_ns();
	run_queue(&st);
	/* the sweep ends with its last completion (and a write's sync),
	 * not with the engine's teardown (io_destroy can take 10 ms) */
	if (write && st.end == ZONES_DONE) {
		if (fdatasync(io->fd)) {
			rc = errno;
			snprintf(why, len, "fdatasync: %s", strerror(rc));
			st.end = rc == ENOSPC ? ZONES_NOSPACE : ZONES_FAILED;
		}
		st.now = clock_ns();
	}
	io_engine_release(&st.eng);
	if (s) {
		s->elapsed = (double)(st.now - st.start) / 1e9;
		zones_sweep_finish(s);
	}
	state_release(&st);
	return st.end;
}
