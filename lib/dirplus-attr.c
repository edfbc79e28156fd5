/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dirplus-attr.c -- shared piece: GNU ls 9.1's attribute rules (which bits
   a request asks for, which of them an entry needs, how an xattr name
   list answers them, what a failed query means) and the per-device
   "xattrs unsupported" latch.

   Layering (see the map in dirplus-impl.h): a shared piece, called by
   dirplus.c (dirplus_stat, dirplus_file_has_acl), the backends,
   dirplus-stat.c and dirplus-batch.c; calls nothing of the library.  */

#include <config.h>

#include "dirplus-impl.h"

#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/sysmacros.h>

/** The attribute bits the request FLAGS ask for.  */
unsigned int
dirplus_wanted_attrs (unsigned int flags)
{
  unsigned int bits = 0;
  if (flags & DIRPLUS_WANT_ACL)
    bits |= DIRPLUS_ATTR_ACL;
  if (flags & DIRPLUS_WANT_LABEL)
    bits |= DIRPLUS_ATTR_LABEL;
  if (flags & DIRPLUS_WANT_CAP)
    bits |= DIRPLUS_ATTR_CAP;
  return bits;
}

/* Devices whose filesystem said "unsupported" for some attribute bits
   (a small ring of the most recent ones).  The helper thread of
   dirplus-batch.c and the remote pool read it too: readers use relaxed
   atomic loads (a stale answer only costs one more probe, bits only ever
   grow), writers a lock.  */
enum { N_UNSUPPORTED = 16 };
static struct { dev_t dev; unsigned int bits; } unsupported[N_UNSUPPORTED];
static size_t n_unsupported;
static pthread_mutex_t unsupported_lock = PTHREAD_MUTEX_INITIALIZER;

/** Whether ERR means the filesystem has no xattr support.  */
bool
dirplus_errno_unsupported (int err)
{
  return err == ENOTSUP || err == EOPNOTSUPP || err == ENOSYS;
}

/** The attribute bits known unsupported on DEV.  */
unsigned int
dirplus_dev_unsupported (dev_t dev)
{
  size_t n = __atomic_load_n (&n_unsupported, __ATOMIC_ACQUIRE);
  if (N_UNSUPPORTED < n)
    n = N_UNSUPPORTED;
  for (size_t i = 0; i < n; i++)
    if (__atomic_load_n (&unsupported[i].dev, __ATOMIC_RELAXED) == dev)
      return __atomic_load_n (&unsupported[i].bits, __ATOMIC_RELAXED);
  return 0;
}

/** Remember that DEV does not support attribute BITS.  */
void
dirplus_dev_mark_unsupported (dev_t dev, unsigned int bits)
{
  pthread_mutex_lock (&unsupported_lock);
  size_t n = n_unsupported < N_UNSUPPORTED ? n_unsupported : N_UNSUPPORTED;
  size_t i;
  for (i = 0; i < n; i++)
    if (unsupported[i].dev == dev)
      break;
  if (i == n)
    {
      /* A new slot: its bits first, then the device, then the count.  */
      i = n_unsupported % N_UNSUPPORTED;
      __atomic_store_n (&unsupported[i].bits, 0, __ATOMIC_RELAXED);
      __atomic_store_n (&unsupported[i].dev, dev, __ATOMIC_RELAXED);
      __atomic_store_n (&n_unsupported, n_unsupported + 1, __ATOMIC_RELEASE);
    }
  __atomic_or_fetch (&unsupported[i].bits, bits, __ATOMIC_RELAXED);
  pthread_mutex_unlock (&unsupported_lock);
}

/** The device of stat'ed entry E.  */
dev_t
dirplus_entry_dev (const struct dirplus_entry *e)
{
  return makedev (e->stx.stx_dev_major, e->stx.stx_dev_minor);
}

/** The attribute bits still to compute for E (see dirplus-impl.h).  */
unsigned int
dirplus_attrs_needed (struct dirplus_entry *e, unsigned int flags)
{
  unsigned int bits = dirplus_wanted_attrs (flags);
  e->attr = 0;
  e->attr_unknown = 0;
  e->attr_errno = 0;
  if (!bits)
    return 0;
  if (e->stat_errno || (flags & DIRPLUS_NO_STAT))
    {
      e->attr_unknown = bits;
      e->attr_errno = e->stat_errno;
      return 0;
    }
  mode_t mode = e->stx.stx_mode;
  /* GNU ls never asks for the ACL of a symlink it does not follow.  */
  if (S_ISLNK (mode))
    bits &= DIRPLUS_ATTR_LABEL;
  if (!S_ISDIR (mode))
    bits &= ~DIRPLUS_ATTR_ACL_DEFAULT;
  /* Capabilities only matter (and only exist) on regular files.  */
  if (!S_ISREG (mode))
    bits &= ~DIRPLUS_ATTR_CAP;
  if (bits)
    bits &= ~dirplus_dev_unsupported (dirplus_entry_dev (e));
  return bits;
}

/** Set E's attribute bits among BITS from the xattr name LIST.  */
void
dirplus_attrs_from_list (struct dirplus_entry *e, unsigned int bits,
                         const char *list, size_t len)
{
  unsigned int found = 0;
  for (const char *p = list, *end = list + len; p < end;
       p += strlen (p) + 1)
    {
      /* GNU 9.1 marks POSIX ACLs only: an NFSv4 ACL (system.nfs4_acl)
         never gives a '+'.  */
      if (strncmp (p, "system.", 7) == 0)
        {
          if (strcmp (p + 7, "posix_acl_access") == 0)
            found |= DIRPLUS_ATTR_ACL_ACCESS;
          else if (strcmp (p + 7, "posix_acl_default") == 0)
            found |= DIRPLUS_ATTR_ACL_DEFAULT;
        }
      else if (strncmp (p, "security.", 9) == 0)
        {
          if (strcmp (p + 9, "selinux") == 0)
            found |= DIRPLUS_ATTR_LABEL;
          else if (strcmp (p + 9, "capability") == 0)
            found |= DIRPLUS_ATTR_CAP;
        }
    }
  e->attr |= found & bits;
}

/** Record a failed attribute query (errno ERR) for E's BITS.  */
void
dirplus_attrs_failed (struct dirplus_entry *e, unsigned int bits, int err)
{
  if (dirplus_errno_unsupported (err))
    {
      /* Known absent, and never asked again on this filesystem.  */
      dirplus_dev_mark_unsupported (dirplus_entry_dev (e), bits);
      return;
    }
  e->attr_unknown |= bits;
  e->attr_errno = err;
}
