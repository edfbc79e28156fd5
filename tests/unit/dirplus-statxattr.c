/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tests/unit/dirplus-statxattr.c -- unit tests of lib/dirplus-statxattr.c
   (the statx ACL and label attributes of upstream/statx-xattr-info/) and of
   auto's choice between it and io_uring's inline statx
   (upstream/io_uring-statx/), on a kernel that has neither: the
   attributes are emulated on real statx replies (dirplus_statx_emulate),
   the io_uring feature bit by dirplus_uring_fake_features.

   The emulation answers what the series answers (ACL: a non-empty access
   ACL, or a directory's default ACL; label: a non-empty security.selinux,
   read with getxattr here), but per name:
     u-*    a reply that determines neither attribute (cold, or a
            filesystem that cannot say): the entry must fall back to the
            xattr calls, and only it;
     p-*    only the label determined: the ACL the old way;
     lie-*  a label "present" that is not there: what the reply says is
            what the entry gets, so no probe was made;
     else   both determined when STATX_XATTR_INFO was asked, neither
            when it was not.
   Checked, each in a child (the backend is chosen once per process):
   every entry's bits against getxattr(2); the statx and xattr calls
   counted by the library (exactly: one statx per entry, no xattr call
   where both bits are known, one per entry that lacks one); that
   STATX_XATTR_INFO is never asked on a filesystem taken as FUSE or
   network (LSPLUS_REMOTE) and their replies' bits are not used; the
   uring backend's statx SQEs with the attributes (no xattr SQE where
   both are known); auto's order (statx attributes, then inline
   io_uring, then sync) and that a kernel without the attributes makes
   the forced "statx" backend unavailable (ENOSYS); and that on this
   host, without emulation, nothing of it is even looked for (the
   vDSO's version below 7.2).
   Exit 0 pass, 1 fail, 77 skip.  */

#include <config.h>

#include "unit-check.h"

#include "dirplus.h"
#include "dirplus-impl.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>

static char top[4096];
static bool emulate_new = true;	/* the emulated kernel has the series */
static unsigned long asked_xinfo; /* statx calls that asked for it */
static int n_unknown, n_partial, n_acl_dirs, n_unknown_labelled;

/** Create TOP/REL (a directory if DIR) with MODE.  */
static void
make (const char *rel, bool dir)
{
  char p[8192];
  snprintf (p, sizeof p, "%s/%s", top, rel);
  int fd;
  if (dir ? mkdir (p, 0755) < 0
      : (fd = open (p, O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0
        || close (fd) < 0)
    die (p);
}

/** Set an ACL (access, or a directory's DEFAULT) on TOP/REL: true if
    it could.  */
static bool
set_acl (const char *rel, bool dflt)
{
  char p[8192];
  snprintf (p, sizeof p, "%s/%s", top, rel);
  return set_posix_acl (p, dflt);
}

/** Label TOP/REL (the link itself if a symlink): true if it could.  */
static bool
set_label (const char *rel)
{
  char p[8192];
  static const char label[] = "system_u:object_r:tmp_t:s0";
  snprintf (p, sizeof p, "%s/%s", top, rel);
  return lsetxattr (p, "security.selinux", label, sizeof label, 0) == 0;
}

/** The tree: plain/ (files, a few labelled or with an ACL, a symlink,
    a directory without ACL) and mixed/ (the emulation's u-, p-, lie-
    names and directories with ACLs).  */
static void
make_tree (void)
{
  const char *tmp = getenv ("TMPDIR");
  snprintf (top, sizeof top, "%s/dirplus-statxattr.XXXXXX",
            tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp (top))
    die ("mkdtemp");
  make ("plain", true);
  make ("mixed", true);
  char rel[64];
  for (int i = 0; i < 40; i++)
    {
      snprintf (rel, sizeof rel, "plain/f%02d", i);
      make (rel, false);
      if (i % 7 == 1)
        set_label (rel);
      if (i % 9 == 2)
        set_acl (rel, false);
    }
  make ("plain/sub", true);
  if (symlink ("f01", strcat (strcpy (rel, top), "/plain/link")) < 0)
    die ("symlink");
  set_label ("plain/link");

  for (int i = 0; i < 5; i++)
    {
      snprintf (rel, sizeof rel, "mixed/u-%d", i);
      make (rel, false);
      n_unknown++;
      if (i == 1)
        n_unknown_labelled += set_label (rel);
      if (i == 2)
        set_acl (rel, false);
      snprintf (rel, sizeof rel, "mixed/p-%d", i);
      make (rel, false);
      n_partial++;
      if (i == 3)
        set_label (rel);
      snprintf (rel, sizeof rel, "mixed/k-%d", i);
      make (rel, false);
    }
  make ("mixed/lie-file", false);
  make ("mixed/acl-dir", true);
  make ("mixed/acl-dir2", true);
  make ("mixed/dir", true);
  n_acl_dirs = set_acl ("mixed/acl-dir", true) + set_acl ("mixed/acl-dir2",
                                                          false);
}

/** nftw callback: remove one file.  */
static int
rm_one (const char *path, const struct stat *st, int type, struct FTW *ftw)
{
  return (type == FTW_DP ? rmdir (path) : unlink (path)) < 0 ? -1 : 0;
}

/** The size of xattr XNAME of PATH (following a final symlink if
    FOLLOW), 0 when absent.  */
static ssize_t
xsize (const char *path, const char *xname, bool follow)
{
  ssize_t n = (follow ? getxattr (path, xname, NULL, 0)
               : lgetxattr (path, xname, NULL, 0));
  return n < 0 ? 0 : n;
}

/** The attribute bits GNU ls 9.1 finds for PATH (mode MODE).  */
static unsigned int
truth (const char *path, mode_t mode)
{
  unsigned int bits = 0;
  if (!S_ISLNK (mode))
    {
      if (xsize (path, "system.posix_acl_access", true) > 0)
        bits |= DIRPLUS_ATTR_ACL_ACCESS;
      if (S_ISDIR (mode) && xsize (path, "system.posix_acl_default", true))
        bits |= DIRPLUS_ATTR_ACL_DEFAULT;
    }
  if (xsize (path, "security.selinux", false) > 0)
    bits |= DIRPLUS_ATTR_LABEL;
  return bits;
}

/** The emulated kernel: adds the series' attributes to the real reply
    *STX of NAME relative to DIRFD asked with MASK (see the top).  */
static void
emulate (int dirfd, const char *name, unsigned int mask, struct statx *stx)
{
  if (mask & STATX_XATTR_INFO)
    asked_xinfo++;
  if (!emulate_new)
    return;
  const char *base = strrchr (name, '/') ? strrchr (name, '/') + 1 : name;
  char path[8192];
  if (dirfd == AT_FDCWD || name[0] == '/')
    snprintf (path, sizeof path, "%s", name);
  else
    snprintf (path, sizeof path, "/proc/self/fd/%d/%s", dirfd, name);
  bool acl = false, label = false;
  if (!S_ISLNK (stx->stx_mode))
    acl = (xsize (path, "system.posix_acl_access", true) > 0
           || (S_ISDIR (stx->stx_mode)
               && xsize (path, "system.posix_acl_default", true) > 0));
  /* The reply is the link's own when it is a symlink, else the file's
     that the name leads to.  */
  label = xsize (path, "security.selinux", !S_ISLNK (stx->stx_mode)) > 0;
  if (strncmp (base, "lie-", 4) == 0)
    label = true;
  uint64_t known = 0;
  if (strncmp (base, "u-", 2) == 0 || !(mask & STATX_XATTR_INFO))
    known = 0;
  else if (strncmp (base, "p-", 2) == 0)
    known = STATX_ATTR_SECLABEL;
  else
    {
      known = STATX_ATTR_ACL | STATX_ATTR_SECLABEL;
      stx->stx_mask |= STATX_XATTR_INFO;
    }
  stx->stx_attributes_mask |= known;
  stx->stx_attributes &= ~(uint64_t) (STATX_ATTR_ACL | STATX_ATTR_SECLABEL);
  stx->stx_attributes |= known & ((acl ? STATX_ATTR_ACL : 0)
                                  | (label ? STATX_ATTR_SECLABEL : 0));
}

/* What one directory read cost.  */
struct cost
{
  unsigned long entries, stats, xattrs, xinfo;
};

/** Read TOP/REL with dirplus (ACL and label wanted), telling the
    library its device first as ls does (SET_DEV); check every entry's
    bits against TRUTH (a lie- entry: the label its reply gave).
    Returns what it cost.  */
static struct cost
read_dir (const char *rel, bool set_dev, const char *what)
{
  char p[8192];
  snprintf (p, sizeof p, "%s/%s", top, rel);
  struct cost c = { 0 };
  struct dirplus_stats before, after;
  unsigned long xinfo0 = asked_xinfo;
  unsigned int flags = DIRPLUS_WANT_ACL | DIRPLUS_WANT_LABEL;
  struct dirplus_dir *d = dirplus_open (AT_FDCWD, p, STATX_BASIC_STATS,
                                        flags);
  if (!d)
    {
      fail ("%s: open %s: %s", what, p, strerror (errno));
      return c;
    }
  struct stat st;
  if (set_dev)
    {
      if (fstat (dirplus_fd (d), &st) < 0)
        die ("fstat");
      dirplus_set_dev (d, st.st_dev);
    }
  dirplus_get_stats (&before);
  struct dirplus_entry *ents;
  ssize_t n;
  while ((n = dirplus_read (d, &ents)) > 0)
    for (ssize_t i = 0; i < n; i++)
      {
        struct dirplus_entry *e = &ents[i];
        if (strcmp (e->name, ".") == 0 || strcmp (e->name, "..") == 0)
          continue;
        char q[8400];
        snprintf (q, sizeof q, "%s/%s", p, e->name);
        if (e->stat_errno)
          {
            fail ("%s: %s: stat_errno %d", what, q, e->stat_errno);
            continue;
          }
        unsigned int want = truth (q, e->stx.stx_mode);
        if (strncmp (e->name, "lie-", 4) == 0 && emulate_new
            && dirplus_statx_attrs_in_use ()
            && dirplus_fs_kind (dirplus_entry_dev (e)) == DIRPLUS_FS_LOCAL)
          want |= DIRPLUS_ATTR_LABEL;
        if (e->attr != want || e->attr_unknown || e->attr_errno)
          fail ("%s: %s: attr %#x unknown %#x errno %d, want %#x", what, q,
                e->attr, e->attr_unknown, e->attr_errno, want);
      }
  if (n < 0)
    fail ("%s: read %s: %s", what, p, strerror (errno));
  dirplus_get_stats (&after);
  dirplus_close (d);
  c.entries = after.entries - before.entries;
  c.stats = after.stat_calls - before.stat_calls;
  c.xattrs = after.xattr_calls - before.xattr_calls;
  c.xinfo = asked_xinfo - xinfo0;
  printf ("%s: %s: %lu entries, %lu statx (%lu with STATX_XATTR_INFO), "
          "%lu xattr calls\n", what, rel, c.entries, c.stats, c.xinfo,
          c.xattrs);
  return c;
}

/** The entries of TOP/REL with "." and "..".  */
static unsigned long
count_entries (const char *rel)
{
  char p[8192];
  snprintf (p, sizeof p, "%s/%s", top, rel);
  DIR *dir = opendir (p);
  unsigned long n = 0;
  if (!dir)
    die (p);
  while (readdir (dir))
    n++;
  closedir (dir);
  return n;
}

/** A backend (STATX or URING) over the emulated series: one statx per
    entry, no xattr call where the reply says both, one fallback per
    entry whose reply lacks a bit.  */
static int
child_backend (int b)
{
  dirplus_statx_emulate = emulate;
  const char *name = dirplus_backend_name (b);
  if (dirplus_setup (b) != b)
    {
      printf ("SKIP: backend %s unavailable: %s\n", name, strerror (errno));
      return 77;
    }
  if (!dirplus_statx_attrs_in_use ())
    fail ("%s: the statx attributes are not in use", name);
  unsigned long n = count_entries ("plain");
  struct cost c = read_dir ("plain", true, name);
  if (c.entries != n || c.stats != n || c.xinfo != n || c.xattrs != 0)
    fail ("%s: plain: %lu entries, %lu statx, %lu asked the attributes, "
          "%lu xattr calls (want %lu, %lu, %lu, 0)", name, c.entries,
          c.stats, c.xinfo, c.xattrs, n, n, n);

  /* Per entry: u- files need the label and the access ACL (one
     listxattr, or two ring probes), p- files the access ACL (one
     listxattr or probe), a directory with an ACL both ACLs (one
     listxattr, or two probes: access and default).  The listxattr way
     also reads the size of a label it lists (an empty one is none), and
     after the device's first empty list makes GNU's two probes once
     (dirplus-stat.c's check_empty_list).  */
  n = count_entries ("mixed");
  c = read_dir ("mixed", true, name);
  unsigned long want = (b == DIRPLUS_URING
                        ? 2 * n_unknown + n_partial + 2 * n_acl_dirs
                        : n_unknown + n_partial + n_acl_dirs
                          + n_unknown_labelled + 2);
  if (c.stats != n || c.xattrs != want)
    fail ("%s: mixed: %lu statx, %lu xattr calls (want %lu, %lu: %d "
          "without the attributes, %d without the ACL's, %d directories "
          "with an ACL)", name, c.stats, c.xattrs, n, want, n_unknown,
          n_partial, n_acl_dirs);

  /* Without the device (kind unknown) the first entry's statx cannot ask
     STATX_XATTR_INFO (it may be a network filesystem); the sync way
     learns the kind from it, then asks.  */
  if (b == DIRPLUS_STATX)
    {
      n = count_entries ("plain");
      c = read_dir ("plain", false, "statx, device not told");
      if (c.stats != n || c.xinfo != n - 1 || c.xattrs < 1 || 2 < c.xattrs)
        fail ("statx, device not told: %lu statx (%lu asked), %lu xattr "
              "calls (want %lu, %lu, 1 or 2: a listxattr, and the size "
              "of a label it lists)", c.stats, c.xinfo, c.xattrs, n, n - 1);
    }

  /* One operand: dirplus_stat does not know its filesystem either.  */
  char p[8192];
  snprintf (p, sizeof p, "%s/plain/f01", top);
  struct dirplus_entry e;
  if (dirplus_stat (AT_FDCWD, p, STATX_BASIC_STATS,
                    DIRPLUS_WANT_ACL | DIRPLUS_WANT_LABEL, &e) < 0
      || e.attr != truth (p, e.stx.stx_mode) || e.attr_unknown)
    fail ("%s: dirplus_stat %s: attr %#x unknown %#x, want %#x", name, p,
          e.attr, e.attr_unknown, truth (p, e.stx.stx_mode));
  return failures ? 1 : 0;
}

/** The statx backend on filesystems taken as FUSE (WHICH 0) or network
    (1): STATX_XATTR_INFO never asked, the replies' bits never used
    (the lie- entry keeps its true label), the old calls made.  */
static int
child_remote (int which)
{
  setenv ("LSPLUS_REMOTE", which ? "net" : "fuse", 1);
  dirplus_statx_emulate = emulate;
  if (dirplus_setup (DIRPLUS_STATX) != DIRPLUS_STATX)
    {
      fail ("statx backend unavailable under emulation: %s",
            strerror (errno));
      return 1;
    }
  const char *what = which ? "statx, LSPLUS_REMOTE=net"
                     : "statx, LSPLUS_REMOTE=fuse";
  unsigned long n = count_entries ("mixed");
  struct cost c = read_dir ("mixed", true, what);
  if (c.xinfo != 0)
    fail ("%s: %lu statx asked STATX_XATTR_INFO", what, c.xinfo);
  if (c.stats != n || c.xattrs < n - 2)
    fail ("%s: %lu statx, %lu xattr calls for %lu entries (want the old "
          "calls)", what, c.stats, c.xattrs, n);
  return failures ? 1 : 0;
}

/** auto's order.  WHICH: bit 0 the emulated kernel has the statx
    attributes, bit 1 io_uring's inline statx.  */
static int
child_auto (int which)
{
  dirplus_statx_emulate = emulate;
  emulate_new = which & 1;
#if USE_URING
  if (which & 2)
    dirplus_uring_fake_features = 1U << 18;
  bool uring_ok = dirplus_uring_probe () == 0;
#else
  bool uring_ok = false;
#endif
  int want = ((which & 1) ? DIRPLUS_STATX
              : (which & 2) && uring_ok ? DIRPLUS_URING : DIRPLUS_SYNC);
  int got = dirplus_setup (DIRPLUS_AUTO);
  printf ("auto, kernel %s statx attributes, %s inline io_uring statx: "
          "%s\n", which & 1 ? "with" : "without",
          which & 2 ? "with" : "without", dirplus_backend_name (got));
  if (got != want)
    fail ("auto chose %s, want %s", dirplus_backend_name (got),
          dirplus_backend_name (want));
  if (dirplus_statx_attrs_in_use () != ((which & 1) != 0))
    fail ("auto: statx attributes %s with %s",
          dirplus_statx_attrs_in_use () ? "in use" : "not in use",
          dirplus_backend_name (got));
  if ((which & 2) && !uring_ok)
    printf ("note: io_uring unusable here: inline choice not checked\n");
  return failures ? 1 : 0;
}

/** A kernel without the attributes (emulated, or this host): the
    forced statx backend is unavailable (ENOSYS).  Without emulation
    (HOST), on a kernel older than 7.2 nothing of it is looked for.  */
static int
child_absent (int host)
{
  if (!host)
    {
      dirplus_statx_emulate = emulate;
      emulate_new = false;
    }
  else if (dirplus_kernel_at_least (7, 2))
    {
      printf ("note: this kernel is 7.2 or later: host checks skipped\n");
      return 0;
    }
  else
    {
      if (!dirplus_kernel_at_least (3, 0) || dirplus_kernel_at_least (255, 0))
        fail ("the vDSO's kernel version was not read");
      if (dirplus_statx_attrs_possible ())
        fail ("the statx attributes looked for on a kernel before 7.2");
#if USE_URING
      if (dirplus_uring_statx_inline ())
        fail ("inline io_uring statx on a kernel before 7.2");
#endif
    }
  errno = 0;
  int r = dirplus_setup (DIRPLUS_STATX);
  if (r != -1 || errno != ENOSYS)
    fail ("%s: forced statx backend: %d, errno %d (want -1, ENOSYS)",
          host ? "this host" : "emulated old kernel", r, errno);
  return failures ? 1 : 0;
}

int
main (void)
{
  unsetenv ("LSPLUS_BACKEND");
  unsetenv ("LSPLUS_REMOTE");
  make_tree ();
  static const struct { int (*fn) (int); int arg; const char *what; } t[] =
    {
      { child_backend, DIRPLUS_STATX, "statx backend, emulated attributes" },
      { child_backend, DIRPLUS_URING, "uring backend, emulated attributes" },
      { child_remote, 0, "statx backend on FUSE: the old calls" },
      { child_remote, 1, "statx backend on a network fs: the old calls" },
      { child_auto, 0, "auto, neither feature: sync" },
      { child_auto, 1, "auto, statx attributes: statx" },
      { child_auto, 2, "auto, inline io_uring statx: uring" },
      { child_auto, 3, "auto, both: statx first" },
      { child_absent, 0, "emulated kernel without the attributes" },
      { child_absent, 1, "this host: nothing looked for before 7.2" },
    };
  int status = 0;
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
    {
      int r = in_child (t[i].fn, t[i].arg);
      printf ("%s: %s\n", t[i].what,
              r == 0 ? "PASS" : r == 77 ? "SKIP" : "FAIL");
      if (r != 0 && !(r == 77 && t[i].arg == DIRPLUS_URING))
        status = 1;
    }
  nftw (top, rm_one, 16, FTW_DEPTH | FTW_PHYS);
  return status;
}
