/* dirplus-uring.c -- the io_uring backend: getdents64 for names, then
   batched IORING_OP_STATX relative to the directory fd.  */

#include <config.h>

#include "dirplus-impl.h"

#include <errno.h>

/** Probe io_uring once: 0 if usable, -1 with errno.  */
int
dirplus_uring_probe (void)
{
  errno = ENOSYS;
  return -1;
}

/** Read the next batch of D.  */
static ssize_t
uring_read (struct dirplus_dir *d)
{
  return dirplus_sync_ops.read (d);
}

const struct dirplus_ops dirplus_uring_ops = { uring_read };
