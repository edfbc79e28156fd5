/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench/vm-zadok.c -- the experiment of the paper that first measured a
   Linux readdirplus (Zadok et al., "Efficient and Safe Execution of
   User-Level Code in the Kernel", Linux 2.6.10, ext3): a readdir + stat
   loop against the batch call, over one directory.  Runs inside the VM
   of bench/run-insn (--prod), built statically against the headers of
   the production-configuration kernel (upstream/'s getdentsplus(2)).

     vm-zadok mk DIR N     create DIR with N empty files f0000000...
     vm-zadok stat DIR     readdir(3) + fstatat(2) of every entry
     vm-zadok plus DIR     getdentsplus(2) with STATX_BASIC_STATS, 512 KiB
                           buffer, no attribute bits

   stat and plus print the entries they saw (without "." and "..") and a
   checksum of their inode numbers and sizes, so that the two can be
   compared; exit status 0, or 1 on an error.  */

#define _GNU_SOURCE 1
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/getdentsplus.h>

#define PLUS_BUF (512 * 1024)

/** Create DIR and N empty files in it.  Returns 0, or 1 on an error.  */
static int
zk_mk (const char *dir, long n)
{
  if (mkdir (dir, 0755) < 0 && errno != EEXIST)
    {
      perror (dir);
      return 1;
    }
  int dfd = open (dir, O_RDONLY | O_DIRECTORY);
  if (dfd < 0)
    {
      perror (dir);
      return 1;
    }
  for (long i = 0; i < n; i++)
    {
      char name[32];
      snprintf (name, sizeof name, "f%07ld", i);
      int fd = openat (dfd, name, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
      if (fd < 0)
        {
          perror (name);
          return 1;
        }
      close (fd);
    }
  close (dfd);
  return 0;
}

/** readdir + stat: every entry of DIR but "." and ".." stat'ed
    (fstatat, AT_SYMLINK_NOFOLLOW, as ls -l).  Returns 0, or 1.  */
static int
zk_stat (const char *dir)
{
  DIR *d = opendir (dir);
  if (!d)
    {
      perror (dir);
      return 1;
    }
  long n = 0;
  uint64_t sum = 0;
  struct dirent *de;
  while ((de = readdir (d)))
    {
      if (de->d_name[0] == '.'
          && (!de->d_name[1] || (de->d_name[1] == '.' && !de->d_name[2])))
        continue;
      struct stat st;
      if (fstatat (dirfd (d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
        {
          perror (de->d_name);
          return 1;
        }
      n++;
      sum += st.st_ino + (uint64_t) st.st_size;
    }
  closedir (d);
  printf ("%ld %llu\n", n, (unsigned long long) sum);
  return 0;
}

/** The batch call: getdentsplus(2) over DIR until the end mark.
    Returns 0, or 1.  */
static int
zk_plus (const char *dir)
{
  int fd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    {
      perror (dir);
      return 1;
    }
  char *buf = malloc (PLUS_BUF);
  if (!buf)
    return 1;
  struct getdentsplus_req req = {
    .size = sizeof req,
    .statx_mask = STATX_BASIC_STATS,
  };
  long n = 0;
  uint64_t sum = 0;
  for (bool end = false; !end;)
    {
      long r = syscall (__NR_getdentsplus, fd, &req, buf, (size_t) PLUS_BUF,
                        GETDENTSPLUS_SKIP_DOTS | GETDENTSPLUS_MARK_END);
      if (r < 0)
        {
          perror ("getdentsplus");
          return 1;
        }
      if (r == 0)
        break;
      for (long off = 0; off < r;)
        {
          const struct getdentsplus_entry *e
            = (const struct getdentsplus_entry *) (buf + off);
          if (e->error)
            {
              fprintf (stderr, "%s: %s\n", buf + off + e->name_off,
                       strerror (e->error));
              return 1;
            }
          n++;
          sum += e->stx.stx_ino + e->stx.stx_size;
          if (e->flags & GETDENTSPLUS_REC_END)
            end = true;
          off += e->reclen;
        }
    }
  free (buf);
  close (fd);
  printf ("%ld %llu\n", n, (unsigned long long) sum);
  return 0;
}

/** Dispatch: mk DIR N | stat DIR | plus DIR.  */
int
main (int argc, char **argv)
{
  if (argc == 4 && !strcmp (argv[1], "mk"))
    return zk_mk (argv[2], strtol (argv[3], NULL, 10));
  if (argc == 3 && !strcmp (argv[1], "stat"))
    return zk_stat (argv[2]);
  if (argc == 3 && !strcmp (argv[1], "plus"))
    return zk_plus (argv[2]);
  fputs ("usage: vm-zadok mk DIR N | stat DIR | plus DIR\n", stderr);
  return 2;
}
