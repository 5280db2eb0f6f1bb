// SPDX-License-Identifier: GPL-2.0-only
/*
 * `clyde matrix`: the target (a directory of our own files, an existing
 * file, or a block device opened through fsops/blockdev), its checks, the
 * prefill and the I/O buffers.
 */
#include "bench/matrix/matrix_run.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/cmdutil.h"
#include "fsops/blockdev.h"
#include "fsops/datagen.h"
#include "lib/diag.h"
#include "lib/xalloc.h"

/* What a unit's header says, or that it has none. */
void matrix_found_str(char *buf, size_t len, enum verify_result res,
		      const struct verify_id *id)
{
	if (res == VERIFY_BAD_MAGIC)
		snprintf(buf, len, "no clyde header");
	else
		snprintf(buf, len, "offset %" PRIu64 " generation %" PRIu32
			 " of file %" PRIu32, id->offset, id->gen, id->stream);
}

/* Close the files; in our own directory, remove them and it. */
void matrix_run_release(struct matrix_run *run)
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
	if (run->own) {
		rundir_remove(run->own);
		free(run->own);
	}
	run->own = NULL;
	run->fds = NULL;
	run->paths = NULL;
	run->nfiles = 0;
}

uint32_t matrix_data_stream(const struct matrix_run *run, unsigned file)
{
	return ((uint32_t)run->widx * run->ntargets + run->index) * 1024u +
	       file;
}

unsigned matrix_target_threads(unsigned threads, unsigned index,
			       unsigned n)
{
	return threads > index ? (threads - index + n - 1) / n : 0;
}

/* "1.5 GiB", "300 MiB", "512 KiB": bytes for people. */
static void human(char *buf, size_t len, uint64_t v)
{
	static const char *const unit[] = { "bytes", "KiB", "MiB", "GiB",
					    "TiB", "PiB", "EiB" };
	double d = (double)v;
	unsigned u = 0;

	while (d >= 1024 && u < 6) {
		d /= 1024;
		u++;
	}
	if (!u)
		snprintf(buf, len, "%" PRIu64 " bytes", v);
	else
		snprintf(buf, len, d < 10 ? "%.1f %s" : "%.0f %s", d, unit[u]);
}

/* Check the target and set up run (creating nothing yet but probes). */
int matrix_check_target(const struct matrix_config *cfg,
			struct matrix_run *run, struct fs_target *target)
{
	const char *path = run->path;
	unsigned maxt = matrix_target_threads(matrix_max_threads(cfg),
					      run->index, run->ntargets);
	char err[256], at[64];
	struct stat st;
	int fd;

	/* a directory is opened once: its checks, the leftover scan and
	 * clyde's own directory go through that descriptor (rundir.h) */
	fd = rundir_hold(path);
	if (fd < 0 && fd != -ENOTDIR)
		return cmd_usage_error("-d: '%s': %s", path, strerror(-fd));
	if (fd >= 0 ? fstat(fd, &st) : stat(path, &st))
		return cmd_usage_error("-d: '%s': %s", path, strerror(errno));
	run->dev = st.st_dev;
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
		if (fs_target_detect(rundir_held_path(path, at, sizeof(at)),
				     target, err, sizeof(err)))
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
	run->orig_size = (uint64_t)st.st_size;
	if (run->kind == TARGET_FILE && !cfg->size_given)
		run->file_size = (uint64_t)st.st_size;
	else
		run->file_size = cfg->size;
	if (run->kind == TARGET_DIR && faccessat(fd, ".", W_OK | X_OK, 0))
		return cmd_usage_error("-d: cannot write in '%s': %s", path,
				       strerror(errno));
	if (run->kind == TARGET_FILE && run->file_size > run->orig_size) {
		/* it grows: the new part needs room (item 8 of issue 13) */
		uint64_t grow = run->file_size - (uint64_t)st.st_blocks * 512;
		char a[32], b[32], c[32];

		if ((uint64_t)st.st_blocks * 512 < run->file_size &&
		    grow > target->avail_bytes) {
			human(a, sizeof(a), run->orig_size);
			human(b, sizeof(b), run->file_size);
			human(c, sizeof(c), target->avail_bytes);
			return cmd_usage_error("--size: growing '%s' from %s "
					       "to %s needs more than the %s "
					       "free", path, a, b, c);
		}
	}
	return 0;
}

/* The files of runs on the filesystem of runs[i], and their bytes. */
static int fs_need(const struct matrix_run *runs, unsigned n, unsigned i,
		   unsigned procs, uint64_t size, uint64_t *files,
		   uint64_t *bytes)
{
	uint64_t f = 0;
	unsigned j;

	for (j = 0; j < n; j++)
		if (runs[j].dev == runs[i].dev && runs[j].kind == TARGET_DIR)
			f += runs[j].nfiles;
	if (__builtin_mul_overflow(f, (uint64_t)procs, files) ||
	    __builtin_mul_overflow(*files, size, bytes))
		return -1;
	return 0;
}

/* Below this a file per thread says more about caches than the storage. */
#define SIZE_FLOOR (32u * 1024 * 1024)

/*
 * Without --size: the size of a file that lets every directory target's
 * files fit in half its free space, in whole MiB; a usage error when it
 * is below the floor (SIZE_FLOOR, 16 blocks, per thread with
 * --shared-file).
 */
static int fit_size(const struct matrix_config *cfg,
		    const struct matrix_run *runs, unsigned n,
		    const struct fs_target *targets, unsigned procs,
		    uint64_t *size)
{
	unsigned maxt = matrix_max_threads(cfg), i, tight = 0;
	uint64_t floor = SIZE_FLOOR, files = 0, bytes = 0;
	char a[32], b[32], c[32];

	if (floor < 16 * matrix_max_bs(cfg))
		floor = 16 * matrix_max_bs(cfg);
	if (cfg->shared_file && __builtin_mul_overflow(floor,
						       (uint64_t)maxt, &floor))
		floor = UINT64_MAX;
	for (i = 0; i < n; i++) {
		uint64_t fit;

		if (runs[i].kind != TARGET_DIR)
			continue;
		if (fs_need(&runs[0], n, i, procs, 1, &files, &bytes))
			return cmd_usage_error("--threads: too many files");
		fit = targets[i].avail_bytes / 2 / files;
		fit -= fit % (1024 * 1024);
		if (fit < *size) {
			*size = fit;
			tight = i;
		}
	}
	if (*size >= floor)
		return 0;
	i = tight;
	if (fs_need(runs, n, i, procs, floor, &files, &bytes))
		bytes = UINT64_MAX;
	human(a, sizeof(a), bytes);
	human(b, sizeof(b), targets[i].avail_bytes);
	human(c, sizeof(c), floor);
	return cmd_usage_error("-d: '%s' has %s free; the %" PRIu64
			       " files of --threads %u%s need at least "
			       "%s (%s each, and clyde uses at most "
			       "half the free space by default): "
			       "fewer --threads, or --size", runs[i].path,
			       b, files, maxt,
			       procs > 1 ? " and -c" : "", a, c);
}

/* Every thread of every target has a block of the largest size: a
 * usage error when not. */
static int check_blocks(const struct matrix_config *cfg,
			const struct matrix_run *runs, unsigned n)
{
	unsigned maxt = matrix_max_threads(cfg), i;
	uint64_t maxbs = matrix_max_bs(cfg);

	for (i = 0; i < n; i++) {
		const struct matrix_run *run = &runs[i];
		unsigned nt = matrix_target_threads(maxt, i, n);

		if (run->kind == TARGET_DEVICE)
			continue;	/* sized when opened */
		if (run->nfiles == 1 && run->file_size / nt < maxbs)
			return cmd_usage_error("--size: %" PRIu64 " bytes cannot "
					   "give %u threads a block of %" PRIu64
					   " each", run->file_size, nt, maxbs);
		if (run->file_size < maxbs)
			return cmd_usage_error("--size: %" PRIu64 " bytes is "
					   "smaller than the block size %"
					   PRIu64, run->file_size, maxbs);
	}
	return 0;
}

int matrix_size_files(const struct matrix_config *cfg,
		      struct matrix_run *runs, unsigned n,
		      const struct fs_target *targets, unsigned procs)
{
	unsigned maxt = matrix_max_threads(cfg), i;
	uint64_t size = cfg->size, files = 0, bytes = 0;
	char a[32], b[32], c[32];
	int rc;

	if (!cfg->size_given &&
	    (rc = fit_size(cfg, runs, n, targets, procs, &size)))
		return rc;
	for (i = 0; i < n; i++) {
		if (runs[i].kind != TARGET_DIR)
			continue;
		runs[i].file_size = size;
		if (fs_need(runs, n, i, procs, size, &files, &bytes)) {
			human(a, sizeof(a), size);
			return cmd_usage_error("--size: %s x the files of "
					       "--threads %u is more bytes than "
					       "there are", a, maxt);
		}
		if (bytes > targets[i].avail_bytes) {
			human(a, sizeof(a), bytes);
			human(b, sizeof(b), targets[i].avail_bytes);
			human(c, sizeof(c), size);
			return cmd_usage_error("--size: %" PRIu64 " file%s of %s "
					       "(--threads %u%s) need%s %s but "
					       "'%s' has %s free", files,
					       files == 1 ? "" : "s", c,
					       maxt, procs > 1 ? ", -c" : "",
					       files == 1 ? "s" : "", a,
					       runs[i].path, b);
		}
	}
	return check_blocks(cfg, runs, n);
}

/* Open (and for a directory, create) the files.  0, EXIT_USAGE or
 * EXIT_FAILED; on failure everything created is removed. */
int matrix_open_files(const struct matrix_config *cfg,
		      struct matrix_run *run)
{
	const char *path = run->path;
	int flags = run->direct ? O_DIRECT : 0, rc;
	unsigned i, n = run->nfiles;
	char err[256];
	size_t k;

	run->fds = xmalloc(n * sizeof(*run->fds));
	run->paths = xcalloc(n, sizeof(*run->paths));
	for (i = 0; i < n; i++)
		run->fds[i] = -1;
	if (run->kind == TARGET_DEVICE) {
		run->paths[0] = xstrdup(path);
		rc = blockdev_open(path, flags, cfg->force, &run->fds[0],
				   &run->file_size, err, sizeof(err));
		if (rc)
			return cmd_usage_error("-d: %s", err);
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
		/* made, used and removed through the -d's descriptor */
		run->own = xmalloc(sizeof(*run->own));
		if (rundir_make(run->own, path, "clyde-matrix", err,
				sizeof(err))) {
			free(run->own);
			run->own = NULL;
			return cmd_usage_error("-d: %s", err);
		}
		for (i = 0; i < n; i++) {
			char name[32];

			snprintf(name, sizeof(name), "matrix.%u", i);
			run->paths[i] = xasprintf("%s/%s", run->own->path, name);
			run->fds[i] = openat(run->own->fd, name, O_RDWR |
					     O_CREAT | O_EXCL | O_CLOEXEC |
					     flags, 0600);
			if (run->fds[i] < 0) {
				rc = errno;
				if (rc == EINVAL && run->direct)
					return cmd_usage_error(
						"-d: the filesystem of '%s' "
						"cannot do direct I/O (try "
						"--buffered)", path);
				diag_error("cannot create '%s': %s",
					   run->paths[i], strerror(rc));
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

/* A prefill's (or a --no-prefill --verify scan's) working set. */
struct prefill {
	const struct matrix_config *cfg;
	struct matrix_run *run;
	size_t unit, chunk;	/* verify unit (or alignment); per I/O */
	struct datagen dg;	/* unique data (neither scan nor verify) */
	void *buf;		/* chunk bytes, aligned for O_DIRECT */
	char **why;
};

/* Scan: read file i's chunk at off, check its every unit and learn its
 * generation.  0 or -errno with *why. */
static int scan_chunk(struct prefill *p, unsigned i, uint64_t off,
		      size_t len)
{
	struct matrix_run *run = p->run;
	ssize_t got = pread_full(run->fds[i], p->buf, len, (off_t)off);
	int rc = got < 0 ? (int)got : (size_t)got < len ? -ENODATA : 0;
	size_t k;

	if (rc) {
		*p->why = xasprintf("verify: cannot read '%s' at %" PRIu64
				    ": %s", run->paths[i], off, strerror(-rc));
		return rc;
	}
	for (k = 0; k < len; k += p->unit) {
		struct verify_id want, found;
		enum verify_result res;
		char fbuf[96];

		want.offset = off + k;
		want.stream = i;
		want.gen = VERIFY_ANY_GEN;
		res = verify_check((char *)p->buf + k, p->unit, &want, &found);
		if (res == VERIFY_OK) {
			run->gens[i][want.offset / p->unit] = found.gen;
			continue;
		}
		matrix_found_str(fbuf, sizeof(fbuf), res, &found);
		*p->why = xasprintf("verify: '%s' offset %" PRIu64 ": %s: "
				    "expected offset %" PRIu64 " of file %u, "
				    "found %s (unit %zu bytes)", run->paths[i],
				    want.offset, verify_result_str(res),
				    want.offset, i, fbuf, p->unit);
		return -EILSEQ;
	}
	return 0;
}

/* Write file i's chunk at off: --verify's units stamped at generation
 * 0, or unique data.  0 or -errno with *why. */
static int write_chunk(struct prefill *p, unsigned i, uint64_t off,
		       size_t len)
{
	struct matrix_run *run = p->run;
	const void *data = p->buf;
	size_t k;
	int rc;

	if (run->vunit) {
		for (k = 0; k < len; k += p->unit) {
			struct verify_id id;

			id.offset = off + k;
			id.stream = i;
			id.gen = 0;
			verify_stamp((char *)p->buf + k, p->unit, &id,
				     p->cfg->seed);
		}
	} else {
		/* a stamped window of the pool, no copy unless O_DIRECT
		 * cannot take its address */
		uint32_t stream = matrix_data_stream(run, i);

		data = datagen_block(&p->dg, len, stream, 0, off);
		if ((uintptr_t)data % run->align.mem) {
			datagen_copy(&p->dg, p->buf, len, stream, 0, off);
			data = p->buf;
		}
	}
	rc = pwrite_full(run->fds[i], data, len, (off_t)off);
	if (rc)
		*p->why = xasprintf("prefill: cannot write '%s' at %" PRIu64
				    ": %s", run->paths[i], off, strerror(-rc));
	return rc;
}

/* File i, chunk by chunk (whole units), then its fsync; the bytes done
 * added to *bytes.  0 or -errno with *why. */
static int prefill_file(struct prefill *p, unsigned i, uint64_t *bytes)
{
	const int scan = p->cfg->no_prefill;
	struct matrix_run *run = p->run;
	uint64_t off = 0, end = run->file_size - run->file_size % p->unit;
	int rc;

	while (off < end && !*matrix_stop) {
		size_t len = end - off < p->chunk ? end - off : p->chunk;

		rc = scan ? scan_chunk(p, i, off, len) :
			    write_chunk(p, i, off, len);
		if (rc)
			return rc;
		*bytes += len;
		off += len;
	}
	if (!scan && fsync(run->fds[i])) {
		rc = -errno;
		*p->why = xasprintf("prefill: cannot sync '%s': %s",
				    run->paths[i], strerror(errno));
		return rc;
	}
	return 0;
}

/*
 * Sequential large writes of unique data over every file, then fsync; with
 * --verify every unit is stamped at generation 0.  With --no-prefill and
 * --verify, read every unit instead, check it and learn its generation.
 * 0, or -errno after a message on stderr (-EILSEQ: a unit failed the
 * check; *why gets the message).
 */
int matrix_prefill(const struct matrix_config *cfg, struct matrix_run *run,
		   char **why, uint64_t *bytes)
{
	const int fresh = !cfg->no_prefill && !run->vunit;
	struct prefill p = { .cfg = cfg, .run = run, .why = why };
	unsigned i;
	int rc = 0;

	p.unit = run->vunit ? run->vunit : run->align.offset;
	p.chunk = (size_t)matrix_prefill_bs(cfg) / p.unit * p.unit;
	if (!p.chunk)
		p.chunk = p.unit;
	if (posix_memalign(&p.buf, run->align.mem < 4096 ? 4096 :
			   run->align.mem, p.chunk))
		return -ENOMEM;
	if (fresh)
		datagen_init(&p.dg, cfg->seed, p.chunk);
	for (i = 0; i < run->nfiles && !rc && !*matrix_stop; i++)
		rc = prefill_file(&p, i, bytes);
	free(p.buf);
	if (fresh)
		datagen_release(&p.dg);
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
int matrix_check_layout(const struct matrix_config *cfg,
			struct matrix_run *run)
{
	uint64_t region = run->file_size, unit = 0;
	unsigned i;
	size_t k;

	if (run->nfiles == 1)
		region /= matrix_target_threads(matrix_max_threads(cfg),
						run->index, run->ntargets);
	if (cfg->hit_area > region)
		return cmd_usage_error("--hit-area: %" PRIu64 " bytes is more than "
				   "the %" PRIu64 " bytes of each thread's %s",
				   cfg->hit_area, region,
				   run->nfiles == 1 ? "region" : "file");
	if (cfg->hit_area && cfg->hit_pct < 100 &&
	    region - cfg->hit_area < matrix_max_bs(cfg))
		return cmd_usage_error("--hit-area: %" PRIu64 " bytes leaves no "
				   "miss area in the %" PRIu64 " bytes of each "
				   "thread's %s for the %u %% misses",
				   cfg->hit_area, region,
				   run->nfiles == 1 ? "region" : "file",
				   100 - cfg->hit_pct);
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

/* Does any cell write? */
static int matrix_writes(const struct matrix_config *cfg)
{
	size_t k;

	for (k = 0; k < cfg->nmix; k++)
		if (cfg->mix[k] < 100)
			return 1;
	return 0;
}

struct matrix_tmem *matrix_alloc_buffers(const struct matrix_config *cfg,
					 const struct matrix_run *run)
{
	unsigned t, n = matrix_max_threads(cfg);
	size_t size = (size_t)matrix_max_bs(cfg) * cfg->qd;
	size_t align = run->align.mem < 4096 ? 4096 : run->align.mem;
	struct matrix_tmem *mem = xcalloc(n, sizeof(*mem));
	int pool = !cfg->verify && matrix_writes(cfg);

	for (t = 0; t < n; t++) {
		if (posix_memalign(&mem[t].buf, align, size)) {
			fputs("clyde: out of memory for I/O buffers\n",
			      stderr);
			exit(EXIT_FAILED);
		}
		/* fault the pages in now, not in a timed span */
		memset(mem[t].buf, 0, size);
		mem[t].len = size;
		if (pool) {
			/* the run's seed: the same pool in every thread,
			 * stamps that differ by file, offset, generation */
			mem[t].dg = xmalloc(sizeof(*mem[t].dg));
			datagen_init(mem[t].dg, cfg->seed,
				     (size_t)matrix_max_bs(cfg));
		}
	}
	return mem;
}

void matrix_free_buffers(struct matrix_tmem *mem, unsigned n)
{
	unsigned t;

	for (t = 0; t < n; t++) {
		free(mem[t].buf);
		if (mem[t].dg) {
			datagen_release(mem[t].dg);
			free(mem[t].dg);
		}
	}
	free(mem);
}
