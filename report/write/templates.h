/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_TEMPLATES_H
#define CLYDE_TEMPLATES_H

/*
 * The report's templates (templates/report.html, .css, .js), compiled
 * into the binary: GNUmakefile generates templates/templates.c from
 * the files in templates/ with templates/generate.sh.
 */

#include <stddef.h>

/* The built-in template called name (its length in *len), or NULL. */
const char *template_builtin(const char *name, size_t *len);

#endif
