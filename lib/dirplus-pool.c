/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dirplus-pool.c -- the remote pool: overlap per-entry calls that are
   network (or FUSE daemon) round trips.

   On a remote filesystem each statx, getxattr or listxattr of an entry may
   wait for a server; done one after another, like GNU ls does them, a
   directory of N entries costs N round trips of latency.  The pool runs
   a batch's entries on up to LSPLUS_REMOTE_THREADS threads (default 64,
   1..256) plus the caller, so that many requests are in flight at once;
   it makes exactly the calls the caller would have made, no more.

   Why threads and not io_uring: the kernel punts IORING_OP_STATX and
   IORING_OP_GETXATTR to its io-wq workers, which were measured to keep
   only 4-5 NFS round trips in flight (bounded per CPU), and io_uring has
   no listxattr.  Blocking calls on our own threads keep as many in
   flight as there are threads.

   Several jobs may run at once (the caller's and those of directories
   read ahead, see dirplus-ahead.c).  A job is open while its caller
   works on it; workers join an open job under the lock and are counted
   in its BUSY; the caller closes the job, then waits for BUSY to drop to
   zero, so no worker ever touches a finished job's entries.  Each index
   is taken by exactly one thread (the job's atomic NEXT), and a caller
   never waits for a worker to start: it drains its own job too.
   Workers block every signal: ls's handlers run in the main thread.

   What it costs, and when it starts (issue 21).  A thread costs about
   eleven system calls to start (clone3, rseq, set_robust_list, its
   stack's mmap and mprotect, five rt_sigprocmask: glibc's three and the
   signal mask around the start) and two each time it is woken for a job
   (the waker's FUTEX_WAKE, its own FUTEX_WAIT), a job with workers about
   four more (the wake-up, the wait for the last worker); only sleeping
   workers are charged a wake-up.  Those calls are paid from a budget:
   the calls the library saved against GNU ls 9.1's (dirplus_budget_add:
   one listxattr instead of two or three getxattr probes, a statx the
   module answered), so that threads never make the total exceed GNU's
   (the costs were checked against strace -f: 3 to 11 calls per thread
   short on FUSE trees, within the calls GNU spends elsewhere, statfs and
   a second statx per directory).  Within the budget
   the number of threads per job (the width) is decided by measurement:
   the first entries run in the caller alone, timed; then the width
   doubles (2, 4, ... LSPLUS_REMOTE_THREADS + 1) as long as each
   doubling made an entry at least a quarter faster, and goes back one
   step for good when it did not (a local FUSE daemon on two CPUs gains
   nothing from a second request in flight; NFS at 20 ms gains at every
   step).  Only as many workers are woken as the job can use.
   LSPLUS_REMOTE_THREADS=N set fixes the width at N + 1 threads and
   spends without a budget (benchmarks, and users who want the overlap
   at any cost in calls).

   Layering (see the map in dirplus-impl.h): a shared piece, called by
   dirplus-batch.c, dirplus-stat.c and dirplus-ahead.c (its threads),
   and by dirplus.c for LSPLUS_REMOTE_THREADS; calls nothing of the
   library.  */

#include <config.h>

#include "dirplus-impl.h"

#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

enum { POOL_DEFAULT = 64, POOL_MAX = 256 };

/* What the threads' own calls cost, in system calls (see above).  */
enum
{
  COST_THREAD = 11,		/* starting one */
  COST_WAKE = 2,		/* waking one for a job (its wait, locks) */
  COST_JOB = 4,			/* a job with workers: the wake, its end */
};

/* The width is measured over this many entries taken per thread; a
   doubling pays when it makes an entry this much faster (in percent of
   the time at the previous width).  */
enum { MEASURE_PER_THREAD = 4, PAYS_PERCENT = 75 };

/* The budget: calls saved against GNU 9.1 not yet spent (atomic).  */
static long budget;
/* A job came (atomic): see dirplus_pool_slow.  */
static bool pool_slow;

_Thread_local bool dirplus_pool_used;

/* One call of dirplus_pool_run.  */
struct job
{
  dirplus_pool_fn fn;
  void *arg;
  size_t n, next;		/* size, first index not taken (atomic) */
  int busy;			/* workers inside */
  pthread_cond_t idle;		/* BUSY dropped to 0 */
  struct job *link;		/* the list of open jobs */
};

static struct
{
  pthread_mutex_t lock;
  uint32_t seq;			/* futex: bumped when a job is opened */
  struct job *open;		/* open jobs, newest first */
  int nthreads;			/* workers started */
  int waiting;			/* workers waiting for a job */
  int max;			/* LSPLUS_REMOTE_THREADS, 0 until read */
  bool forced;			/* ... set: fixed width, no budget */
  int width;			/* threads per job, the caller's included */
  bool settled;			/* the width stopped growing */
  long long base_ns;		/* an entry's time at the width before */
} pool =
{
  /* Adaptive: held for a few list steps; a short spin is cheaper than a
     futex sleep and wake-up.  */
  .lock = PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP,
  .width = 1,
};

/* The budget counts half calls: a call saved adds BUDGET_EARN of them,
   a call spent takes BUDGET_UNIT, so that threads spend at most half
   of what was saved.  The costs charged are counts checked against
   strace -f, not exact (a call another thread interrupts prints as two
   lines, a wake-up may cost more than the two calls charged, a thread
   reading ahead on a cold disk more than its directory's charge), and
   the half kept back is what keeps the total under GNU's: with all of
   the saving spendable ls -lR went 2 % over GNU's lines on a cold ext4
   and 3-9 % over on bindfs, with three quarters of it still 3.110 calls
   per entry on the cold ext4 against GNU's 3.111 (the rig's production
   kernel, bench/results-prod*.md).  A negative N (calls made beyond
   GNU's) takes whole calls.  */
#define BUDGET_UNIT 2
#define BUDGET_EARN 1

/** Add N calls saved against GNU ls 9.1 to the budget (see above).  */
void
dirplus_budget_add (long n)
{
  __atomic_add_fetch (&budget, n * (0 < n ? BUDGET_EARN : BUDGET_UNIT),
                      __ATOMIC_RELAXED);
}

/** Take EACH calls from the budget for each of up to MAX things, as many
    as it holds: their number.  */
int
dirplus_budget_take_up_to (long each, int max)
{
  long b = __atomic_load_n (&budget, __ATOMIC_RELAXED);
  each *= BUDGET_UNIT;
  for (;;)
    {
      long k = each <= 0 ? max : b / each;
      if (max < k)
        k = max;
      if (k <= 0)
        return 0;
      if (__atomic_compare_exchange_n (&budget, &b, b - k * each, false,
                                       __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        return k;
    }
}

/** The calls the budget holds.  */
long
dirplus_budget_left (void)
{
  return __atomic_load_n (&budget, __ATOMIC_RELAXED) / BUDGET_UNIT;
}

/** Take N calls from the budget: true if it held them.  */
bool
dirplus_budget_take (long n)
{
  long b = __atomic_load_n (&budget, __ATOMIC_RELAXED);
  n *= BUDGET_UNIT;
  while (n <= b)
    if (__atomic_compare_exchange_n (&budget, &b, b - n, false,
                                     __ATOMIC_RELAXED, __ATOMIC_RELAXED))
      return true;
  return false;
}

/** Run indices of job J until none is left.  */
static void
drain (struct job *j)
{
  for (;;)
    {
      size_t i = __atomic_fetch_add (&j->next, 1, __ATOMIC_RELAXED);
      if (j->n <= i)
        return;
      j->fn (j->arg, i);
    }
}

/** The oldest open job with indices left, or NULL (LOCK held).  Oldest
    first: the caller's directory is the one ls prints next, and a
    directory's entries are best stat'ed right after its READDIR (NFS
    keeps the attributes a READDIR brought for acregmin, 3 s by default;
    a statx after that is a GETATTR round trip GNU ls may not make).  */
static struct job *
find_work (void)
{
  struct job *found = NULL;
  for (struct job *j = pool.open; j; j = j->link)
    if (__atomic_load_n (&j->next, __ATOMIC_RELAXED) < j->n)
      found = j;
  return found;
}

/** A worker: join open jobs, work until they are drained.  */
static void *
worker_main (void *unused)
{
  (void) unused;
  pthread_mutex_lock (&pool.lock);
  for (;;)
    {
      struct job *j = find_work ();
      if (!j)
        {
          /* Sleep until a job is opened (SEQ changes) and this worker is
             among those woken for it.  */
          uint32_t seq = pool.seq;
          pool.waiting++;
          pthread_mutex_unlock (&pool.lock);
          syscall (SYS_futex, &pool.seq, FUTEX_WAIT_PRIVATE, seq, NULL,
                   NULL, 0);
          pthread_mutex_lock (&pool.lock);
          pool.waiting--;
          continue;
        }
      j->busy++;
      pthread_mutex_unlock (&pool.lock);

      drain (j);

      pthread_mutex_lock (&pool.lock);
      if (--j->busy == 0)
        pthread_cond_signal (&j->idle);
    }
  return NULL;
}

/** The number of workers wanted (LSPLUS_REMOTE_THREADS, validated by
    dirplus_pool_env_valid; default POOL_DEFAULT).  */
static int
pool_max (void)
{
  if (pool.max == 0)
    {
      long v = dirplus_env_number ("LSPLUS_REMOTE_THREADS", 1, POOL_MAX,
                                   0);
      pool.forced = 0 < v;
      pool.max = v <= 0 ? POOL_DEFAULT : v;
      if (pool.forced)
        pool.width = pool.max + 1;
    }
  return pool.max;
}

/** Whether LSPLUS_REMOTE_THREADS fixes the pool's width (then it is
    used whatever its calls cost).  */
bool
dirplus_pool_forced (void)
{
  pthread_mutex_lock (&pool.lock);
  pool_max ();
  bool forced = pool.forced;
  pthread_mutex_unlock (&pool.lock);
  return forced;
}

/** Whether LSPLUS_REMOTE_THREADS is unset or a number in 1..256.  */
bool
dirplus_pool_env_valid (void)
{
  return 0 <= dirplus_env_number ("LSPLUS_REMOTE_THREADS", 1, POOL_MAX, 1);
}

/** Start threads running FN until *COUNT reaches WANT (see
    dirplus-impl.h).  */
void
dirplus_start_threads (void *(*fn) (void *), int *count, int want)
{
  if (want <= *count)
    return;
  /* The threads take no signals: ls's handlers run in the main thread.  */
  sigset_t all, old;
  sigfillset (&all);
  pthread_sigmask (SIG_SETMASK, &all, &old);
  pthread_attr_t attr;
  if (pthread_attr_init (&attr) == 0)
    {
      pthread_attr_setdetachstate (&attr, PTHREAD_CREATE_DETACHED);
      /* The deepest frame is a path buffer of PATH_MAX + 32 bytes.  */
      pthread_attr_setstacksize (&attr, 128 * 1024);
      while (*count < want)
        {
          pthread_t t;
          if (pthread_create (&t, &attr, fn, NULL) != 0)
            break;
          ++*count;
        }
      pthread_attr_destroy (&attr);
    }
  pthread_sigmask (SIG_SETMASK, &old, NULL);
}

/** Learn from N entries that took NS nanoseconds on USED threads (LOCK
    held): grow the width, or settle it (see above).  */
static void
measure (size_t n, long long ns, int used)
{
  if (pool.forced || pool.settled || used != pool.width
      || n < (size_t) MEASURE_PER_THREAD * used)
    return;
  long long per = ns / (long long) n;
  if (used == 1 || per * 100 <= pool.base_ns * PAYS_PERCENT)
    {
      pool.base_ns = per;
      if (pool_max () + 1 <= pool.width)
        pool.settled = true;
      else
        pool.width = (pool.width * 2 < pool_max () + 1 ? pool.width * 2
                      : pool_max () + 1);
    }
  else
    {
      /* No gain: back to the width before, for good.  */
      pool.width = used / 2 < 1 ? 1 : used / 2;
      pool.settled = true;
    }
}

/** Whether entries were found to wait for round trips: a job came to
    the pool (dirplus-batch.c sends one after two slow stats in a row,
    dirplus-stat.c the attributes the module left unknown).  */
bool
dirplus_pool_slow (void)
{
  return __atomic_load_n (&pool_slow, __ATOMIC_RELAXED);
}

/** Give job J up to WANT more workers (LOCK held): existing threads
    (busy ones join when their job is drained; sleeping ones are woken)
    and new ones, as far as the budget pays (all of them when the width
    is fixed); publish J the first time.  Adds the workers given to
    *USED; returns how many sleepers to wake once LOCK is released.  */
static int
add_workers (struct job *j, size_t want, bool *published, int *used)
{
  if (want == 0)
    return 0;
  size_t have = pool.nthreads;
  size_t from = want < have ? want : have;
  size_t sleeping = (size_t) pool.waiting < from ? pool.waiting : from;
  if (pool.forced)
    dirplus_start_threads (worker_main, &pool.nthreads, want);
  else
    {
      if (from && !dirplus_budget_take ((*published ? 0 : COST_JOB)
                                        + COST_WAKE * sleeping))
        from = sleeping = 0;
      /* New threads, started together (one signal mask around them);
         they find the job themselves, no wake-up.  */
      size_t more = want - from;
      if (more && (from || *published || dirplus_budget_take (COST_JOB)))
        {
          int k = dirplus_budget_take_up_to (COST_THREAD, more);
          dirplus_start_threads (worker_main, &pool.nthreads, have + k);
        }
    }
  size_t given = from + (pool.nthreads - have);
  if (given == 0)
    return 0;
  if (!*published)
    {
      *published = true;
      dirplus_pool_used = true;
      pthread_cond_init (&j->idle, NULL);
      j->link = pool.open;
      pool.open = j;
    }
  pool.seq++;
  *used += given;
  return sleeping;
}

/** Read the clock for a measurement into *T, if the budget pays for it:
    where the clock has no vDSO (a QEMU TCG guest) each reading is a
    system call.  */
static bool
timed (long long *t)
{
  if (!dirplus_budget_take (1))
    return false;
  *t = dirplus_usec_now ();
  return true;
}

/** Wake N workers sleeping for a job.  */
static void
wake_workers (int n)
{
  if (n)
    syscall (SYS_futex, &pool.seq, FUTEX_WAKE_PRIVATE, n, NULL, NULL, 0);
}

/** Call FN (ARG, I) for every I in [0, N) on the pool's threads and the
    caller's; return when every call has returned.  While the width is
    being measured, the caller times every MEASURE_PER_THREAD x (threads)
    entries taken and gives the job more workers as soon as the width
    grows: a big first directory does not wait for its end.  */
void
dirplus_pool_run (size_t n, dirplus_pool_fn fn, void *arg)
{
  if (n == 0)
    return;
  struct job j = { .fn = fn, .arg = arg, .n = n };
  bool published = false;
  int used = 1;
  if (1 < n)
    __atomic_store_n (&pool_slow, true, __ATOMIC_RELAXED);
  pthread_mutex_lock (&pool.lock);
  pool_max ();
  size_t want = pool.width - 1;
  if (n - 1 < want)
    want = n - 1;
  int wake = add_workers (&j, want, &published, &used);
  bool measuring = !pool.forced && !pool.settled;
  pthread_mutex_unlock (&pool.lock);
  wake_workers (wake);

  long long t0 = 0;
  size_t mark = 0;
  if (measuring)
    measuring = timed (&t0);
  for (;;)
    {
      size_t i = __atomic_fetch_add (&j.next, 1, __ATOMIC_RELAXED);
      if (n <= i)
        break;
      fn (arg, i);
      if (!measuring)
        continue;
      size_t taken = __atomic_load_n (&j.next, __ATOMIC_RELAXED);
      if (n < taken)
        taken = n;
      if (taken - mark < (size_t) MEASURE_PER_THREAD * used)
        continue;
      long long t;
      if (!timed (&t))
        {
          measuring = false;	/* again with the next job */
          continue;
        }
      pthread_mutex_lock (&pool.lock);
      measure (taken - mark, (t - t0) * 1000, used);
      measuring = !pool.settled;
      wake = 0;
      if (used < pool.width && taken < n)
        {
          size_t more = pool.width - used;
          if (n - taken < more)
            more = n - taken;
          wake = add_workers (&j, more, &published, &used);
        }
      pthread_mutex_unlock (&pool.lock);
      wake_workers (wake);
      t0 = t;
      mark = taken;
    }

  if (!published)
    return;
  pthread_mutex_lock (&pool.lock);
  struct job **p = &pool.open;
  while (*p != &j)
    p = &(*p)->link;
  *p = j.link;
  while (j.busy)
    pthread_cond_wait (&j.idle, &pool.lock);
  pthread_mutex_unlock (&pool.lock);
  pthread_cond_destroy (&j.idle);
}
