/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dirplus-statxattr.c -- shared piece: the ACL and label presence
   attributes of statx (upstream/statx-xattr-info/'s series), where they can
   stand for GNU ls 9.1's xattr probes.

   The series adds to <linux/stat.h> (values final; defined in
   dirplus-impl.h where the headers lack them):
     STATX_XATTR_INFO     request: determine the two attributes below even
                          where that needs I/O (set in stx_mask on return
                          when both were determined);
     STATX_ATTR_ACL       a POSIX ACL: an access ACL, or a directory's
                          default ACL (what gnulib's file_has_acl finds
                          through system.posix_acl_*; never an NFSv4 ACL);
     STATX_ATTR_SECLABEL  a non-empty security.selinux, as getxattr(2)
                          from the caller returns it.
   An attribute is known when its bit is in stx_attributes_mask (or
   STATX_XATTR_INFO is in stx_mask); else it is not known, and that
   entry's bits are found the old way (dirplus-stat.c, the uring
   backend's probes): the decision is per reply, never per kernel.
   (The series as written reports neither attribute to a request
   without STATX_XATTR_INFO, and io_uring's inline statx answers it from
   caches only, punting to io-wq what they cannot tell; a reply with
   the bits unasked is still taken, should a kernel give them.)

   Where the request carries STATX_XATTR_INFO: a directory's entries
   once its filesystem is known to be local (dirplus_set_dev, as ls
   does before reading, or learnt from its first entry's reply).  Not
   for a file whose filesystem is not known beforehand (an operand of
   ls: dirplus_stat; the first entry of a directory nobody told the
   device of): it may be on NFS, where asking would cost a GETACL
   round trip GNU then makes again.  Those are asked the old way.

   Where the attributes replace the probes (dirplus_statx_attrs_take):
     - only on a local filesystem (dirplus-fs.c).  On a network one GNU
       makes its own probes with its own "unsupported" latch (and NFS
       has NFSv4 ACLs, which the attribute ignores), and on FUSE the
       daemon's getxattr answers are what GNU sees, the kernel's ACL
       and label knowledge need not agree with them (a daemon's lists
       and answers may even disagree: the squashfuse case of
       dirplus-stat.c); there the request never carries
       STATX_XATTR_INFO either, so that statx costs no round trip;
     - the label, and the absence of any ACL, are taken as they are;
     - a present ACL of a non-directory is its access ACL; a directory's
       may be its access or its default ACL, which the library keeps
       apart (DIRPLUS_ATTR_ACL_ACCESS/DEFAULT): that entry's ACL bits
       are read the old way (one listxattr), a rare case;
     - capabilities (DIRPLUS_WANT_CAP) have no attribute: asked the old
       way, as ls's -Z asks for the label's value (dirplus_getxattr).
   So on such a kernel ls -l makes one statx per entry and no xattr
   call, with the output GNU's probes give.

   Who uses it: the "statx" backend (dirplus.c: the sync backend with
   the attributes asked), which auto takes where the running kernel
   reports them, and the uring backend (its statx SQEs with
   STATX_XATTR_INFO need no xattr SQEs).  Never asked on a kernel
   older than the series (dirplus-kver.c): not even the unknown mask
   bit reaches it.

   A test may install dirplus_statx_emulate to add the attributes to
   real statx replies, as a kernel with the series would.

   Layering (see the map in dirplus-impl.h): a shared piece, called by
   dirplus.c, the uring backend, dirplus-stat.c and dirplus-batch.c;
   calls dirplus-attr.c, dirplus-fs.c, dirplus-kver.c and
   dirplus-common.c.  */

#include <config.h>

#include "dirplus-impl.h"

#include <errno.h>
#include <fcntl.h>

/* Both attributes of the series.  */
#define ATTRS_BOTH ((uint64_t) (STATX_ATTR_ACL | STATX_ATTR_SECLABEL))

dirplus_statx_emulate_fn dirplus_statx_emulate;

/* Whether the attributes are asked and used (dirplus_statx_attrs_use).  */
static bool attrs_on;

/** Whether the running kernel may have the series (or a test emulates
    it).  */
bool
dirplus_statx_attrs_possible (void)
{
  return dirplus_statx_emulate || dirplus_kernel_at_least (7, 2);
}

/** Ask and use the attributes from now on (ON), or never.  */
void
dirplus_statx_attrs_use (bool on)
{
  attrs_on = on && dirplus_statx_attrs_possible ();
}

/** Whether the attributes are asked and used.  */
bool
dirplus_statx_attrs_in_use (void)
{
  return attrs_on;
}

/** Let a test's emulation add the attributes to the statx reply *STX of
    NAME relative to DIRFD, asked with MASK.  */
void
dirplus_statx_reply (int dirfd, const char *name, unsigned int mask,
                     struct statx *stx)
{
  if (dirplus_statx_emulate)
    dirplus_statx_emulate (dirfd, name, mask, stx);
}

/** The attributes of the series that reply X determined.  */
static uint64_t
known_attrs (const struct statx *x)
{
  uint64_t known = x->stx_attributes_mask;
  if (x->stx_mask & STATX_XATTR_INFO)
    known |= ATTRS_BOTH;
  return known & ATTRS_BOTH;
}

/** Whether the running kernel reports the attributes: 0, or -1 with
    errno ENOSYS.  One statx of "/", once, and only on a kernel that may
    have the series.  */
int
dirplus_statx_attrs_probe (void)
{
  static int state;		/* 0 not yet, 1 yes, -1 no */
  if (!state)
    {
      state = -1;
      struct statx x;
      unsigned int mask = STATX_TYPE | STATX_XATTR_INFO;
      if (dirplus_statx_attrs_possible ())
        {
          __atomic_fetch_add (&dirplus_counters.stat_calls, 1,
                              __ATOMIC_RELAXED);
          if (statx (AT_FDCWD, "/", AT_NO_AUTOMOUNT, mask, &x) == 0)
            {
              dirplus_statx_reply (AT_FDCWD, "/", mask, &x);
              if (known_attrs (&x))
                state = 1;
            }
        }
    }
  if (state < 0)
    {
      errno = ENOSYS;
      return -1;
    }
  return 0;
}

/** The statx request mask for MASK under request FLAGS in a directory
    of filesystem kind FS_KIND (-1: not known yet): with
    STATX_XATTR_INFO where the attributes are in use, the directory is
    known local and a label or an ACL is wanted.  */
unsigned int
dirplus_statx_request (unsigned int mask, unsigned int flags, int fs_kind)
{
  if (attrs_on && fs_kind == DIRPLUS_FS_LOCAL
      && !(flags & DIRPLUS_NO_STAT)
      && (dirplus_wanted_attrs (flags)
          & (DIRPLUS_ATTR_ACL | DIRPLUS_ATTR_LABEL)))
    mask |= STATX_XATTR_INFO;
  return mask;
}

/** Take the attribute BITS (those dirplus_attrs_needed left, E->attr
    reset) that E's statx reply determined, as the top of this file
    says; returns the bits still to find the old way.  */
unsigned int
dirplus_statx_attrs_take (struct dirplus_entry *e, unsigned int bits)
{
  return attrs_on ? dirplus_statx_attrs_apply (e, bits) : bits;
}

/** dirplus_statx_attrs_take for a reply of a kernel known to have the
    series, whether or not the attributes are in use for statx: the
    records of the in-tree getdentsplus (dirplus-records.c), which are
    statx replies.  */
unsigned int
dirplus_statx_attrs_apply (struct dirplus_entry *e, unsigned int bits)
{
  if (!(bits & (DIRPLUS_ATTR_ACL | DIRPLUS_ATTR_LABEL)))
    return bits;
  const struct statx *x = &e->stx;
  uint64_t known = known_attrs (x);
  if (!known
      || dirplus_fs_kind (dirplus_entry_dev (e)) != DIRPLUS_FS_LOCAL)
    return bits;
  if ((bits & DIRPLUS_ATTR_LABEL) && (known & STATX_ATTR_SECLABEL))
    {
      if (x->stx_attributes & STATX_ATTR_SECLABEL)
        e->attr |= DIRPLUS_ATTR_LABEL;
      bits &= ~DIRPLUS_ATTR_LABEL;
    }
  if ((bits & DIRPLUS_ATTR_ACL) && (known & STATX_ATTR_ACL))
    {
      if (!(x->stx_attributes & STATX_ATTR_ACL))
        bits &= ~DIRPLUS_ATTR_ACL;
      else if (!S_ISDIR (x->stx_mode))
        {
          e->attr |= bits & DIRPLUS_ATTR_ACL_ACCESS;
          bits &= ~DIRPLUS_ATTR_ACL;
        }
      /* else: a directory's access or default ACL, read the old way.  */
    }
  return bits;
}
