/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_RECORD_UTIL_H
#define CLYDE_RECORD_UTIL_H

/*
 * Small pieces the record's files (record.c, target_json.c, compare.c,
 * worker_rows.c, html.c, import.c) share.  Not a public API.
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/model/record.h"

/* Free n key/value pairs and the array. */
void record_kv_free(struct record_kv *kv, size_t n);
/* The pair named key, or NULL. */
struct record_kv *record_kv_find(const struct record_kv *kv, size_t n,
				 const char *key);

/*
 * Grow the array *arrayp of *n elements of size elem by one zeroed
 * element, count it in *n and return it (never NULL: xalloc).
 */
void *record_append(void *arrayp, size_t *n, size_t elem);

/*
 * s as one CSV field (RFC 4180): escaped by the one rule of every text
 * output (textesc.h: a line break is \n, ESC \x1b, U+202E \u202E, so
 * that nothing from an input reaches a terminal or spreadsheet raw),
 * then quoted when it holds a comma or a quote, quotes doubled; nothing
 * for NULL.  Every CSV writer's strings go through it.
 */
void record_csv_field(FILE *f, const char *s);

/*
 * A double as an integer the way a cast would give it, but defined for
 * every input (a cast out of range is undefined behaviour): NaN gives 0,
 * values past either end the nearest end.  For figures from input files,
 * which may hold anything.
 */
uint64_t record_u64(double v);
int64_t record_i64(double v);
int record_int(double v);

/* vasprintf that never fails (xalloc); an encoding error gives the format
 * itself. */
char *record_vasprintf(const char *fmt, va_list ap)
	__attribute__((format(printf, 1, 0)));

/*
 * The devices of a stack (each one's kind, name, holder and fields) as
 * one string, equal when and only when the stacks are: every string by
 * its length and bytes, so that fields joined alike ('x=1' = '2' and
 * 'x' = '1=2') never read as one.  Free it.
 */
char *record_stack_devices_key(const struct record_stack *st);

#endif
