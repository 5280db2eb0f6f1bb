/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A complete synthetic run record for the t3 writer tests: every field
 * set, twelve results with known values and latency histograms.  Not a
 * test itself (the name does not match t/tNNNN-*).
 */
#ifndef T_RECORD_FIXTURE_H
#define T_RECORD_FIXTURE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/model/record.h"

struct fixture_result {
	const char *name, *title, *unit;
	double value, cpu;
	uint64_t max_ns;	/* the slowest operation */
	unsigned flags;
	double residency;
};

/* bonnie++ order; the CSV line the fixture must give is below. */
static const struct fixture_result fixture_results[12] = {
	{ "putc", "Per Chr write", "KiB/s", 533.7, 97.6,
	  UINT64_C(33679000), 0, -1 },
	{ "put_block", "Block write", "KiB/s", 323677.9, 29.2,
	  UINT64_C(1502000), 0, -1 },
	{ "rewrite", "Rewrite", "KiB/s", 716304, 56, UINT64_C(1616000), 0,
	  0.02 },
	{ "getc", "Per Chr read", "KiB/s", 619, 98, UINT64_C(27232000), 0,
	  0.0 },
	{ "get_block", "Block read", "KiB/s", 1234567, 45, UINT64_C(89000),
	  RESULT_LOW_PRECISION, 0.004 },
	{ "seeks", "Random seeks", "seeks/s", 4567.4, 12,
	  UINT64_C(150000000), 0, 0.0 },
	{ "seq_create", "Seq create", "files/s", 15000.9, 80,
	  UINT64_C(154000), 0, -1 },
	{ "seq_stat", "Seq stat", "files/s", 200000.5, 99, UINT64_C(319000),
	  RESULT_LOW_PRECISION, -1 },
	{ "seq_del", "Seq delete", "files/s", 30000, 70,
	  UINT64_C(120000000000), 0, -1 },
	{ "ran_create", "Random create", "files/s", 14000, 81,
	  UINT64_C(99999999), 0, -1 },
	{ "ran_stat", "Random stat", "files/s", 180000, 99,
	  UINT64_C(100000000), 0, -1 },
	{ "ran_del", "Random delete", "files/s", 29000.2, 71,
	  UINT64_C(99999999999), 0, -1 },
};

#define FIXTURE_LABEL "fc-raid5-xfs"

static const char fixture_csv[] =
	"1.98,clyde-0.1.0," FIXTURE_LABEL ",1,1795977433,1G,8k,8192,5,"
	"533,97,323677,29,716304,56,619,98,1234567,45,4567,12,"
	"16,,,,,"
	"15000,80,200000,99,30000,70,14000,81,180000,99,29000,71,"
	"33679us,1502us,1616us,27232us,89us,150ms,"
	"154us,319us,120s,99999us,100ms,99999ms\n";

static struct record *fixture_record(void)
{
	struct record *rec = record_new();
	size_t i;
	uint64_t k;

	record_set_str(&rec->version, "0.1.0");
	record_set_str(&rec->start, "2026-11-29T19:09:37Z");
	record_set_str(&rec->end, "2026-11-29T19:31:02Z");
	record_set_str(&rec->label, FIXTURE_LABEL);
	rec->repetition = 2;
	rec->exit_status = 0;
	record_set_str(&rec->host.hostname, "vm");
	record_set_str(&rec->host.kernel, "6.1.0-28-amd64");
	record_set_str(&rec->host.cpu_model, "Intel(R) Xeon(R) \"Gold\" 6130");
	rec->host.cores = 2;
	rec->host.ram = UINT64_C(25769803776);
	record_set_str(&rec->target.path, "/mnt/array/x");
	record_set_str(&rec->target.mountpoint, "/mnt/array");
	record_set_str(&rec->target.fstype, "xfs");
	record_set_str(&rec->target.source, "/dev/md0");
	record_set_str(&rec->target.vfs_options, "rw,noatime");
	record_set_str(&rec->target.fs_options, "attr2,inode64");
	rec->target.block_size = 4096;
	rec->target.total_bytes = UINT64_C(1099511627776);
	rec->target.free_bytes = UINT64_C(1000000000000);

	record_set_param(rec, PARAM_FILE_SIZE, "1073741824", 1);
	record_set_param(rec, PARAM_CHUNK_SIZE, "8192", 1);
	record_set_param(rec, PARAM_SEEKS, "8192", 1);
	record_set_param(rec, PARAM_SEEKERS, "5", 1);
	record_set_param(rec, PARAM_NUM_FILES, "16384", 1);
	record_set_param(rec, PARAM_MAX_SIZE, "0", 1);
	record_set_param(rec, PARAM_MIN_SIZE, "0", 1);
	record_set_param(rec, PARAM_NUM_DIRS, "0", 1);
	record_set_param(rec, PARAM_FILE_CHUNK_SIZE, "8192", 1);
	record_set_param(rec, PARAM_SEED, "1795977433", 1);
	record_set_param(rec, PARAM_CONCURRENCY, "1", 1);
	record_set_param(rec, "char_io", "syscall", 0);
	record_set_param(rec, "device_cache_ratio", "2.5", 1);
	record_add_tag(rec, "controller", "fc");
	record_add_tag(rec, "raid", "5");
	record_warn(rec, "file size %s is less than twice the RAM", "1G");

	for (i = 0; i < 12; i++) {
		const struct fixture_result *f = &fixture_results[i];
		struct result *res = record_add_result(rec, f->name, f->title,
						       f->unit);

		result_set_status(res, RESULT_OK, NULL);
		res->value = f->value;
		res->cpu = f->cpu;
		res->flags = f->flags;
		res->residency = f->residency;
		res->elapsed = f->flags & RESULT_LOW_PRECISION ? 0.25 : 12.5;
		/* 1000 fast operations spread over 1..10 us, one slow one */
		for (k = 0; k < 1000; k++)
			hist_add(&res->lat, 1000 + k * 9);
		hist_add(&res->lat, f->max_ns);
		res->ops = res->lat.count;
		res->bytes = i < 6 ? UINT64_C(1073741824) : 0;
	}
	return rec;
}

/* Everything a stream got, as a string (caller frees). */
static char *fixture_capture(int (*writer)(const struct record *, FILE *),
			     const struct record *rec, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		abort();
	*rc = writer(rec, f);
	if (fclose(f))
		abort();
	return buf;
}

#endif
