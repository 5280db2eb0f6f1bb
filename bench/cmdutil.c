// SPDX-License-Identifier: GPL-2.0-only
/* Command plumbing shared by `clyde run` and `clyde matrix` (cmdutil.h). */
#include "bench/cmdutil.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsops/clock.h"
#include "lib/diag.h"

volatile sig_atomic_t cmd_stop_signal;
volatile sig_atomic_t cmd_hurry;
static void (*second_signal)(void);

/*
 * The first signal asks the command to stop after the current operation;
 * a later one hurries it (second() removes the big files at once, workers
 * are killed) but never skips the cleanup or the record: exiting here
 * would leave the work directory and lose what finished.
 */
static void on_signal(int sig)
{
	if (cmd_stop_signal) {
		cmd_hurry = sig;
		if (second_signal)
			second_signal();
		return;
	}
	cmd_stop_signal = sig;
}

void cmd_install_signals(void (*second)(void))
{
	struct sigaction sa;

	second_signal = second;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	/* before any worker or thread: a stop inside a test is seen */
	clock_stops_watch();
}

int cmd_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_verror(fmt, ap);
	va_end(ap);
	return EXIT_USAGE;
}

int cmd_parsed(enum options_result r, const char *err, int *status)
{
	switch (r) {
	case OPTIONS_EXIT:
		*status = 0;
		return 1;
	case OPTIONS_ERROR:
		*status = cmd_usage_error("%s", err);
		return 1;
	case OPTIONS_OK:
		break;
	}
	return 0;
}

uint32_t cmd_random_seed(void)
{
	uint32_t seed;

	if (getrandom(&seed, sizeof(seed), 0) != sizeof(seed))
		seed = (uint32_t)getpid() ^ (uint32_t)time(NULL);
	return seed;
}
