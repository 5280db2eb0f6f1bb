// SPDX-License-Identifier: GPL-2.0-only
/* `clyde info`: the detected target and host, and libblkid probing. */
#include "bench/info.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fsops/probe.h"
#include "fsops/target.h"
#include "lib/diag.h"
#include "lib/optable.h"
#include "bench/common_options.h"
#include "lib/xalloc.h"
#include "report/model/record.h"
#include "report/model/target_rec.h"
#include "lib/textesc.h"
#include "bench/cmdutil.h"
#include "bench/env.h"

struct info_config {
	int json;	/* --json */
	int probe;	/* --probe */
	char **dirs;	/* -d PATH, as every other command takes it */
	size_t ndirs;
};

static const struct opt_def info_rows[] = {
	{ .name = "json", .key = 'j', .type = OPT_FLAG,
	  OPT_FIELD(struct info_config, json),
	  .help = "one JSON object per line (for PATH: a run record without "
		  "results, the same structure as `clyde run --json`)" },
	{ .name = "probe", .key = 'p', .type = OPT_FLAG,
	  OPT_FIELD(struct info_config, probe),
	  .help = "probe images or devices instead of paths" },
	{ COMMON_DIRS(struct info_config, dirs, ndirs), .metavar = "PATH",
	  .help = "a PATH to examine, like the operands (as -d of the "
		  "other commands)" },
	OPTABLE_HELP,
	OPTABLE_VERSION,
};

static const struct optable info_options = {
	.rows = info_rows,
	.nrows = OPTABLE_SIZE(info_rows),
	.head = "usage: clyde info [--json] [-d PATH] PATH...\n"
		"       clyde info --probe [--json] IMAGE|DEVICE...\n"
		"\n"
		"What clyde detects about the filesystem holding each PATH: "
		"mount, options,\nsize, the filesystem's geometry, the device "
		"stack down to the disks, and\nthe host.  --probe names the "
		"filesystem on an image or device (libblkid)\nwithout "
		"mounting it.\n\n",
	.tail = "\nExit status: 0 success, 1 a target could not be examined, "
		"2 bad usage or a\npath that does not exist or cannot be "
		"probed.\n",
	.operands = 1,
};

/* The exit status of several targets: the highest. */
static int worse(int a, int b)
{
	return a > b ? a : b;
}

/*
 * Bad input is exit status 2 with one line: an empty or missing path, and
 * for --probe anything but a regular file (an image) or a block device.
 */
static int check_operand(const char *path, int probe)
{
	struct stat st;

	if (!*path)
		return cmd_usage_error("info: empty %s", probe ? "image name" :
				       "path");
	if (stat(path, &st))
		return cmd_usage_error("info: '%s': %s", path,
				       strerror(errno));
	if (probe && S_ISDIR(st.st_mode))
		return cmd_usage_error("info: --probe: '%s' is a directory, "
				       "not an image or a block device "
				       "(without --probe: its filesystem)",
				       path);
	if (probe && !S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode))
		return cmd_usage_error("info: --probe: '%s' is neither an image "
				       "file nor a block device", path);
	return 0;
}

static int probe_one(const char *path, int json)
{
	struct stack_field *f = NULL;
	size_t n = 0, i;
	char err[512];
	int ret = probe_path(path, &f, &n, err, sizeof(err));

	if (ret) {
		diag_error("info: %s", err);
		stack_fields_free(f, n);
		return 1;
	}
	if (json) {
		struct record_kv *kv = xcalloc(n ? n : 1, sizeof(*kv));

		for (i = 0; i < n; i++) {
			kv[i].key = f[i].key;
			kv[i].value = f[i].value;
			kv[i].numeric = f[i].numeric;
		}
		record_write_fields_json(stdout, path, kv, n);
		free(kv);
	} else {
		text_put(stdout, path);
		putchar(':');
		for (i = 0; i < n; i++)
			printf(strchr(f[i].value, ' ') ? " %s='%s'" :
			       " %s=%s", f[i].key, f[i].value);
		putchar('\n');
	}
	stack_fields_free(f, n);
	return 0;
}

static int info_one(const char *path, const struct host_info *host,
		    int json, int first)
{
	struct fs_target target;
	struct record *rec;
	char err[512];
	size_t i;
	int ret;

	if (fs_target_detect(path, &target, err, sizeof(err))) {
		diag_error("info: %s", err);
		return 1;
	}
	rec = record_new();
	record_fill_env(rec, host, &target, path, NULL, 1);
	rec->end = xstrdup(rec->start);
	if (json) {
		ret = record_write_json(rec, stdout);
	} else {
		if (!first)
			putchar('\n');
		ret = record_write_target_text(rec, stdout, 0);
		for (i = 0; i < rec->nwarnings; i++) {
			fputs("warning:   ", stdout);
			text_put(stdout, rec->warnings[i]);
			putchar('\n');
		}
	}
	record_free(rec);
	fs_target_release(&target);
	if (ret || fflush(stdout)) {
		diag_error("info: cannot write: %s", strerror(errno));
		return 1;
	}
	return 0;
}

int cmd_info(int argc, char **argv)
{
	struct info_config cfg = { 0 };
	struct host_info host;
	char err[512];
	int i, status = 0, rc;

	rc = optable_parse(&info_options, &cfg, argc, argv, err, sizeof(err));
	if (rc) {
		optable_release(&info_options, &cfg);
		return rc > 0 ? 0 : cmd_usage_error("info: %s (see clyde info "
						    "--help)", err);
	}
	if (optind >= argc && !cfg.ndirs) {
		diag_error("info: no %s given (see clyde info --help)",
			   cfg.probe ? "image" : "path");
		optable_release(&info_options, &cfg);
		return 2;
	}
	if (cfg.probe) {
		for (i = 0; i < (int)cfg.ndirs; i++)
			status = worse(status, check_operand(cfg.dirs[i], 1) ?:
				       probe_one(cfg.dirs[i], cfg.json));
		for (i = optind; i < argc; i++)
			status = worse(status, check_operand(argv[i], 1) ?:
				       probe_one(argv[i], cfg.json));
		optable_release(&info_options, &cfg);
		return status;
	}
	host_detect(&host);
	for (i = 0; i < (int)cfg.ndirs; i++)
		status = worse(status, check_operand(cfg.dirs[i], 0) ?:
			       info_one(cfg.dirs[i], &host, cfg.json, !i));
	for (i = optind; i < argc; i++)
		status = worse(status, check_operand(argv[i], 0) ?:
			       info_one(argv[i], &host, cfg.json,
					i == optind && !cfg.ndirs));
	optable_release(&info_options, &cfg);
	host_release(&host);
	return status;
}
