// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer target: the clyde JSON lines importer, then every writer. */
#include "t/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct import im;

	import_init(&im);
	import_clyde(&im, "fuzz", text, size);
	fuzz_write_all(&im, 1);
	import_release(&im);
	free(text);
	return 0;
}
