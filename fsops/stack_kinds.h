/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_STACK_KINDS_H
#define CLYDE_STACK_KINDS_H

/*
 * What each kind of device says in sysfs, read into one device of a stack
 * (fsops/stack.c walks the stack and calls these; they walk nothing).
 * Only the walk includes this; the public API is stack.h.
 */

#include <sys/types.h>

#include "fsops/stack_dev.h"

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
/*
 * A loop device's fields, its backing file as a "file" device under dev
 * and the mount that file lives on.  The file's index with *fs_dev the
 * device of the filesystem holding it (the walk goes on there), or -1
 * when there is none to walk (no backing file, or one that cannot be
 * stat'ed: a fake tree's need not exist).
 */
int stack_loop_fields(struct dev_stack *s, const char *real, int dev,
		      dev_t *fs_dev);
/* md: level, chunk size, disks, layout, stripe cache, state. */
void stack_walk_md(struct dev_stack *s, const char *real, int dev);
/* dm: name, uuid and the kind the uuid says (lvm, crypt, multipath). */
void stack_walk_dm(struct dev_stack *s, const char *real, int dev);

#endif
