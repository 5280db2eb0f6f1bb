/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_BENCH_FILES_WALK_H
#define CLYDE_BENCH_FILES_WALK_H

/*
 * The stat and delete phases of a small-file family
 * (bench/classic/files_walk.c), over what its create left.
 */

#include "bench/classic/files_state.h"

int files_stat(struct bench_ctx *ctx, struct result *res,
	       enum files_family family);
int files_delete(struct bench_ctx *ctx, struct result *res,
		 enum files_family family);

#endif
