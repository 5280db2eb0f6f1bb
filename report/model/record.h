/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_RECORD_H
#define CLYDE_RECORD_H

/*
 * The run record: everything one run measured and what it ran on.  Every
 * output (text, JSON, CSV, later HTML) is written from a record, never from
 * the measuring code.  report/ never includes bench/ or fsops/ headers, so a
 * record read back from a file of another machine is as good as a fresh one.
 */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/model/histogram.h"

#define RECORD_SCHEMA_VERSION 1

/*
 * Parameter keys the writers read (bonnie++'s CSV and text need them); the
 * options code writes them.  All are plain decimal strings in bytes or
 * counts: file_size, chunk_size, max_size, min_size and file_chunk_size in
 * bytes (max_size -1: hard links, -2: symlinks), num_files the real count
 * (-n 16 is 16384), num_dirs 0 or 1 for one directory.
 */
#define PARAM_FILE_SIZE		"file_size"
#define PARAM_CHUNK_SIZE	"chunk_size"
#define PARAM_SEEKS		"seeks"
#define PARAM_SEEKERS		"seekers"
#define PARAM_NUM_FILES		"num_files"
#define PARAM_MAX_SIZE		"max_size"
#define PARAM_MIN_SIZE		"min_size"
#define PARAM_NUM_DIRS		"num_dirs"
#define PARAM_FILE_CHUNK_SIZE	"file_chunk_size"
#define PARAM_SEED		"seed"
#define PARAM_CONCURRENCY	"concurrency"

enum result_status {
	RESULT_NOT_RUN = 0,	/* fields stay empty in every format */
	RESULT_OK,
	RESULT_FAILED,		/* reason says why; value may be partial */
	RESULT_SKIPPED,		/* reason says why */
};

/*
 * Why a result or matrix cell is not (wholly) measured, as data; the text
 * in its reason is worded from it by result_reason_word(), never parsed
 * back (only an old record's text is read, by the JSON reader).
 */
enum reason_kind {
	REASON_NONE = 0,	/* ok, or the reason is the text alone (a
				 * failure's cause, an imported tool's) */
	REASON_INTERRUPTED,	/* a signal cut it short: signal (0 when
				 * not known: a worker told to stop) */
	REASON_NOT_RUN,		/* not reached: the run stopped before it
				 * (signal when a signal stopped it) or the
				 * detail says why (an earlier test failed) */
};

/* result flags */
#define RESULT_LOW_PRECISION	0x1u	/* shorter than RESULT_MIN_ELAPSED */
#define RESULT_CACHED		0x2u	/* read phase started > 10 % resident */
#define RESULT_DIRECT_IGNORED	0x4u	/* O_DIRECT asked, page cache filled anyway */
#define RESULT_STONEWALLED	0x8u	/* --stonewall ended the phase early */
#define RESULT_STOPPED		0x10u	/* stopped and continued (SIGSTOP,
					 * SIGCONT) inside its timed span */

/* What RESULT_STOPPED means, as every writer words it. */
#define RECORD_STOPPED_TEXT "the process was stopped (SIGSTOP or SIGTSTP) " \
	"and continued inside the timed span: the time it stood still is in " \
	"the figures"

#define RESULT_MIN_ELAPSED 0.5	/* seconds; bonnie++ prints +++++ below */
#define RESULT_CACHED_FRACTION 0.10

/*
 * One test's result.  name is the test's stem in bonnie++'s CSV header
 * ("putc", "put_block", "rewrite", "getc", "get_block", "seeks",
 * "seq_create", "seq_stat", "seq_del", "ran_create", "ran_stat", "ran_del").
 */
struct result {
	/* model strings (record_strdup), "" rather than NULL in a record */
	char *name;
	char *title;		/* "Block write" */
	char *unit;		/* "KiB/s", "seeks/s", "files/s" */
	enum result_status status;
	unsigned flags;
	char *reason;		/* failed or skipped: why (owned) */
	enum reason_kind reason_kind;	/* what reason says, as data */
	int signal;		/* REASON_INTERRUPTED, _NOT_RUN: the signal
				 * that stopped the run, 0 none or unknown */
	double value;		/* rate in unit */
	double cpu;		/* % of one CPU: (user + sys) / elapsed */
	uint64_t ops;		/* operations timed into lat */
	uint64_t bytes;		/* bytes moved (0 for metadata tests) */
	double elapsed;		/* seconds */
	double residency;	/* fraction cached at phase start; < 0: n/a */
	struct histogram lat;	/* per-operation latency, ns */
	/*
	 * An imported tool's own latency summary of lat (fio's listed
	 * percentiles; report/model/histogram.h), which every writer shows
	 * instead of the histogram's while it applies (hist_summarize_exact);
	 * NULL: none, the histogram's.  Owned.
	 */
	struct hist_exact *exact;
	/*
	 * Each worker's own share when several ran in step (-c N, several
	 * -d, MPI ranks; report/worker_rows.h); the fields above are then
	 * the aggregate.  NULL and 0 for a single worker.
	 */
	struct worker_row *workers;
	size_t nworkers;
	/*
	 * The layers under the file that a read phase evicted or could not
	 * (loop backing files, virtual disks, write-back caches), each with
	 * what was done and its residency measured after eviction
	 * (report/layers.h).  NULL and 0 when there were none.
	 */
	struct result_layer *layers;
	size_t nlayers;
};

/* A cache below the filesystem, as a read phase found it. */
struct result_layer {
	char *name;		/* "loop0 backing file /srv/img", "vda" */
	char *kind;		/* "loop", "disk"... */
	char *state;		/* "evicted and verified", "evicted, not
				 * verifiable", "not evictable" */
	double residency;	/* after eviction, 0..1; < 0 not measured */
	char *note;		/* why not, and the remedy; NULL */
};

/*
 * One worker's figures of a test.  first_s and last_s are the start of its
 * first and the end of its last operation, in seconds after the release of
 * the test's barrier (on one host the shared monotonic clock; across MPI
 * hosts each rank's own clock from the same barrier).
 */
struct worker_row {
	int worker;		/* 0..N-1; the MPI rank */
	char *host;
	char *dir;		/* its -d */
	double value;		/* its own rate, in the result's unit */
	double cpu;		/* % of one CPU over its own elapsed */
	uint64_t ops;
	uint64_t bytes;
	double elapsed;		/* its own, seconds */
	double first_s;
	double last_s;
	enum result_status status;
	char *reason;		/* failed: why (owned) */
};

struct record_kv {
	char *key;
	char *value;
	int numeric;		/* value is a JSON number; RECORD_LIST: a
				 * comma list, a JSON array */
};

/* record_kv.numeric of a list option's param: "8192,16384" is written as
 * the JSON array [8192,16384] (one value too: [8192]), read back joined. */
#define RECORD_LIST 2

/* Virtualization of the host (report/target_rec.h): evidence-based. */
struct record_virt {
	int vm;			/* 1 a guest, 0 no sign of one, -1 unknown */
	char *hypervisor;	/* "KVM", "VMware"...; NULL unknown */
	char *emulation;	/* "tcg" when the CPU is emulated; NULL */
	char *dmi_vendor;
	char *dmi_product;
	char *evidence;		/* what the claims rest on */
};

struct record_host {
	char *hostname;
	char *kernel;		/* uname -r */
	char *cpu_model;
	long cores;
	uint64_t ram;		/* bytes */
	struct record_virt *virt;	/* NULL: not detected */
};

/*
 * The device stack under the target (report/target_rec.h): devices in
 * depth-first order, each naming the index of its holder (-1: top), with
 * kind ("disk", "partition", "loop", "file", "md", "dm", "btrfs",
 * "overlay"...) and the fields sysfs gave; fs holds the filesystem's own
 * geometry (xfs sunit/swidth/agcount, ext stride/journal mode, btrfs
 * profiles) and inode counts.
 */
struct record_device {
	char *kind;
	char *name;
	int parent;
	struct record_kv *fields;
	size_t nfields;
};

struct record_stack {
	struct record_kv *fs;
	size_t nfs;
	struct record_device *devs;
	size_t ndevs;
};

/* What the run's directory lives on (libmount + statvfs). */
struct record_target {
	char *path;		/* -d as given */
	char *mountpoint;
	char *fstype;
	char *source;
	char *vfs_options;	/* per-mount: rw,noatime */
	char *fs_options;	/* superblock: attr2,inode64 */
	uint64_t block_size;	/* statvfs f_bsize */
	uint64_t total_bytes;
	uint64_t free_bytes;	/* available to the user at start */
	struct record_stack *stack;	/* NULL: not detected */
};

struct record_matrix;
struct record_zones;

struct record {
	int schema;
	char *tool;		/* "clyde" */
	char *version;
	char *start;		/* UTC ISO 8601, "2026-11-29T19:09:37Z" */
	char *end;
	char *label;		/* -m; defaults to the host name */
	int repetition;		/* 1..N with -x N */
	int exit_status;	/* 0 ok, 1 a test failed, 128+sig interrupted */
	struct record_host host;
	struct record_target target;
	/*
	 * Several -d: every directory's target with its stack, in -d order
	 * ([0] is the directory target describes); NULL and 0 for one.
	 */
	struct record_target *targets;
	size_t ntargets;
	struct record_kv *params;	/* every setting, defaults included */
	size_t nparams;
	struct record_kv *tags;		/* --tag key=value */
	size_t ntags;
	struct result *results;		/* in run order */
	size_t nresults;
	char **warnings;
	size_t nwarnings;
	/* `clyde matrix`: the cells (report/matrix.h); NULL otherwise */
	struct record_matrix *matrix;
	/* `clyde zones`: the sweeps (report/zones.h); NULL otherwise */
	struct record_zones *zones;
	/*
	 * Where an imported record came from: "FILE:LINE (format)"; NULL
	 * for a fresh run.  Not written to JSON (the reader sets it).
	 */
	char *source;
};

struct record *record_new(void);
void record_free(struct record *rec);

/* Set (or replace) a parameter; numeric ones are written as JSON numbers. */
void record_set_param(struct record *rec, const char *key, const char *value,
		      int numeric);
/* The parameter's value, or NULL. */
const char *record_param(const struct record *rec, const char *key);
/*
 * The parameter as a whole decimal integer: 0 and *out set, or -1 when it
 * is absent or not an integer (*out untouched).
 */
int record_param_int(const struct record *rec, const char *key,
		     int64_t *out);

void record_add_tag(struct record *rec, const char *key, const char *value);

__attribute__((format(printf, 2, 3)))
void record_warn(struct record *rec, const char *fmt, ...);

/*
 * Append a result in state RESULT_NOT_RUN with an empty histogram.  The
 * returned pointer is valid until the next record_add_result().
 */
struct result *record_add_result(struct record *rec, const char *name,
				 const char *title, const char *unit);
struct result *record_find(const struct record *rec, const char *name);

/*
 * A status's name, the same in every format: "not_run", "ok", "failed",
 * "skipped" (an out-of-range value reads as "failed").
 */
const char *result_status_name(enum result_status st);
/* *st = the status called name: 0, or -1 when there is none. */
int result_status_parse(const char *name, enum result_status *st);
/*
 * Whether a result (or matrix cell) of this reason kind and signal was
 * stopped by a signal rather than failed: cut short, or not run because
 * a signal stopped the run.
 */
int result_interrupted(enum reason_kind kind, int sig);

/* "interrupted", "not_run" (NULL for REASON_NONE), as JSON names them. */
const char *reason_kind_name(enum reason_kind kind);
/* *kind = the kind called name: 0, or -1 when there is none. */
int reason_kind_parse(const char *name, enum reason_kind *kind);

/* "SIGINT", "SIGTERM", "SIGHUP", else "a signal". */
const char *reason_signal_name(int sig);

/*
 * The one wording of a reason, every writer's and the run's own:
 *   REASON_INTERRUPTED  "interrupted by signal 2 (SIGINT)", "interrupted"
 *                       (+ ": detail" when there is one)
 *   REASON_NOT_RUN      "not run: detail", else "not run: interrupted by
 *                       signal 2 (SIGINT)", else "not run"
 *   REASON_NONE         detail ("" when NULL)
 */
void result_reason_word(char *buf, size_t len, enum reason_kind kind,
			int sig, const char *detail);

/*
 * A reason of this kind without the "not run: " its wording put in front,
 * for a writer that says "not run" itself; reason as it is otherwise.
 */
const char *result_reason_rest(enum reason_kind kind, const char *reason);

/*
 * Store reason kind and signal, and the reason worded from them
 * (result_reason_word), in the fields of a result or a matrix cell.
 */
void result_reason_store(char **reason, enum reason_kind *kind_out,
			 int *sig_out, enum reason_kind kind, int sig,
			 const char *detail);

/*
 * Set status, reason kind and signal of a result, and its reason worded
 * from them (result_reason_word).
 */
void result_set_reason(struct result *res, enum result_status status,
		       enum reason_kind kind, int sig, const char *detail);

/* Set status and reason (printf-style, may be NULL) of a result. */
__attribute__((format(printf, 3, 4)))
void result_set_status(struct result *res, enum result_status status,
		       const char *fmt, ...);

/* Duplicate a string into a record field, replacing the old value. */
void record_set_str(char **field, const char *value);

/*
 * A record's strings: its own (the default), or from the process's pool
 * of strings kept once (report/model/intern.h), which `clyde report`
 * turns on before it reads: thousands of records then share their names,
 * keys and devices.  Either way a model string is made by record_strdup
 * (or record_set_str), never changed in place, and given back by
 * record_str_free, which leaves the pool's alone; a string made by malloc
 * (xasprintf) may be stored too and is freed as ever.  Turned off, the
 * pool is emptied: every record that used it must be freed before.
 */
void record_strings_interned(int on);
/* s as a model string; NULL stays NULL. */
char *record_strdup(const char *s);
/* s (malloc'ed) as a model string: s itself, or the pool's (s freed). */
char *record_str_keep(char *s);
void record_str_free(char *s);

/* Current UTC time as ISO 8601 into a new string. */
char *record_now_iso8601(void);

/*
 * Writers.  Each writes one complete unit and returns 0, or -1 with errno
 * set when the stream fails.
 */

/* One JSON object on one line, newline-terminated (json-c). */
int record_write_json(const struct record *rec, FILE *out);

/*
 * Parse one JSON line back into a new record; NULL on failure with the
 * reason in err (errlen bytes, the caller's).
 */
struct record *record_read_json(const char *line, char *err, size_t errlen);

/*
 * The same for many lines, one after another (a file of records): the
 * reader keeps the arena of its tree (report/json/jtree.h) from line to
 * line, and allocates nothing more once it has read the longest.
 */
struct record_reader;
struct record_reader *record_reader_new(void);
struct record *record_reader_read(struct record_reader *rr, const char *line,
				  char *err, size_t errlen);
void record_reader_free(struct record_reader *rr);

/* bonnie++ 1.98 CSV line (50 fields), newline-terminated. */
int record_write_bonnie_csv(const struct record *rec, FILE *out);

/* bonnie++'s 80-column table, then what bonnie++ lacks. */
int record_write_text(const struct record *rec, FILE *out);

#endif
