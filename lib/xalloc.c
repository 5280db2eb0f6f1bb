// SPDX-License-Identifier: GPL-2.0-only
#include "lib/xalloc.h"
#include "lib/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void __attribute__((noreturn)) oom(void)
{
	diag_die(1, "out of memory");
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		oom();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		oom();
	return p;
}

void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p)
		oom();
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		oom();
	return p;
}

char *xstrdup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&p, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom();
	return p;
}

void *xmalloc_aligned(size_t size, size_t align)
{
	void *p;

	if (align < sizeof(void *))
		align = sizeof(void *);
	if (posix_memalign(&p, align, size ? size : 1))
		oom();
	return p;
}

void xgrow(void **array, size_t *alloc, size_t n, size_t elem)
{
	size_t want;

	if (n <= *alloc)
		return;
	want = *alloc ? *alloc * 2 : 8;
	if (want < n)
		want = n;
	*array = xrealloc(*array, want * elem);
	*alloc = want;
}
