/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_OPTROW_H
#define CLYDE_OPTROW_H

/* One row of an options table, by its type: internal to lib/optable.c. */

#include <stddef.h>

#include "optable.h"

/* "-c" or "--qd": how the messages name row o. */
const char *optrow_spelling(const struct opt_def *o, char *buf, size_t len);

/* Apply arg (NULL: none) to o's field in cfg.  0 or -1 (err set). */
int optrow_apply(const struct opt_def *o, void *cfg, const char *arg,
		 const char *opt, char *err, size_t errlen);

/* " (default X)" of o from cfg (NULL: its .def text), or "". */
void optrow_default(const struct opt_def *o, const void *cfg, char *buf,
		    size_t len);

/* getopt's has_arg of o. */
int optrow_has_arg(const struct opt_def *o);

/* o's param (typed) or params hook (custom) into sink. */
void optrow_params(const struct opt_def *o, const void *cfg,
		   const struct opt_sink *sink);

#endif
