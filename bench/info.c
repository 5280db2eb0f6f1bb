// SPDX-License-Identifier: GPL-2.0-only
/* `clyde info`: the detected target and host, and libblkid probing. */
#include "info.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "../fsops/probe.h"
#include "../fsops/target.h"
#include "../lib/xalloc.h"
#include "../report/record.h"
#include "../report/target_rec.h"
#include "run.h"

void info_fill_record(struct record *rec, const struct host_info *host,
		      const struct fs_target *target)
{
	struct record_virt *v = xcalloc(1, sizeof(*v));
	struct record_stack *s = record_stack_new();
	char buf[32];
	size_t i, j;

	v->vm = host->vm;
	v->hypervisor = xstrdup_or_null(host->hypervisor);
	v->emulation = xstrdup_or_null(host->emulation);
	v->dmi_vendor = xstrdup_or_null(host->dmi_vendor);
	v->dmi_product = xstrdup_or_null(host->dmi_product);
	v->evidence = xstrdup_or_null(host->virt_evidence);
	record_virt_free(rec->host.virt);
	rec->host.virt = v;

	if (target->inodes) {
		snprintf(buf, sizeof(buf), "%" PRIu64, target->inodes);
		record_stack_set(s, -1, "inodes", buf, 1);
		snprintf(buf, sizeof(buf), "%" PRIu64, target->inodes_free);
		record_stack_set(s, -1, "inodes_free", buf, 1);
	}
	for (i = 0; i < target->ngeometry; i++)
		record_stack_set(s, -1, target->geometry[i].key,
				 target->geometry[i].value,
				 target->geometry[i].numeric);
	for (i = 0; i < target->stack.ndevs; i++) {
		const struct stack_dev *d = &target->stack.devs[i];
		int dev = record_stack_add(s, d->kind, d->name, d->parent);

		for (j = 0; j < d->nfields; j++)
			record_stack_set(s, dev, d->fields[j].key,
					 d->fields[j].value,
					 d->fields[j].numeric);
	}
	record_stack_free(rec->target.stack);
	rec->target.stack = s;
	for (i = 0; i < target->stack.nwarnings; i++)
		record_warn(rec, "target detection: %s",
			    target->stack.warnings[i]);
}

static const struct option longopts[] = {
	{ "json", no_argument, NULL, 'j' },
	{ "probe", no_argument, NULL, 'p' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *out)
{
	fputs("usage: clyde info [--json] PATH...\n"
	      "       clyde info --probe [--json] IMAGE|DEVICE...\n"
	      "\n"
	      "What clyde detects about the filesystem holding each PATH: "
	      "mount, options,\nsize, the filesystem's geometry, the device "
	      "stack down to the disks, and\nthe host.  --probe names the "
	      "filesystem on an image or device (libblkid)\nwithout mounting "
	      "it.\n"
	      "\n"
	      "  -j, --json    one JSON object per line (for PATH: a run "
	      "record without\n"
	      "                results, the same structure as `clyde run "
	      "--json`)\n"
	      "  -p, --probe   probe images or devices instead of paths\n"
	      "  -h, --help    this help\n", out);
}

static int probe_one(const char *path, int json)
{
	struct stack_field *f = NULL;
	size_t n = 0, i;
	char err[512];
	int ret = probe_path(path, &f, &n, err, sizeof(err));

	if (ret) {
		fprintf(stderr, "clyde: info: %s\n", err);
		stack_fields_free(f, n);
		return 1;
	}
	if (json) {
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "path",
				       json_object_new_string(path));
		for (i = 0; i < n; i++)
			json_object_object_add(o, f[i].key, f[i].numeric ?
				json_object_new_int64(strtoll(f[i].value,
							      NULL, 10)) :
				json_object_new_string(f[i].value));
		puts(json_object_to_json_string_ext(o,
						    JSON_C_TO_STRING_PLAIN));
		json_object_put(o);
	} else {
		printf("%s:", path);
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
		fprintf(stderr, "clyde: info: %s\n", err);
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
		for (i = 0; i < rec->nwarnings; i++)
			printf("warning:   %s\n", rec->warnings[i]);
	}
	record_free(rec);
	fs_target_release(&target);
	if (ret || fflush(stdout)) {
		fprintf(stderr, "clyde: info: cannot write: %s\n",
			strerror(errno));
		return 1;
	}
	return 0;
}

int cmd_info(int argc, char **argv)
{
	struct host_info host;
	int json = 0, probe = 0, c, i, status = 0;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+jph", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = 1;
			break;
		case 'p':
			probe = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			fprintf(stderr, "clyde: info: unknown option '%s' "
				"(see clyde info --help)\n", argv[optind - 1]);
			return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "clyde: info: no %s given (see clyde info "
			"--help)\n", probe ? "image" : "path");
		return 2;
	}
	if (probe) {
		for (i = optind; i < argc; i++)
			status |= probe_one(argv[i], json);
		return status;
	}
	host_detect(&host);
	for (i = optind; i < argc; i++)
		status |= info_one(argv[i], &host, json, i == optind);
	host_release(&host);
	return status;
}
