// SPDX-License-Identifier: GPL-2.0-only
/*
 * `clyde zones`: the command.  Every check comes before anything is
 * created: the target (bench/zones_target.c: a block device opened
 * exclusively, read-only unless --write; an existing file; or a new file,
 * created and filled first), the block and zone sizes against its direct
 * I/O alignment, the engine, the outputs.  Then the sweeps, pass by
 * pass (with --write a write sweep before each read sweep), through
 * bench/zones_io.c, and the text, JSON and CSV, all from the record.  A
 * file clyde created is removed at the end, also after a signal (a second
 * one unlinks it too).
 */
#include "zones.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "cmdutil.h"
#include "env.h"
#include "progress.h"
#include "zones_holes.h"
#include "zones_io.h"
#include "zones_options.h"
#include "zones_target.h"
#include "../fsops/file.h"
#include "../fsops/target.h"
#include "../lib/xalloc.h"
#include "../report/record.h"

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

/* Run every sweep into rec->zones; the exit status. */
static int run_sweeps(const struct zones_config *cfg, struct ztarget *t,
		      struct zones_io *io, struct record *rec)
{
	struct record_zones *z = rec->zones;
	unsigned p, nsteps = cfg->passes * (cfg->write ? 2 : 1), step = 0;
	uint64_t total = (t->size + cfg->bs - 1) / cfg->bs;
	char why[256], label[64];
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
			s->residency = zones_residency(t);
			io->done = 0;
			progress_phase(label, ++step, nsteps, &io->done, total,
				       0);
			end = zones_sweep(io, w, p, s, why, sizeof(why));
			progress_idle();
			s->status = RESULT_OK;
			if (end == ZONES_STOPPED) {
				/* a signal is not the device's failure: the
				 * sweep is skipped, its zones done kept */
				bench_interrupted_text(why, sizeof(why),
						       cmd_stop_signal);
				s->status = RESULT_SKIPPED;
				s->reason = xstrdup(why);
				fprintf(stderr, "clyde: %s of '%s': %s\n",
					label, t->path, why);
				return 128 + cmd_stop_signal;
			}
			if (end != ZONES_DONE) {
				s->status = RESULT_FAILED;
				s->reason = xstrdup(why);
			}
			if (end != ZONES_DONE) {
				fprintf(stderr, "clyde: %s of '%s': %s%s\n",
					label, t->path, why, t->created &&
					end == ZONES_NOSPACE ?
					"; file removed" : "");
				return EXIT_FAILED;
			}
			if (!w && (t->device ? t->backing : t->path)) {
				long n = zones_mark_holes(t->device ?
							  t->backing : t->path,
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
		fputs("clyde: out of memory for I/O buffers\n", stderr);
		exit(EXIT_FAILED);
	}
	/* the pool's data once; each write then only restamps its
	 * sectors for its offset (datagen.h) */
	for (i = 0; i < cfg->qd; i++)
		datagen_copy(dg, (char *)bufs + (size_t)i * cfg->bs,
			     (size_t)cfg->bs, 0, 0, (uint64_t)i * cfg->bs);
	return bufs;
}

int cmd_zones(int argc, char **argv)
{
	struct zones_config cfg;
	struct ztarget t = { .fd = -1 };
	struct host_info host;
	struct fs_target fst;
	struct zones_io io;
	struct datagen dg;
	struct record *rec = NULL;
	FILE *json = NULL, *csv = NULL, *text;
	int status, rc, json_created = 0, csv_created = 0, have_dg = 0;
	uint64_t zone = 0;
	char err[512];

	memset(&host, 0, sizeof(host));
	memset(&fst, 0, sizeof(fst));
	memset(&io, 0, sizeof(io));
	zones_config_init(&cfg);
	if (cmd_parsed(zones_options_parse(&cfg, argc, argv, err, sizeof(err)),
		       err, &status))
		goto out;
	io.ops = io_engine_find(cfg.engine);
	rc = io_engine_probe(io.ops, 0);
	if (rc && cfg.engine_given) {
		status = cmd_usage_error("--engine: %s cannot be used here: %s",
					 cfg.engine, strerror(-rc));
		goto out;
	}
	if (rc) {	/* the default: fall back to what always works */
		fprintf(stderr, "clyde: warning: %s cannot be used here (%s); "
			"psync, one I/O at a time\n", cfg.engine,
			strerror(-rc));
		io.ops = &io_engine_psync;
		cfg.engine = io.ops->name;
		cfg.qd = 1;
	}
	if (!cfg.seed_given) {
		uint32_t seed;

		if (getrandom(&seed, sizeof(seed), 0) != sizeof(seed))
			seed = (uint32_t)getpid() ^ (uint32_t)time(NULL);
		cfg.seed = seed;
	}
	cmd_install_signals(zones_unlink_created);
	status = zones_open_target(&cfg, &t);
	if (!status)
		status = zones_check_geometry(&cfg, &t, &zone);
	if (status)
		goto out;
	if (cfg.json_path && !(json = cmd_open_output("--json", cfg.json_path,
						      CMD_OUT_JSON,
						      NULL, &json_created))) {
		status = EXIT_USAGE;
		goto out;
	}
	if (cfg.csv_path && !(csv = cmd_open_output("--csv", cfg.csv_path,
						    CMD_OUT_ZONES_CSV,
						    NULL, &csv_created))) {
		status = EXIT_USAGE;
		goto out;
	}
	host_detect(&host);
	zones_detect(&t, &fst);
	rec = record_new();
	fill_record(rec, &cfg, &t, &host, &fst, zone);
	if (io.ops->caveat) {
		fprintf(stderr, "clyde: warning: %s\n", io.ops->caveat);
		record_warn(rec, "%s", io.ops->caveat);
	}

	datagen_init(&dg, cfg.seed, 0);
	have_dg = 1;
	io.fd = t.fd;
	io.qd = cfg.qd;
	io.bs = cfg.bs;
	io.size = t.size;
	io.zone = zone;
	io.dg = &dg;
	io.stop = &cmd_stop_signal;
	io.bufs = io_buffers(&cfg, &t, &dg);
	progress_start(cfg.quiet);
	status = run_sweeps(&cfg, &t, &io, rec);
	progress_stop();
	if (t.holes)
		record_warn(rec, "%zu zone%s of the read sweeps lay over "
			    "unallocated space (holes, H in the tables) of '%s': "
			    "reads of holes move no data from the storage, so "
			    "their rates and the sweep's flatter it (write the "
			    "target first, or use --write)", t.holes,
			    t.holes == 1 ? "" : "s", t.device ? t.backing :
			    t.path);
	if (cmd_stop_signal)
		status = 128 + cmd_stop_signal;
	rec->exit_status = status;
	free(rec->end);
	rec->end = record_now_iso8601();
	/* the created file goes before the outputs */
	zones_target_release(&t);
	if (rec->zones->error)
		fprintf(stderr, "clyde: %s\n", rec->zones->error);
	text = cfg.quiet ? stderr : stdout;
	if (zones_write_text(rec, text) || fflush(text))
		status = status ? status : EXIT_FAILED;
	if (json && record_write_json(rec, json)) {
		fprintf(stderr, "clyde: --json: cannot write '%s': %s\n",
			cfg.json_path, strerror(errno));
		status = status ? status : EXIT_FAILED;
	}
	if (csv && (zones_write_csv(rec, csv) || fflush(csv))) {
		fprintf(stderr, "clyde: --csv: cannot write '%s': %s\n",
			cfg.csv_path, strerror(errno));
		status = status ? status : EXIT_FAILED;
	}
out:
	zones_target_release(&t);
	/* bad input: no record, and no output file left that we made */
	if (!rec && json && json_created)
		unlink(cfg.json_path);
	if (!rec && csv && csv_created)
		unlink(cfg.csv_path);
	if (json)
		fclose(json);
	if (csv)
		fclose(csv);
	free(io.bufs);
	if (have_dg)
		datagen_release(&dg);
	record_free(rec);
	fs_target_release(&fst);
	host_release(&host);
	zones_config_release(&cfg);
	return status;
}
