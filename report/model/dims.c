// SPDX-License-Identifier: GPL-2.0-only
/* The named dimensions of a run; see dims.h for the inference rules. */
#include "report/model/dims.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "report/model/record_util.h"
#include "lib/xalloc.h"

static char *dup_n(const char *s, size_t n)
{
	char *v = xmalloc(n + 1);

	memcpy(v, s, n);
	v[n] = '\0';
	return v;
}

struct dims_field {
	char *literal;		/* text before the field ("" at the start) */
	char *name;		/* NULL: the trailing literal */
};

struct dims_pattern {
	struct dims_field *f;
	size_t n;
};

static void put(struct dims *d, const char *key, const char *value,
		enum dim_source src)
{
	struct dim *x;
	size_t i;

	if (!value || !*value)
		return;
	for (i = 0; i < d->n; i++)
		if (!strcmp(d->v[i].key, key)) {
			if (d->v[i].source <= src)
				return;	/* a better source said it */
			free(d->v[i].value);
			d->v[i].value = xstrdup(value);
			d->v[i].source = src;
			return;
		}
	x = record_append(&d->v, &d->n, sizeof(*d->v));
	x->key = xstrdup(key);
	x->value = xstrdup(value);
	x->source = src;
}

void dims_release(struct dims *d)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		free(d->v[i].key);
		free(d->v[i].value);
	}
	free(d->v);
	d->v = NULL;
	d->n = 0;
}

const struct dim *dims_find(const struct dims *d, const char *key)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (!strcmp(d->v[i].key, key))
			return &d->v[i];
	return NULL;
}

const char *dims_get(const struct dims *d, const char *key)
{
	const struct dim *x = dims_find(d, key);

	return x ? x->value : NULL;
}

const char *dims_source_name(enum dim_source s)
{
	return s == DIM_TAG ? "tag" : s == DIM_DETECTED ? "detected" :
	       "inferred";
}

/* Patterns */

void dims_pattern_free(struct dims_pattern *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->n; i++) {
		free(p->f[i].literal);
		free(p->f[i].name);
	}
	free(p->f);
	free(p);
}

struct dims_pattern *dims_pattern_new(const char *pattern, char *err,
				      size_t errlen)
{
	struct dims_pattern *p = xcalloc(1, sizeof(*p));
	const char *s = pattern;
	size_t i, fields = 0;

	for (;;) {
		const char *open = strchr(s, '{'), *close;
		struct dims_field *f = record_append(&p->f, &p->n,
						     sizeof(*p->f));

		if (!open) {
			f->literal = xstrdup(s);
			break;
		}
		close = strchr(open, '}');
		f->literal = dup_n(s, (size_t)(open - s));
		if (!close) {
			snprintf(err, errlen, "--label-pattern '%s': '{' "
				 "without '}'", pattern);
			goto bad;
		}
		f->name = dup_n(open + 1, (size_t)(close - open - 1));
		if (!*f->name || strpbrk(f->name, "{ ")) {
			snprintf(err, errlen, "--label-pattern '%s': field "
				 "names are {word}", pattern);
			goto bad;
		}
		if (fields && !*f->literal) {
			snprintf(err, errlen, "--label-pattern '%s': two fields "
				 "need text between them", pattern);
			goto bad;
		}
		for (i = 0; i + 1 < p->n; i++)
			if (p->f[i].name && !strcmp(p->f[i].name, f->name)) {
				snprintf(err, errlen, "--label-pattern '%s': "
					 "field {%s} twice", pattern, f->name);
				goto bad;
			}
		fields++;
		s = close + 1;
	}
	if (!fields) {
		snprintf(err, errlen, "--label-pattern '%s': no {field}",
			 pattern);
		goto bad;
	}
	return p;
bad:
	dims_pattern_free(p);
	return NULL;
}

/*
 * Match label from field i on; captures go to cap[i] as (start, length).
 * A field takes the shortest non-empty text after which the rest
 * matches; literals compare without regard to case.
 */
static int match(const struct dims_pattern *p, size_t i, const char *s,
		 const char **cap, size_t *caplen)
{
	const struct dims_field *f = &p->f[i];
	size_t ll = strlen(f->literal), k;

	if (strncasecmp(s, f->literal, ll))
		return 0;
	s += ll;
	if (!f->name)
		return !*s;
	for (k = 1; k <= strlen(s); k++) {
		cap[i] = s;
		caplen[i] = k;
		if (match(p, i + 1, s + k, cap, caplen))
			return 1;
	}
	return 0;
}

/* "8kb", "8K", "8KB" -> "8k"; other values lower case as they are. */
static char *size_value(const char *s, size_t len)
{
	char *v = dup_n(s, len);
	size_t i, n = strlen(v);

	for (i = 0; i < n; i++)
		v[i] = (char)tolower((unsigned char)v[i]);
	if (n >= 3 && v[n - 1] == 'b' && strchr("kmg", v[n - 2]) &&
	    isdigit((unsigned char)v[n - 3]))
		v[n - 1] = '\0';
	return v;
}

static int pattern_dims(const char *label, const struct dims_pattern *p,
			struct dims *d)
{
	const char **cap = xcalloc(p->n, sizeof(*cap));
	size_t *caplen = xcalloc(p->n, sizeof(*caplen)), i;
	int ok = match(p, 0, label, cap, caplen);

	for (i = 0; ok && i < p->n; i++) {
		char *v;

		if (!p->f[i].name)
			continue;
		v = !strcmp(p->f[i].name, "segment") ?
		    size_value(cap[i], caplen[i]) :
		    dup_n(cap[i], caplen[i]);
		put(d, p->f[i].name, v, DIM_INFERRED);
		free(v);
	}
	free(cap);
	free(caplen);
	return ok;
}

/* Rules */

static int word_in(const char *w, const char *const *list)
{
	size_t i;

	for (i = 0; list[i]; i++)
		if (!strcasecmp(w, list[i]))
			return 1;
	return 0;
}

static const char *const fs_words[] = {
	"xfs", "jfs", "ext2", "ext3", "ext4", "reiserfs", "reiser4", "btrfs",
	"zfs", "f2fs", "ocfs2", "gfs2", "nilfs2", "bcachefs", "tmpfs", NULL,
};

static const char *const controller_words[] = {
	"fc", "scsi", "sas", "sata", "nvme", "iscsi", "ide", "usb", "virtio",
	"fcoe", "srp", "iser", NULL,
};

/* digits then suffix (any case) and nothing else: the digits, or NULL */
static char *number_before(const char *w, const char *const *suffixes)
{
	size_t n = strspn(w, "0123456789"), i;

	if (!n)
		return NULL;
	for (i = 0; suffixes[i]; i++)
		if (!strcasecmp(w + n, suffixes[i]))
			return dup_n(w, n);
	return NULL;
}

static char *segment_of(const char *w)
{
	static const char *const tails[] = {
		"segment", "seg", NULL,
	};
	size_t n = strspn(w, "0123456789"), u = 0, i;

	if (!n)
		return NULL;
	if (w[n] && strchr("kKmM", w[n])) {	/* strchr finds the NUL too */
		u = 1;
		if (w[n + 1] == 'b' || w[n + 1] == 'B')
			u = 2;
	}
	for (i = 0; tails[i]; i++)
		if (!strcasecmp(w + n + u, tails[i]))
			return size_value(w, n + u);
	return NULL;
}

static void rule_dims(const char *label, struct dims *d)
{
	static const char *const disk_sfx[] = {
		"disks", "disk", "drives", "drive", NULL,
	};
	char *copy = xstrdup(label), *save = NULL, *w, *prev = NULL, *v;

	for (w = strtok_r(copy, "-_. ", &save); w;
	     prev = w, w = strtok_r(NULL, "-_. ", &save)) {
		char low[32];
		size_t i;

		for (i = 0; w[i] && i + 1 < sizeof(low); i++)
			low[i] = (char)tolower((unsigned char)w[i]);
		low[i] = '\0';
		if (word_in(w, fs_words)) {
			put(d, "fs", low, DIM_INFERRED);
		} else if (!strncmp(low, "raid", 4) && low[4] &&
			   (strspn(low + 4, "0123456789") == strlen(low + 4) ||
			    !strcmp(low + 4, "z") || !strcmp(low + 4, "z2") ||
			    !strcmp(low + 4, "z3"))) {
			put(d, "raid", low + 4, DIM_INFERRED);
		} else if (prev && !strcasecmp(prev, "raid") &&
			   strspn(w, "0123456789") == strlen(w)) {
			put(d, "raid", w, DIM_INFERRED);
		} else if ((v = number_before(w, disk_sfx))) {
			put(d, "disks", v, DIM_INFERRED);
			free(v);
		} else if ((v = segment_of(w))) {
			put(d, "segment", v, DIM_INFERRED);
			free(v);
		} else if (word_in(w, controller_words)) {
			put(d, "controller", low, DIM_INFERRED);
		}
	}
	free(copy);
}

/* Only what the label gives (pattern may be NULL), all DIM_INFERRED. */
static void dims_from_label(const char *label, const struct dims_pattern *pat,
			    struct dims *d)
{
	if (!label || !*label)
		return;
	if (pat && pattern_dims(label, pat, d))
		return;
	rule_dims(label, d);
}

/* Detected facts */

static const char *dev_field(const struct record_device *dev,
			     const char *key)
{
	const struct record_kv *kv = record_kv_find(dev->fields, dev->nfields,
						    key);

	return kv ? kv->value : NULL;
}

/* Whether device i lies below a loop device's backing file. */
static int below_file(const struct record_stack *st, size_t i)
{
	int p = st->devs[i].parent;
	size_t hops = 0;

	while (p >= 0 && (size_t)p < st->ndevs && hops++ < st->ndevs) {
		if (st->devs[p].kind && !strcmp(st->devs[p].kind, "file"))
			return 1;
		p = st->devs[p].parent;
	}
	return 0;
}

static void stack_dims(const struct record_stack *st, struct dims *d)
{
	size_t i, leaves = 0;
	char buf[32];
	const char *disks = NULL, *transport = NULL;

	for (i = 0; i < st->ndevs; i++) {
		const struct record_device *dev = &st->devs[i];
		const char *kind = dev->kind ? dev->kind : "";
		const char *v;

		if (!strcmp(kind, "md") && (v = dev_field(dev, "level"))) {
			put(d, "raid", !strncmp(v, "raid", 4) ? v + 4 : v,
			    DIM_DETECTED);
			if (!disks)
				disks = dev_field(dev, "raid_disks");
		} else if (!strcmp(kind, "btrfs")) {
			v = dev_field(dev, "data_profile");
			if (v && !strncmp(v, "raid", 4))
				put(d, "raid", v + 4, DIM_DETECTED);
			if (v)
				put(d, "profile", v, DIM_DETECTED);
			if (!disks)
				disks = dev_field(dev, "num_devices");
		}
		/*
		 * The disks of this layout: disks and loop devices with no
		 * block device below them, not the disk that holds a loop
		 * device's backing file (below a "file" in the stack).
		 */
		if ((!strcmp(kind, "disk") || !strcmp(kind, "loop")) &&
		    !below_file(st, i)) {
			size_t k, blockchild = 0;

			for (k = 0; k < st->ndevs; k++)
				if (st->devs[k].parent == (int)i &&
				    st->devs[k].kind &&
				    strcmp(st->devs[k].kind, "file"))
					blockchild = 1;
			leaves += !blockchild;
		}
		if (!transport && !below_file(st, i) &&
		    (v = dev_field(dev, "transport")))
			transport = v;
	}
	if (disks)
		put(d, "disks", disks, DIM_DETECTED);
	else if (leaves) {
		snprintf(buf, sizeof(buf), "%zu", leaves);
		put(d, "disks", buf, DIM_DETECTED);
	}
	if (transport)
		put(d, "controller", transport, DIM_DETECTED);
}

void dims_of(const struct record *rec, const struct dims_pattern *pat,
	     struct dims *d)
{
	size_t i;

	d->v = NULL;
	d->n = 0;
	for (i = 0; i < rec->ntags; i++)
		put(d, rec->tags[i].key, rec->tags[i].value, DIM_TAG);
	put(d, "fs", rec->target.fstype, DIM_DETECTED);
	put(d, "mount", rec->target.vfs_options, DIM_DETECTED);
	if (rec->target.stack)
		stack_dims(rec->target.stack, d);
	dims_from_label(rec->label, pat, d);
}
