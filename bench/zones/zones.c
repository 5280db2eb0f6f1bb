// SPDX-License-Identifier: GPL-2.0-only
/*
 * `clyde zones`: the command.  Every check comes before anything is
 * created: the target (bench/zones/zones_target.c: a block device opened
 * exclusively, read-only unless --write; an existing file; or a new file,
 * created and filled first), the block and zone sizes against its direct
 * I/O alignment, the engine, the outputs.  Then the sweeps, pass by
 * pass (with --write a write sweep before each read sweep), through
 * bench/zones/zones_io.c, and the text, JSON and CSV, all from the record.  A
 * file clyde created is removed at the end, also after a signal (a second
 * one unlinks it too).
 */
#include "bench/zones/zones.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "bench/measure.h"
#include "bench/cmdutil.h"
#include "bench/outputs.h"
#include "bench/env.h"
#include "bench/progress.h"
#include "bench/rundir.h"
#include "bench/zones/zones_holes.h"
#include "bench/zones/zones_io.h"
#include "bench/zones/zones_options.h"
#include "bench/zones/zones_target.h"
#include "fsops/clock.h"
#include "fsops/file.h"
#include "fsops/target.h"
#include "lib/diag.h"
#include "lib/xalloc.h"
#include "report/model/record.h"

static void fill_record(struct record *rec, const struct zones_config *cfg,
			struct ztarget *t, const struct host_info *host,
			const struct fs_target *fst, uint64_t zone)
{
	struct record_zones *z;
	char buf[32];
	int i;

	record_fill_env(rec, host, fst, t->path, cfg->label, 1);
	if (t->device)
		record_set_str(&rec->target.source, t->path);
	zones_options_record(cfg, rec);
	snprintf(buf, sizeof(buf), "%" PRIu64, t->size);
	record_set_param(rec, "size", buf, 1);
	snprintf(buf, sizeof(buf), "%" PRIu64, zone);
	record_set_param(rec, "zone", buf, 1);
	snprintf(buf, sizeof(buf), "%zu", t->align.offset);
	record_set_param(rec, "io_alignment", buf, 1);
	rec->zones = z = zones_new();
	z->kind = xstrdup(t->device ? "device" : "file");
	z->created = t->created;
	z->engine = xstrdup(cfg->engine);
	z->qd = cfg->qd;
	z->direct = 1;
	z->size = t->size;
	z->bs = cfg->bs;
	z->zone_size = zone;
	z->nzones = (size_t)((t->size + zone - 1) / zone);
	z->passes = cfg->passes;
	if (zone < 2ull * cfg->qd * cfg->bs)
		record_warn(rec, "zones of %" PRIu64 " bytes hold fewer than 2 x "
			    "qd x bs: with the queue running across zone "
			    "boundaries, their times are coarse", zone);
	if (host->vm == 1)
		record_warn(rec, "measured in a virtual machine: what misses "
			    "the guest's page cache may still come from the "
			    "hypervisor's cache of its disk image, faster than "
			    "the storage below");
	i = t->device ? stack_find(&fst->stack, "loop", 0) : -1;
	if (i >= 0) {
		const struct stack_dev *d = &fst->stack.devs[i];
		const char *dio = stack_field(d, "dio");

		const char *off = stack_field(d, "offset");

		t->backing = stack_field(d, "backing_file");
		t->backing_off = off ? strtoull(off, NULL, 10) : 0;
		if (dio && !strcmp(dio, "0"))
			record_warn(rec, "'%s' lies on loop device %s without "
				    "direct I/O: O_DIRECT stops at the loop, "
				    "whose reads of '%s' go through the host "
				    "page cache (the residency at each sweep's "
				    "start says how much of it was there)",
				    t->path, d->name, t->backing ? t->backing :
				    "its backing file");
	}
}

static int has_errors(const struct zones_sweep *s)
{
	size_t i;

	for (i = 0; i < s->nzones; i++)
		if (s->zones[i].errors)
			return 1;
	return 0;
}

/*
 * Each zone of read sweep s with a failed I/O: read that I/O again unit by
 * unit (the direct I/O alignment), outside the sweep's time, to say where
 * the unreadable part begins.  A device's bad region can be slow to fail:
 * only the first failed I/O of each zone is read again.
 */
static void locate_errors(const struct ztarget *t, const struct zones_io *io,
			  struct zones_sweep *s)
{
	const uint64_t unit = t->align.offset;
	size_t i;

	for (i = 0; i < s->nzones && !cmd_stop_signal; i++) {
		struct zone_row *r = &s->zones[i];
		uint64_t off, end = r->err_offset + io->bs;

		if (!r->errors)
			continue;
		if (end > t->size)
			end = t->size;
		for (off = r->err_offset; off < end && !cmd_stop_signal;
		     off += unit)
			if (pread_full(t->fd, io->bufs, (size_t)unit,
				       (off_t)off) != (ssize_t)unit) {
				r->bad_offset = off;
				r->bad_unit = unit;
				break;
			}
	}
}

/*
 * Sweep s (zones_sweep()) with the page-cache share of the target and
 * of each zone at its start (measured before the sweep's time), then
 * end the progress line; a stop inside the sweep (clock_stopped()) is a
 * warning in rec naming it by label.
 */
static enum zones_end timed_sweep(const struct ztarget *t, struct zones_io *io,
				  int w, unsigned p, struct zones_sweep *s,
				  char *why, size_t len, struct record *rec,
				  const char *label)
{
	const size_t n = rec->zones->nzones;
	double *share = xcalloc(n, sizeof(*share));
	enum zones_end end;
	size_t i;

	s->residency = zones_residency(t, io->zone, share, n);
	clock_stopped();
	end = zones_sweep(io, w, p, s, why, len);
	progress_idle();
	s->stopped = clock_stopped();
	if (s->stopped)
		record_warn(rec, "%s: stopped: " RECORD_STOPPED_TEXT, label);
	for (i = 0; i < s->nzones && i < n; i++)
		s->zones[i].resident = share[i];
	free(share);
	return end;
}

/* Run every sweep into rec->zones; the exit status. */
static int run_sweeps(const struct zones_config *cfg, struct ztarget *t,
		      struct zones_io *io, struct record *rec)
{
	struct record_zones *z = rec->zones;
	unsigned p, nsteps = cfg->passes * (cfg->write ? 2 : 1), step = 0;
	uint64_t total = (t->size + cfg->bs - 1) / cfg->bs;
	char why[256], label[64], at[64];
	enum zones_end end;
	int w, status = 0;

	if (t->created && !cfg->write) {
		progress_phase("fill (not measured)", 0, 0, &io->done, total, 0);
		io->done = 0;
		end = zones_sweep(io, 1, 0, NULL, why, sizeof(why));
		progress_idle();
		if (end == ZONES_STOPPED)
			bench_interrupted_text(why, sizeof(why),
					       cmd_stop_signal);
		if (end != ZONES_DONE) {
			z->error = xasprintf("fill of '%s': %s%s", t->path, why,
					     end == ZONES_NOSPACE ?
					     "; file removed" : "");
			return end == ZONES_STOPPED ? 128 + cmd_stop_signal :
			       EXIT_FAILED;
		}
	}
	for (p = 1; p <= cfg->passes; p++)
		for (w = cfg->write; w >= 0; w--) {
			struct zones_sweep *s = zones_add_sweep(z, p, w);

			zones_sweep_name(z, s, label, sizeof(label));
			io->done = 0;
			progress_phase(label, ++step, nsteps, &io->done, total,
				       0);
			end = timed_sweep(t, io, w, p, s, why, sizeof(why),
					  rec, label);
			s->status = RESULT_OK;
			if (end == ZONES_STOPPED) {
				/* a signal is not the device's failure: the
				 * sweep is skipped, its zones done kept */
				bench_interrupted_text(why, sizeof(why),
						       cmd_stop_signal);
				s->status = RESULT_SKIPPED;
				s->reason = xstrdup(why);
				diag_error("%s of '%s': %s", label, t->path,
					   why);
				return 128 + cmd_stop_signal;
			}
			if (end != ZONES_DONE) {
				s->status = RESULT_FAILED;
				s->reason = xstrdup(why);
			}
			if (end != ZONES_DONE) {
				diag_error("%s of '%s': %s%s", label, t->path,
					   why, t->created &&
					   end == ZONES_NOSPACE ?
					   "; file removed" : "");
				return EXIT_FAILED;
			}
			if (!w && zones_file_path(t, at, sizeof(at))) {
				long n = zones_mark_holes(zones_file_path(t,
							  at, sizeof(at)),
							  t->backing_off, s);

				t->holes += n > 0 ? (size_t)n : 0;
			}
			if (has_errors(s)) {
				if (!w)
					locate_errors(t, io, s);
				s->status = RESULT_FAILED;
				s->reason = xstrdup("I/O errors (see the "
						    "zones)");
				status = EXIT_FAILED;
			}
		}
	return status;
}

static void *io_buffers(const struct zones_config *cfg,
			const struct ztarget *t, struct datagen *dg)
{
	size_t align = t->align.mem < 4096 ? 4096 : t->align.mem;
	size_t size = (size_t)cfg->bs * cfg->qd;
	void *bufs;
	unsigned i;

	if (posix_memalign(&bufs, align, size)) {
		diag_die(EXIT_FAILED, "out of memory for I/O buffers");
	}
	/* the pool's data once; each write then only restamps its
	 * sectors for its offset (datagen.h) */
	for (i = 0; i < cfg->qd; i++)
		datagen_copy(dg, (char *)bufs + (size_t)i * cfg->bs,
			     (size_t)cfg->bs, 0, 0, (uint64_t)i * cfg->bs);
	return bufs;
}

/* Everything one `clyde zones` holds between its steps. */
struct zones_state {
	struct zones_config cfg;
	struct ztarget t;
	struct host_info host;
	struct fs_target fst;
	struct zones_io io;
	struct datagen dg;
	int have_dg;
	struct record *rec;
	struct outputs out;
	uint64_t zone;
};

/* The outputs of clyde zones, in the order added. */
enum { ZONES_OUT_JSON, ZONES_OUT_CSV };

/* --engine, or the default falling back to psync.  0 or EXIT_USAGE. */
static int pick_engine(struct zones_state *s)
{
	struct zones_config *cfg = &s->cfg;
	int rc;

	s->io.ops = io_engine_find(cfg->engine);
	rc = io_engine_probe(s->io.ops, 0);
	if (rc && cfg->engine_given)
		return cmd_usage_error("--engine: %s cannot be used here: %s",
				       cfg->engine, strerror(-rc));
	if (rc) {	/* the default: fall back to what always works */
		diag_warning("%s cannot be used here (%s); psync, one I/O at a "
			     "time", cfg->engine, strerror(-rc));
		s->io.ops = &io_engine_psync;
		cfg->engine = s->io.ops->name;
		cfg->qd = 1;
	}
	if (!cfg->seed_given)
		cfg->seed = cmd_random_seed();
	return 0;
}

/* The record, the data and the I/O set up for the sweeps. */
static void start_zones(struct zones_state *s)
{
	const struct zones_config *cfg = &s->cfg;

	host_detect(&s->host);
	zones_detect(&s->t, &s->fst);
	s->rec = record_new();
	fill_record(s->rec, cfg, &s->t, &s->host, &s->fst, s->zone);
	if (s->io.ops->caveat) {
		diag_warning("%s", s->io.ops->caveat);
		record_warn(s->rec, "%s", s->io.ops->caveat);
	}
	datagen_init(&s->dg, cfg->seed, 0);
	s->have_dg = 1;
	s->io.fd = s->t.fd;
	s->io.qd = cfg->qd;
	s->io.bs = cfg->bs;
	s->io.size = s->t.size;
	s->io.zone = s->zone;
	s->io.dg = &s->dg;
	s->io.stop = &cmd_stop_signal;
	s->io.bufs = io_buffers(cfg, &s->t, &s->dg);
}

/* The text, --json and --csv from the record. */
static int write_zones(struct zones_state *s, int status)
{
	FILE *text = s->cfg.quiet ? stderr : stdout;
	FILE *json = outputs_file(&s->out, ZONES_OUT_JSON);
	FILE *csv = outputs_file(&s->out, ZONES_OUT_CSV);
	int bad = 0;

	if (zones_write_text(s->rec, text) || fflush(text))
		bad = 1;
	if (json && outputs_done(&s->out, ZONES_OUT_JSON,
				 record_write_json(s->rec, json)))
		bad = 1;
	if (csv && outputs_done(&s->out, ZONES_OUT_CSV,
				zones_write_csv(s->rec, csv)))
		bad = 1;
	return status ? status : bad ? EXIT_FAILED : 0;
}

/* The sweeps after every check, and the outputs.  The exit status. */
static int run_zones(struct zones_state *s)
{
	struct record *rec = s->rec;
	struct ztarget *t = &s->t;
	int status;

	progress_start(s->cfg.quiet);
	status = run_sweeps(&s->cfg, t, &s->io, rec);
	progress_stop();
	if (t->holes)
		record_warn(rec, "%zu zone%s of the read sweeps lay over "
			    "unallocated space (holes, H in the tables) of '%s': "
			    "reads of holes move no data from the storage, so "
			    "their rates and the sweep's flatter it (write the "
			    "target first, or use --write)", t->holes,
			    t->holes == 1 ? "" : "s", t->device ? t->backing :
			    t->path);
	if (cmd_stop_signal)
		status = 128 + cmd_stop_signal;
	rec->exit_status = status;
	free(rec->end);
	rec->end = record_now_iso8601();
	/* the created file goes before the outputs */
	zones_target_release(t);
	if (rec->zones->error)
		diag_error("%s", rec->zones->error);
	return write_zones(s, status);
}

int cmd_zones(int argc, char **argv)
{
	struct zones_state s;
	char err[512];
	int status;

	memset(&s, 0, sizeof(s));
	s.t.fd = s.t.parentfd = -1;
	zones_config_init(&s.cfg);
	if (cmd_parsed(zones_options_parse(&s.cfg, argc, argv, err,
					   sizeof(err)), err, &status))
		goto out;
	status = pick_engine(&s);
	if (status)
		goto out;
	cmd_install_signals(zones_unlink_created);
	status = zones_open_target(&s.cfg, &s.t);
	if (!status)
		status = zones_check_geometry(&s.cfg, &s.t, &s.zone);
	if (!status && s.t.own)	/* what a killed clyde left there */
		rundir_warn_leftovers(s.cfg.target);
	outputs_add(&s.out, "--json", s.cfg.json_path, OUT_JSON);
	outputs_add(&s.out, "--csv", s.cfg.csv_path, OUT_ZONES_CSV);
	if (!status)
		status = outputs_open(&s.out);
	if (!status) {
		start_zones(&s);
		status = run_zones(&s);
	}
out:
	zones_target_release(&s.t);
	outputs_commit(&s.out);
	free(s.io.bufs);
	if (s.have_dg)
		datagen_release(&s.dg);
	record_free(s.rec);
	fs_target_release(&s.fst);
	host_release(&s.host);
	zones_config_release(&s.cfg);
	return status;
}
