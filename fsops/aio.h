/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef CLYDE_AIO_H
#define CLYDE_AIO_H

/*
 * The libaio engine (io_submit/io_getevents, queue depth per context).
 * Its ops table is io_engine_libaio in engine.h; this header only says
 * whether the kernel lets us use it.
 */

/* 0 when an AIO context can be set up, else -errno (e.g. -EAGAIN when
 * fs.aio-max-nr is exhausted, -ENOSYS without AIO). */
int aio_probe(void);

#endif
