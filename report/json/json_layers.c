// SPDX-License-Identifier: GPL-2.0-only
/* The cache layers of a result in the record's JSON; see layers.h. */
#include "report/json/json_internal.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "report/model/layers.h"
#include "lib/xalloc.h"

void layers_json_add(struct json_object *obj, const struct result *res)
{
	struct json_object *arr;
	size_t i;

	if (!res->nlayers)
		return;
	arr = json_object_new_array();
	for (i = 0; i < res->nlayers; i++) {
		const struct result_layer *l = &res->layers[i];
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "name", rjson_str(l->name));
		json_object_object_add(o, "kind", rjson_str(l->kind));
		json_object_object_add(o, "state", rjson_str(l->state));
		json_object_object_add(o, "residency", l->residency < 0 ? NULL
				       : rjson_num(l->residency));
		json_object_object_add(o, "note", rjson_str(l->note));
		json_object_array_add(arr, o);
	}
	json_object_object_add(obj, "layers", arr);
}

int layers_json_read(const struct jval *obj, const char *where,
		     struct result *res, char *err, size_t errlen)
{
	const struct jval *arr = jv_member(obj, "layers");
	size_t i, n;

	if (!arr)
		return 0;
	if (!jv_is(arr, JT_ARRAY))
		return rjson_fail(err, errlen, "%s'layers' is not an array",
				  where);
	n = jv_len(arr);
	for (i = 0; i < n; i++) {
		const struct jval *o = jv_item(arr, i);
		struct result_layer *l;

		if (!jv_is(o, JT_OBJECT))
			return rjson_fail(err, errlen, "%slayer %zu is not an "
					  "object", where, i + 1);
		l = result_add_layer(res, NULL, NULL, NULL, -1, NULL);
		if (rjson_get_str(o, "name", &l->name) ||
		    rjson_get_str(o, "kind", &l->kind) ||
		    rjson_get_str(o, "state", &l->state) ||
		    rjson_get_double(o, "residency", &l->residency) ||
		    rjson_get_str(o, "note", &l->note))
			return rjson_fail(err, errlen, "%slayer %zu: a field "
					  "of the wrong type", where, i + 1);
	}
	return 0;
}
