/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_TARGET_REC_H
#define CLYDE_TARGET_REC_H

/*
 * The detected parts of a record: the target's device stack and filesystem
 * geometry (struct record_stack) and the host's virtualization (struct
 * record_virt).  Building and freeing (record.c) and text (target_text.c);
 * their JSON is json_target.c (json_internal.h).
 */

#include <stddef.h>
#include <stdio.h>

#include "report/model/record.h"

/* Building. */
struct record_stack *record_stack_new(void);
/* Append a device; its index. */
int record_stack_add(struct record_stack *s, const char *kind,
		     const char *name, int parent);
/* Set a field of device dev, or of the filesystem when dev < 0. */
void record_stack_set(struct record_stack *s, int dev, const char *key,
		      const char *value, int numeric);
/* A field's value (dev < 0: the filesystem's), or NULL. */
const char *record_stack_get(const struct record_stack *s, int dev,
			     const char *key);
/* Depth of device dev (0: top). */
int record_stack_depth(const struct record_stack *s, int dev);

void record_stack_free(struct record_stack *s);
void record_virt_free(struct record_virt *v);

/*
 * One flat JSON object on one line, for `clyde info --probe --json`:
 * {"path": path, then each field (numeric ones as JSON integers)}, newline
 * terminated.  0, or -1 with errno set when the stream fails.  (bench/
 * writes JSON only through report/.)
 */
int record_write_fields_json(FILE *out, const char *path,
			     const struct record_kv *kv, size_t n);

/*
 * Text for people: the host with its virtualization, the mount, the
 * filesystem geometry and the device stack as an indented tree.  Lines
 * longer than width are broken at spaces (width 0: one line per item, for
 * grep).
 */
int record_write_target_text(const struct record *rec, FILE *out, int width);

#endif
