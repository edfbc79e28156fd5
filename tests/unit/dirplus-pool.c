/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tests/unit/dirplus-pool.c -- unit tests of lib/dirplus-pool.c: the
   threads' call budget and the remote pool's width (issue 21).

   Each case runs in a child process (the pool, its threads and its
   budget are per process):
     - the budget's arithmetic (take, take up to, left);
     - with an empty budget, a job of slow entries runs entirely in the
       caller: no thread is started, whatever the entries cost;
     - with a budget, slow entries (1 ms each, as a round trip) make the
       width grow: entries run on other threads, and what was taken from
       the budget covers at least eleven calls per thread started;
     - LSPLUS_REMOTE_THREADS=4 fixes the width without a budget: at most
       four workers, used;
     - dirplus_pool_slow says whether a job of two or more entries came.
   Exit 0 pass, 1 fail.  */

#include <config.h>

#include "unit-check.h"

#include "dirplus-impl.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

enum { N = 64 };

static pid_t tids[N];
static bool slow;

/** The pool's work: record the thread of entry I; wait 1 ms when SLOW.  */
static void
record (void *arg, size_t i)
{
  (void) arg;
  tids[i] = gettid ();
  if (slow)
    {
      struct timespec ts = { 0, 1000000 };
      nanosleep (&ts, NULL);
    }
}

/** The number of threads of this process.  */
static int
threads (void)
{
  DIR *d = opendir ("/proc/self/task");
  int n = 0;
  if (!d)
    return -1;
  for (struct dirent *e; (e = readdir (d)); )
    n += e->d_name[0] != '.';
  closedir (d);
  return n;
}

/** The number of entries of the last job run on another thread than
    the caller's.  */
static int
elsewhere (void)
{
  int n = 0;
  for (int i = 0; i < N; i++)
    n += tids[i] != gettid ();
  return n;
}

/** The budget's arithmetic.  */
static void
case_budget (void)
{
  if (dirplus_budget_left () != 0)
    fail ("budget: starts at %ld, not 0", dirplus_budget_left ());
  if (dirplus_budget_take (5))
    fail ("budget: took 5 from 0");
  /* Half of the calls saved may be spent.  */
  dirplus_budget_add (18);
  if (dirplus_budget_left () != 9)
    fail ("budget: 18 calls saved give %ld to spend, not 9",
          dirplus_budget_left ());
  if (!dirplus_budget_take (5))
    fail ("budget: could not take 5 of 9");
  int k = dirplus_budget_take_up_to (2, 10);
  if (k != 2 || dirplus_budget_left () != 0)
    fail ("budget: take_up_to (2, 10) of 4 gave %d, left %ld (want 2, 0)",
          k, dirplus_budget_left ());
  if (dirplus_budget_take (1) || dirplus_budget_take_up_to (1, 3) != 0)
    fail ("budget: took 1 from 0");
  dirplus_budget_add (6);
  if (dirplus_budget_left () != 3 || !dirplus_budget_take (3))
    fail ("budget: 6 calls saved give %ld, not 3", dirplus_budget_left ());
  dirplus_budget_add (-3);
  if (dirplus_budget_take_up_to (1, 3) != 0 || dirplus_budget_take (1))
    fail ("budget: took from a negative budget");
}

/** An empty budget: slow entries, no thread.  */
static void
case_empty (void)
{
  slow = true;
  for (int job = 0; job < 4; job++)
    dirplus_pool_run (N, record, NULL);
  if (elsewhere ())
    fail ("empty budget: %d of %d entries on other threads", elsewhere (), N);
  if (threads () != 1)
    fail ("empty budget: %d threads, not 1", threads ());
}

/** A budget: slow entries make the width grow, within what it pays.  */
static void
case_grow (void)
{
  enum { BUDGET = 5000 };
  slow = true;
  dirplus_budget_add (BUDGET);
  long start = dirplus_budget_left ();
  int used = 0;
  for (int job = 0; job < 6; job++)
    {
      dirplus_pool_run (N, record, NULL);
      used += elsewhere ();
    }
  int t = threads ();
  long spent = start - dirplus_budget_left ();
  printf ("grow: %d threads, %d entries elsewhere, %ld calls spent\n",
          t, used, spent);
  if (used == 0 || t < 2)
    fail ("budget of %d: slow entries never ran on another thread", BUDGET);
  if (65 < t)
    fail ("budget of %d: %d threads (at most 64 workers)", BUDGET, t);
  if (spent < 11L * (t - 1))
    fail ("budget: %ld calls taken for %d threads (at least 11 each)",
          spent, t - 1);
  if (spent > start || start > BUDGET)
    fail ("budget: %ld calls spent of %ld (%d saved)", spent, start, BUDGET);
}

/** LSPLUS_REMOTE_THREADS fixes the width, without a budget.  */
static void
case_forced (void)
{
  setenv ("LSPLUS_REMOTE_THREADS", "4", 1);
  slow = true;
  dirplus_pool_run (N, record, NULL);
  int t = threads ();
  if (elsewhere () == 0)
    fail ("LSPLUS_REMOTE_THREADS=4: no entry on another thread");
  if (t < 2 || 5 < t)
    fail ("LSPLUS_REMOTE_THREADS=4: %d threads, not 2..5", t);
  if (dirplus_budget_left () != 0)
    fail ("LSPLUS_REMOTE_THREADS=4: the budget changed (%ld)",
          dirplus_budget_left ());
}

/** dirplus_pool_slow: false until a job of two entries came.  */
static void
case_slow (void)
{
  slow = false;
  if (dirplus_pool_slow ())
    fail ("pool_slow: true before any job");
  dirplus_pool_run (1, record, NULL);
  if (dirplus_pool_slow ())
    fail ("pool_slow: true after a job of one entry");
  dirplus_pool_run (2, record, NULL);
  if (!dirplus_pool_slow ())
    fail ("pool_slow: false after a job of two entries");
}

/* The cases, each run in a child of its own.  */
static const struct
{
  void (*fn) (void);
  const char *name;
} cases[] = {
  { case_budget, "the budget's arithmetic" },
  { case_empty, "an empty budget starts no thread" },
  { case_grow, "a budget: the width grows on slow entries" },
  { case_forced, "LSPLUS_REMOTE_THREADS=4: no budget" },
  { case_slow, "dirplus_pool_slow" },
};

/** Child body: case I with the environment cleared; 1 if it failed.  */
static int
run_case (int i)
{
  unsetenv ("LSPLUS_REMOTE_THREADS");
  cases[i].fn ();
  fflush (stdout);
  return failures ? 1 : 0;
}

int
main (void)
{
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    if (in_child (run_case, i))
      fail ("%s", cases[i].name);
    else
      printf ("ok: %s\n", cases[i].name);
  return failures ? 1 : 0;
}
