/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gdp-eq-sys.c -- gdp-eq's reader of the in-tree getdentsplus(2) call's
   records, built with the patched kernel's headers first in the include
   path (tests/kmod/qemu/build-lsrc): its number and uapi header come from
   there, never from this file.

   Under FOLLOW the two calls differ by design since the module's ABI 4:
   the module leaves a symlink to follow to its caller
   (GDP_REC_UNRESOLVED: its walk from the directory cannot follow one as
   the caller's would), while the in-tree call follows it with the
   caller's root, as statx(2) does.  Those in-tree records are checked
   here against statx(fd, name, 0), the oracle both calls answer to, and
   handed to the comparison as unresolved, which it then skips; a record
   that differs from statx fails the read (EPROTO, with a "# " line).  */
#define _GNU_SOURCE 1		/* statx */
#include "gdp-eq.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include <linux/getdentsplus.h>

#if !defined __NR_getdentsplus || !defined GETDENTSPLUS_REQ_SIZE_VER0 \
  || !defined STATX_XATTR_INFO
# error "build with the patched kernel's headers first (-I .../usr/include)"
#endif

/** Whether the in-tree record R of symlink NAME in FD says what
    statx(FD, NAME, 0) says (its target, or its error).  */
static int
same_as_statx (int fd, const char *name,
               const struct getdentsplus_entry *r, unsigned int statx_mask)
{
  struct statx sx;
  if (statx (fd, name, 0, statx_mask, &sx) < 0)
    return ((errno == ENOENT || errno == EACCES)
            ? r->error == errno
            : (r->flags & GETDENTSPLUS_REC_UNRESOLVED) != 0);
  return (!r->error && !(r->flags & GETDENTSPLUS_REC_UNRESOLVED)
          && r->stx.stx_ino == sx.stx_ino && r->stx.stx_mode == sx.stx_mode
          && r->stx.stx_size == sx.stx_size
          && r->stx.stx_nlink == sx.stx_nlink
          && r->stx.stx_uid == sx.stx_uid && r->stx.stx_gid == sx.stx_gid
          && r->stx.stx_dev_major == sx.stx_dev_major
          && r->stx.stx_dev_minor == sx.stx_dev_minor);
}

/** Read FD to its end with getdentsplus(2) (see gdp-eq.h).  */
int
eq_read_sys (int fd, int follow, unsigned int statx_mask,
             struct eq_rec **recs, size_t *n, size_t *cap)
{
  size_t size = 64 * 1024;
  char *buf = malloc (size);
  if (!buf)
    return -1;
  struct getdentsplus_req req =
    {
      .size = sizeof req, .statx_mask = statx_mask | STATX_XATTR_INFO,
    };
  unsigned int flags = (AT_NO_AUTOMOUNT | GETDENTSPLUS_SKIP_DOTS
                        | (follow ? AT_SYMLINK_FOLLOW : 0));
  for (;;)
    {
      long got = syscall (__NR_getdentsplus, fd, &req, buf, size, flags);
      if (got < 0)
        goto fail;
      if (got == 0)
        break;
      for (long off = 0; off < got;)
        {
          const struct getdentsplus_entry *r = (void *) (buf + off);
          struct eq_rec *e = eq_next (recs, n, cap);
          if (!e || r->reclen == 0 || r->namelen >= sizeof e->name)
            {
              errno = e ? EIO : ENOMEM;
              goto fail;
            }
          memcpy (e->name, (const char *) r + r->name_off, r->namelen);
          e->name[r->namelen] = '\0';
          e->ino = r->d_ino;
          e->d_type = r->d_type;
          e->unresolved = !!(r->flags & GETDENTSPLUS_REC_UNRESOLVED);
          e->error = r->error;
          memcpy (&e->stx, &r->stx, sizeof e->stx);
          /* The ACL and the label as statx attributes, taken out of
             STX (the module's statx has neither).  */
          const uint64_t both = STATX_ATTR_ACL | STATX_ATTR_SECLABEL;
          e->acl = ((r->stx.stx_attributes_mask & STATX_ATTR_ACL)
                    ? !!(r->stx.stx_attributes & STATX_ATTR_ACL) : -1);
          e->label = ((r->stx.stx_attributes_mask & STATX_ATTR_SECLABEL)
                      ? !!(r->stx.stx_attributes & STATX_ATTR_SECLABEL)
                      : -1);
          e->stx.stx_attributes &= ~both;
          e->stx.stx_attributes_mask &= ~both;
          e->stx.stx_mask &= ~STATX_XATTR_INFO;
          off += r->reclen;
          struct stat st;
          if (follow
              && fstatat (fd, e->name, &st, AT_SYMLINK_NOFOLLOW) == 0
              && S_ISLNK (st.st_mode))
            {
              if (!same_as_statx (fd, e->name, r, statx_mask))
                {
                  printf ("# (follow) %s: the in-tree record differs from"
                          " statx(2)\n", e->name);
                  errno = EPROTO;
                  goto fail;
                }
              e->unresolved = 1;
              e->error = 0;
            }
        }
    }
  free (buf);
  return 0;

 fail:
  free (buf);
  return -1;
}
