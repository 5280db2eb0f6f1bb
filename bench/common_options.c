// SPDX-License-Identifier: GPL-2.0-only
/* The record sink of the options tables (the shared rows are macros). */
#include "bench/common_options.h"

static void sink_param(void *out, const char *key, const char *value,
		       int numeric)
{
	record_set_param(out, key, value, numeric);
}

static void sink_tag(void *out, const char *key, const char *value)
{
	record_add_tag(out, key, value);
}

void common_options_record(const struct optable *t, const void *cfg,
			   struct record *rec)
{
	const struct opt_sink sink = {
		.out = rec, .param = sink_param, .kv = sink_tag,
	};

	optable_params(t, cfg, &sink);
}
