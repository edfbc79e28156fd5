/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench/vm-cost.c -- where the kernel time of `ls -lR` goes: every
   directory of a tree read REPS times per way of reading it, with the
   process's CPU time in user space and in the kernel for each way.

     vm-cost DIR REPS

   Ways (one line each, "BENCH-COST WAY SECONDS USER_S SYSTEM_S CALLS
   ENTRIES", totals over the REPS passes):
     names       getdents64 only: what reading the names costs
     gnu         getdents64, then per entry what GNU ls 9.1 -l asks:
                 statx, lgetxattr security.selinux, getxattr
                 system.posix_acl_access
     gdp-names   getdentsplus with no stat fields and no attributes
     gdp-stat    getdentsplus with the basic stat fields
     gdp-ls      getdentsplus as lsplus's ls -lR asks it: stat fields,
                 ACL and label bits, "." and ".." left out, self record
                 and end mark
   Every way opens and closes each directory once per pass.  The
   differences between ways give the cost of the kernel's per-entry
   lookup and getattr (gdp-stat - gdp-names), of the attribute checks
   (gdp-ls - gdp-stat) and of the per-entry system calls (gnu - gdp-ls).

   Built statically on the host by bench/run-vm (with the module's uapi
   header) and run inside its VM with getdentsplus.ko loaded.  */

#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>
#include <linux/getdentsplus.h>

/* The directories of the tree, as paths.  */
static char **dirs;
static size_t ndirs, dirs_cap;
static int gdp_nr = -1;
static char buf[1 << 16];

/** Exit with a message about WHAT and errno.  */
static void
die (const char *what)
{
  perror (what);
  exit (2);
}

/** Remember PATH as a directory of the tree.  */
static void
add_dir (const char *path)
{
  if (ndirs == dirs_cap)
    {
      dirs_cap = dirs_cap ? 2 * dirs_cap : 256;
      dirs = realloc (dirs, dirs_cap * sizeof *dirs);
      if (!dirs)
        die ("realloc");
    }
  dirs[ndirs] = strdup (path);
  if (!dirs[ndirs++])
    die ("strdup");
}

/** Collect PATH and the directories below it (by d_type; the benchmark
    tree is on ext4, which fills it in).  */
static void
collect (const char *path)
{
  add_dir (path);
  DIR *dir = opendir (path);
  if (!dir)
    die (path);
  struct dirent *de;
  char sub[4096];
  while ((errno = 0, de = readdir (dir)))
    if (de->d_type == DT_DIR && strcmp (de->d_name, ".") != 0
        && strcmp (de->d_name, "..") != 0)
      {
        snprintf (sub, sizeof sub, "%s/%s", path, de->d_name);
        collect (sub);
      }
  if (errno)
    die (path);
  closedir (dir);
}

/** Read directory FD, which is DIR, with getdents64; with PER_ENTRY,
    also make GNU ls -l's three calls per entry, by path as GNU makes
    them.  Counts calls and entries.  */
static void
read_names (int fd, const char *dir, bool per_entry, long *calls,
            long *entries)
{
  long n;
  char path[4096];
  while ((*calls)++, (n = getdents64 (fd, buf, sizeof buf)) > 0)
    for (long off = 0; off < n;)
      {
        struct dirent64 *de = (void *) (buf + off);
        off += de->d_reclen;
        ++*entries;
        if (!per_entry)
          continue;
        struct statx stx;
        char v[256];
        snprintf (path, sizeof path, "%s/%s", dir, de->d_name);
        statx (AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS,
               &stx);
        lgetxattr (path, "security.selinux", v, sizeof v);
        getxattr (path, "system.posix_acl_access", v, sizeof v);
        *calls += 3;
      }
  if (n < 0)
    die ("getdents64");
}

/** Read directory FD with getdentsplus, MASK and FLAGS.  */
static void
read_gdp (int fd, unsigned int mask, unsigned int flags, long *calls,
          long *entries)
{
  for (;;)
    {
      long n = syscall (gdp_nr, fd, buf, sizeof buf, mask,
                        flags | GDP_AT_FLAGS);
      ++*calls;
      if (n < 0)
        die ("getdentsplus");
      if (n == 0)
        return;
      int end = 0;
      for (long off = 0; off < n;)
        {
          struct getdentsplus_entry *r = (void *) (buf + off);
          off += r->reclen;
          if (!(r->flags & GDP_REC_SELF))
            ++*entries;
          end |= r->flags & GDP_REC_END;
        }
      if (end)
        return;
      flags &= ~GDP_WANT_SELF;
    }
}

/** Seconds of a timeval.  */
static double
tv (struct timeval t)
{
  return t.tv_sec + t.tv_usec / 1e6;
}

/** Seconds on the monotonic clock.  */
static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

int
main (int argc, char **argv)
{
  if (argc != 3)
    {
      fputs ("usage: vm-cost DIR REPS\n", stderr);
      return 2;
    }
  int reps = atoi (argv[2]);
  FILE *f = fopen (GETDENTSPLUS_NR_PATH, "r");
  if (!f || fscanf (f, "%d", &gdp_nr) != 1 || gdp_nr <= 0)
    {
      fputs ("vm-cost: the module's system call is not there\n", stderr);
      return 2;
    }
  fclose (f);
  collect (argv[1]);
  /* GDP: read with getdentsplus (MASK, FLAGS); else with getdents64,
     and GNU's per-entry calls if PER_ENTRY.  */
  static const struct { const char *name; bool gdp, per_entry;
                        unsigned int mask, flags; } ways[] =
    {
      { "names", false, false, 0, 0 },
      { "gnu", false, true, 0, 0 },
      { "gdp-names", true, false, 0, AT_NO_AUTOMOUNT },
      { "gdp-stat", true, false, STATX_BASIC_STATS, AT_NO_AUTOMOUNT },
      { "gdp-ls", true, false, STATX_BASIC_STATS,
        AT_NO_AUTOMOUNT | GDP_WANT_ACL | GDP_WANT_LABEL | GDP_SKIP_DOTS
        | GDP_WANT_SELF | GDP_MARK_END },
    };
  /* One pass unmeasured: everything in the caches, as for ls's warm
     runs.  */
  for (size_t i = 0; i < ndirs; i++)
    {
      long calls = 0, entries = 0;
      int fd = open (dirs[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      if (fd < 0)
        die (dirs[i]);
      read_names (fd, dirs[i], true, &calls, &entries);
      close (fd);
    }
  for (size_t w = 0; w < sizeof ways / sizeof ways[0]; w++)
    {
      long calls = 0, entries = 0;
      struct rusage r0, r1;
      getrusage (RUSAGE_SELF, &r0);
      double t0 = now ();
      for (int rep = 0; rep < reps; rep++)
        for (size_t i = 0; i < ndirs; i++)
          {
            int fd = open (dirs[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            if (fd < 0)
              die (dirs[i]);
            if (ways[w].gdp)
              read_gdp (fd, ways[w].mask, ways[w].flags, &calls, &entries);
            else
              read_names (fd, dirs[i], ways[w].per_entry, &calls,
                          &entries);
            close (fd);
            calls += 2;
          }
      double t1 = now ();
      getrusage (RUSAGE_SELF, &r1);
      printf ("BENCH-COST %s %.6f %.6f %.6f %ld %ld\n", ways[w].name,
              t1 - t0, tv (r1.ru_utime) - tv (r0.ru_utime),
              tv (r1.ru_stime) - tv (r0.ru_stime), calls, entries);
      fflush (stdout);
    }
  return 0;
}
