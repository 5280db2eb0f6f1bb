// SPDX-License-Identifier: GPL-2.0-only
/*
 * Forked workers in step: a barrier in shared memory that the parent
 * releases with a futex and a parent that watches its children through
 * pidfds, so a worker that dies cannot hang the others (see workers.h).
 */
#include "bench/parallel/workers.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench/progress.h"
#include "fsops/clock.h"
#include "lib/xalloc.h"

struct workers_shm {
	uint32_t gen;		/* futex word: step + 1 released */
	uint32_t start_gen;	/* futex word: step + 1 may start timing */
	uint32_t abort;		/* nonzero: leave at the next barrier */
	volatile sig_atomic_t stop;	/* stop after the current op */
	volatile sig_atomic_t wall;	/* --stonewall: end the phase */
	uint64_t release_ns;
	struct worker_slot slot[];
};

struct workers {
	unsigned n;
	struct workers_shm *shm;
	size_t shm_len;
	pid_t parent;
	int done_rd, done_wr;	/* workers write their index byte */
	int *pidfd;		/* -1: none (exited, or no pidfd support) */
	int *dirfd;		/* the caller's, for workers_emergency(); -1 */
	int *reaped;
	int *status;		/* wait status once reaped */
};

static long futex(uint32_t *addr, int op, uint32_t val,
		  const struct timespec *ts)
{
	return syscall(SYS_futex, addr, op, val, ts, NULL, 0);
}

static int pidfd_open(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	errno = ENOSYS;
	return -1;
#endif
}

volatile sig_atomic_t *workers_stop_flag(struct workers *w)
{
	return &w->shm->stop;
}

volatile sig_atomic_t *workers_wall_flag(struct workers *w)
{
	return &w->shm->wall;
}

const struct worker_slot *workers_slot(const struct workers *w, unsigned idx)
{
	return &w->shm->slot[idx];
}

static void wake_all(struct workers *w)
{
	futex(&w->shm->gen, FUTEX_WAKE, INT_MAX, NULL);
}

/* Parent: the workers leave at their next barrier. */
static void workers_abort(struct workers *w)
{
	__atomic_store_n(&w->shm->abort, 1, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&w->shm->gen, 1u << 30, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&w->shm->start_gen, 1u << 30, __ATOMIC_SEQ_CST);
	wake_all(w);
	futex(&w->shm->start_gen, FUTEX_WAKE, INT_MAX, NULL);
}

/* Parent: the workers stop after their current operation. */
static void workers_stop(struct workers *w)
{
	w->shm->stop = 1;
}

/* Wait until *word is step + 1 (0) or the run is aborted (-1). */
static int wait_word(struct workers *w, uint32_t *word, unsigned step)
{
	struct timespec ts = { .tv_sec = 1, .tv_nsec = 0 };

	for (;;) {
		uint32_t g = __atomic_load_n(word, __ATOMIC_SEQ_CST);

		if (__atomic_load_n(&w->shm->abort, __ATOMIC_SEQ_CST))
			return -1;
		if (g == step + 1)
			return 0;
		if (getppid() != w->parent) {	/* orphaned */
			w->shm->stop = 1;
			return -1;
		}
		futex(word, FUTEX_WAIT, g, &ts);
	}
}

int workers_wait(struct workers *w, unsigned step)
{
	return wait_word(w, &w->shm->gen, step);
}

static void notify(struct workers *w, unsigned idx)
{
	unsigned char byte = (unsigned char)idx;

	/* the parent drains the pipe whenever it wakes: it cannot fill */
	while (write(w->done_wr, &byte, 1) < 0 && errno == EINTR)
		;
}

int workers_gate(struct workers *w, unsigned idx, unsigned step)
{
	struct worker_slot *s = &w->shm->slot[idx];
	int rc;

	__atomic_store_n(&s->arrived_step, step + 1, __ATOMIC_SEQ_CST);
	notify(w, idx);
	rc = wait_word(w, &w->shm->start_gen, step);
	s->gate_ns = clock_ns();
	return rc;
}

void workers_set_file(struct workers *w, unsigned idx, const char *name)
{
	struct worker_slot *s = &w->shm->slot[idx];

	if (strlen(name) < sizeof(s->file) && !strchr(name, '/'))
		memcpy(s->file, name, strlen(name) + 1);
}

void workers_set_dir(struct workers *w, unsigned idx, int dirfd)
{
	w->dirfd[idx] = dirfd;
}

void worker_slot_fill(struct worker_slot *s, const struct result *res,
		      uint64_t first_ns, uint64_t last_ns,
		      const struct record *wrec, size_t nwarn_from)
{
	size_t i, len = 0;

	s->res = *res;
	hist_to_dense(&s->lat, &res->lat);
	hist_init(&s->res.lat);	/* the worker's own memory */
	s->res.name = NULL;	/* the worker's own memory, as below */
	s->res.title = NULL;
	s->res.unit = NULL;
	s->res.reason = NULL;
	s->res.workers = NULL;
	s->res.nworkers = 0;
	s->res.layers = NULL;	/* the worker's own memory */
	s->res.nlayers = 0;
	snprintf(s->reason, sizeof(s->reason), "%s",
		 res->reason ? res->reason : "");
	s->warnings[0] = '\0';
	for (i = nwarn_from; wrec && i < wrec->nwarnings; i++) {
		int n = snprintf(s->warnings + len, sizeof(s->warnings) - len,
				 "%s%s", len ? "\n" : "", wrec->warnings[i]);

		if (n < 0 || (size_t)n >= sizeof(s->warnings) - len) {
			s->warnings[len] = '\0';
			break;
		}
		len += (size_t)n;
	}
	s->first_ns = first_ns;
	s->last_ns = last_ns;
}

void workers_done(struct workers *w, unsigned idx, unsigned step,
		  const struct result *res, uint64_t first_ns, uint64_t last_ns,
		  const struct record *wrec, size_t nwarn_from)
{
	struct worker_slot *s = &w->shm->slot[idx];

	worker_slot_fill(s, res, first_ns, last_ns, wrec, nwarn_from);
	__atomic_store_n(&s->done_step, step + 1, __ATOMIC_SEQ_CST);
	notify(w, idx);
}

void workers_release(struct workers *w, unsigned step)
{
	unsigned i;

	for (i = 0; i < w->n; i++)
		if (w->shm->slot[i].state == WORKER_DONE)
			w->shm->slot[i].state = WORKER_RUNNING;
	w->shm->wall = 0;
	__atomic_store_n(&w->shm->gen, step + 1, __ATOMIC_SEQ_CST);
	wake_all(w);
}

static void describe_death(int status, char *buf, size_t len)
{
	if (WIFSIGNALED(status))
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else if (WIFEXITED(status))
		snprintf(buf, len, "exited with status %d before finishing "
			 "the test", WEXITSTATUS(status));
	else
		snprintf(buf, len, "ended");
}

/* Reap worker i when it has ended; 1 if it has. */
static int try_reap(struct workers *w, unsigned i)
{
	int st;
	pid_t r;

	if (w->reaped[i])
		return 1;
	r = waitpid(w->shm->slot[i].pid, &st, WNOHANG);
	if (r <= 0)
		return 0;
	w->reaped[i] = 1;
	w->status[i] = st;
	if (w->pidfd[i] >= 0) {
		close(w->pidfd[i]);
		w->pidfd[i] = -1;
	}
	return 1;
}

/*
 * Wait until every worker has finished step, died, or (arrival) reached
 * the gate of step.  Returns how many died meanwhile.
 */
static unsigned wait_all(struct workers *w, unsigned step, int arrival,
			 volatile sig_atomic_t *sig)
{
	struct pollfd *pfd = xcalloc(w->n + 1, sizeof(*pfd));
	unsigned i, died = 0;

	for (;;) {
		unsigned pending = 0, nfd = 1, fallback = 0;
		unsigned char buf[256];

		if (sig && *sig && !w->shm->stop)
			workers_stop(w);
		for (i = 0; i < w->n; i++) {
			struct worker_slot *s = &w->shm->slot[i];

			if (s->state == WORKER_DEAD)
				continue;
			if (__atomic_load_n(&s->done_step, __ATOMIC_SEQ_CST) ==
			    step + 1) {
				s->state = WORKER_DONE;
				continue;
			}
			if (arrival && __atomic_load_n(&s->arrived_step,
						       __ATOMIC_SEQ_CST) ==
				       step + 1)
				continue;
			if (try_reap(w, i)) {
				/* the result may have landed just before */
				if (__atomic_load_n(&s->done_step,
						    __ATOMIC_SEQ_CST) ==
				    step + 1) {
					s->state = WORKER_DONE;
					continue;
				}
				s->state = WORKER_DEAD;
				describe_death(w->status[i], s->reason,
					       sizeof(s->reason));
				died++;
				continue;
			}
			pending++;
			if (w->pidfd[i] >= 0) {
				pfd[nfd].fd = w->pidfd[i];
				pfd[nfd].events = POLLIN;
				nfd++;
			} else {
				fallback = 1;
			}
		}
		if (!pending)
			break;
		pfd[0].fd = w->done_rd;
		pfd[0].events = POLLIN;
		/*
		 * A stop's signal handled in another thread, or between the
		 * check of *sig above and poll(), interrupts no poll: wake
		 * every 100 ms to look again (seen under ASan: a -c 2 cell
		 * ran its full 60 s after a SIGINT it had taken).
		 */
		if (poll(pfd, nfd, fallback || sig ? 100 : -1) > 0 &&
		    (pfd[0].revents & POLLIN))
			while (read(w->done_rd, buf, sizeof(buf)) > 0)
				;
	}
	free(pfd);
	return died;
}

uint64_t workers_start_timing(struct workers *w, unsigned step,
			      volatile sig_atomic_t *sig)
{
	wait_all(w, step, 1, sig);
	w->shm->release_ns = clock_ns();
	__atomic_store_n(&w->shm->start_gen, step + 1, __ATOMIC_SEQ_CST);
	futex(&w->shm->start_gen, FUTEX_WAKE, INT_MAX, NULL);
	return w->shm->release_ns;
}

unsigned workers_collect(struct workers *w, unsigned step,
			 volatile sig_atomic_t *sig)
{
	return wait_all(w, step, 0, sig);
}

struct workers *workers_start(unsigned n, worker_fn fn, void *arg, char *err,
			      size_t errlen)
{
	struct workers *w = xcalloc(1, sizeof(*w));
	int fds[2];
	unsigned i;

	w->n = n;
	w->parent = getpid();
	w->shm_len = sizeof(struct workers_shm) +
		     n * sizeof(struct worker_slot);
	w->shm = mmap(NULL, w->shm_len, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	w->pidfd = xmalloc(n * sizeof(*w->pidfd));
	w->dirfd = xmalloc(n * sizeof(*w->dirfd));
	w->reaped = xcalloc(n, sizeof(*w->reaped));
	w->status = xcalloc(n, sizeof(*w->status));
	for (i = 0; i < n; i++)
		w->pidfd[i] = w->dirfd[i] = -1;
	w->done_rd = w->done_wr = -1;
	if (w->shm == MAP_FAILED) {
		snprintf(err, errlen, "cannot map %zu bytes of shared memory "
			 "for %u workers: %s", w->shm_len, n, strerror(errno));
		w->shm = NULL;
		goto fail;
	}
	if (pipe2(fds, O_CLOEXEC)) {
		snprintf(err, errlen, "cannot make a pipe for the workers: %s",
			 strerror(errno));
		goto fail;
	}
	w->done_rd = fds[0];
	w->done_wr = fds[1];
	fcntl(w->done_rd, F_SETFL, O_NONBLOCK);
	fflush(NULL);	/* no buffered output copied into the children */
	progress_pause();	/* no thread but this one across fork() */
	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			snprintf(err, errlen, "cannot start worker %u: %s", i,
				 strerror(errno));
			w->n = i;
			progress_resume();
			goto fail;
		}
		if (!pid) {
			signal(SIGINT, SIG_IGN);
			signal(SIGTERM, SIG_IGN);
			signal(SIGHUP, SIG_IGN);
			close(w->done_rd);
			w->shm->slot[i].pid = getpid();
			_exit(fn(w, i, arg));
		}
		w->shm->slot[i].pid = pid;
		w->pidfd[i] = pidfd_open(pid);
	}
	progress_resume();
	close(w->done_wr);
	w->done_wr = -1;
	return w;
fail:
	if (w->shm)
		workers_finish(w);
	else
		free(w);
	return NULL;
}

int workers_reap(struct workers *w)
{
	int rc = 0;
	unsigned i;

	if (!w->shm)
		return 0;
	workers_abort(w);
	workers_stop(w);
	for (i = 0; i < w->n; i++) {
		int st;

		if (!w->reaped[i]) {
			pid_t pid = w->shm->slot[i].pid;

			while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
				;
			w->status[i] = st;
			w->reaped[i] = 1;
		}
		if (!WIFEXITED(w->status[i]) || WEXITSTATUS(w->status[i]))
			rc = 1;
	}
	return rc;
}

int workers_finish(struct workers *w)
{
	int rc = workers_reap(w);
	unsigned i;

	if (w->shm) {
		for (i = 0; i < w->n; i++)
			if (w->pidfd[i] >= 0)
				close(w->pidfd[i]);
		munmap(w->shm, w->shm_len);
	}
	if (w->done_rd >= 0)
		close(w->done_rd);
	if (w->done_wr >= 0)
		close(w->done_wr);
	free(w->pidfd);
	free(w->dirfd);
	free(w->reaped);
	free(w->status);
	free(w);
	return rc;
}

void workers_emergency(struct workers *w)
{
	unsigned i;

	for (i = 0; i < w->n; i++) {
		struct worker_slot *s = &w->shm->slot[i];

		/* a reaped worker's pid may be another process's now */
		if (s->pid > 0 && !w->reaped[i])
			kill(s->pid, SIGKILL);
		/* by name in the held directory: a symlink swapped in for
		 * the directory cannot redirect it */
		if (s->file[0] && w->dirfd[i] >= 0)
			unlinkat(w->dirfd[i], s->file, 0);
	}
}
