/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_TEMPLATES_H
#define CLYDE_TEMPLATES_H

/*
 * The report's templates (templates/report.html, .css, .js), compiled
 * into the binary: GNUmakefile generates templates/templates.c from
 * the files in templates/ with od and sed.
 */

#include <stddef.h>

struct template_file {
	const char *name;	/* "report.html" */
	const char *text;	/* NUL-terminated */
	size_t len;
};

/* The built-in templates, ended by an entry with name NULL. */
extern const struct template_file template_files[];

/* The built-in template called name, or NULL. */
const char *template_builtin(const char *name, size_t *len);

#endif
