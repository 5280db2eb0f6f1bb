// SPDX-License-Identifier: GPL-2.0-only
/* bonnie++'s formatting rules shared by the CSV and text writers. */
#include "report/model/bonnie.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

const struct bonnie_test bonnie_tests[BONNIE_NTESTS] = {
	[BONNIE_PUTC] = { "putc", "Per-char write", "KiB/s", "Per Chr", 1 },
	[BONNIE_PUT_BLOCK] = { "put_block", "Block write", "KiB/s", "Block", 0 },
	[BONNIE_REWRITE] = { "rewrite", "Rewrite", "KiB/s", "Rewrite", 0 },
	[BONNIE_GETC] = { "getc", "Per-char read", "KiB/s", "Per Chr", 1 },
	[BONNIE_GET_BLOCK] = { "get_block", "Block read", "KiB/s", "Block", 0 },
	[BONNIE_SEEKS] = { "seeks", "Random seeks", "seeks/s", "Seeks", 0 },
	[BONNIE_SEQ_CREATE] = { "seq_create", "Sequential create", "files/s",
				"Create", 0 },
	[BONNIE_SEQ_STAT] = { "seq_stat", "Sequential read", "files/s",
			      "Read", 0 },
	[BONNIE_SEQ_DEL] = { "seq_del", "Sequential delete", "files/s",
			     "Delete", 0 },
	[BONNIE_RAN_CREATE] = { "ran_create", "Random create", "files/s",
				"Create", 0 },
	[BONNIE_RAN_STAT] = { "ran_stat", "Random read", "files/s",
			      "Read", 0 },
	[BONNIE_RAN_DEL] = { "ran_del", "Random delete", "files/s",
			     "Delete", 0 },
};

const struct bonnie_test *bonnie_test_find(const char *name)
{
	size_t i;

	for (i = 0; i < BONNIE_NTESTS; i++)
		if (!strcmp(bonnie_tests[i].name, name))
			return &bonnie_tests[i];
	return NULL;
}

int bonnie_test_io(const char *name)
{
	const struct bonnie_test *t = bonnie_test_find(name);

	return t && t < bonnie_tests + BONNIE_NIO;
}

int bonnie_test_files(const char *name)
{
	const struct bonnie_test *t = bonnie_test_find(name);

	return t && t >= bonnie_tests + BONNIE_NIO;
}

int bonnie_test_per_char(const char *name)
{
	const struct bonnie_test *t = bonnie_test_find(name);

	return t && t->per_char;
}

int bonnie_csv_rate_field(enum bonnie_test_id id, int io, int files)
{
	return id < BONNIE_NIO ? io + 2 * (int)id :
	       files + 2 * (int)(id - BONNIE_NIO);
}

static int64_t param(const struct record *rec, const char *key, int64_t dflt)
{
	int64_t v;

	return record_param_int(rec, key, &v) ? dflt : v;
}

static int any_run(const struct record *rec, size_t from, size_t to)
{
	size_t i;

	for (i = from; i < to; i++) {
		const struct result *res = record_find(rec,
						       bonnie_tests[i].name);

		if (res && res->status != RESULT_NOT_RUN)
			return 1;
	}
	return 0;
}

void bonnie_shape(const struct record *rec, struct bonnie_shape *s)
{
	s->file_size = param(rec, PARAM_FILE_SIZE, 0);
	s->chunk_size = param(rec, PARAM_CHUNK_SIZE, BONNIE_DEFAULT_CHUNK);
	s->seeks = param(rec, PARAM_SEEKS, BONNIE_DEFAULT_SEEKS);
	s->seekers = param(rec, PARAM_SEEKERS, BONNIE_DEFAULT_SEEKERS);
	s->num_files = param(rec, PARAM_NUM_FILES, 0);
	s->max_size = param(rec, PARAM_MAX_SIZE, 0);
	s->min_size = param(rec, PARAM_MIN_SIZE, 0);
	s->num_dirs = param(rec, PARAM_NUM_DIRS, 0);
	s->file_chunk_size = param(rec, PARAM_FILE_CHUNK_SIZE,
				   BONNIE_DEFAULT_CHUNK);
	s->concurrency = param(rec, PARAM_CONCURRENCY, 1);
	s->io = s->file_size > 0 ||
		any_run(rec, 0, BONNIE_NIO);
	s->files = s->num_files > 0 ||
		   any_run(rec, BONNIE_NIO, BONNIE_NTESTS);
}

const struct result *bonnie_result(const struct record *rec,
				   const char *name)
{
	const struct result *res = record_find(rec, name);

	return res && res->status == RESULT_OK ? res : NULL;
}

void bonnie_print_size(char *buf, size_t len, uint64_t size,
		       const char *units)
{
	size_t ind = 0;

	if (size) {
		while (size % 1024 == 0 && units[ind + 1]) {
			size /= 1024;
			ind++;
		}
	}
	if (units[ind] == ' ')
		snprintf(buf, len, "%" PRIu64, size);
	else
		snprintf(buf, len, "%" PRIu64 "%c", size, units[ind]);
}

void bonnie_file_size(char *buf, size_t len, int64_t bytes)
{
	uint64_t b = bytes > 0 ? (uint64_t)bytes : 0;

	if (b % (1024 * 1024) == 0)
		bonnie_print_size(buf, len, b >> 20, "MG");
	else if (b % 1024 == 0)
		snprintf(buf, len, "%" PRIu64 "k", b >> 10);
	else
		snprintf(buf, len, "%" PRIu64, b);
}

void bonnie_num_files(char *buf, size_t len, int64_t num_files)
{
	if (num_files % 1024 == 0)
		snprintf(buf, len, "%" PRId64, num_files / 1024);
	else
		snprintf(buf, len, "%.10g", (double)num_files / 1024.0);
}

void bonnie_latency(char *buf, size_t len, const struct result *res)
{
	uint64_t ns;

	if (!res || !res->lat.count) {
		if (len)
			*buf = '\0';
		return;
	}
	ns = res->lat.max;
	if (ns < UINT64_C(100000000))			/* 0.1 s */
		snprintf(buf, len, "%" PRIu64 "us", ns / 1000);
	else if (ns < UINT64_C(100000000000))		/* 100 s */
		snprintf(buf, len, "%" PRIu64 "ms", ns / 1000000);
	else
		snprintf(buf, len, "%" PRIu64 "s", ns / 1000000000);
}
