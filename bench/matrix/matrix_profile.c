// SPDX-License-Identifier: GPL-2.0-only
/*
 * `clyde matrix`: the named workloads of the seeds (--profile) and the
 * steady-state criterion (--steady).  A profile only sets defaults: the
 * options parser applies it first and the command line after it.
 */
#include "bench/matrix/matrix_options.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/optable.h"
#include "lib/units.h"
#include "lib/xalloc.h"

struct matrix_profile {
	const char *name;
	const uint64_t *bs;
	size_t nbs;
	const unsigned *threads;
	size_t nthreads;
	const int *random;
	size_t npatterns;
	const unsigned *mix;
	size_t nmix;
	const unsigned *curve;
	size_t ncurve;
	uint64_t prefill_bs;
	uint64_t hit_area;
	int hit_pct;		/* -1: no hit area */
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* seed 000: XDISK -ORW at 8K, 16K, 1M, 1 and 16 threads, four mixes */
static const uint64_t xdisk_bs[] = { 8 * KiB, 16 * KiB, MiB };
static const unsigned xdisk_threads[] = { 1, 16 };
static const int xdisk_patterns[] = { 1, 0 };
static const unsigned xdisk_mix[] = { 100, 0, 50, 80 };

/* seed 001: vdbench 8K random read, 100 % cache hits in the default 1 MB
 * hit area, prefilled with 256 KB sequential writes, a response-time curve */
static const uint64_t vd_bs[] = { 8 * KiB };
static const unsigned vd_threads[] = { 8 };	/* vdbench's threads=8 */
static const int vd_patterns[] = { 1 };
static const unsigned vd_mix[] = { 100 };
static const unsigned vd_curve[] = { 10, 50, 70, 80, 90, 100 };

/* seed 002's dd: large sequential write, then read, at 1 MiB, direct */
static const uint64_t dd_bs[] = { MiB };
static const unsigned dd_threads[] = { 1 };
static const int dd_patterns[] = { 0 };
static const unsigned dd_mix[] = { 0, 100 };

static const struct matrix_profile profiles[] = {
	{ "xdisk", xdisk_bs, N(xdisk_bs), xdisk_threads, N(xdisk_threads),
	  xdisk_patterns, N(xdisk_patterns), xdisk_mix, N(xdisk_mix),
	  NULL, 0, 0, 0, -1 },
	{ "vdbench-hit", vd_bs, N(vd_bs), vd_threads, N(vd_threads),
	  vd_patterns, N(vd_patterns), vd_mix, N(vd_mix), vd_curve,
	  N(vd_curve), 256 * KiB, MiB, 100 },
	{ "dd", dd_bs, N(dd_bs), dd_threads, N(dd_threads), dd_patterns,
	  N(dd_patterns), dd_mix, N(dd_mix), NULL, 0, 0, 0, -1 },
};

const char matrix_profile_help[] =
	"a named workload, defaults that options given override: xdisk "
	"(seed 000: --bs 8k,16k,1m --threads 1,16 --pattern random,seq --mix "
	"100,0,50,80), vdbench-hit (seed 001: --bs 8k --threads 8 --pattern "
	"random --mix 100 --hit-area 1M --hit-pct 100 --prefill-bs 256k "
	"--curve 10,50,70,80,90,100), dd (seed 002: --bs 1m --threads 1 "
	"--pattern seq --mix 0,100)";

static void *copy(const void *src, size_t n, size_t size)
{
	void *p = xmalloc(n * size);

	memcpy(p, src, n * size);
	return p;
}

int matrix_profile_apply(struct matrix_config *cfg, const char *name,
			 char *err, size_t errlen)
{
	const struct matrix_profile *p = NULL;
	size_t i;

	for (i = 0; i < N(profiles); i++)
		if (!strcmp(profiles[i].name, name))
			p = &profiles[i];
	if (!p)
		return errf(err, errlen, "--profile: '%s' is not xdisk, "
			    "vdbench-hit or dd", name);
	cfg->profile = p->name;
	free(cfg->bs);
	cfg->bs = copy(p->bs, p->nbs, sizeof(*p->bs));
	cfg->nbs = p->nbs;
	free(cfg->threads);
	cfg->threads = copy(p->threads, p->nthreads, sizeof(*p->threads));
	cfg->nthreads = p->nthreads;
	free(cfg->random);
	cfg->random = copy(p->random, p->npatterns, sizeof(*p->random));
	cfg->npatterns = p->npatterns;
	free(cfg->mix);
	cfg->mix = copy(p->mix, p->nmix, sizeof(*p->mix));
	cfg->nmix = p->nmix;
	free(cfg->curve);
	cfg->curve = p->ncurve ? copy(p->curve, p->ncurve,
				      sizeof(*p->curve)) : NULL;
	cfg->ncurve = p->ncurve;
	cfg->prefill_bs = p->prefill_bs;
	if (p->hit_pct >= 0) {
		cfg->hit_area = p->hit_area;
		cfg->hit_pct = (unsigned)p->hit_pct;
		cfg->hit_from_profile = 1;
	}
	return 0;
}

int matrix_steady_parse(struct matrix_config *cfg, const char *arg,
			char *err, size_t errlen)
{
	const char *colon = strchr(arg, ':');
	size_t klen = colon ? (size_t)(colon - arg) : 0;
	char *end;
	double v;

	if (!colon)
		goto bad;
	if (klen == 4 && !strncmp(arg, "iops", 4))
		cfg->steady = STEADY_IOPS, cfg->steady_slope = 0;
	else if (klen == 10 && !strncmp(arg, "iops_slope", 10))
		cfg->steady = STEADY_IOPS, cfg->steady_slope = 1;
	else if (klen == 2 && !strncmp(arg, "bw", 2))
		cfg->steady = STEADY_BW, cfg->steady_slope = 0;
	else if (klen == 8 && !strncmp(arg, "bw_slope", 8))
		cfg->steady = STEADY_BW, cfg->steady_slope = 1;
	else
		goto bad;
	if (!((colon[1] >= '0' && colon[1] <= '9') || colon[1] == '.'))
		goto bad;
	errno = 0;
	v = strtod(colon + 1, &end);
	if (errno || !isfinite(v) || v < 0)
		goto bad;
	cfg->steady_pct = *end == '%';
	if (cfg->steady_pct)
		end++;
	if (*end || (cfg->steady_pct && v > 100))
		goto bad;
	cfg->steady_limit = v;
	return 0;
bad:
	cfg->steady = STEADY_NONE;
	return errf(err, errlen, "--steady: '%s' is not KIND:LIMIT (KIND "
		    "iops, iops_slope, bw or bw_slope; LIMIT a number, or a "
		    "percentage of the mean with %%)", arg);
}

void matrix_steady_name(const struct matrix_config *cfg, char *buf,
			size_t len)
{
	if (cfg->steady == STEADY_NONE) {
		snprintf(buf, len, "none");
		return;
	}
	snprintf(buf, len, "%s%s:%g%s", cfg->steady == STEADY_IOPS ? "iops" :
		 "bw", cfg->steady_slope ? "_slope" : "", cfg->steady_limit,
		 cfg->steady_pct ? "%" : "");
}
