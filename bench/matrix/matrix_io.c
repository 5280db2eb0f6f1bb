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
 *
 * Pacing (a rate curve's point): fio's rate_process=linear, not a token
 * bucket.  Each thread has a schedule: its k-th I/O is due at the pass's
 * start + k x interval (interval = threads / target IO/s).  Ahead of it,
 * the thread waits (for a completion or the due time); behind it, it
 * issues at once, as many I/Os as its queue depth has room for, until it
 * is back on schedule.  So time lost to a slow I/O, a late wake-up or a
 * thread kept off the CPU is made up, and a device that is not saturated
 * reaches the target; one that is runs as fast as it can.  A capped
 * catch-up (a bucket of qd I/Os or 1 ms) gave such time away, and every
 * point fell short.  The measurement starts on schedule: a debt of the
 * ramp is dropped, not caught up in the measured time.  An unpaced pass
 * reads no clock for it.
 */
#include "bench/matrix/matrix_run.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "bench/cmdutil.h"
#include "fsops/clock.h"
#include "fsops/datagen.h"
#include "fsops/uring.h"
#include "lib/xalloc.h"

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
		hist_dense_init(&w->ring_r[k % w->nring]);
		hist_dense_init(&w->ring_w[k % w->nring]);
	}
	w->ring_epoch = e;
}

static struct hist_dense *ring_r(struct worker *w)
{
	return &w->ring_r[w->ring_epoch % w->nring];
}

static struct hist_dense *ring_w(struct worker *w)
{
	return &w->ring_w[w->ring_epoch % w->nring];
}

#define LOOP_INLINE static inline __attribute__((always_inline))

/*
 * What a pass's loop reads and does not change, copied out of the worker
 * and its cell once: a local whose helpers are all inlined, so it lives
 * in registers, and no store through w can make the compiler read it
 * again.
 */
struct loop_const {
	unsigned qd, pct, hpct, bs;
	uint64_t base, nhit, interval;
	/* vdbench's miss area: the blocks after the hit area */
	uint64_t mbase, nmiss;
	int random, verify, check;
	struct io_req **freelist, **batch, **done;
	unsigned char *busy;
};

/* What the loop changes as it runs (a local as well). */
struct loop_state {
	uint64_t now, phase_end, end, next;
	uint64_t rs, seq, hseq;		/* the RNG; the next blocks in order */
	unsigned nfree, inflight, ready;
	int measuring, stopping;
};

/* Before the first I/O: the pass's constants, its schedule, its RNG. */
LOOP_INLINE void loop_begin(struct loop *L, struct loop_const *k,
			    struct loop_state *s, uint64_t start)
{
	struct worker *w = L->w;
	const struct matrix_cell *c = w->cell;

	k->qd = c->qd;
	k->pct = c->read_pct;
	k->hpct = w->hit_pct;
	k->bs = (unsigned)c->bs;
	k->base = w->region_off;
	k->nhit = w->nhit;
	k->interval = w->interval_ns;
	k->mbase = w->nhit;
	k->nmiss = w->nblocks - w->nhit;
	k->random = c->random;
	k->verify = w->gens != NULL;
	k->check = k->verify && !(w->run->engine->flags & IO_ENGINE_NOKERNEL);
	k->freelist = L->freelist;
	k->batch = L->batch;
	k->done = L->done;
	k->busy = L->busy;
	memset(s, 0, sizeof(*s));
	s->nfree = k->qd;
	s->rs = w->seed * 0x9e3779b97f4a7c15ull | 1;
	s->seq = k->nmiss ? fast_below(&s->rs, k->nmiss) : 0;
	s->end = start + w->ramp_ns + w->time_ns;
	s->measuring = !w->ramp_ns;
	s->phase_end = s->measuring ? s->end : start + w->ramp_ns;
	if (s->measuring) {
		w->mstart = start;
		w->measured = 1;
	}
	s->next = start;
	s->now = clock_ns();
}

/* The next I/O's block: in the hit area for its share of the I/Os
 * (vdbench), else in the miss area; at random or in order. */
LOOP_INLINE uint64_t next_block(const struct loop_const *k,
				struct loop_state *s)
{
	uint64_t blk;

	if (k->hpct && fast_pct(&s->rs) < k->hpct) {
		if (k->random)
			return fast_below(&s->rs, k->nhit);
		blk = s->hseq;
		if (++s->hseq == k->nhit)
			s->hseq = 0;
		return blk;
	}
	if (k->random)
		return k->mbase + fast_below(&s->rs, k->nmiss);
	blk = k->mbase + s->seq;
	if (++s->seq == k->nmiss)
		s->seq = 0;
	return blk;
}

/* The batch: an I/O per free slot (paced: per I/O due), its data
 * ready.  How many. */
LOOP_INLINE unsigned loop_issue(struct loop *L, const struct loop_const *k,
				struct loop_state *s)
{
	unsigned n = 0;

	while (s->nfree && !s->stopping) {
		struct io_req *r;
		uint64_t off;

		if (k->interval) {
			/* the schedule (above): behind it,
			 * issue at once, as many as the queue takes */
			if (s->now < s->next)
				break;
			s->next += k->interval;
		}
		off = (k->base + next_block(k, s)) * k->bs;
		/* a block has one I/O in flight at a time, so the
		 * generation a read expects is known */
		if (k->verify && (s->inflight || n) &&
		    in_flight(L->reqs, k->busy, k->qd, off)) {
			if (k->interval)
				s->next -= k->interval;
			break;
		}
		r = k->freelist[--s->nfree];
		r->off = off;
		r->buf = L->slot_buf[r->slot];
		r->buf_index = 0;
		L->pool_pos[r->slot] = NO_POS;
		if (k->pct == 100)
			r->write = 0;
		else if (k->pct == 0)
			r->write = 1;
		else
			r->write = fast_pct(&s->rs) >= k->pct;
		if (r->write)
			make_write(L, r, k->verify);
		k->busy[r->slot] = 1;
		k->batch[n++] = r;
	}
	return n;
}

/* Submit the batch of n, every I/O starting now; 0, or the engine's
 * error with their slots freed. */
LOOP_INLINE int loop_start(struct loop *L, const enum io_engine_fast fast,
			   const struct loop_const *k, struct loop_state *s,
			   unsigned n)
{
	unsigned i;
	int rc;

	/* the data is ready: the I/Os start now */
	s->now = clock_ns();
	for (i = 0; i < n; i++)
		k->batch[i]->start_ns = s->now;
	rc = loop_submit(L, fast, n, &s->ready);
	if (rc) {
		for (i = 0; i < n; i++)
			k->busy[k->batch[i]->slot] = 0;
		return rc;
	}
	s->inflight += n;
	return 0;
}

/*
 * Wait for completions, until the next due I/O when paced with room in
 * the queue; idle, sleep until it.  How many are in k->done, or a
 * negative errno.
 */
LOOP_INLINE int loop_wait(struct loop *L, const enum io_engine_fast fast,
			  const struct loop_const *k, struct loop_state *s)
{
	struct timespec ts, *tp = NULL;
	uint64_t wake = s->next < s->phase_end ? s->next : s->phase_end;

	if (!s->inflight) {
		/* rate-limited and idle: sleep until the next I/O */
		matrix_sleep_until(wake);
		return 0;
	}
	if (k->interval && !s->stopping && s->nfree && wake > s->now) {
		uint64_t d = wake - s->now;

		ts.tv_sec = (time_t)(d / 1000000000u);
		ts.tv_nsec = (long)(d % 1000000000u);
		tp = &ts;
	}
	return loop_reap(L, fast, tp ? 0 : 1, k->qd, tp, &s->ready);
}

/*
 * At s->now, after a wait: the ramp's end starts the measurement, its
 * end stops the issuing (what is in flight still counts), and so does a
 * stop.
 */
LOOP_INLINE void loop_phase(struct worker *w, const struct loop_const *k,
			    struct loop_state *s, int got)
{
	if (s->now >= s->phase_end && !s->stopping) {
		if (!s->measuring) {
			hist_dense_init(&w->rlat);
			hist_dense_init(&w->wlat);
			w->hits = 0;
			s->measuring = 1;
			w->mstart = s->phase_end;
			w->measured = 1;
			/* the ramp's debt is not the measurement's:
			 * behind schedule, start it anew now */
			if (k->interval && s->next < s->phase_end)
				s->next = s->phase_end;
			s->phase_end = s->end;
		} else if (k->interval || got ||
			   w->rlat.count + w->wlat.count) {
			/* stop issuing; what is in flight still
			 * counts.  Unlimited, a thread that got no
			 * CPU in time does at least one I/O. */
			s->stopping = 1;
		}
	}
	if (*matrix_stop ||
	    (w->pass_stop && __atomic_load_n(w->pass_stop, __ATOMIC_RELAXED)))
		s->stopping = 1;
}

/* The got completions, all ended by s->now: measuring, into the
 * histograms and the hit count; a failed one kept as the error. */
LOOP_INLINE void loop_account(struct worker *w, const struct loop_const *k,
			      struct loop_state *s, unsigned got)
{
	unsigned i;

	if (w->ring_r && s->measuring && got)
		ring_turn(w);
	for (i = 0; i < got; i++) {
		struct io_req *r = k->done[i];

		if (__builtin_expect(r->res != (long)k->bs, 0)) {
			if (!w->err) {
				w->err = r->res < 0 ? (int)r->res :
					 short_io(r);
				w->err_off = r->off;
			}
			s->stopping = 1;
			continue;
		}
		if (s->measuring) {
			hist_dense_add(r->write ? &w->wlat : &w->rlat,
				       s->now - r->start_ns);
			if (w->ring_r)
				hist_dense_add(r->write ? ring_w(w) :
					       ring_r(w), s->now - r->start_ns);
			if (k->nhit &&
			    r->off - k->base * k->bs < k->nhit * k->bs)
				w->hits++;
		}
	}
	if (s->measuring && got)
		w->mend = s->now;
	if (w->ring_r && s->measuring)
		__atomic_store_n(&w->done, w->rlat.count + w->wlat.count,
				 __ATOMIC_RELAXED);
}

/* Outside every I/O's span: check the reads, free the slots. */
LOOP_INLINE void loop_release(struct worker *w, const struct loop_const *k,
			      struct loop_state *s, unsigned got)
{
	unsigned i;

	for (i = 0; i < got; i++) {
		struct io_req *r = k->done[i];

		if (k->check && !r->write && !w->err &&
		    r->res == (long)k->bs && check_read(w, r)) {
			w->err = -EILSEQ;
			s->stopping = 1;
		}
		k->busy[r->slot] = 0;
		k->freelist[s->nfree++] = r;
	}
	s->inflight -= got;
}

/* The loop of one pass; fast is a constant in each instance. */
LOOP_INLINE void run_loop(struct loop *L, const enum io_engine_fast fast,
			  uint64_t start, unsigned *inflight_out)
{
	struct worker *w = L->w;
	struct loop_const k;
	struct loop_state s;
	int rc;

	loop_begin(L, &k, &s, start);
	for (;;) {
		unsigned n = loop_issue(L, &k, &s);

		if (n && (rc = loop_start(L, fast, &k, &s, n))) {
			w->err = rc;
			break;
		}
		if (!s.inflight && s.stopping)
			break;
		rc = loop_wait(L, fast, &k, &s);
		if (rc < 0) {
			w->err = rc;
			break;
		}
		/* the I/Os of this batch ended by now */
		s.now = clock_ns();
		loop_phase(w, &k, &s, rc);
		loop_account(w, &k, &s, (unsigned)rc);
		loop_release(w, &k, &s, (unsigned)rc);
	}
	/* the null engine has nothing left in flight */
	*inflight_out = fast == IO_FAST_NULL ? 0 : s.inflight;
}

/* The loop's slots, each with its buffer, and how writes get their
 * data. */
static void loop_setup(struct loop *L, struct worker *w)
{
	const unsigned qd = w->cell->qd, bs = (unsigned)w->cell->bs;
	uint64_t span;
	unsigned i;

	memset(L, 0, sizeof(*L));
	L->w = w;
	L->reqs = xcalloc(qd, sizeof(*L->reqs));
	L->freelist = xcalloc(qd, sizeof(*L->freelist));
	L->batch = xcalloc(qd, sizeof(*L->batch));
	L->done = xcalloc(qd, sizeof(*L->done));
	L->busy = xcalloc(qd, 1);
	L->slot_buf = xcalloc(qd, sizeof(*L->slot_buf));
	L->pool_pos = xcalloc(qd, sizeof(*L->pool_pos));
	for (i = 0; i < qd; i++) {
		L->slot_buf[i] = (char *)w->mem->buf + (size_t)i * bs;
		L->reqs[i].buf = L->slot_buf[i];
		L->reqs[i].fd = w->fd;
		L->reqs[i].len = bs;
		L->reqs[i].slot = i;
		L->reqs[i].file_index = 0;
		L->reqs[i].buf_index = 0;
		L->freelist[i] = &L->reqs[i];
		L->pool_pos[i] = NO_POS;
	}
	L->dstream = matrix_data_stream(w->run, w->stream);
	L->wgen = (uint32_t)(w->seed >> 16);
	/* pool windows are offset-aligned; O_DIRECT needs memory aligned */
	L->pool_ok = w->mem->dg && (!w->run->direct ||
				    bs % w->run->align.mem == 0);
	span = (w->region_off + w->nblocks) * bs;
	L->pool_check = qd > 1 && (span > DATAGEN_POOL_SIZE ||
				   DATAGEN_POOL_SIZE % bs);
}

static void loop_free(struct loop *L)
{
	free(L->reqs);
	free(L->freelist);
	free(L->batch);
	free(L->done);
	free(L->busy);
	free(L->slot_buf);
	free(L->pool_pos);
}

/* The thread's engine on its file, its buffers and the data pool
 * registered; 0 or a negative errno. */
static int loop_engine(struct loop *L)
{
	struct worker *w = L->w;
	struct io_engine_setup setup;
	struct iovec mem[2];

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
	return io_engine_init(&L->eng, w->run->engine, w->cell->qd, &setup);
}

/* Wait for the gate to open: 1 and the pass's start, or -1 when it
 * was called off. */
static int wait_gate(struct start_gate *gate, uint64_t *start)
{
	int go;

	pthread_mutex_lock(&gate->lock);
	while (!gate->go)
		pthread_cond_wait(&gate->cond, &gate->lock);
	go = gate->go;
	*start = gate->start_ns;
	pthread_mutex_unlock(&gate->lock);
	return go;
}

void *matrix_worker_main(void *arg)
{
	struct worker *w = arg;
	struct loop L;
	uint64_t start;
	unsigned inflight = 0;
	int rc;

	loop_setup(&L, w);
	/* rate-limited sleeps wake on time, not 50 us late */
	if (w->interval_ns)
		prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
	hist_dense_init(&w->rlat);
	hist_dense_init(&w->wlat);
	rc = loop_engine(&L);
	if (wait_gate(w->gate, &start) < 0 || rc) {
		w->err = rc;
		goto out;
	}
	switch (w->run->engine->fast) {
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
		int got = io_engine_reap(&L.eng, 1, L.done, w->cell->qd, NULL);

		if (got <= 0)
			break;
		inflight -= (unsigned)got;
	}
out:
	io_engine_release(&L.eng);
	loop_free(&L);
	return NULL;
}
