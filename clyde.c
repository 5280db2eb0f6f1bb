// SPDX-License-Identifier: GPL-2.0-only
/*
 * clyde: filesystem metadata and throughput benchmark suite.
 * Command dispatch only: `clyde [run] ...` is the classic suite.
 */
#include <stdio.h>
#include <string.h>

#include "bench/clean.h"
#include "bench/info.h"
#include "bench/rundir.h"
#include "bench/matrix/matrix.h"
#include "bench/classic/run.h"
#include "bench/zones/zones.h"
#include "lib/diag.h"
#include "report/cmd_report.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "run", cmd_run, "the classic suite (default): bonnie++'s twelve tests" },
	{ "matrix", cmd_matrix, "block size x threads x pattern x read mix (XDISK)" },
	{ "info", cmd_info, "what clyde detects about a target, or an image" },
	{ "zones", cmd_zones, "throughput across a device or file, zone by zone (zcav)" },
	{ "report", cmd_report, "compare runs of clyde, bonnie++ and fio: HTML, CSV, text" },
	{ "clean", cmd_clean, "remove what a killed clyde left in a directory" },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

/* " run matrix ..." into buf. */
static const char *command_names(char *buf, size_t len)
{
	size_t i, k = 0;

	buf[0] = '\0';
	for (i = 0; i < NCOMMANDS && k < len; i++)
		k += (size_t)snprintf(buf + k, len - k, " %s",
				      commands[i].name);
	return buf;
}

int main(int argc, char **argv)
{
	char names[128];
	size_t i;

	/* what the marker of a directory clyde makes names */
	rundir_set_command(argc, argv);
	if (argc > 1 && argv[1][0] != '-') {
		for (i = 0; i < NCOMMANDS; i++)
			if (!strcmp(argv[1], commands[i].name))
				return commands[i].fn(argc - 1, argv + 1);
		diag_error("'%s' is not a clyde command; commands:%s (see "
			   "clyde --help)", argv[1], command_names(names,
			   sizeof(names)));
		return 2;
	}
	if (argc > 1 && (!strcmp(argv[1], "--help") ||
			 !strcmp(argv[1], "-h"))) {
		int rc = cmd_run(argc, argv);

		printf("\nCommands (clyde COMMAND --help for each):\n");
		for (i = 0; i < NCOMMANDS; i++)
			printf("  %-8s %s\n", commands[i].name,
			       commands[i].summary);
		return rc;
	}
	return cmd_run(argc, argv);
}
