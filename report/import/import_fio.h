/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_IMPORT_FIO_H
#define CLYDE_IMPORT_FIO_H

/*
 * The two halves of the fio importer (not a public API): import_fio.c
 * reads the documents and jobs, import_fio_cell.c makes each job a matrix
 * cell.  The helpers read fio's JSON leniently (numbers as strings too).
 */

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "report/model/histogram.h"
#include "report/import/import.h"

struct doc {
	struct import *im;
	const char *file;
	unsigned long lineno;
	const char *version;
	int several;		/* a jobname printed more than once */
	struct json_object *global;
	/* without group_reporting: the first record of each job name, so
	 * that its other entries (its threads) are summed into it */
	struct clone { const char *name; struct record *rec; } *clones;
	size_t nclones;
	int64_t timestamp;
	/* "fio: terminating on signal N" in the text before the document:
	 * N (fio printed what the jobs had done when it stopped); 0 none */
	int signal;
};

struct json_object *fio_get(struct json_object *obj, const char *key);
struct json_object *fio_get_obj(struct json_object *obj, const char *key);
const char *fio_get_str(struct json_object *obj, const char *key);
double fio_get_num(struct json_object *obj, const char *key);
/* A job option from the job, else from the global options. */
const char *fio_option(const struct doc *d, struct json_object *job,
		       const char *key);
/* Completion latency of a direction; *scale to ns (1000 for fio 2.x). */
struct json_object *fio_clat_of(struct json_object *st, double *scale);
/* Its histogram from json+ bins, else from the percentiles. */
void fio_latency_hist(struct histogram *h, struct json_object *st);
/*
 * Whether every completion latency figure of direction st (min, max,
 * mean, the percentiles) is one a histogram holds (0 to 2^64 ns): 1, or 0
 * for a negative, infinite or huge one, which the importer leaves out
 * with a warning rather than convert into nonsense.
 */
int fio_latency_sane(struct json_object *st);
/* The same for its rates and counts (iops, bw, io_bytes, runtime,
 * total_ios): 0 to 1e15. */
int fio_rates_sane(struct json_object *st);

/*
 * fio's own latency summary of direction st (mean, min, max, the p50,
 * p90, p99 and p99.9 of its list, else of its json+ bins) for h, the
 * histogram the importer built of it; NULL when fio gave none or h is
 * empty.
 */
struct hist_exact *fio_exact_of(struct json_object *st,
				const struct histogram *h);

/* Bytes a direction moved (fio 2.x wrote KiB, 3.x bytes). */
uint64_t fio_io_bytes(const struct doc *d, struct json_object *st);

/* "4k" "1m" "4096" "1gb": bytes, 0 if unknown (a "100%" size too). */
uint64_t fio_size_of(const char *s);

/* The job as a matrix cell of rec (see import_fio_cell.c). */
void fio_cell(const struct doc *d, struct json_object *j,
	      struct record *rec, const char *rw);
/* Add the figures of src (another thread of the same job) to dst. */
void fio_sum_clone(struct record *dst, const struct record *src);
/* The same without a word: rates, CPU, counts, latency, the cell. */
void fio_sum_figures(struct record *dst, const struct record *src);
/*
 * Add the record of job j.  In a client/server output (client set;
 * import_fio_clients.c) the clients ran at the same time, so the entries
 * of one job name are one run, summed, each client a worker row.  Takes
 * rec; returns records added.
 */
int fio_add_job(struct doc *d, struct record *rec, struct json_object *j,
		int client);

#endif
