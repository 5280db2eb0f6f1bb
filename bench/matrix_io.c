// SPDX-License-Identifier: GPL-2.0-only
/*
 * `clyde matrix`: one thread's I/O loop.  It allocates nothing after its
 * setup and formats nothing.  Per batch: choose the offsets (an inline
 * RNG, no division), make the writes' data (a stamped window of the
 * thread's datagen pool, or --verify's units), read the clock once, submit;
 * reap, read the clock once, add to the histograms (no division); then
 * check --verify's reads.  So an I/O's latency runs from right before its
 * submission to right after its reap, and clyde's own work (stamping,
 * checking) stays outside it.  The engine's fast path is compiled in when
 * the engine has one (io_uring, null): no function pointer per batch.
 */
#include "matrix_run.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "cmdutil.h"
#include "../fsops/clock.h"
#include "../fsops/datagen.h"
#include "../fsops/uring.h"
#include "../lib/xalloc.h"

volatile sig_atomic_t *matrix_stop = &cmd_stop_signal;

/*
 * In slices of at most 50 ms: a forked worker ignores the signals, so its
 * stop flag (set by the parent) wakes no sleep; a slice's end is absolute,
 * the last one t itself.
 */
#define SLEEP_SLICE_NS 50000000u

void matrix_sleep_until(uint64_t t)
{
	struct timespec ts;

	while (!*matrix_stop) {
		uint64_t now = clock_ns(), until = t;

		if (now >= t)
			break;
		if (t - now > SLEEP_SLICE_NS)
			until = now + SLEEP_SLICE_NS;
		ts.tv_sec = (time_t)(until / 1000000000u);
		ts.tv_nsec = (long)(until % 1000000000u);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
}

/* The loop's RNG, inline: xorshift64* as fsops' rng_next(). */
static inline uint64_t fast_next(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545f4914f6cdd1dull;
}

/* [0, n) by multiply and shift (bias below n / 2^64: none that shows). */
static inline uint64_t fast_below(uint64_t *s, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)fast_next(s) * n) >> 64);
}

/* [0, 100) as a 32-bit multiply and shift. */
static inline unsigned fast_pct(uint64_t *s)
{
	return (unsigned)(((fast_next(s) >> 32) * 100u) >> 32);
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

/* What a thread's loop works with, set up before the gate opens. */
struct loop {
	struct worker *w;
	struct io_engine eng;
	struct io_req *reqs;		/* by slot */
	struct io_req **freelist, **batch, **done;
	unsigned char *busy;		/* by slot */
	void **slot_buf;		/* by slot: the slot's own buffer */
	uint64_t *pool_pos;		/* by slot: window in the pool */
	int pool_ok;			/* writes may point into the pool */
	int pool_check;			/* windows may overlap: check */
	uint32_t dstream, wgen;		/* datagen stream, generation */
};

#define NO_POS UINT64_MAX

/*
 * Give write r (slot buffer in r->buf) its data: --verify's units, or a
 * unique window of the pool (no copy), or a copy when the window would
 * overlap one still in flight or cannot be aligned for O_DIRECT.
 */
static inline void make_write(struct loop *L, struct io_req *r, int verify)
{
	struct worker *w = L->w;
	uint64_t pos;
	unsigned i;

	if (verify) {
		stamp_write(w, r);
		return;
	}
	if (!w->mem->dg)
		return;		/* (no pool: a read-only matrix) */
	L->wgen++;
	pos = r->off % DATAGEN_POOL_SIZE;
	if (L->pool_ok) {
		/* datagen rotates a stream's windows by a fixed shift, so
		 * two may share bytes only if their offsets are closer than
		 * a block, the pool's size taken as a circle */
		if (L->pool_check)
			for (i = 0; i < w->cell->qd; i++) {
				uint64_t d;

				if (!L->busy[i] || L->pool_pos[i] == NO_POS)
					continue;
				d = L->pool_pos[i] > pos ?
				    L->pool_pos[i] - pos : pos - L->pool_pos[i];
				if (d < r->len || DATAGEN_POOL_SIZE - d < r->len)
					goto copy;
			}
		r->buf = (void *)datagen_block(w->mem->dg, r->len, L->dstream,
					       L->wgen, r->off);
		r->buf_index = 1;
		L->pool_pos[r->slot] = pos;
		return;
	}
copy:
	datagen_copy(w->mem->dg, r->buf, r->len, L->dstream, L->wgen, r->off);
}

static inline int loop_submit(struct loop *L, const enum io_engine_fast fast,
			      unsigned n, unsigned *ready)
{
	if (fast == IO_FAST_NULL) {
		*ready += io_null_complete(L->batch, n, L->done + *ready);
		return 0;
	}
	/* unlimited, the reap after this waits anyway: one system call */
	if (fast == IO_FAST_URING)
		return uring_submit(L->eng.priv, L->batch, n,
				    !L->w->interval_ns);
	return io_engine_submit(&L->eng, L->batch, n);
}

static inline int loop_reap(struct loop *L, const enum io_engine_fast fast,
			    unsigned min, unsigned max,
			    const struct timespec *tp, unsigned *ready)
{
	if (fast == IO_FAST_NULL) {
		unsigned n = *ready;

		(void)min, (void)max, (void)tp;
		*ready = 0;
		return (int)n;
	}
	if (fast == IO_FAST_URING)
		return uring_reap(L->eng.priv, min, L->done, max, tp);
	return io_engine_reap(&L->eng, min, L->done, max, tp);
}

/*
 * A short transfer: for a write, write the rest to learn why the kernel
 * stopped (a copy-on-write filesystem out of space gives a short write,
 * then ENOSPC); -EIO when it does not say.
 */
static int short_io(const struct io_req *r)
{
	ssize_t n;

	if (!r->write || r->res < 0 || (size_t)r->res >= r->len)
		return -EIO;
	n = pwrite(r->fd, (const char *)r->buf + r->res,
		   r->len - (size_t)r->res, (off_t)(r->off + (uint64_t)r->res));
	return n < 0 ? -errno : -EIO;
}

/*
 * --steady: the pass's epoch moved on; empty the ring slots of the epochs
 * this thread skipped and of the new one (the ring holds the last nring).
 */
static void ring_turn(struct worker *w)
{
	uint64_t e = __atomic_load_n(w->epoch, __ATOMIC_RELAXED);
	uint64_t k;

	if (e == w->ring_epoch)
		return;
	for (k = w->ring_epoch + 1; k <= e && k <= w->ring_epoch + w->nring;
	     k++) {
		hist_init(&w->ring_r[k % w->nring]);
		hist_init(&w->ring_w[k % w->nring]);
	}
	w->ring_epoch = e;
}

static struct histogram *ring_r(struct worker *w)
{
	return &w->ring_r[w->ring_epoch % w->nring];
}

static struct histogram *ring_w(struct worker *w)
{
	return &w->ring_w[w->ring_epoch % w->nring];
}

/* The loop of one pass; fast is a constant in each instance. */
static inline __attribute__((always_inline)) void
run_loop(struct loop *L, const enum io_engine_fast fast, uint64_t start,
	 unsigned *inflight_out)
{
	struct worker *w = L->w;
	const struct matrix_cell *c = w->cell;
	const unsigned qd = c->qd, pct = c->read_pct, hpct = w->hit_pct;
	const unsigned bs = (unsigned)c->bs;
	const uint64_t nblocks = w->nblocks, base = w->region_off;
	const uint64_t nhit = w->nhit, interval = w->interval_ns;
	/* vdbench's miss area: the blocks after the hit area */
	const uint64_t mbase = nhit, nmiss = nblocks - nhit;
	/* credit after a late wake-up: qd I/Os or 1 ms, whichever is more */
	const uint64_t burst = interval * qd > 1000000u ? interval * qd :
			       1000000u;
	const int verify = w->gens != NULL;
	const int check = verify &&
			  !(w->run->engine->flags & IO_ENGINE_NOKERNEL);
	struct io_req **freelist = L->freelist, **batch = L->batch;
	struct io_req **done = L->done;
	unsigned char *busy = L->busy;
	uint64_t now, phase_end, end, seq, hseq = 0, next, rs;
	unsigned nfree = qd, inflight = 0, ready = 0, i;
	int measuring, stopping = 0, rc;

	rs = w->seed * 0x9e3779b97f4a7c15ull | 1;
	seq = nmiss ? fast_below(&rs, nmiss) : 0;
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
			if (hpct && fast_pct(&rs) < hpct) {
				if (c->random) {
					blk = fast_below(&rs, nhit);
				} else {
					blk = hseq;
					if (++hseq == nhit)
						hseq = 0;
				}
			} else if (c->random) {
				blk = mbase + fast_below(&rs, nmiss);
			} else {
				blk = mbase + seq;
				if (++seq == nmiss)
					seq = 0;
			}
			off = (base + blk) * bs;
			/* a block has one I/O in flight at a time, so the
			 * generation a read expects is known */
			if (verify && (inflight || n) &&
			    in_flight(L->reqs, busy, qd, off)) {
				if (interval)
					next -= interval;
				break;
			}
			r = freelist[--nfree];
			r->off = off;
			r->buf = L->slot_buf[r->slot];
			r->buf_index = 0;
			L->pool_pos[r->slot] = NO_POS;
			if (pct == 100)
				r->write = 0;
			else if (pct == 0)
				r->write = 1;
			else
				r->write = fast_pct(&rs) >= pct;
			if (r->write)
				make_write(L, r, verify);
			busy[r->slot] = 1;
			batch[n++] = r;
		}
		if (n) {
			/* the data is ready: the I/Os start now */
			now = clock_ns();
			for (i = 0; i < n; i++)
				batch[i]->start_ns = now;
			rc = loop_submit(L, fast, n, &ready);
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
			got = loop_reap(L, fast, tp ? 0 : 1, qd, tp, &ready);
			if (got < 0) {
				w->err = got;
				break;
			}
		}
		/* the I/Os of this batch ended by now */
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
		if (*matrix_stop ||
		    (w->pass_stop &&
		     __atomic_load_n(w->pass_stop, __ATOMIC_RELAXED)))
			stopping = 1;
		if (w->ring_r && measuring && got)
			ring_turn(w);
		for (i = 0; i < (unsigned)got; i++) {
			struct io_req *r = done[i];

			if (__builtin_expect(r->res != (long)bs, 0)) {
				if (!w->err) {
					w->err = r->res < 0 ? (int)r->res :
						 short_io(r);
					w->err_off = r->off;
				}
				stopping = 1;
				continue;
			}
			if (measuring) {
				hist_add(r->write ? &w->wlat : &w->rlat,
					 now - r->start_ns);
				if (w->ring_r)
					hist_add(r->write ? ring_w(w) :
						 ring_r(w), now - r->start_ns);
				if (nhit && r->off - base * bs < nhit * bs)
					w->hits++;
			}
		}
		if (measuring && got)
			w->mend = now;
		if (w->ring_r && measuring)
			__atomic_store_n(&w->done, w->rlat.count +
					 w->wlat.count, __ATOMIC_RELAXED);
		/* outside every I/O's span: check the reads, free slots */
		for (i = 0; i < (unsigned)got; i++) {
			struct io_req *r = done[i];

			if (check && !r->write && !w->err && r->res == (long)bs &&
			    check_read(w, r)) {
				w->err = -EILSEQ;
				stopping = 1;
			}
			busy[r->slot] = 0;
			freelist[nfree++] = r;
		}
		inflight -= (unsigned)got;
	}
	/* the null engine has nothing left in flight */
	*inflight_out = fast == IO_FAST_NULL ? 0 : inflight;
}

void *matrix_worker_main(void *arg)
{
	struct worker *w = arg;
	const struct matrix_cell *c = w->cell;
	const unsigned qd = c->qd, bs = (unsigned)c->bs;
	const struct io_engine_ops *ops = w->run->engine;
	struct io_engine_setup setup;
	struct iovec mem[2];
	struct loop L;
	uint64_t start, span;
	unsigned i, inflight = 0;
	int rc;

	memset(&L, 0, sizeof(L));
	L.w = w;
	L.reqs = xcalloc(qd, sizeof(*L.reqs));
	L.freelist = xcalloc(qd, sizeof(*L.freelist));
	L.batch = xcalloc(qd, sizeof(*L.batch));
	L.done = xcalloc(qd, sizeof(*L.done));
	L.busy = xcalloc(qd, 1);
	L.slot_buf = xcalloc(qd, sizeof(*L.slot_buf));
	L.pool_pos = xcalloc(qd, sizeof(*L.pool_pos));
	for (i = 0; i < qd; i++) {
		L.slot_buf[i] = (char *)w->mem->buf + (size_t)i * bs;
		L.reqs[i].buf = L.slot_buf[i];
		L.reqs[i].fd = w->fd;
		L.reqs[i].len = bs;
		L.reqs[i].slot = i;
		L.reqs[i].file_index = 0;
		L.reqs[i].buf_index = 0;
		L.freelist[i] = &L.reqs[i];
		L.pool_pos[i] = NO_POS;
	}
	L.dstream = matrix_data_stream(w->run, w->stream);
	L.wgen = (uint32_t)(w->seed >> 16);
	/* pool windows are offset-aligned; O_DIRECT needs memory aligned */
	L.pool_ok = w->mem->dg && (!w->run->direct ||
				   bs % w->run->align.mem == 0);
	span = (w->region_off + w->nblocks) * bs;
	L.pool_check = qd > 1 && (span > DATAGEN_POOL_SIZE ||
				  DATAGEN_POOL_SIZE % bs);
	/* rate-limited sleeps wake on time, not 50 us late */
	if (w->interval_ns)
		prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
	hist_init(&w->rlat);
	hist_init(&w->wlat);
	memset(&setup, 0, sizeof(setup));
	setup.fds = &w->fd;
	setup.nfds = 1;
	mem[0].iov_base = w->mem->buf;
	mem[0].iov_len = w->mem->len;
	setup.mem = mem;
	setup.nmem = 1;
	if (w->mem->dg) {
		mem[1].iov_base = w->mem->dg->pool;
		mem[1].iov_len = DATAGEN_POOL_SIZE + w->mem->dg->max_block;
		setup.nmem = 2;
	}
	setup.flags = w->run->engine_flags;
	rc = io_engine_init(&L.eng, ops, qd, &setup);
	pthread_mutex_lock(&w->gate->lock);
	while (!w->gate->go)
		pthread_cond_wait(&w->gate->cond, &w->gate->lock);
	start = w->gate->start_ns;
	pthread_mutex_unlock(&w->gate->lock);
	if (rc || w->gate->go < 0) {
		w->err = rc;
		goto out;
	}
	switch (ops->fast) {
	case IO_FAST_NULL:
		run_loop(&L, IO_FAST_NULL, start, &inflight);
		break;
	case IO_FAST_URING:
		run_loop(&L, IO_FAST_URING, start, &inflight);
		break;
	default:
		run_loop(&L, IO_FAST_NONE, start, &inflight);
		break;
	}
	while (inflight) {	/* an error: wait for what is in flight */
		int got = io_engine_reap(&L.eng, 1, L.done, qd, NULL);

		if (got <= 0)
			break;
		inflight -= (unsigned)got;
	}
out:
	io_engine_release(&L.eng);
	free(L.reqs);
	free(L.freelist);
	free(L.batch);
	free(L.done);
	free(L.busy);
	free(L.slot_buf);
	free(L.pool_pos);
	return NULL;
}
