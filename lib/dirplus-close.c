/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dirplus-close.c -- shared piece: the fds of finished directories,
   closed in batches.

   Where a whole directory costs only a couple of system calls (its open
   and one getdentsplus call), its close is a large share of what is
   left.  dirplus_close hands such fds here; they stay open until
   CLOSE_BATCH of them wait, then each run of consecutive numbers goes
   with one close_range(2) (a single fd with close(2)).  The kernel gives
   out the lowest free number, so the directories ls finishes one after
   another mostly hold consecutive fds.  Only fds handed here are ever in
   a run: a number between two of them that is not ours ends the run, so
   no other fd is ever closed.

   Closes are deferred only while RLIMIT_NOFILE leaves ample room
   (CLOSE_MIN_NOFILE), and dirplus_open flushes them when an open fails
   with EMFILE or ENFILE.  Closing a directory fd reports no error worth
   a caller's attention, so a deferred close reports 0.

   Layering (see the map in dirplus-impl.h): a shared piece, called by
   dirplus.c; calls nothing of the library.  */

#include <config.h>

#include "dirplus-impl.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/syscall.h>

enum
{
  CLOSE_BATCH = 64,		/* fds waiting at most */
  CLOSE_MIN_NOFILE = 1024,	/* RLIMIT_NOFILE needed to defer */
};

static pthread_mutex_t close_lock = PTHREAD_MUTEX_INITIALIZER;
static int waiting[CLOSE_BATCH];
static size_t nwaiting;
static int defer_state;		/* 0 not decided, 1 defer, -1 never */
static bool no_close_range;	/* the kernel lacks close_range(2) */

/** Order fds by number, for qsort.  */
static int
fd_cmp (const void *a, const void *b)
{
  int x = *(const int *) a, y = *(const int *) b;
  return (x > y) - (x < y);
}

/** Close fds LO..HI, all of them ours.  */
static void
close_run (int lo, int hi)
{
#ifdef SYS_close_range
  if (lo < hi && !no_close_range)
    {
      if (syscall (SYS_close_range, (unsigned int) lo, (unsigned int) hi,
                   0u) == 0)
        return;
      if (errno == ENOSYS)
        no_close_range = true;
    }
#endif
  for (int fd = lo; fd <= hi; fd++)
    close (fd);
}

/** Close every waiting fd; CLOSE_LOCK held.  */
static void
flush_locked (void)
{
  qsort (waiting, nwaiting, sizeof *waiting, fd_cmp);
  size_t i = 0;
  while (i < nwaiting)
    {
      size_t j = i;
      while (j + 1 < nwaiting && waiting[j + 1] == waiting[j] + 1)
        j++;
      close_run (waiting[i], waiting[j]);
      i = j + 1;
    }
  nwaiting = 0;
}

/** Whether closes may be deferred (decided once).  */
static bool
may_defer (void)
{
  if (defer_state == 0)
    {
      struct rlimit rl;
      defer_state = (getrlimit (RLIMIT_NOFILE, &rl) == 0
                     && CLOSE_MIN_NOFILE <= rl.rlim_cur) ? 1 : -1;
    }
  return defer_state > 0;
}

/** Close directory fd FD now or with the next batch.  Returns 0, or -1
    with errno from an immediate close(2).  */
int
dirplus_close_later (int fd)
{
  pthread_mutex_lock (&close_lock);
  if (!may_defer ())
    {
      pthread_mutex_unlock (&close_lock);
      return close (fd);
    }
  if (nwaiting == CLOSE_BATCH)
    flush_locked ();
  waiting[nwaiting++] = fd;
  pthread_mutex_unlock (&close_lock);
  return 0;
}

/** Close every fd waiting (to free them now).  */
void
dirplus_flush_closes (void)
{
  pthread_mutex_lock (&close_lock);
  flush_locked ();
  pthread_mutex_unlock (&close_lock);
}
