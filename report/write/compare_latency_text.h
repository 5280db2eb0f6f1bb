/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_CMPLAT_H
#define CLYDE_CMPLAT_H

#include <stdio.h>

#include "report/analyze/compare.h"

/*
 * The latency tables of the text comparison: per test with latency, a row
 * per configuration with its operations and the latency summary of its
 * runs' histograms merged (only the maximum for bonnie++ lines).
 */
void cmplat_write_text(const struct compare *c, FILE *out);

#endif
