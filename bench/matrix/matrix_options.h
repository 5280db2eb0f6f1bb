/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_MATRIX_OPTIONS_H
#define CLYDE_MATRIX_OPTIONS_H

/*
 * The options of `clyde matrix`, as one table (bench/matrix/matrix_options.c): it
 * parses the command line, prints --help and writes every effective
 * setting into the run record's params.
 */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bench/common_options.h"
#include "report/model/record.h"

/* --steady: what is sampled and how it is judged (fio's steadystate=). */
enum matrix_steady_kind { STEADY_NONE, STEADY_IOPS, STEADY_BW };

struct matrix_config {
	char *target;			/* the first -d: directory, file or
					 * device (targets[0]) */
	char **targets;			/* every -d, in order */
	size_t ntargets;
	const char *profile;		/* --profile: its name, or NULL */
	uint64_t prefill_bs;		/* --prefill-bs; 0: by --bs */
	uint64_t *bs;			/* --bs, bytes */
	size_t nbs;
	unsigned *threads;		/* --threads */
	size_t nthreads;
	int *random;			/* --pattern: 1 random, 0 seq */
	size_t npatterns;
	unsigned *mix;			/* --mix: read percentages */
	size_t nmix;
	unsigned qd;			/* --qd, per thread */
	const char *engine;		/* --engine; NULL: the default */
	int sqpoll;			/* --sqpoll (io_uring) */
	int hipri;			/* --hipri (io_uring, polled) */
	int buffered;			/* --buffered: no O_DIRECT */
	int shared_file;		/* --shared-file */
	int overwrite;			/* --overwrite: -d may be a file */
	int raw_device;			/* --raw-device: -d may be a device */
	int force;			/* --force: ignore blkid signatures */
	uint64_t size;			/* --size: per file (or the file) */
	int size_given;
	double time;			/* --time per cell, seconds */
	double ramp;			/* --ramp before each cell */
	uint64_t seed;
	int seed_given;
	int verify;			/* --verify */
	int no_prefill;			/* --no-prefill */
	uint64_t hit_area;		/* --hit-area, bytes (0: none) */
	unsigned hit_pct;		/* --hit-pct */
	int hit_pct_given;
	int hit_from_profile;		/* --profile set hit_area, hit_pct */
	unsigned *curve;		/* --curve: % of the maximum IO/s */
	size_t ncurve;
	uint64_t curve_max;		/* --curve-max IO/s (0: each cell's
					 * maximum) */
	char *json_path;
	char *csv_path;
	char *label;			/* -m */
	struct opt_kv *tags;		/* --tag */
	size_t ntags, tags_alloc;
	unsigned procs;			/* -c / --procs: workers; 0 or 1: one */
	enum matrix_steady_kind steady;	/* --steady KIND:LIMIT */
	int steady_slope;		/* _slope: least-squares slope, else
					 * the largest deviation from the mean */
	double steady_limit;		/* in the sample's unit (per second
					 * for a slope), or % of the mean */
	int steady_pct;			/* the limit is a % of the mean */
	double steady_window;		/* --steady-window, seconds */
	int quiet;			/* -q: tables on stderr, no progress */
};

void matrix_config_init(struct matrix_config *cfg);
void matrix_config_release(struct matrix_config *cfg);

/* Parse argv (argv[0] is "matrix"); as options_parse(). */
enum options_result matrix_options_parse(struct matrix_config *cfg, int argc,
					 char **argv, char *err,
					 size_t errlen);

/* Every setting, defaults included, into rec's params (and the tags). */
void matrix_options_record(const struct matrix_config *cfg,
			   struct record *rec);

/* The largest --threads and --bs. */
unsigned matrix_max_threads(const struct matrix_config *cfg);
uint64_t matrix_max_bs(const struct matrix_config *cfg);

/* --prefill-bs, or its default: the largest of 1 MiB and every --bs. */
uint64_t matrix_prefill_bs(const struct matrix_config *cfg);

/*
 * The named workloads (bench/matrix/matrix_profile.c): set cfg's defaults for
 * profile name; options given on the command line are applied after, so
 * they override.  0, or -1 with "--profile: ..." in err.
 */
int matrix_profile_apply(struct matrix_config *cfg, const char *name,
			 char *err, size_t errlen);
/* "xdisk, vdbench-hit, dd" with a line each, for --help. */
extern const char matrix_profile_help[];

/* Parse --steady's KIND:LIMIT into cfg.  0, or -1 with err set. */
int matrix_steady_parse(struct matrix_config *cfg, const char *arg,
			char *err, size_t errlen);
/* "iops:5%", "bw_slope:2" as --steady was given, into buf. */
void matrix_steady_name(const struct matrix_config *cfg, char *buf,
			size_t len);

#endif
