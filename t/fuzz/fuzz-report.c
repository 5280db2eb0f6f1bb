// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: any input as `clyde report` reads it (by content),
 * then the comparison and every report writer: HTML, long CSV, bonnie++
 * lines and text.
 */
#include "t/fuzz/fuzz.h"
#include "report/analyze/compare.h"
#include "report/write/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct report_opts o = { .title = "fuzz" };
	char *text = fuzz_text(data, size);
	struct import im;
	struct compare c;
	char err[512];

	import_init(&im);
	import_buffer(&im, "fuzz", text, size);
	fuzz_write_all(&im, 0);
	o.warnings = im.warnings;
	o.nwarnings = im.nwarnings;
	if (im.nrecs && !compare_build(&c, im.recs, im.nrecs, NULL, NULL, err,
				       sizeof(err))) {
		report_write_html(&c, &o, fuzz_sink(), err, sizeof(err));
		report_write_longcsv(&c, NULL, fuzz_sink());
		report_write_bonnie(&c, fuzz_sink());
		report_write_cmptext(&c, fuzz_sink());
		compare_release(&c);
	}
	import_release(&im);
	free(text);
	return 0;
}
