/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dirplus-getdents.c -- shared piece: a batch of names from getdents64
   (filtered, not stat'ed yet) and the memory of a batch (the entry array
   and the backend's scratch space in struct dirplus_dir).

   Layering (see the map in dirplus-impl.h): a shared piece, called by
   the backends (sync and uring read every batch this way, getdentsplus
   when no stat is asked); calls only dirplus-common.c (the counters).  */

#include <config.h>

#include "dirplus-impl.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

/** Make room for N entries in D->ents.  */
int
dirplus_reserve (struct dirplus_dir *d, size_t n)
{
  if (n <= d->cap)
    return 0;
  struct dirplus_entry *p = realloc (d->ents, n * sizeof *p);
  if (!p)
    return -1;
  d->ents = p;
  d->cap = n;
  return 0;
}

/** Make D->scratch at least SIZE bytes.  */
int
dirplus_scratch_reserve (struct dirplus_dir *d, size_t size)
{
  if (size <= d->scratch_size)
    return 0;
  char *p = realloc (d->scratch, size);
  if (!p)
    return -1;
  d->scratch = p;
  d->scratch_size = size;
  return 0;
}

/* A directory's first getdents64 that takes longer than COLD_BASE_USEC
   plus a microsecond per COLD_BYTES_PER_USEC bytes returned probably
   waited for the disk.  Measured on ext4 on a virtio disk (bench/cold.md):
   warm, 0-10 us for 10 entries and 20-35 us for 100 (4 KiB); cold, 40-90
   us for 10 entries and 60-300 us for 100.  A warm call is sometimes
   slower (the thread was preempted: 1 in 1000 took 0.1-3 ms on a busy
   machine), so a directory counts as cold only when the directory timed
   before it was slow too (COLD_STREAK in a row).  Calls slowed down
   for other reasons (strace: 30-60 us each) slow the directory's openat
   as well, which the cold read does not (its inode was read with the
   parent's statx): the threshold adds COLD_OPEN_FACTOR times the
   openat's own time, so that warm trees stay warm under strace and
   their system calls can be counted.  LSPLUS_COLD_USEC
   replaces COLD_BASE_USEC (0: every directory counts as cold, which the
   tests use to run the read-ahead on a warm tree).

   Timing is cheap where clock_gettime runs in the vDSO, but where the
   clocksource has none (QEMU TCG guests, bench/results-vm.md) each
   reading is a system call: four per directory.  So only the first
   COLD_SAMPLE_ALL directories are all timed; after that, one in
   COLD_SAMPLE_EVERY while the tree stays warm, and every one again from
   the first slow read on, so that a cold stretch is still found after
   at most COLD_SAMPLE_EVERY warm-looking directories.  */
enum
{
  COLD_BASE_USEC = 30, COLD_BYTES_PER_USEC = 128, COLD_STREAK = 2,
  COLD_OPEN_FACTOR = 2, COLD_SAMPLE_ALL = 16, COLD_SAMPLE_EVERY = 16,
};

/* Slow first reads in a row, over all directories and threads.  */
static int cold_streak;
/* Directories the cold check has been asked about.  */
static unsigned int cold_seen;

/** LSPLUS_COLD_USEC as a number of microseconds (0..1000000), the
    default when unset, or -1 when it is set to anything else.  */
static long
cold_env (void)
{
  return dirplus_env_number ("LSPLUS_COLD_USEC", 0, 1000000,
                             COLD_BASE_USEC);
}

/** Whether LSPLUS_COLD_USEC is unset or valid.  */
bool
dirplus_getdents_env_valid (void)
{
  return 0 <= cold_env ();
}

/** The base latency above which a directory's first getdents64 counts
    as cold, in microseconds (read once).  */
static long
cold_base_usec (void)
{
  static long base = -2;
  long b = __atomic_load_n (&base, __ATOMIC_RELAXED);
  if (b == -2)
    {
      b = cold_env ();
      if (b < 0)
        b = COLD_BASE_USEC;
      __atomic_store_n (&base, b, __ATOMIC_RELAXED);
    }
  return b;
}

/** Whether the next directory is timed (see above); when not, sets
    *COLD (every directory is cold under LSPLUS_COLD_USEC=0, which needs
    no clock).  */
bool
dirplus_cold_timed (bool *cold)
{
  if (cold_base_usec () == 0)
    {
      *cold = true;
      return false;
    }
  unsigned int n = __atomic_fetch_add (&cold_seen, 1, __ATOMIC_RELAXED);
  if (n < COLD_SAMPLE_ALL || n % COLD_SAMPLE_EVERY == 0
      || 0 < __atomic_load_n (&cold_streak, __ATOMIC_RELAXED))
    return true;
  *cold = false;
  return false;
}

/** Whether the last directory timed waited for the disk (the tree looks
    cold now).  */
bool
dirplus_cold_now (void)
{
  return 0 < __atomic_load_n (&cold_streak, __ATOMIC_RELAXED);
}

/* What getdents64 writes.  */
struct linux_dirent64
{
  uint64_t d_ino;
  int64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[];
};

/** Read getdents64 buffers of D until one yields entries the filter keeps;
    store them (not stat'ed) in D->ents.  Returns their number, 0 at the
    end, -1 with errno.  */
ssize_t
dirplus_getdents_batch (struct dirplus_dir *d)
{
  d->nents = 0;
  /* Not opened by dirplus_open, which asks before the openat?  */
  if (!d->timed && d->open_usec == 0 && !dirplus_cold_timed (&d->cold))
    d->timed = true;
  while (!d->eof && d->nents == 0)
    {
      long long t0 = d->timed ? 0 : dirplus_usec_now ();
      long n = syscall (SYS_getdents64, d->fd, d->buf, d->bufsize);
      if (!d->timed)
        {
          /* Was the directory cold (its blocks read from the disk)?  */
          long long us = dirplus_usec_now () - t0;
          d->timed = true;
          __atomic_fetch_add (&dirplus_counters.cold_timed, 1,
                              __ATOMIC_RELAXED);
          long base = cold_base_usec ();
          bool slow = (base + (0 < n ? n : 0) / COLD_BYTES_PER_USEC
                       + COLD_OPEN_FACTOR * d->open_usec) < us;
          int streak = 0;
          if (slow)
            streak = __atomic_add_fetch (&cold_streak, 1, __ATOMIC_RELAXED);
          else
            __atomic_store_n (&cold_streak, 0, __ATOMIC_RELAXED);
          d->cold = base == 0 || COLD_STREAK <= streak;
        }
      __atomic_fetch_add (&dirplus_counters.batch_calls, 1,
                          __ATOMIC_RELAXED);
      if (n < 0)
        return -1;
      if (n == 0)
        {
          d->eof = true;
          break;
        }
      /* The smallest record is 24 bytes.  */
      if (dirplus_reserve (d, n / 24 + 1) < 0)
        return -1;
      for (long off = 0; off < n;)
        {
          struct linux_dirent64 *de = (void *) (d->buf + off);
          off += de->d_reclen;
          size_t len = strlen (de->d_name);
          if (d->filter && !d->filter (de->d_name, len, de->d_type,
                                       d->filter_arg))
            continue;
          struct dirplus_entry *e = &d->ents[d->nents++];
          memset (e, 0, sizeof *e);
          e->name = de->d_name;
          e->namelen = len;
          e->ino = de->d_ino;
          e->d_type = de->d_type;
        }
    }
  __atomic_fetch_add (&dirplus_counters.entries, d->nents, __ATOMIC_RELAXED);
  return d->nents;
}
