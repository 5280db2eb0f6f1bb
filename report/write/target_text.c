// SPDX-License-Identifier: GPL-2.0-only
/* The host and target of a record as text for people (`clyde info`). */
#include "report/model/target_rec.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/textcols.h"
#include "lib/textesc.h"
#include "lib/xalloc.h"

static void human(char *buf, size_t len, uint64_t v)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB",
					     "PiB" };
	double d = (double)v;
	size_t u = 0;

	while (d >= 1024 && u + 1 < sizeof(units) / sizeof(units[0])) {
		d /= 1024;
		u++;
	}
	if (u)
		snprintf(buf, len, "%.1f %s", d, units[u]);
	else
		snprintf(buf, len, "%" PRIu64 " B", v);
}

static void kvs(FILE *out, const struct record_kv *kv, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		fprintf(out, strpbrk(kv[i].value, " \t") ? " %s='%s'" :
			" %s=%s", kv[i].key, kv[i].value);
}

static const char *or_unknown(const char *s)
{
	return s ? s : "unknown";
}

/*
 * Copy text to out with every line longer than width broken at spaces
 * (text_wrap: a word longer than a line, a long path, broken where the
 * line ends); continuation lines are indented to the value column (11)
 * or, in the stack tree, four past the line's own indent.
 */
static void wrap_lines(const char *text, FILE *out, int width)
{
	const char *line = text;

	while (*line) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		size_t lead = strspn(line, " ");
		char *one = xasprintf("%.*s", (int)len, line);

		text_wrap(out, one, (size_t)width, lead ? lead + 4 : 11);
		free(one);
		line += len + (end ? 1 : 0);
	}
}

static void write_target(const struct record *rec, FILE *out);

int record_write_target_text(const struct record *rec, FILE *out, int width)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;

	if (width <= 0) {
		write_target(rec, out);
		return ferror(out) ? -1 : 0;
	}
	mem = open_memstream(&buf, &len);
	if (!mem)
		return -1;
	write_target(rec, mem);
	if (fclose(mem) == EOF) {
		free(buf);
		return -1;
	}
	wrap_lines(buf, out, width);
	free(buf);
	return ferror(out) ? -1 : 0;
}

static void write_target(const struct record *rec, FILE *out)
{
	const struct record_host *h = &rec->host;
	const struct record_target *t = &rec->target;
	const struct record_stack *s = t->stack;
	char a[32], b[32];
	size_t i;

	human(a, sizeof(a), h->ram);
	fprintf(out, "host:      %s, kernel %s, %s, %ld cores, %s RAM\n",
		or_unknown(h->hostname), or_unknown(h->kernel),
		or_unknown(h->cpu_model), h->cores, a);
	if (h->virt) {
		const struct record_virt *v = h->virt;

		fprintf(out, "virtual:   %s", v->vm > 0 ? "yes" :
			v->vm == 0 ? "no" : "unknown");
		if (v->hypervisor)
			fprintf(out, ", hypervisor %s", v->hypervisor);
		if (v->emulation)
			fprintf(out, ", emulated CPU (%s)", v->emulation);
		if (v->dmi_vendor || v->dmi_product)
			fprintf(out, ", dmi '%s' '%s'",
				or_unknown(v->dmi_vendor),
				or_unknown(v->dmi_product));
		if (v->evidence)
			fprintf(out, " [%s]", v->evidence);
		fputc('\n', out);
	}
	/* paths escaped: a newline in one must not start a line */
	fputs("path:      ", out);
	text_put(out, or_unknown(t->path));
	fputs("\nmount:     ", out);
	text_put(out, or_unknown(t->mountpoint));
	fprintf(out, " type %s from ", or_unknown(t->fstype));
	text_put(out, or_unknown(t->source));
	fputc('\n', out);
	fprintf(out, "options:   %s (superblock: %s)\n",
		or_unknown(t->vfs_options), or_unknown(t->fs_options));
	human(a, sizeof(a), t->total_bytes);
	human(b, sizeof(b), t->free_bytes);
	fprintf(out, "size:      %s, %s free, block size %" PRIu64 "\n", a, b,
		t->block_size);
	if (s && s->nfs) {
		fputs("fs:       ", out);
		kvs(out, s->fs, s->nfs);
		fputc('\n', out);
	}
	if (s) {
		fprintf(out, "stack:%s\n", s->ndevs ? "" :
			"     no block device (a virtual filesystem)");
		for (i = 0; i < s->ndevs; i++) {
			const struct record_device *d = &s->devs[i];

			fprintf(out, "  %*s%s %s", 2 * record_stack_depth(s,
				(int)i), "", d->kind, or_unknown(d->name));
			kvs(out, d->fields, d->nfields);
			fputc('\n', out);
		}
	}
}
