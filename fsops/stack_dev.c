// SPDX-License-Identifier: GPL-2.0-only
/* A device stack as data (stack_dev.h): devices, their fields, warnings. */
#include "fsops/stack_dev.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"

void stack_init(struct dev_stack *s)
{
	memset(s, 0, sizeof(*s));
}

void stack_release(struct dev_stack *s)
{
	size_t i;

	for (i = 0; i < s->ndevs; i++) {
		struct stack_dev *d = &s->devs[i];

		stack_fields_free(d->fields, d->nfields);
		free(d->kind);
		free(d->name);
	}
	free(s->devs);
	for (i = 0; i < s->nwarnings; i++)
		free(s->warnings[i]);
	free(s->warnings);
	memset(s, 0, sizeof(*s));
}

void stack_warn(struct dev_stack *s, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	if (!msg)
		return;
	s->warnings = xrealloc(s->warnings,
			       (s->nwarnings + 1) * sizeof(*s->warnings));
	s->warnings[s->nwarnings++] = msg;
}

int stack_add(struct dev_stack *s, const char *kind, const char *name,
	      int parent)
{
	struct stack_dev *d;

	xgrow((void **)&s->devs, &s->alloc, s->ndevs + 1, sizeof(*s->devs));
	d = &s->devs[s->ndevs];
	memset(d, 0, sizeof(*d));
	d->kind = xstrdup(kind);
	d->name = xstrdup_or_null(name);
	d->parent = parent;
	return (int)s->ndevs++;
}

void stack_fields_set(struct stack_field **fields, size_t *n,
		      const char *key, const char *value, int numeric)
{
	struct stack_field *f = *fields;
	size_t i;

	if (!value)
		return;
	for (i = 0; i < *n; i++)
		if (!strcmp(f[i].key, key))
			break;
	if (i == *n) {
		f = xrealloc(f, (*n + 1) * sizeof(*f));
		f[i].key = xstrdup(key);
		(*n)++;
		*fields = f;
	} else {
		free(f[i].value);
	}
	f[i].value = xstrdup(value);
	f[i].numeric = numeric;
}

void stack_fields_free(struct stack_field *fields, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(fields[i].key);
		free(fields[i].value);
	}
	free(fields);
}

void stack_set(struct dev_stack *s, int dev, const char *key,
	       const char *value, int numeric)
{
	stack_fields_set(&s->devs[dev].fields, &s->devs[dev].nfields, key,
			 value, numeric);
}

int stack_find(const struct dev_stack *s, const char *kind, int from)
{
	size_t i;

	for (i = from < 0 ? 0 : (size_t)from; i < s->ndevs; i++)
		if (!strcmp(s->devs[i].kind, kind))
			return (int)i;
	return -1;
}

const char *stack_field(const struct stack_dev *d, const char *key)
{
	size_t i;

	for (i = 0; i < d->nfields; i++)
		if (!strcmp(d->fields[i].key, key))
			return d->fields[i].value;
	return NULL;
}
