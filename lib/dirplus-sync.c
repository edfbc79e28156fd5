/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dirplus-sync.c -- the portable backend: getdents64, then per entry one
   statx relative to the directory fd and at most one listxattr (none when
   no attribute bit is asked, none on a filesystem known to lack xattrs).

   Layering (see the map in dirplus-impl.h): a backend, chosen by
   dirplus.c; it is only this composition of shared pieces: the names
   from dirplus-getdents.c, the stat of the batch from dirplus-batch.c
   (remote pool, helper thread), which the uring backend uses as well.  */

#include <config.h>

#include "dirplus-impl.h"

/** Read the next batch of D: getdents64, then stat each entry -- in the
    remote pool on a remote filesystem, shared with the helper thread on
    a big local batch, else one after another (dirplus-batch.c).  */
static ssize_t
sync_read (struct dirplus_dir *d)
{
  return dirplus_stat_batch (d, dirplus_getdents_batch (d));
}

const struct dirplus_ops dirplus_sync_ops = { .read = sync_read,
                                               .threads_ok = true };
