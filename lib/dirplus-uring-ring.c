/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dirplus-uring-ring.c -- the uring backend's ring: one io_uring for the
   whole process (ls is single-threaded), created and probed once; runs
   of prepared SQEs with their completions recorded; directory closes
   queued in the ring so that they cost no syscall of their own.

   Also whether the kernel runs the ring's statx inline
   (IORING_FEAT_STATX_INLINE, upstream/io_uring-statx/), for dirplus.c's
   auto.

   Layering (see the map in dirplus-impl.h): part of the uring backend
   (with dirplus-uring.c, through dirplus-uring.h); dirplus.c calls its
   probe, its inline check and closes.  Calls only dirplus-common.c and
   dirplus-kver.c.  */

#include <config.h>

#include "dirplus-uring.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

/* Ring size = the most operations in flight; tuned by measurement
   (LSPLUS_URING_BATCH overrides it, for benchmarks).  */
#define URING_BATCH_DEFAULT 256
/* io-wq's blocking workers at once on a network filesystem (the remote
   pool's default width).  */
#define URING_NET_WORKERS 64

static struct io_uring ring;
static int probe_state;		/* 0 not yet, 1 usable, -1 not usable */
static int probe_errno;
static unsigned int batch;	/* SQ entries */
static bool submit_all;		/* IORING_SETUP_SUBMIT_ALL accepted */
static bool have_getxattr;	/* IORING_OP_GETXATTR supported */
static bool have_proc;		/* /proc/self/fd usable for the paths */

/** Create the ring with the best flags this kernel takes.  Returns 0 or a
    negative errno.  */
static int
ring_create (unsigned int entries)
{
  static const unsigned int tries[] =
    {
      IORING_SETUP_SUBMIT_ALL | IORING_SETUP_COOP_TASKRUN
      | IORING_SETUP_SINGLE_ISSUER,
      IORING_SETUP_SUBMIT_ALL,
      0,
    };
  int r = -EINVAL;
  for (size_t i = 0; i < sizeof tries / sizeof tries[0]; i++)
    {
      r = io_uring_queue_init (entries, &ring, tries[i]);
      if (r != -EINVAL)
        {
          submit_all = tries[i] & IORING_SETUP_SUBMIT_ALL;
          break;
        }
    }
  return r;
}

/** Probe io_uring once: 0 if usable, -1 with errno (ENOSYS, EPERM when
    io_uring is disabled or filtered, ...).  */
int
dirplus_uring_probe (void)
{
  struct io_uring_probe *p = NULL;
  if (probe_state)
    goto done;
  probe_state = -1;

  /* LSPLUS_URING_BATCH: a decimal 8..4096; anything else makes this
     backend unavailable (EINVAL), as an unknown LSPLUS_BACKEND does.  */
  const char *env = getenv ("LSPLUS_URING_BATCH");
  batch = URING_BATCH_DEFAULT;
  if (env && *env)
    {
      char *end;
      errno = 0;
      long n = strtol (env, &end, 10);
      if (errno || *end || end == env || n < 8 || n > 4096)
        {
          probe_errno = EINVAL;
          goto done;
        }
      batch = n;
    }

  int r = ring_create (batch);
  if (r < 0)
    {
      probe_errno = -r;
      goto done;
    }
  if (ring.ring_fd <= 2)
    {
      /* With stdout closed the ring would be fd 1, and ls's write error
         would read EINVAL instead of EBADF.  */
      int fd = dirplus_fd_above_stdio (ring.ring_fd);
      if (fd < 0)
        {
          probe_errno = errno;
          ring.ring_fd = ring.enter_ring_fd = -1;
          goto fail_ring;
        }
      ring.ring_fd = ring.enter_ring_fd = fd;
    }

  p = io_uring_get_probe_ring (&ring);
  if (!p || !io_uring_opcode_supported (p, IORING_OP_STATX))
    {
      probe_errno = ENOSYS;
      goto fail_ring;
    }
  have_getxattr = io_uring_opcode_supported (p, IORING_OP_GETXATTR);
  io_uring_free_probe (p);
  p = NULL;

  /* One round trip: seccomp or a broken io_uring shows here.  */
  struct io_uring_sqe *sqe = io_uring_get_sqe (&ring);
  struct io_uring_cqe *cqe;
  io_uring_prep_nop (sqe);
  r = io_uring_submit_and_wait (&ring, 1);
  if (r >= 0)
    r = io_uring_wait_cqe (&ring, &cqe);
  if (r < 0)
    {
      probe_errno = -r;
      goto fail_ring;
    }
  r = cqe->res;
  io_uring_cqe_seen (&ring, cqe);
  if (r < 0)
    {
      probe_errno = -r;
      goto fail_ring;
    }

  have_proc = access ("/proc/self/fd", X_OK) == 0;
  probe_state = 1;
  goto done;

 fail_ring:
  if (p)
    io_uring_free_probe (p);
  io_uring_queue_exit (&ring);
 done:
  if (probe_state < 0)
    {
      errno = probe_errno;
      return -1;
    }
  return 0;
}

/* Closes sent through the ring whose completion is not reaped yet, and
   how many of them are not even submitted (their fds are still open: a
   ring close runs at submission).  A few are submitted together, so that
   they hold few fds (ls -R under a low RLIMIT_NOFILE counts on them being
   gone); the completions are reaped by the next ring run or close.  */
static unsigned int closes_inflight, closes_queued;
#define CLOSES_MAX_QUEUED 4

/* Set when the ring failed: everything goes the sync way from then on.  */
static bool ring_broken;

/** Submit the COUNT prepared SQEs (plus queued closes), wait for all their
    completions and record each result: statx failures in the entry, probe
    results in RES.  Returns 0, or -1 with errno if the ring failed.  */
int
dirplus_uring_run (struct dirplus_dir *d, unsigned int count,
                   struct probe_res *res)
{
  unsigned int want = count + closes_inflight, reaped = 0;
  int r;
  if (want == 0)
    return 0;
  dirplus_counters.batch_calls++;
  if (submit_all)
    {
      do
        r = io_uring_submit_and_wait (&ring, want);
      while (r == -EINTR);
    }
  else
    {
      /* Without SUBMIT_ALL the kernel may stop at a failing SQE: submit
         everything before waiting for all completions.  */
      do
        r = io_uring_submit (&ring);
      while ((r >= 0 && io_uring_sq_ready (&ring) > 0) || r == -EINTR);
      if (r >= 0)
        {
          struct io_uring_cqe *cqe;
          do
            r = io_uring_wait_cqe_nr (&ring, &cqe, want);
          while (r == -EINTR);
        }
    }
  if (r < 0)
    goto fail;
  closes_inflight = closes_queued = 0;

  while (reaped < want)
    {
      struct io_uring_cqe *cqe;
      r = io_uring_wait_cqe (&ring, &cqe);
      if (r == -EINTR)
        continue;
      if (r < 0)
        goto fail;
      unsigned int head, n = 0;
      io_uring_for_each_cqe (&ring, head, cqe)
        {
          uint64_t i = cqe->user_data >> 3;
          unsigned int kind = cqe->user_data & 7;
          if (kind == KIND_STATX)
            {
              if (cqe->res < 0)
                d->ents[i].stat_errno = -cqe->res;
            }
          else if (kind < 4)
            res[i].res[kind] = cqe->res;
          else if (kind == KIND_OPEN)
            res[i].linkfd = cqe->res;
          n++;
        }
      io_uring_cq_advance (&ring, n);
      reaped += n;
    }
  return 0;

 fail:
  ring_broken = true;
  errno = -r;
  return -1;
}

/** Get an SQE, running the ring first if the SQ is full (then *COUNT is
    reset).  Returns NULL with errno on a ring failure.  */
struct io_uring_sqe *
dirplus_uring_get_sqe (struct dirplus_dir *d, unsigned int *count,
                       struct probe_res *res)
{
  struct io_uring_sqe *sqe = io_uring_get_sqe (&ring);
  if (sqe)
    return sqe;
  if (dirplus_uring_run (d, *count, res) < 0)
    return NULL;
  *count = 0;
  return io_uring_get_sqe (&ring);
}

/** The free entries of the SQ.  */
unsigned int
dirplus_uring_space_left (void)
{
  return io_uring_sq_space_left (&ring);
}

/** Whether the ring failed.  */
bool
dirplus_uring_broken (void)
{
  return ring_broken;
}

/** Whether the ring can probe xattrs.  */
bool
dirplus_uring_can_getxattr (void)
{
  return have_getxattr && have_proc;
}

/* The feature of upstream/io_uring-statx/'s series: IORING_OP_STATX is
   tried inline (a cached lookup) and punted to io-wq only where it would
   block.  */
#ifndef IORING_FEAT_STATX_INLINE
# define IORING_FEAT_STATX_INLINE (1U << 18)
#endif

unsigned int dirplus_uring_fake_features;

/** Whether the kernel runs IORING_OP_STATX inline where it can.  Only a
    kernel that may have the series (the series is against 7.2:
    dirplus-kver.c), or a test that emulates it, has its ring created
    (dirplus_uring_probe) to look; elsewhere false without a system
    call.  */
bool
dirplus_uring_statx_inline (void)
{
  if (!dirplus_uring_fake_features && !dirplus_kernel_at_least (7, 2))
    return false;
  if (dirplus_uring_probe () < 0)
    return false;
  return ((ring.features | dirplus_uring_fake_features)
          & IORING_FEAT_STATX_INLINE) != 0;
}

/** Whether the benchmark knob LSPLUS_URING_STOCK=1 is set (read once):
    the ring then behaves as on a kernel without the two statx series
    (a stock 7.2): every statx and xattr SQE carries IOSQE_ASYNC, the
    io-wq hand-off that a stock kernel forces on these opcodes
    (REQ_F_FORCE_ASYNC, the same flag), and the statx SQEs do not ask
    the statx attributes, so the ACL and label go to xattr probes.  For
    bench/run-insn's "io_uring stock" row on the production-configuration
    kernel; not meant for use.  */
bool
dirplus_uring_stock (void)
{
  static int stock = -1;
  if (stock < 0)
    stock = dirplus_env_number ("LSPLUS_URING_STOCK", 0, 1, 0) == 1;
  return stock;
}

/** Let io-wq run up to URING_NET_WORKERS blocking operations at once
    (once): its default for STATX and GETXATTR, bounded work, is 4 per
    CPU, which kept only 4-5 NFS round trips in flight.  */
void
dirplus_uring_widen (void)
{
  static bool done;
  if (done || ring_broken)
    return;
  done = true;
  unsigned int counts[2] = { URING_NET_WORKERS, 0 }; /* 0: unbound as is */
  io_uring_register_iowq_max_workers (&ring, counts);
}

/** Reap the completions already posted (only closes can be pending
    between ring runs), without a syscall.  */
static void
reap_closes (void)
{
  struct io_uring_cqe *cqe;
  unsigned int head, n = 0;
  io_uring_for_each_cqe (&ring, head, cqe)
    n++;
  io_uring_cq_advance (&ring, n);
  closes_inflight -= n;
}

/** Submit the queued closes now (their fds are needed: EMFILE).  */
void
dirplus_uring_flush_closes (void)
{
  if (closes_queued && !ring_broken && io_uring_submit (&ring) >= 0)
    closes_queued = 0;
}

/** Close directory FD through the ring: queued now, submitted with the
    next ring run (or with a group of closes), so it costs no syscall of
    its own.  Returns 0 (a directory close does not fail), or what a plain
    close(2) returns when the ring cannot take it.  */
int
dirplus_uring_close (int fd)
{
  if (ring_broken)
    return close (fd);
  reap_closes ();
  struct io_uring_sqe *sqe = io_uring_get_sqe (&ring);
  if (!sqe)
    return close (fd);
  io_uring_prep_close (sqe, fd);
  io_uring_sqe_set_data64 (sqe, UD (0, KIND_CLOSE));
  closes_inflight++;
  if (++closes_queued >= CLOSES_MAX_QUEUED && io_uring_submit (&ring) >= 0)
    closes_queued = 0;
  return 0;
}
