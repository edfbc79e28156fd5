/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dirplus-uring.c -- the io_uring backend: getdents64 for the names, then
   one ring submission of IORING_OP_STATX for the whole batch (relative to
   the directory fd) and, when attribute bits are asked, a second one of
   IORING_OP_GETXATTR probes for the entries that need them.

   One ring serves the whole process (dirplus-uring-ring.c).
   IORING_OP_GETXATTR only takes a path and follows a final symlink, so
   the path is "/proc/self/fd/DIRFD/NAME" (io-wq workers are threads of
   this process: /proc/self and the fd table are ours) and an unfollowed
   symlink whose label is asked goes through the sync listxattr instead.
   Results stay as cqe->res in the entry until they are turned into the
   entry's errno fields.

   On a network filesystem (dirplus-fs.c) the ring makes GNU 9.1's
   probes, in GNU's order where it matters for round trips (a
   directory's default ACL only after its access ACL was found absent),
   with io-wq allowed as many blocking workers as the remote pool has
   threads: the round trips overlap behind one io_uring_enter per run.
   dirplus.c sends the network directories of the sync backend here
   under auto.  FUSE directories, and any read in a read-ahead thread
   (the ring has one issuer), go to dirplus-batch.c.

   On a local filesystem, where the statx attributes are in use
   (dirplus-statxattr.c: a kernel with upstream/statx-xattr-info/), the statx
   SQEs ask STATX_XATTR_INFO and no xattr probe goes with them: only an
   entry whose reply did not determine its ACL or label is probed, in
   the second run.  With upstream/io_uring-statx/ as well
   (IORING_FEAT_STATX_INLINE) the statx SQEs of a warm tree complete
   inline in io_uring_enter, no io-wq hand-off: dirplus.c's auto then
   takes this backend where neither getdentsplus call is there and the
   statx attributes are not.

   Layering (see the map in dirplus-impl.h): a backend, chosen by
   dirplus.c, which also calls its per-file stat; besides its ring
   (dirplus-uring-ring.c, through dirplus-uring.h) it calls only shared
   pieces: dirplus-getdents.c, dirplus-attr.c, dirplus-stat.c and
   dirplus-batch.c (what the ring cannot do, remote directories),
   dirplus-fs.c, dirplus-statxattr.c and dirplus-common.c.  */

#include <config.h>

#include "dirplus-uring.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* The device of the last entry stat'ed: where the next directory most
   likely is.  */
static dev_t last_dev;

/** The probes worth sending for entry E before its stat is known, from
    its d_type; the rest waits for the stat.  */
static unsigned int
predict_bits (const struct dirplus_entry *e, unsigned int want, bool follow,
              bool net)
{
  switch (e->d_type)
    {
    case DT_REG:
      return want & ~DIRPLUS_ATTR_ACL_DEFAULT;
    case DT_DIR:
      /* On a network filesystem GNU's order: the default ACL only after
         the access ACL was found absent (NFSv3 fetches both in one
         GETACL and caches them: asked at once, they are two).  */
      return want & ~DIRPLUS_ATTR_CAP & ~(net ? DIRPLUS_ATTR_ACL_DEFAULT : 0);
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
  if (linkfd >= 0 && dirplus_uring_space_left () < 5)
    {
      if (dirplus_uring_run (d, *count, res) < 0)
        return -1;
      *count = 0;
    }
  for (unsigned int kind = 0; kind < 4; kind++)
    if (bits & probes[kind].bit)
      {
        struct io_uring_sqe *sqe = dirplus_uring_get_sqe (d, count, res);
        if (!sqe)
          return -1;
        io_uring_prep_getxattr (sqe, probes[kind].xname, NULL, *path, 0);
        io_uring_sqe_set_data64 (sqe, UD (i, kind));
        if (linkfd >= 0)
          io_uring_sqe_set_flags (sqe, IOSQE_IO_HARDLINK);
        if (dirplus_uring_stock ())
          sqe->flags |= IOSQE_ASYNC;
        (*count)++;
        dirplus_counters.xattr_calls++;
      }
  if (linkfd >= 0)
    {
      struct io_uring_sqe *sqe = dirplus_uring_get_sqe (d, count, res);
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
        /* GNU's latch is "no ACLs here", both of them.  */
        dirplus_dev_mark_unsupported (dirplus_entry_dev (e),
                                      bit == DIRPLUS_ATTR_ACL_ACCESS
                                      ? DIRPLUS_ATTR_ACL : bit);
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
uring_fill (struct dirplus_dir *d, ssize_t n, bool net)
{
  bool follow = d->flags & DIRPLUS_FOLLOW;
  int atflags = AT_NO_AUTOMOUNT | (follow ? 0 : AT_SYMLINK_NOFOLLOW);
  unsigned int want = dirplus_wanted_attrs (d->flags);
  unsigned int mask = d->mask | (want ? STATX_TYPE : 0);
  bool ring_probes = want && dirplus_uring_can_getxattr ();
  /* Probes are pointless where the last directory's device said no.  */
  unsigned int predictable = want & ~dirplus_dev_unsupported (last_dev);
  /* A local directory's statx SQEs may answer the ACL and label bits
     themselves (dirplus-statxattr.c): then no probe is predicted, and
     only the entries whose reply did not say are probed after it.  */
  if (!net)
    mask = dirplus_statx_request (mask, d->flags, DIRPLUS_FS_LOCAL);
  if (mask & STATX_XATTR_INFO)
    predictable &= ~(DIRPLUS_ATTR_ACL | DIRPLUS_ATTR_LABEL);

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
      struct io_uring_sqe *sqe = dirplus_uring_get_sqe (d, &count, res);
      if (!sqe)
        return -1;
      io_uring_prep_statx (sqe, d->fd, e->name, atflags, mask, &e->stx);
      io_uring_sqe_set_data64 (sqe, UD (i, KIND_STATX));
      if (dirplus_uring_stock ())
        sqe->flags |= IOSQE_ASYNC;
      count++;
      unsigned int bits = (ring_probes
                           ? predict_bits (e, predictable, follow, net) : 0);
      if (bits && queue_probes (d, i, bits, -1, &path, &count, res) < 0)
        return -1;
      if (ring_probes && !follow && e->d_type == DT_LNK
          && (predictable & DIRPLUS_ATTR_LABEL))
        {
          /* The label of the link itself: open it O_PATH now, probe it
             through /proc/self/fd in the second run.  */
          sqe = dirplus_uring_get_sqe (d, &count, res);
          if (!sqe)
            return -1;
          io_uring_prep_openat (sqe, d->fd, e->name,
                                O_PATH | O_NOFOLLOW | O_CLOEXEC, 0);
          io_uring_sqe_set_data64 (sqe, UD (i, KIND_OPEN));
          count++;
        }
    }
  dirplus_counters.stat_calls += n;
  /* GNU makes a statx per entry (and probes); the ring at most one
     io_uring_enter per 8 operations (its smallest size), an entry taking
     up to three, and two more runs: the rest goes to the threads'
     budget (dirplus-pool.c), which reads directories ahead.  */
  if (8 <= n)
    dirplus_budget_add (n / 2 - 2);
  if (dirplus_uring_run (d, count, res) < 0)
    return -1;
  last_dev = dirplus_entry_dev (&d->ents[n - 1]);
  for (ssize_t i = 0; i < n; i++)
    if (!d->ents[i].stat_errno)
      dirplus_statx_reply (d->fd, d->ents[i].name, mask, &d->ents[i].stx);
  if (!want)
    return n;

  /* Apply the results (the statx replies' attributes first); send what
     the stat showed is still missing.  */
  bool again = false;
  count = 0;
  for (ssize_t i = 0; i < n; i++)
    {
      struct dirplus_entry *e = &d->ents[i];
      res[i].bits = dirplus_attrs_needed (e, d->flags);
      res[i].bits = dirplus_statx_attrs_take (e, res[i].bits);
      unsigned int missing = apply_probes (e, res[i].bits, &res[i]);
      /* GNU asks for no default ACL where the access ACL is there, nor
         for what its latch says is unsupported.  */
      if (e->attr & DIRPLUS_ATTR_ACL_ACCESS)
        missing &= ~DIRPLUS_ATTR_ACL_DEFAULT;
      if (missing)
        missing &= ~dirplus_dev_unsupported (dirplus_entry_dev (e));
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
      if (dirplus_uring_run (d, count, res) < 0)
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
  if (d->fs_kind < 0 && !(d->flags & DIRPLUS_NO_STAT))
    {
      /* Not told by ls (-R's cycle check): one fstat of the directory,
         whose attributes its open has just refreshed.  */
      struct stat st;
      d->fs_kind = (fstat (d->fd, &st) == 0 ? (int) dirplus_fs_kind (st.st_dev)
                    : DIRPLUS_FS_LOCAL);
    }
  /* A network filesystem, in the ring's own thread (not a read-ahead
     one): GNU's probes through the ring, whose io-wq workers overlap
     the round trips behind one io_uring_enter per run (the remote pool
     would need threads, and their calls, which the probes GNU makes
     too save nothing to pay for: dirplus-pool.c).  io-wq is widened
     first: by default it kept only 4-5 NFS round trips in flight (at
     most 4 per CPU).  The probes' paths (/proc/self/fd/DIRFD/NAME) walk
     one component on the filesystem, as the statx does; GNU walks the
     whole path for each of its probes.  A FUSE directory stays with
     the pool: its one listxattr has no io_uring opcode.  */
  bool net = (d->fs_kind == DIRPLUS_FS_NET && !d->no_share
              && !(d->flags & DIRPLUS_NO_STAT)
              && dirplus_uring_can_getxattr ());
  if (dirplus_uring_broken () || (DIRPLUS_FS_LOCAL < d->fs_kind && !net))
    return dirplus_stat_batch (d, dirplus_getdents_batch (d));
  if (net)
    dirplus_uring_widen ();
  ssize_t n = dirplus_getdents_batch (d);
  if (n <= 0 || (d->flags & DIRPLUS_NO_STAT))
    {
      for (ssize_t i = 0; i < n; i++)
        dirplus_attrs_needed (&d->ents[i], d->flags);
      return n;
    }
  return uring_fill (d, n, net);
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
  if (dirplus_uring_broken ())
    {
      errno = EIO;
      return -1;
    }
  e->d_type = DT_UNKNOWN;
  ssize_t r = uring_fill (&d, 1, false);
  int err = errno;
  free (d.scratch);
  errno = err;
  return r < 0 ? -1 : 0;
}

/** Whether uring_read of D in the ring's own thread costs a few calls
    per batch where a read-ahead thread would make the per-entry calls
    (dirplus_stat_batch): a network directory's stats and GNU's probes
    go through the ring there (FUSE and local ones, and ls -R without
    stats, cost the same in any thread).  */
static bool
uring_batched (const struct dirplus_dir *d)
{
  return (d->fs_kind == DIRPLUS_FS_NET && !(d->flags & DIRPLUS_NO_STAT)
          && dirplus_uring_can_getxattr () && !dirplus_uring_broken ());
}

const struct dirplus_ops dirplus_uring_ops = { .read = uring_read,
                                               .batched = uring_batched };
