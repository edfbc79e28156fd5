/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gdp-eq-sys.c -- gdp-eq's reader of the in-tree getdentsplus(2) call's
   records, built with the patched kernel's headers first in the include
   path (tests/kmod/build-lsrc): its number and uapi header come from
   there, never from this file.  */
#include "gdp-eq.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include <linux/getdentsplus.h>

#if !defined __NR_getdentsplus || !defined GETDENTSPLUS_REQ_SIZE_VER0
# error "build with the patched kernel's headers first (-I .../usr/include)"
#endif

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
      .size = sizeof req, .statx_mask = statx_mask,
      .attr_mask = (GETDENTSPLUS_ATTR_ACL_ACCESS
                    | GETDENTSPLUS_ATTR_ACL_DEFAULT
                    | GETDENTSPLUS_ATTR_LABEL | GETDENTSPLUS_ATTR_CAP),
    };
  unsigned int flags = (GETDENTSPLUS_NO_AUTOMOUNT | GETDENTSPLUS_SKIP_DOTS
                        | (follow ? GETDENTSPLUS_FOLLOW : 0));
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
          e->attr = r->attr;
          e->attr_unknown = r->attr_unknown;
          memcpy (&e->stx, &r->stx, sizeof e->stx);
          off += r->reclen;
        }
    }
  free (buf);
  return 0;

 fail:
  free (buf);
  return -1;
}
