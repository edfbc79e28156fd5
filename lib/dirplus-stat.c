/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dirplus-stat.c -- shared piece: one entry the portable way -- its statx
   relative to the directory fd and its attribute bits (from the statx
   reply where it has the ACL and label attributes and they are in use:
   dirplus-statxattr.c; else one listxattr, or GNU ls 9.1's getxattr
   probes on a network filesystem) -- and the attribute bits the kernel
   module left unknown, resolved overlapped.

   Layering (see the map in dirplus-impl.h): a shared piece, called by
   dirplus-batch.c, by the uring and getdentsplus backends, and by
   dirplus.c's dirplus_stat; calls the shared pieces dirplus-attr.c,
   dirplus-xattr.c, dirplus-fs.c, dirplus-pool.c, dirplus-statxattr.c
   and dirplus-common.c.  */

#include <config.h>

#include "dirplus-impl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

/** Stat entry E relative to DIRFD and fill its attribute bits.  */
void
dirplus_stat_entry (int dirfd, struct dirplus_entry *e, unsigned int mask,
                    unsigned int flags)
{
  bool follow = flags & DIRPLUS_FOLLOW;
  if (!(flags & DIRPLUS_NO_STAT))
    {
      int atflags = AT_NO_AUTOMOUNT | (follow ? 0 : AT_SYMLINK_NOFOLLOW);
      if (dirplus_wanted_attrs (flags))
        mask |= STATX_TYPE;
      __atomic_fetch_add (&dirplus_counters.stat_calls, 1, __ATOMIC_RELAXED);
      if (statx (dirfd, e->name, atflags, mask, &e->stx) < 0)
        {
          e->stat_errno = errno;
          memset (&e->stx, 0, sizeof e->stx);
        }
      else
        dirplus_statx_reply (dirfd, e->name, mask, &e->stx);
    }

  unsigned int bits = dirplus_attrs_needed (e, flags);
  if (bits)
    dirplus_entry_attrs_after_statx (dirfd, e, bits, follow);
}

static int gnu_probes (const struct dirplus_entry *e, unsigned int bits);

/** Fill attribute BITS of stat'ed entry E (relative to DIRFD): those its
    statx reply determined from the reply (where the statx attributes
    are in use: dirplus-statxattr.c), the rest the old way
    (dirplus_entry_attrs).  The probes GNU 9.1 would have made for the
    bits the reply gave go to the threads' budget.  */
void
dirplus_entry_attrs_after_statx (int dirfd, struct dirplus_entry *e,
                                 unsigned int bits, bool follow)
{
  unsigned int rest = dirplus_statx_attrs_take (e, bits);
  if (rest != bits)
    dirplus_budget_add (gnu_probes (e, bits & ~rest));
  if (rest)
    dirplus_entry_attrs (dirfd, e, rest, follow);
}

static int probe_attrs (int dirfd, struct dirplus_entry *e,
                        unsigned int bits, bool follow);

/** Probe BITS of E the GNU way behind a list that did not name them
    (an empty list, or one naming them under another namespace).  A
    probe that finds one is a FUSE daemon whose list and answers
    disagree (or a file changing meanwhile): GNU's answer is the
    probe's, and the device's lists are not used any more.  Errors of
    the probes are not reported: the list answered.  Returns the calls
    made.  */
static int
probe_behind_list (int dirfd, struct dirplus_entry *e, unsigned int bits,
                   bool follow)
{
  unsigned int attr = e->attr, unknown = e->attr_unknown;
  int attr_errno = e->attr_errno;
  int calls = probe_attrs (dirfd, e, bits, follow);
  if (e->attr & ~attr)
    dirplus_dev_mark_unsupported (dirplus_entry_dev (e),
                                  DIRPLUS_DEV_NO_LIST);
  e->attr_unknown = unknown;
  e->attr_errno = attr_errno;
  return calls;
}

/** The calls GNU ls 9.1 makes for attribute BITS of E (E->attr set):
    one probe per bit, the default ACL only without an access ACL.  */
static int
gnu_probes (const struct dirplus_entry *e, unsigned int bits)
{
  int n = 0;
  for (unsigned int b = 1; b <= DIRPLUS_ATTR_CAP; b <<= 1)
    n += (bits & b) != 0;
  if ((bits & DIRPLUS_ATTR_ACL_DEFAULT) && (e->attr & DIRPLUS_ATTR_ACL_ACCESS))
    n--;
  return n;
}

/** After an empty xattr list of E (BITS asked): make GNU's probes of
    the bits not yet checked on E's device, once per device.  An empty
    list is also what a filesystem without xattr handlers answers
    (ramfs: the kernel's listxattr falls back to the security module's
    list, empty without one), where GNU 9.1's first probe says "not
    supported" and it stops asking; the same probes latch those bits
    off here, and no entry of the device is asked again.  Where the
    probes find nothing (ENODATA: ext4, tmpfs) nothing changes.  The
    bits are absent either way: an empty list names no ACL and no
    label (on a filesystem without handlers none can be stored, and a
    security module that labels inodes lists its label).  Returns the
    calls made.  */
static int
check_empty_list (int dirfd, struct dirplus_entry *e, unsigned int bits,
                  bool follow)
{
  dev_t dev = dirplus_entry_dev (e);
  unsigned int checked = (dirplus_dev_unsupported (dev)
                          >> DIRPLUS_DEV_CHECKED_SHIFT);
  unsigned int todo = bits & ~checked;
  /* The default ACL is probed with the access ACL (GNU's order).  */
  if (!(todo & ~DIRPLUS_ATTR_ACL_DEFAULT))
    return 0;
  dirplus_dev_mark_unsupported (dev, todo << DIRPLUS_DEV_CHECKED_SHIFT);
  return probe_behind_list (dirfd, e, todo, follow);
}

/** The attribute bits (among BITS, not in E->attr) whose xattr's name
    appears in the list LIST of LEN bytes under another namespace
    ("trusted.selinux" for "security.selinux"): squashfuse 0.1.105 lists
    a file's security.* xattrs as trusted.* while its getxattr answers
    the security.* name, and GNU, which asks for the name, sees them.  */
static unsigned int
misplaced_bits (const struct dirplus_entry *e, unsigned int bits,
                const char *list, size_t len)
{
  static const struct { const char *suffix, *prefix; unsigned int bit; }
  names[] =
    {
      { "selinux", "security.", DIRPLUS_ATTR_LABEL },
      { "capability", "security.", DIRPLUS_ATTR_CAP },
      { "posix_acl_access", "system.", DIRPLUS_ATTR_ACL_ACCESS },
      { "posix_acl_default", "system.", DIRPLUS_ATTR_ACL_DEFAULT },
    };
  unsigned int found = 0;
  bits &= ~e->attr;
  for (const char *p = list, *end = list + len; bits && p < end;
       p += strlen (p) + 1)
    {
      const char *dot = strchr (p, '.');
      if (!dot)
        continue;
      for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if ((bits & names[i].bit) && strcmp (dot + 1, names[i].suffix) == 0
            && strncmp (p, names[i].prefix, dot + 1 - p) != 0)
          found |= names[i].bit;
    }
  return found & bits;
}

/** After E's list named its label (BITS asked): whether E's device
    stores POSIX ACLs at all, asked with GNU's ACL probe once per device
    (unless the list named an ACL).  Where it does not (erofs or ext4
    mounted noacl, squashfs), GNU 9.1's first ACL probe says "not
    supported" and it asks only for the label from then on: one call per
    file, where a list naming the label costs two (the list and the
    label's size).  The latch set here makes dirplus_entry_attrs ask for
    the label alone on that device.  Returns the calls made.  */
static int
check_acl_support (int dirfd, struct dirplus_entry *e, unsigned int bits)
{
  dev_t dev = dirplus_entry_dev (e);
  unsigned int checked = DIRPLUS_ATTR_ACL << DIRPLUS_DEV_CHECKED_SHIFT;
  if (!(bits & DIRPLUS_ATTR_ACL_ACCESS)
      || (dirplus_dev_unsupported (dev) & (checked | DIRPLUS_ATTR_ACL)))
    return 0;
  dirplus_dev_mark_unsupported (dev, checked);
  if (e->attr & DIRPLUS_ATTR_ACL)
    return 0;
  /* getxattr follows, as GNU's file_has_acl (E is no symlink: BITS has
     an ACL bit).  */
  if (dirplus_getxattr_at (dirfd, e->name, "system.posix_acl_access", NULL,
                           0, true) < 0
      && dirplus_errno_unsupported (errno))
    dirplus_dev_mark_unsupported (dev, DIRPLUS_ATTR_ACL);
  return 1;
}

/** Fill attribute BITS of stat'ed entry E (relative to DIRFD) from one
    listxattr (more only if the list is longer than 1 KiB).  Returns 0,
    or -1 with errno when the filesystem says listxattr is unsupported
    (E untouched then).  The calls GNU 9.1 would have made beyond ours
    go to the threads' budget.  */
static int
list_attrs (int dirfd, struct dirplus_entry *e, unsigned int bits,
            bool follow)
{
  char small[1024];
  char *list = small;
  int calls = 1;
  ssize_t n = dirplus_listxattr_at (dirfd, e->name, follow, list,
                                    sizeof small);
  /* A long list: ask for its size, then read it (it may still grow).  */
  for (int tries = 0; n < 0 && errno == ERANGE && tries < 4; tries++)
    {
      ssize_t size = dirplus_listxattr_at (dirfd, e->name, follow, NULL, 0);
      calls++;
      if (size < 0)
        break;
      char *p = realloc (list == small ? NULL : list, size + 1);
      if (!p)
        break;
      list = p;
      calls++;
      n = dirplus_listxattr_at (dirfd, e->name, follow, list, size + 1);
    }
  int err = errno;
  int r = 0;
  if (n == 0)
    calls += check_empty_list (dirfd, e, bits, follow);
  else if (0 < n)
    {
      dirplus_attrs_from_list (e, bits, list, n);
      /* A list that names a label or an ACL under another namespace:
         ask for the real name, as GNU does; if it is there, this
         device's lists are not to be trusted (GNU's probes from now
         on).  */
      unsigned int odd = misplaced_bits (e, bits, list, n);
      if (odd)
        calls += probe_behind_list (dirfd, e, odd, follow);
      /* An empty label is no label (GNU, through libselinux): its size
         tells, one more call for a labelled file only (the probe of a
         misplaced one had it; a label its statx reply gave is not
         empty: dirplus-statxattr.c).  */
      if ((bits & e->attr & DIRPLUS_ATTR_LABEL)
          && !(odd & DIRPLUS_ATTR_LABEL)
          && (calls++, dirplus_getxattr_at (dirfd, e->name,
                                            "security.selinux", NULL, 0,
                                            follow) == 0))
        e->attr &= ~DIRPLUS_ATTR_LABEL;
      if (bits & e->attr & DIRPLUS_ATTR_LABEL)
        calls += check_acl_support (dirfd, e, bits);
    }
  else if (dirplus_errno_unsupported (err))
    r = -1;
  else
    dirplus_attrs_failed (e, bits, err);
  if (r == 0)
    dirplus_budget_add (gnu_probes (e, bits) - calls);
  if (list != small)
    free (list);
  errno = err;
  return r;
}

/** Probe one xattr XNAME of E the way GNU 9.1 does (lgetxattr for the
    label, getxattr for ACLs): its size (0 when absent), or -1 with errno
    for a real failure.  */
static ssize_t
probe_one (int dirfd, struct dirplus_entry *e, const char *xname,
           bool follow)
{
  ssize_t n = dirplus_getxattr_at (dirfd, e->name, xname, NULL, 0, follow);
  if (n < 0 && errno == ENODATA)
    return 0;
  return n;
}

/** Fill attribute BITS of stat'ed entry E with GNU ls 9.1's probes: the
    label, then the access ACL and (directories without one) the default
    ACL, the capability; a probe that says "unsupported" latches those
    bits off for the whole device, as 9.1's per-device caches do.
    Returns the calls made.  */
static int
probe_attrs (int dirfd, struct dirplus_entry *e, unsigned int bits,
             bool follow)
{
  static const struct { unsigned int bit, latch; const char *name; } probes[] =
    {
      { DIRPLUS_ATTR_LABEL, DIRPLUS_ATTR_LABEL, "security.selinux" },
      { DIRPLUS_ATTR_ACL_ACCESS, DIRPLUS_ATTR_ACL, "system.posix_acl_access" },
      { DIRPLUS_ATTR_ACL_DEFAULT, DIRPLUS_ATTR_ACL,
        "system.posix_acl_default" },
      { DIRPLUS_ATTR_CAP, DIRPLUS_ATTR_CAP, "security.capability" },
    };
  int calls = 0;
  for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++)
    {
      unsigned int bit = probes[i].bit;
      if (!(bits & bit))
        continue;
      /* An access ACL answers "has an ACL" (GNU stops there); a latch set
         meanwhile (by another thread too) saves the call.  */
      if ((bit == DIRPLUS_ATTR_ACL_DEFAULT
           && (e->attr & DIRPLUS_ATTR_ACL_ACCESS))
          || (dirplus_dev_unsupported (dirplus_entry_dev (e)) & bit))
        continue;
      /* The ACLs: getxattr, which follows (GNU's file_has_acl); only
         asked for what is not an unfollowed symlink anyway.  */
      bool f = bit == DIRPLUS_ATTR_LABEL ? follow : true;
      ssize_t n = probe_one (dirfd, e, probes[i].name, f);
      calls++;
      if (0 < n)
        e->attr |= bit;
      else if (n < 0)
        {
          int err = errno;
          dirplus_attrs_failed (e, bits & probes[i].latch, err);
          if (!dirplus_errno_unsupported (err))
            return calls; /* ls reports it (and asks again itself) */
        }
    }
  return calls;
}

/** Fill attribute BITS of stat'ed entry E (relative to DIRFD): one
    listxattr where that answers every bit at once, GNU's probes on a
    network filesystem (see dirplus-fs.c).  */
void
dirplus_entry_attrs (int dirfd, struct dirplus_entry *e, unsigned int bits,
                     bool follow)
{
  dev_t dev = dirplus_entry_dev (e);
  /* The label alone (a symlink not followed; any file where ACLs are
     latched off and no capability is asked for): GNU's one probe is
     never more calls than a list, and one fewer than a list naming the
     label, whose size must then be asked too (an empty label is none).  */
  if (bits != DIRPLUS_ATTR_LABEL
      && dirplus_fs_kind (dev) != DIRPLUS_FS_NET
      && !(dirplus_dev_unsupported (dev) & DIRPLUS_DEV_NO_LIST))
    {
      if (list_attrs (dirfd, e, bits, follow) == 0)
        return;
      /* No listxattr here: that says nothing about getxattr.  */
      dirplus_dev_mark_unsupported (dev, DIRPLUS_DEV_NO_LIST);
    }
  probe_attrs (dirfd, e, bits, follow);
}

/* Entries whose attribute bits the kernel module left unknown.  */
struct unknown_batch
{
  int dirfd;
  struct dirplus_entry *ents;
  unsigned int flags;
};

/** The bits of E still to resolve for request FLAGS: the unknown ones,
    for a stat'ed entry without an attribute error.  */
static unsigned int
unknown_bits (const struct dirplus_entry *e, unsigned int flags)
{
  if (e->stat_errno || e->attr_errno || (flags & DIRPLUS_NO_STAT))
    return 0;
  unsigned int bits = e->attr_unknown & dirplus_wanted_attrs (flags);
  if (bits)
    bits &= ~dirplus_dev_unsupported (dirplus_entry_dev (e));
  return bits;
}

/** The remote pool's work: resolve entry I of the batch ARG.  */
static void
unknown_entry (void *arg, size_t i)
{
  struct unknown_batch *b = arg;
  struct dirplus_entry *e = &b->ents[i];
  unsigned int bits = unknown_bits (e, b->flags);
  if (!bits)
    return;
  e->attr_unknown &= ~bits;
  dirplus_entry_attrs (b->dirfd, e, bits, b->flags & DIRPLUS_FOLLOW);
}

/** Resolve the unknown attribute bits of N entries ENTS (see
    dirplus-impl.h): in the pool when two or more need it.  */
void
dirplus_resolve_unknown (int dirfd, struct dirplus_entry *ents, size_t n,
                         unsigned int flags)
{
  struct unknown_batch b = { dirfd, ents, flags };
  /* The kernel stat'ed the batch in one call where GNU makes a statx
     per entry: the calls saved go to the threads' budget.  */
  if (1 < n && !(flags & DIRPLUS_NO_STAT))
    dirplus_budget_add (n - 1);
  size_t need = 0;
  for (size_t i = 0; i < n && need < 2; i++)
    need += unknown_bits (&ents[i], flags) != 0;
  /* On a network filesystem the bits are GNU's own probes, one call
     each as GNU makes them; made on the pool's threads, each is two
     lines of strace -f (the call and its resumption) and the threads'
     own calls come on top: more than GNU however many statx the module
     saved (issue 21: NFSv3, cold, 3.8 calls per entry against GNU's
     2.1).  They are made here, in turn, unless LSPLUS_REMOTE_THREADS
     asks for the pool.  */
  if (need == 2 && !dirplus_pool_forced ())
    for (size_t i = 0; i < n; i++)
      if (unknown_bits (&ents[i], flags))
        {
          if (dirplus_fs_kind (dirplus_entry_dev (&ents[i]))
              == DIRPLUS_FS_NET)
            need = 0;
          break;
        }
  if (need < 2)
    for (size_t i = 0; i < n; i++)
      unknown_entry (&b, i);
  else
    dirplus_pool_run (n, unknown_entry, &b);
}
