// SPDX-License-Identifier: GPL-2.0-only
#include "bench/classic/ioutil.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fsops/cache.h"
#include "fsops/target.h"
#include "lib/xalloc.h"
#include "report/model/layers.h"

#define MAX_LAYERS 16

const char *io_file_name(const struct bench_ctx *ctx)
{
	const char *slash = strrchr(ctx->path, '/');

	return slash ? slash + 1 : ctx->path;
}

int io_open(const struct bench_ctx *ctx, int flags, int direct,
	    struct result *res)
{
	int fd;

	/*
	 * Relative to the run directory's descriptor, never by path, and
	 * never through a symlink: a directory swapped for a symlink
	 * mid-run cannot send clyde to another directory (issue 13.6).
	 */
	flags |= O_CLOEXEC | O_NOFOLLOW;
	if (direct)
		flags |= O_DIRECT;
	fd = openat(ctx->dirfd, io_file_name(ctx), flags, 0600);
	if (fd < 0)
		return bench_fail(res, -errno,
				  (flags & O_CREAT) ? "create" : "open",
				  ctx->path);
	return fd;
}

int io_check_block_size(const struct bench_ctx *ctx, struct result *res)
{
	if (!ctx->io_size) {
		result_set_status(res, RESULT_FAILED,
				  "block size of '%s' is zero", ctx->path);
		return -EINVAL;
	}
	if (ctx->direct && ctx->align.offset &&
	    ctx->io_size % ctx->align.offset) {
		result_set_status(res, RESULT_FAILED,
				  "block size %zu is not a multiple of the direct I/O alignment %zu of '%s'",
				  ctx->io_size, ctx->align.offset, ctx->path);
		return -EINVAL;
	}
	return 0;
}

void *io_buffer(const struct bench_ctx *ctx, size_t size)
{
	size_t align = (size_t)sysconf(_SC_PAGESIZE);

	if (ctx->direct && ctx->align.mem > align)
		align = ctx->align.mem;
	return xmalloc_aligned(size, align);
}

int io_tail_buffered(const struct bench_ctx *ctx, int fd, size_t len,
		     struct result *res)
{
	int flags;

	if (!ctx->direct || !ctx->align.offset || !(len % ctx->align.offset))
		return 0;
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_DIRECT))
		return bench_fail(res, -errno, "fcntl", ctx->path);
	return 0;
}

int io_sync_close(const struct bench_ctx *ctx, int fd, struct result *res)
{
	if (fsync(fd)) {
		int err = -errno;

		close(fd);
		return bench_fail(res, err, "fsync", ctx->path);
	}
	return io_close(ctx, fd, res);
}

int io_close(const struct bench_ctx *ctx, int fd, struct result *res)
{
	if (close(fd))
		return bench_fail(res, -errno, "close", ctx->path);
	return 0;
}

int io_fail(const struct bench_ctx *ctx, struct result *res, int err,
	    const char *what)
{
	if (res->status == RESULT_FAILED)
		return err;
	return bench_fail(res, err, what, ctx->path);
}

int io_short_read(const struct bench_ctx *ctx, struct result *res)
{
	result_set_status(res, RESULT_FAILED,
			  "read '%s': unexpected end of file", ctx->path);
	return -EIO;
}

/* Is this host a virtual machine?  Asked once per process. */
static int host_is_vm(void)
{
	static int vm = -2;

	if (vm == -2) {
		struct host_info h;
		char *sig = host_cpuid_vendor();

		memset(&h, 0, sizeof(h));
		host_virt_detect(&h, sig);
		vm = h.vm;
		free(sig);
		host_release(&h);
	}
	return vm;
}

/*
 * Evict the caches under the file's filesystem (fsops/cache.h) and record
 * each layer in res; a layer clyde cannot evict becomes one caveat in the
 * record's warnings, naming it and the remedy.
 */
static void evict_below(const struct bench_ctx *ctx, struct result *res)
{
	struct cache_layer l[MAX_LAYERS];
	/* the directory clyde has open, wherever its path now leads */
	char *dir = xasprintf("/proc/self/fd/%d", ctx->dirfd);
	int done;
	/* the root helper when -u dropped the privileges (cache.h) */
	size_t i, n = cache_helper_evict_below(dir, host_is_vm(), l,
					       MAX_LAYERS, &done);

	if (!done)
		n = cache_evict_below(dir, host_is_vm(), l, MAX_LAYERS);

	result_free_layers(res);
	for (i = 0; i < n; i++) {
		result_add_layer(res, l[i].name, l[i].kind,
				 cache_layer_state_str(l[i].state),
				 l[i].residency, l[i].why[0] ? l[i].why : NULL);
		if (l[i].state == CACHE_NOT_EVICTABLE) {
			char *msg = xasprintf("cache below the file system not evictable: %s (%s): %s",
					      l[i].name, l[i].kind, l[i].why);

			io_warn_once(ctx, msg);
			free(msg);
		}
	}
	free(dir);
}

int io_probe_begin(const struct bench_ctx *ctx, off_t len, struct io_probe *p,
		   struct result *res)
{
	double r;
	int err;

	p->len = len;
	p->fd = io_open(ctx, O_RDONLY, 0, res);
	if (p->fd < 0)
		return p->fd;
	err = cache_evict(p->fd);
	if (err) {
		close(p->fd);
		p->fd = -1;
		return bench_fail(res, err, "evict", ctx->path);
	}
	evict_below(ctx, res);
	r = cache_residency(p->fd, len);
	res->residency = r < 0 ? -1 : r;
	if (r > RESULT_CACHED_FRACTION)
		res->flags |= RESULT_CACHED;
	return 0;
}

void io_probe_end(const struct bench_ctx *ctx, struct io_probe *p,
		  int check_direct, struct result *res)
{
	if (p->fd < 0)
		return;
	if (check_direct && ctx->direct &&
	    cache_residency(p->fd, p->len) > RESULT_CACHED_FRACTION)
		res->flags |= RESULT_DIRECT_IGNORED;
	close(p->fd);
	p->fd = -1;
}

void io_warn_once(const struct bench_ctx *ctx, const char *msg)
{
	size_t i;

	if (!ctx->rec)
		return;
	for (i = 0; i < ctx->rec->nwarnings; i++)
		if (!strcmp(ctx->rec->warnings[i], msg))
			return;
	record_warn(ctx->rec, "%s", msg);
}

void io_result_kib(struct result *res, uint64_t ops, uint64_t bytes,
		   uint64_t rate_bytes)
{
	res->ops = ops;
	res->bytes = bytes;
	res->value = res->elapsed > 0 ?
		(double)rate_bytes / 1024.0 / res->elapsed : 0;
	result_set_status(res, RESULT_OK, NULL);
}
