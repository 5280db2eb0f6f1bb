/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_MATRIX_EXT_H
#define CLYDE_MATRIX_EXT_H

/*
 * The matrix section's prefill, targets and steady-state parts
 * (report/matrix_extras.c), for matrix.c only: freed with the section and
 * written into (read from) the objects matrix.c makes.  Not a public API;
 * report/matrix.h declares what writers use.
 */

#include <stddef.h>

#include "report/model/matrix.h"

struct json_object;
struct jval;

void matrix_ext_free(struct record_matrix *m);
/* The targets' iops and mbps over the cell's elapsed. */
void matrix_targets_rates(struct matrix_cell *c);

void matrix_ext_json_add(const struct record_matrix *m,
			 struct json_object *o);
void matrix_ext_cell_json_add(const struct matrix_cell *c,
			      struct json_object *o);
/* 0, or -1 with a message in err. */
int matrix_ext_json_read(const struct jval *obj, struct record_matrix *m,
			 char *err, size_t errlen);
int matrix_ext_cell_json_read(const struct jval *o, const char *where,
			      struct matrix_cell *c, char *err,
			      size_t errlen);

#endif
