/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tests/unit/dirplus.c -- unit tests of lib/dirplus (every backend).

   Builds a tree in a temporary directory: regular files, directories,
   symlinks (to a file, a directory, nowhere), a fifo, a file with an
   access ACL, a directory with a default ACL, files with security.selinux
   and security.capability xattrs, an entry that vanishes between
   getdents64 and statx, filtered entries and a directory of 5000 entries
   (several getdents64 buffers).  For every available backend (each in a
   child process, since the backend is chosen once per process) it reads
   the tree through dirplus and checks every field against fstatat(2),
   readdir(3) and getxattr(2).  As root it also checks, as uid 65534, an
   unsearchable directory (every stat fails with EACCES) and an unreadable
   one (open fails).  With io_uring blocked by a seccomp filter, forcing
   uring must fail with EPERM and auto must fall back quietly.  The sync
   backend runs a second time with its helper thread forced on
   (LSPLUS_THREADS=1) and twice more on filesystems taken as remote
   (LSPLUS_REMOTE=fuse|net: the remote pool, listxattr or GNU's probes);
   getdentsplus runs on a user-space emulation of the module, once as it
   answers on a local disk, once leaving the ACL bits unknown as it does
   on a remote filesystem.  The mountinfo parser has its own cases.
   Exit 0 pass, 1 fail, 77 skip.  */

#include <config.h>

#include "unit-check.h"

#include "dirplus.h"
#include "dirplus-impl.h"

#include <linux/getdentsplus.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <sys/xattr.h>

#define BIG_DIR_ENTRIES 5000

static char top[4096];		/* the temporary tree */
static bool have_label, have_cap, have_acl;
static bool probe_mode;		/* LSPLUS_REMOTE=net: GNU's probes */
static bool fake_remote;	/* fake_gdp leaves ACL bits unknown */
static size_t fake_grow;	/* fake_gdp's header is this much longer */
static bool fake_v1;		/* fake_gdp answers like an ABI 1 module */
static bool fake_v2;		/* ... like an ABI 2 module (no self, no end) */
static unsigned long fake_sys_calls; /* fake_sys calls on a directory */
static bool fake_sys_old;	/* fake_sys: the series' first revision */

/** Create file DIR/NAME with MODE.  */
static void
make_file (const char *dir, const char *name, mode_t mode)
{
  char path[8192];
  snprintf (path, sizeof path, "%s/%s", dir, name);
  int fd = open (path, O_WRONLY | O_CREAT | O_TRUNC, mode);
  if (fd < 0)
    die (path);
  if (write (fd, name, strlen (name)) < 0)
    die (path);
  close (fd);
}

/** Path TOP/REL in BUF.  */
static const char *
at_top (char *buf, size_t size, const char *rel)
{
  snprintf (buf, size, "%s/%s", top, rel);
  return buf;
}

/** Set an access ACL on PATH (and a default one if DEFAULT_ACL): with
    setfacl(1) when installed, else by writing the xattr directly.  */
static bool
set_acl (const char *path, bool default_acl)
{
  char cmd[8400];
  snprintf (cmd, sizeof cmd, "setfacl %s -m u:65534:r '%s' 2>/dev/null",
            default_acl ? "-d" : "", path);
  if (system (cmd) == 0)
    return true;
  return set_posix_acl (path, default_acl);
}

/** Build the test tree under TOP.  */
static void
make_tree (void)
{
  char p[8192], q[8192];
  const char *tmp = getenv ("TMPDIR");
  snprintf (top, sizeof top, "%s/dirplus-unit.XXXXXX",
            tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp (top) || chmod (top, 0755) < 0)
    die ("mkdtemp");
  make_file (top, "file", 0644);
  make_file (top, "exec", 0755);
  make_file (top, ".hidden", 0600);
  make_file (top, "skip-me", 0600);
  make_file (top, "acl-file", 0644);
  make_file (top, "label-file", 0644);
  make_file (top, "cap-file", 0755);
  make_file (top, "both", 0644);
  if (mkdir (at_top (p, sizeof p, "dir"), 0755) < 0
      || mkdir (at_top (p, sizeof p, "acl-dir"), 0755) < 0
      || mkdir (at_top (p, sizeof p, "big"), 0755) < 0
      || mkdir (at_top (p, sizeof p, "noexec"), 0755) < 0
      || mkdir (at_top (p, sizeof p, "noread"), 0755) < 0)
    die ("mkdir");
  make_file (at_top (p, sizeof p, "dir"), "inner", 0644);
  make_file (at_top (p, sizeof p, "noexec"), "a", 0644);
  make_file (at_top (p, sizeof p, "noexec"), "b", 0644);
  if (symlink ("file", at_top (p, sizeof p, "link-file")) < 0
      || symlink ("dir", at_top (p, sizeof p, "link-dir")) < 0
      || symlink ("acl-file", at_top (p, sizeof p, "link-acl")) < 0
      || symlink ("nowhere", at_top (p, sizeof p, "dangling")) < 0
      || mkfifo (at_top (p, sizeof p, "fifo"), 0644) < 0)
    die ("symlink/mkfifo");
  if (link (at_top (p, sizeof p, "file"),
            at_top (q, sizeof q, "hardlink")) < 0)
    die ("link");

  have_acl = (set_acl (at_top (p, sizeof p, "acl-file"), false)
              && set_acl (at_top (p, sizeof p, "both"), false)
              && set_acl (at_top (p, sizeof p, "acl-dir"), true));
  if (!have_acl)
    printf ("note: cannot set ACLs here (%s): ACL bits only checked absent\n",
            strerror (errno));

  const char label[] = "system_u:object_r:user_home_t:s0";
  have_label = (setxattr (at_top (p, sizeof p, "label-file"),
                          "security.selinux", label, sizeof label, 0) == 0
                && setxattr (at_top (p, sizeof p, "both"),
                             "security.selinux", label, sizeof label, 0) == 0
                && lsetxattr (at_top (p, sizeof p, "link-file"),
                              "security.selinux", label, sizeof label,
                              0) == 0);
  if (!have_label)
    printf ("note: cannot set security.selinux here (%s)\n", strerror (errno));

  /* struct vfs_cap_data, revision 2: CAP_NET_RAW permitted.  */
  uint32_t cap[5] = { 0x02000000, 1u << 13, 0, 0, 0 };
  have_cap = setxattr (at_top (p, sizeof p, "cap-file"), "security.capability",
                       cap, sizeof cap, 0) == 0;
  if (!have_cap)
    printf ("note: cannot set security.capability here (%s)\n",
            strerror (errno));

  at_top (p, sizeof p, "big");
  for (int i = 0; i < BIG_DIR_ENTRIES; i++)
    {
      char name[64];
      snprintf (name, sizeof name, "entry-with-a-longish-name-%05d", i);
      make_file (p, name, 0644);
    }
}

/** nftw callback: remove one file.  */
static int
rm_one (const char *path, const struct stat *st, int type, struct FTW *ftw)
{
  if (type == FTW_DP)
    {
      chmod (path, 0700);
      return rmdir (path) < 0 ? -1 : 0;
    }
  return unlink (path) < 0 ? -1 : 0;
}

/** Remove the test tree.  */
static void
remove_tree (void)
{
  char p[8192];
  chmod (at_top (p, sizeof p, "noexec"), 0755);
  chmod (at_top (p, sizeof p, "noread"), 0755);
  nftw (top, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/** Whether PATH has xattr XNAME (with a value of at least MINSIZE bytes),
    following a final symlink if FOLLOW.  */
static bool
has_xattr (const char *path, const char *xname, bool follow, ssize_t minsize)
{
  ssize_t n = (follow ? getxattr (path, xname, NULL, 0)
               : lgetxattr (path, xname, NULL, 0));
  return n >= minsize;
}

/** The attribute bits GNU ls 9.1 would find for PATH with mode MODE.  */
static unsigned int
expected_attrs (const char *path, mode_t mode, bool follow)
{
  unsigned int bits = 0;
  if (!S_ISLNK (mode))
    {
      if (has_xattr (path, "system.posix_acl_access", true, 1))
        bits |= DIRPLUS_ATTR_ACL_ACCESS;
      if (S_ISDIR (mode) && has_xattr (path, "system.posix_acl_default",
                                       true, 1))
        bits |= DIRPLUS_ATTR_ACL_DEFAULT;
    }
  if (has_xattr (path, "security.selinux", follow, 0))
    bits |= DIRPLUS_ATTR_LABEL;
  if (S_ISREG (mode) && has_xattr (path, "security.capability", follow, 0))
    bits |= DIRPLUS_ATTR_CAP;
  return bits;
}

/** Check entry E of directory DIRPATH (open as DIRFD) read with FLAGS
    and MASK against fstatat and getxattr.  */
static void
check_entry (const char *dirpath, int dirfd, const struct dirplus_entry *e,
             unsigned int mask, unsigned int flags, const char *backend)
{
  bool follow = flags & DIRPLUS_FOLLOW;
  char path[8192];
  snprintf (path, sizeof path, "%s/%s", dirpath, e->name);
  if (strlen (e->name) != e->namelen)
    fail ("%s: %s: namelen %zu", backend, path, e->namelen);

  struct stat lst;
  if (fstatat (dirfd, e->name, &lst, AT_SYMLINK_NOFOLLOW) == 0)
    {
      if (e->ino != lst.st_ino && strcmp (e->name, "..") != 0)
        fail ("%s: %s: d_ino %llu, lstat %llu", backend, path,
              (unsigned long long) e->ino, (unsigned long long) lst.st_ino);
      if (e->d_type != DT_UNKNOWN
          && DTTOIF (e->d_type) != (lst.st_mode & S_IFMT))
        fail ("%s: %s: d_type %d, mode %o", backend, path, e->d_type,
              lst.st_mode);
    }

  if (flags & DIRPLUS_NO_STAT)
    {
      if (e->stx.stx_mask != 0 || e->stat_errno != 0)
        fail ("%s: %s: stat'ed with DIRPLUS_NO_STAT", backend, path);
      return;
    }

  struct stat st;
  int err = 0;
  if (fstatat (dirfd, e->name, &st, follow ? 0 : AT_SYMLINK_NOFOLLOW) < 0)
    err = errno;
  if (err != e->stat_errno)
    {
      fail ("%s: %s: stat_errno %d, fstatat %d", backend, path,
            e->stat_errno, err);
      return;
    }
  unsigned int wanted = dirplus_wanted_attrs (flags);
  if (err)
    {
      if (e->attr != 0 || e->attr_unknown != wanted)
        fail ("%s: %s: stat failed but attr %#x unknown %#x", backend, path,
              e->attr, e->attr_unknown);
      return;
    }

  const struct statx *x = &e->stx;
  if ((x->stx_mask & mask) != mask)
    fail ("%s: %s: stx_mask %#x lacks %#x", backend, path, x->stx_mask, mask);
  /* ".." is the temporary directory, which others change meanwhile.  */
  if (strcmp (e->name, "..") == 0)
    {
      if (x->stx_ino != st.st_ino || x->stx_mode != st.st_mode
          || x->stx_uid != st.st_uid || x->stx_gid != st.st_gid)
        fail ("%s: %s: statx fields differ from fstatat", backend, path);
    }
  else if (x->stx_ino != st.st_ino || x->stx_mode != st.st_mode
      || x->stx_nlink != st.st_nlink || x->stx_uid != st.st_uid
      || x->stx_gid != st.st_gid || x->stx_size != (uint64_t) st.st_size
      || x->stx_blocks != (uint64_t) st.st_blocks
      || makedev (x->stx_dev_major, x->stx_dev_minor) != st.st_dev
      || makedev (x->stx_rdev_major, x->stx_rdev_minor) != st.st_rdev
      || x->stx_mtime.tv_sec != st.st_mtim.tv_sec
      || x->stx_mtime.tv_nsec != (uint32_t) st.st_mtim.tv_nsec
      || x->stx_ctime.tv_sec != st.st_ctim.tv_sec
      || x->stx_ctime.tv_nsec != (uint32_t) st.st_ctim.tv_nsec
      || x->stx_blksize != (uint32_t) st.st_blksize)
    fail ("%s: %s: statx fields differ from fstatat", backend, path);

  /* GNU 9.1's file_has_acl, as the library decides it for ls.  */
  unsigned int acl_bits = (expected_attrs (path, st.st_mode, follow)
                           & DIRPLUS_ATTR_ACL);
  uint64_t calls = dirplus_counters.xattr_calls;	/* not the backend's */
  int has = dirplus_file_has_acl (dirfd, e->name, st.st_mode);
  dirplus_counters.xattr_calls = calls;
  if (has != (acl_bits != 0))
    fail ("%s: %s: dirplus_file_has_acl %d, expected %d", backend, path, has,
          acl_bits != 0);

  unsigned int want_bits = wanted & expected_attrs (path, st.st_mode, follow);
  /* GNU's probes (a network filesystem) stop at the access ACL.  */
  if (probe_mode && (want_bits & DIRPLUS_ATTR_ACL_ACCESS))
    want_bits &= ~DIRPLUS_ATTR_ACL_DEFAULT;
  if (e->attr != want_bits || e->attr_unknown != 0 || e->attr_errno != 0)
    fail ("%s: %s: attr %#x unknown %#x errno %d, expected %#x", backend,
          path, e->attr, e->attr_unknown, e->attr_errno, want_bits);
}

/** Names of DIRPATH per readdir(3), sorted, in *NAMES; returns count.  */
static size_t
readdir_names (const char *dirpath, char ***names)
{
  DIR *dir = opendir (dirpath);
  if (!dir)
    die (dirpath);
  size_t n = 0, cap = 64;
  char **v = malloc (cap * sizeof *v);
  for (struct dirent *de; (de = readdir (dir));)
    {
      if (n == cap)
        v = realloc (v, (cap *= 2) * sizeof *v);
      v[n++] = strdup (de->d_name);
    }
  closedir (dir);
  *names = v;
  return n;
}

/** strcmp for qsort on char *.  */
static int
cmp_names (const void *a, const void *b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

/** The filter of the tests: drop "skip-*", make "vanish" vanish.  */
static bool
test_filter (const char *name, size_t len, unsigned char d_type, void *arg)
{
  int dirfd = *(int *) arg;
  if (strcmp (name, "vanish") == 0)
    unlinkat (dirfd, name, 0);
  return strncmp (name, "skip-", 5) != 0;
}

/** Read directory DIRPATH with FLAGS through dirplus and check it all.
    Returns the number of batches.  */
static int
check_dir (const char *dirpath, unsigned int flags, bool filter,
           const char *backend)
{
  unsigned int mask = STATX_BASIC_STATS;
  struct dirplus_dir *d = dirplus_open (AT_FDCWD, dirpath, mask, flags);
  if (!d)
    {
      fail ("%s: dirplus_open %s: %s", backend, dirpath, strerror (errno));
      return 0;
    }
  int fd = dirplus_fd (d);
  if (filter)
    dirplus_set_filter (d, test_filter, &fd);

  char **want;
  size_t nwant = readdir_names (dirpath, &want);
  size_t ngot = 0, cap = nwant + 8;
  char **got = malloc (cap * sizeof *got);
  int batches = 0;
  struct dirplus_entry *ents;
  ssize_t n;
  while ((n = dirplus_read (d, &ents)) > 0)
    {
      batches++;
      for (ssize_t i = 0; i < n; i++)
        {
          if (strcmp (ents[i].name, "vanish") == 0)
            {
              if (ents[i].stat_errno != ENOENT
                  && !(flags & DIRPLUS_NO_STAT))
                fail ("%s: vanished entry: stat_errno %d", backend,
                      ents[i].stat_errno);
            }
          else
            check_entry (dirpath, fd, &ents[i], mask, flags, backend);
          if (ngot < cap)
            got[ngot++] = strdup (ents[i].name);
        }
    }
  if (n < 0)
    fail ("%s: dirplus_read %s: %s", backend, dirpath, strerror (errno));
  if (dirplus_close (d) < 0)
    fail ("%s: dirplus_close: %s", backend, strerror (errno));

  /* Compare the name sets (readdir ran before the filter's unlink).  */
  size_t j = 0;
  for (size_t i = 0; i < nwant; i++)
    {
      if (filter && strncmp (want[i], "skip-", 5) == 0)
        {
          free (want[i]);
          continue;
        }
      want[j++] = want[i];
    }
  nwant = j;
  qsort (want, nwant, sizeof *want, cmp_names);
  qsort (got, ngot, sizeof *got, cmp_names);
  if (nwant != ngot)
    fail ("%s: %s: %zu entries, readdir %zu", backend, dirpath, ngot, nwant);
  else
    for (size_t i = 0; i < nwant; i++)
      if (strcmp (want[i], got[i]) != 0)
        {
          fail ("%s: %s: entry %s, readdir %s", backend, dirpath, got[i],
                want[i]);
          break;
        }
  for (size_t i = 0; i < ngot; i++)
    free (got[i]);
  free (got);
  for (size_t i = 0; i < nwant; i++)
    free (want[i]);
  free (want);
  return batches;
}

/** The directory's own stat and the end of a small directory with the
    getdentsplus backend (ABI 3: with the first batch and the last
    record's mark, so one call per directory, no fstat; older modules:
    fstat and a second call).  ls -R's sequence: open, fstat, read.
    V3 < 0: the in-tree call, whose flags the library uses where its
    headers define them and the (emulated) kernel accepts them.  */
static void
check_self_end (const char *backend, int v3)
{
  char p[8192];
  struct dirplus_stats before, after;
  struct stat want, got;
  dirplus_get_stats (&before);
  struct dirplus_dir *d = dirplus_open (AT_FDCWD, at_top (p, sizeof p, "dir"),
                                        STATX_BASIC_STATS, DIRPLUS_WANT_ACL);
  if (!d)
    {
      fail ("%s: open %s: %s", backend, p, strerror (errno));
      return;
    }
  if (v3 < 0)
    {
      v3 = d->ops->self && d->ops->self (d);
      if (v3 && fake_sys_old)
        fail ("%s: the directory record asked of a kernel without it",
              backend);
      printf ("%s: directory record and end mark: %s\n", backend,
              v3 ? "used" : "not used");
    }
  if (fstat (dirplus_fd (d), &want) != 0 || dirplus_fstat (d, &got) != 0)
    fail ("%s: fstat: %s", backend, strerror (errno));
  else if (got.st_dev != want.st_dev || got.st_ino != want.st_ino
           || got.st_mode != want.st_mode || got.st_nlink != want.st_nlink
           || got.st_mtim.tv_sec != want.st_mtim.tv_sec
           || got.st_mtim.tv_nsec != want.st_mtim.tv_nsec)
    fail ("%s: dirplus_fstat differs from fstat", backend);
  struct dirplus_entry *ents;
  ssize_t n, total = 0;
  while ((n = dirplus_read (d, &ents)) > 0)
    {
      for (ssize_t i = 0; i < n; i++)
        if (ents[i].namelen == 0)
          fail ("%s: the directory's own record listed as an entry",
                backend);
      total += n;
    }
  if (n < 0)
    fail ("%s: read: %s", backend, strerror (errno));
  dirplus_close (d);
  dirplus_get_stats (&after);
  unsigned long long calls = after.batch_calls - before.batch_calls;
  if (calls != (v3 ? 1 : 2))
    fail ("%s: %lld entries of a small directory in %llu calls (want %d)",
          backend, (long long) total, calls, v3 ? 1 : 2);
}

/** The cold-cache check's timing is sampled: of 100 warm directories
    opened and read with dirplus_open, the first 16 and then one in 16
    are timed (a read slowed down by the machine adds one more each);
    every one of them was before, four clock_gettime calls per
    directory, each a system call where the vDSO has no clocksource
    (QEMU TCG).  With LSPLUS_COLD_USEC=0 (ZERO) none is.  */
static int
child_cold_sampling (int zero)
{
  setenv ("LSPLUS_BACKEND", "sync", 1);
  if (zero)
    setenv ("LSPLUS_COLD_USEC", "0", 1);
  char p[8192];
  struct dirplus_stats before, after;
  dirplus_get_stats (&before);
  for (int i = 0; i < 100; i++)
    {
      snprintf (p, sizeof p, "%s/cold-%d-%03d", top, zero, i);
      if (mkdir (p, 0755) < 0)
        die ("mkdir");
      struct dirplus_dir *d = dirplus_open (AT_FDCWD, p, 0, DIRPLUS_NO_STAT);
      if (!d)
        die ("dirplus_open");
      struct dirplus_entry *ents;
      while (0 < dirplus_read (d, &ents))
        continue;
      dirplus_close (d);
      rmdir (p);
    }
  dirplus_get_stats (&after);
  unsigned long long n = after.cold_timed - before.cold_timed;
  printf ("cold check, %s: %llu of 100 directories timed\n",
          zero ? "LSPLUS_COLD_USEC=0" : "default", n);
  if (zero ? n != 0 : n < 16 + 84 / 16 || 40 < n)
    {
      fail ("cold check: %llu of 100 directories timed (want %s)", n,
            zero ? "0" : "16 + 1 in 16, a few more at most");
      return 1;
    }
  return 0;
}

/** Close what the library keeps to close later.  */
static void
flush_all_closes (void)
{
  dirplus_flush_closes ();
#if USE_URING
  dirplus_uring_flush_closes ();
#endif
}

/** The number of open fds of this process.  */
static int
count_fds (void)
{
  int n = 0;
  DIR *dir = opendir ("/proc/self/fd");
  if (!dir)
    return -1;
  while (readdir (dir))
    n++;
  closedir (dir);
  return n;
}

/** Subdirectories hinted with dirplus_ahead (ls -R) and opened ahead
    (dirplus-openahead.c, the getdentsplus backends): each dirplus_open
    gives the right directory, or the open's own error; hints never taken
    are closed with their parent; no fd is left behind.  */
static void
check_openahead (const char *backend)
{
  char p[8192], q[8300];
  at_top (p, sizeof p, "oa");
  mkdir (p, 0755);
  char *names[12];
  for (int i = 0; i < 10; i++)
    {
      snprintf (q, sizeof q, "%s/s%d", p, i);
      mkdir (q, 0755);
      names[i] = strdup (q + strlen (p) + 1);
    }
  make_file (p, "file", 0644);
  names[10] = (char *) "file";
  names[11] = (char *) "nope";
  /* Round 0 creates what lives for the whole process (a ring); rounds
     1 and 2 must then leave no fd behind.  */
  int fds = -1;
  for (int round = 0; round < 3; round++)
    {
      if (round == 1)
        {
          flush_all_closes ();
          fds = count_fds ();
        }
      struct dirplus_dir *d = dirplus_open (AT_FDCWD, p, STATX_BASIC_STATS,
                                            DIRPLUS_WANT_ACL);
      struct stat st;
      if (!d || dirplus_fstat (d, &st) != 0)
        {
          fail ("%s: open/fstat %s: %s", backend, p, strerror (errno));
          return;
        }
      dirplus_set_dev (d, st.st_dev);
      dirplus_ahead (d, names, 12);
      /* Rounds 0 and 1 take every hint; round 2 only two, the rest goes
         with the parent.  */
      for (int i = 0; i < (round == 2 ? 2 : 12); i++)
        {
          struct dirplus_dir *s = dirplus_open (dirplus_fd (d), names[i],
                                                STATX_BASIC_STATS,
                                                DIRPLUS_WANT_ACL);
          struct stat want, got;
          int err = errno;
          if (i >= 10)
            {
              if (s || err != (i == 10 ? ENOTDIR : ENOENT))
                fail ("%s: opened ahead: %s: %s, want %s", backend, names[i],
                      s ? "opened" : strerror (err),
                      strerror (i == 10 ? ENOTDIR : ENOENT));
              dirplus_close (s);
              continue;
            }
          if (!s)
            {
              fail ("%s: opened ahead: %s: %s", backend, names[i],
                    strerror (err));
              continue;
            }
          if (fstatat (dirplus_fd (d), names[i], &want, 0) != 0
              || fstat (dirplus_fd (s), &got) != 0
              || want.st_ino != got.st_ino || want.st_dev != got.st_dev)
            fail ("%s: opened ahead: %s is another directory", backend,
                  names[i]);
          dirplus_close (s);
        }
      dirplus_close (d);
    }
  /* Directories read ahead on a remote filesystem (dirplus-ahead.c)
     and dropped while being read are closed by their thread when it
     finishes: give it a moment.  */
  int after;
  for (int i = 0; i < 200 && (flush_all_closes (), after = count_fds ()) != fds;
       i++)
    usleep (10 * 1000);
  if (after != fds)
    fail ("%s: opening ahead left %d fds open (%d before, %d after)",
          backend, after - fds, fds, after);
  for (int i = 0; i < 10; i++)
    free (names[i]);
}

/** Check dirplus_stat on a few names of the tree.  */
static void
check_stat (const char *backend)
{
  static const char *const names[] =
    { "file", "link-file", "link-dir", "dangling", "acl-dir", "both",
      "missing" };
  int dirfd = open (top, O_RDONLY | O_DIRECTORY);
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    for (int follow = 0; follow < 2; follow++)
      {
        unsigned int flags = (DIRPLUS_WANT_ACL | DIRPLUS_WANT_LABEL
                              | DIRPLUS_WANT_CAP
                              | (follow ? DIRPLUS_FOLLOW : 0));
        struct dirplus_entry e;
        int r = dirplus_stat (dirfd, names[i], STATX_BASIC_STATS, flags, &e);
        if ((r < 0) != (e.stat_errno != 0))
          fail ("%s: dirplus_stat %s: r %d stat_errno %d", backend, names[i],
                r, e.stat_errno);
        struct stat lst;
        if (fstatat (dirfd, names[i], &lst, AT_SYMLINK_NOFOLLOW) == 0)
          e.ino = lst.st_ino, e.d_type = IFTODT (lst.st_mode);
        check_entry (top, dirfd, &e, STATX_BASIC_STATS, flags, backend);
      }
  close (dirfd);
}

/** Check that an "xattrs unsupported" answer is cached per device.  */
static void
check_unsupported_cache (const char *backend)
{
  struct dirplus_entry e;
  if (dirplus_stat (AT_FDCWD, top, STATX_BASIC_STATS, 0, &e) < 0)
    die (top);
  dirplus_attrs_failed (&e, DIRPLUS_ATTR_ACL | DIRPLUS_ATTR_LABEL,
                        EOPNOTSUPP);
  struct dirplus_stats before, after;
  dirplus_get_stats (&before);
  struct dirplus_dir *d = dirplus_open (AT_FDCWD, top, STATX_BASIC_STATS,
                                        DIRPLUS_WANT_ACL | DIRPLUS_WANT_LABEL);
  if (!d)
    die (top);
  struct dirplus_entry *ents;
  ssize_t n;
  while ((n = dirplus_read (d, &ents)) > 0)
    for (ssize_t i = 0; i < n; i++)
      if (ents[i].attr || (ents[i].attr_unknown && !ents[i].stat_errno))
        fail ("%s: %s on an unsupported device: attr %#x unknown %#x",
              backend, ents[i].name, ents[i].attr, ents[i].attr_unknown);
  dirplus_close (d);
  dirplus_get_stats (&after);
  if (after.xattr_calls != before.xattr_calls)
    fail ("%s: %llu xattr calls on a device known unsupported", backend,
          (unsigned long long) (after.xattr_calls - before.xattr_calls));
}

/** A user-space stand-in for the getdentsplus module, following the uapi
    header: getdents64, then per entry statx and the GNU attribute probes,
    written as getdentsplus records.  It lets the backend's record parsing
    and bit mapping run where the module is not loaded.  Like the module,
    it leaves symlinks to follow unresolved (GDP_REC_UNRESOLVED); with
    FAKE_GROW its header is longer than this header's struct, as a later
    ABI version's may be: the name is found through name_off.  Unless it
    plays an older module (FAKE_V1, FAKE_V2), it honours GDP_WANT_SELF
    (at position 0, the directory's own record first) and GDP_MARK_END
    (a second getdents64 finds the end, or the position goes back).  */
static long
fake_gdp (int fd, void *buf, size_t size, unsigned int mask,
          unsigned int flags)
{
  const size_t hdr = offsetof (struct getdentsplus_entry, name);
  if ((flags & ~GDP_FLAGS_ALL) || !(flags & GDP_AT_FLAGS)
      || size < GETDENTSPLUS_ENTRY_MIN)
    {
      errno = EINVAL;
      return -1;
    }
  if (fake_v1 || fake_v2)
    flags &= ~(GDP_WANT_SELF | GDP_MARK_END);
  size_t out = 0;
  if ((flags & GDP_WANT_SELF) && lseek (fd, 0, SEEK_CUR) == 0)
    {
      struct getdentsplus_entry *r = buf;
      uint32_t reclen = (hdr + fake_grow + 1 + 7) & ~7u;
      memset (r, 0, reclen);
      r->reclen = reclen;
      r->d_type = DT_DIR;
      r->flags = GDP_REC_SELF;
      r->name_off = hdr + fake_grow;
      r->attr_unknown = GDP_ATTR_ALL;
      if (statx (fd, "", AT_EMPTY_PATH, mask, (struct statx *) &r->stx) < 0)
        r->error = errno;
      r->d_ino = r->stx.stx_ino;
      out = reclen;
      size -= reclen;
    }
  /* Few enough getdents64 records (>= 24 bytes each) that their
     getdentsplus records (<= hdr + 256 bytes + padding) fit in SIZE.  */
  size_t gsize = size / (hdr + fake_grow + 264) * 24;
  if (gsize < 1024)
    gsize = 1024;
  char *g = malloc (gsize);
  long n = syscall (SYS_getdents64, fd, g, gsize);
  struct getdentsplus_entry *last = NULL;
  bool follow = flags & AT_SYMLINK_FOLLOW;
  for (long off = 0; off < n;)
    {
      struct { uint64_t ino; int64_t off; unsigned short reclen;
               unsigned char type; char name[]; } *de = (void *) (g + off);
      off += de->reclen;
      size_t len = strlen (de->name);
      if ((flags & GDP_SKIP_DOTS) && de->name[0] == '.'
          && (len == 1 || (len == 2 && de->name[1] == '.')))
        continue;
      struct getdentsplus_entry *r = (void *) ((char *) buf + out);
      uint32_t reclen = (hdr + fake_grow + len + 1 + 7) & ~7u;
      if (out + reclen > size)
        break;
      memset (r, 0, reclen);
      last = r;
      r->d_ino = de->ino;
      r->d_off = de->off;
      r->reclen = reclen;
      r->namelen = len;
      r->d_type = de->type;
      r->name_off = fake_v1 ? 0 : hdr + fake_grow;
      char *rname = (char *) r + hdr + fake_grow;
      memcpy (rname, de->name, len + 1);
      out += reclen;
      struct stat lst;
      if (follow && !fake_v1
          && fstatat (fd, rname, &lst, AT_SYMLINK_NOFOLLOW) == 0
          && S_ISLNK (lst.st_mode))
        {
          r->flags = GDP_REC_UNRESOLVED;
          r->attr_unknown = GDP_ATTR_ALL;
          continue;
        }
      int atflags = (flags & AT_NO_AUTOMOUNT)
                    | (follow ? 0 : AT_SYMLINK_NOFOLLOW);
      if (statx (fd, rname, atflags, mask, (struct statx *) &r->stx) < 0)
        {
          r->error = errno;
          memset (&r->stx, 0, sizeof r->stx);
          continue;
        }
      char path[8192];
      snprintf (path, sizeof path, "/proc/self/fd/%d/%s", fd, rname);
      r->attr_unknown = GDP_ATTR_ALL;
      /* Like the module on a remote filesystem: ACLs not in memory are
         left to user space.  */
      if ((flags & GDP_WANT_ACL) && !fake_remote)
        {
          r->attr_unknown &= ~(GDP_ATTR_ACL_ACCESS | GDP_ATTR_ACL_DEFAULT);
          if (has_xattr (path, "system.posix_acl_access", follow, 1))
            r->attr |= GDP_ATTR_ACL_ACCESS;
          if (S_ISDIR (r->stx.stx_mode)
              && has_xattr (path, "system.posix_acl_default", follow, 1))
            r->attr |= GDP_ATTR_ACL_DEFAULT;
        }
      if (flags & GDP_WANT_LABEL)
        {
          r->attr_unknown &= ~GDP_ATTR_LABEL;
          if (has_xattr (path, "security.selinux", follow, 0))
            r->attr |= GDP_ATTR_LABEL;
        }
      if (flags & GDP_WANT_CAP)
        {
          r->attr_unknown &= ~GDP_ATTR_CAP;
          if (has_xattr (path, "security.capability", follow, 0))
            r->attr |= GDP_ATTR_CAP;
        }
    }
  if (0 < n && (flags & GDP_MARK_END))
    {
      /* At the end?  Look once more, and go back if not.  */
      off_t here = lseek (fd, 0, SEEK_CUR);
      long more = syscall (SYS_getdents64, fd, g, gsize);
      if (more == 0 && last)
        last->flags |= GDP_REC_END;
      else if (more > 0)
        lseek (fd, here, SEEK_SET);
    }
  free (g);
  return n < 0 ? -1 : (long) out;
}

/** A stand-in for the in-tree getdentsplus(2) call of upstream/'s series
    on top of fake_gdp.  The in-tree uapi header cannot be included next
    to the module's (same name and guard), so its values are written out
    and checked against dirplus-impl.h's description of its records
    (struct dirplus_rec_sx): request {size, statx_mask} (8 bytes); flags
    AT_SYMLINK_FOLLOW, AT_NO_AUTOMOUNT, AT_STATX_FORCE_SYNC,
    AT_STATX_DONT_SYNC and the call's own SKIP_DOTS 0x1, SELF 0x2,
    MARK_END 0x4 (the module's 0x2, 0x4, 0x8); record flags the module's.
    Each of fake_gdp's records is rewritten in the series' layout: no
    attribute fields, and with STATX_XATTR_INFO asked, STATX_ATTR_ACL and
    STATX_ATTR_SECLABEL (and their bits in stx_attributes_mask) where the
    module's bits determined them, as the series' statx would report
    them.  With fake_sys_old it plays a kernel of an earlier revision of
    the series, whose request was 16 bytes: EINVAL.  Checks what the
    series checks first: unknown flags (EINVAL), then the request's
    size.  */
static long
fake_sys (int fd, const void *req, void *buf, size_t size,
          unsigned int flags)
{
  uint32_t r[2];
  memcpy (r, req, sizeof r);
  unsigned int known = (AT_SYMLINK_FOLLOW | AT_NO_AUTOMOUNT
                        | AT_STATX_SYNC_TYPE | 0x7u);
  if ((flags & ~known) || (flags & AT_STATX_SYNC_TYPE) == AT_STATX_SYNC_TYPE
      || r[0] < (fake_sys_old ? 16 : 8))
    {
      errno = EINVAL;
      return -1;
    }
  unsigned int f = GDP_AT_FLAGS | (flags & GDP_AT_ALL) | ((flags & 0x7u) << 1);
  bool xinfo = r[1] & STATX_XATTR_INFO;
  if (xinfo)
    f |= GDP_WANT_ACL | GDP_WANT_LABEL;
  if (fcntl (fd, F_GETFD) < 0)
    return -1;			/* EBADF, as the probe wants */
  fake_sys_calls++;
  long n = fake_gdp (fd, buf, size, r[1] & ~STATX_XATTR_INFO, f);
  if (n <= 0)
    return n;
  /* Each record moves to where the shorter header puts it.  */
  const size_t mhdr = offsetof (struct getdentsplus_entry, name);
  const size_t shdr = offsetof (struct dirplus_rec_sx, name);
  char *in = buf, *out = buf;
  for (long off = 0; off < n;)
    {
      struct getdentsplus_entry m;
      memcpy (&m, in + off, sizeof m);
      const char *name = in + off + (m.name_off ? m.name_off : mhdr);
      struct dirplus_rec_sx x = {
        .d_ino = m.d_ino, .d_off = m.d_off, .namelen = m.namelen,
        .d_type = m.d_type, .flags = m.flags, .error = m.error,
        .name_off = shdr, .stx = m.stx,
      };
      x.reclen = (shdr + m.namelen + 1 + 7) & ~7u;
      if (xinfo && !m.error && m.stx.stx_mask)
        {
          unsigned int acl = GDP_ATTR_ACL_ACCESS
            | (S_ISDIR (m.stx.stx_mode) ? GDP_ATTR_ACL_DEFAULT : 0);
          x.stx.stx_attributes &= ~(uint64_t) (STATX_ATTR_ACL
                                               | STATX_ATTR_SECLABEL);
          if (!(m.attr_unknown & acl))
            {
              x.stx.stx_attributes_mask |= STATX_ATTR_ACL;
              if (m.attr & acl)
                x.stx.stx_attributes |= STATX_ATTR_ACL;
            }
          if (!(m.attr_unknown & GDP_ATTR_LABEL))
            {
              x.stx.stx_attributes_mask |= STATX_ATTR_SECLABEL;
              if (m.attr & GDP_ATTR_LABEL)
                x.stx.stx_attributes |= STATX_ATTR_SECLABEL;
            }
          if (!(m.attr_unknown & (acl | GDP_ATTR_LABEL)))
            x.stx.stx_mask |= STATX_XATTR_INFO;
        }
      char nm[NAME_MAX + 1];
      memcpy (nm, name, m.namelen);
      nm[m.namelen] = '\0';
      off += m.reclen;
      memcpy (out, &x, shdr);
      memcpy (out + shdr, nm, m.namelen + 1);
      memset (out + shdr + m.namelen + 1, 0, x.reclen - shdr - m.namelen - 1);
      out += x.reclen;
    }
  return out - (char *) buf;
}

/** All checks with backend B, in this (child) process.  */
static int
run_backend (enum dirplus_backend b)
{
  const char *name = dirplus_backend_name (b);
  if (dirplus_setup (b) != (int) b)
    {
      printf ("SKIP: backend %s unavailable: %s\n", name, strerror (errno));
      return 77;
    }
  char p[8192];
  /* A name that vanishes between getdents64 and statx (the filter removes
     it); getdentsplus stats in the kernel, before the filter runs.  */
  if (b != DIRPLUS_GETDENTSPLUS && b != DIRPLUS_INTREE)
    make_file (top, "vanish", 0644);
  const unsigned int all = (DIRPLUS_WANT_ACL | DIRPLUS_WANT_LABEL
                            | DIRPLUS_WANT_CAP);
  check_dir (top, all, true, name);
  check_dir (top, all | DIRPLUS_FOLLOW, false, name);
  check_dir (top, 0, false, name);
  check_dir (top, DIRPLUS_WANT_LABEL, false, name);
  check_dir (top, DIRPLUS_NO_STAT, false, name);
  check_dir (at_top (p, sizeof p, "acl-dir"), all, false, name);
  check_dir (at_top (p, sizeof p, "dir"), all, false, name);

  struct dirplus_stats before, after;
  dirplus_get_stats (&before);
  int batches = check_dir (at_top (p, sizeof p, "big"), all, false, name);
  dirplus_get_stats (&after);
  if (batches < 2)
    fail ("%s: %d entries came in %d batch(es)", name, BIG_DIR_ENTRIES,
          batches);
  uint64_t ents = after.entries - before.entries;
  if (ents != BIG_DIR_ENTRIES + 2)
    fail ("%s: big dir: %llu entries", name, (unsigned long long) ents);
  /* One listxattr per entry; GNU's probes: one per bit asked (label,
     access ACL, capability for these regular files), as GNU 9.1 would.  */
  uint64_t xattr_limit = probe_mode ? 3 * ents : ents;
  if (b == DIRPLUS_SYNC
      && (after.stat_calls - before.stat_calls > ents
          || after.xattr_calls - before.xattr_calls > xattr_limit))
    fail ("%s: big dir: %llu statx, %llu xattr calls for %llu entries", name,
          (unsigned long long) (after.stat_calls - before.stat_calls),
          (unsigned long long) (after.xattr_calls - before.xattr_calls),
          (unsigned long long) ents);
  printf ("%s: big dir: %llu entries in %d batches, %llu statx, "
          "%llu xattr calls\n", name, (unsigned long long) ents, batches,
          (unsigned long long) (after.stat_calls - before.stat_calls),
          (unsigned long long) (after.xattr_calls - before.xattr_calls));

  check_stat (name);
  if (b == DIRPLUS_GETDENTSPLUS && dirplus_gdp_call != NULL)
    check_self_end (name, !fake_v1 && !fake_v2);
  /* The in-tree call's records say the same where its headers have the
     flags; an emulated first revision of the series: fstat, two calls.  */
  if (b == DIRPLUS_INTREE && dirplus_sys_call != NULL)
    check_self_end (name, -1);
  check_openahead (name);
  check_unsupported_cache (name);
  return failures ? 1 : 0;
}

/** As uid 65534: a directory without search permission lists names whose
    stat fails with EACCES; one without read permission does not open.  */
static int
run_unprivileged (void)
{
  if (setgid (65534) < 0 || setuid (65534) < 0)
    die ("setuid");
  dirplus_setup (DIRPLUS_SYNC);
  char p[8192];
  struct dirplus_dir *d = dirplus_open (AT_FDCWD,
                                        at_top (p, sizeof p, "noexec"),
                                        STATX_BASIC_STATS,
                                        DIRPLUS_WANT_ACL | DIRPLUS_WANT_LABEL);
  if (!d)
    fail ("unprivileged: dirplus_open noexec: %s", strerror (errno));
  else
    {
      struct dirplus_entry *ents;
      ssize_t n;
      size_t count = 0;
      while ((n = dirplus_read (d, &ents)) > 0)
        for (ssize_t i = 0; i < n; i++, count++)
          if (ents[i].stat_errno != EACCES
              || ents[i].attr_unknown != (DIRPLUS_ATTR_ACL
                                          | DIRPLUS_ATTR_LABEL)
              || ents[i].attr_errno != EACCES)
            fail ("unprivileged: noexec/%s: stat_errno %d attr_unknown %#x",
                  ents[i].name, ents[i].stat_errno, ents[i].attr_unknown);
      if (n < 0 || count != 4)
        fail ("unprivileged: noexec: %zu entries (%s)", count,
              n < 0 ? strerror (errno) : "no error");
      dirplus_close (d);
    }
  d = dirplus_open (AT_FDCWD, at_top (p, sizeof p, "noread"),
                    STATX_BASIC_STATS, 0);
  if (d || errno != EACCES)
    fail ("unprivileged: dirplus_open noread: %s",
          d ? "succeeded" : strerror (errno));
  if (d)
    dirplus_close (d);
  return failures ? 1 : 0;
}

/** LSPLUS_BACKEND: a bad name is EINVAL, "sync" is honoured.  */
static int
run_env (const char *value, int expect, int expect_errno)
{
  setenv ("LSPLUS_BACKEND", value, 1);
  errno = 0;
  int r = dirplus_setup (DIRPLUS_AUTO);
  if (r != expect || (r < 0 && errno != expect_errno))
    fail ("LSPLUS_BACKEND=%s: setup %d errno %d", value, r, errno);
  if (dirplus_setup (DIRPLUS_SYNC) != r)
    fail ("LSPLUS_BACKEND=%s: second setup differs", value);
  if (dirplus_backend_parse ("uring") != DIRPLUS_URING
      || dirplus_backend_parse ("nope") != -1
      || strcmp (dirplus_backend_name (DIRPLUS_GETDENTSPLUS),
                 "getdentsplus") != 0)
    fail ("dirplus_backend_parse/name");
  return failures ? 1 : 0;
}

/** With io_uring_setup(2) failing with EPERM (a seccomp filter, as in
    containers): forcing uring fails with EPERM (FORCE), auto falls back
    to another backend without a word.  */
static int
run_no_uring (int force)
{
#ifdef __NR_io_uring_setup
  struct sock_filter filter[] =
    {
      BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr)),
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
      BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
      BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
  struct sock_fprog prog = { sizeof filter / sizeof filter[0], filter };
  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0
      || prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) < 0)
    {
      printf ("note: no seccomp here (%s): io_uring fallback not checked\n",
              strerror (errno));
      return 0;
    }
  errno = 0;
  int r = dirplus_setup (force ? DIRPLUS_URING : DIRPLUS_AUTO);
#if USE_URING
  int expect = EPERM;
#else
  int expect = ENOSYS;		/* built without liburing */
#endif
  if (force && (r != -1 || errno != expect))
    fail ("uring blocked: forced setup gave %d, errno %d", r, errno);
  if (!force && (r == DIRPLUS_URING || r < 0))
    fail ("uring blocked: auto setup gave %d, errno %d", r, errno);
  if (!force)
    {
      struct dirplus_dir *d = dirplus_open (AT_FDCWD, top, STATX_BASIC_STATS,
                                            0);
      if (!d)
        fail ("uring blocked: auto: dirplus_open: %s", strerror (errno));
      dirplus_close (d);
    }
#endif
  return failures ? 1 : 0;
}

/** Child bodies for in_child.  */
static int child_backend (int b) { return run_backend (b); }
static int
child_sync_threads (int unused)
{
  /* The sync backend with its helper thread forced on.  */
  setenv ("LSPLUS_THREADS", "1", 1);
  return run_backend (DIRPLUS_SYNC);
}
static int
child_fake_gdp (int unused)
{
  dirplus_gdp_call = fake_gdp;
  return run_backend (DIRPLUS_GETDENTSPLUS);
}
static int
child_fake_gdp_v2 (int unused)
{
  /* An ABI 2 module: no directory record, no end mark.  */
  dirplus_gdp_call = fake_gdp;
  fake_v2 = true;
  return run_backend (DIRPLUS_GETDENTSPLUS);
}
static int
child_fake_gdp_grown (int unused)
{
  /* Records with a longer header: the library reads name_off.  */
  dirplus_gdp_call = fake_gdp;
  fake_grow = 16;
  return run_backend (DIRPLUS_GETDENTSPLUS);
}
static int
child_fake_gdp_v1 (int unused)
{
  /* An ABI 1 module: name_off 0, symlinks resolved by the module.  */
  dirplus_gdp_call = fake_gdp;
  fake_v1 = true;
  return run_backend (DIRPLUS_GETDENTSPLUS);
}
static int
child_fake_sys (int unused)
{
#if HAVE_GETDENTSPLUS_SYSCALL
  /* The in-tree call, emulated: the records go the module's way.  */
  dirplus_sys_call = fake_sys;
  int r = run_backend (DIRPLUS_INTREE);
  if (r == 0 && fake_sys_calls == 0)
    {
      fail ("intree: the emulated call was never made");
      r = 1;
    }
  return r;
#else
  (void) fake_sys;
  printf ("SKIP: built without kernel headers that define getdentsplus\n");
  return 77;
#endif
}
static int
child_fake_sys_old (int unused)
{
#if HAVE_GETDENTSPLUS_SYSCALL
  /* A kernel of an earlier revision of the series (a 16-byte request,
     attribute bits of its own): never used.  */
  fake_sys_old = true;
  dirplus_sys_call = fake_sys;
  if (dirplus_setup (DIRPLUS_INTREE) == DIRPLUS_INTREE)
    {
      fail ("intree: a kernel of an earlier revision was taken");
      return 1;
    }
  return 0;
#else
  return 77;
#endif
}
static int
child_intree_auto (int unused)
{
#if HAVE_GETDENTSPLUS_SYSCALL
  /* "auto" takes the in-tree call first when it answers.  */
  dirplus_sys_call = fake_sys;
  dirplus_gdp_call = fake_gdp;
  int b = dirplus_setup (DIRPLUS_AUTO);
  if (b != DIRPLUS_INTREE)
    {
      fail ("auto chose %s, not intree", dirplus_backend_name (b));
      return 1;
    }
  return 0;
#else
  return 77;
#endif
}
static int
child_fake_gdp_remote (int unused)
{
  /* The module leaves the ACL bits unknown: the library resolves them.  */
  dirplus_gdp_call = fake_gdp;
  fake_remote = true;
  return run_backend (DIRPLUS_GETDENTSPLUS);
}
static int
child_remote (int which)
{
  /* The sync backend on a filesystem taken as remote: entries in the
     remote pool (a small one, so that it is exercised with fewer threads
     than entries too), attributes by listxattr (fuse) or GNU's probes
     (net).  */
  setenv ("LSPLUS_REMOTE", which ? "net" : "fuse", 1);
  setenv ("LSPLUS_REMOTE_THREADS", "7", 1);
  probe_mode = which;
  return run_backend (DIRPLUS_SYNC);
}

/** The mountinfo parser and the filesystem kinds.  */
static int
child_fs_kinds (int unused)
{
  static const struct { const char *line; int ok; unsigned maj, min;
                        enum dirplus_fs_kind kind; } t[] =
    {
      { "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw\n",
        1, 98, 0, DIRPLUS_FS_LOCAL },
      { "52 29 0:47 / /mnt/nfs rw,relatime shared:30 - nfs4 srv:/x rw\n",
        1, 0, 47, DIRPLUS_FS_NET },
      { "60 29 0:50 / /mnt/nfs3 rw - nfs srv:/x rw,vers=3", 1, 0, 50,
        DIRPLUS_FS_NET },
      { "61 29 0:51 / /jfs rw,relatime - fuse.juicefs JuiceFS:x rw\n", 1, 0,
        51, DIRPLUS_FS_FUSE },
      { "62 29 0:52 / /c rw - cifs //s/x rw\n", 1, 0, 52, DIRPLUS_FS_NET },
      { "63 29 259:3 / /n rw - fuseblk /dev/sdb1 rw\n", 1, 259, 3,
        DIRPLUS_FS_FUSE },
      { "64 29 0:53 / /t rw a:1 b:2 - tmpfs tmpfs rw\n", 1, 0, 53,
        DIRPLUS_FS_LOCAL },
      { "65 29 0:54 / /n rw - nfsd nfsd rw\n", 1, 0, 54, DIRPLUS_FS_LOCAL },
      { "garbage\n", 0, 0, 0, 0 },
      { "66 29 0:55 / /x rw\n", 0, 0, 0, 0 },
    };
  int bad = 0;
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
    {
      dev_t dev = 0;
      enum dirplus_fs_kind kind = -1;
      int r = dirplus_fs_parse_mountinfo_line (t[i].line, &dev, &kind);
      if ((r == 0) != t[i].ok
          || (r == 0 && (dev != makedev (t[i].maj, t[i].min)
                         || kind != t[i].kind)))
        {
          fail ("mountinfo line %zu: r %d dev %u:%u kind %d", i, r,
                major (dev), minor (dev), (int) kind);
          bad = 1;
        }
    }
  /* The device of the temporary tree is in this process's mountinfo (a
     local disk or tmpfs here); LSPLUS_REMOTE forces the kind.  */
  struct stat st;
  if (stat (top, &st) == 0 && dirplus_fs_kind (st.st_dev) != DIRPLUS_FS_LOCAL)
    {
      fail ("%s: not a local filesystem?", top);
      bad = 1;
    }
  return bad;
}
static int child_unpriv (int unused) { return run_unprivileged (); }
static int
child_env (int which)
{
  switch (which)
    {
    case 0: return run_env ("bogus", -1, EINVAL);
    case 1: return run_env ("sync", DIRPLUS_SYNC, 0);
    default: return run_env ("auto", dirplus_setup (DIRPLUS_AUTO), 0);
    }
}

int
main (void)
{
  unsetenv ("LSPLUS_BACKEND");
  make_tree ();
  char p[8192];
  chmod (at_top (p, sizeof p, "noexec"), 0744);
  chmod (at_top (p, sizeof p, "noread"), 0311);
  int status = 0, ran = 0;

  for (int b = DIRPLUS_GETDENTSPLUS; b <= DIRPLUS_SYNC; b++)
    {
      int r = in_child (child_backend, b);
      printf ("%s backend: %s\n", dirplus_backend_name (b),
              r == 0 ? "PASS" : r == 77 ? "SKIP" : "FAIL");
      if (r == 0)
        ran++;
      else if (r != 77 || b == DIRPLUS_SYNC)
        status = 1;
    }
  /* The real in-tree call: where the kernel has it (a VM of the rig).  */
  int r = in_child (child_backend, DIRPLUS_INTREE);
  printf ("intree backend: %s\n",
          r == 0 ? "PASS" : r == 77 ? "SKIP" : "FAIL");
  if (r != 0 && r != 77)
    status = 1;
  for (int i = 0; i < 3; i++)
    {
      r = in_child (i == 2 ? child_intree_auto
                    : i ? child_fake_sys_old : child_fake_sys, 0);
      printf ("%s: %s\n", i == 2 ? "auto prefers the in-tree call"
              : i ? "intree backend refuses an earlier revision's call"
              : "intree backend on an emulated call",
              r == 0 ? "PASS" : r == 77 ? "SKIP" : "FAIL");
      if (r != 0 && r != 77)
        status = 1;
    }
  static const struct { int (*fn) (int); const char *what; } children[] =
    {
      { child_sync_threads, "sync backend with LSPLUS_THREADS=1" },
      { child_fake_gdp, "getdentsplus backend on an emulated module" },
      { child_fake_gdp_grown,
        "getdentsplus backend, records with a longer header" },
      { child_fake_gdp_v1, "getdentsplus backend on an emulated ABI 1 module" },
      { child_fake_gdp_v2, "getdentsplus backend on an emulated ABI 2 module" },
      { child_fake_gdp_remote,
        "getdentsplus backend, ACLs left unknown by the module" },
    };
  for (size_t i = 0; i < sizeof children / sizeof children[0]; i++)
    {
      r = in_child (children[i].fn, 0);
      printf ("%s: %s\n", children[i].what, r == 0 ? "PASS" : "FAIL");
      if (r != 0)
        status = 1;
    }
  for (int i = 0; i < 2; i++)
    {
      r = in_child (child_remote, i);
      printf ("sync backend with LSPLUS_REMOTE=%s: %s\n", i ? "net" : "fuse",
              r == 0 ? "PASS" : "FAIL");
      if (r != 0)
        status = 1;
    }
  for (int i = 0; i < 2; i++)
    {
      r = in_child (child_cold_sampling, i);
      printf ("cold check samples its timing%s: %s\n",
              i ? " (LSPLUS_COLD_USEC=0)" : "", r == 0 ? "PASS" : "FAIL");
      if (r != 0)
        status = 1;
    }
  r = in_child (child_fs_kinds, 0);
  printf ("filesystem kinds from mountinfo: %s\n", r == 0 ? "PASS" : "FAIL");
  if (r != 0)
    status = 1;
  for (int i = 0; i < 3; i++)
    if (in_child (child_env, i) != 0)
      status = 1;
  for (int force = 0; force < 2; force++)
    if (in_child (run_no_uring, force) != 0)
      status = 1;
  if (geteuid () == 0)
    {
      int r = in_child (child_unpriv, 0);
      printf ("unprivileged checks: %s\n", r == 0 ? "PASS" : "FAIL");
      if (r != 0)
        status = 1;
    }
  else
    printf ("note: not root, unprivileged checks skipped\n");

  remove_tree ();
  if (status == 0 && ran == 0)
    return 77;
  return status;
}
