/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_SEMSYNC_H
#define CLYDE_SEMSYNC_H

/*
 * bonnie++'s protocol for separately started copies: a SysV semaphore set
 * with key 4711 and one semaphore per test of the classic suite, in
 * bonnie++'s order (the order of bench_tests[]).  `-p N` sets every
 * semaphore to N; before each test a copy started with `-y s` decrements
 * the test's semaphore and waits for it to reach zero, so N copies, clyde
 * or bonnie++, start each test together.  The set is spent after one pass.
 * Unlike bonnie++, a copy waits at most a timeout.
 */

#include <stddef.h>

#define SEMSYNC_KEY 4711
#define SEMSYNC_NSEMS 12

/*
 * -p N: create the set with every semaphore at nprocs.  0, or a negative
 * errno and err: -EEXIST when the set exists already.
 */
int semsync_create(long nprocs, char *err, size_t errlen);

/* -p -1: remove the set.  0, or a negative errno and err: -ENOENT when
 * there is none. */
int semsync_remove(char *err, size_t errlen);

/*
 * -y s: decrement semaphore test and wait until it is zero, at most
 * timeout seconds.  title names the test in err.  0, or -1 and err (no
 * set, set spent, timeout, EINTR: "interrupted").
 */
int semsync_wait(unsigned test, const char *title, double timeout, char *err,
		 size_t errlen);

/* -y p: ask on stderr, wait for a line on stdin.  0, or -1 at end of input. */
int semsync_prompt(const char *title, char *err, size_t errlen);

#endif
