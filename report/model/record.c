// SPDX-License-Identifier: GPL-2.0-only
/*
 * The run record, the report's model: construction, lookup and
 * destruction of the run, its target's device stack and the host's
 * virtualisation, the per-worker rows and the matrix cells.  Nothing here
 * knows a format: the readers and writers live in json*.c, bonnie_csv.c, text.c
 * and the report's files.
 */
#include "report/model/record.h"
#include "report/model/record_util.h"
#include "report/model/matrix.h"
#include "report/model/zones.h"
#include "report/model/matrix_extras.h"
#include "report/model/target_rec.h"
#include "report/model/layers.h"
#include "report/model/worker_rows.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/xalloc.h"

#ifndef CLYDE_VERSION
#define CLYDE_VERSION "unknown"
#endif

static void record_target_release(struct record_target *t);
static void result_free_workers(struct result *res);

struct record *record_new(void)
{
	struct record *rec = xcalloc(1, sizeof(*rec));

	rec->schema = RECORD_SCHEMA_VERSION;
	rec->tool = xstrdup("clyde");
	rec->version = xstrdup(CLYDE_VERSION);
	rec->repetition = 1;
	return rec;
}

void record_free(struct record *rec)
{
	size_t i;

	if (!rec)
		return;
	record_str_free(rec->tool);
	record_str_free(rec->version);
	record_str_free(rec->start);
	record_str_free(rec->end);
	record_str_free(rec->label);
	record_str_free(rec->host.hostname);
	record_str_free(rec->host.kernel);
	record_str_free(rec->host.cpu_model);
	record_target_release(&rec->target);
	record_virt_free(rec->host.virt);
	for (i = 0; i < rec->ntargets; i++)
		record_target_release(&rec->targets[i]);
	free(rec->targets);
	record_kv_free(rec->params, rec->nparams);
	record_kv_free(rec->tags, rec->ntags);
	for (i = 0; i < rec->nresults; i++) {
		record_str_free(rec->results[i].name);
		record_str_free(rec->results[i].title);
		record_str_free(rec->results[i].unit);
		record_str_free(rec->results[i].reason);
		free(rec->results[i].exact);
		hist_release(&rec->results[i].lat);
		result_free_workers(&rec->results[i]);
		result_free_layers(&rec->results[i]);
	}
	free(rec->results);
	for (i = 0; i < rec->nwarnings; i++)
		record_str_free(rec->warnings[i]);
	free(rec->warnings);
	matrix_free(rec->matrix);
	zones_free(rec->zones);
	record_str_free(rec->source);
	free(rec);
}

static struct record_kv *find_kv(struct record_kv *kv, size_t n,
				 const char *key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(kv[i].key, key))
			return &kv[i];
	return NULL;
}

static void append_kv(struct record_kv **kv, size_t *n, const char *key,
		      const char *value, int numeric)
{
	struct record_kv *e;

	*kv = xrealloc(*kv, (*n + 1) * sizeof(**kv));
	e = &(*kv)[(*n)++];
	e->key = record_strdup(key);
	e->value = record_strdup(value);
	e->numeric = numeric;
}

void record_set_param(struct record *rec, const char *key, const char *value,
		      int numeric)
{
	struct record_kv *e = find_kv(rec->params, rec->nparams, key);

	if (!e) {
		append_kv(&rec->params, &rec->nparams, key, value, numeric);
		return;
	}
	record_set_str(&e->value, value);
	e->numeric = numeric;
}

const char *record_param(const struct record *rec, const char *key)
{
	struct record_kv *e = find_kv(rec->params, rec->nparams, key);

	return e ? e->value : NULL;
}

int record_param_int(const struct record *rec, const char *key,
		     int64_t *out)
{
	const char *s = record_param(rec, key);
	char *end;
	long long v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end || end == s)
		return -1;
	*out = v;
	return 0;
}

void record_add_tag(struct record *rec, const char *key, const char *value)
{
	struct record_kv *e = find_kv(rec->tags, rec->ntags, key);

	if (!e) {
		append_kv(&rec->tags, &rec->ntags, key, value, 0);
		return;
	}
	record_set_str(&e->value, value);
}

void record_warn(struct record *rec, const char *fmt, ...)
{
	va_list ap;

	rec->warnings = xrealloc(rec->warnings,
				 (rec->nwarnings + 1) * sizeof(*rec->warnings));
	va_start(ap, fmt);
	rec->warnings[rec->nwarnings++] = record_str_keep(record_vasprintf(fmt,
									   ap));
	va_end(ap);
}

struct result *record_add_result(struct record *rec, const char *name,
				 const char *title, const char *unit)
{
	struct result *res;

	res = record_append(&rec->results, &rec->nresults,
			    sizeof(*rec->results));
	res->name = record_strdup(name ? name : "");
	res->title = record_strdup(title ? title : "");
	res->unit = record_strdup(unit ? unit : "");
	res->status = RESULT_NOT_RUN;
	res->residency = -1.0;
	hist_init(&res->lat);
	return res;
}

struct result *record_find(const struct record *rec, const char *name)
{
	size_t i;

	for (i = 0; i < rec->nresults; i++)
		if (!strcmp(rec->results[i].name, name))
			return &rec->results[i];
	return NULL;
}

static const char *const status_names[] = {
	[RESULT_NOT_RUN] = "not_run",
	[RESULT_OK] = "ok",
	[RESULT_FAILED] = "failed",
	[RESULT_SKIPPED] = "skipped",
};

#define NSTATUS (sizeof(status_names) / sizeof(status_names[0]))

const char *result_status_name(enum result_status st)
{
	return (unsigned)st < NSTATUS ? status_names[st] : "failed";
}

int result_interrupted(enum reason_kind kind, int sig)
{
	return kind == REASON_INTERRUPTED || (kind == REASON_NOT_RUN && sig);
}

/* What result_reason_word() puts before a not-run reason's detail. */
#define NOT_RUN_PREFIX "not run: "

static const char *const reason_kind_names[] = {
	[REASON_NONE] = NULL,
	[REASON_INTERRUPTED] = "interrupted",
	[REASON_NOT_RUN] = "not_run",
};

#define NKINDS (sizeof(reason_kind_names) / sizeof(reason_kind_names[0]))

const char *reason_kind_name(enum reason_kind kind)
{
	return (unsigned)kind < NKINDS ? reason_kind_names[kind] : NULL;
}

int reason_kind_parse(const char *name, enum reason_kind *kind)
{
	size_t k;

	for (k = 1; k < NKINDS; k++)
		if (!strcmp(name, reason_kind_names[k])) {
			*kind = (enum reason_kind)k;
			return 0;
		}
	return -1;
}

const char *reason_signal_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" :
	       sig == SIGHUP ? "SIGHUP" : "a signal";
}

void result_reason_word(char *buf, size_t len, enum reason_kind kind,
			int sig, const char *detail)
{
	const char *abbrev = sig > 0 && sig < 65 ? sigabbrev_np(sig) : NULL;
	char by[64] = "interrupted";

	if (sig)
		snprintf(by, sizeof(by), "interrupted by signal %d%s%s%s", sig,
			 abbrev ? " (SIG" : "", abbrev ? abbrev : "",
			 abbrev ? ")" : "");
	if (kind == REASON_INTERRUPTED)
		snprintf(buf, len, "%s%s%s", by, detail ? ": " : "",
			 detail ? detail : "");
	else if (kind == REASON_NOT_RUN && (detail || sig))
		snprintf(buf, len, NOT_RUN_PREFIX "%s", detail ? detail : by);
	else if (kind == REASON_NOT_RUN)
		snprintf(buf, len, "not run");
	else
		snprintf(buf, len, "%s", detail ? detail : "");
}

const char *result_reason_rest(enum reason_kind kind, const char *reason)
{
	size_t n = sizeof(NOT_RUN_PREFIX) - 1;

	if (kind == REASON_NOT_RUN && reason && !strncmp(reason,
							 NOT_RUN_PREFIX, n))
		return reason + n;
	return reason;
}

void result_reason_store(char **reason, enum reason_kind *kind_out,
			 int *sig_out, enum reason_kind kind, int sig,
			 const char *detail)
{
	char why[512];

	result_reason_word(why, sizeof(why), kind, sig, detail);
	*kind_out = kind;
	*sig_out = sig;
	record_set_str(reason, why);
}

void result_set_reason(struct result *res, enum result_status status,
		       enum reason_kind kind, int sig, const char *detail)
{
	res->status = status;
	result_reason_store(&res->reason, &res->reason_kind, &res->signal,
			    kind, sig, detail);
}

int result_status_parse(const char *name, enum result_status *st)
{
	size_t s;

	for (s = 0; s < NSTATUS; s++)
		if (!strcmp(name, status_names[s])) {
			*st = (enum result_status)s;
			return 0;
		}
	return -1;
}

void result_set_status(struct result *res, enum result_status status,
		       const char *fmt, ...)
{
	va_list ap;

	res->status = status;
	res->reason_kind = REASON_NONE;
	res->signal = 0;
	record_str_free(res->reason);
	res->reason = NULL;
	if (!fmt)
		return;
	va_start(ap, fmt);
	res->reason = record_vasprintf(fmt, ap);
	va_end(ap);
}

void record_set_str(char **field, const char *value)
{
	char *old = *field;

	/* value may point into the old string */
	*field = record_strdup(value);
	record_str_free(old);
}

char *record_now_iso8601(void)
{
	struct tm tm;
	time_t now = time(NULL);
	char buf[32];

	if (!gmtime_r(&now, &tm) ||
	    !strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm))
		return xstrdup("1970-01-01T00:00:00Z");
	return xstrdup(buf);
}

/* ---- the target's device stack, the host's virtualisation ---- */

struct record_stack *record_stack_new(void)
{
	return xcalloc(1, sizeof(struct record_stack));
}

int record_stack_add(struct record_stack *s, const char *kind,
		     const char *name, int parent)
{
	struct record_device *d;

	d = record_append(&s->devs, &s->ndevs, sizeof(*s->devs));
	d->kind = record_strdup(kind ? kind : "unknown");
	d->name = record_strdup(name);
	d->parent = parent >= 0 && (size_t)parent < s->ndevs - 1 ? parent :
		    -1;
	return (int)(s->ndevs - 1);
}

static void kv_set(struct record_kv **kv, size_t *n, const char *key,
		   const char *value, int numeric)
{
	struct record_kv *f;

	if (!value)
		return;
	f = record_kv_find(*kv, *n, key);
	if (!f) {
		f = record_append(kv, n, sizeof(**kv));
		f->key = record_strdup(key);
	}
	record_str_free(f->value);
	f->value = record_strdup(value);
	f->numeric = numeric;
}

void record_stack_set(struct record_stack *s, int dev, const char *key,
		      const char *value, int numeric)
{
	if (dev < 0)
		kv_set(&s->fs, &s->nfs, key, value, numeric);
	else if ((size_t)dev < s->ndevs)
		kv_set(&s->devs[dev].fields, &s->devs[dev].nfields, key,
		       value, numeric);
}

const char *record_stack_get(const struct record_stack *s, int dev,
			     const char *key)
{
	const struct record_kv *kv, *f;
	size_t n;

	if (dev < 0) {
		kv = s->fs;
		n = s->nfs;
	} else if ((size_t)dev < s->ndevs) {
		kv = s->devs[dev].fields;
		n = s->devs[dev].nfields;
	} else {
		return NULL;
	}
	f = record_kv_find(kv, n, key);
	return f ? f->value : NULL;
}

int record_stack_depth(const struct record_stack *s, int dev)
{
	int depth = 0;

	while (dev >= 0 && (size_t)dev < s->ndevs &&
	       s->devs[dev].parent >= 0 && depth < (int)s->ndevs) {
		dev = s->devs[dev].parent;
		depth++;
	}
	return depth;
}

void record_stack_free(struct record_stack *s)
{
	size_t i;

	if (!s)
		return;
	record_kv_free(s->fs, s->nfs);
	for (i = 0; i < s->ndevs; i++) {
		record_str_free(s->devs[i].kind);
		record_str_free(s->devs[i].name);
		record_kv_free(s->devs[i].fields, s->devs[i].nfields);
	}
	free(s->devs);
	free(s);
}

void record_virt_free(struct record_virt *v)
{
	if (!v)
		return;
	record_str_free(v->hypervisor);
	record_str_free(v->emulation);
	record_str_free(v->dmi_vendor);
	record_str_free(v->dmi_product);
	record_str_free(v->evidence);
	free(v);
}

/* Free what a target holds (strings, stack); the struct itself stays. */
static void record_target_release(struct record_target *t)
{
	record_str_free(t->path);
	record_str_free(t->mountpoint);
	record_str_free(t->fstype);
	record_str_free(t->source);
	record_str_free(t->vfs_options);
	record_str_free(t->fs_options);
	record_stack_free(t->stack);
	memset(t, 0, sizeof(*t));
}

/* ---- per-worker rows ---- */

struct worker_row *result_add_worker(struct result *res, int worker,
				     const char *host, const char *dir)
{
	struct worker_row *w;

	w = record_append(&res->workers, &res->nworkers,
			  sizeof(*res->workers));
	w->worker = worker;
	w->host = record_strdup(host);
	w->dir = record_strdup(dir);
	w->status = RESULT_NOT_RUN;
	return w;
}

/* Free the rows of res (the result itself stays). */
static void result_free_workers(struct result *res)
{
	size_t i;

	for (i = 0; i < res->nworkers; i++) {
		record_str_free(res->workers[i].host);
		record_str_free(res->workers[i].dir);
		record_str_free(res->workers[i].reason);
	}
	free(res->workers);
	res->workers = NULL;
	res->nworkers = 0;
}

/* ---- the matrix section ---- */

struct record_matrix *matrix_new(void)
{
	return xcalloc(1, sizeof(struct record_matrix));
}

void matrix_free(struct record_matrix *m)
{
	size_t i;

	if (!m)
		return;
	matrix_ext_free(m);
	for (i = 0; i < m->ncells; i++) {
		size_t k;

		record_str_free(m->cells[i].reason);
		for (k = 0; k < m->cells[i].ncurve; k++) {
			hist_release(&m->cells[i].curve[k].rlat);
			hist_release(&m->cells[i].curve[k].wlat);
		}
		free(m->cells[i].curve);
		hist_release(&m->cells[i].rlat);
		hist_release(&m->cells[i].wlat);
		free(m->cells[i].rrep);
		free(m->cells[i].wrep);
		if (m->cells[i].workers) {
			result_free_workers(m->cells[i].workers);
			hist_release(&m->cells[i].workers->lat);
		}
		free(m->cells[i].workers);
	}
	free(m->cells);
	record_str_free(m->engine);
	record_str_free(m->error);
	free(m);
}

struct matrix_cell *matrix_add_cell(struct record_matrix *m)
{
	struct matrix_cell *c;

	xgrow((void **)&m->cells, &m->alloc, m->ncells + 1,
	      sizeof(*m->cells));
	c = &m->cells[m->ncells++];
	memset(c, 0, sizeof(*c));
	hist_init(&c->rlat);
	hist_init(&c->wlat);
	return c;
}

void matrix_cell_rates(struct matrix_cell *c)
{
	uint64_t ops = c->rlat.count + c->wlat.count;

	c->iops = c->elapsed > 0 ? (double)ops / c->elapsed : 0;
	c->mbps = c->iops * (double)c->bs / (1024.0 * 1024.0);
	matrix_targets_rates(c);
}

struct matrix_point *matrix_add_point(struct matrix_cell *c)
{
	struct matrix_point *p;

	c->curve = xrealloc(c->curve, (c->ncurve + 1) * sizeof(*c->curve));
	p = &c->curve[c->ncurve++];
	memset(p, 0, sizeof(*p));
	hist_init(&p->rlat);
	hist_init(&p->wlat);
	return p;
}

void matrix_point_rates(struct matrix_point *p, uint64_t bs)
{
	uint64_t ops = p->rlat.count + p->wlat.count;

	p->iops = p->elapsed > 0 ? (double)ops / p->elapsed : 0;
	p->mbps = p->iops * (double)bs / (1024.0 * 1024.0);
}
