/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dirplus-records.c -- shared piece: a buffer of getdentsplus records
   turned into a batch of entries.

   The module's call (dirplus-gdp.c) and the in-tree system call
   (dirplus-sys.c) return the same records: upstream/'s series kept the
   module's layout and the values of its record flags.  Their uapi
   headers cannot meet in one file (same name, same include guard, same
   struct name), so this file describes the layout itself (struct
   dirplus_rec in dirplus-impl.h) and each backend checks at compile time
   that its header agrees, field by field.

   Per record: the name checked against the buffer (never trust one),
   the end mark (the directory needs no further call), the directory's
   own record (its stat for dirplus_fstat), the filter, GNU ls's
   attribute rules on the kernel's bits, and what the kernel left to
   user space (a path walk of ours: stat'ed here, as the sync backend
   would).

   Layering (see the map in dirplus-impl.h): a shared piece, called by
   the two getdentsplus backends; calls the shared pieces
   dirplus-getdents.c (the batch's memory), dirplus-attr.c,
   dirplus-stat.c and dirplus-common.c.  */

#include <config.h>

#include "dirplus-impl.h"

#include <errno.h>
#include <string.h>

/** Fill entry E from record R (name NAME), for request FLAGS.  Returns
    false when the kernel left the entry to us (DIRPLUS_REC_UNRESOLVED;
    from a version 1 module: no error and nothing filled).  */
static bool
entry_from_record (struct dirplus_entry *e, const struct dirplus_rec *r,
                   const char *name, unsigned int flags)
{
  memset (e, 0, sizeof *e);
  e->name = name;
  e->namelen = r->namelen;
  e->ino = r->d_ino;
  e->d_type = r->d_type;
  if ((r->flags & DIRPLUS_REC_UNRESOLVED) || (!r->error && !r->stx.stx_mask))
    return false;
  e->stat_errno = r->error;
  if (!r->error)
    memcpy (&e->stx, &r->stx, sizeof e->stx);
  /* GNU's rules (no ACL of an unfollowed link, ...) on the kernel's bits;
     what the kernel could not decide is left to the caller.  */
  unsigned int bits = dirplus_attrs_needed (e, flags);
  e->attr = r->attr & bits;
  e->attr_unknown |= r->attr_unknown & bits;
  return true;
}

/** The name of record R of a buffer holding LEFT bytes from R on, or NULL
    when the record is malformed.  */
static const char *
record_name (const struct dirplus_rec *r, long left)
{
  const size_t hdr = offsetof (struct dirplus_rec, name);
  if (left < (long) DIRPLUS_REC_MIN)
    return NULL;
  size_t off = r->name_off ? r->name_off : hdr;
  if (r->reclen < DIRPLUS_REC_MIN || r->reclen % 8 || r->reclen > left
      || off < hdr || off + r->namelen + 1 > r->reclen)
    return NULL;
  const char *name = (const char *) r + off;
  if (name[r->namelen] != '\0' || memchr (name, '\0', r->namelen))
    return NULL;
  return name;
}

/** Append the N bytes of records in D->buf to D's batch (see
    dirplus-impl.h).  */
int
dirplus_records_add (struct dirplus_dir *d, long n, bool self_asked)
{
  if (dirplus_reserve (d, d->nents + n / DIRPLUS_REC_MIN + 1) < 0)
    return -1;
  for (long off = 0; off < n;)
    {
      const struct dirplus_rec *r = (const void *) (d->buf + off);
      const char *name = record_name (r, n - off);
      if (!name)
        {
          errno = EIO;		/* a malformed buffer */
          return -1;
        }
      off += r->reclen;
      if (r->flags & DIRPLUS_REC_END)
        d->eof = true;
      if (r->flags & DIRPLUS_REC_SELF)
        {
          if (!self_asked || r->namelen)
            {
              errno = EIO;	/* not what was asked */
              return -1;
            }
          d->have_st = true;
          d->st_errno = r->error;
          if (!r->error)
            dirplus_stx_to_stat (&r->stx, &d->st);
          continue;
        }
      if (d->filter && !d->filter (name, r->namelen, r->d_type,
                                   d->filter_arg))
        continue;
      struct dirplus_entry *e = &d->ents[d->nents];
      if (!entry_from_record (e, r, name, d->flags))
        /* Left to us: stat it here, as the sync backend would.  */
        dirplus_stat_entry (d->fd, e, d->mask, d->flags);
      d->nents++;
    }
  return 0;
}
