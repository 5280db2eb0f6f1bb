/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_XALLOC_H
#define CLYDE_XALLOC_H

/*
 * Allocation wrappers that never return NULL: on failure they print
 * "clyde: out of memory" and exit(1).  lib/ is the leaf every layer
 * (bench, fsops, report) may include.
 */

#include <stddef.h>

void *xmalloc(size_t size) __attribute__((malloc, returns_nonnull));
void *xcalloc(size_t n, size_t size) __attribute__((malloc, returns_nonnull));
void *xrealloc(void *p, size_t size) __attribute__((returns_nonnull));
char *xstrdup(const char *s) __attribute__((malloc, returns_nonnull));
/* NULL stays NULL */
char *xstrdup_or_null(const char *s) __attribute__((malloc));
__attribute__((format(printf, 1, 2), malloc, returns_nonnull))
char *xasprintf(const char *fmt, ...);
/* posix_memalign; align must be a power of two multiple of sizeof(void *) */
void *xmalloc_aligned(size_t size, size_t align)
	__attribute__((malloc, returns_nonnull));

/* Grow *array (of *alloc elements of size elem) to hold at least n. */
void xgrow(void **array, size_t *alloc, size_t n, size_t elem);

#endif
