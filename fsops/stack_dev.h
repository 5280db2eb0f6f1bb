/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_STACK_DEV_H
#define CLYDE_STACK_DEV_H

/*
 * A device stack as data (fsops/stack.h walks one from sysfs and says
 * what its kinds and fields are): a tree kept as a flat list in
 * depth-first order, each device naming the index of its holder (-1: the
 * top), each with the fields sysfs gave, and the warnings of the walk.
 */

#include <stddef.h>

struct stack_field {
	char *key;
	char *value;
	int numeric;		/* value is a decimal number */
};

struct stack_dev {
	char *kind;
	char *name;		/* "sda", "md0", "vg0-data", backing file path */
	int parent;		/* index of the holder, -1 for the top */
	struct stack_field *fields;
	size_t nfields;
};

struct dev_stack {
	struct stack_dev *devs;
	size_t ndevs, alloc;
	char **warnings;	/* what could not be read, for the record */
	size_t nwarnings;
};

void stack_init(struct dev_stack *s);
void stack_release(struct dev_stack *s);

/* Index of the first device of kind, or -1. */
int stack_find(const struct dev_stack *s, const char *kind, int from);
/* A field's value, or NULL. */
const char *stack_field(const struct stack_dev *d, const char *key);

/* Append a device / a field (value NULL: nothing added). */
int stack_add(struct dev_stack *s, const char *kind, const char *name,
	      int parent);
void stack_set(struct dev_stack *s, int dev, const char *key,
	       const char *value, int numeric);

/* The same on a bare field list (filesystem geometry). */
void stack_fields_set(struct stack_field **fields, size_t *n,
		      const char *key, const char *value, int numeric);
void stack_fields_free(struct stack_field *fields, size_t n);

__attribute__((format(printf, 2, 3)))
void stack_warn(struct dev_stack *s, const char *fmt, ...);

#endif
