/* dirplus.c -- the dirplus API: backend choice, open/read/close, the
   getdents64 batching and attribute logic the backends share.

   See dirplus.h for the API and dirplus-impl.h for the file map.  */

#include <config.h>

#include "dirplus-impl.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>

/* The new *xattrat syscalls (Linux 6.13) share one number on every
   architecture with the unified table; glibc 2.36 does not know them.  */
#if !defined __NR_listxattrat && (defined __x86_64__ && !defined __ILP32__ \
                                  || defined __aarch64__)
# define __NR_getxattrat 464
# define __NR_listxattrat 465
#endif

struct dirplus_stats dirplus_counters;

/* The backend chosen by dirplus_setup: -1 before, or on failure (then
   SETUP_ERRNO says why).  */
static bool setup_done;
static int setup_backend = -1;
static int setup_errno;

static const char *const backend_names[] =
{
  [DIRPLUS_AUTO] = "auto",
  [DIRPLUS_GETDENTSPLUS] = "getdentsplus",
  [DIRPLUS_URING] = "uring",
  [DIRPLUS_SYNC] = "sync",
};

/* What "auto" uses when the kernel module is absent.  Decided by
   measurement (see README, "Backends"): on a warm cache io_uring statx is
   punted to worker threads and loses to sync statx.  */
#define DIRPLUS_AUTO_USERSPACE DIRPLUS_SYNC

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
    case DIRPLUS_GETDENTSPLUS:
      return &dirplus_gdp_ops;
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
    case DIRPLUS_GETDENTSPLUS:
      return dirplus_gdp_probe ();
    case DIRPLUS_URING:
#if USE_URING
      return dirplus_uring_probe ();
#else
      errno = ENOSYS;
      return -1;
#endif
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
      if (backend_probe (DIRPLUS_GETDENTSPLUS) == 0)
        setup_backend = DIRPLUS_GETDENTSPLUS;
      else if (DIRPLUS_AUTO_USERSPACE != DIRPLUS_SYNC
               && backend_probe (DIRPLUS_AUTO_USERSPACE) == 0)
        setup_backend = DIRPLUS_AUTO_USERSPACE;
      else
        setup_backend = DIRPLUS_SYNC;
    }
  else if (backend_probe (want) == 0)
    setup_backend = want;
  else
    setup_errno = errno;

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
  return NULL;
}

/** Move FD above the standard streams (the library's long-lived fds must
    not become stdout when it is closed: ls would then write into them).
    Returns the new fd, or -1 with errno (FD closed either way).  */
int
dirplus_fd_above_stdio (int fd)
{
  if (fd < 0 || fd > 2)
    return fd;
  int nfd = fcntl (fd, F_DUPFD_CLOEXEC, 3);
  int err = errno;
  close (fd);
  errno = err;
  return nfd;
}

/** Copy the global counters to *S.  */
void
dirplus_get_stats (struct dirplus_stats *s)
{
  *s = dirplus_counters;
}

/** The attribute bits the request FLAGS ask for.  */
unsigned int
dirplus_wanted_attrs (unsigned int flags)
{
  unsigned int bits = 0;
  if (flags & DIRPLUS_WANT_ACL)
    bits |= DIRPLUS_ATTR_ACL;
  if (flags & DIRPLUS_WANT_LABEL)
    bits |= DIRPLUS_ATTR_LABEL;
  if (flags & DIRPLUS_WANT_CAP)
    bits |= DIRPLUS_ATTR_CAP;
  return bits;
}

/** Make room for N entries in D->ents.  */
int
dirplus_reserve (struct dirplus_dir *d, size_t n)
{
  if (n <= d->cap)
    return 0;
  struct dirplus_entry *p = realloc (d->ents, n * sizeof *p);
  if (!p)
    return -1;
  d->ents = p;
  d->cap = n;
  return 0;
}

/** Make D->scratch at least SIZE bytes.  */
int
dirplus_scratch_reserve (struct dirplus_dir *d, size_t size)
{
  if (size <= d->scratch_size)
    return 0;
  char *p = realloc (d->scratch, size);
  if (!p)
    return -1;
  d->scratch = p;
  d->scratch_size = size;
  return 0;
}

/* What getdents64 writes.  */
struct linux_dirent64
{
  uint64_t d_ino;
  int64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[];
};

/** Read getdents64 buffers of D until one yields entries the filter keeps;
    store them (not stat'ed) in D->ents.  Returns their number, 0 at the
    end, -1 with errno.  */
ssize_t
dirplus_getdents_batch (struct dirplus_dir *d)
{
  d->nents = 0;
  while (!d->eof && d->nents == 0)
    {
      long n = syscall (SYS_getdents64, d->fd, d->buf, d->bufsize);
      __atomic_fetch_add (&dirplus_counters.batch_calls, 1,
                          __ATOMIC_RELAXED);
      if (n < 0)
        return -1;
      if (n == 0)
        {
          d->eof = true;
          break;
        }
      /* The smallest record is 24 bytes.  */
      if (dirplus_reserve (d, n / 24 + 1) < 0)
        return -1;
      for (long off = 0; off < n;)
        {
          struct linux_dirent64 *de = (void *) (d->buf + off);
          off += de->d_reclen;
          size_t len = strlen (de->d_name);
          if (d->filter && !d->filter (de->d_name, len, de->d_type,
                                       d->filter_arg))
            continue;
          struct dirplus_entry *e = &d->ents[d->nents++];
          memset (e, 0, sizeof *e);
          e->name = de->d_name;
          e->namelen = len;
          e->ino = de->d_ino;
          e->d_type = de->d_type;
        }
    }
  __atomic_fetch_add (&dirplus_counters.entries, d->nents, __ATOMIC_RELAXED);
  return d->nents;
}

/** Open directory NAME relative to PARENTFD (see dirplus.h).  */
struct dirplus_dir *
dirplus_open (int parentfd, const char *name, unsigned int statx_mask,
              unsigned int flags)
{
  int oflags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOCTTY;
  if (!(flags & (DIRPLUS_FOLLOW | DIRPLUS_OPEN_FOLLOW)))
    oflags |= O_NOFOLLOW;
  if (dirplus_setup (DIRPLUS_AUTO) < 0)
    return NULL;

  /* Read ahead already (a remote filesystem under ls -R)?  */
  bool found;
  int fd, open_errno, st_errno;
  struct stat st;
  struct ahead_batch *b = dirplus_ahead_take (parentfd, name, statx_mask,
                                              flags, &fd, &open_errno,
                                              &st, &st_errno, &found);
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
      return d;
    }

  fd = openat (parentfd, name, oflags);
#if USE_URING
  if (fd < 0 && (errno == EMFILE || errno == ENFILE)
      && setup_backend == DIRPLUS_URING)
    {
      /* Closes still queued in the ring hold fds: free them, retry.  */
      dirplus_uring_flush_closes ();
      fd = openat (parentfd, name, oflags);
    }
#endif
  if (fd < 0)
    return NULL;
  return dirplus_fdopen (fd, statx_mask, flags);
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
  d->fs_kind = -1;
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

/** Read the next batch of D with its backend.  */
ssize_t
dirplus_backend_read (struct dirplus_dir *d)
{
  return backend_ops (d->backend)->read (d);
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
  return fstat (d->fd, st);
}

/** Tell the library the device of D (see dirplus.h).  */
void
dirplus_set_dev (struct dirplus_dir *d, dev_t dev)
{
  if (d->fs_kind < 0)
    d->fs_kind = dirplus_fs_kind (dev);
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
  if (d->eof)
    {
      *entries = NULL;
      return 0;
    }
  ssize_t n;
  if (d->read_ahead)
    n = dirplus_ahead_read (d, entries);
  else
    {
      n = backend_ops (d->backend)->read (d);
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
  dirplus_ahead_free_batches (d->ahead);
  free (d->ahead_cur);
#if USE_URING
  int r = (d->backend == DIRPLUS_URING ? dirplus_uring_close (d->fd)
           : close (d->fd));
#else
  int r = close (d->fd);
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
        dirplus_sync_attrs (dirfd, e, bits, flags & DIRPLUS_FOLLOW);
    }
  else
#endif
    dirplus_sync_entry (dirfd, e, statx_mask, flags);
  if (e->stat_errno)
    {
      errno = e->stat_errno;
      return -1;
    }
  e->ino = e->stx.stx_ino;
  e->d_type = IFTODT (e->stx.stx_mode);
  return 0;
}

/* ---- attribute bits ---- */

/* Devices whose filesystem said "unsupported" for some attribute bits
   (a small ring of the most recent ones).  The sync backend's helper
   thread reads it too: readers use relaxed atomic loads (a stale answer
   only costs one more probe, bits only ever grow), writers a lock.  */
enum { N_UNSUPPORTED = 16 };
static struct { dev_t dev; unsigned int bits; } unsupported[N_UNSUPPORTED];
static size_t n_unsupported;
static pthread_mutex_t unsupported_lock = PTHREAD_MUTEX_INITIALIZER;

/** Whether ERR means the filesystem has no xattr support.  */
bool
dirplus_errno_unsupported (int err)
{
  return err == ENOTSUP || err == EOPNOTSUPP || err == ENOSYS;
}

/** The attribute bits known unsupported on DEV.  */
unsigned int
dirplus_dev_unsupported (dev_t dev)
{
  size_t n = __atomic_load_n (&n_unsupported, __ATOMIC_ACQUIRE);
  if (N_UNSUPPORTED < n)
    n = N_UNSUPPORTED;
  for (size_t i = 0; i < n; i++)
    if (__atomic_load_n (&unsupported[i].dev, __ATOMIC_RELAXED) == dev)
      return __atomic_load_n (&unsupported[i].bits, __ATOMIC_RELAXED);
  return 0;
}

/** Remember that DEV does not support attribute BITS.  */
void
dirplus_dev_mark_unsupported (dev_t dev, unsigned int bits)
{
  pthread_mutex_lock (&unsupported_lock);
  size_t n = n_unsupported < N_UNSUPPORTED ? n_unsupported : N_UNSUPPORTED;
  size_t i;
  for (i = 0; i < n; i++)
    if (unsupported[i].dev == dev)
      break;
  if (i == n)
    {
      /* A new slot: its bits first, then the device, then the count.  */
      i = n_unsupported % N_UNSUPPORTED;
      __atomic_store_n (&unsupported[i].bits, 0, __ATOMIC_RELAXED);
      __atomic_store_n (&unsupported[i].dev, dev, __ATOMIC_RELAXED);
      __atomic_store_n (&n_unsupported, n_unsupported + 1, __ATOMIC_RELEASE);
    }
  __atomic_or_fetch (&unsupported[i].bits, bits, __ATOMIC_RELAXED);
  pthread_mutex_unlock (&unsupported_lock);
}

/** The device of stat'ed entry E.  */
dev_t
dirplus_entry_dev (const struct dirplus_entry *e)
{
  return makedev (e->stx.stx_dev_major, e->stx.stx_dev_minor);
}

/** The attribute bits still to compute for E (see dirplus-impl.h).  */
unsigned int
dirplus_attrs_needed (struct dirplus_entry *e, unsigned int flags)
{
  unsigned int bits = dirplus_wanted_attrs (flags);
  e->attr = 0;
  e->attr_unknown = 0;
  e->attr_errno = 0;
  if (!bits)
    return 0;
  if (e->stat_errno || (flags & DIRPLUS_NO_STAT))
    {
      e->attr_unknown = bits;
      e->attr_errno = e->stat_errno;
      return 0;
    }
  mode_t mode = e->stx.stx_mode;
  /* GNU ls never asks for the ACL of a symlink it does not follow.  */
  if (S_ISLNK (mode))
    bits &= DIRPLUS_ATTR_LABEL;
  if (!S_ISDIR (mode))
    bits &= ~DIRPLUS_ATTR_ACL_DEFAULT;
  /* Capabilities only matter (and only exist) on regular files.  */
  if (!S_ISREG (mode))
    bits &= ~DIRPLUS_ATTR_CAP;
  if (bits)
    bits &= ~dirplus_dev_unsupported (dirplus_entry_dev (e));
  return bits;
}

/** Set E's attribute bits among BITS from the xattr name LIST.  */
void
dirplus_attrs_from_list (struct dirplus_entry *e, unsigned int bits,
                         const char *list, size_t len)
{
  unsigned int found = 0;
  for (const char *p = list, *end = list + len; p < end;
       p += strlen (p) + 1)
    {
      /* GNU 9.1 marks POSIX ACLs only: an NFSv4 ACL (system.nfs4_acl)
         never gives a '+'.  */
      if (strncmp (p, "system.", 7) == 0)
        {
          if (strcmp (p + 7, "posix_acl_access") == 0)
            found |= DIRPLUS_ATTR_ACL_ACCESS;
          else if (strcmp (p + 7, "posix_acl_default") == 0)
            found |= DIRPLUS_ATTR_ACL_DEFAULT;
        }
      else if (strncmp (p, "security.", 9) == 0)
        {
          if (strcmp (p + 9, "selinux") == 0)
            found |= DIRPLUS_ATTR_LABEL;
          else if (strcmp (p + 9, "capability") == 0)
            found |= DIRPLUS_ATTR_CAP;
        }
    }
  e->attr |= found & bits;
}

/** Record a failed attribute query (errno ERR) for E's BITS.  */
void
dirplus_attrs_failed (struct dirplus_entry *e, unsigned int bits, int err)
{
  if (dirplus_errno_unsupported (err))
    {
      /* Known absent, and never asked again on this filesystem.  */
      dirplus_dev_mark_unsupported (dirplus_entry_dev (e), bits);
      return;
    }
  e->attr_unknown |= bits;
  e->attr_errno = err;
}

/* Whether the *xattrat syscalls work: 0 unknown, 1 yes, -1 no.  */
static int xattrat_state;

/** Build "/proc/self/fd/DIRFD/NAME" (or NAME itself when it does not
    need DIRFD) in BUF of SIZE bytes.  Returns the path, or NULL with
    errno.  */
static const char *
fd_relative_path (int dirfd, const char *name, char *buf, size_t size)
{
  if (dirfd == AT_FDCWD || name[0] == '/')
    return name;
  int n = snprintf (buf, size, "/proc/self/fd/%d/%s", dirfd, name);
  if (n < 0 || (size_t) n >= size)
    {
      errno = ENAMETOOLONG;
      return NULL;
    }
  return buf;
}

/** Whether a failed *xattrat call (errno ERR) means the syscall is not
    there; then remember it.  */
static bool
xattrat_missing (int err)
{
  if (err == ENOSYS
      || (__atomic_load_n (&xattrat_state, __ATOMIC_RELAXED) == 0
          && err == EPERM))
    {
      __atomic_store_n (&xattrat_state, -1, __ATOMIC_RELAXED);
      return true;
    }
  return false;
}

/** listxattr of NAME relative to DIRFD (see dirplus-impl.h).  */
ssize_t
dirplus_listxattr_at (int dirfd, const char *name, bool follow,
                      char *list, size_t size)
{
  __atomic_fetch_add (&dirplus_counters.xattr_calls, 1, __ATOMIC_RELAXED);
#ifdef __NR_listxattrat
  if (__atomic_load_n (&xattrat_state, __ATOMIC_RELAXED) >= 0)
    {
      long n = syscall (__NR_listxattrat, dirfd, name,
                        follow ? 0 : AT_SYMLINK_NOFOLLOW, list, size);
      if (n >= 0)
        {
          __atomic_store_n (&xattrat_state, 1, __ATOMIC_RELAXED);
          return n;
        }
      if (!xattrat_missing (errno))
        return -1;
    }
#endif
  char buf[PATH_MAX + 32];
  const char *path = fd_relative_path (dirfd, name, buf, sizeof buf);
  if (!path)
    return -1;
  return follow ? listxattr (path, list, size) : llistxattr (path, list, size);
}

/** Read xattr XNAME of NAME relative to DIRFD (see dirplus.h).  */
ssize_t
dirplus_getxattr (int dirfd, const char *name, const char *xname,
                  void *buf, size_t size, unsigned int flags)
{
  bool follow = flags & DIRPLUS_FOLLOW;
  __atomic_fetch_add (&dirplus_counters.xattr_calls, 1, __ATOMIC_RELAXED);
#ifdef __NR_getxattrat
  if (__atomic_load_n (&xattrat_state, __ATOMIC_RELAXED) >= 0)
    {
      struct { uint64_t value; uint32_t size, flags; } args =
        { (uintptr_t) buf, size, 0 };
      long n = syscall (__NR_getxattrat, dirfd, name,
                        follow ? 0 : AT_SYMLINK_NOFOLLOW, xname,
                        &args, sizeof args);
      if (n >= 0)
        {
          __atomic_store_n (&xattrat_state, 1, __ATOMIC_RELAXED);
          return n;
        }
      if (!xattrat_missing (errno))
        return -1;
    }
#endif
  char pbuf[PATH_MAX + 32];
  const char *path = fd_relative_path (dirfd, name, pbuf, sizeof pbuf);
  if (!path)
    return -1;
  return (follow ? getxattr (path, xname, buf, size)
          : lgetxattr (path, xname, buf, size));
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
