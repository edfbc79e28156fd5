/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dirplus-uring.c -- the io_uring backend: getdents64 for the names, then
   one ring submission of IORING_OP_STATX for the whole batch (relative to
   the directory fd) and, when attribute bits are asked, a second one of
   IORING_OP_GETXATTR probes for the entries that need them.

   One ring serves the whole process (ls is single-threaded); its opcodes
   are probed once.  IORING_OP_GETXATTR only takes a path and follows a
   final symlink, so the path is "/proc/self/fd/DIRFD/NAME" (io-wq workers
   are threads of this process: /proc/self and the fd table are ours) and
   an unfollowed symlink whose label is asked goes through the sync
   listxattr instead.  Results stay as cqe->res in the entry until they are
   turned into the entry's errno fields.

   Layering (see the map in dirplus-impl.h): a backend, chosen by
   dirplus.c, which also calls its probe, per-file stat and closes; it
   calls only shared pieces: dirplus-getdents.c, dirplus-attr.c,
   dirplus-stat.c and dirplus-batch.c (what the ring cannot do, remote
   directories), dirplus-fs.c and dirplus-common.c.  */

#include <config.h>

#include "dirplus-impl.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <liburing.h>

/* Ring size = the most operations in flight; tuned by measurement
   (LSPLUS_URING_BATCH overrides it, for benchmarks).  */
#define URING_BATCH_DEFAULT 256

static struct io_uring ring;
static int probe_state;		/* 0 not yet, 1 usable, -1 not usable */
static int probe_errno;
static unsigned int batch;	/* SQ entries */
static bool submit_all;		/* IORING_SETUP_SUBMIT_ALL accepted */
static bool have_getxattr;	/* IORING_OP_GETXATTR supported */
static bool have_proc;		/* /proc/self/fd usable for the paths */

/* The xattr probes, by kind (user_data's low 2 bits).  */
static const struct
{
  const char *xname;
  unsigned int bit;
  bool need_size;		/* present only with a nonempty value */
} probes[] =
{
  { "system.posix_acl_access", DIRPLUS_ATTR_ACL_ACCESS, true },
  { "system.posix_acl_default", DIRPLUS_ATTR_ACL_DEFAULT, true },
  /* An empty label is no label (GNU, through libselinux).  */
  { "security.selinux", DIRPLUS_ATTR_LABEL, true },
  { "security.capability", DIRPLUS_ATTR_CAP, false },
};

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

/* user_data: entry index << 3 | kind; kinds 0-3 index PROBES.  */
enum { KIND_STATX = 4, KIND_CLOSE = 5, KIND_OPEN = 6 };
#define UD(i, kind) ((uint64_t) (i) << 3 | (kind))

/* A probe result not asked (yet).  */
#define NOT_ASKED INT32_MIN

/* Closes sent through the ring whose completion is not reaped yet, and
   how many of them are not even submitted (their fds are still open: a
   ring close runs at submission).  A few are submitted together, so that
   they hold few fds (ls -R under a low RLIMIT_NOFILE counts on them being
   gone); the completions are reaped by the next ring run or close.  */
static unsigned int closes_inflight, closes_queued;
#define CLOSES_MAX_QUEUED 4

/* Set when the ring failed: everything goes the sync way from then on.  */
static bool ring_broken;

/* The device of the last entry stat'ed: where the next directory most
   likely is.  */
static dev_t last_dev;

/* Per-batch memory in D->scratch: the probe results (cqe->res, kept
   until the batch is done), then the probe paths.  */
struct probe_res
{
  int32_t res[4];
  int32_t linkfd;		/* an O_PATH fd of a symlink, or NOT_ASKED */
  unsigned int bits;		/* the bits the stat says are needed */
};

/** Submit the COUNT prepared SQEs (plus queued closes), wait for all their
    completions and record each result: statx failures in the entry, probe
    results in RES.  Returns 0, or -1 with errno if the ring failed.  */
static int
ring_run (struct dirplus_dir *d, unsigned int count, struct probe_res *res)
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
static struct io_uring_sqe *
get_sqe (struct dirplus_dir *d, unsigned int *count, struct probe_res *res)
{
  struct io_uring_sqe *sqe = io_uring_get_sqe (&ring);
  if (sqe)
    return sqe;
  if (ring_run (d, *count, res) < 0)
    return NULL;
  *count = 0;
  return io_uring_get_sqe (&ring);
}

/** The probes worth sending for entry E before its stat is known, from
    its d_type; the rest waits for the stat.  */
static unsigned int
predict_bits (const struct dirplus_entry *e, unsigned int want, bool follow)
{
  switch (e->d_type)
    {
    case DT_REG:
      return want & ~DIRPLUS_ATTR_ACL_DEFAULT;
    case DT_DIR:
      return want & ~DIRPLUS_ATTR_CAP;
    case DT_LNK:
    case DT_UNKNOWN:
      return 0;
    default:
      return want & (DIRPLUS_ATTR_ACL_ACCESS | DIRPLUS_ATTR_LABEL);
    }
}

/** Queue the xattr probes BITS of entry I of D (path built at *PATH).
    With LINKFD >= 0 (an O_PATH fd of the symlink itself), the path is
    "/proc/self/fd/LINKFD": following that magic link ends on the symlink,
    not its target, which is lgetxattr's answer; LINKFD is closed after
    the probes (hard links: even when a probe fails).  */
static int
queue_probes (struct dirplus_dir *d, size_t i, unsigned int bits, int linkfd,
              char **path, unsigned int *count, struct probe_res *res)
{
  const char *name = d->ents[i].name;
  int len = (linkfd >= 0 ? sprintf (*path, "/proc/self/fd/%d", linkfd)
             : d->fd == AT_FDCWD || name[0] == '/'
             ? sprintf (*path, "%s", name)
             : sprintf (*path, "/proc/self/fd/%d/%s", d->fd, name));
  /* A chain must not be split by a flush.  */
  if (linkfd >= 0 && io_uring_sq_space_left (&ring) < 5)
    {
      if (ring_run (d, *count, res) < 0)
        return -1;
      *count = 0;
    }
  for (unsigned int kind = 0; kind < 4; kind++)
    if (bits & probes[kind].bit)
      {
        struct io_uring_sqe *sqe = get_sqe (d, count, res);
        if (!sqe)
          return -1;
        io_uring_prep_getxattr (sqe, probes[kind].xname, NULL, *path, 0);
        io_uring_sqe_set_data64 (sqe, UD (i, kind));
        if (linkfd >= 0)
          io_uring_sqe_set_flags (sqe, IOSQE_IO_HARDLINK);
        (*count)++;
        dirplus_counters.xattr_calls++;
      }
  if (linkfd >= 0)
    {
      struct io_uring_sqe *sqe = get_sqe (d, count, res);
      if (!sqe)
        return -1;
      io_uring_prep_close (sqe, linkfd);
      io_uring_sqe_set_data64 (sqe, UD (i, KIND_CLOSE));
      (*count)++;
    }
  *path += len + 1;
  return 0;
}

/** Turn the probe results R of entry E into its attribute bits, for BITS
    (those the stat says are needed).  Returns the bits not probed yet.  */
static unsigned int
apply_probes (struct dirplus_entry *e, unsigned int bits,
              const struct probe_res *r)
{
  unsigned int missing = 0;
  for (unsigned int kind = 0; kind < 4; kind++)
    {
      unsigned int bit = probes[kind].bit;
      int res = r->res[kind];
      if (!(bits & bit))
        continue;
      if (res == NOT_ASKED)
        missing |= bit;
      else if (res >= 0)
        {
          if (res > 0 || !probes[kind].need_size)
            e->attr |= bit;
        }
      else if (dirplus_errno_unsupported (-res))
        dirplus_dev_mark_unsupported (dirplus_entry_dev (e), bit);
      else if (res != -ENODATA)
        {
          e->attr_unknown |= bit;
          e->attr_errno = -res;
        }
    }
  return missing;
}

/** Stat the N entries of D and fill their attribute bits: one ring run
    for the statx of every entry and the xattr probes its d_type predicts;
    a second run only for probes the stat made necessary (DT_UNKNOWN, -L
    links).  Returns N, or -1 with errno if the ring failed.  */
static ssize_t
uring_fill (struct dirplus_dir *d, ssize_t n)
{
  bool follow = d->flags & DIRPLUS_FOLLOW;
  int atflags = AT_NO_AUTOMOUNT | (follow ? 0 : AT_SYMLINK_NOFOLLOW);
  unsigned int want = dirplus_wanted_attrs (d->flags);
  unsigned int mask = d->mask | (want ? STATX_TYPE : 0);
  bool ring_probes = want && have_getxattr && have_proc;
  /* Probes are pointless where the last directory's device said no.  */
  unsigned int predictable = want & ~dirplus_dev_unsupported (last_dev);

  /* Room for two paths per entry: the predicted probes and the ones the
     stat adds (a type that changed since getdents64).  */
  size_t need = n * sizeof (struct probe_res);
  for (ssize_t i = 0; i < n; i++)
    need += 2 * (d->ents[i].namelen + 32);
  if (dirplus_scratch_reserve (d, need) < 0)
    return -1;
  struct probe_res *res = (struct probe_res *) d->scratch;
  char *path = d->scratch + n * sizeof *res;

  unsigned int count = 0;
  for (ssize_t i = 0; i < n; i++)
    {
      struct dirplus_entry *e = &d->ents[i];
      for (int k = 0; k < 4; k++)
        res[i].res[k] = NOT_ASKED;
      res[i].linkfd = NOT_ASKED;
      struct io_uring_sqe *sqe = get_sqe (d, &count, res);
      if (!sqe)
        return -1;
      io_uring_prep_statx (sqe, d->fd, e->name, atflags, mask, &e->stx);
      io_uring_sqe_set_data64 (sqe, UD (i, KIND_STATX));
      count++;
      unsigned int bits = ring_probes ? predict_bits (e, predictable, follow)
                                      : 0;
      if (bits && queue_probes (d, i, bits, -1, &path, &count, res) < 0)
        return -1;
      if (ring_probes && !follow && e->d_type == DT_LNK
          && (predictable & DIRPLUS_ATTR_LABEL))
        {
          /* The label of the link itself: open it O_PATH now, probe it
             through /proc/self/fd in the second run.  */
          sqe = get_sqe (d, &count, res);
          if (!sqe)
            return -1;
          io_uring_prep_openat (sqe, d->fd, e->name,
                                O_PATH | O_NOFOLLOW | O_CLOEXEC, 0);
          io_uring_sqe_set_data64 (sqe, UD (i, KIND_OPEN));
          count++;
        }
    }
  dirplus_counters.stat_calls += n;
  if (ring_run (d, count, res) < 0)
    return -1;
  last_dev = dirplus_entry_dev (&d->ents[n - 1]);
  if (!want)
    return n;

  /* Apply the results; send what the stat showed is still missing.  */
  bool again = false;
  count = 0;
  for (ssize_t i = 0; i < n; i++)
    {
      struct dirplus_entry *e = &d->ents[i];
      res[i].bits = dirplus_attrs_needed (e, d->flags);
      unsigned int missing = apply_probes (e, res[i].bits, &res[i]);
      int linkfd = res[i].linkfd;
      bool link = S_ISLNK (e->stx.stx_mode) && !follow;
      bool use_fd = link && linkfd >= 0 && missing && ring_probes;
      if (linkfd >= 0 && !use_fd)
        /* Opened for nothing (the entry changed, or its stat failed).  */
        close (linkfd);
      if (!missing)
        continue;
      if (ring_probes && (!link || use_fd))
        {
          if (queue_probes (d, i, missing, use_fd ? linkfd : -1, &path,
                            &count, res) < 0)
            return -1;
          again = true;
        }
      else
        /* The ring cannot ask this one: one listxattr.  */
        dirplus_entry_attrs (d->fd, e, missing, follow);
    }
  if (again)
    {
      if (ring_run (d, count, res) < 0)
        return -1;
      /* Applying the first results again changes nothing.  */
      for (ssize_t i = 0; i < n; i++)
        apply_probes (&d->ents[i], res[i].bits, &res[i]);
    }
  return n;
}

/** Read the next batch of D: getdents64, then the ring.  */
static ssize_t
uring_read (struct dirplus_dir *d)
{
  /* On a remote filesystem the ring's io-wq workers keep only a few
     round trips in flight (4-5 measured on NFS, at most 4 per CPU), and
     its xattr probes are path walks that GNU does not make: the remote
     pool (dirplus-batch.c, as the sync backend) overlaps more with
     exactly GNU's calls.  */
  if (d->fs_kind < 0 && !(d->flags & DIRPLUS_NO_STAT))
    {
      /* Not told by ls (-R's cycle check): one fstat of the directory,
         whose attributes its open has just refreshed.  */
      struct stat st;
      d->fs_kind = (fstat (d->fd, &st) == 0 ? (int) dirplus_fs_kind (st.st_dev)
                    : DIRPLUS_FS_LOCAL);
    }
  if (ring_broken || DIRPLUS_FS_LOCAL < d->fs_kind)
    return dirplus_stat_batch (d, dirplus_getdents_batch (d));
  ssize_t n = dirplus_getdents_batch (d);
  if (n <= 0 || (d->flags & DIRPLUS_NO_STAT))
    {
      for (ssize_t i = 0; i < n; i++)
        dirplus_attrs_needed (&d->ents[i], d->flags);
      return n;
    }
  return uring_fill (d, n);
}

/** Stat entry E (its name set) relative to DIRFD through the ring, like
    dirplus_stat_entry.  Returns 0, or -1 with errno if the ring failed.  */
int
dirplus_uring_stat (int dirfd, struct dirplus_entry *e, unsigned int mask,
                    unsigned int flags)
{
  struct dirplus_dir d =
    {
      .fd = dirfd, .mask = mask, .flags = flags, .backend = DIRPLUS_URING,
      .ents = e, .nents = 1, .cap = 1,
    };
  if (ring_broken)
    {
      errno = EIO;
      return -1;
    }
  e->d_type = DT_UNKNOWN;
  ssize_t r = uring_fill (&d, 1);
  int err = errno;
  free (d.scratch);
  errno = err;
  return r < 0 ? -1 : 0;
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

const struct dirplus_ops dirplus_uring_ops = { uring_read };
