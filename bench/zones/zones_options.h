/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_ZONES_OPTIONS_H
#define CLYDE_ZONES_OPTIONS_H

/*
 * The options of `clyde zones`, as one table (bench/zones/zones_options.c): it
 * parses the command line, prints --help and writes every effective
 * setting into the run record's params.
 */

#include <stddef.h>
#include <stdint.h>

#include "bench/common_options.h"
#include "lib/optable.h"
#include "report/model/record.h"

/* About this many zones when --zone is not given. */
#define ZONES_DEFAULT_COUNT 200
/* ... but a default zone holds at least this many queues (--qd x --bs),
 * so that its time is long against its I/Os' latency */
#define ZONES_MIN_QUEUES 8ull

struct zones_config {
	char *target;			/* -d: device, file, or where to
					 * create one */
	uint64_t size;			/* --size, bytes (0: not given) */
	uint64_t zone;			/* --zone, bytes (0: ~200 zones) */
	uint64_t bs;			/* --bs, bytes per I/O */
	unsigned qd;			/* --qd */
	int qd_given;
	const char *engine;		/* --engine (the table's name) */
	int engine_given;
	unsigned passes;		/* --passes */
	int write;			/* --write */
	int force;			/* --force */
	uint64_t seed;			/* --seed: the data a write writes */
	int seed_given;
	char *json_path;
	char *csv_path;
	char *label;			/* -m */
	struct opt_kv *tags;		/* --tag */
	size_t ntags, tags_alloc;
	int quiet;			/* -q */
};

void zones_config_init(struct zones_config *cfg);
void zones_config_release(struct zones_config *cfg);

/* Parse argv (argv[0] is "zones"); as options_parse(). */
enum options_result zones_options_parse(struct zones_config *cfg, int argc,
					char **argv, char *err,
					size_t errlen);

/* Every setting, defaults included, into rec's params (and the tags). */
void zones_options_record(const struct zones_config *cfg,
			  struct record *rec);

#endif
