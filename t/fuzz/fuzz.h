/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the fuzz targets (t/fuzz/fuzz-*.c, libFuzzer) share: every record
 * an importer made goes through every writer of one record, and a record
 * read from clyde JSON must read back from the JSON clyde writes of it.  Built and run by `make fuzz` (GNUmakefile,
 * t/fuzz/run); report/ and lib/ only, which is all the report layer needs.
 */
#ifndef T_FUZZ_H
#define T_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/import/import.h"
#include "report/model/record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as clyde's importers get it from import_file(): with a NUL
 * after its last byte. */
static char *fuzz_text(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* Output nobody reads: the writers' work is what is under test. */
static FILE *fuzz_sink(void)
{
	static FILE *sink;

	if (!sink)
		sink = fopen("/dev/null", "w");
	if (!sink)
		abort();
	return sink;
}

/* The JSON line clyde writes for rec, read back: a record clyde wrote and
 * cannot read is a bug, whatever the input was. */
static void fuzz_round_trip(const struct record *rec)
{
	char *buf = NULL, err[256] = "";
	size_t len = 0;
	struct record *back;
	FILE *f = open_memstream(&buf, &len);

	if (!f || record_write_json(rec, f) || fclose(f))
		abort();
	if (len && buf[len - 1] == '\n')
		buf[len - 1] = '\0';
	back = record_read_json(buf, err, sizeof(err));
	if (!back) {
		fprintf(stderr, "own JSON not readable: %s\n%s\n", err, buf);
		abort();
	}
	record_free(back);
	free(buf);
}

/*
 * Every writer of one record, for every record im holds; round_trip: and
 * its JSON must read back (for records read from clyde JSON: what clyde
 * read, it must write readably; imported bonnie++ and fio records are
 * never written as JSON by clyde report).
 */
static void fuzz_write_all(const struct import *im, int round_trip)
{
	size_t i;

	for (i = 0; i < im->nrecs; i++) {
		record_write_text(im->recs[i], fuzz_sink());
		record_write_bonnie_csv(im->recs[i], fuzz_sink());
		record_write_json(im->recs[i], fuzz_sink());
		if (round_trip)
			fuzz_round_trip(im->recs[i]);
	}
}

#endif
