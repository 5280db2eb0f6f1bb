/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The report's -o: refused when it is one of the inputs (same st_dev and
 * st_ino), written to a temporary file in its own directory and renamed
 * into place only when the whole report was written; a signal that ends
 * the process in between removes the temporary file.
 */
#ifndef CLYDE_REPORT_OUTFILE_H
#define CLYDE_REPORT_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

struct outfile {
	FILE *f;
	char *path;	/* the file renamed into place (symlinks resolved) */
	char *tmp;	/* NULL when written in place (not a regular file) */
};

/*
 * 0, or -1 with err when output names an existing file that is also one
 * of the inputs (NULL entries are skipped, "-" is standard input).
 */
int outfile_check_inputs(const char *output, const char *const *inputs,
			 size_t ninputs, char *err, size_t errlen);

/* 0, or -1 with err (nothing created). */
int outfile_open(struct outfile *o, const char *output, char *err,
		 size_t errlen);

/* Close and rename into place: 0, or -1 with err (temporary removed). */
int outfile_commit(struct outfile *o, char *err, size_t errlen);

/* Close and remove the temporary file (a failed report). */
void outfile_abort(struct outfile *o);

#endif
