/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_CONFIG_H
#define CLYDE_CONFIG_H

/*
 * Settings of a classic-suite run, filled from the options table
 * (bench/classic/options.c), which also prints --help and writes them all into the
 * run record.  Sizes are bytes.
 */

#include <stddef.h>
#include <stdint.h>

#include "lib/optable.h"

enum char_io {
	CHAR_IO_SYSCALL,	/* one byte per read(2)/write(2): bonnie++ 2.00 */
	CHAR_IO_STDIO,		/* putc/getc: bonnie++ 1.03 */
};

/* file tests: -n max_size values with a special meaning */
#define FILES_HARDLINKS (-1)
#define FILES_SYMLINKS (-2)


struct bench_config {
	char **dirs;			/* -d; none means "." */
	size_t ndirs;

	uint64_t file_size;		/* -s; 0 skips the I/O tests */
	int file_size_given;
	uint64_t chunk_size;		/* -s ...:chunk, 8192 */
	uint64_t seeks;			/* -s ...:seeks, 8192 */
	unsigned seekers;		/* -s ...:seekers, 5 */
	uint64_t char_size;		/* -f, 3 MiB; 0 skips per-char */
	int char_size_given;		/* else clipped to the file size */
	enum char_io char_io;		/* --char-io */
	uint64_t ram;			/* -r; 0: not given */

	uint64_t num_files;		/* -n num * 1024; 0 skips file tests */
	int64_t max_size;		/* -n :max, bytes or FILES_* */
	int64_t min_size;		/* -n ::min */
	uint64_t num_dirs;		/* -n :::dirs, 0 = files in one dir */
	uint64_t file_chunk_size;	/* -n ::::chunk, 8192 */

	char *label;			/* -m */
	unsigned repeats;		/* -x, 1 */
	char *user;			/* -u user[:group], resolved name */
	char *group;			/* -g or -u's group, resolved name */
	unsigned uid, gid;		/* valid when user_given/group_given */
	int user_given, group_given;
	int quiet;			/* -q */
	int sync_writes;		/* -b, as bonnie++ does it: every file
					   the create tests make is fsynced
					   with its directory, every delete
					   syncs the directory, every seek
					   update is fsynced */
	int fsync_writes;		/* --fsync-writes: fsync after every
					   write of the bulk tests (-b's
					   documented meaning) */
	int direct;			/* -D / --direct */
	uint64_t seed;			/* -z */
	int seed_given;

	char *json_path;		/* --json */
	char *csv_path;			/* --csv */
	struct opt_kv *tags;		/* --tag */
	size_t ntags, tags_alloc;
	uint64_t device_cache;		/* --device-cache */
	int bonnie_size;		/* --bonnie-size: -s = 2 x RAM */
	int drop_caches;		/* --drop-caches */

	/* concurrency (bench/parallel/workers.c, bench/parallel/semsync.c, bench/parallel/mpi.c) */
	unsigned procs;			/* -c / --procs: workers per -d, 1 */
	int sem_create;			/* -p given: create (N) or remove */
	long sem_procs;			/* -p N; -1 removes the set */
	char sync_mode;			/* -y: 's' semaphores, 'p' prompt */
	double sync_timeout;		/* --sync-timeout, seconds */
	double stonewall;		/* --stonewall: file phases, s; 0 off */
};

#endif
