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
	l->name = xstrdup_or_null(name);
	l->kind = xstrdup_or_null(kind);
	l->state = xstrdup_or_null(state);
	l->residency = residency;
	l->note = xstrdup_or_null(note);
	return l;
}

void result_free_layers(struct result *res)
{
	size_t i;

	for (i = 0; i < res->nlayers; i++) {
		free(res->layers[i].name);
		free(res->layers[i].kind);
		free(res->layers[i].state);
		free(res->layers[i].note);
	}
	free(res->layers);
	res->layers = NULL;
	res->nlayers = 0;
}
