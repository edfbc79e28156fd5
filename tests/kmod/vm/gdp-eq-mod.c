/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gdp-eq-mod.c -- gdp-eq's reader of the module's records (its ioctl on
   /dev/getdentsplus), with the module's uapi header only.  */
#define _GNU_SOURCE
#include "gdp-eq.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

#include "../../../kernel-module/include/uapi/linux/getdentsplus.h"

/** Read FD to its end with the module's ioctl on DEVFD (see gdp-eq.h).  */
int
eq_read_mod (int devfd, int fd, int follow, unsigned int statx_mask,
             struct eq_rec **recs, size_t *n, size_t *cap)
{
  size_t size = 64 * 1024;
  char *buf = malloc (size);
  if (!buf)
    return -1;
  for (;;)
    {
      struct getdentsplus_args a =
        {
          .dirfd = fd, .buf = (uintptr_t) buf, .size = size,
          .statx_mask = statx_mask,
          .flags = (GDP_AT_FLAGS | AT_NO_AUTOMOUNT | GDP_SKIP_DOTS | GDP_WANT_ACL
                    | GDP_WANT_LABEL | GDP_WANT_CAP
                    | (follow ? AT_SYMLINK_FOLLOW : 0)),
        };
      long got = ioctl (devfd, GETDENTSPLUS_IOC, &a);
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
          size_t noff = r->name_off ? r->name_off
                        : offsetof (struct getdentsplus_entry, name);
          memcpy (e->name, (const char *) r + noff, r->namelen);
          e->name[r->namelen] = '\0';
          e->ino = r->d_ino;
          e->d_type = r->d_type;
          e->unresolved = !!(r->flags & GDP_REC_UNRESOLVED);
          e->error = r->error;
          memcpy (&e->stx, &r->stx, sizeof e->stx);
          unsigned int acl = GDP_ATTR_ACL_ACCESS
            | (S_ISDIR (r->stx.stx_mode) ? GDP_ATTR_ACL_DEFAULT : 0);
          e->acl = (r->attr_unknown & acl) ? -1 : !!(r->attr & acl);
          e->label = ((r->attr_unknown & GDP_ATTR_LABEL) ? -1
                      : !!(r->attr & GDP_ATTR_LABEL));
          off += r->reclen;
        }
    }
  free (buf);
  return 0;

 fail:
  free (buf);
  return -1;
}
