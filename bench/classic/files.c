// SPDX-License-Identifier: GPL-2.0-only
/*
 * The small-file tests: sequential and random create, stat (bonnie++'s
 * "read") and delete, with bonnie++ 2.00's file-name scheme and the
 * -n num:max:min:dirs shape.
 *
 * Each family works in FILES_DIR, a directory of its own under ctx->dir,
 * with cfg->num_dirs sub-directories "%05u" when num_dirs > 0; file i goes
 * to sub-directory i * num_dirs / num_files, so the files are spread evenly
 * in index order.  A file's name is its index as "%010x" with 0 to 12
 * random characters of [a-zA-Z0-9] after it (sequential family) or before
 * it (random family).
 *
 * Differences from bonnie++, on purpose:
 * - create and delete end with syncfs() of the filesystem under test inside
 *   the timed period, not sync() of the whole machine;
 * - file data is unique in every 4 KiB (datagen: one stream per family,
 *   file after file) and incompressible, not zeros;
 * - one clock read per operation: an operation's latency runs from the end
 *   of the one before, so the phase's latencies add up to its time.
 * - -b fsyncs each file and then its directory after every create, link
 *   and unlink (as bonnie++ does for the file tests), and a failing
 *   directory fsync fails the test instead of silently turning itself off;
 * - symlinks point to the first file by a path relative to the link's own
 *   directory, so they resolve with sub-directories too (bonnie++'s dangle);
 * - a sequential phase that does not find exactly num_files files fails.
 */
#include "bench/classic/tests.h"
#include "bench/classic/files_create.h"
#include "bench/classic/files_walk.h"

static int seq_create(struct bench_ctx *ctx, struct result *res)
{
	return files_create(ctx, res, FAMILY_SEQ);
}

static int seq_stat(struct bench_ctx *ctx, struct result *res)
{
	return files_stat(ctx, res, FAMILY_SEQ);
}

static int seq_del(struct bench_ctx *ctx, struct result *res)
{
	return files_delete(ctx, res, FAMILY_SEQ);
}

static int ran_create(struct bench_ctx *ctx, struct result *res)
{
	return files_create(ctx, res, FAMILY_RAN);
}

static int ran_stat(struct bench_ctx *ctx, struct result *res)
{
	return files_stat(ctx, res, FAMILY_RAN);
}

static int ran_del(struct bench_ctx *ctx, struct result *res)
{
	return files_delete(ctx, res, FAMILY_RAN);
}

const struct bench_test bench_seq_create = {
	.def = &bonnie_tests[BONNIE_SEQ_CREATE],
	.flags = BENCH_FILES,
	.count = BENCH_COUNT_FILES,
	.run = seq_create,
};

const struct bench_test bench_seq_stat = {
	.def = &bonnie_tests[BONNIE_SEQ_STAT],
	.flags = BENCH_FILES,
	.count = BENCH_COUNT_FILES,
	.run = seq_stat,
};

const struct bench_test bench_seq_del = {
	.def = &bonnie_tests[BONNIE_SEQ_DEL],
	.flags = BENCH_FILES,
	.count = BENCH_COUNT_FILES,
	.run = seq_del,
};

const struct bench_test bench_ran_create = {
	.def = &bonnie_tests[BONNIE_RAN_CREATE],
	.flags = BENCH_FILES,
	.count = BENCH_COUNT_FILES,
	.run = ran_create,
};

const struct bench_test bench_ran_stat = {
	.def = &bonnie_tests[BONNIE_RAN_STAT],
	.flags = BENCH_FILES,
	.count = BENCH_COUNT_FILES,
	.run = ran_stat,
};

const struct bench_test bench_ran_del = {
	.def = &bonnie_tests[BONNIE_RAN_DEL],
	.flags = BENCH_FILES,
	.count = BENCH_COUNT_FILES,
	.run = ran_del,
};
