// SPDX-License-Identifier: GPL-2.0-only
/*
 * `clyde matrix`: one thread's I/O loop.  It allocates nothing after its
 * setup, formats nothing, reads the clock once per reaped batch and adds
 * to the thread's histograms inline; histograms are merged after the cell
 * (matrix_pass.c).
 */
#include "matrix_run.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>

#include "cmdutil.h"
#include "../fsops/clock.h"
#include "../fsops/datagen.h"
#include "../lib/xalloc.h"

volatile sig_atomic_t *matrix_stop = &cmd_stop_signal;

void matrix_sleep_until(uint64_t t)
{
	struct timespec ts;

	ts.tv_sec = (time_t)(t / 1000000000u);
	ts.tv_nsec = (long)(t % 1000000000u);
	while (!*matrix_stop &&
	       clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

/* Stamp every verify unit of a write request with its next generation. */
static void stamp_write(struct worker *w, struct io_req *r)
{
	const size_t unit = w->run->vunit;
	size_t k;

	for (k = 0; k < r->len; k += unit) {
		struct verify_id id;
		uint64_t u = (r->off + k) / unit;

		id.offset = r->off + k;
		id.stream = w->stream;
		id.gen = ++w->gens[u];
		verify_stamp((char *)r->buf + k, unit, &id, w->seed);
	}
}

/* Check every unit a read brought; 0, or -EILSEQ with w->vfail set. */
static int check_read(struct worker *w, const struct io_req *r)
{
	const size_t unit = w->run->vunit;
	size_t k;

	for (k = 0; k < r->len; k += unit) {
		struct verify_id want, found;
		enum verify_result res;

		want.offset = r->off + k;
		want.stream = w->stream;
		want.gen = w->gens[want.offset / unit];
		res = verify_check((const char *)r->buf + k, unit, &want,
				   &found);
		if (res != VERIFY_OK) {
			w->vfail.res = res;
			w->vfail.want = want;
			w->vfail.found = found;
			w->err_off = want.offset;
			return -EILSEQ;
		}
	}
	return 0;
}

/* With --verify and a queue: is offset off already in flight? */
static int in_flight(const struct io_req *reqs, const unsigned char *busy,
		     unsigned qd, uint64_t off)
{
	unsigned i;

	for (i = 0; i < qd; i++)
		if (busy[i] && reqs[i].off == off)
			return 1;
	return 0;
}

void *matrix_worker_main(void *arg)
{
	struct worker *w = arg;
	const struct matrix_cell *c = w->cell;
	const unsigned qd = c->qd, pct = c->read_pct, hpct = w->hit_pct;
	const unsigned bs = (unsigned)c->bs;
	const uint64_t nblocks = w->nblocks, base = w->region_off;
	const uint64_t nhit = w->nhit, interval = w->interval_ns;
	/* credit after a late wake-up: qd I/Os or 1 ms, whichever is more */
	const uint64_t burst = interval * qd > 1000000u ? interval * qd :
			       1000000u;
	const int verify = w->gens != NULL;
	struct io_req *slot_reqs, **freelist, **batch, **done;
	unsigned char *busy;
	struct io_engine eng;
	uint64_t now, start, phase_end, end, seq = 0, hseq = 0, gen = 0;
	uint64_t next;
	unsigned nfree = qd, inflight = 0, i;
	int measuring, stopping = 0, rc;
	struct rng rng;

	slot_reqs = xcalloc(qd, sizeof(*slot_reqs));
	freelist = xcalloc(qd, sizeof(*freelist));
	batch = xcalloc(qd, sizeof(*batch));
	done = xcalloc(qd, sizeof(*done));
	busy = xcalloc(qd, 1);
	for (i = 0; i < qd; i++) {
		slot_reqs[i].buf = (char *)w->bufs + (size_t)i * bs;
		slot_reqs[i].fd = w->fd;
		slot_reqs[i].len = bs;
		slot_reqs[i].slot = i;
		freelist[i] = &slot_reqs[i];
	}
	/* rate-limited sleeps wake on time, not 50 us late */
	if (interval)
		prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
	rng_seed(&rng, w->seed);
	seq = nblocks ? rng_below(&rng, nblocks) : 0;
	hist_init(&w->rlat);
	hist_init(&w->wlat);
	rc = io_engine_init(&eng, w->run->engine, qd);
	pthread_mutex_lock(&w->gate->lock);
	while (!w->gate->go)
		pthread_cond_wait(&w->gate->cond, &w->gate->lock);
	start = w->gate->start_ns;
	pthread_mutex_unlock(&w->gate->lock);
	if (rc || w->gate->go < 0) {
		w->err = rc;
		goto out;
	}
	end = start + w->ramp_ns + w->time_ns;
	measuring = !w->ramp_ns;
	phase_end = measuring ? end : start + w->ramp_ns;
	if (measuring) {
		w->mstart = start;
		w->measured = 1;
	}
	next = start;
	now = clock_ns();

	for (;;) {
		unsigned n = 0;
		int got;

		while (nfree && !stopping) {
			struct io_req *r;
			uint64_t blk, off;

			if (interval) {
				/* token bucket: at most qd I/Os of credit */
				if (now < next)
					break;
				if (next + burst < now)
					next = now - burst;
				next += interval;
			}
			if (hpct && rng_below(&rng, 100) < hpct) {
				if (c->random) {
					blk = rng_below(&rng, nhit);
				} else {
					blk = hseq;
					if (++hseq == nhit)
						hseq = 0;
				}
			} else if (c->random) {
				blk = rng_below(&rng, nblocks);
			} else {
				blk = seq;
				if (++seq == nblocks)
					seq = 0;
			}
			off = (base + blk) * bs;
			/* a block has one I/O in flight at a time, so the
			 * generation a read expects is known */
			if (verify && (inflight || n) &&
			    in_flight(slot_reqs, busy, qd, off)) {
				if (interval)
					next -= interval;
				break;
			}
			r = freelist[--nfree];
			r->off = off;
			if (pct == 100)
				r->write = 0;
			else if (pct == 0)
				r->write = 1;
			else
				r->write = rng_below(&rng, 100) >= pct;
			if (r->write) {
				if (verify) {
					stamp_write(w, r);
				} else {
					/* unique block: offset, generation */
					uint64_t *p = r->buf;

					p[0] = r->off ^ w->seed;
					p[1] = ++gen;
				}
			}
			r->start_ns = now;
			busy[r->slot] = 1;
			batch[n++] = r;
		}
		if (n) {
			rc = io_engine_submit(&eng, batch, n);
			if (rc) {
				w->err = rc;
				for (i = 0; i < n; i++)
					busy[batch[i]->slot] = 0;
				break;
			}
			inflight += n;
		}
		if (!inflight) {
			if (stopping)
				break;
			/* rate-limited and idle: sleep until the next I/O */
			matrix_sleep_until(next < phase_end ? next : phase_end);
			got = 0;
		} else {
			struct timespec ts, *tp = NULL;
			uint64_t wake = next < phase_end ? next : phase_end;

			if (interval && !stopping && nfree && wake > now) {
				uint64_t d = wake - now;

				ts.tv_sec = (time_t)(d / 1000000000u);
				ts.tv_nsec = (long)(d % 1000000000u);
				tp = &ts;
			}
			got = io_engine_reap(&eng, tp ? 0 : 1, done, qd, tp);
			if (got < 0) {
				w->err = got;
				break;
			}
		}
		now = clock_ns();
		if (now >= phase_end && !stopping) {
			if (!measuring) {
				hist_init(&w->rlat);
				hist_init(&w->wlat);
				w->hits = 0;
				measuring = 1;
				w->mstart = phase_end;
				w->measured = 1;
				phase_end = end;
			} else if (interval || got ||
				   w->rlat.count + w->wlat.count) {
				/* stop issuing; what is in flight still
				 * counts.  Unlimited, a thread that got no
				 * CPU in time does at least one I/O. */
				stopping = 1;
			}
		}
		if (*matrix_stop)
			stopping = 1;
		for (i = 0; i < (unsigned)got; i++) {
			struct io_req *r = done[i];

			busy[r->slot] = 0;
			freelist[nfree++] = r;
			if (__builtin_expect(r->res != (long)bs, 0)) {
				if (!w->err) {
					w->err = r->res < 0 ? (int)r->res :
						 -EIO;
					w->err_off = r->off;
				}
				stopping = 1;
				continue;
			}
			if (verify && !r->write && !w->err &&
			    check_read(w, r)) {
				w->err = -EILSEQ;
				stopping = 1;
				continue;
			}
			if (measuring) {
				hist_add(r->write ? &w->wlat : &w->rlat,
					 now - r->start_ns);
				if (nhit && r->off - base * bs < nhit * bs)
					w->hits++;
				w->mend = now;
			}
		}
		inflight -= (unsigned)got;
	}
out:
	while (inflight) {	/* an error: wait for what is in flight */
		int got = io_engine_reap(&eng, 1, done, qd, NULL);

		if (got <= 0)
			break;
		inflight -= (unsigned)got;
	}
	io_engine_release(&eng);
	free(slot_reqs);
	free(freelist);
	free(batch);
	free(done);
	free(busy);
	return NULL;
}
