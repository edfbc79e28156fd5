/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gdp-eq.h -- what gdp-eq compares: one record of either getdentsplus,
   the module's (gdp-eq-mod.c, the module's uapi header) or the in-tree
   call's (gdp-eq-sys.c, the patched kernel's uapi header), in a form of
   its own.  The two uapi headers share their name, include guard and
   struct name, so each is included by one file only, never here.  */
#ifndef GDP_EQ_H
#define GDP_EQ_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/stat.h>

struct eq_rec
{
  char name[256];
  uint64_t ino;
  uint8_t d_type;
  int unresolved;		/* the REC_UNRESOLVED flag */
  int32_t error;
  /* The ACL (access, or a directory's default) and the label: 1
     present, 0 absent, -1 not determined.  The module's own bits and
     the in-tree call's statx attributes (STATX_ATTR_ACL, _SECLABEL)
     both say this much; the module's capability bit has no statx
     counterpart and is not compared.  STX never carries the two
     attributes (the in-tree reader takes them out).  */
  int acl, label;
  struct statx stx;
};

/* Read directory FD to its end (from where it is) with the module's
   ioctl on DEVFD, or the in-tree call; FOLLOW: stat symlink targets.
   Appends to *RECS (*N of them, *CAP allocated).  Returns 0, or -1 with
   errno.  STATX_MASK is asked of both; the ACL and the label too.  */
int eq_read_mod (int devfd, int fd, int follow, unsigned int statx_mask,
                 struct eq_rec **recs, size_t *n, size_t *cap);
int eq_read_sys (int fd, int follow, unsigned int statx_mask,
                 struct eq_rec **recs, size_t *n, size_t *cap);

/* Room for one more record in *RECS: its address, or NULL.  */
struct eq_rec *eq_next (struct eq_rec **recs, size_t *n, size_t *cap);

#endif
