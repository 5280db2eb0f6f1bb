/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_INTERN_H
#define CLYDE_INTERN_H

/*
 * Strings kept once.  A fleet's records repeat the same strings thousands
 * of times (parameter names, device kinds and names, file systems, host
 * names); `clyde report` keeps each once, packed in large blocks without
 * malloc's header and rounding per string (about 7 KB a record of the
 * suite).  Strings of the pool are never changed or freed one by one: they
 * live until intern_clear().
 *
 * The record model decides whether its strings come from here
 * (record_strings_interned, report/model/record.h); nothing else needs
 * this header.
 */

#include <stddef.h>

/* The pool's copy of s (NUL-terminated), the same pointer for equal s. */
const char *intern(const char *s);

/* Whether p points into the pool (a string it gave). */
int intern_holds(const void *p);

/* Forget every string: all the pool gave is invalid after this. */
void intern_clear(void);

#endif
