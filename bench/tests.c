// SPDX-License-Identifier: GPL-2.0-only
/*
 * The classic suite, in bonnie++'s run order.  Each test lives in its
 * family's file; this array is the one place that lists them.
 */
#include "bench.h"

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
