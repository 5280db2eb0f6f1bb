// SPDX-License-Identifier: GPL-2.0-only
/*
 * The record's host and target, filled from what fsops detected: the one
 * place that copies struct host_info and struct fs_target into a record.
 */
#include "bench/env.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "fsops/target.h"
#include "lib/xalloc.h"
#include "report/model/record.h"
#include "report/model/target_rec.h"

#ifndef CLYDE_VERSION
#define CLYDE_VERSION "unknown"
#endif

/*
 * Copy the detected structure (host virtualization, filesystem geometry,
 * inode counts, device stack, and detection warnings) from host and target
 * into rec.
 */
static void info_fill_record(struct record *rec, const struct host_info *host,
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

void record_fill_env(struct record *rec, const struct host_info *host,
		     const struct fs_target *target, const char *dir,
		     const char *label, unsigned repetition)
{
	record_set_str(&rec->tool, "clyde");
	record_set_str(&rec->version, CLYDE_VERSION);
	free(rec->start);
	rec->start = record_now_iso8601();
	record_set_str(&rec->label, label ? label : host->hostname);
	rec->repetition = (int)repetition;

	record_set_str(&rec->host.hostname, host->hostname);
	record_set_str(&rec->host.kernel, host->kernel);
	record_set_str(&rec->host.cpu_model, host->cpu_model);
	rec->host.cores = host->cores;
	rec->host.ram = host->ram;

	record_set_str(&rec->target.path, dir);
	record_set_str(&rec->target.mountpoint, target->mountpoint);
	record_set_str(&rec->target.fstype, target->fstype);
	record_set_str(&rec->target.source, target->source);
	record_set_str(&rec->target.vfs_options, target->vfs_options);
	record_set_str(&rec->target.fs_options, target->fs_options);
	rec->target.block_size = target->block_size;
	rec->target.total_bytes = target->total_bytes;
	rec->target.free_bytes = target->avail_bytes;
	info_fill_record(rec, host, target);
}

