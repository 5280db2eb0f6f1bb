// SPDX-License-Identifier: GPL-2.0-only
/*
 * The classic suite, in bonnie++'s run order (that of bonnie_tests[]).
 * Each test lives in its family's file; this array is the one place that
 * lists them.
 */
#include "bench/classic/tests.h"

extern const struct bench_test bench_putc, bench_put_block, bench_rewrite,
	bench_getc, bench_get_block, bench_seeks, bench_seq_create,
	bench_seq_stat, bench_seq_del, bench_ran_create, bench_ran_stat,
	bench_ran_del;

const struct bench_test *const bench_tests[] = {
	&bench_putc,
	&bench_put_block,
	&bench_rewrite,
	&bench_getc,
	&bench_get_block,
	&bench_seeks,
	&bench_seq_create,
	&bench_seq_stat,
	&bench_seq_del,
	&bench_ran_create,
	&bench_ran_stat,
	&bench_ran_del,
};

const size_t bench_ntests = sizeof(bench_tests) / sizeof(bench_tests[0]);

int bench_test_applies(const struct bench_test *t,
		       const struct bench_config *cfg)
{
	if ((t->flags & BENCH_IO) && !cfg->file_size)
		return 0;
	if ((t->flags & BENCH_IO) && t->def->per_char && !cfg->char_size)
		return 0;
	if ((t->flags & BENCH_FILES) && !cfg->num_files)
		return 0;
	return 1;
}

struct result *bench_test_result(const struct bench_test *t,
				 struct record *rec)
{
	return record_add_result(rec, t->def->name, t->def->title,
				 t->def->unit);
}

static uint64_t blocks(uint64_t bytes, uint64_t chunk)
{
	return chunk ? (bytes + chunk - 1) / chunk : 0;
}

uint64_t bench_test_ops(const struct bench_test *t,
			const struct bench_config *cfg)
{
	switch (t->count) {
	case BENCH_COUNT_CHUNKS:
		return blocks(t->def->per_char ? cfg->char_size :
			      cfg->file_size, cfg->chunk_size);
	case BENCH_COUNT_FILES:
		return cfg->num_files;
	default:
		return 0;
	}
}
