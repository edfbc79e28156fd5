/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dirplus-getdents.c -- shared piece: a batch of names from getdents64
   (filtered, not stat'ed yet) and the memory of a batch (the entry array
   and the backend's scratch space in struct dirplus_dir).

   Layering (see the map in dirplus-impl.h): a shared piece, called by
   the backends (sync and uring read every batch this way, getdentsplus
   when no stat is asked); calls only dirplus-common.c (the counters).  */

#include <config.h>

#include "dirplus-impl.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

/** Make room for N entries in D->ents.  */
int
dirplus_reserve (struct dirplus_dir *d, size_t n)
{
  if (n <= d->cap)
    return 0;
  struct dirplus_entry *p = realloc (d->ents, n * sizeof *p);
  if (!p)
    return -1;
  d->ents = p;
  d->cap = n;
  return 0;
}

/** Make D->scratch at least SIZE bytes.  */
int
dirplus_scratch_reserve (struct dirplus_dir *d, size_t size)
{
  if (size <= d->scratch_size)
    return 0;
  char *p = realloc (d->scratch, size);
  if (!p)
    return -1;
  d->scratch = p;
  d->scratch_size = size;
  return 0;
}

/* What getdents64 writes.  */
struct linux_dirent64
{
  uint64_t d_ino;
  int64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[];
};

/** Read getdents64 buffers of D until one yields entries the filter keeps;
    store them (not stat'ed) in D->ents.  Returns their number, 0 at the
    end, -1 with errno.  */
ssize_t
dirplus_getdents_batch (struct dirplus_dir *d)
{
  d->nents = 0;
  while (!d->eof && d->nents == 0)
    {
      long n = syscall (SYS_getdents64, d->fd, d->buf, d->bufsize);
      __atomic_fetch_add (&dirplus_counters.batch_calls, 1,
                          __ATOMIC_RELAXED);
      if (n < 0)
        return -1;
      if (n == 0)
        {
          d->eof = true;
          break;
        }
      /* The smallest record is 24 bytes.  */
      if (dirplus_reserve (d, n / 24 + 1) < 0)
        return -1;
      for (long off = 0; off < n;)
        {
          struct linux_dirent64 *de = (void *) (d->buf + off);
          off += de->d_reclen;
          size_t len = strlen (de->d_name);
          if (d->filter && !d->filter (de->d_name, len, de->d_type,
                                       d->filter_arg))
            continue;
          struct dirplus_entry *e = &d->ents[d->nents++];
          memset (e, 0, sizeof *e);
          e->name = de->d_name;
          e->namelen = len;
          e->ino = de->d_ino;
          e->d_type = de->d_type;
        }
    }
  __atomic_fetch_add (&dirplus_counters.entries, d->nents, __ATOMIC_RELAXED);
  return d->nents;
}
