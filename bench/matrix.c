// SPDX-License-Identifier: GPL-2.0-only
/*
 * `clyde matrix`: the runner.  One file per thread (or one shared file,
 * a region per thread), prefilled sequentially with unique data; then per
 * cell, threads released together by a barrier run the I/O loop for the
 * ramp and the measured time.  The loop allocates nothing, formats
 * nothing, reads the clock once per reaped batch and adds to the
 * thread's histograms inline; histograms are merged after the cell.
 */
#include "matrix.h"

#include <blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "matrix_options.h"
#include "workers.h"
#include "cmdutil.h"
#include "progress.h"
#include "run.h"
#include "../fsops/aio.h"
#include "../fsops/clock.h"
#include "../fsops/datagen.h"
#include "../fsops/engine.h"
#include "../fsops/file.h"
#include "../fsops/target.h"
#include "../fsops/verify.h"
#include "../lib/xalloc.h"
#include "../report/matrix.h"
#include "../report/record.h"
#include "../report/worker_rows.h"

#define PREFILL_CHUNK (4u * 1024 * 1024)

enum target_kind { TARGET_DIR, TARGET_FILE, TARGET_DEVICE };

/* What the I/O loops poll to stop: the signal flag, or in a -c worker the
 * flag its parent sets (bench/workers.h). */
static volatile sig_atomic_t *matrix_stop = &cmd_stop_signal;

/* Everything a run works on. */
struct matrix_run {
	const struct matrix_config *cfg;
	enum target_kind kind;
	char *dir;		/* our own directory (TARGET_DIR) */
	char **paths;		/* nfiles */
	int *fds;
	unsigned nfiles;
	uint64_t file_size;	/* each file */
	struct dio_align align;
	const struct io_engine_ops *engine;
	int direct;
	/* --verify: the check unit and each file's generation per unit */
	size_t vunit;
	uint32_t **gens;
	/* -c N: this worker's place among the others (wk NULL: alone) */
	struct workers *wk;
	unsigned widx, wstep;
};

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
	void *bufs;			/* qd x bs, aligned */
	struct histogram rlat, wlat;
	uint64_t hits;			/* measured I/Os in hit area */
	uint64_t mstart, mend;		/* measured from, last done */
	int measured;			/* mstart is set */
	int err;			/* -errno of a failed I/O */
	uint64_t err_off;
	struct verify_fail vfail;	/* err == -EILSEQ */
};

static void sleep_until(uint64_t t)
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

static void *worker_main(void *arg)
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
			sleep_until(next < phase_end ? next : phase_end);
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

/* What one pass of a cell measured. */
struct pass_result {
	struct histogram *rlat, *wlat;	/* merged into */
	double elapsed, cpu;
	uint64_t hits;
	uint64_t first_ns, last_ns;	/* measured span (monotonic) */
	char *reason;			/* failed: why (malloc'ed) */
};

/* What a unit's header says, or that it has none. */
static void found_str(char *buf, size_t len, enum verify_result res,
		      const struct verify_id *id)
{
	if (res == VERIFY_BAD_MAGIC)
		snprintf(buf, len, "no clyde header");
	else
		snprintf(buf, len, "offset %" PRIu64 " generation %" PRIu32
			 " of file %" PRIu32, id->offset, id->gen, id->stream);
}

static char *verify_reason(const struct matrix_run *run, unsigned t,
			   const char *path, const struct verify_fail *f)
{
	char found[96];

	found_str(found, sizeof(found), f->res, &f->found);
	return xasprintf("thread %u: verify: '%s' offset %" PRIu64 ": %s: "
			 "expected offset %" PRIu64 " generation %" PRIu32
			 " of file %" PRIu32 ", found %s (unit %zu bytes)", t,
			 path, f->want.offset, verify_result_str(f->res),
			 f->want.offset, f->want.gen, f->want.stream, found,
			 run->vunit);
}

/*
 * Run cell c once with its threads released together: for --ramp, then
 * measured for --time; interval_ns > 0 limits each thread to one I/O per
 * interval.  0, or -1 with res->reason set.
 */
static int run_pass(struct matrix_run *run, const struct matrix_cell *c,
		    uint64_t seed, uint64_t interval_ns, void **bufs,
		    struct pass_result *res)
{
	const struct matrix_config *cfg = run->cfg;
	struct worker *w = xcalloc(c->threads, sizeof(*w));
	struct start_gate gate;
	uint64_t start, t0, t1, first = UINT64_MAX, last;
	struct cpu_usage u0, u1;
	uint64_t region = run->file_size;
	unsigned t, started = 0;
	int status = 0, aborted;

	if (run->nfiles == 1)
		region = run->file_size / c->threads;
	memset(&gate, 0, sizeof(gate));
	pthread_mutex_init(&gate.lock, NULL);
	pthread_cond_init(&gate.cond, NULL);
	for (t = 0; t < c->threads; t++) {
		struct worker *x = &w[t];

		x->run = run;
		x->cell = c;
		x->gate = &gate;
		x->ramp_ns = (uint64_t)(cfg->ramp * 1e9);
		x->time_ns = (uint64_t)(cfg->time * 1e9);
		x->interval_ns = interval_ns;
		x->index = t;
		x->stream = run->nfiles == 1 ? 0 : t;
		x->fd = run->fds[x->stream];
		x->gens = run->gens ? run->gens[x->stream] : NULL;
		x->nblocks = region / c->bs;
		x->region_off = run->nfiles == 1 ?
				(uint64_t)t * region / c->bs : 0;
		if (c->hit_area && c->hit_pct) {
			x->nhit = c->hit_area / c->bs;
			if (!x->nhit)
				x->nhit = 1;
			if (x->nhit > x->nblocks)
				x->nhit = x->nblocks;
			x->hit_pct = c->hit_pct;
		}
		x->seed = seed + t * 7919u;
		x->bufs = bufs[t];
		if (pthread_create(&x->tid, NULL, worker_main, x))
			break;
		started++;
	}
	/* the threads have set up their engines: go (with -c N, when
	 * every worker's have) */
	aborted = run->wk && workers_gate(run->wk, run->widx, run->wstep);
	start = clock_ns();
	pthread_mutex_lock(&gate.lock);
	gate.go = started < c->threads || aborted ? -1 : 1;
	gate.start_ns = start;
	pthread_cond_broadcast(&gate.cond);
	pthread_mutex_unlock(&gate.lock);
	if (started < c->threads || aborted) {
		for (t = 0; t < started; t++)
			pthread_join(w[t].tid, NULL);
		res->reason = aborted ? xstrdup("another worker stopped the run")
				      : xasprintf("cannot start %u threads",
						  c->threads);
		free(w);
		return -1;
	}
	sleep_until(start + (uint64_t)(cfg->ramp * 1e9));
	t0 = clock_ns();
	cpu_usage_now(&u0);
	sleep_until(start + (uint64_t)((cfg->ramp + cfg->time) * 1e9));
	for (t = 0; t < started; t++)
		pthread_join(w[t].tid, NULL);
	cpu_usage_now(&u1);
	t1 = clock_ns();
	pthread_cond_destroy(&gate.cond);
	pthread_mutex_destroy(&gate.lock);

	/* from the first thread's measuring start to the planned end or
	 * the last counted completion, whichever is later */
	last = start + (uint64_t)((cfg->ramp + cfg->time) * 1e9);
	res->hits = 0;
	for (t = 0; t < started; t++) {
		const char *path = run->paths[w[t].stream];

		if (w[t].measured && w[t].mstart < first)
			first = w[t].mstart;
		if (w[t].mend > last)
			last = w[t].mend;
		hist_merge(res->rlat, &w[t].rlat);
		hist_merge(res->wlat, &w[t].wlat);
		res->hits += w[t].hits;
		if (w[t].err && !status) {
			if (w[t].err == -EILSEQ)
				res->reason = verify_reason(run, t, path,
							    &w[t].vfail);
			else
				res->reason = xasprintf(
					"thread %u: I/O failed at offset %"
					PRIu64 " of '%s': %s", t,
					w[t].err_off, path,
					strerror(-w[t].err));
			status = -1;
		}
	}
	if (first == UINT64_MAX)
		first = start + (uint64_t)(cfg->ramp * 1e9);
	res->first_ns = first;
	res->last_ns = last;
	res->elapsed = (double)(last - first) / 1e9;
	res->cpu = cpu_percent(&u0, &u1, (double)(t1 - t0) / 1e9);
	if (!status && *matrix_stop) {
		res->reason = xstrdup("interrupted");
		status = -1;
	}
	free(w);
	return status;
}

static uint64_t pass_seed(const struct matrix_config *cfg, unsigned index,
			  unsigned point)
{
	return cfg->seed * 1000003u + (uint64_t)index * 104729u +
	       (uint64_t)point * 15485863u + 1;
}

/* Run one cell, then its rate curve; 0 or -1 with the cell marked
 * failed. */
static int run_cell(struct matrix_run *run, struct matrix_cell *c,
		    unsigned index, void **bufs)
{
	const struct matrix_config *cfg = run->cfg;
	struct pass_result res;
	size_t k;

	memset(&res, 0, sizeof(res));
	res.rlat = &c->rlat;
	res.wlat = &c->wlat;
	if (run_pass(run, c, pass_seed(cfg, index, 0), 0, bufs, &res)) {
		c->status = RESULT_FAILED;
		c->reason = res.reason;
		c->elapsed = res.elapsed;
		matrix_cell_rates(c);
		return -1;
	}
	c->elapsed = res.elapsed;
	c->cpu = res.cpu;
	c->hits = res.hits;
	matrix_cell_rates(c);
	c->status = RESULT_OK;
	for (k = 0; k < cfg->ncurve; k++) {
		struct matrix_point *p = matrix_add_point(c);
		double per_thread;

		p->pct = cfg->curve[k];
		p->target_iops = c->iops * p->pct / 100.0;
		per_thread = p->target_iops / c->threads;
		if (per_thread <= 0) {
			p->status = RESULT_SKIPPED;
			continue;
		}
		memset(&res, 0, sizeof(res));
		res.rlat = &p->rlat;
		res.wlat = &p->wlat;
		if (run_pass(run, c, pass_seed(cfg, index, (unsigned)k + 1),
			     (uint64_t)(1e9 / per_thread) + 1, bufs, &res)) {
			p->status = RESULT_FAILED;
			c->status = RESULT_FAILED;
			c->reason = xasprintf("curve point %u%%: %s", p->pct,
					      res.reason);
			free(res.reason);
			return -1;
		}
		p->elapsed = res.elapsed;
		p->cpu = res.cpu;
		matrix_point_rates(p, c->bs);
		p->status = RESULT_OK;
	}
	return 0;
}

/* Close the files; in our own directory, remove them and it. */
static void run_release(struct matrix_run *run)
{
	unsigned i;

	for (i = 0; i < run->nfiles; i++) {
		if (run->fds && run->fds[i] >= 0)
			close(run->fds[i]);
		if (run->paths)
			free(run->paths[i]);
	}
	if (run->gens)
		for (i = 0; i < run->nfiles; i++)
			free(run->gens[i]);
	free(run->gens);
	run->gens = NULL;
	free(run->fds);
	free(run->paths);
	if (run->dir) {
		cmd_remove_tree(run->dir);
		free(run->dir);
	}
	run->dir = NULL;
	run->fds = NULL;
	run->paths = NULL;
	run->nfiles = 0;
}

/*
 * -d a block device: exclusive open, and no signature unless --force.
 * Returns 0 with the fd in *fd and the size in *size, or EXIT_USAGE.
 */
static int open_device(const struct matrix_config *cfg, int flags, int *fd,
		       uint64_t *size)
{
	blkid_probe pr;
	int rc;

	*fd = open(cfg->target, O_RDWR | O_EXCL | flags);
	if (*fd < 0)
		return cmd_usage_error("-d: cannot open '%s' exclusively: %s%s",
				   cfg->target, strerror(errno),
				   errno == EBUSY ? " (mounted or in use)" :
				   "");
	if (ioctl(*fd, BLKGETSIZE64, size)) {
		rc = errno;
		close(*fd);
		return cmd_usage_error("-d: cannot get the size of '%s': %s",
				   cfg->target, strerror(rc));
	}
	pr = blkid_new_probe_from_filename(cfg->target);
	if (!pr) {
		close(*fd);
		return cmd_usage_error("-d: cannot probe '%s' for signatures",
				   cfg->target);
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE |
					  BLKID_SUBLKS_USAGE);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
	rc = blkid_do_safeprobe(pr);
	if (rc == 0 && !cfg->force) {
		const char *type = NULL;

		if (blkid_probe_lookup_value(pr, "TYPE", &type, NULL) &&
		    blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL))
			type = "a signature";
		fprintf(stderr, "clyde: -d: '%s' carries %s; --force to "
			"destroy it\n", cfg->target, type);
		blkid_free_probe(pr);
		close(*fd);
		return EXIT_USAGE;
	}
	blkid_free_probe(pr);
	return 0;
}

/* Check the target and set up run (creating nothing yet but probes). */
static int check_target(const struct matrix_config *cfg,
			struct matrix_run *run, struct fs_target *target)
{
	const char *path = cfg->target ? cfg->target : ".";
	unsigned maxt = matrix_max_threads(cfg);
	uint64_t maxbs = matrix_max_bs(cfg), need;
	char err[256];
	struct stat st;

	if (stat(path, &st))
		return cmd_usage_error("-d: '%s': %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode)) {
		run->kind = TARGET_DIR;
	} else if (S_ISREG(st.st_mode)) {
		if (!cfg->overwrite)
			return cmd_usage_error("-d: '%s' is an existing file; "
					   "--overwrite to destroy its data",
					   path);
		run->kind = TARGET_FILE;
	} else if (S_ISBLK(st.st_mode)) {
		if (!cfg->raw_device)
			return cmd_usage_error("-d: '%s' is a block device; "
					   "--raw-device to destroy its data",
					   path);
		run->kind = TARGET_DEVICE;
	} else {
		return cmd_usage_error("-d: '%s' is not a directory, file or "
				   "block device", path);
	}
	if (run->kind != TARGET_DEVICE) {
		if (fs_target_detect(path, target, err, sizeof(err)))
			return cmd_usage_error("-d: '%s': %s", path, err);
		if (target->readonly)
			return cmd_usage_error("-d: '%s' is on a read-only "
					   "filesystem", path);
	}
	if (cfg->no_prefill && run->kind == TARGET_DIR)
		return cmd_usage_error("--no-prefill: only for an existing file "
				   "(--overwrite) or a device (--raw-device), "
				   "not the new files in '%s'", path);
	run->nfiles = run->kind == TARGET_DIR && !cfg->shared_file ? maxt : 1;
	if (run->kind == TARGET_FILE && !cfg->size_given)
		run->file_size = (uint64_t)st.st_size;
	else
		run->file_size = cfg->size;
	if (run->kind == TARGET_DIR) {
		if (access(path, W_OK | X_OK))
			return cmd_usage_error("-d: cannot write in '%s': %s",
					   path, strerror(errno));
		need = run->file_size * run->nfiles;
		if (need > target->avail_bytes)
			return cmd_usage_error("--size: the files need %" PRIu64
					   " bytes but '%s' has only %" PRIu64
					   " free", need, path,
					   target->avail_bytes);
	}
	if (run->nfiles == 1 && run->file_size / maxt < maxbs)
		return cmd_usage_error("--size: %" PRIu64 " bytes cannot give "
				   "%u threads a block of %" PRIu64 " each",
				   run->file_size, maxt, maxbs);
	if (run->file_size < maxbs)
		return cmd_usage_error("--size: %" PRIu64 " bytes is smaller than "
				   "the block size %" PRIu64, run->file_size,
				   maxbs);
	return 0;
}

/* Open (and for a directory, create) the files.  0, EXIT_USAGE or
 * EXIT_FAILED; on failure everything created is removed. */
static int open_files(const struct matrix_config *cfg,
		      struct matrix_run *run)
{
	const char *path = cfg->target ? cfg->target : ".";
	int flags = run->direct ? O_DIRECT : 0, rc;
	unsigned i, n = run->nfiles;
	size_t k;

	run->fds = xmalloc(n * sizeof(*run->fds));
	run->paths = xcalloc(n, sizeof(*run->paths));
	for (i = 0; i < n; i++)
		run->fds[i] = -1;
	if (run->kind == TARGET_DEVICE) {
		run->paths[0] = xstrdup(path);
		rc = open_device(cfg, flags, &run->fds[0], &run->file_size);
		if (rc)
			return rc;
		if (!cfg->size_given || cfg->size > run->file_size)
			;	/* the whole device */
		else
			run->file_size = cfg->size;
	} else if (run->kind == TARGET_FILE) {
		run->paths[0] = xstrdup(path);
		run->fds[0] = open(path, O_RDWR | flags);
		if (run->fds[0] < 0)
			return cmd_usage_error("-d: cannot open '%s'%s: %s", path,
					   run->direct ? " for direct I/O" : "",
					   strerror(errno));
	} else {
		run->dir = xasprintf("%s/clyde-matrix.XXXXXX", path);
		if (!mkdtemp(run->dir)) {
			rc = errno;
			free(run->dir);
			run->dir = NULL;
			return cmd_usage_error("-d: cannot create a directory in "
					   "'%s': %s", path, strerror(rc));
		}
		for (i = 0; i < n; i++) {
			run->paths[i] = xasprintf("%s/matrix.%u", run->dir, i);
			run->fds[i] = open(run->paths[i], O_RDWR | O_CREAT |
					   O_EXCL | flags, 0600);
			if (run->fds[i] < 0) {
				rc = errno;
				if (rc == EINVAL && run->direct)
					return cmd_usage_error(
						"-d: the filesystem of '%s' "
						"cannot do direct I/O (try "
						"--buffered)", path);
				fprintf(stderr, "clyde: cannot create '%s': "
					"%s\n", run->paths[i], strerror(rc));
				return EXIT_FAILED;
			}
		}
	}
	if (!run->direct) {
		run->align.mem = run->align.offset = 512;
		return 0;
	}
	rc = dio_alignment(run->fds[0], &run->align);
	if (rc == -EINVAL)
		return cmd_usage_error("-d: '%s' cannot do direct I/O (try "
				   "--buffered)", path);
	if (rc)
		return cmd_usage_error("-d: cannot find the direct I/O alignment "
				   "of '%s': %s", path, strerror(-rc));
	for (k = 0; k < cfg->nbs; k++)
		if (cfg->bs[k] % run->align.offset)
			return cmd_usage_error("--bs: %" PRIu64 " is not a "
					   "multiple of the direct I/O "
					   "alignment %zu of '%s'",
					   cfg->bs[k], run->align.offset,
					   path);
	return 0;
}

/*
 * Sequential large writes of unique data over every file, then fsync; with
 * --verify every unit is stamped at generation 0.  With --no-prefill and
 * --verify, read every unit instead, check it and learn its generation.
 * 0, or -errno after a message on stderr (-EILSEQ: a unit failed the
 * check; *why gets the message).
 */
static int prefill(const struct matrix_config *cfg, struct matrix_run *run,
		   char **why)
{
	const int scan = cfg->no_prefill;
	size_t unit = run->vunit ? run->vunit : run->align.offset;
	size_t chunk = PREFILL_CHUNK / unit * unit;
	void *buf;
	unsigned i;
	int rc = 0;

	if (!chunk)
		chunk = unit;
	if (posix_memalign(&buf, run->align.mem < 4096 ? 4096 :
			   run->align.mem, chunk))
		return -ENOMEM;
	for (i = 0; i < run->nfiles && !rc && !*matrix_stop; i++) {
		uint64_t off = 0, end = run->file_size;

		end -= end % unit;
		while (off < end && !*matrix_stop) {
			size_t len = end - off < chunk ? end - off : chunk;
			size_t k;
			ssize_t got;

			if (scan) {
				got = pread_full(run->fds[i], buf, len,
						 (off_t)off);
				rc = got < 0 ? (int)got :
				     (size_t)got < len ? -ENODATA : 0;
				if (rc) {
					*why = xasprintf("verify: cannot read "
						"'%s' at %" PRIu64 ": %s",
						run->paths[i], off,
						strerror(-rc));
					break;
				}
				for (k = 0; k < len && !rc; k += unit) {
					struct verify_id want, found;
					enum verify_result res;
					char fbuf[96];

					want.offset = off + k;
					want.stream = i;
					want.gen = VERIFY_ANY_GEN;
					res = verify_check((char *)buf + k,
							   unit, &want,
							   &found);
					if (res == VERIFY_OK) {
						run->gens[i][want.offset /
							     unit] = found.gen;
						continue;
					}
					found_str(fbuf, sizeof(fbuf), res,
						  &found);
					*why = xasprintf("verify: '%s' offset %"
						PRIu64 ": %s: expected offset %"
						PRIu64 " of file %u, found %s "
						"(unit %zu bytes)",
						run->paths[i], want.offset,
						verify_result_str(res),
						want.offset, i, fbuf, unit);
					rc = -EILSEQ;
				}
				if (rc)
					break;
				off += len;
				continue;
			}
			if (run->vunit) {
				for (k = 0; k < len; k += unit) {
					struct verify_id id;

					id.offset = off + k;
					id.stream = i;
					id.gen = 0;
					verify_stamp((char *)buf + k, unit, &id,
						     cfg->seed);
				}
			} else {
				datagen_fill(buf, len, cfg->seed, i, off);
			}
			rc = pwrite_full(run->fds[i], buf, len, (off_t)off);
			if (rc) {
				*why = xasprintf("prefill: cannot write '%s' "
						 "at %" PRIu64 ": %s",
						 run->paths[i], off,
						 strerror(-rc));
				break;
			}
			off += len;
		}
		if (!rc && !scan && fsync(run->fds[i])) {
			rc = -errno;
			*why = xasprintf("prefill: cannot sync '%s': %s",
					 run->paths[i], strerror(errno));
		}
	}
	free(buf);
	if (!rc && *matrix_stop)
		rc = -EINTR;
	return rc;
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/*
 * What needs the files open (a device's size, the direct I/O alignment):
 * the hit area fits, and the --verify generation maps.  0 or EXIT_USAGE.
 */
static int check_layout(const struct matrix_config *cfg,
			struct matrix_run *run)
{
	uint64_t region = run->file_size, unit = 0;
	unsigned i;
	size_t k;

	if (run->nfiles == 1)
		region /= matrix_max_threads(cfg);
	if (cfg->hit_area > region)
		return cmd_usage_error("--hit-area: %" PRIu64 " bytes is more than "
				   "the %" PRIu64 " bytes of each thread's %s",
				   cfg->hit_area, region,
				   run->nfiles == 1 ? "region" : "file");
	if (!cfg->verify)
		return 0;
	for (k = 0; k < cfg->nbs; k++)
		unit = gcd64(unit, cfg->bs[k]);
	run->vunit = (size_t)unit;
	run->gens = xcalloc(run->nfiles, sizeof(*run->gens));
	for (i = 0; i < run->nfiles; i++)
		run->gens[i] = xcalloc(run->file_size / unit + 1,
				       sizeof(**run->gens));
	return 0;
}

/* Per-thread buffers for the largest cell: qd x max bs each. */
static void **alloc_buffers(const struct matrix_config *cfg,
			    const struct matrix_run *run)
{
	unsigned t, n = matrix_max_threads(cfg);
	size_t size = (size_t)matrix_max_bs(cfg) * cfg->qd;
	size_t align = run->align.mem < 4096 ? 4096 : run->align.mem;
	void **bufs = xcalloc(n, sizeof(*bufs));

	for (t = 0; t < n; t++) {
		if (posix_memalign(&bufs[t], align, size)) {
			fputs("clyde: out of memory for I/O buffers\n",
			      stderr);
			exit(EXIT_FAILED);
		}
		datagen_fill(bufs[t], size, cfg->seed, 1000000u + t, 0);
	}
	return bufs;
}

static void free_buffers(void **bufs, unsigned n)
{
	unsigned t;

	for (t = 0; t < n; t++)
		free(bufs[t]);
	free(bufs);
}

static void fill_matrix_record(struct record *rec,
			       const struct matrix_config *cfg,
			       const struct matrix_run *run,
			       const struct host_info *host,
			       const struct fs_target *target)
{
	char buf[32];

	record_fill_env(rec, host, target, cfg->target ? cfg->target : ".",
			cfg->label, 1);
	if (run->kind == TARGET_DEVICE)
		record_set_str(&rec->target.source, cfg->target);
	matrix_options_record(cfg, rec);
	snprintf(buf, sizeof(buf), "%" PRIu64, run->file_size);
	record_set_param(rec, PARAM_FILE_SIZE, buf, 1);
	snprintf(buf, sizeof(buf), "%u", run->nfiles);
	record_set_param(rec, "files", buf, 1);
	snprintf(buf, sizeof(buf), "%zu", run->align.offset);
	record_set_param(rec, "io_alignment", buf, 1);
	rec->matrix = matrix_new();
	rec->matrix->engine = xstrdup(run->engine->name);
	rec->matrix->direct = run->direct;
	rec->matrix->verify = cfg->verify;
	if (run->vunit) {
		snprintf(buf, sizeof(buf), "%zu", run->vunit);
		record_set_param(rec, "verify_unit", buf, 1);
	}
}

/* --- -c N: worker processes in step, each on files of its own --- */

/* What a worker hands over per step beside its slot (shared memory). */
struct matrix_share {
	struct histogram rlat, wlat;
	uint64_t hits;
};

struct matrix_plan {
	const struct matrix_config *cfg;
	struct matrix_run *runs;	/* per worker, files open */
	const struct record_matrix *m;	/* the cells, in run order */
	struct matrix_share *share;	/* per worker */
};

static struct workers *volatile matrix_workers;

static void matrix_second_signal(void)
{
	if (matrix_workers)
		workers_emergency(matrix_workers);
}

/*
 * A worker (a child): step 0 prefills its files, step i + 1 runs cell i
 * with its threads, released with the other workers' by the gate.
 */
static int matrix_worker(struct workers *w, unsigned idx, void *arg)
{
	const struct matrix_plan *p = arg;
	const struct matrix_config *cfg = p->cfg;
	struct matrix_run *run = &p->runs[idx];
	struct matrix_share *sh = &p->share[idx];
	struct result res;
	char *why = NULL;
	void **bufs;
	size_t i;
	int rc;

	matrix_stop = workers_stop_flag(w);
	memset(&res, 0, sizeof(res));
	hist_init(&res.lat);
	if (workers_wait(w, 0))
		return 1;
	rc = prefill(cfg, run, &why);
	if (rc)
		result_set_status(&res, RESULT_FAILED, "%s",
				  why ? why : strerror(-rc));
	else
		result_set_status(&res, RESULT_OK, NULL);
	workers_done(w, idx, 0, &res, 0, 0, NULL, 0);
	free(why);
	if (rc)
		return 1;
	bufs = alloc_buffers(cfg, run);
	run->wk = w;
	run->widx = idx;
	for (i = 0; i < p->m->ncells; i++) {
		struct matrix_cell c = p->m->cells[i];
		struct pass_result pr;
		uint64_t ops;

		if (workers_wait(w, (unsigned)i + 1))
			break;
		run->wstep = (unsigned)i + 1;
		hist_init(&sh->rlat);
		hist_init(&sh->wlat);
		memset(&pr, 0, sizeof(pr));
		pr.rlat = &sh->rlat;
		pr.wlat = &sh->wlat;
		/* each worker's own offsets and choices */
		rc = run_pass(run, &c, pass_seed(cfg, (unsigned)i, 0) +
			      (uint64_t)idx * 0x9e3779b9u, 0, bufs, &pr);
		ops = sh->rlat.count + sh->wlat.count;
		if (rc)
			result_set_status(&res, RESULT_FAILED, "%s",
					  pr.reason ? pr.reason : "failed");
		else
			result_set_status(&res, RESULT_OK, NULL);
		free(pr.reason);
		res.elapsed = pr.elapsed;
		res.cpu = pr.cpu;
		res.ops = ops;
		res.bytes = ops * c.bs;
		res.value = pr.elapsed > 0 ? (double)ops / pr.elapsed : 0;
		sh->hits = pr.hits;
		workers_done(w, idx, (unsigned)i + 1, &res, pr.first_ns,
			     pr.last_ns, NULL, 0);
	}
	free(res.reason);
	free_buffers(bufs, matrix_max_threads(cfg));
	return 0;
}

/*
 * Cell c from every worker's slot and share: histograms merged, the span
 * from the first worker's measuring start to the last one's end, CPU of
 * all workers over it, a row per worker.  0, or -1 with c failed.
 */
static int matrix_aggregate(struct matrix_cell *c, struct workers *w,
			    unsigned n, const struct matrix_share *share,
			    uint64_t release, const char *host,
			    const char *dir)
{
	uint64_t first = UINT64_MAX, last = 0;
	double cpu_s = 0;
	int fail = -1;
	unsigned k;

	c->workers = xcalloc(1, sizeof(*c->workers));
	for (k = 0; k < n; k++) {
		const struct worker_slot *s = workers_slot(w, k);
		struct worker_row *row = result_add_worker(c->workers, (int)k,
							   host, dir);

		if (s->state == WORKER_DEAD || s->res.status != RESULT_OK) {
			row->status = RESULT_FAILED;
			row->reason = xstrdup(s->reason[0] ? s->reason
							   : "failed");
			if (fail < 0)
				fail = (int)k;
			if (s->state == WORKER_DEAD)
				continue;
		} else {
			row->status = RESULT_OK;
		}
		row->value = s->res.value;
		row->cpu = s->res.cpu;
		row->ops = s->res.ops;
		row->bytes = s->res.bytes;
		row->elapsed = s->res.elapsed;
		row->first_s = ((double)s->first_ns - (double)release) / 1e9;
		row->last_s = ((double)s->last_ns - (double)release) / 1e9;
		if (s->first_ns < first)
			first = s->first_ns;
		if (s->last_ns > last)
			last = s->last_ns;
		cpu_s += s->res.cpu / 100 * s->res.elapsed;
		hist_merge(&c->rlat, &share[k].rlat);
		hist_merge(&c->wlat, &share[k].wlat);
		c->hits += share[k].hits;
	}
	if (last > first) {
		c->elapsed = (double)(last - first) / 1e9;
		c->cpu = cpu_s / c->elapsed * 100;
	}
	matrix_cell_rates(c);
	if (fail < 0) {
		c->status = RESULT_OK;
		return 0;
	}
	c->status = RESULT_FAILED;
	c->reason = xasprintf("worker %d: %s", fail,
			      c->workers->workers[fail].reason);
	return -1;
}

/*
 * Run every cell of rec->matrix with n workers, one matrix_run each (files
 * open).  Returns 0 or EXIT_FAILED; the caller removes the files.
 */
static int run_cells_workers(const struct matrix_config *cfg,
			     struct matrix_run *runs, unsigned n,
			     struct record *rec, const char *host)
{
	struct record_matrix *m = rec->matrix;
	size_t len = n * sizeof(struct matrix_share);
	const char *dir = cfg->target ? cfg->target : ".";
	struct matrix_plan plan;
	struct workers *w;
	char err[512];
	int status = 0;
	unsigned k;
	size_t i;

	plan.share = mmap(NULL, len, PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (plan.share == MAP_FAILED) {
		m->error = xasprintf("cannot map shared memory for %u "
				     "workers: %s", n, strerror(errno));
		return EXIT_FAILED;
	}
	plan.cfg = cfg;
	plan.runs = runs;
	plan.m = m;
	w = workers_start(n, matrix_worker, &plan, err, sizeof(err));
	if (!w) {
		m->error = xstrdup(err);
		munmap(plan.share, len);
		return EXIT_FAILED;
	}
	matrix_workers = w;
	progress_phase("prefill", 0, 0, NULL, 0, 0);
	workers_release(w, 0);
	workers_collect(w, 0, &cmd_stop_signal);
	progress_idle();
	for (k = 0; k < n; k++) {
		const struct worker_slot *s = workers_slot(w, k);

		if (s->state == WORKER_DEAD || s->res.status != RESULT_OK) {
			m->error = xasprintf("worker %u: %s", k, s->reason);
			status = EXIT_FAILED;
			break;
		}
	}
	for (i = 0; i < m->ncells && !status && !cmd_stop_signal; i++) {
		struct matrix_cell *c = &m->cells[i];
		uint64_t release;
		char what[96];

		snprintf(what, sizeof(what), "bs %" PRIu64 ", %u threads x %u "
			 "workers, %s, %u%% read", c->bs, c->threads, n,
			 c->random ? "random" : "seq", c->read_pct);
		progress_phase(what, (unsigned)i + 1, (unsigned)m->ncells,
			       NULL, 0, cfg->ramp + cfg->time);
		workers_release(w, (unsigned)i + 1);
		release = workers_start_timing(w, (unsigned)i + 1,
					       &cmd_stop_signal);
		workers_collect(w, (unsigned)i + 1, &cmd_stop_signal);
		progress_idle();
		if (matrix_aggregate(c, w, n, plan.share, release, host,
				     dir)) {
			if (!cmd_stop_signal)
				fprintf(stderr, "clyde: matrix cell %zu: %s\n",
					i + 1, c->reason);
			status = EXIT_FAILED;
		}
	}
	matrix_workers = NULL;
	if (workers_finish(w) && !status && !cmd_stop_signal)
		status = EXIT_FAILED;
	munmap(plan.share, len);
	return status;
}

/* Every cell of the run, in order, not run yet. */
static void add_cells(const struct matrix_config *cfg,
		      struct record_matrix *m)
{
	size_t b, t, p, k;

	for (b = 0; b < cfg->nbs; b++)
	for (t = 0; t < cfg->nthreads; t++)
	for (p = 0; p < cfg->npatterns; p++)
	for (k = 0; k < cfg->nmix; k++) {
		struct matrix_cell *c = matrix_add_cell(m);

		c->bs = cfg->bs[b];
		c->threads = cfg->threads[t];
		c->qd = cfg->qd;
		c->random = cfg->random[p];
		c->read_pct = cfg->mix[k];
		if (cfg->hit_area) {
			c->hit_area = cfg->hit_area;
			c->hit_pct = cfg->hit_pct;
		}
	}
}

int cmd_matrix(int argc, char **argv)
{
	struct matrix_config cfg;
	struct matrix_run run, *runs = NULL;
	struct host_info host;
	struct fs_target target;
	struct record *rec = NULL;
	FILE *json = NULL, *csv = NULL, *tables;
	void **bufs = NULL;
	int status, csv_fresh = 0, rc, json_fresh = 0;
	int json_created = 0, csv_created = 0;
	char *why = NULL;
	size_t b, t, p, m;
	unsigned index = 0, procs = 0, k;
	char err[512];

	memset(&run, 0, sizeof(run));
	memset(&host, 0, sizeof(host));
	memset(&target, 0, sizeof(target));
	matrix_config_init(&cfg);
	if (cmd_parsed(matrix_options_parse(&cfg, argc, argv, err, sizeof(err)), err,
		       &status))
		goto out;
	run.cfg = &cfg;
	run.engine = io_engine_find(cfg.engine);
	run.direct = !cfg.buffered;
	if (run.engine->flags & IO_ENGINE_SYNC ? 0 : (rc = aio_probe()) < 0) {
		status = cmd_usage_error("--engine: libaio cannot be used here: %s",
				     strerror(-rc));
		goto out;
	}
	status = check_target(&cfg, &run, &target);
	if (status)
		goto out;
	procs = cfg.procs ? cfg.procs : 1;
	if (procs > 1 && run.kind != TARGET_DIR) {
		status = cmd_usage_error("-c: workers need a directory -d for "
					 "their own files");
		goto out;
	}
	if (procs > 1 && cfg.ncurve) {
		status = cmd_usage_error("-c: --curve is not supported with "
					 "several workers");
		goto out;
	}
	if (procs > 1 && run.file_size * run.nfiles * procs >
			 target.avail_bytes) {
		status = cmd_usage_error("--size: the files of %u workers need "
					 "%" PRIu64 " bytes but '%s' has only %"
					 PRIu64 " free", procs,
					 run.file_size * run.nfiles * procs,
					 cfg.target ? cfg.target : ".",
					 target.avail_bytes);
		goto out;
	}
	runs = xcalloc(procs, sizeof(*runs));
	for (k = 1; k < procs; k++)
		runs[k] = run;	/* not opened yet */
	if (!cfg.seed_given) {
		uint32_t seed;

		if (getrandom(&seed, sizeof(seed), 0) != sizeof(seed))
			seed = (uint32_t)getpid() ^ (uint32_t)time(NULL);
		cfg.seed = seed;
	}
	host_detect(&host);
	cmd_install_signals(matrix_second_signal);
	/* every check that can fail comes before the outputs are opened;
	 * a failure here removes the files and directory it made */
	status = open_files(&cfg, &run);
	if (!status)
		status = check_layout(&cfg, &run);
	for (k = 1; !status && k < procs; k++) {
		status = open_files(&cfg, &runs[k]);
		if (!status)
			status = check_layout(&cfg, &runs[k]);
	}
	if (status)
		goto out;
	runs[0] = run;	/* worker 0's; released as run */
	if (cfg.json_path &&
	    !(json = cmd_open_output("--json", cfg.json_path, &json_fresh,
				 &json_created))) {
		status = EXIT_USAGE;
		goto out;
	}
	if (cfg.csv_path &&
	    !(csv = cmd_open_output("--csv", cfg.csv_path, &csv_fresh,
				&csv_created))) {
		status = EXIT_USAGE;
		goto out;
	}
	if (!run.direct && !(run.engine->flags & IO_ENGINE_SYNC))
		fputs("clyde: warning: libaio on buffered files blocks in "
		      "io_submit; the queue depth is not honoured\n", stderr);

	rec = record_new();
	fill_matrix_record(rec, &cfg, &run, &host, &target);
	if (!run.direct && !(run.engine->flags & IO_ENGINE_SYNC))
		record_warn(rec, "libaio on buffered files blocks in "
			    "io_submit; the queue depth is not honoured");
	progress_start(cfg.quiet);
	if (procs > 1) {
		char buf[32];

		snprintf(buf, sizeof(buf), "%u", procs);
		record_set_param(rec, PARAM_CONCURRENCY, buf, 1);
		add_cells(&cfg, rec->matrix);
		status = run_cells_workers(&cfg, runs, procs, rec,
					   host.hostname);
		if (rec->matrix->error)
			fprintf(stderr, "clyde: %s\n", rec->matrix->error);
		if (cmd_stop_signal)
			status = 128 + cmd_stop_signal;
		rec->exit_status = status;
		goto write;
	}
	progress_phase("prefill", 0, 0, NULL, 0, 0);
	rc = prefill(&cfg, &run, &why);
	progress_idle();
	if (rc) {
		if (rc == -ENOSPC) {
			free(why);
			why = xasprintf("prefill: not enough space for %u "
					"file(s) of %" PRIu64 " bytes; files "
					"removed", run.nfiles, run.file_size);
		}
		if (why) {
			fprintf(stderr, "clyde: %s\n", why);
			rec->matrix->error = why;
			why = NULL;
		}
		status = cmd_stop_signal ? 128 + cmd_stop_signal : EXIT_FAILED;
		rec->exit_status = status;
		goto write;
	}
	bufs = alloc_buffers(&cfg, &run);
	for (b = 0; b < cfg.nbs; b++)
	for (t = 0; t < cfg.nthreads; t++)
	for (p = 0; p < cfg.npatterns; p++)
	for (m = 0; m < cfg.nmix; m++) {
		struct matrix_cell *c = matrix_add_cell(rec->matrix);
		char what[96];

		c->bs = cfg.bs[b];
		c->threads = cfg.threads[t];
		c->qd = cfg.qd;
		c->random = cfg.random[p];
		c->read_pct = cfg.mix[m];
		if (cfg.hit_area) {
			c->hit_area = cfg.hit_area;
			c->hit_pct = cfg.hit_pct;
		}
		if (cmd_stop_signal || status)
			continue;
		snprintf(what, sizeof(what), "bs %" PRIu64 ", %u threads, %s, "
			 "%u%% read", c->bs, c->threads,
			 c->random ? "random" : "seq", c->read_pct);
		progress_phase(what, index + 1, (unsigned)(cfg.nbs *
			       cfg.nthreads * cfg.npatterns * cfg.nmix), NULL,
			       0, (cfg.ramp + cfg.time) * (double)(1 + cfg.ncurve));
		rc = run_cell(&run, c, index++, bufs);
		progress_idle();
		if (rc) {
			if (!cmd_stop_signal)
				fprintf(stderr, "clyde: matrix cell %u: %s\n",
					index, c->reason ? c->reason : "failed");
			status = EXIT_FAILED;
		}
	}
	if (cmd_stop_signal)
		status = 128 + cmd_stop_signal;
	rec->exit_status = status;
write:
	progress_stop();
	free(rec->end);
	rec->end = record_now_iso8601();
	run_release(&run);
	for (k = 1; k < procs; k++)
		run_release(&runs[k]);
	/* -q: the tables on stderr, stdout left empty */
	tables = cfg.quiet ? stderr : stdout;
	if (matrix_write_text(rec, tables) || fflush(tables))
		status = status ? status : EXIT_FAILED;
	if (json && record_write_json(rec, json)) {
		fprintf(stderr, "clyde: --json: cannot write '%s': %s\n",
			cfg.json_path, strerror(errno));
		status = status ? status : EXIT_FAILED;
	}
	if (csv && matrix_write_csv(rec, csv, csv_fresh)) {
		fprintf(stderr, "clyde: --csv: cannot write '%s': %s\n",
			cfg.csv_path, strerror(errno));
		status = status ? status : EXIT_FAILED;
	}
out:
	run_release(&run);
	for (k = 1; runs && k < procs; k++)
		run_release(&runs[k]);
	free(runs);
	free(why);
	/* bad input: no record, and no output file left that we made */
	if (!rec && json && json_created)
		unlink(cfg.json_path);
	if (!rec && csv && csv_created)
		unlink(cfg.csv_path);
	if (bufs)
		free_buffers(bufs, matrix_max_threads(&cfg));
	record_free(rec);
	if (json)
		fclose(json);
	if (csv)
		fclose(csv);
	fs_target_release(&target);
	host_release(&host);
	matrix_config_release(&cfg);
	return status;
}
