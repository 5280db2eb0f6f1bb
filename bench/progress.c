// SPDX-License-Identifier: GPL-2.0-only
/*
 * Progress on a terminal (progress.h): a ticker thread redraws one status
 * line on stderr from a phase description and a counter the measured
 * loops update anyway.
 */
#include "bench/progress.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define TICK_NS		250000000ull	/* redraw period */

static struct {
	int on;				/* the ticker runs */
	int paused;			/* progress_pause() ended it */
	int stopping;
	pthread_t thread;
	pthread_mutex_t lock;		/* everything below */
	pthread_cond_t wake;
	int active;			/* a phase is shown */
	int drawn;			/* the line holds something */
	char label[96];
	unsigned step, nsteps;
	const uint64_t *counter;
	uint64_t total;
	double seconds;
	struct timespec start;
} pg = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.wake = PTHREAD_COND_INITIALIZER,
};

static double since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t->tv_sec) +
	       (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

/* "1:05", "12 s", "1:02:03" */
static void fmt_time(char *buf, size_t len, double s)
{
	unsigned long t = s < 0 ? 0 : (unsigned long)(s + 0.5);

	if (t < 60)
		snprintf(buf, len, "%lu s", t);
	else if (t < 3600)
		snprintf(buf, len, "%lu:%02lu", t / 60, t % 60);
	else
		snprintf(buf, len, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60,
			 t % 60);
}

static void put(const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(STDERR_FILENO, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

static void clear_line(void)
{
	if (pg.drawn)
		put("\r\033[K", 4);
	pg.drawn = 0;
}

/* Draw the current phase; pg.lock held. */
static void draw(void)
{
	char line[256], el[32], left[32], steps[32] = "";
	double elapsed = since(&pg.start), frac = -1, rest = -1;
	struct winsize ws;
	size_t n, cols = 80;
	uint64_t done = 0;

	if (pg.counter)
		done = __atomic_load_n(pg.counter, __ATOMIC_RELAXED);
	if (pg.total)
		frac = (double)done / (double)pg.total;
	else if (pg.seconds > 0)
		frac = elapsed / pg.seconds;
	if (frac > 1)
		frac = 1;
	if (frac > 0.01 && pg.total)
		rest = elapsed * (1 - frac) / frac;
	else if (pg.seconds > 0)
		rest = pg.seconds - elapsed;
	if (rest >= 0 && pg.seconds > 0 && pg.nsteps > pg.step)
		rest += pg.seconds * (pg.nsteps - pg.step);
	if (pg.nsteps)
		snprintf(steps, sizeof(steps), " (%u/%u)", pg.step, pg.nsteps);
	fmt_time(el, sizeof(el), elapsed);
	if (frac >= 0 && rest >= 0) {
		fmt_time(left, sizeof(left), rest);
		snprintf(line, sizeof(line), "\r\033[Kclyde: %s%s: %3.0f%%, "
			 "%s, %s left", pg.label, steps, frac * 100, el, left);
	} else if (frac >= 0) {
		snprintf(line, sizeof(line), "\r\033[Kclyde: %s%s: %3.0f%%, %s",
			 pg.label, steps, frac * 100, el);
	} else {
		snprintf(line, sizeof(line), "\r\033[Kclyde: %s%s: %s",
			 pg.label, steps, el);
	}
	/* never wrap: a wrapped line cannot be redrawn in place */
	if (!ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) && ws.ws_col > 8)
		cols = ws.ws_col;
	n = strlen(line);
	if (n - 4 > cols - 1)
		n = cols - 1 + 4;
	put(line, n);
	pg.drawn = 1;
}

static void *ticker(void *arg)
{
	struct timespec until;

	(void)arg;
	pthread_mutex_lock(&pg.lock);
	while (!pg.stopping) {
		if (pg.active)
			draw();
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += (long)TICK_NS;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&pg.wake, &pg.lock, &until);
	}
	pthread_mutex_unlock(&pg.lock);
	return NULL;
}

/* The ticker thread, every signal blocked in it. */
static void start_ticker(void)
{
	sigset_t all, old;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pg.stopping = 0;
	pg.on = !pthread_create(&pg.thread, NULL, ticker, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

void progress_start(int quiet)
{
	if (pg.on || pg.paused || quiet || !isatty(STDERR_FILENO))
		return;
	start_ticker();
}

void progress_pause(void)
{
	if (!pg.on)
		return;
	pthread_mutex_lock(&pg.lock);
	pg.stopping = 1;
	pthread_cond_signal(&pg.wake);
	pthread_mutex_unlock(&pg.lock);
	pthread_join(pg.thread, NULL);
	pg.on = 0;
	pg.paused = 1;
}

void progress_resume(void)
{
	if (!pg.paused)
		return;
	pg.paused = 0;
	start_ticker();
}

void progress_phase(const char *label, unsigned step, unsigned nsteps,
		    const uint64_t *counter, uint64_t total, double seconds)
{
	if (!pg.on)
		return;
	pthread_mutex_lock(&pg.lock);
	snprintf(pg.label, sizeof(pg.label), "%s", label);
	pg.step = step;
	pg.nsteps = nsteps;
	pg.counter = counter;
	pg.total = total;
	pg.seconds = seconds;
	clock_gettime(CLOCK_MONOTONIC, &pg.start);
	pg.active = 1;
	draw();
	pthread_mutex_unlock(&pg.lock);
}

void progress_idle(void)
{
	if (!pg.on)
		return;
	pthread_mutex_lock(&pg.lock);
	pg.active = 0;
	pg.counter = NULL;
	clear_line();
	pthread_mutex_unlock(&pg.lock);
}

void progress_stop(void)
{
	if (!pg.on)
		return;
	pthread_mutex_lock(&pg.lock);
	pg.stopping = 1;
	pg.active = 0;
	pg.counter = NULL;
	clear_line();
	pthread_cond_signal(&pg.wake);
	pthread_mutex_unlock(&pg.lock);
	pthread_join(pg.thread, NULL);
	pg.on = 0;
}
