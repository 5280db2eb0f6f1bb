// SPDX-License-Identifier: GPL-2.0-only
/* One sweep of `clyde zones` (see zones_io.h). */
#include "zones_io.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../fsops/clock.h"
#include "../lib/xalloc.h"

/* A zone under way: its I/Os' figures until the last one is done. */
struct zacc {
	struct histogram h;
	uint64_t nios;		/* I/Os the zone has */
	uint64_t done;		/* of them completed (well or not) */
	uint64_t bytes, ios, errors, err_off;
	int err;
};

struct sweep_state {
	struct io_req *reqs, **freelist, **batch, **done;
	struct zacc *acc;	/* ring of the zones under way */
	size_t ring;
};

static void state_init(struct sweep_state *st, const struct zones_io *io)
{
	unsigned i;

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
	zones_row_finish(r, &a->h);
	hist_merge(&s->lat, &a->h);
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

enum zones_end zones_sweep(struct zones_io *io, int write, uint32_t gen,
			   struct zones_sweep *s, char *why, size_t len)
{
	const uint64_t nzones = (io->size + io->zone - 1) / io->zone;
	struct sweep_state st;
	struct io_engine eng;
	enum zones_end end = ZONES_DONE;
	uint64_t next = 0, opened = 0, zdone = 0, start, prev, now;
	unsigned nfree = io->qd, inflight = 0, i;
	int stopping = 0, rc;

	why[0] = '\0';
	rc = io_engine_init(&eng, io->ops, io->qd, NULL);
	if (rc) {
		snprintf(why, len, "cannot set up the %s engine for %u I/Os: "
			 "%s", io->ops->name, io->qd, strerror(-rc));
		return ZONES_FAILED;
	}
	state_init(&st, io);
	if (s)	/* no allocation inside the loop */
		xgrow((void **)&s->zones, &s->alloc, (size_t)nzones,
		      sizeof(*s->zones));
	start = prev = now = clock_ns();
	for (;;) {
		unsigned n = 0;

		while (nfree && !stopping && next < io->size) {
			uint64_t z = next / io->zone;
			struct io_req *r;

			if (z - zdone >= st.ring)
				break;	/* the ring of zones under way is full */
			if (z == opened) {
				struct zacc *a = &st.acc[z % st.ring];

				memset(a, 0, sizeof(*a));
				hist_init(&a->h);
				a->nios = (zone_len(io, z) + io->bs - 1) /
					  io->bs;
				opened++;
			}
			r = st.freelist[--nfree];
			r->off = next;
			r->len = (unsigned)(io->size - next < io->bs ?
					    io->size - next : io->bs);
			r->write = (unsigned char)write;
			if (write)
				datagen_stamp(io->dg, r->buf, r->len, 0, gen,
					      r->off);
			st.batch[n++] = r;
			next += r->len;
		}
		if (n) {
			uint64_t t = clock_ns();

			for (i = 0; i < n; i++)
				st.batch[i]->start_ns = t;
			rc = io_engine_submit(&eng, st.batch, n);
			if (rc) {
				snprintf(why, len, "cannot submit %u I/Os at "
					 "offset %" PRIu64 ": %s", n,
					 st.batch[0]->off, strerror(-rc));
				end = ZONES_FAILED;
				break;	/* the engine's release waits */
			}
			inflight += n;
		}
		/* the device is busy again: now the zones that are done */
		while (zdone < opened) {
			const struct zacc *a = &st.acc[zdone % st.ring];

			if (a->done < a->nios)
				break;
			finish_zone(io, s, a, zdone, prev, now);
			prev = now;
			zdone++;
		}
		if (!inflight) {
			if (stopping || next >= io->size)
				break;
			continue;	/* the ring has room again */
		}
		rc = io_engine_reap(&eng, 1, st.done, io->qd, NULL);
		if (rc < 0) {
			snprintf(why, len, "cannot reap I/Os: %s",
				 strerror(-rc));
			end = ZONES_FAILED;
			break;
		}
		now = clock_ns();
		for (i = 0; i < (unsigned)rc; i++) {
			struct io_req *r = st.done[i];
			struct zacc *a = &st.acc[(r->off / io->zone) % st.ring];

			a->done++;
			if (__builtin_expect(r->res == (long)r->len, 1)) {
				hist_add(&a->h, now - r->start_ns);
				a->bytes += r->len;
				a->ios++;
			} else if (write && (r->res == -ENOSPC ||
					     r->res >= 0)) {
				/* a short write: the file cannot grow */
				count_failure(a, r);
				if (end == ZONES_DONE) {
					snprintf(why, len, "no space left at "
						 "offset %" PRIu64, r->off);
					end = ZONES_NOSPACE;
				}
				stopping = 1;
			} else {
				count_failure(a, r);
			}
			st.freelist[nfree++] = r;
			io->done++;
		}
		inflight -= (unsigned)rc;
		if (*io->stop && !stopping) {
			stopping = 1;
			if (end == ZONES_DONE) {
				snprintf(why, len, "interrupted");
				end = ZONES_STOPPED;
			}
		}
	}
	/* the sweep ends with its last completion (and a write's sync),
	 * not with the engine's teardown (io_destroy can take 10 ms) */
	if (write && end == ZONES_DONE) {
		if (fdatasync(io->fd)) {
			rc = errno;
			snprintf(why, len, "fdatasync: %s", strerror(rc));
			end = rc == ENOSPC ? ZONES_NOSPACE : ZONES_FAILED;
		}
		now = clock_ns();
	}
	io_engine_release(&eng);
	if (s) {
		s->elapsed = (double)(now - start) / 1e9;
		zones_sweep_finish(s);
	}
	state_release(&st);
	return end;
}
