/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dirplus-sync.c -- the portable backend: getdents64, then per entry one
   statx relative to the directory fd and at most one listxattr (none when
   no attribute bit is asked, none on a filesystem known to lack xattrs).

   With two or more CPUs, a big batch is shared with one helper thread:
   both take chunks of entries from a common counter and stat them, so the
   kernel work of a directory runs on two cores (ls's own work is small
   next to it).  The caller never waits for a helper that has not started
   (it simply takes every chunk itself), only for a chunk in progress.
   Each entry is written by exactly one thread.  By default the helper
   runs only when a CPU is idle (1-minute load average); LSPLUS_THREADS=1
   forces it, LSPLUS_THREADS=0 turns it off.  */

#include <config.h>

#include "dirplus-impl.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

/** Stat entry E relative to DIRFD and fill its attribute bits.  */
void
dirplus_sync_entry (int dirfd, struct dirplus_entry *e, unsigned int mask,
                    unsigned int flags)
{
  bool follow = flags & DIRPLUS_FOLLOW;
  if (!(flags & DIRPLUS_NO_STAT))
    {
      int atflags = AT_NO_AUTOMOUNT | (follow ? 0 : AT_SYMLINK_NOFOLLOW);
      if (dirplus_wanted_attrs (flags))
        mask |= STATX_TYPE;
      __atomic_fetch_add (&dirplus_counters.stat_calls, 1, __ATOMIC_RELAXED);
      if (statx (dirfd, e->name, atflags, mask, &e->stx) < 0)
        {
          e->stat_errno = errno;
          memset (&e->stx, 0, sizeof e->stx);
        }
    }

  unsigned int bits = dirplus_attrs_needed (e, flags);
  if (bits)
    dirplus_sync_attrs (dirfd, e, bits, follow);
}

/** Fill attribute BITS of stat'ed entry E (relative to DIRFD) from one
    listxattr (more only if the list is longer than 1 KiB).  */
void
dirplus_sync_attrs (int dirfd, struct dirplus_entry *e, unsigned int bits,
                    bool follow)
{
  char small[1024];
  char *list = small;
  ssize_t n = dirplus_listxattr_at (dirfd, e->name, follow, list,
                                    sizeof small);
  /* A long list: ask for its size, then read it (it may still grow).  */
  for (int tries = 0; n < 0 && errno == ERANGE && tries < 4; tries++)
    {
      ssize_t size = dirplus_listxattr_at (dirfd, e->name, follow, NULL, 0);
      if (size < 0)
        break;
      char *p = realloc (list == small ? NULL : list, size + 1);
      if (!p)
        break;
      list = p;
      n = dirplus_listxattr_at (dirfd, e->name, follow, list, size + 1);
    }
  if (n < 0)
    dirplus_attrs_failed (e, bits, errno);
  else
    dirplus_attrs_from_list (e, bits, list, n);
  if (list != small)
    free (list);
}

/* Batches smaller than this are not worth waking the helper for; the
   entries are handed out CHUNK at a time.  */
enum { SHARE_MIN = 48, CHUNK = 4 };

/* The helper thread and the batch being shared.  The two threads meet
   through atomics, and sleep on futexes only when the other side keeps
   them waiting for long (glibc's condition variables cost several futex
   calls per hand-over):
     JOB      2 * number of the current batch + 1 while it is open;
     JOINED   1 while the helper works on the open batch;
     NEXT     first entry not yet taken.
   The caller opens a batch (fields first, then JOB), takes chunks, then
   closes it (clears the open bit, then waits until JOINED is 0).  The
   helper announces itself in JOINED before it checks that the batch is
   still open (both sequentially consistent), so it never works on a
   closed batch.  */
static struct
{
  int state;			/* 0 not tried, 1 running, -1 unavailable */
  uint32_t job;
  int32_t joined;
  int32_t helper_sleeps, caller_sleeps;
  size_t next;
  struct dirplus_entry *ents;
  size_t n;
  int dirfd;
  unsigned int mask, flags;
} share;

/** futex(2) wait while *ADDR == VAL / wake one waiter.  */
static void
futex_wait (void *addr, uint32_t val)
{
  syscall (SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}
static void
futex_wake (void *addr)
{
  syscall (SYS_futex, addr, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/** Stat the entries of the current batch, a chunk at a time, until none
    is left.  */
static void
take_chunks (void)
{
  for (;;)
    {
      size_t i = __atomic_fetch_add (&share.next, CHUNK, __ATOMIC_RELAXED);
      if (share.n <= i)
        return;
      size_t end = i + CHUNK < share.n ? i + CHUNK : share.n;
      for (; i < end; i++)
        dirplus_sync_entry (share.dirfd, &share.ents[i], share.mask,
                            share.flags);
    }
}

/** Microseconds on the monotonic clock (vDSO: no syscall).  */
static long long
usec_now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

/** Wait until the 32-bit word at ADDR differs from VAL (if DIFFER) or
    equals it: busy for up to SPIN microseconds (the other thread is
    usually that close), then asleep on the futex, announced in
    *SLEEPS.  */
static void
wait_word (void *addr, uint32_t val, bool differ, int32_t *sleeps, int spin)
{
#define WORD_OK() ((__atomic_load_n ((uint32_t *) addr, __ATOMIC_SEQ_CST) \
                    != val) == differ)
  long long limit = usec_now () + spin;
  for (int i = 1; !WORD_OK (); i++)
    {
#if defined __x86_64__ || defined __i386__
      __builtin_ia32_pause ();
#endif
      if (i % 64 == 0 && limit < usec_now ())
        break;
    }
  while (!WORD_OK ())
    {
      uint32_t cur = __atomic_load_n ((uint32_t *) addr, __ATOMIC_SEQ_CST);
      __atomic_store_n (sleeps, 1, __ATOMIC_SEQ_CST);
      if (!WORD_OK ())
        futex_wait (addr, cur);
      __atomic_store_n (sleeps, 0, __ATOMIC_SEQ_CST);
    }
#undef WORD_OK
}

/** The helper: wait for a new batch, join in, leave.  */
static void *
helper_main (void *arg)
{
  (void) arg;
  uint32_t seen = 0;
  for (;;)
    {
      wait_word (&share.job, seen, true, &share.helper_sleeps, 300);
      uint32_t job = __atomic_load_n (&share.job, __ATOMIC_SEQ_CST);
      seen = job;
      if (! (job & 1))
        continue;		/* closed before we came */
      __atomic_store_n (&share.joined, 1, __ATOMIC_SEQ_CST);
      if (__atomic_load_n (&share.job, __ATOMIC_SEQ_CST) == job)
        take_chunks ();
      __atomic_store_n (&share.joined, 0, __ATOMIC_SEQ_CST);
      if (__atomic_load_n (&share.caller_sleeps, __ATOMIC_SEQ_CST))
        futex_wake (&share.joined);
    }
  return NULL;
}

/** Start the helper thread once, if it is wanted and possible.  */
static bool
helper_ready (void)
{
  if (share.state)
    return share.state > 0;
  share.state = -1;
  /* LSPLUS_THREADS=0: never; 1: whenever there are two CPUs; unset:
     when there is also a CPU to spare (the 1-minute load average leaves
     one idle) -- on a busy machine the helper only adds switches.  */
  const char *env = getenv ("LSPLUS_THREADS");
  if (env && *env == '0')
    return false;
  long ncpu = sysconf (_SC_NPROCESSORS_ONLN);
  if (ncpu < 2)
    return false;
  if (!(env && *env))
    {
      double load;
      if (getloadavg (&load, 1) != 1 || ncpu - 1 < load + 0.5)
        return false;
    }
  /* The helper takes no signals: ls's handlers run in the main thread.  */
  sigset_t all, old;
  sigfillset (&all);
  pthread_sigmask (SIG_SETMASK, &all, &old);
  pthread_attr_t attr;
  pthread_t t;
  bool ok = (pthread_attr_init (&attr) == 0
             && pthread_attr_setdetachstate (&attr,
                                             PTHREAD_CREATE_DETACHED) == 0
             && pthread_attr_setstacksize (&attr, 64 * 1024) == 0
             && pthread_create (&t, &attr, helper_main, NULL) == 0);
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  if (ok)
    share.state = 1;
  return ok;
}

/** Stat the N entries of D, sharing them with the helper.  */
static void
share_batch (struct dirplus_dir *d, size_t n)
{
  share.ents = d->ents;
  share.n = n;
  share.dirfd = d->fd;
  share.mask = d->mask;
  share.flags = d->flags;
  __atomic_store_n (&share.next, 0, __ATOMIC_SEQ_CST);
  __atomic_store_n (&share.job, share.job + 3, __ATOMIC_SEQ_CST); /* open */
  if (__atomic_load_n (&share.helper_sleeps, __ATOMIC_SEQ_CST))
    futex_wake (&share.job);

  take_chunks ();

  __atomic_store_n (&share.job, share.job - 1, __ATOMIC_SEQ_CST); /* close */
  wait_word (&share.joined, 0, false, &share.caller_sleeps, 2000);
}

/** Read the next batch of D: getdents64, then stat each entry.  */
static ssize_t
sync_read (struct dirplus_dir *d)
{
  ssize_t n = dirplus_getdents_batch (d);
  if (SHARE_MIN <= n && !(d->flags & DIRPLUS_NO_STAT) && helper_ready ())
    share_batch (d, n);
  else
    for (ssize_t i = 0; i < n; i++)
      dirplus_sync_entry (d->fd, &d->ents[i], d->mask, d->flags);
  return n;
}

const struct dirplus_ops dirplus_sync_ops = { sync_read };
