/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dirplus-uring.h -- what the two files of the uring backend share:
   dirplus-uring.c (batches: statx and xattr probes through the ring) and
   dirplus-uring-ring.c (the ring itself: setup, runs, closes).  Only
   they include it; the rest of the library sees the backend through
   dirplus-impl.h.  */

#ifndef DIRPLUS_URING_H
#define DIRPLUS_URING_H

#include "dirplus-impl.h"

#include <stdint.h>

#include <liburing.h>

/* user_data: entry index << 3 | kind; kinds 0-3 index PROBES.  */
enum { KIND_STATX = 4, KIND_CLOSE = 5, KIND_OPEN = 6 };
#define UD(i, kind) ((uint64_t) (i) << 3 | (kind))

/* A probe result not asked (yet).  */
#define NOT_ASKED INT32_MIN

/* Per-batch memory in D->scratch: the probe results (cqe->res, kept
   until the batch is done), then the probe paths.  */
struct probe_res
{
  int32_t res[4];
  int32_t linkfd;		/* an O_PATH fd of a symlink, or NOT_ASKED */
  unsigned int bits;		/* the bits the stat says are needed */
};

/* dirplus-uring-ring.c: submit the COUNT prepared SQEs (plus queued
   closes), wait for all their completions and record each result:
   statx failures in D's entries, probe results in RES.  0, or -1 with
   errno if the ring failed.  */
int dirplus_uring_run (struct dirplus_dir *d, unsigned int count,
                       struct probe_res *res);

/* dirplus-uring-ring.c: an SQE, running the ring first if the SQ is full
   (then *COUNT is reset); NULL with errno on a ring failure.  */
struct io_uring_sqe *dirplus_uring_get_sqe (struct dirplus_dir *d,
                                            unsigned int *count,
                                            struct probe_res *res);

/* dirplus-uring-ring.c: the free SQ entries.  */
unsigned int dirplus_uring_space_left (void);

/* dirplus-uring-ring.c: whether the ring failed (everything goes the
   sync way from then on).  */
bool dirplus_uring_broken (void);

/* dirplus-uring-ring.c: whether the ring can probe xattrs
   (IORING_OP_GETXATTR and /proc/self/fd for the paths).  */
bool dirplus_uring_can_getxattr (void);

/* dirplus-uring-ring.c: let io-wq run as many blocking operations at
   once as the remote pool would (once; for network filesystems).  */
void dirplus_uring_widen (void);

#endif /* DIRPLUS_URING_H */
