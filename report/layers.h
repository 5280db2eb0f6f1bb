/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_LAYERS_H
#define CLYDE_LAYERS_H

/*
 * The cache layers under a read phase's file (struct result_layer in
 * record.h): adding, freeing, and their JSON, an array beside the file's
 * own residency:
 *
 *   "layers": [ { "name": "loop0 backing file /srv/img", "kind": "loop",
 *                 "state": "evicted and verified", "residency": 0.0,
 *                 "note": null }, ... ]
 *
 * The member is absent when there were no layers.
 */

#include <json-c/json.h>

#include "record.h"

/* Append a layer (strings copied, NULL allowed) and return it. */
struct result_layer *result_add_layer(struct result *res, const char *name,
				      const char *kind, const char *state,
				      double residency, const char *note);

/* Free the layers of res (the result itself stays). */
void result_free_layers(struct result *res);

/* Add "layers" to the result's JSON object when res has any. */
void layers_json_add(struct json_object *obj, const struct result *res);

/* Read "layers" when present.  0, or -1 with a message in err. */
int layers_json_read(struct json_object *obj, const char *where,
		     struct result *res, char *err, size_t errlen);

#endif
