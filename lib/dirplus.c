/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dirplus.c -- the top layer: the public API of dirplus.h and the choice
   of the backend.  Nothing below calls into this file: the backends and
   the shared pieces are handed what they need (a directory's backend
   operations travel in struct dirplus_dir).

   See dirplus.h for the API and dirplus-impl.h for the map of the files
   and their layers.  */

#include <config.h>

#include "dirplus-impl.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The backend chosen by dirplus_setup: -1 before, or on failure (then
   SETUP_ERRNO says why).  */
static bool setup_done;
static int setup_backend = -1;
static bool setup_auto;		/* auto chose it (not LSPLUS_BACKEND) */
static int setup_errno;
/* The kind of filesystem of the directory last told its device
   (dirplus_set_dev): where the next directory opened most likely is
   (-1: none yet).  */
static int last_fs_kind = -1;

static const char *const backend_names[] =
{
  [DIRPLUS_AUTO] = "auto",
  [DIRPLUS_GETDENTSPLUS] = "getdentsplus",
  [DIRPLUS_URING] = "uring",
  [DIRPLUS_SYNC] = "sync",
  [DIRPLUS_INTREE] = "intree",
  [DIRPLUS_STATX] = "statx",
};

/** The name of backend B.  */
const char *
dirplus_backend_name (enum dirplus_backend b)
{
  if ((unsigned) b < sizeof backend_names / sizeof backend_names[0])
    return backend_names[b];
  return "?";
}

/** Parse a backend name; -1 if unknown.  */
int
dirplus_backend_parse (const char *name)
{
  for (size_t i = 0; i < sizeof backend_names / sizeof backend_names[0]; i++)
    if (strcmp (name, backend_names[i]) == 0)
      return i;
  return -1;
}

/** The operations of backend B.  */
static const struct dirplus_ops *
backend_ops (enum dirplus_backend b)
{
  switch (b)
    {
    case DIRPLUS_INTREE:
      return &dirplus_sys_ops;
    case DIRPLUS_GETDENTSPLUS:
      return &dirplus_gdp_ops;
    case DIRPLUS_STATX:
      return &dirplus_sync_ops; /* with the attributes asked */
#if USE_URING
    case DIRPLUS_URING:
      return &dirplus_uring_ops;
#endif
    default:
      return &dirplus_sync_ops;
    }
}

/** Whether backend B works here: 0, or -1 with errno.  */
static int
backend_probe (enum dirplus_backend b)
{
  switch (b)
    {
    case DIRPLUS_INTREE:
      return dirplus_sys_probe ();
    case DIRPLUS_GETDENTSPLUS:
      return dirplus_gdp_probe ();
    case DIRPLUS_URING:
#if USE_URING
      return dirplus_uring_probe ();
#else
      errno = ENOSYS;
      return -1;
#endif
    case DIRPLUS_STATX:
      return dirplus_statx_attrs_probe ();
    case DIRPLUS_SYNC:
      return 0;
    default:
      errno = EINVAL;
      return -1;
    }
}

/** Choose the backend once (see dirplus.h).  */
int
dirplus_setup (enum dirplus_backend want)
{
  if (setup_done)
    goto done;
  setup_done = true;

  if (want == DIRPLUS_AUTO)
    {
      const char *env = getenv ("LSPLUS_BACKEND");
      if (env && *env)
        {
          int b = dirplus_backend_parse (env);
          if (b < 0)
            {
              setup_errno = EINVAL;
              goto done;
            }
          want = b;
        }
    }

  if (want == DIRPLUS_AUTO)
    {
      setup_auto = true;
      /* The kernel's own call, then the module's (its syscall, else its
         ioctl: dirplus-gdp.c), then one statx per file where the
         kernel's statx answers the ACL and label bits, then io_uring
         where its statx runs inline (no io-wq hand-off per file on a
         warm tree), then sync.  The last two are looked for only on a
         kernel that may have their series (dirplus-kver.c): on older
         ones auto costs no probe, and io_uring, whose statx is always
         punted to io-wq there, loses to sync on a warm cache (README,
         "Backends"; network directories still go to it:
         dirplus_set_dev).  */
      if (backend_probe (DIRPLUS_INTREE) == 0)
        setup_backend = DIRPLUS_INTREE;
      else if (backend_probe (DIRPLUS_GETDENTSPLUS) == 0)
        setup_backend = DIRPLUS_GETDENTSPLUS;
      else if (backend_probe (DIRPLUS_STATX) == 0)
        setup_backend = DIRPLUS_STATX;
#if USE_URING
      else if (dirplus_uring_statx_inline ())
        setup_backend = DIRPLUS_URING;
#endif
      else
        setup_backend = DIRPLUS_SYNC;
    }
  else if (backend_probe (want) == 0)
    setup_backend = want;
  else
    setup_errno = errno;
  /* The statx attributes: asked by the backend named after them, and
     by the ring's statx SQEs where the kernel has them (no xattr SQE
     for what they answer); the sync backend stays the portable floor
     (statx + listxattr).  */
  bool ring_attrs = false;
#if USE_URING
  /* Not under LSPLUS_URING_STOCK (a benchmark knob: the ring of a
     kernel without the series).  */
  ring_attrs = (setup_backend == DIRPLUS_URING && !dirplus_uring_stock ()
                && backend_probe (DIRPLUS_STATX) == 0);
#endif
  dirplus_statx_attrs_use (setup_backend == DIRPLUS_STATX || ring_attrs);

 done:
  if (setup_backend < 0)
    errno = setup_errno;
  return setup_backend;
}

/** The first invalid environment variable of the library, or NULL.  */
const char *
dirplus_env_invalid (void)
{
  if (!dirplus_fs_env_valid ())
    return "LSPLUS_REMOTE";
  if (!dirplus_pool_env_valid ())
    return "LSPLUS_REMOTE_THREADS";
  if (!dirplus_ahead_env_valid ())
    return "LSPLUS_AHEAD";
  if (!dirplus_ahead_cold_env_valid ())
    return "LSPLUS_COLD_THREADS";
  if (!dirplus_getdents_env_valid ())
    return "LSPLUS_COLD_USEC";
  return NULL;
}

/** Copy the global counters to *S.  */
void
dirplus_get_stats (struct dirplus_stats *s)
{
  *s = dirplus_counters;
}

/** The open(2) flags of a directory opened with dirplus FLAGS.  */
static int
open_flags (unsigned int flags)
{
  int oflags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOCTTY;
  if (!(flags & (DIRPLUS_FOLLOW | DIRPLUS_OPEN_FOLLOW)))
    oflags |= O_NOFOLLOW;
  return oflags;
}

/** Open directory NAME relative to PARENTFD (see dirplus.h).  */
struct dirplus_dir *
dirplus_open (int parentfd, const char *name, unsigned int statx_mask,
              unsigned int flags)
{
  int oflags = open_flags (flags);
  if (dirplus_setup (DIRPLUS_AUTO) < 0)
    return NULL;

  /* Read ahead already (a remote filesystem under ls -R)?  */
  bool found, cold;
  int fd, open_errno, st_errno;
  struct stat st;
  struct ahead_batch *b = dirplus_ahead_take (parentfd, name, statx_mask,
                                              flags, &fd, &open_errno,
                                              &st, &st_errno, &cold,
                                              &found);
  if (found)
    {
      if (fd < 0)
        {
          dirplus_ahead_free_batches (b);
          errno = open_errno;
          return NULL;
        }
      struct dirplus_dir *d = dirplus_fdopen (fd, statx_mask, flags);
      if (!d)
        {
          dirplus_ahead_free_batches (b);
          return NULL;
        }
      d->read_ahead = true;
      d->ahead = b;
      d->have_st = true;
      d->st = st;
      d->st_errno = st_errno;
      d->timed = true;
      d->cold = cold;
      return d;
    }

  /* Opened ahead (the getdentsplus backends under ls -R)?  */
  if (dirplus_openahead_take (parentfd, name, oflags, &fd, &open_errno))
    {
      if (fd < 0)
        {
          errno = open_errno;
          return NULL;
        }
      return dirplus_fdopen (fd, statx_mask, flags);
    }

  cold = false;
  bool timed = dirplus_cold_timed (&cold);
  /* The cold check's four clock readings (system calls in a QEMU TCG
     guest) are worth it on a local disk; on a remote filesystem they
     only tell whether reading ahead pays, and are paid from the threads'
     budget there (issue 21: over NFS, where GNU's probes are made per
     entry as GNU makes them, 68 readings put ls -lR of 2,070 entries
     13 calls over GNU's).  */
  if (timed && DIRPLUS_FS_LOCAL < last_fs_kind && !dirplus_budget_take (4))
    timed = false;
  long long t0 = timed ? dirplus_usec_now () : 0;
  fd = openat (parentfd, name, oflags);
  long long open_usec = timed ? dirplus_usec_now () - t0 : 0;
  if (fd < 0 && (errno == EMFILE || errno == ENFILE))
    {
      /* Closes still deferred hold fds (queued in the ring, or waiting
         for a batch): free them, retry.  */
#if USE_URING
      if (setup_backend == DIRPLUS_URING)
        dirplus_uring_flush_closes ();
#endif
      dirplus_flush_closes ();
      fd = openat (parentfd, name, oflags);
    }
  if (fd < 0)
    return NULL;
  struct dirplus_dir *d = dirplus_fdopen (fd, statx_mask, flags);
  if (d && timed)
    d->open_usec = open_usec < 1 ? 1 : open_usec < 1000000 ? open_usec
                   : 1000000;
  else if (d)
    {
      d->timed = true;
      d->cold = cold;
    }
  return d;
}

/** Wrap the open directory FD (see dirplus.h).  */
struct dirplus_dir *
dirplus_fdopen (int fd, unsigned int statx_mask, unsigned int flags)
{
  struct dirplus_dir *d = NULL;
  int backend = dirplus_setup (DIRPLUS_AUTO);
  if (backend < 0)
    goto fail;
  d = calloc (1, sizeof *d);
  if (!d)
    goto fail;
  d->fd = fd;
  d->mask = statx_mask;
  d->flags = flags;
  d->backend = backend;
  d->ops = backend_ops (backend);
  d->fs_kind = -1;
  /* Where a directory costs only its open, one call and its close, the
     close is worth batching (dirplus-close.c).  */
  d->close_later = (backend == DIRPLUS_GETDENTSPLUS
                    || backend == DIRPLUS_INTREE);
  d->bufsize = DIRPLUS_BUFSIZE;
  d->buf = malloc (d->bufsize);
  if (!d->buf)
    goto fail;
  __atomic_fetch_add (&dirplus_counters.dirs, 1, __ATOMIC_RELAXED);
  return d;

 fail:
  {
    int err = errno;
    if (d)
      free (d->buf);
    free (d);
    close (fd);
    errno = err;
    return NULL;
  }
}

/** fstat of D's directory (see dirplus.h).  */
int
dirplus_fstat (struct dirplus_dir *d, struct stat *st)
{
  if (d->have_st)
    {
      d->have_st = false;
      if (d->st_errno)
        {
          errno = d->st_errno;
          return -1;
        }
      *st = d->st;
      return 0;
    }
  /* A backend that returns the directory's stat with its first batch
     spares the fstat: read that batch now, dirplus_read returns it.  */
  if (!d->started && !d->read_ahead && d->ops->self && d->ops->self (d))
    {
      d->want_self = true;
      d->started = d->primed = true;
      d->primed_n = d->ops->read (d);
      d->primed_errno = errno;
      d->want_self = false;
      if (d->have_st)
        return dirplus_fstat (d, st);
    }
  return fstat (d->fd, st);
}

/** Tell the library the device of D (see dirplus.h).  Under auto, a
    directory of a network filesystem is read through the uring backend
    when io_uring works: its io-wq workers overlap GNU's per-file probes
    (NFSv3's GETACL round trips) behind one io_uring_enter per run,
    where the remote pool's threads would cost calls that nothing saved
    pays for there (dirplus-pool.c).  So is it under auto with the
    kernel module or the in-tree call, whose records would leave GNU's
    probes to be made one after another, one call and one round trip
    each (NFSv3's ACLs; not where the device has them latched off, as
    NFSv4's are after its first entry): the ring makes them for a few
    calls per batch, overlapped (issue 21).  */
void
dirplus_set_dev (struct dirplus_dir *d, dev_t dev)
{
  d->fs_kind = dirplus_fs_kind (dev);
  d->dev = dev;
  d->have_dev = true;
  last_fs_kind = d->fs_kind;
#if USE_URING
  bool probes = (!(d->flags & DIRPLUS_NO_STAT)
                 && (dirplus_wanted_attrs (d->flags)
                     & ~dirplus_dev_unsupported (dev)));
  if (d->fs_kind == DIRPLUS_FS_NET && setup_auto
      && (d->ops == &dirplus_sync_ops
          || ((d->ops == &dirplus_gdp_ops || d->ops == &dirplus_sys_ops)
              && probes && !d->started))
      && dirplus_uring_probe () == 0)
    d->ops = &dirplus_uring_ops;
#endif
}

/** The file descriptor of D.  */
int
dirplus_fd (const struct dirplus_dir *d)
{
  return d->fd;
}

/** Install an entry filter on D.  */
void
dirplus_set_filter (struct dirplus_dir *d, dirplus_filter_fn filter,
                    void *arg)
{
  d->filter = filter;
  d->filter_arg = arg;
}

/** Read the next batch of entries of D.  */
ssize_t
dirplus_read (struct dirplus_dir *d, struct dirplus_entry **entries)
{
  ssize_t n;
  d->started = true;
  if (d->primed)
    {
      /* Read by dirplus_fstat already.  */
      d->primed = false;
      n = d->primed_n;
      errno = d->primed_errno;
      *entries = d->ents;
    }
  else if (d->eof)
    n = 0;
  else if (d->read_ahead)
    n = dirplus_ahead_read (d, entries);
  else
    {
      n = d->ops->read (d);
      *entries = d->ents;
    }
  if (n == 0 && d->eof)
    {
      /* Done: only the fd stays (ls keeps it to open subdirectories).  */
      dirplus_ahead_free_batches (d->ahead);
      free (d->ahead_cur);
      d->ahead = d->ahead_cur = NULL;
      free (d->buf);
      free (d->ents);
      free (d->scratch);
      d->buf = d->scratch = NULL;
      d->ents = *entries = NULL;
      d->bufsize = d->scratch_size = d->cap = 0;
    }
  return n;
}

/** Close D and free it.  */
int
dirplus_close (struct dirplus_dir *d)
{
  if (!d)
    return 0;
  /* Directories read ahead under this one are not wanted any more (and
     its fd number may soon name another directory).  */
  dirplus_ahead_drop (d->fd);
  dirplus_openahead_drop (d->fd);
  dirplus_ahead_free_batches (d->ahead);
  free (d->ahead_cur);
#if USE_URING
  int r = (d->backend == DIRPLUS_URING ? dirplus_uring_close (d->fd)
           : d->close_later ? dirplus_close_later (d->fd) : close (d->fd));
#else
  int r = d->close_later ? dirplus_close_later (d->fd) : close (d->fd);
#endif
  int err = errno;
  free (d->buf);
  free (d->ents);
  free (d->scratch);
  free (d);
  errno = err;
  return r;
}

/** Stat one file (see dirplus.h).  */
int
dirplus_stat (int dirfd, const char *name, unsigned int statx_mask,
              unsigned int flags, struct dirplus_entry *e)
{
  memset (e, 0, sizeof *e);
  e->name = name;
  e->namelen = strlen (name);
  flags &= ~DIRPLUS_NO_STAT;
#if USE_URING
  /* Through the ring when it is in use (the sync way if it fails): the
     statx first, then on a local filesystem the ring again with the
     attribute probes, on a remote one the sync way (the ring would probe
     a directory's two ACLs at once: on NFSv3 that is two GETACL round
     trips where GNU makes one).  */
  unsigned int want = DIRPLUS_WANT_ACL | DIRPLUS_WANT_LABEL | DIRPLUS_WANT_CAP;
  if (setup_backend == DIRPLUS_URING
      && dirplus_uring_stat (dirfd, e, statx_mask | STATX_TYPE,
                             flags & ~want) == 0)
    {
      unsigned int bits = dirplus_attrs_needed (e, flags);
      if (!bits)
        ;
      else if (dirplus_fs_kind (dirplus_entry_dev (e)) == DIRPLUS_FS_LOCAL)
        dirplus_uring_stat (dirfd, e, statx_mask, flags);
      else
        dirplus_entry_attrs (dirfd, e, bits, flags & DIRPLUS_FOLLOW);
    }
  else
#endif
    dirplus_stat_entry (dirfd, e, statx_mask, flags);
  if (e->stat_errno)
    {
      errno = e->stat_errno;
      return -1;
    }
  e->ino = e->stx.stx_ino;
  e->d_type = IFTODT (e->stx.stx_mode);
  return 0;
}

/** Hint the subdirectories of D read next (see dirplus.h): read ahead
    on a remote filesystem, or a local one found cold (dirplus-ahead.c).  */
void
dirplus_ahead (struct dirplus_dir *d, char *const *names, size_t n)
{
  /* Where a directory costs one call of getdentsplus, its open is
     worth batching (dirplus-openahead.c); on a remote filesystem whole
     directories are read ahead (dirplus-ahead.c).  */
  if (d->close_later && d->fs_kind <= DIRPLUS_FS_LOCAL)
    dirplus_openahead_hint (d->fd, names, n, open_flags (d->flags));
  else
    dirplus_ahead_hint (d, names, n);
}

/** Read xattr XNAME of NAME relative to DIRFD (see dirplus.h).  */
ssize_t
dirplus_getxattr (int dirfd, const char *name, const char *xname,
                  void *buf, size_t size, unsigned int flags)
{
  return dirplus_getxattr_at (dirfd, name, xname, buf, size,
                              flags & DIRPLUS_FOLLOW);
}

/** Whether NAME relative to DIRFD (mode MODE) has an ACL, decided like
    GNU ls 9.1's file_has_acl (see dirplus.h).  */
int
dirplus_file_has_acl (int dirfd, const char *name, mode_t mode)
{
  if (S_ISLNK (mode))
    return 0;
  ssize_t n = dirplus_getxattr (dirfd, name, "system.posix_acl_access",
                                NULL, 0, DIRPLUS_FOLLOW);
  if (0 < n)
    return 1;
  if ((n == 0 || errno == ENODATA) && S_ISDIR (mode))
    {
      n = dirplus_getxattr (dirfd, name, "system.posix_acl_default", NULL, 0,
                            DIRPLUS_FOLLOW);
      if (0 < n)
        return 1;
    }
  if (n < 0 && errno != ENODATA && !dirplus_errno_unsupported (errno)
      && errno != EINVAL)
    return -1;
  return 0;
}

/** The struct stat that statx data X gives (see dirplus.h).  */
void
dirplus_statx_to_stat (const struct statx *x, struct stat *st)
{
  dirplus_stx_to_stat (x, st);
}
