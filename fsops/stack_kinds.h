/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_STACK_KINDS_H
#define CLYDE_STACK_KINDS_H

/*
 * Internal to the device-stack walk (fsops/stack.c walks, stack_kinds.c
 * reads what each kind of device says): nothing outside those two
 * includes it.  The public API is stack.h.
 */

#include "stack.h"

#define STACK_MAX_DEPTH 16

/* The first line of dir/name without trailing blanks; NULL if unreadable
 * or empty.  The caller frees it. */
char *stack_attr(const char *dir, const char *name);
/* 1 when dir/name exists. */
int stack_exists(const char *dir, const char *name);
/* Copy attribute name of dir into field key (NULL: name) of dev. */
void stack_copy(struct dev_stack *s, int dev, const char *dir,
		const char *name, const char *key, int numeric);
/* dir/size (512-byte sectors) as field "size" in bytes. */
void stack_set_size(struct dev_stack *s, int dev, const char *dir);

/* What every whole disk reports: identity, queue, transport. */
void stack_disk_fields(struct dev_stack *s, int dev, const char *real);
/* A loop device's backing file and what that file lives on. */
void stack_walk_loop(struct dev_stack *s, const char *real, int dev,
		     int depth);
/* md: level, chunk size, disks, layout, stripe cache, state. */
void stack_walk_md(struct dev_stack *s, const char *real, int dev);
/* dm: name, uuid and the kind the uuid says (lvm, crypt, multipath). */
void stack_walk_dm(struct dev_stack *s, const char *real, int dev);

#endif
