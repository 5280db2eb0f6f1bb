/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_OPTIONS_H
#define CLYDE_OPTIONS_H

/*
 * The options of `clyde run`, as one table (bench/classic/options.c): it parses the
 * command line (bonnie++'s short options with bonnie++'s meaning, plus GNU
 * long options), prints --help, and writes every effective setting into the
 * run record.
 */

#include <stddef.h>
#include <stdio.h>

#include "bench/classic/config.h"
#include "bench/common_options.h"
#include "report/model/record.h"

/* Set every default (the values bonnie++ users expect, see BONNIE.md). */
void config_init(struct bench_config *cfg);
void config_release(struct bench_config *cfg);

/*
 * Parse argv (argv[0] is the command name) into cfg.  On OPTIONS_ERROR err
 * holds "-s: '12x' is not a size" style text naming the option.
 */
enum options_result options_parse(struct bench_config *cfg, int argc,
				  char **argv, char *err, size_t errlen);

/* Every setting, defaults included, into rec's params. */
void options_record(const struct bench_config *cfg, struct record *rec);

#endif
