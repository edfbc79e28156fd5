/* dirplus-sync.c -- the portable backend: getdents64, then per entry one
   statx relative to the directory fd and at most one listxattr (none when
   no attribute bit is asked, none on a filesystem known to lack xattrs).  */

#include <config.h>

#include "dirplus-impl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

/** Stat entry E relative to DIRFD and fill its attribute bits.  */
void
dirplus_sync_entry (int dirfd, struct dirplus_entry *e, unsigned int mask,
                    unsigned int flags)
{
  bool follow = flags & DIRPLUS_FOLLOW;
  if (!(flags & DIRPLUS_NO_STAT))
    {
      int atflags = AT_NO_AUTOMOUNT | (follow ? 0 : AT_SYMLINK_NOFOLLOW);
      if (dirplus_wanted_attrs (flags))
        mask |= STATX_TYPE;
      dirplus_counters.stat_calls++;
      if (statx (dirfd, e->name, atflags, mask, &e->stx) < 0)
        {
          e->stat_errno = errno;
          memset (&e->stx, 0, sizeof e->stx);
        }
    }

  unsigned int bits = dirplus_attrs_needed (e, flags);
  if (bits)
    dirplus_sync_attrs (dirfd, e, bits, follow);
}

/** Fill attribute BITS of stat'ed entry E (relative to DIRFD) from one
    listxattr (more only if the list is longer than 1 KiB).  */
void
dirplus_sync_attrs (int dirfd, struct dirplus_entry *e, unsigned int bits,
                    bool follow)
{
  char small[1024];
  char *list = small;
  ssize_t n = dirplus_listxattr_at (dirfd, e->name, follow, list,
                                    sizeof small);
  /* A long list: ask for its size, then read it (it may still grow).  */
  for (int tries = 0; n < 0 && errno == ERANGE && tries < 4; tries++)
    {
      ssize_t size = dirplus_listxattr_at (dirfd, e->name, follow, NULL, 0);
      if (size < 0)
        break;
      char *p = realloc (list == small ? NULL : list, size + 1);
      if (!p)
        break;
      list = p;
      n = dirplus_listxattr_at (dirfd, e->name, follow, list, size + 1);
    }
  if (n < 0)
    dirplus_attrs_failed (e, bits, errno);
  else
    dirplus_attrs_from_list (e, bits, list, n);
  if (list != small)
    free (list);
}

/** Read the next batch of D: getdents64, then stat each entry.  */
static ssize_t
sync_read (struct dirplus_dir *d)
{
  ssize_t n = dirplus_getdents_batch (d);
  for (ssize_t i = 0; i < n; i++)
    dirplus_sync_entry (d->fd, &d->ents[i], d->mask, d->flags);
  return n;
}

const struct dirplus_ops dirplus_sync_ops = { sync_read };
