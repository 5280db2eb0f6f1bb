// SPDX-License-Identifier: GPL-2.0-only
/*
 * The JSON (json-c) of the detected parts of a record: device stack,
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

static int opt_str(struct json_object *obj, const char *key, char **out,
		   char *err, size_t errlen)
{
	return rjson_get_str(obj, key, out) ?
	       rjson_fail(err, errlen, "'%s' is not a string", key) : 0;
}

/* Every member but those in skip as a field of dev (-1: fs). */
static int read_fields(struct json_object *obj, struct record_stack *s,
		       int dev, const char *where, char *err, size_t errlen)
{
	json_object_object_foreach(obj, key, val) {
		char buf[32];

		if (dev >= 0 && (!strcmp(key, "kind") ||
				 !strcmp(key, "name") ||
				 !strcmp(key, "parent")))
			continue;
		switch (json_object_get_type(val)) {
		case json_type_int:
			snprintf(buf, sizeof(buf), "%" PRId64,
				 json_object_get_int64(val));
			record_stack_set(s, dev, key, buf, 1);
			break;
		case json_type_string:
			record_stack_set(s, dev, key,
					 json_object_get_string(val), 0);
			break;
		case json_type_null:
			break;
		default:
			return rjson_fail(err, errlen, "%s'%s' is neither "
					  "a string nor an integer", where,
					  key);
		}
	}
	return 0;
}

static int read_virt(struct json_object *host, struct record *rec,
		     char *err, size_t errlen)
{
	struct json_object *o = rjson_member(host, "virt"), *vm;
	struct record_virt *v;

	if (!o)
		return 0;
	if (!json_object_is_type(o, json_type_object))
		return rjson_fail(err, errlen,
				  "host: 'virt' is not an object");
	v = xcalloc(1, sizeof(*v));
	rec->host.virt = v;
	vm = rjson_member(o, "vm");
	if (!vm)
		v->vm = -1;
	else if (json_object_is_type(vm, json_type_boolean))
		v->vm = json_object_get_boolean(vm);
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

int target_json_read(struct json_object *root, struct record *rec, char *err,
		     size_t errlen)
{
	struct json_object *target = rjson_member(root, "target");

	if (read_virt(rjson_member(root, "host"), rec, err, errlen))
		return -1;
	return target_stack_json_read(target, &rec->target.stack, err,
				      errlen);
}

int target_stack_json_read(struct json_object *target,
			   struct record_stack **out, char *err,
			   size_t errlen)
{
	struct json_object *fs, *arr;
	struct record_stack *s;
	size_t i, n;

	fs = rjson_member(target, "fs");
	arr = rjson_member(target, "stack");
	if (!fs && !arr)
		return 0;
	s = record_stack_new();
	*out = s;
	if (fs) {
		if (!json_object_is_type(fs, json_type_object))
			return rjson_fail(err, errlen,
					  "target: 'fs' is not an object");
		if (read_fields(fs, s, -1, "target: fs: ", err, errlen))
			return -1;
	}
	if (!arr)
		return 0;
	if (!json_object_is_type(arr, json_type_array))
		return rjson_fail(err, errlen,
				  "target: 'stack' is not an array");
	n = json_object_array_length(arr);
	for (i = 0; i < n; i++) {
		struct json_object *d = json_object_array_get_idx(arr, i);
		struct json_object *kind = rjson_member(d, "kind");
		struct json_object *name = rjson_member(d, "name");
		struct json_object *parent = rjson_member(d, "parent");
		char where[48];
		int64_t p;
		int dev;

		snprintf(where, sizeof(where), "target: stack %zu: ", i + 1);
		if (!json_object_is_type(d, json_type_object) ||
		    !kind || !json_object_is_type(kind, json_type_string))
			return rjson_fail(err, errlen, "%sno 'kind'", where);
		if (name && !json_object_is_type(name, json_type_string))
			return rjson_fail(err, errlen,
					  "%s'name' is not a string", where);
		p = parent && json_object_is_type(parent, json_type_int) ?
			json_object_get_int64(parent) : -1;
		if (p >= (int64_t)i)
			return rjson_fail(err, errlen, "%s'parent' %" PRId64
					  " does not come before it", where,
					  p);
		dev = record_stack_add(s, json_object_get_string(kind),
				       name ? json_object_get_string(name) :
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
