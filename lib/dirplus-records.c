/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dirplus-records.c -- shared piece: a buffer of getdentsplus records
   turned into a batch of entries.

   The module's call (dirplus-gdp.c) and the in-tree system call
   (dirplus-sys.c) return records of two layouts with the same header
   fields and record flags: the module's carries attribute bits of its
   own (present, not determined), the series' is a statx reply and
   nothing else (its ACL and label bits are statx's attributes,
   STATX_XATTR_INFO).  Their uapi headers cannot meet in one file (same
   name, same include guard, same struct name), so this file describes
   both layouts itself (struct dirplus_rec and dirplus_rec_sx in
   dirplus-impl.h), each backend checks at compile time that its header
   agrees, field by field, and says which layout its buffer holds.

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

/* One record of either layout, its fields read out.  */
struct rec_view
{
  uint64_t d_ino;
  uint32_t reclen;
  uint32_t name_off;		/* 0: right after the header */
  uint16_t namelen;
  uint8_t d_type;
  uint8_t flags;
  int32_t error;
  bool own_attrs;		/* the module's: ATTR and ATTR_UNKNOWN */
  uint32_t attr, attr_unknown;
  const struct statx *stx;
  size_t hdr, min;		/* the header's size, the smallest record */
};

/** Read the record of layout KIND at P, of a buffer holding LEFT bytes
    from P on, into *V; false when not even its header fits.  */
static bool
view_record (const char *p, long left, enum dirplus_rec_kind kind,
             struct rec_view *v)
{
  if (kind == DIRPLUS_RECS_MODULE)
    {
      const struct dirplus_rec *r = (const void *) p;
      if (left < (long) DIRPLUS_REC_MIN)
        return false;
      *v = (struct rec_view) {
        .d_ino = r->d_ino, .reclen = r->reclen, .name_off = r->name_off,
        .namelen = r->namelen, .d_type = r->d_type, .flags = r->flags,
        .error = r->error, .own_attrs = true, .attr = r->attr,
        .attr_unknown = r->attr_unknown, .stx = &r->stx,
        .hdr = offsetof (struct dirplus_rec, name), .min = DIRPLUS_REC_MIN,
      };
    }
  else
    {
      const struct dirplus_rec_sx *r = (const void *) p;
      if (left < (long) DIRPLUS_REC_SX_MIN)
        return false;
      *v = (struct rec_view) {
        .d_ino = r->d_ino, .reclen = r->reclen, .name_off = r->name_off,
        .namelen = r->namelen, .d_type = r->d_type, .flags = r->flags,
        .error = r->error, .stx = &r->stx,
        .hdr = offsetof (struct dirplus_rec_sx, name),
        .min = DIRPLUS_REC_SX_MIN,
      };
    }
  return true;
}

/** Fill entry E from record R (name NAME), for request FLAGS.  Returns
    false when the kernel left the entry to us (DIRPLUS_REC_UNRESOLVED;
    from a version 1 module: no error and nothing filled).  */
static bool
entry_from_record (struct dirplus_entry *e, const struct rec_view *r,
                   const char *name, unsigned int flags)
{
  memset (e, 0, sizeof *e);
  e->name = name;
  e->namelen = r->namelen;
  e->ino = r->d_ino;
  e->d_type = r->d_type;
  if ((r->flags & DIRPLUS_REC_UNRESOLVED) || (!r->error && !r->stx->stx_mask))
    return false;
  e->stat_errno = r->error;
  if (!r->error)
    memcpy (&e->stx, r->stx, sizeof e->stx);
  /* GNU's rules (no ACL of an unfollowed link, ...) on the kernel's bits;
     what the kernel could not decide is left to the caller.  */
  unsigned int bits = dirplus_attrs_needed (e, flags);
  if (r->own_attrs)
    {
      e->attr = r->attr & bits;
      e->attr_unknown |= r->attr_unknown & bits;
    }
  else if (bits)
    /* A statx reply: what its attributes determined (a local
       filesystem, STATX_XATTR_INFO asked), the rest unknown.  */
    e->attr_unknown |= dirplus_statx_attrs_apply (e, bits);
  return true;
}

/** The name of record R at P, of a buffer holding LEFT bytes from P on,
    or NULL when the record is malformed.  */
static const char *
record_name (const char *p, const struct rec_view *r, long left)
{
  size_t off = r->name_off ? r->name_off : r->hdr;
  if (r->reclen < r->min || r->reclen % 8 || r->reclen > left
      || off < r->hdr || off + r->namelen + 1 > r->reclen)
    return NULL;
  const char *name = p + off;
  if (name[r->namelen] != '\0' || memchr (name, '\0', r->namelen))
    return NULL;
  return name;
}

/** Append the N bytes of records of KIND in D->buf to D's batch (see
    dirplus-impl.h).  */
int
dirplus_records_add (struct dirplus_dir *d, long n, bool self_asked,
                     enum dirplus_rec_kind kind)
{
  size_t min = (kind == DIRPLUS_RECS_MODULE
                ? DIRPLUS_REC_MIN : DIRPLUS_REC_SX_MIN);
  if (dirplus_reserve (d, d->nents + n / min + 1) < 0)
    return -1;
  for (long off = 0; off < n;)
    {
      const char *p = d->buf + off;
      struct rec_view rv, *r = &rv;
      const char *name = (view_record (p, n - off, kind, r)
                          ? record_name (p, r, n - off) : NULL);
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
            dirplus_stx_to_stat (r->stx, &d->st);
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
