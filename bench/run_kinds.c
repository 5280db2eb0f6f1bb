// SPDX-License-Identifier: GPL-2.0-only
/*
 * Several -d: whether the directories are on storage of different kinds
 * (run_kinds.h), so that the combined figures, which sum and span them
 * all, can say they mix unlike targets.
 */
#include "bench/run_kinds.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsops/stack.h"
#include "lib/xalloc.h"

/*
 * What a target's storage is, at three depths, each compared on its own:
 * the filesystem and the device it lies on ("xfs loop", "ext4 disk",
 * "tmpfs"), what a loop's backing file lies on, and the disks at the
 * bottom (transport and rotational).  Device names are left out: two
 * disks of one kind are the same kind of storage.
 */
struct kind {
	char *top;
	char *below;		/* "" when no loop */
	char *disks;		/* "" when no disk is known */
	const char *name;	/* the top device, for the message; NULL */
	const char *level;	/* md: its level; NULL */
};

/* s (allocated) with fmt... appended */
__attribute__((format(printf, 2, 3)))
static char *append(char *s, const char *fmt, ...)
{
	size_t len = strlen(s);
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return s;
	s = xrealloc(s, len + (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s + len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

/* Append word to the ", "-separated *list unless it is in it already. */
static void add_word(char **list, const char *word)
{
	size_t n = strlen(word);
	const char *p = *list;
	char *old = *list;

	while ((p = strstr(p, word))) {
		if ((p == *list || (p - *list >= 2 && p[-2] == ',')) &&
		    (!p[n] || p[n] == ','))
			return;
		p += n;
	}
	*list = append(old, "%s%s", *old ? ", " : "", word);
}

static void kind_of(const struct fs_target *t, struct kind *k)
{
	const struct dev_stack *s = &t->stack;
	const char *top = NULL, *sub = NULL;
	size_t i;

	memset(k, 0, sizeof(*k));
	k->below = xstrdup("");
	k->disks = xstrdup("");
	for (i = 0; i < s->ndevs; i++) {
		const struct stack_dev *d = &s->devs[i];

		if (d->parent < 0 && !top) {
			/* a partition is its disk's kind of storage */
			top = strcmp(d->kind, "partition") ? d->kind : "disk";
			k->name = d->name;
			if (!strcmp(d->kind, "md"))
				sub = k->level = stack_field(d, "level");
			else if (!strcmp(d->kind, "dm"))
				sub = stack_field(d, "dm_kind");
		}
		if (!strcmp(d->kind, "file")) {
			const char *fs = stack_field(d, "fstype");

			add_word(&k->below, fs ? fs : "unknown");
		} else if (!strcmp(d->kind, "disk")) {
			const char *tr = stack_field(d, "transport");
			const char *rot = stack_field(d, "rotational");
			char *w = xasprintf("%s %s", tr ? tr : "unknown",
					    !rot ? "(rotational unknown)" :
					    strcmp(rot, "0") ? "rotational" :
					    "non-rotational");

			add_word(&k->disks, w);
			free(w);
		}
	}
	k->top = xasprintf("%s%s%s%s%s", t->fstype ? t->fstype : "unknown",
			   top ? " " : "", top ? top : "", sub ? " " : "",
			   sub ? sub : "");
}

static void kind_release(struct kind *k)
{
	free(k->top);
	free(k->below);
	free(k->disks);
}

/*
 * "/b xfs on loop0 (a file on ext4)", "/a tmpfs", "/c ext4 on md0 (raid5;
 * disks: sata rotational)": the disks only when they tell targets apart.
 */
static char *describe(const char *path, const struct fs_target *t,
		      const struct kind *k, int disks)
{
	char *d = xasprintf("%s %s", path, t->fstype ? t->fstype :
			    "an unknown filesystem");
	char *more = xstrdup("");

	if (k->name)
		d = append(d, " on %s", k->name);
	if (k->level)
		more = append(more, "%s", k->level);
	if (*k->below)
		more = append(more, "%sa file on %s", *more ? "; " : "",
			      k->below);
	if (disks && *k->disks)
		more = append(more, "%sdisks: %s", *more ? "; " : "",
			      k->disks);
	if (*more)
		d = append(d, " (%s)", more);
	free(more);
	return d;
}

char *run_mixed_kinds(const char *const *dirs,
		      const struct fs_target *const *targets, size_t n)
{
	struct kind *k;
	const char *disk0 = NULL;
	int differ = 0, disks = 0;
	char *msg = NULL;
	size_t i;

	if (n < 2)
		return NULL;
	k = xcalloc(n, sizeof(*k));
	for (i = 0; i < n; i++) {
		kind_of(targets[i], &k[i]);
		differ |= strcmp(k[i].top, k[0].top) ||
			  strcmp(k[i].below, k[0].below) ||
			  strcmp(k[i].disks, k[0].disks);
		/* the disks are named when those of two targets differ */
		if (*k[i].disks && !disk0)
			disk0 = k[i].disks;
		else if (*k[i].disks && strcmp(k[i].disks, disk0))
			disks = 1;
	}
	if (differ) {
		msg = xstrdup("-d: the directories are on different kinds of "
			      "storage:");
		for (i = 0; i < n; i++) {
			char *d = describe(dirs[i], targets[i], &k[i], disks);

			msg = append(msg, "%s%s", i ? ", " : " ", d);
			free(d);
		}
		msg = append(msg, ": the combined figures mix them");
	}
	for (i = 0; i < n; i++)
		kind_release(&k[i]);
	free(k);
	return msg;
}
