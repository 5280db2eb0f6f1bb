/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_WORKER_ROWS_H
#define CLYDE_WORKER_ROWS_H

/*
 * The per-worker rows of a result (struct worker_row in record.h):
 * adding and freeing (record.c).  Their JSON is json_workers.c.
 */

#include "report/model/record.h"

/* Append a zeroed row (status RESULT_NOT_RUN) and return it. */
struct worker_row *result_add_worker(struct result *res, int worker,
				     const char *host, const char *dir);

#endif
