/* A rendezvous through a file on shared storage, the way processes on
 * several nodes agree on one NCCL unique id: rank 0 publishes the bytes
 * (written aside, then renamed into place, so a reader never sees half),
 * the other ranks wait for a file no older than their own start. */
#ifndef RS_RENDEZVOUS_H
#define RS_RENDEZVOUS_H

#include <stddef.h>
#include <time.h>

#include "core/error.h"

/* Before any work: whether `rank` can use the rendezvous file path (the
 * --rendezvous path and an algorithm's name). Rank 0 writes it (through
 * files.c: a past job's file is replaced; a folder, a FIFO, a device or a
 * link refused); a waiting rank refuses at once what is there and is no
 * file, since rank 0 would never write it. */
rs_status rs_rendezvous_check(const char *path, int rank, rs_error *err);

/* Write the n bytes to path. */
rs_status rs_rendezvous_publish(const char *path, const void *bytes, size_t n, rs_error *err);

/* Wait up to timeout_s seconds for path to hold exactly n bytes written at
 * `not_before` or later (an older file is a past run's: ignored), then read
 * them. RS_E_IO on timeout, with what is at path if anything (a folder, a
 * past job's file, a file of another size). */
rs_status rs_rendezvous_wait(const char *path, void *bytes, size_t n, time_t not_before,
                             double timeout_s, rs_error *err);

/* The wait a rank allows rank 0: REDSCOPE_RENDEZVOUS_TIMEOUT seconds (more
 * than 0, at most a day), 120 where it is unset; RS_E_USAGE for any other
 * value. */
rs_status rs_rendezvous_timeout(double *seconds, rs_error *err);

#endif
