/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_RUN_H
#define CLYDE_RUN_H

/*
 * `clyde run`: the classic suite.  Parses the options, checks the target,
 * runs the tests (-x times), writes every requested output from the run
 * record, and returns the exit status: 0 success, 1 a test failed, 2 bad
 * usage or input, 128+N interrupted by signal N.
 */
int cmd_run(int argc, char **argv);

struct record;
struct host_info;
struct fs_target;

/*
 * Fill what every command's record shares: tool, version, start time,
 * label (the host name when NULL), repetition, host and target.  Used by
 * `clyde run` and `clyde matrix`.
 */
void record_fill_env(struct record *rec, const struct host_info *host,
		     const struct fs_target *target, const char *dir,
		     const char *label, unsigned repetition);

#endif
