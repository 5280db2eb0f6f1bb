/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_BENCH_FILES_CREATE_H
#define CLYDE_BENCH_FILES_CREATE_H

/* The create phase of a small-file family (bench/classic/files_create.c). */

#include "bench/classic/files_state.h"

/* Create the family's files, timed; its state is left for stat, delete. */
int files_create(struct bench_ctx *ctx, struct result *res,
		 enum files_family family);

#endif
