// SPDX-License-Identifier: GPL-2.0-only
/*
 * The JSON of the detected parts of a record (written with json-c, read
 * from its jtree.h tree): device stack,
 * filesystem geometry and host virtualization (built and freed in
 * record.c).
 *
 *   "host":   { ..., "virt": { "vm": true, "hypervisor": "KVM",
 *               "emulation": null, "dmi_vendor": ..., "dmi_product": ...,
 *               "evidence": "cpu flag 'hypervisor'; ..." } }
 *   "target": { ..., "fs": { "sunit": 65536, ... },
 *               "stack": [ { "kind": "btrfs", "name": UUID, "parent": -1,
 *                            "data_profile": "raid1", ... }, ... ] }
 *
 * A device's fields sit beside kind, name and parent; numeric fields are
 * JSON numbers.
 */
#include "report/model/target_rec.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "report/json/json_internal.h"
#include "report/model/record_util.h"
#include "lib/xalloc.h"

/* ---- writing ---- */

/* A numeric field as a JSON integer when it is one, else a string. */
static struct json_object *jfield(const struct record_kv *kv)
{
	if (kv->numeric && *kv->value) {
		char *end;
		long long v;

		errno = 0;
		v = strtoll(kv->value, &end, 10);
		if (!errno && !*end)
			return json_object_new_int64(v);
	}
	return json_object_new_string(kv->value);
}

static void add_fields(struct json_object *obj, const struct record_kv *kv,
		       size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		json_object_object_add(obj, kv[i].key, jfield(&kv[i]));
}

void target_json_add(const struct record *rec, struct json_object *host,
		     struct json_object *target)
{
	const struct record_virt *v = rec->host.virt;
	const struct record_stack *s = rec->target.stack;
	struct json_object *o;

	if (v) {
		o = json_object_new_object();
		json_object_object_add(o, "vm", v->vm < 0 ? NULL :
				       json_object_new_boolean(v->vm));
		json_object_object_add(o, "hypervisor",
				       rjson_str(v->hypervisor));
		json_object_object_add(o, "emulation", rjson_str(v->emulation));
		json_object_object_add(o, "dmi_vendor",
				       rjson_str(v->dmi_vendor));
		json_object_object_add(o, "dmi_product",
				       rjson_str(v->dmi_product));
		json_object_object_add(o, "evidence", rjson_str(v->evidence));
		json_object_object_add(host, "virt", o);
	}
	target_stack_json_add(s, target);
}

void target_stack_json_add(const struct record_stack *s,
			   struct json_object *target)
{
	struct json_object *o, *arr;
	size_t i;

	if (!s)
		return;
	o = json_object_new_object();
	add_fields(o, s->fs, s->nfs);
	json_object_object_add(target, "fs", o);
	arr = json_object_new_array();
	for (i = 0; i < s->ndevs; i++) {
		const struct record_device *d = &s->devs[i];

		o = json_object_new_object();
		json_object_object_add(o, "kind", rjson_str(d->kind));
		json_object_object_add(o, "name", rjson_str(d->name));
		json_object_object_add(o, "parent",
				       json_object_new_int(d->parent));
		add_fields(o, d->fields, d->nfields);
		json_object_array_add(arr, o);
	}
	json_object_object_add(target, "stack", arr);
}

/* ---- reading ---- */

static int opt_str(const struct jval *obj, const char *key, char **out,
		   char *err, size_t errlen)
{
	return rjson_get_str(obj, key, out) ?
	       rjson_fail(err, errlen, "'%s' is not a string", key) : 0;
}

/* Every member but those in skip as a field of dev (-1: fs). */
static int read_fields(const struct jval *obj, struct record_stack *s,
		       int dev, const char *where, char *err, size_t errlen)
{
	size_t i;

	for (i = 0; i < jv_len(obj); i++) {
		const char *key = obj->members[i].key;
		const struct jval *val = &obj->members[i].val;
		char buf[32];

		if (dev >= 0 && (!strcmp(key, "kind") ||
				 !strcmp(key, "name") ||
				 !strcmp(key, "parent")))
			continue;
		switch (val->type) {
		case JT_INT:
			snprintf(buf, sizeof(buf), "%" PRId64, jv_int64(val));
			record_stack_set(s, dev, key, buf, 1);
			break;
		case JT_STRING:
			record_stack_set(s, dev, key, jv_text(val), 0);
			break;
		case JT_NULL:
			break;
		default:
			return rjson_fail(err, errlen, "%s'%s' is neither "
					  "a string nor an integer", where,
					  key);
		}
	}
	return 0;
}

static int read_virt(const struct jval *host, struct record *rec,
		     char *err, size_t errlen)
{
	const struct jval *o = jv_member(host, "virt"), *vm;
	struct record_virt *v;

	if (!o)
		return 0;
	if (!jv_is(o, JT_OBJECT))
		return rjson_fail(err, errlen,
				  "host: 'virt' is not an object");
	v = xcalloc(1, sizeof(*v));
	rec->host.virt = v;
	vm = jv_member(o, "vm");
	if (!vm)
		v->vm = -1;
	else if (jv_is(vm, JT_BOOL))
		v->vm = vm->b;
	else
		return rjson_fail(err, errlen,
				  "host: virt: 'vm' is not a boolean");
	if (opt_str(o, "hypervisor", &v->hypervisor, err, errlen) ||
	    opt_str(o, "emulation", &v->emulation, err, errlen) ||
	    opt_str(o, "dmi_vendor", &v->dmi_vendor, err, errlen) ||
	    opt_str(o, "dmi_product", &v->dmi_product, err, errlen) ||
	    opt_str(o, "evidence", &v->evidence, err, errlen))
		return -1;
	return 0;
}

int target_json_read(const struct jval *root, struct record *rec, char *err,
		     size_t errlen)
{
	const struct jval *target = jv_member(root, "target");

	if (read_virt(jv_member(root, "host"), rec, err, errlen))
		return -1;
	return target_stack_json_read(target, &rec->target.stack, err,
				      errlen);
}

int target_stack_json_read(const struct jval *target,
			   struct record_stack **out, char *err,
			   size_t errlen)
{
	const struct jval *fs, *arr;
	struct record_stack *s;
	size_t i, n;

	fs = jv_member(target, "fs");
	arr = jv_member(target, "stack");
	if (!fs && !arr)
		return 0;
	s = record_stack_new();
	*out = s;
	if (fs) {
		if (!jv_is(fs, JT_OBJECT))
			return rjson_fail(err, errlen,
					  "target: 'fs' is not an object");
		if (read_fields(fs, s, -1, "target: fs: ", err, errlen))
			return -1;
	}
	if (!arr)
		return 0;
	if (!jv_is(arr, JT_ARRAY))
		return rjson_fail(err, errlen,
				  "target: 'stack' is not an array");
	n = jv_len(arr);
	for (i = 0; i < n; i++) {
		const struct jval *d = jv_item(arr, i);
		const struct jval *kind = jv_member(d, "kind");
		const struct jval *name = jv_member(d, "name");
		const struct jval *parent = jv_member(d, "parent");
		char where[48];
		int64_t p;
		int dev;

		snprintf(where, sizeof(where), "target: stack %zu: ", i + 1);
		if (!jv_is(d, JT_OBJECT) || !kind || !jv_is(kind, JT_STRING))
			return rjson_fail(err, errlen, "%sno 'kind'", where);
		if (name && !jv_is(name, JT_STRING))
			return rjson_fail(err, errlen,
					  "%s'name' is not a string", where);
		p = parent && jv_is(parent, JT_INT) ?
			jv_int64(parent) : -1;
		if (p >= (int64_t)i)
			return rjson_fail(err, errlen, "%s'parent' %" PRId64
					  " does not come before it", where,
					  p);
		dev = record_stack_add(s, jv_text(kind), name ? jv_text(name) :
				       NULL, (int)p);
		if (read_fields(d, s, dev, where, err, errlen))
			return -1;
	}
	return 0;
}

int record_write_fields_json(FILE *out, const char *path,
			     const struct record_kv *kv, size_t n)
{
	struct json_object *o = json_object_new_object();
	int rc = 0;

	json_object_object_add(o, "path", rjson_str(path));
	add_fields(o, kv, n);
	if (fprintf(out, "%s\n",
		    json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN)) < 0)
		rc = -1;
	json_object_put(o);
	return rc;
}
