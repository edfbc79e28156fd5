/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gdp-eq.c -- gdp-eq DIR...: the in-tree getdentsplus(2) call and the
   module's call (its ioctl on /dev/getdentsplus) give the same records
   for each DIR: the same names, and for each name the same inode, type,
   "unresolved" flag (but for what only the module leaves to the
   caller), error, ACL and label presence (the module's attribute bits,
   the in-tree call's statx attributes) and statx fields, without and
   with FOLLOW.  The two readers are in
   gdp-eq-sys.c and gdp-eq-mod.c, one uapi header each (tests/kmod/
   qemu/build-lsrc builds them); this file sees neither.
   Prints "# " diagnostics; exit status 0 equal, 1 a difference, 2 an
   error (no device, a call failing).  */
#include "gdp-eq.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What the module serves (GDP_STATX_SUPPORTED), asked of both.  */
#define EQ_MASK (STATX_BASIC_STATS | STATX_BTIME)

static int diffs;

/** Room for one more record in *RECS (see gdp-eq.h).  */
struct eq_rec *
eq_next (struct eq_rec **recs, size_t *n, size_t *cap)
{
  if (*n == *cap)
    {
      size_t c = *cap ? 2 * *cap : 64;
      struct eq_rec *p = realloc (*recs, c * sizeof *p);
      if (!p)
        return NULL;
      *recs = p;
      *cap = c;
    }
  struct eq_rec *e = &(*recs)[(*n)++];
  memset (e, 0, sizeof *e);
  return e;
}

/** qsort order of records: by name.  */
static int
by_name (const void *a, const void *b)
{
  return strcmp (((const struct eq_rec *) a)->name,
                 ((const struct eq_rec *) b)->name);
}

/** Report a difference of field WHAT of NAME in DIR (FOLLOW).  */
static void
differ (const char *dir, int follow, const char *name, const char *what,
        unsigned long long sys, unsigned long long mod)
{
  if (diffs++ < 20)
    printf ("# %s%s/%s: %s: in-tree %#llx, module %#llx\n",
            follow ? "(follow) " : "", dir, name, what, sys, mod);
}

/** Compare records S (in-tree) and M (module) of one name.  */
static void
compare (const char *dir, int follow, const struct eq_rec *s,
         const struct eq_rec *m)
{
#define F(what, field) \
  if (s->field != m->field) \
    differ (dir, follow, s->name, what, s->field, m->field)
  F ("d_ino", ino);
  F ("d_type", d_type);
  /* The module leaves to the caller what its walk from the directory
     cannot answer as the caller's own (ABI 4: ".." and a symlink to
     follow); the in-tree call walks from the caller's root and may
     answer them.  Anything else left to the caller on one side only is
     a difference.  */
  if (m->unresolved && !s->unresolved
      && (!strcmp (s->name, "..") || (follow && s->d_type == DT_LNK)))
    return;
  F ("unresolved", unresolved);
  F ("error", error);
  if (s->unresolved || m->unresolved || s->error || m->error)
    return;
  F ("acl", acl);
  F ("label", label);
  /* Beyond what was asked, statx(2) adds bits of its own (STATX_MNT_ID):
     not a field the module claims.  */
  if ((s->stx.stx_mask & EQ_MASK) != (m->stx.stx_mask & EQ_MASK))
    differ (dir, follow, s->name, "stx_mask (asked bits)",
            s->stx.stx_mask & EQ_MASK, m->stx.stx_mask & EQ_MASK);
  F ("stx_blksize", stx.stx_blksize);
  F ("stx_attributes", stx.stx_attributes);
  F ("stx_attributes_mask", stx.stx_attributes_mask);
  F ("stx_nlink", stx.stx_nlink);
  F ("stx_uid", stx.stx_uid);
  F ("stx_gid", stx.stx_gid);
  F ("stx_mode", stx.stx_mode);
  F ("stx_ino", stx.stx_ino);
  F ("stx_size", stx.stx_size);
  F ("stx_blocks", stx.stx_blocks);
  F ("stx_atime", stx.stx_atime.tv_sec);
  F ("stx_atime.nsec", stx.stx_atime.tv_nsec);
  F ("stx_btime", stx.stx_btime.tv_sec);
  F ("stx_btime.nsec", stx.stx_btime.tv_nsec);
  F ("stx_ctime", stx.stx_ctime.tv_sec);
  F ("stx_ctime.nsec", stx.stx_ctime.tv_nsec);
  F ("stx_mtime", stx.stx_mtime.tv_sec);
  F ("stx_mtime.nsec", stx.stx_mtime.tv_nsec);
  F ("stx_rdev_major", stx.stx_rdev_major);
  F ("stx_rdev_minor", stx.stx_rdev_minor);
  F ("stx_dev_major", stx.stx_dev_major);
  F ("stx_dev_minor", stx.stx_dev_minor);
#undef F
}

/** Compare the two calls' records of DIR (FOLLOW): the number of records
    compared, or -1 on an error (reported).  */
static long
compare_dir (int devfd, const char *dir, int follow)
{
  const unsigned int mask = EQ_MASK;
  struct eq_rec *s = NULL, *m = NULL;
  size_t ns = 0, cs = 0, nm = 0, cm = 0;
  long r = -1;
  int fd1 = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  int fd2 = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd1 < 0 || fd2 < 0)
    {
      printf ("# %s: open: %s\n", dir, strerror (errno));
      goto fail;
    }
  if (eq_read_sys (fd1, follow, mask, &s, &ns, &cs) < 0)
    {
      printf ("# %s: getdentsplus(2): %s\n", dir, strerror (errno));
      goto fail;
    }
  if (eq_read_mod (devfd, fd2, follow, mask, &m, &nm, &cm) < 0)
    {
      printf ("# %s: module ioctl: %s\n", dir, strerror (errno));
      goto fail;
    }
  qsort (s, ns, sizeof *s, by_name);
  qsort (m, nm, sizeof *m, by_name);
  size_t i = 0, j = 0;
  while (i < ns || j < nm)
    {
      int c = i == ns ? 1 : j == nm ? -1 : strcmp (s[i].name, m[j].name);
      if (c < 0)
        differ (dir, follow, s[i++].name, "only from the in-tree call", 1, 0);
      else if (c > 0)
        differ (dir, follow, m[j++].name, "only from the module", 0, 1);
      else
        compare (dir, follow, &s[i++], &m[j++]);
    }
  r = ns;

 fail:
  if (fd1 >= 0)
    close (fd1);
  if (fd2 >= 0)
    close (fd2);
  free (s);
  free (m);
  return r;
}

int
main (int argc, char **argv)
{
  if (argc < 2)
    {
      fprintf (stderr, "usage: gdp-eq DIR...\n");
      return 2;
    }
  int devfd = open ("/dev/getdentsplus", O_RDONLY | O_CLOEXEC);
  if (devfd < 0)
    {
      printf ("# /dev/getdentsplus: %s\n", strerror (errno));
      return 2;
    }
  long total = 0;
  int dirs = 0;
  for (int a = 1; a < argc; a++)
    for (int follow = 0; follow < 2; follow++)
      {
        long n = compare_dir (devfd, argv[a], follow);
        if (n < 0)
          return 2;
        total += n;
        dirs++;
      }
  printf ("# %ld records of %d directory reads compared, %d differences\n",
          total, dirs, diffs);
  return diffs ? 1 : 0;
}
