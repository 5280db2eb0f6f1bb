/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_WORKER_ROWS_H
#define CLYDE_WORKER_ROWS_H

/*
 * The per-worker rows of a result (struct worker_row in record.h): adding,
 * freeing, and their JSON, an array beside the aggregate:
 *
 *   "workers": [ { "worker": 0, "host": "n1", "dir": "/mnt/a",
 *                  "status": "ok", "reason": null, "value": 51234.5,
 *                  "cpu": 40.1, "ops": 4096, "bytes": 33554432,
 *                  "elapsed": 0.64, "first_s": 0.0003, "last_s": 0.6403 },
 *                ... ]
 *
 * The member is absent when a single worker ran.
 */

#include <json-c/json.h>

#include "record.h"

/* Append a zeroed row (status RESULT_NOT_RUN) and return it. */
struct worker_row *result_add_worker(struct result *res, int worker,
				     const char *host, const char *dir);

/* Free the rows of res (the result itself stays). */
void result_free_workers(struct result *res);

/* Add "workers" to the result's JSON object when res has rows. */
void worker_rows_json_add(struct json_object *obj, const struct result *res);

/*
 * Read the "workers" member of a result's object (absent: none).  0, or -1
 * with a message in err (where prefixes it, e.g. "result 3: ").
 */
int worker_rows_json_read(struct json_object *obj, const char *where,
			  struct result *res, char *err, size_t errlen);

#endif
