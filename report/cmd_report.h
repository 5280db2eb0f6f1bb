/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_CMD_REPORT_H
#define CLYDE_CMD_REPORT_H

/*
 * `clyde report [options] FILE...`: read clyde JSON records, bonnie++ CSV
 * and fio JSON, and write one comparison as HTML (default), long CSV,
 * bonnie++ 1.98 lines or 80-column text.  Warnings about malformed input
 * go to stderr as "FILE:LINE: ..."; exit status 0, 1 when the output
 * cannot be written, 2 for bad usage or when no input has anything usable.
 */
int cmd_report(int argc, char **argv);

#endif
