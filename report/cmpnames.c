// SPDX-License-Identifier: GPL-2.0-only
/*
 * How a comparison names its configurations (compare.h): label and what
 * tells it apart, the VM mark, numbers for twins, clipping that keeps the
 * differing end, worker and copy counts.
 */
#include "compare.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/xalloc.h"

static int streq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

char *compare_virt_mark(const struct record *rec)
{
	const struct record_virt *v = rec->host.virt;
	char emu[32];
	size_t i;

	if (!v || (v->vm <= 0 && !(v->emulation && *v->emulation)))
		return NULL;
	if (!v->emulation || !*v->emulation)
		return xasprintf("VM: %s", v->hypervisor && *v->hypervisor ?
				 v->hypervisor : "guest");
	for (i = 0; v->emulation[i] && i + 1 < sizeof(emu); i++)
		emu[i] = (char)toupper((unsigned char)v->emulation[i]);
	emu[i] = '\0';
	/* "QEMU TCG" already names the emulation: not "QEMU TCG TCG" */
	if (v->hypervisor && strcasestr(v->hypervisor, emu))
		return xasprintf("%s%s, emulated", v->vm > 0 ? "VM: " : "",
				 v->hypervisor);
	return xasprintf("%s%s %s, emulated", v->vm > 0 ? "VM: " : "",
			 v->hypervisor && *v->hypervisor ? v->hypervisor :
			 v->vm > 0 ? "guest" : "CPU", emu);
}

const char *compare_group_virt(const struct compare *c, size_t g)
{
	const char *v = compare_attr(&c->groups[g], "virt");

	return v && strcmp(v, "none") ? v : NULL;
}

/* The label and the name-worthy attributes that tell it apart. */
static char *basic_label(const struct compare *c, size_t g)
{
	const struct cmp_group *grp = &c->groups[g];
	char *name = xstrdup(grp->label ? grp->label : "(no label)");
	size_t i, h, shared = 0;
	char *n;

	for (h = 0; h < c->ngroups; h++)
		shared += streq(c->groups[h].label, grp->label);
	for (i = 0; shared > 1 && i < c->ndiffer; i++) {
		const char *v = compare_attr(grp, c->differ[i]);

		/* the label tells it apart, else what differs does */
		if (!v || !compare_name_worthy(c->differ[i]) ||
		    !strcmp(c->differ[i], "virt"))
			continue;
		n = xasprintf("%s %s=%s", name, !strncmp(c->differ[i], "tag:", 4)
			      ? c->differ[i] + 4 : c->differ[i], v);
		free(name);
		name = n;
	}
	return name;
}

char *compare_group_label(const struct compare *c, size_t g, int with_mark)
{
	char *name = basic_label(c, g), *n;
	const char *mark = compare_group_virt(c, g);
	size_t h;

	/*
	 * Two configurations that still read alike (two VM runs that differ
	 * only in what names nothing) get their number in the list.
	 */
	for (h = 0; h < c->ngroups; h++) {
		char *other;
		int same;

		if (h == g)
			continue;
		other = basic_label(c, h);
		same = !strcmp(other, name) &&
		       streq(compare_group_virt(c, h), mark);
		free(other);
		if (same) {
			n = xasprintf("%s #%zu", name, g + 1);
			free(name);
			name = n;
			break;
		}
	}
	if (with_mark && mark) {
		n = xasprintf("%s [%s]", name, mark);
		free(name);
		name = n;
	}
	return name;
}

char *compare_group_name(const struct compare *c, size_t g)
{
	return compare_group_label(c, g, 1);
}

char *compare_group_short(const struct compare *c, size_t g, size_t width)
{
	char *name = compare_group_label(c, g, 0), *n;
	const char *mark = compare_group_virt(c, g);
	size_t room = width;

	if (mark)
		room = width > strlen(mark) + 3 + 8 ?
		       width - strlen(mark) - 3 : 8;
	if (strlen(name) > room && room > 7) {
		/* keep the start and the end: what differs is often last */
		size_t head = (room - 3) / 2, tail = room - 3 - head;

		memmove(name + head + 3, name + strlen(name) - tail, tail + 1);
		memcpy(name + head, "...", 3);
	} else if (strlen(name) > room && room > 3) {
		strcpy(name + room - 3, "...");
	}
	if (!mark)
		return name;
	n = xasprintf("%s [%s]", name, mark);
	free(name);
	return n;
}

size_t compare_group_workers(const struct compare *c, size_t g)
{
	const struct cmp_group *grp = &c->groups[g];
	size_t r, i, most = 0;

	for (r = 0; r < grp->nruns; r++) {
		const struct record *rec = c->recs[grp->runs[r]];
		const char *p;

		for (i = 0; i < rec->nresults; i++)
			if (rec->results[i].nworkers > most)
				most = rec->results[i].nworkers;
		p = record_param(rec, "concurrency");
		if (!most && p && atol(p) > 1)
			most = (size_t)atol(p);
	}
	return most ? most : 1;
}

int compare_group_copies(const struct compare *c, size_t g)
{
	return record_param(c->recs[c->groups[g].runs[0]], "copies") != NULL;
}
