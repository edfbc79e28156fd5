/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dirplus-batch.c -- shared piece: stat a batch of entries the portable
   way (dirplus-stat.c, one entry at a time): in the remote pool on a
   remote filesystem, shared with one helper thread on a big local batch,
   else one after another.  The sync backend fills every batch this way;
   the uring backend its remote directories and everything after its ring
   failed.

   On a remote filesystem the entries are stat'ed in the caller's thread
   as long as the stats return within FAST_NS on average (answered from
   the attributes the directory read brought, as on NFSv4), timed in
   growing windows (a clock reading per entry was two system calls per
   entry in a TCG guest); two slower windows in a row (round trips:
   NFSv3's GETACL, FUSE requests; one alone may be the thread losing its
   CPU) hand the rest to the pool.  Handing
   cached answers to the pool only costs wake-ups.

   With two or more CPUs to run on (its affinity: taskset, cpusets), a
   big batch is shared with one helper thread:
   both take chunks of entries from a common counter and stat them, so the
   kernel work of a directory runs on two cores (ls's own work is small
   next to it).  The caller never waits for a helper that has not started
   (it simply takes every chunk itself), only for a chunk in progress.
   Each entry is written by exactly one thread.  By default the helper
   runs only when a CPU is idle (dirplus_spare_cpus) and the threads'
   call budget (dirplus-pool.c: calls saved against GNU ls 9.1) pays for
   its start (HELPER_COST) and for each batch shared (SHARE_COST), so that
   the helper never makes the total exceed GNU's; LSPLUS_THREADS=1 forces
   it (no budget), LSPLUS_THREADS=0 turns it off.

   On a local filesystem the statx asks for the ACL and label attributes
   where they are in use (dirplus-statxattr.c: the "statx" backend).

   Layering (see the map in dirplus-impl.h): a shared piece, called by
   the sync and uring backends; calls the shared pieces dirplus-stat.c,
   dirplus-attr.c, dirplus-fs.c, dirplus-pool.c and
   dirplus-statxattr.c.  */

#include <config.h>

#include "dirplus-impl.h"

#include "nproc.h"

#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>

/* Batches smaller than this are not worth waking the helper for; the
   entries are handed out CHUNK at a time.  */
enum { SHARE_MIN = 48, CHUNK = 4 };

/* What the helper's own calls cost: its start (clone3 and the rest,
   reading the load average), and a batch shared (a wake-up, its sleep,
   the caller's wait for a chunk in progress).  */
enum { HELPER_COST = 14, SHARE_COST = 4 };

/* A stat that returns within this did not wait for the network (a round
   trip takes 50 us even on a fast LAN).  */
#define FAST_NS 50000
/* The longest window of entries timed together (stat_while_fast).  */
enum { STAT_WINDOW_MAX = 64 };

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
  bool forced;			/* LSPLUS_THREADS=1: no budget */
  uint32_t job;
  int32_t joined;
  int32_t helper_sleeps, caller_sleeps;
  size_t next;
  struct dirplus_entry *ents;
  size_t n;
  int dirfd;
  unsigned int mask, flags;
} share;

/** futex(2): wait while the word at ADDR equals VAL.  */
static void
futex_wait (void *addr, uint32_t val)
{
  syscall (SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

/** futex(2): wake one waiter on the word at ADDR.  */
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
        dirplus_stat_entry (share.dirfd, &share.ents[i], share.mask,
                            share.flags);
    }
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
  if (WORD_OK ())
    return;
  dirplus_spin_while (addr, val, differ, spin);
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

/** The number of runnable threads on the machine now (the fourth field
    of /proc/loadavg, the caller included), or -1.  The file stays open
    (one pread per sample after the first).  */
static int
runnable_now (void)
{
  static int fd = -2;
  if (fd == -2)
    fd = dirplus_fd_above_stdio (open ("/proc/loadavg",
                                       O_RDONLY | O_CLOEXEC));
  if (fd < 0)
    return -1;
  char buf[128];
  ssize_t n = pread (fd, buf, sizeof buf - 1, 0);
  if (n <= 0)
    return -1;
  buf[n] = '\0';
  int running;
  if (sscanf (buf, "%*f %*f %*f %d/", &running) != 1 || running < 1)
    return -1;
  return running;
}

/* A "not now" of dirplus_spare_cpus is asked again every SPARE_RECHECK
   calls: one sample can catch a task that runs for a moment (the shell
   that started ls, before it waits for it; a kernel worker): about one
   start in twenty here.  */
enum { SPARE_RECHECK = 8 };

/** How many helper threads may run beside the caller, each on a CPU of
    its own, for a thread that costs NEED calls (see dirplus-impl.h).
    Called from ls's own thread only (helper_ready and the read-ahead's
    hints; the read-ahead's threads share no batch): its state needs no
    lock.  */
int
dirplus_spare_cpus (bool *forced, long need)
{
  static int spare = -2;	/* -2: not asked yet */
  static bool force;
  static long ncpu;
  static unsigned int asks;
  if (spare == -2)
    {
      /* LSPLUS_THREADS=0: none; 1: one less than the CPUs this process
         may run on (sched_getaffinity: taskset, cpusets) -- pinned to
         one, a helper would only take turns with the caller; unset: the
         CPUs with nothing runnable now.  The runnable count says "now";
         the 1-minute load average also counts the ls that ran just
         before, so that anything running ls in a loop kept the helper
         off with a CPU idle (and glibc's getloadavg reads the same
         file: it is no fallback).  */
      const char *env = getenv ("LSPLUS_THREADS");
      force = env && *env && *env != '0';
      spare = env && *env == '0' ? -1 : 0;
      asks = SPARE_RECHECK;	/* sample at the first ask */
    }
  *forced = force;
  /* A sample costs its calls (the CPU count, the file's open and read
     the first time, a pread after that), paid from the budget unless
     forced, and only when the budget also holds the thread's NEED: a
     tree too small to pay for a thread does not look.  */
  if (spare == 0 && SPARE_RECHECK <= ++asks)
    {
      long cost = ncpu ? 1 : 3;
      if (!force && (dirplus_budget_left () < need + cost
                     || !dirplus_budget_take (cost)))
        return 0;		/* asked again at the next ask */
      asks = 0;
      if (!ncpu)
        ncpu = num_processors (NPROC_CURRENT);
      if (ncpu < 2)
        spare = -1;
      else if (force)
        spare = ncpu - 1;
      else
        {
          /* Unreadable (no /proc): taken for busy.  */
          int running = runnable_now ();
          if (0 < running && running < ncpu)
            spare = ncpu - running;
        }
    }
  return spare < 0 ? 0 : spare;
}

/** Start the helper thread once, if it is wanted and possible.  */
static bool
helper_ready (void)
{
  if (share.state)
    return share.state > 0;
  /* When a CPU is spare (dirplus_spare_cpus, asked again at later big
     batches while it says no) -- on a busy machine the helper only adds
     switches -- and, unless LSPLUS_THREADS=1 forces it, the budget pays
     for it (else asked again at the next big batch).  */
  if (dirplus_spare_cpus (&share.forced, HELPER_COST) < 1)
    return false;
  if (!share.forced && !dirplus_budget_take (HELPER_COST))
    return false;
  share.state = -1;
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

/** Stat entries START..N-1 of D with statx MASK, sharing them with the
    helper.  */
static void
share_batch (struct dirplus_dir *d, size_t start, size_t n,
             unsigned int mask)
{
  share.ents = d->ents + start;
  share.n = n - start;
  share.dirfd = d->fd;
  share.mask = mask;
  share.flags = d->flags;
  __atomic_store_n (&share.next, 0, __ATOMIC_SEQ_CST);
  __atomic_store_n (&share.job, share.job + 3, __ATOMIC_SEQ_CST); /* open */
  if (__atomic_load_n (&share.helper_sleeps, __ATOMIC_SEQ_CST))
    futex_wake (&share.job);

  take_chunks ();

  __atomic_store_n (&share.job, share.job - 1, __ATOMIC_SEQ_CST); /* close */
  wait_word (&share.joined, 0, false, &share.caller_sleeps, 2000);
}

/* A batch handed to the remote pool: its entries from START on.  */
struct remote_batch
{
  struct dirplus_dir *d;
  size_t start;
};

/** The remote pool's work: stat entry START + I of the batch ARG.  */
static void
remote_entry (void *arg, size_t i)
{
  struct remote_batch *b = arg;
  struct dirplus_dir *d = b->d;
  dirplus_stat_entry (d->fd, &d->ents[b->start + i], d->mask, d->flags);
}

/** Stat entries of D from the first one on until one succeeds, and learn
    from its device what kind of filesystem D is on.  Returns the number
    of entries done.  */
static size_t
learn_kind (struct dirplus_dir *d, size_t n)
{
  size_t i = 0;
  while (i < n && d->fs_kind < 0)
    {
      struct dirplus_entry *e = &d->ents[i++];
      dirplus_stat_entry (d->fd, e, d->mask, d->flags);
      if (e->stat_errno == 0)
        d->fs_kind = dirplus_fs_kind (dirplus_entry_dev (e));
    }
  return i;
}

/** Stat the entries of D from START on, in this thread, timed in
    windows of 2, 4, ... STAT_WINDOW_MAX entries, until two windows in a
    row took longer than FAST_NS per entry; stop at N.  Returns the first
    entry not done.  Each window costs two clock readings, which are
    system calls where the clock has no vDSO (a QEMU TCG guest): they
    are paid from the threads' budget (dirplus-pool.c), and a window the
    budget cannot pay for is stat'ed untimed (it earns the budget).  */
static size_t
stat_while_fast (struct dirplus_dir *d, size_t start, size_t n)
{
  size_t i = start, win = 2;
  int slow = 0;
  while (i < n)
    {
      size_t first = i, end = i + win < n ? i + win : n;
      bool timed = dirplus_budget_take (2);
      long long t0 = timed ? dirplus_usec_now () : 0;
      for (; i < end; i++)
        dirplus_stat_entry (d->fd, &d->ents[i], d->mask, d->flags);
      long long ns = timed ? (dirplus_usec_now () - t0) * 1000 : 0;
      if (ns <= FAST_NS * (long long) (end - first))
        {
          slow = 0;
          if (win < STAT_WINDOW_MAX)
            win *= 2;
        }
      else if (++slow == 2)
        break;
    }
  return i;
}

/** Stat the N entries of D's batch (N < 0: a failed read, left as is) --
    on a remote filesystem in this thread while the stats are answered
    from the cache, then in the remote pool; shared with the helper
    thread on a big local batch; else one after another.  Returns N.  */
ssize_t
dirplus_stat_batch (struct dirplus_dir *d, ssize_t n)
{
  size_t done = 0;
  unsigned int mask = d->mask;
  if (0 < n && !(d->flags & DIRPLUS_NO_STAT))
    {
      if (d->fs_kind < 0)
        done = learn_kind (d, n);
      /* A local directory's statx may answer the attribute bits too
         (dirplus-statxattr.c).  */
      mask = dirplus_statx_request (mask, d->flags, d->fs_kind);
      /* A network filesystem's entries get GNU's own calls (the statx
         and GNU's probes): made on the pool's threads, each is two
         lines of strace -f and the threads' calls come on top, which
         nothing saved pays for (issue 21); there the pool is used only
         when LSPLUS_REMOTE_THREADS asks for it.  */
      bool pool = (DIRPLUS_FS_LOCAL < d->fs_kind
                   && (d->fs_kind != DIRPLUS_FS_NET
                       || dirplus_pool_forced ()));
      if (pool && done + 2 <= (size_t) n)
        done = stat_while_fast (d, done, n);
      if (pool && done + 2 <= (size_t) n)
        {
          struct remote_batch b = { d, done };
          dirplus_pool_run (n - done, remote_entry, &b);
          return n;
        }
      if (!d->no_share && d->fs_kind <= DIRPLUS_FS_LOCAL
          && !dirplus_ahead_warm_busy ()
          && done + SHARE_MIN <= (size_t) n && helper_ready ()
          && (share.forced || dirplus_budget_take (SHARE_COST)))
        {
          share_batch (d, done, n, mask);
          return n;
        }
    }
  for (ssize_t i = done; i < n; i++)
    dirplus_stat_entry (d->fd, &d->ents[i], mask, d->flags);
  return n;
}
