// SPDX-License-Identifier: GPL-2.0-only
/* `clyde clean`: clyde's own leftovers removed (clean.h). */
#include "bench/clean.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/cmdutil.h"
#include "bench/rundir.h"
#include "fsops/atdir.h"
#include "lib/diag.h"
#include "lib/optable.h"
#include "lib/textesc.h"
#include "report/model/record_util.h"

struct clean_config {
	int dry_run;	/* -n: say, remove nothing */
};

static const struct opt_def clean_rows[] = {
	{ .name = "dry-run", .key = 'n', .type = OPT_FLAG,
	  OPT_FIELD(struct clean_config, dry_run),
	  .help = "say what would be removed, remove nothing" },
	OPTABLE_HELP,
	OPTABLE_VERSION,
};

static const struct optable clean_options = {
	.rows = clean_rows,
	.nrows = OPTABLE_SIZE(clean_rows),
	.head = "usage: clyde clean [--dry-run] DIR...\n"
		"\n"
		"Remove what a killed clyde left in each DIR (a -d it ran "
		"in): its own\ndirectories (clyde.*, clyde-matrix.*, "
		"clyde-zones.*) whose marker names a\nprocess of this host "
		"that no longer runs.  A directory without clyde's\nmarker, "
		"one of a clyde still running and one made on another host "
		"are\nleft alone.\n\n",
	.tail = "\nExit status: 0 success (also when nothing was left), 1 "
		"a leftover could not\nbe removed, 2 bad usage or a DIR that "
		"is not a directory.\n",
	.operands = 1,
};

/* One line of clyde clean's own on stdout, escaped as every message
 * (the names in it came from a directory). */
__attribute__((format(printf, 1, 2)))
static void clean_say(const char *fmt, ...)
{
	va_list ap;
	char *line;

	va_start(ap, fmt);
	line = record_vasprintf(fmt, ap);
	va_end(ap);
	text_put(stdout, line);
	putchar('\n');
	free(line);
}

struct clean_walk {
	const char *dir;
	int dry_run;
	int status;
	unsigned removed;
};

static int clean_one(int dirfd, const char *name,
		     const struct rundir_owner *o, void *arg)
{
	struct clean_walk *w = arg;
	struct atdir_left left;

	if (!o->dead && o->here) {
		clean_say("kept '%s/%s': clyde %s, pid %d, still runs", w->dir,
			  name, o->kind, (int)o->pid);
		return 0;
	}
	if (!o->dead) {
		clean_say("kept '%s/%s': made on host %s, whose processes "
			  "cannot be seen from here", w->dir, name, o->host);
		return 0;
	}
	if (!w->dry_run && atdir_remove_tree(dirfd, name, &left)) {
		diag_error("clean: cannot remove '%s' in '%s/%s': %s; %lu %s "
			   "left", left.first, w->dir, name, strerror(left.err),
			   left.n, left.n == 1 ? "entry" : "entries");
		w->status = EXIT_FAILED;
		return 0;
	}
	clean_say("%s '%s/%s' (clyde %s, pid %d, started %s)",
		  w->dry_run ? "would remove" : "removed", w->dir, name,
		  o->kind, (int)o->pid, o->start);
	w->removed++;
	return 0;
}

/* A DIR operand: an existing directory.  0 or EXIT_USAGE. */
static int check_dir(const char *dir)
{
	struct stat st;

	if (!*dir)
		return cmd_usage_error("clean: empty directory name");
	if (stat(dir, &st))
		return cmd_usage_error("clean: '%s': %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return cmd_usage_error("clean: '%s' is not a directory", dir);
	return 0;
}

int cmd_clean(int argc, char **argv)
{
	struct clean_config cfg = { 0 };
	struct clean_walk w = { 0 };
	char err[512];
	int i, rc;

	rc = optable_parse(&clean_options, &cfg, argc, argv, err, sizeof(err));
	if (rc)
		return rc > 0 ? 0 : cmd_usage_error("clean: %s (see clyde clean "
						    "--help)", err);
	if (optind >= argc)
		return cmd_usage_error("clean: no directory given (see clyde "
				       "clean --help)");
	/* every operand checked before anything is removed */
	for (i = optind; i < argc; i++)
		if (check_dir(argv[i]))
			return EXIT_USAGE;
	w.dry_run = cfg.dry_run;
	for (i = optind; i < argc; i++) {
		w.dir = argv[i];
		w.removed = 0;
		rc = rundir_scan(argv[i], clean_one, &w);
		if (rc)
			return cmd_usage_error("clean: cannot read '%s': %s",
					       argv[i], strerror(-rc));
		if (!w.removed)
			clean_say("nothing of clyde's to remove in '%s'",
				  argv[i]);
	}
	return w.status;
}
