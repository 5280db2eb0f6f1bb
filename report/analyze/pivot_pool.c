// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which runs a pivot cell may pool: the comparable classes of a figure's
 * runs (tool family, file size, -n shape, per-char mode); see pivot.h.
 */
#include "report/analyze/pivot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/model/bonnie.h"
#include "report/model/record_util.h"
#include "lib/xalloc.h"

enum { PART_TOOL, PART_FILE, PART_N, PART_CHAR, NPARTS };

/* What of run r decides whether figure f may be pooled with another's. */
static void parts_of(const struct compare *c, size_t r,
		     const struct fig_id *f, char *parts[NPARTS])
{
	const struct record *rec = c->recs[r];
	const char *name = f->kind == FIG_TEST ? c->tests[f->test].name : "";
	int io = f->kind != FIG_TEST ||
		 bonnie_test_io(name);
	int files = f->kind == FIG_TEST &&
		    bonnie_test_files(name);
	struct bonnie_shape sh;
	char a[32], b[32];

	bonnie_shape(rec, &sh);
	parts[PART_TOOL] = xstrdup(rec->tool ? rec->tool : "?");
	parts[PART_FILE] = NULL;
	parts[PART_N] = NULL;
	parts[PART_CHAR] = NULL;
	if (io && f->kind == FIG_TEST && sh.file_size > 0) {
		bonnie_file_size(a, sizeof(a), sh.file_size);
		parts[PART_FILE] = xasprintf("file %s", a);
	} else if (io && record_param(rec, PARAM_FILE_SIZE)) {
		int64_t v;

		if (!record_param_int(rec, PARAM_FILE_SIZE, &v)) {
			bonnie_file_size(a, sizeof(a), v);
			parts[PART_FILE] = xasprintf("file %s", a);
		}
	}
	if (files && sh.num_files > 0) {
		bonnie_num_files(a, sizeof(a), sh.num_files);
		snprintf(b, sizeof(b), ":%lld:%lld:%lld",
			 (long long)sh.max_size, (long long)sh.min_size,
			 (long long)sh.num_dirs);
		parts[PART_N] = xasprintf("-n %s%s", a, b);
	}
	if (f->kind == FIG_TEST && c->tests[f->test].per_char) {
		const char *m = record_param(rec, "char_io");

		parts[PART_CHAR] = xasprintf("per-char %s", m ? m : "syscall");
	}
}

static int streq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static void parts_free(char *parts[NPARTS])
{
	int i;

	for (i = 0; i < NPARTS; i++)
		free(parts[i]);
}

/* The name of class k: the parts that differ between classes. */
static char *class_name(char *(*parts)[NPARTS], size_t n, size_t k)
{
	char *s = xstrdup(""), *t;
	size_t j;
	int i;

	for (i = 0; i < NPARTS; i++) {
		for (j = 0; j < n && streq(parts[j][i], parts[k][i]); j++)
			;
		if (j == n)
			continue;	/* all alike */
		t = xasprintf("%s%s%s", s, *s ? ", " : "",
			      parts[k][i] ? parts[k][i] : (i == PART_FILE ?
			      "no file size" : "none"));
		free(s);
		s = t;
	}
	return s;
}

void pivot_classes(const struct compare *c, const struct fig_id *f,
		   struct pivot_classes *cls)
{
	char *(*parts)[NPARTS] = NULL;	/* [class] */
	char *mine[NPARTS];
	size_t r, k, n = 0;
	int i;

	memset(cls, 0, sizeof(*cls));
	cls->of_run = xcalloc(c->nrecs + 1, sizeof(*cls->of_run));
	for (r = 0; r < c->nrecs; r++) {
		int too_fast;

		cls->of_run[r] = PIVOT_ALL;
		if (isnan(fig_run_value(c, r, f, &too_fast)) && !too_fast)
			continue;	/* no figure: in no class */
		parts_of(c, r, f, mine);
		for (k = 0; k < n; k++) {
			for (i = 0; i < NPARTS && streq(parts[k][i], mine[i]);
			     i++)
				;
			if (i == NPARTS)
				break;
		}
		if (k == n) {
			parts = xrealloc(parts, (n + 1) * sizeof(*parts));
			memcpy(parts[n++], mine, sizeof(mine));
		} else {
			parts_free(mine);
		}
		cls->of_run[r] = k;
	}
	cls->n = n ? n : 1;
	cls->name = xcalloc(cls->n, sizeof(*cls->name));
	for (k = 0; k < cls->n; k++)
		cls->name[k] = n > 1 ? class_name(parts, n, k) : xstrdup("");
	for (k = 0; k < n; k++)
		parts_free(parts[k]);
	free(parts);
}

void pivot_classes_release(struct pivot_classes *cls)
{
	size_t k;

	for (k = 0; k < cls->n; k++)
		free(cls->name[k]);
	free(cls->name);
	free(cls->of_run);
	memset(cls, 0, sizeof(*cls));
}
