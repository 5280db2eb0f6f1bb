// SPDX-License-Identifier: GPL-2.0-only
/*
 * The JSON of the matrix section's prefill, per-target rows, steady state
 * and a cell's stop (matrix_extras.h), written into and read from the
 * objects json_matrix.c makes.
 */
#include "report/model/matrix_extras.h"

#include <string.h>

#include "report/json/json_internal.h"
#include "report/model/target_rec.h"

/* ---- writing ---- */

static struct json_object *u64(uint64_t v)
{
	return json_object_new_uint64(v);
}

void matrix_ext_json_add(const struct record_matrix *m,
			 struct json_object *o)
{
	const struct matrix_prefill *p = &m->prefill;
	if (m->profile)
		json_object_object_add(o, "profile",
				       json_object_new_string(m->profile));
	if (m->steady)
		json_object_object_add(o, "steady",
				       json_object_new_string(m->steady));
	if (m->direct_ignored)
		json_object_object_add(o, "direct_ignored",
				       json_object_new_string(
					       m->direct_ignored));
	if (p->status != RESULT_NOT_RUN) {
		struct json_object *po = json_object_new_object();

		json_object_object_add(po, "status", json_object_new_string(
					       result_status_name(p->status)));
		json_object_object_add(po, "kind", json_object_new_string(
					       p->scan ? "verify_read" :
					       "write"));
		json_object_object_add(po, "bs", u64(p->bs));
		json_object_object_add(po, "bytes", u64(p->bytes));
		json_object_object_add(po, "elapsed", rjson_num(p->elapsed));
		json_object_object_add(po, "mbps", rjson_num(p->mbps));
		json_object_object_add(o, "prefill", po);
	}
}

void matrix_ext_cell_json_add(const struct matrix_cell *c,
			      struct json_object *o)
{
	const struct matrix_steady *s = &c->steady;
	size_t i;

	/* stopped and continued while it ran, as a result's "stopped" */
	json_object_object_add(o, "stopped",
			       json_object_new_boolean(c->stopped));
	if (s->checked) {
		struct json_object *so = json_object_new_object();

		json_object_object_add(so, "attained",
				       json_object_new_boolean(s->attained));
		json_object_object_add(so, "at", rjson_num(s->at));
		json_object_object_add(so, "window", rjson_num(s->window));
		json_object_object_add(so, "mean", rjson_num(s->mean));
		json_object_object_add(so, "value", rjson_num(s->value));
		json_object_object_add(o, "steady", so);
	}
	if (c->ntargets) {
		struct json_object *arr = json_object_new_array();

		for (i = 0; i < c->ntargets; i++) {
			const struct matrix_target_row *t = &c->targets[i];
			struct json_object *to = json_object_new_object();

			json_object_object_add(to, "target",
					       json_object_new_int((int)i));
			json_object_object_add(to, "iops", rjson_num(t->iops));
			json_object_object_add(to, "mbps", rjson_num(t->mbps));
			json_object_object_add(to, "reads", u64(t->rlat.count));
			json_object_object_add(to, "writes",
					       u64(t->wlat.count));
			json_object_object_add(to, "read_histogram",
					       histogram_object(&t->rlat));
			json_object_object_add(to, "write_histogram",
					       histogram_object(&t->wlat));
			json_object_array_add(arr, to);
		}
		json_object_object_add(o, "targets", arr);
	}
}

/* ---- reading ---- */

int matrix_ext_json_read(const struct jval *obj, struct record_matrix *m,
			 char *err, size_t errlen)
{
	const struct jval *p = jv_member(obj, "prefill"), *v;

	(void)rjson_get_str(obj, "profile", &m->profile);
	(void)rjson_get_str(obj, "steady", &m->steady);
	(void)rjson_get_str(obj, "direct_ignored", &m->direct_ignored);
	if (p) {
		struct matrix_prefill *f = &m->prefill;

		v = jv_member(p, "status");
		if (!v || !jv_is(v, JT_STRING) ||
		    result_status_parse(jv_text(v), &f->status) ||
		    rjson_get_u64(p, "bs", &f->bs) ||
		    rjson_get_u64(p, "bytes", &f->bytes) ||
		    rjson_get_double(p, "elapsed", &f->elapsed) ||
		    rjson_get_double(p, "mbps", &f->mbps))
			return rjson_fail(err, errlen, "matrix: bad 'prefill'");
		v = jv_member(p, "kind");
		f->scan = v && jv_is(v, JT_STRING) &&
			  !strcmp(jv_text(v), "verify_read");
	}
	return 0;
}

int matrix_ext_cell_json_read(const struct jval *o, const char *where,
			      struct matrix_cell *c, char *err,
			      size_t errlen)
{
	const struct jval *s = jv_member(o, "steady");
	const struct jval *arr = jv_member(o, "targets");
	const struct jval *stopped = jv_member(o, "stopped");
	size_t i, n;

	c->stopped = jv_true(stopped);
	if (s) {
		const struct jval *a = jv_member(s, "attained");

		if (!jv_is(s, JT_OBJECT) || !a || !jv_is(a, JT_BOOL) ||
		    rjson_get_double(s, "at", &c->steady.at) ||
		    rjson_get_double(s, "window", &c->steady.window) ||
		    rjson_get_double(s, "mean", &c->steady.mean) ||
		    rjson_get_double(s, "value", &c->steady.value))
			return rjson_fail(err, errlen, "%sbad 'steady'", where);
		c->steady.checked = 1;
		c->steady.attained = a->b;
	}
	if (!arr)
		return 0;
	if (!jv_is(arr, JT_ARRAY))
		return rjson_fail(err, errlen, "%s'targets' is not an array",
				  where);
	n = jv_len(arr);
	matrix_cell_targets(c, n);
	for (i = 0; i < n; i++) {
		const struct jval *t = jv_item(arr, i);

		if (!jv_is(t, JT_OBJECT))
			return rjson_fail(err, errlen, "%starget row %zu is "
					  "not an object", where, i + 1);
		if (read_histogram(jv_member(t, "read_histogram"), where,
				   &c->targets[i].rlat, err, errlen) ||
		    read_histogram(jv_member(t, "write_histogram"), where,
				   &c->targets[i].wlat, err, errlen))
			return -1;
	}
	return 0;
}
