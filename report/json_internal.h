/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_JSON_INTERNAL_H
#define CLYDE_JSON_INTERNAL_H

/*
 * Pieces of the JSON writer and reader (report/json.c) that sections of
 * the record kept in their own files (report/matrix.c) reuse, so every
 * histogram is written and checked the same way.  Not a public API.
 */

#include <json-c/json.h>

#include "histogram.h"

/* The histogram as {"bits","count","sum_ns","min_ns","max_ns","buckets"},
 * NULL (JSON null) when empty. */
struct json_object *histogram_object(const struct histogram *h);

/* Read one back (obj NULL: empty); 0 or -1 with the reader's message set
 * (where prefixes it, e.g. "cell 3: "). */
int read_histogram(struct json_object *obj, const char *where,
		   struct histogram *h);

/* The reader's last message (valid after a -1). */
const char *json_read_error(void);

#endif
