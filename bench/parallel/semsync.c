// SPDX-License-Identifier: GPL-2.0-only
/* bonnie++'s -p / -y semaphores (see semsync.h). */
#include "bench/parallel/semsync.h"
#include "lib/diag.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/sem.h>
#include <time.h>

/* the caller defines it (glibc does not) */
union semun {
	int val;
	struct semid_ds *buf;
	unsigned short *array;
};

int semsync_create(long nprocs, char *err, size_t errlen)
{
	union semun arg;
	int id, i;

	id = semget(SEMSYNC_KEY, SEMSYNC_NSEMS, IPC_CREAT | IPC_EXCL | 0666);
	if (id < 0) {
		int e = errno;

		if (e == EEXIST)
			snprintf(err, errlen, "-p: the semaphores with key %d "
				 "exist already (remove them with -p -1)",
				 SEMSYNC_KEY);
		else
			snprintf(err, errlen, "-p: cannot create the "
				 "semaphores with key %d: %s", SEMSYNC_KEY,
				 strerror(e));
		return -e;
	}
	arg.val = (int)nprocs;
	for (i = 0; i < SEMSYNC_NSEMS; i++) {
		if (semctl(id, i, SETVAL, arg) < 0) {
			int e = errno;

			snprintf(err, errlen, "-p: cannot set semaphore %d: %s",
				 i, strerror(e));
			semctl(id, 0, IPC_RMID);
			return -e;
		}
	}
	return 0;
}

int semsync_remove(char *err, size_t errlen)
{
	int id = semget(SEMSYNC_KEY, 0, 0);

	if (id < 0 || semctl(id, 0, IPC_RMID) < 0) {
		int e = errno;

		snprintf(err, errlen, "-p -1: cannot remove the semaphores "
			 "with key %d: %s", SEMSYNC_KEY,
			 e == ENOENT ? "there are none" : strerror(e));
		return -e;
	}
	return 0;
}

int semsync_wait(unsigned test, const char *title, double timeout, char *err,
		 size_t errlen)
{
	struct sembuf op;
	struct timespec ts;
	int id = semget(SEMSYNC_KEY, 0, 0);

	if (id < 0) {
		snprintf(err, errlen, "-y s: no semaphores with key %d to wait "
			 "on before '%s' (create them with -p N): %s",
			 SEMSYNC_KEY, title, strerror(errno));
		return -1;
	}
	op.sem_num = (unsigned short)test;
	op.sem_op = -1;
	op.sem_flg = IPC_NOWAIT;
	if (semop(id, &op, 1) < 0) {
		if (errno == EAGAIN)
			snprintf(err, errlen, "-y s: the semaphore of '%s' is "
				 "spent: more copies than -p said, or a "
				 "second pass (create the set again)", title);
		else
			snprintf(err, errlen, "-y s: cannot decrement the "
				 "semaphore of '%s': %s", title,
				 strerror(errno));
		return -1;
	}
	op.sem_op = 0;
	op.sem_flg = 0;
	ts.tv_sec = (time_t)timeout;
	ts.tv_nsec = (long)((timeout - floor(timeout)) * 1e9);
	while (semtimedop(id, &op, 1, &ts) < 0) {
		if (errno == EAGAIN) {
			snprintf(err, errlen, "-y s: the other copies did not "
				 "reach '%s' within %g s (--sync-timeout)",
				 title, timeout);
			return -1;
		}
		if (errno == EINTR) {
			snprintf(err, errlen, "interrupted");
			return -1;
		}
		snprintf(err, errlen, "-y s: waiting on the semaphore of '%s' "
			 "failed: %s", title, strerror(errno));
		return -1;
	}
	return 0;
}

int semsync_prompt(const char *title, char *err, size_t errlen)
{
	int c;

	diag_note("press Enter to start '%s'", title);
	while ((c = getchar()) != EOF && c != '\n')
		;
	if (c == EOF) {
		snprintf(err, errlen, "-y p: end of input before '%s'", title);
		return -1;
	}
	return 0;
}
