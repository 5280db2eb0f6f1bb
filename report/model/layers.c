// SPDX-License-Identifier: GPL-2.0-only
#include "report/model/layers.h"

#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"

struct result_layer *result_add_layer(struct result *res, const char *name,
				      const char *kind, const char *state,
				      double residency, const char *note)
{
	struct result_layer *l;

	res->layers = xrealloc(res->layers,
			       (res->nlayers + 1) * sizeof(*res->layers));
	l = &res->layers[res->nlayers++];
	l->name = record_strdup(name);
	l->kind = record_strdup(kind);
	l->state = record_strdup(state);
	l->residency = residency;
	l->note = record_strdup(note);
	return l;
}

void result_free_layers(struct result *res)
{
	size_t i;

	for (i = 0; i < res->nlayers; i++) {
		record_str_free(res->layers[i].name);
		record_str_free(res->layers[i].kind);
		record_str_free(res->layers[i].state);
		record_str_free(res->layers[i].note);
	}
	free(res->layers);
	res->layers = NULL;
	res->nlayers = 0;
}
