/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_LAYERS_H
#define CLYDE_LAYERS_H

/*
 * The cache layers under a read phase's file (struct result_layer in
 * record.h): adding and freeing; in the JSON (layers_json.c), an array
 * beside the file's own residency:
 *
 *   "layers": [ { "name": "loop0 backing file /srv/img", "kind": "loop",
 *                 "state": "evicted and verified", "residency": 0.0,
 *                 "note": null }, ... ]
 *
 * The member is absent when there were no layers.
 */

#include "report/model/record.h"

/* Append a layer (strings copied, NULL allowed) and return it. */
struct result_layer *result_add_layer(struct result *res, const char *name,
				      const char *kind, const char *state,
				      double residency, const char *note);

/* Free the layers of res (the result itself stays). */
void result_free_layers(struct result *res);

#endif
