// SPDX-License-Identifier: GPL-2.0-only
#include "fsops/clock.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>

static uint64_t timeval_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000u + (uint64_t)tv->tv_usec * 1000u;
}

void cpu_usage_now(struct cpu_usage *u)
{
	struct rusage ru;

	/* RUSAGE_SELF cannot fail with a valid pointer; be safe anyway. */
	if (getrusage(RUSAGE_SELF, &ru)) {
		memset(u, 0, sizeof(*u));
		return;
	}
	u->user_ns = timeval_ns(&ru.ru_utime);
	u->sys_ns = timeval_ns(&ru.ru_stime);
}

double cpu_percent(const struct cpu_usage *a, const struct cpu_usage *b,
		   double elapsed_s)
{
	uint64_t ta = a->user_ns + a->sys_ns;
	uint64_t tb = b->user_ns + b->sys_ns;

	if (elapsed_s <= 0 || tb < ta)
		return 0;
	return (double)(tb - ta) / 1e9 / elapsed_s * 100.0;
}

static void sigcont_set(sigset_t *s)
{
	sigemptyset(s);
	sigaddset(s, SIGCONT);
}

void clock_stops_watch(void)
{
	sigset_t s;

	sigcont_set(&s);
	pthread_sigmask(SIG_BLOCK, &s, NULL);
}

int clock_stopped(void)
{
	static const struct timespec now = { 0, 0 };
	sigset_t s, pending;

	if (sigpending(&pending) || !sigismember(&pending, SIGCONT))
		return 0;
	sigcont_set(&s);
	while (sigtimedwait(&s, NULL, &now) < 0 && errno == EINTR)
		;
	return 1;
}
