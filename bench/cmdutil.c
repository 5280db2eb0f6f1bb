// SPDX-License-Identifier: GPL-2.0-only
/* Command plumbing shared by `clyde run` and `clyde matrix` (cmdutil.h). */
#include "cmdutil.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
}

int cmd_usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("clyde: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_USAGE;
}

/* The start of a file of each format, and its name for the message. */
static const struct {
	const char *start, *alt, *name;
} out_formats[] = {
	[CMD_OUT_JSON] = { "{", NULL, "clyde JSON records" },
	[CMD_OUT_BONNIE_CSV] = { "1.98,", "format_version,",
				 "bonnie++ 1.98 CSV lines" },
	[CMD_OUT_MATRIX_CSV] = { "label,start,engine,", NULL,
				 "a clyde matrix CSV" },
	[CMD_OUT_ZONES_CSV] = { "# clyde zones ", NULL, "a clyde zones CSV" },
};

/*
 * 1 when the first line of the non-empty file path starts as fmt's files
 * do (appending another format makes the file unreadable), 0 when not,
 * -1 when it cannot be read (fopen "a" reports that).
 */
static int same_format(const char *path, enum cmd_out_format fmt)
{
	char line[64];
	const char *alt = out_formats[fmt].alt;
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -1;
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	ok = !strncmp(line, out_formats[fmt].start,
		      strlen(out_formats[fmt].start)) ||
	     (alt && !strncmp(line, alt, strlen(alt)));
	return ok;
}

FILE *cmd_open_output(const char *opt, const char *path,
		      enum cmd_out_format fmt, int *fresh, int *created)
{
	struct stat st;
	int isnew = stat(path, &st) != 0;
	FILE *f;

	if (created)
		*created = isnew;
	if (fresh)
		*fresh = isnew || st.st_size == 0;
	if (!isnew && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    same_format(path, fmt) == 0) {
		cmd_usage_error("%s: '%s' is not empty and does not hold %s: "
				"refusing to append to it", opt, path,
				out_formats[fmt].name);
		return NULL;
	}
	f = fopen(path, "a");
	if (!f)
		cmd_usage_error("%s: cannot open '%s': %s", opt, path,
				strerror(errno));
	return f;
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

/* What cmd_remove_tree could not remove (nftw passes no pointer). */
static struct {
	unsigned long left;
	char first[PATH_MAX];
	int err;
} rm_left;

static void rm_failed(const char *path, int err)
{
	if (err == ENOENT)
		return;
	if (!rm_left.left++) {
		snprintf(rm_left.first, sizeof(rm_left.first), "%s", path);
		rm_left.err = err;
	}
}

static int remove_entry(const char *path, const struct stat *st, int type,
			struct FTW *ftw)
{
	(void)st, (void)ftw;
	/* FTW_DNR: a directory that could not be read, most likely left */
	if (type == FTW_DP || type == FTW_DNR ? rmdir(path) : unlink(path))
		rm_failed(path, errno);
	return 0;
}

void cmd_remove_tree(const char *dir)
{
	memset(&rm_left, 0, sizeof(rm_left));
	if (nftw(dir, remove_entry, 32, FTW_DEPTH | FTW_PHYS) && errno)
		rm_failed(dir, errno);
	if (!rm_left.left)
		return;
	/* after EIO, say what is left where: the user removes it */
	fprintf(stderr, "clyde: cannot remove '%s': %s; %lu %s of clyde's "
		"left in '%s'\n", rm_left.first, strerror(rm_left.err),
		rm_left.left, rm_left.left == 1 ? "entry" : "entries", dir);
}
