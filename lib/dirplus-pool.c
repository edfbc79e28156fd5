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

   Layering (see the map in dirplus-impl.h): a shared piece, called by
   dirplus-batch.c, dirplus-stat.c and dirplus-ahead.c (its threads),
   and by dirplus.c for LSPLUS_REMOTE_THREADS; calls nothing of the
   library.  */

#include <config.h>

#include "dirplus-impl.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

enum { POOL_DEFAULT = 64, POOL_MAX = 256 };

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
  pthread_cond_t work;		/* a job was opened */
  struct job *open;		/* open jobs, newest first */
  int nthreads;			/* workers started */
  int waiting;			/* workers waiting for a job */
  int max;			/* LSPLUS_REMOTE_THREADS, 0 until read */
} pool =
{
  .lock = PTHREAD_MUTEX_INITIALIZER,
  .work = PTHREAD_COND_INITIALIZER,
};

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
          pool.waiting++;
          pthread_cond_wait (&pool.work, &pool.lock);
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
                                   POOL_DEFAULT);
      pool.max = v < 0 ? POOL_DEFAULT : v;
    }
  return pool.max;
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

/** Call FN (ARG, I) for every I in [0, N) on the pool's threads and the
    caller's; return when every call has returned.  */
void
dirplus_pool_run (size_t n, dirplus_pool_fn fn, void *arg)
{
  if (n == 0)
    return;
  struct job j = { .fn = fn, .arg = arg, .n = n };
  if (n == 1)
    {
      fn (arg, 0);
      return;
    }
  dirplus_pool_used = true;
  pthread_cond_init (&j.idle, NULL);
  pthread_mutex_lock (&pool.lock);
  /* One worker per entry beyond the caller's own, up to the maximum.  */
  size_t want = n - 1;
  if ((size_t) pool_max () < want)
    want = pool_max ();
  dirplus_start_threads (worker_main, &pool.nthreads, want);
  j.link = pool.open;
  pool.open = &j;
  if (pool.waiting)
    pthread_cond_broadcast (&pool.work);
  pthread_mutex_unlock (&pool.lock);

  drain (&j);

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
