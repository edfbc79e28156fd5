/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dirplus-ahead.c -- read directories ahead on remote filesystems, on
   a local disk when the tree is cold, and on an idle CPU when it is
   warm.

   ls -R lists one directory after another; on NFS each directory costs a
   few round trips of its own (the open's LOOKUP/ACCESS/GETATTR, READDIR,
   ...) that no per-entry overlap can hide.  ls tells the library which
   subdirectories it will open next (dirplus_ahead, in the order it will
   open them); on a remote filesystem up to AHEAD_THREADS threads open,
   read and stat them in the background (each batch through the remote
   pool), and dirplus_open hands the finished result over: the same fd,
   the same batches, the same errors, in the same order.  Nothing is ever
   printed early, and every call is one that reading the directory later
   would have made.

   A cold local tree has the same shape: each directory's block is one
   synchronous disk read (ext4 reads a one-block directory without
   read-ahead), then its inodes' table blocks, one read at a time
   (bench/cold.md).  When the parent's first getdents64 was slow
   (dirplus-getdents.c decides), up to AHEAD_LOCAL_THREADS threads
   (LSPLUS_COLD_THREADS) read the subdirectories ahead the same way, with
   the backend's own read when it allows threads (ops->threads_ok: the
   sync backend), never sharing a batch with dirplus-batch.c's helper.
   Only remote directories make the threads grow (below).

   A warm local tree of small directories has nothing to overlap with
   the disk, but its kernel work (open, getdents64, a statx and a
   listxattr per entry) can run on a CPU that is idle: when one is spare
   (dirplus_spare_cpus: LSPLUS_THREADS, the process's CPUs, nothing else
   runnable on it now), up to AHEAD_WARM_THREADS threads read the hinted
   subdirectories ahead the same way.  Such a directory takes
   10-300 us, so hand-overs through condition variables (a futex call
   or two each way) would cost more than the work: the threads spin for
   new work AHEAD_SPIN_USEC before they sleep, and ls, when the directory
   it wants is still being read, reads the next hinted ones itself (it
   would read them later anyway) and spins before it sleeps; no read
   turns, no clock readings beyond the cold check's sample.  The work
   splits itself between the two: ls lists what the thread read while
   the thread reads the next.  Measured on bench/run's deep tree (10,000
   directories of 10 files), warm, on two CPUs: 234 futex calls for
   110,100 entries (perf stat, no tracer), ls -lR 0.31x GNU's time
   against 0.56x on one thread.  Only as many threads spin as CPUs are
   spare, and none while the tree looks cold (dirplus_cold_now): a cold
   tree's threads wait for the disk and hand over through the condition
   variables.

   How many at once is decided from what the round trips cost: the
   first AHEAD_THREADS threads time each directory's open and fstat (at
   least two round trips on NFS); once one took AHEAD_SLOW_NS or more
   the link is slow, and the threads grow to AHEAD_THREADS_SLOW, so that
   the per-directory round trips (ACCESS, GETATTR, READDIR on NFSv4)
   overlap that much deeper.  But when a directory's entries needed the
   remote pool (per-file round trips: NFSv3's GETACL, FUSE's listxattr),
   the pool is what bounds the time, and directories read far ahead of
   it would only wait there until the attributes their READDIR brought
   expire (a stat then costs a round trip GNU does not make): the depth
   goes back to AHEAD_THREADS.  LSPLUS_AHEAD=N fixes the number instead.

   Only the opens go that deep: the reads (READDIR, then the entries'
   stats) take turns in the order the directories were started, at most
   AHEAD_READING at once (as many as before the opens went deeper).  A
   READDIR's attributes last acregmin (3 s) on NFS; 64 directories read
   at once on a starved CPU (TCG, loaded) left their entries waiting for
   the stats longer than that (870 GETATTRs where GNU makes 102), and 16
   once made 1,708 RPCs instead of 308 with the module (a VM stalled
   by a host load of 14).

   When it starts (issue 21): a thread costs about eleven system calls
   to start and each directory read ahead a few more (hand-overs between the
   threads: AHEAD_DIR_COST).  Unless LSPLUS_AHEAD (or, for a cold tree,
   LSPLUS_COLD_THREADS) is set, those are paid from the threads' call
   budget (dirplus-pool.c: calls saved against GNU ls 9.1), a hint is
   cut where the budget ends, and a remote tree is read ahead only when
   it was measured to pay: its entries wait for round trips (two slow
   stats in a row sent a job to the remote pool), or opening the parent
   took AHEAD_OPEN_PAYS_USEC or more (the open is timed when
   dirplus-getdents.c's cold check times it, as it does the first
   directories); once it paid, it goes on.  Overlapping whole
   directories is what pays most on a FUSE filesystem whose daemon
   waits for a server (JuiceFS: 0.3x GNU's time, where the pool alone
   gives 0.55x).

   Bounds: at most twice as many directories as threads are being read
   or waiting to be taken (each holds one fd and its entries; on a warm
   tree AHEAD_WARM_DEPTH ahead of each hint, see ahead_claim), never
   more than a quarter of RLIMIT_NOFILE, and no new one is started while
   the entries held reach AHEAD_BYTES (memory stays bounded whatever the
   directories' sizes); at most AHEAD_QUEUE names wait to be started,
   and nothing is read ahead when the descriptor limit is below
   AHEAD_MIN_NOFILE.  Newer hints go first: ls lists depth first, so the
   subdirectories it just found are the next it needs.

   A hint is dropped when its parent is closed; dirplus_close of the
   parent waits while a thread is inside openat relative to the parent's
   fd (after that the fd number may be reused).

   Layering (see the map in dirplus-impl.h): a shared piece, called by
   dirplus.c only (dirplus_ahead, _open, _read and _close hand over
   here); it reads a directory with the backend operations the parent
   directory carries (never naming a backend), and calls the shared
   pieces dirplus-pool.c (its threads) and dirplus-common.c.  */

#include <config.h>

#include "dirplus-impl.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>
#include <sys/resource.h>

enum
{
  AHEAD_THREADS = 8,		/* directories read at once, at first */
  AHEAD_THREADS_SLOW = 64,	/* ... once the round trips are slow */
  AHEAD_THREADS_MAX = 256,	/* LSPLUS_AHEAD's limit */
  AHEAD_READING = 8,		/* directories being read at once */
  AHEAD_LOCAL_THREADS = 4,	/* a cold local tree: threads by default */
  AHEAD_WARM_THREADS = 3,	/* a warm local tree: at most, spare CPUs */
  AHEAD_WARM_DEPTH = 16,	/* ... started ahead of one (ahead_claim) */
  AHEAD_QUEUE = 4096,		/* hints waiting */
  AHEAD_MIN_NOFILE = 256,	/* RLIMIT_NOFILE needed to read ahead */
};

/* What reading ahead costs in lines of strace -f beyond what reading
   the directory later would: a thread's start (eleven calls) and its
   exit line; a directory's hand-overs (the thread's wake-up and sleep,
   the reader's wait), its four clock readings (system calls where the
   clock has no vDSO: a QEMU TCG guest) and its open, fstat and read,
   which the thread makes instead of the reader.  A call that another
   thread's call interrupts is two lines there (the call, then its
   resumption), so each call counts twice (issue 21: at 11 and 12, 64
   threads for 25 NFSv4 directories made ls -lR 1.6 lines per entry
   against GNU's 1.1; a thread that read nothing cost 35-45 lines).  */
enum { AHEAD_THREAD_COST = 24, AHEAD_DIR_COST = 32 };
/* A local directory read ahead costs no clock reading and no read turn:
   a warm one's threads spin (below), two calls for the rare hand-over
   that sleeps; a cold one's hand-overs sleep (the threads wait for the
   disk, and there are more of them than CPUs): its thread's wake-up and
   sleep, the reader's wait and the wake-up it gets, and the lock's
   contention (about five futex calls per directory under strace -f,
   where everything is slow: LSPLUS_COLD_USEC=0 on 1,100 directories of
   10 files made 5,639).  */
enum { AHEAD_WARM_DIR_COST = 2, AHEAD_COLD_DIR_COST = 5 };
/* How long a warm thread spins for new work, and the reader for a
   directory in progress, before they sleep (microseconds): a directory
   of a warm tree takes 10-300 us to read.  */
enum { AHEAD_SPIN_USEC = 300, AHEAD_TAKE_SPIN_USEC = 2000 };
/* Opening a directory that took this long was a round trip: reading
   ahead pays.  */
#define AHEAD_OPEN_PAYS_USEC 1000

/* An open and fstat slower than this: the link is slow (2 ms per round
   trip; a LAN's are well under 1 ms).  */
#define AHEAD_SLOW_NS 4000000
/* Entries held (read ahead, not yet taken) before no new directory is
   started.  */
#define AHEAD_BYTES ((size_t) 64 << 20)

/* The states of a directory read ahead.  */
enum { PENDING, OPENING, READING, DONE };

/* One batch of a directory read ahead: what dirplus_read returned.  */
struct ahead_batch
{
  struct ahead_batch *next;
  ssize_t n;			/* entries, or -1 */
  int err;			/* errno when N is -1 */
  struct dirplus_entry ents[];	/* names copied after the array */
};

/* A directory to read ahead.  */
struct ahead
{
  struct ahead *prev, *next;	/* in the list, newest hints first */
  int parentfd;
  char *name;
  unsigned int mask, flags;
  dirplus_filter_fn filter;
  void *filter_arg;
  enum dirplus_backend backend;
  const struct dirplus_ops *ops; /* how the parent is read */
  int fs_kind;
  unsigned int state;		/* PENDING, OPENING, READING, DONE */
  bool dropped;			/* nobody will take it: free when done */
  bool budgeted;		/* its start is paid from the budget */
  bool local;			/* a local tree's: no turns, no clock */
  bool warm;			/* ... a warm one's (ls helps, see take) */
  int fd;			/* the open directory, or -1 */
  int open_errno;
  struct stat st;		/* fstat of FD, taken before reading it */
  int st_errno;
  bool incomplete;		/* out of memory: not usable */
  bool cold;			/* its first getdents64 waited for the disk */
  unsigned long seq;		/* its turn to read */
  size_t bytes;			/* the batches' size */
  struct ahead_batch *batches, **tail;
};

static struct
{
  pthread_mutex_t lock;
  pthread_cond_t work;		/* a hint can be started */
  pthread_cond_t changed;	/* a read finished, or an open returned */
  pthread_cond_t turn;		/* READ_TURN or READING changed */
  unsigned long started;	/* directories started (their SEQ) */
  unsigned long read_turn;	/* the SEQ whose read may start next */
  int reading;			/* reads (READDIR + stats) running */
  struct ahead *head;
  size_t pending, active;	/* hints waiting; read or being read */
  size_t active_warm;		/* ... of ACTIVE, a warm tree's */
  size_t bytes;			/* the batches held (atomic) */
  int nthreads, want;		/* threads started; wanted */
  size_t window;		/* bound of ACTIVE */
  size_t max_window;		/* a quarter of RLIMIT_NOFILE */
  bool fixed;			/* LSPLUS_AHEAD set the number */
  bool pays;			/* remote: measured to pay */
  int idle;			/* threads waiting for work */
  int enabled;			/* 0 not decided, 1 yes, -1 no */
  int warm_threads;		/* for a warm tree; -1: not decided */
  int spinners;			/* threads that may spin (< WARM_THREADS) */
  bool warm;			/* a warm tree's hints were made: the
                                   threads spin before they sleep */
  unsigned int kick;		/* bumped when work or room comes (atomic) */
} ah =
{
  /* Adaptive: the lock is held for a few list steps at a time, and a
     short spin is cheaper than a futex sleep and wake-up.  */
  .lock = PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP,
  .work = PTHREAD_COND_INITIALIZER,
  .changed = PTHREAD_COND_INITIALIZER,
  .turn = PTHREAD_COND_INITIALIZER,
  .warm_threads = -1,
};

/** Free the list of batches B.  */
void
dirplus_ahead_free_batches (struct ahead_batch *b)
{
  while (b)
    {
      struct ahead_batch *next = b->next;
      free (b);
      b = next;
    }
}

/** Free A (unlinked) and close its fd.  */
static void
ahead_free (struct ahead *a)
{
  if (0 <= a->fd)
    close (a->fd);
  __atomic_sub_fetch (&ah.bytes, a->bytes, __ATOMIC_RELAXED);
  dirplus_ahead_free_batches (a->batches);
  free (a->name);
  free (a);
}

/** Unlink A from the list (LOCK held).  */
static void
unlink_ahead (struct ahead *a)
{
  if (a->prev)
    a->prev->next = a->next;
  else
    ah.head = a->next;
  if (a->next)
    a->next->prev = a->prev;
  a->prev = a->next = NULL;
}

/** Append to A a copy of the batch of N entries ENTS (or an error, N
    -1 with ERR).  Returns 0, or -1 when memory runs out.  */
static int
add_batch (struct ahead *a, struct dirplus_entry const *ents, ssize_t n,
           int err)
{
  size_t count = n < 0 ? 0 : n;
  size_t names = 0;
  for (size_t i = 0; i < count; i++)
    names += ents[i].namelen + 1;
  size_t size = sizeof (struct ahead_batch)
                + count * sizeof (struct dirplus_entry) + names;
  struct ahead_batch *b = malloc (size);
  if (!b)
    return -1;
  a->bytes += size;
  __atomic_add_fetch (&ah.bytes, size, __ATOMIC_RELAXED);
  b->next = NULL;
  b->n = n;
  b->err = err;
  char *p = (char *) &b->ents[count];
  for (size_t i = 0; i < count; i++)
    {
      b->ents[i] = ents[i];
      memcpy (p, ents[i].name, ents[i].namelen + 1);
      b->ents[i].name = p;
      p += ents[i].namelen + 1;
    }
  *a->tail = b;
  a->tail = &b->next;
  return 0;
}

/** Monotonic time in nanoseconds.  */
static long long
now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/** The calls A's read ahead is charged to the budget (0: not budgeted).  */
static int
dir_cost (const struct ahead *a)
{
  return (!a->budgeted ? 0 : a->warm ? AHEAD_WARM_DIR_COST
          : a->local ? AHEAD_COLD_DIR_COST : AHEAD_DIR_COST);
}

/** Wake up to N of the threads waiting for work (LOCK held): one per
    hint that can start (with hints that COST calls each, one the budget
    pays for), never all of them -- a thread woken for nothing costs its
    wake-up and its sleep, and threads woken at once contend for the lock
    (futex calls again).  Threads spinning for work see KICK change.  */
static void
wake_idle (size_t n, int cost)
{
  __atomic_add_fetch (&ah.kick, 1, __ATOMIC_RELEASE);
  if ((size_t) ah.idle < n)
    n = ah.idle;
  if (cost)
    {
      long afford = dirplus_budget_left () / cost;
      if (afford < (long) n)
        n = afford < 0 ? 0 : afford;
    }
  while (n--)
    pthread_cond_signal (&ah.work);
}

/** Set the number of threads wanted to N (LOCK held), and the window
    with it.  */
static void
set_threads (int n)
{
  ah.want = n;
  ah.window = 2 * (size_t) n;
  if (ah.max_window < ah.window)
    ah.window = ah.max_window;
}

/** Open and read A (in an ahead thread, LOCK not held).  Returns the
    time its open and fstat took, in nanoseconds; sets *POOLED when its
    entries needed the remote pool (per-file round trips).  */
static long long
read_ahead (struct ahead *a, bool *pooled)
{
  /* A warm tree's directory is timed only as reading it later would be
     (the cold check's sample), so that a tree turning cold is still
     found; a cold one's not (it counts as cold); a remote one always.  */
  bool cold = a->local && !a->warm;
  bool timed = !a->local || (a->warm && dirplus_cold_timed (&cold));
  long long t0 = a->local ? 0 : now_ns ();
  dirplus_pool_used = false;
  *pooled = false;
  int oflags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOCTTY;
  if (!(a->flags & (DIRPLUS_FOLLOW | DIRPLUS_OPEN_FOLLOW)))
    oflags |= O_NOFOLLOW;
  long long u0 = timed ? dirplus_usec_now () : 0;
  int fd = dirplus_fd_above_stdio (openat (a->parentfd, a->name, oflags));
  long long open_usec = timed ? dirplus_usec_now () - u0 : 0;
  int err = errno;
  /* ls -R's cycle check, made here in GNU's order (open, fstat, read):
     on NFSv4 reading a directory invalidates its cached atime, and an
     fstat after that would cost a GETATTR that GNU does not make.  */
  if (0 <= fd)
    a->st_errno = fstat (fd, &a->st) == 0 ? 0 : errno;
  long long took = a->local ? 0 : now_ns () - t0;

  pthread_mutex_lock (&ah.lock);
  a->fd = fd;
  a->open_errno = fd < 0 ? err : 0;
  __atomic_store_n (&a->state, READING, __ATOMIC_RELEASE);
  pthread_cond_broadcast (&ah.changed);	/* the parent may be closed now */
  bool read = 0 <= fd && !a->dropped;
  /* Wait for A's turn to read, and a free reading slot (a local tree's
     directories have no turns: their attributes do not expire).  */
  if (!a->local)
    {
      while (a->seq != ah.read_turn || AHEAD_READING <= ah.reading)
        pthread_cond_wait (&ah.turn, &ah.lock);
      ah.read_turn++;
      read = 0 <= fd && !a->dropped;
      ah.reading += read;
      pthread_cond_broadcast (&ah.turn);
    }
  pthread_mutex_unlock (&ah.lock);
  if (!read)
    return took;

  struct dirplus_dir d =
    {
      .fd = fd, .mask = a->mask, .flags = a->flags, .backend = a->backend,
      .ops = a->ops, .filter = a->filter, .filter_arg = a->filter_arg,
      .fs_kind = a->fs_kind, .bufsize = DIRPLUS_BUFSIZE,
      .no_share = true,		/* the helper serves the main thread */
      /* At least 1: 0 means "not timed" to dirplus_getdents_batch.  */
      .open_usec = !timed ? 0 : open_usec < 1 ? 1
                   : open_usec < 1000000 ? open_usec : 1000000,
      .timed = !timed, .cold = cold,
    };
  d.buf = malloc (d.bufsize);
  int overflows = 0;
  if (!d.buf)
    a->incomplete = true;
  while (d.buf)
    {
      ssize_t n = a->ops->read (&d);
      int err = errno;
      if (add_batch (a, d.ents, n, err) < 0)
        {
          a->incomplete = true;
          break;
        }
      /* Like ls: go on after EOVERFLOW, stop at any other error.  */
      if (n == 0 || (n < 0 && (err != EOVERFLOW || 100 < ++overflows)))
        break;
      if (__atomic_load_n (&a->dropped, __ATOMIC_RELAXED))
        break;
    }
  a->cold = d.cold;
  free (d.buf);
  free (d.ents);
  free (d.scratch);
  *pooled = dirplus_pool_used;
  if (!a->local)
    {
      pthread_mutex_lock (&ah.lock);
      ah.reading--;
      pthread_cond_broadcast (&ah.turn);
      pthread_mutex_unlock (&ah.lock);
    }
  return took;
}

/** The newest pending hint that may start now (LOCK held): the window
    has room, the entries held stay under AHEAD_BYTES, and the budget
    pays for it (for the reader, THREAD false, only a warm tree's, and
    free: it makes the calls it would make later anyway).  Marks it
    OPENING and returns it, or NULL.  */
static struct ahead *
ahead_claim (bool thread)
{
  struct ahead *a = NULL;
  size_t before = 0;		/* directories started before it */
  if (ah.active == 0
      || __atomic_load_n (&ah.bytes, __ATOMIC_RELAXED) < AHEAD_BYTES)
    for (a = ah.head; a && a->state != PENDING; a = a->next)
      before++;
  /* A warm tree's directories are read in a few microseconds each: a
     thread soon runs out of the newest hints and reads older ones (the
     siblings of the directories above, needed after this subtree).  A
     window counting those would fill up with them and leave no room for
     the newest hints that come next, at the head of the list: a warm
     one starts while fewer than AHEAD_WARM_DEPTH directories started
     come before it in ls's order (and the descriptors allow).  */
  if (a && (a->warm ? (AHEAD_WARM_DEPTH <= before
                       || ah.max_window <= ah.active)
            : ah.window <= ah.active - ah.active_warm))
    return NULL;
  /* The reader reads ahead only what it would read as fast itself: not
     a warm tree's directories once it looks cold (they would keep it
     waiting for the disk while the one it wants is ready).  */
  if (a && !thread && (!a->warm || dirplus_cold_now ()))
    return NULL;
  if (a && thread && a->budgeted && !dirplus_budget_take (dir_cost (a)))
    return NULL;		/* funded later (ahead_fund) */
  if (a)
    {
      a->state = OPENING;
      if (!a->local)
        a->seq = ah.started++;
      ah.pending--;
      ah.active++;
      ah.active_warm += a->warm;
    }
  return a;
}

static void *ahead_main (void *unused);

/** A has been read (LOCK held), in TOOK ns for its open, POOLED if its
    entries needed the remote pool: adjust the threads, and let its
    reader have it.  */
static void
ahead_finish (struct ahead *a, long long took, bool pooled)
{
  if (a->local)
    ;
  else if (!ah.fixed && pooled)
    set_threads (AHEAD_THREADS);
  else if (!ah.fixed && ah.want < AHEAD_THREADS_SLOW
           && DIRPLUS_FS_LOCAL < a->fs_kind && AHEAD_SLOW_NS <= took)
    {
      set_threads (AHEAD_THREADS_SLOW);
      /* (Not fixed: the budget pays for them, see above.)  No more
         threads than hints waiting for one, the idle ones first.  */
      int more = ah.want - ah.nthreads;
      int pending = (int) ah.pending - ah.idle;
      if (pending < more)
        more = pending;
      int k = dirplus_budget_take_up_to (AHEAD_THREAD_COST, more);
      dirplus_start_threads (ahead_main, &ah.nthreads, ah.nthreads + k);
      wake_idle (ah.pending, a->budgeted ? AHEAD_DIR_COST : 0);
    }
  __atomic_store_n (&a->state, DONE, __ATOMIC_RELEASE);
  if (a->dropped)
    {
      unlink_ahead (a);
      ah.active--;
      ah.active_warm -= a->warm;
      ahead_free (a);
      pthread_cond_signal (&ah.work);
    }
  pthread_cond_broadcast (&ah.changed);
}

/** An ahead thread: start the newest pending hint while the window has
    room and the entries held stay under AHEAD_BYTES; when the open was
    slow, start more threads.  On a warm tree it spins a while for new
    work before it sleeps: the reader hands work over without a system
    call while it comes often.  */
static void *
ahead_main (void *unused)
{
  (void) unused;
  pthread_mutex_lock (&ah.lock);
  /* Only as many threads spin as there are spare CPUs (a cold tree may
     have started more), and only while the tree looks warm.  */
  bool may_spin = ah.spinners < ah.warm_threads;
  ah.spinners += may_spin;
  bool spun = false;
  for (;;)
    {
      struct ahead *a = ahead_claim (true);
      if (!a)
        {
          if (may_spin && ah.warm && !spun && !dirplus_cold_now ())
            {
              unsigned int kick = __atomic_load_n (&ah.kick,
                                                   __ATOMIC_ACQUIRE);
              spun = true;
              pthread_mutex_unlock (&ah.lock);
              dirplus_spin_while (&ah.kick, kick, true, AHEAD_SPIN_USEC);
              pthread_mutex_lock (&ah.lock);
              continue;
            }
          spun = false;
          ah.idle++;
          pthread_cond_wait (&ah.work, &ah.lock);
          ah.idle--;
          continue;
        }
      spun = false;
      pthread_mutex_unlock (&ah.lock);

      bool pooled;
      long long took = read_ahead (a, &pooled);

      pthread_mutex_lock (&ah.lock);
      ahead_finish (a, took, pooled);
    }
  return NULL;
}

/** Whether LSPLUS_AHEAD is unset or a number in 1..AHEAD_THREADS_MAX.  */
bool
dirplus_ahead_env_valid (void)
{
  return 0 <= dirplus_env_number ("LSPLUS_AHEAD", 1, AHEAD_THREADS_MAX, 1);
}

/** The number LSPLUS_COLD_THREADS gives (0..AHEAD_THREADS), or -1 when
    it is set to anything else.  */
static int
cold_env (void)
{
  return dirplus_env_number ("LSPLUS_COLD_THREADS", 0, AHEAD_THREADS,
                             AHEAD_LOCAL_THREADS);
}

/** Whether LSPLUS_COLD_THREADS is unset or a number in 0..8.  */
bool
dirplus_ahead_cold_env_valid (void)
{
  return 0 <= cold_env ();
}

/** Whether reading ahead is possible here, and how deep (decided once,
    LOCK held).  */
static bool
ahead_enabled (void)
{
  if (ah.enabled == 0)
    {
      struct rlimit rl;
      ah.enabled = (getrlimit (RLIMIT_NOFILE, &rl) == 0
                    && AHEAD_MIN_NOFILE <= rl.rlim_cur) ? 1 : -1;
      if (ah.enabled < 0)
        return false;
      ah.max_window = rl.rlim_cur / 4;
      long n = dirplus_env_number ("LSPLUS_AHEAD", 1, AHEAD_THREADS_MAX, 0);
      ah.fixed = 0 < n;
      set_threads (ah.fixed ? n : AHEAD_THREADS);
    }
  return 0 < ah.enabled;
}

/** The threads that may read a warm local tree ahead: the spare CPUs
    (dirplus_spare_cpus: LSPLUS_THREADS, affinity, what runs now), at
    most AHEAD_WARM_THREADS.  */
static int
warm_threads (void)
{
  /* None now: asked again (dirplus_spare_cpus samples anew every few
     asks).  */
  if (ah.warm_threads <= 0)
    {
      bool forced;
      int n = dirplus_spare_cpus (&forced, AHEAD_THREAD_COST);
      ah.warm_threads = n < AHEAD_WARM_THREADS ? n : AHEAD_WARM_THREADS;
    }
  return ah.warm_threads;
}

/** The threads wanted for hints like A (LOCK held): a warm tree's,
    a cold local tree's, or a remote one's.  */
static int
mode_threads (const struct ahead *a)
{
  int cold_n = cold_env ();
  return (a->warm ? warm_threads ()
          : a->fs_kind <= DIRPLUS_FS_LOCAL && cold_n < ah.want ? cold_n
          : ah.want);
}

/** Hint that NAMES[0..N-1], subdirectories of PARENT, will be opened
    next, in this order (for dirplus_ahead, see dirplus.h).  */
void
dirplus_ahead_hint (struct dirplus_dir *parent, char *const *names,
                    size_t n)
{
  /* (The uring backend reads remote directories the sync way: its ring
     is never used from these threads.)  A local directory is read ahead
     only when its parent was cold: its first getdents64 waited for the
     disk (dirplus-getdents.c), so its subdirectories probably will too,
     and reading several at once keeps more than one read in flight.  A
     warm tree never starts a thread.  */
  if (n == 0 || parent->fs_kind < DIRPLUS_FS_LOCAL)
    return;
  bool remote = DIRPLUS_FS_LOCAL < parent->fs_kind;
  int cold_n = cold_env ();
  bool cold = !remote && parent->cold && 0 < cold_n;
  int warm_n = !remote && !parent->cold ? warm_threads () : 0;
  if (!remote && !(parent->ops->threads_ok && (cold || 0 < warm_n)))
    return;
  bool warm = !remote && !cold;
  const char *force = getenv (remote ? "LSPLUS_AHEAD"
                              : cold ? "LSPLUS_COLD_THREADS"
                              : "LSPLUS_THREADS");
  bool budgeted = !(force && *force);
  /* A directory the parent's backend reads in a few calls per batch
     here (the uring backend's ring on a network filesystem) would cost
     the per-entry calls in a read-ahead thread, GNU's own number and
     more than reading it later: no budget pays for that (issue 21:
     NFSv3 ls -lR made 2.4 calls per entry that way against GNU's
     2.1).  */
  if (remote && budgeted && parent->ops->batched
      && parent->ops->batched (parent))
    return;
  /* On a network filesystem an entry whose attribute bits are asked
     gets GNU's own probes, one call each where GNU makes it; in a
     read-ahead thread each is two lines of strace -f (the call and its
     resumption), which nothing saved pays for (NFSv3's ACL probes; on
     NFSv4 they are latched off after the first entry, as in GNU): such
     a tree is read ahead only when LSPLUS_AHEAD asks for it.  */
  if (remote && budgeted && parent->fs_kind == DIRPLUS_FS_NET
      && !(parent->flags & DIRPLUS_NO_STAT)
      && (!parent->have_dev
          || (dirplus_wanted_attrs (parent->flags)
              & ~dirplus_dev_unsupported (parent->dev))))
    return;
  /* Whether it pays is decided once it did (open_usec: when the cold
     check timed the open, which it does for the first directories).  */
  if (remote && budgeted && !__atomic_load_n (&ah.pays, __ATOMIC_RELAXED))
    {
      if (parent->open_usec < AHEAD_OPEN_PAYS_USEC && !dirplus_pool_slow ())
        return;
      __atomic_store_n (&ah.pays, true, __ATOMIC_RELAXED);
    }
  pthread_mutex_lock (&ah.lock);
  if (!ahead_enabled ())
    goto done;
  int threads = (remote ? ah.want : warm ? warm_n
                 : cold_n < ah.want ? cold_n : ah.want);
  if (warm)
    __atomic_store_n (&ah.warm, true, __ATOMIC_RELAXED);
  if (budgeted)
    {
      /* One more thread per directory hinted, as far as the budget
         pays now; the hints wait for the budget otherwise
         (ahead_fund).  */
      size_t need = n < (size_t) ah.idle ? 0 : n - ah.idle;
      int afford = ah.nthreads + (int) (need < (size_t) threads ? need
                                        : threads);
      if (threads > afford)
        threads = afford;
      int k = (ah.nthreads < threads
               ? dirplus_budget_take_up_to (AHEAD_THREAD_COST,
                                            threads - ah.nthreads)
               : 0);
      dirplus_start_threads (ahead_main, &ah.nthreads, ah.nthreads + k);
    }
  else
    {
      dirplus_start_threads (ahead_main, &ah.nthreads, threads);
      if (ah.nthreads == 0)
        goto done;
    }
  /* Insert at the head, keeping the order of NAMES.  */
  struct ahead *first = NULL, *last = NULL;
  for (size_t i = 0; i < n && ah.pending < AHEAD_QUEUE; i++)
    {
      struct ahead *a = calloc (1, sizeof *a);
      char *name = strdup (names[i]);
      if (!a || !name)
        {
          free (a);
          free (name);
          break;
        }
      a->parentfd = parent->fd;
      a->name = name;
      a->mask = parent->mask;
      a->flags = parent->flags;
      a->filter = parent->filter;
      a->filter_arg = parent->filter_arg;
      a->backend = parent->backend;
      a->ops = parent->ops;
      a->fs_kind = parent->fs_kind;
      a->budgeted = budgeted;
      a->local = !remote;
      a->warm = warm;
      a->state = PENDING;
      a->fd = -1;
      a->tail = &a->batches;
      a->prev = last;
      if (last)
        last->next = a;
      else
        first = a;
      last = a;
      ah.pending++;
    }
  if (first)
    {
      last->next = ah.head;
      if (ah.head)
        ah.head->prev = last;
      ah.head = first;
      wake_idle (n, dir_cost (first));
    }
 done:
  pthread_mutex_unlock (&ah.lock);
}

/** Whether a warm tree is being read ahead now (the reader then shares
    no batch with dirplus-batch.c's helper: the CPUs are taken).  */
bool
dirplus_ahead_warm_busy (void)
{
  return (__atomic_load_n (&ah.warm, __ATOMIC_RELAXED)
          && (__atomic_load_n (&ah.pending, __ATOMIC_RELAXED)
              || __atomic_load_n (&ah.active, __ATOMIC_RELAXED)));
}

/** Let the waiting hints go on (LOCK held; ROOM: a directory was taken,
    which makes room for another): start the threads and wake the ones
    that the budget now pays for, so that no thread is woken for
    nothing (each wake-up is a system call or two).  */
static void
ahead_fund (bool room)
{
  if (ah.pending == 0)
    return;
  __atomic_add_fetch (&ah.kick, 1, __ATOMIC_RELEASE);
  struct ahead *a;
  for (a = ah.head; a && a->state != PENDING; a = a->next)
    ;
  if (!a)
    return;
  if (!a->budgeted)
    {
      if (room)
        pthread_cond_signal (&ah.work);
      return;
    }
  if (dirplus_budget_left () < dir_cost (a))
    return;
  if (ah.idle)
    pthread_cond_signal (&ah.work);
  else if (ah.nthreads < mode_threads (a) && ah.nthreads < (int) ah.pending
           && dirplus_budget_take_up_to (AHEAD_THREAD_COST, 1))
    dirplus_start_threads (ahead_main, &ah.nthreads, ah.nthreads + 1);
}

/** Take the directory NAME under PARENTFD if it was read ahead with MASK
    and FLAGS: set *FOUND, store its fd (or -1 and its open errno in
    *OPEN_ERRNO) in *FD, its fstat in *ST (or *ST_ERRNO), and return its
    batches.  Waits for a read in progress.  */
struct ahead_batch *
dirplus_ahead_take (int parentfd, const char *name, unsigned int mask,
                    unsigned int flags, int *fd, int *open_errno,
                    struct stat *st, int *st_errno, bool *cold,
                    bool *found)
{
  *found = false;
  if (__atomic_load_n (&ah.head, __ATOMIC_RELAXED) == NULL)
    return NULL;
  pthread_mutex_lock (&ah.lock);
  struct ahead *a;
  for (a = ah.head; a; a = a->next)
    if (!a->dropped && a->parentfd == parentfd && strcmp (a->name, name) == 0)
      break;
  struct ahead_batch *b = NULL;
  bool room = false;
  if (a)
    {
      if (a->state == PENDING)
        {
          unlink_ahead (a);
          ah.pending--;
          ahead_free (a);
          a = NULL;
        }
      else
        {
          /* A warm tree's directory in progress: read the next ones
             ahead meanwhile (the threads' share of the work stays what
             they can do beside this one), then spin a while before
             sleeping.  (A cold tree's threads, more than the CPUs, wait
             for the disk: spinning would take the CPU they need.)  */
          bool spun = false;
          while (a->state != DONE)
            {
              struct ahead *y = a->warm ? ahead_claim (false) : NULL;
              if (y)
                {
                  pthread_mutex_unlock (&ah.lock);
                  bool pooled;
                  long long took = read_ahead (y, &pooled);
                  pthread_mutex_lock (&ah.lock);
                  ahead_finish (y, took, pooled);
                  continue;
                }
              if (a->warm && !spun)
                {
                  spun = true;
                  pthread_mutex_unlock (&ah.lock);
                  dirplus_spin_while (&a->state, DONE, false,
                                      AHEAD_TAKE_SPIN_USEC);
                  pthread_mutex_lock (&ah.lock);
                  continue;
                }
              pthread_cond_wait (&ah.changed, &ah.lock);
            }
          unlink_ahead (a);
          ah.active--;
          ah.active_warm -= a->warm;
          /* Its batches are the reader's now: room for more.  */
          __atomic_sub_fetch (&ah.bytes, a->bytes, __ATOMIC_RELAXED);
          a->bytes = 0;
          room = true;
        }
    }
  ahead_fund (room);
  pthread_mutex_unlock (&ah.lock);
  if (!a)
    return NULL;
  if (a->mask != mask || a->flags != flags || a->incomplete)
    {
      ahead_free (a);
      return NULL;
    }
  *found = true;
  *fd = a->fd;
  *open_errno = a->open_errno;
  *st = a->st;
  *st_errno = a->st_errno;
  *cold = a->cold;
  b = a->batches;
  a->batches = NULL;
  a->fd = -1;
  ahead_free (a);
  return b;
}

/** Drop the hints made under directory fd FD, which is being closed:
    wait while a thread is opening relative to it.  */
void
dirplus_ahead_drop (int fd)
{
  if (__atomic_load_n (&ah.head, __ATOMIC_RELAXED) == NULL)
    return;
  pthread_mutex_lock (&ah.lock);
  for (;;)
    {
      bool opening = false;
      struct ahead *next;
      for (struct ahead *a = ah.head; a; a = next)
        {
          next = a->next;
          if (a->parentfd != fd || a->dropped)
            continue;
          if (a->state == PENDING)
            {
              unlink_ahead (a);
              ah.pending--;
              ahead_free (a);
            }
          else if (a->state == DONE)
            {
              unlink_ahead (a);
              ah.active--;
              ah.active_warm -= a->warm;
              ahead_free (a);
              pthread_cond_signal (&ah.work);
            }
          else
            {
              __atomic_store_n (&a->dropped, true, __ATOMIC_RELAXED);
              opening |= a->state == OPENING;
            }
        }
      if (!opening)
        break;
      pthread_cond_wait (&ah.changed, &ah.lock);
    }
  pthread_mutex_unlock (&ah.lock);
}

/** The next batch of a directory read ahead: pop it from D->ahead,
    store its entries in *ENTRIES (see dirplus_read).  */
ssize_t
dirplus_ahead_read (struct dirplus_dir *d, struct dirplus_entry **entries)
{
  free (d->ahead_cur);
  d->ahead_cur = NULL;
  *entries = NULL;
  struct ahead_batch *b = d->ahead;
  if (!b)
    {
      d->eof = true;
      return 0;
    }
  d->ahead = b->next;
  d->ahead_cur = b;
  if (b->n < 0)
    {
      errno = b->err;
      return -1;
    }
  if (b->n == 0)
    d->eof = true;
  else
    *entries = b->ents;
  return b->n;
}
