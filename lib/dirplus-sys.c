/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dirplus-sys.c -- the "intree" backend: the getdentsplus(2) system call
   of upstream/'s patch series (fs/getdentsplus.c in a patched kernel).
   One call returns a buffer of records, each a directory entry with its
   statx reply, like the module's call (dirplus-gdp.c), with no kprobe
   and no device.  The call adds batching to statx and nothing else: an
   entry's ACL and label bits are statx's attributes (STATX_XATTR_INFO,
   the series it builds on; dirplus-statxattr.c), taken under the same
   rules as the statx backend's.

   Its number and its uapi header come from kernel headers only: configure
   (LSPLUS_GETDENTSPLUS_SYSCALL in m4/lsplus.m4) defines
   HAVE_GETDENTSPLUS_SYSCALL when <sys/syscall.h> gives __NR_getdentsplus
   next to the in-tree <linux/getdentsplus.h>, the headers of
   --with-kernel-headers=DIR first in this file's include path.  That
   header and the module's share their name, include guard and the name
   struct getdentsplus_entry: this file includes only the in-tree one,
   dirplus-gdp.c only the module's, and the two never share a header of
   theirs.  Without such headers this backend is never usable (ENOSYS).

   The number is not final until the series is merged, and a later
   kernel may give it to another call: it is used only on a running
   kernel of the headers' own version (major.minor of LINUX_VERSION_CODE:
   a stable series never adds system calls).  Then the call is probed
   once, with fd -1 only: bad flags must give EINVAL, and good ones
   EBADF, as the series checks them in that order (flags, request,
   descriptor); ENOSYS means a kernel without it.  The good flags probed
   are every flag this file may pass but SELF and MARK_END
   (AT_SYMLINK_FOLLOW, AT_NO_AUTOMOUNT, GETDENTSPLUS_SKIP_DOTS), with
   this revision's 8-byte request: a kernel of an earlier revision of
   the series (attribute bits of its own and a 16-byte request, or
   flags of other values) refuses it with EINVAL and is not used.  A
   call
   that fails with ENOSYS later (a seccomp filter, ...) is replaced for
   that batch by getdents64 + statx, as the module path does: never a
   failed listing.

   As with the module's ABI 3, a directory read to its end in one call
   costs that one call: the series' GETDENTSPLUS_MARK_END marks the last
   record (no second call to learn the end), and GETDENTSPLUS_SELF gives
   ls -R the directory's own stat with the first batch (no fstat).  Both
   are used only where the headers define them, and only once the probe
   saw the running kernel accept them (an earlier revision of the RFC
   series did not have them: its kernel refuses them with EINVAL).

   STATX_XATTR_INFO is asked except for a directory on a filesystem
   known not to be local (dirplus-fs.c's kind of its device, from
   dirplus_set_dev; where nobody told it, as the module's attribute
   bits are asked): on a network or FUSE filesystem the kernel would
   read each entry's ACL in turn, one round trip after the other, and
   the attributes are only taken on a local one (dirplus_statx_attrs_apply,
   the statx backend's rule); there the bits are asked here,
   overlapped, with GNU's probes (dirplus_resolve_unknown), as are the
   capabilities, which statx does not report.  The series never decides
   "remote" from a list of filesystem names of its own.

   How it relates to dirplus-gdp.c: both backends hand their buffers to
   dirplus-records.c, which reads the two layouts (the module's carries
   attribute bits of its own, the series' record is a statx reply), each
   backend checking at compile time that its own header agrees with
   that file's description; the request differs (a struct with its size
   first and a statx mask, not GDP_WANT_* flags).  The unit test (tests/unit/dirplus.c) runs both backends on
   the same emulated records, and the rig's realcall section runs
   tests/kmod/vm/gdp-eq, the two kernels' records of the same directories
   compared field by field.  */

/* Layering (see the map in dirplus-impl.h): a backend, chosen by
   dirplus.c; it calls only shared pieces (dirplus-records.c,
   dirplus-getdents.c, dirplus-attr.c, dirplus-stat.c,
   dirplus-common.c).  */

#include <config.h>

#include "dirplus-impl.h"

#include <errno.h>

#if HAVE_GETDENTSPLUS_SYSCALL

# include <dirent.h>
# include <fcntl.h>
# include <stddef.h>
# include <stdlib.h>
# include <string.h>
# include <unistd.h>
# include <sys/syscall.h>

# include <linux/getdentsplus.h>
# include <linux/version.h>

/* Buffer size: records are ~300 bytes plus the name.  512 KiB takes a
   full 32 KiB directory read of short names, so the call asks a
   filesystem that sizes its reads by the reader's buffer (FUSE) for as
   much per read as glibc's readdir does (the module's buffer too:
   dirplus-gdp.c).  */
# define SYS_BUFSIZE (512 * 1024)

/* The smallest record: its header, a one-byte name and its NUL,
   8-aligned.  */
# define SYS_ENTRY_MIN \
  ((offsetof (struct getdentsplus_entry, name) + 2 + 7) & ~(size_t) 7)

/* The records are read by dirplus-records.c, as statx replies; the
   record flags are the module's.  */
DIRPLUS_REC_SX_LAYOUT (struct getdentsplus_entry);
_Static_assert (GETDENTSPLUS_REC_UNRESOLVED == DIRPLUS_REC_UNRESOLVED
                && SYS_ENTRY_MIN == DIRPLUS_REC_SX_MIN,
                "the in-tree records are not dirplus-records.c's");
# ifdef GETDENTSPLUS_SELF
_Static_assert (GETDENTSPLUS_REC_SELF == DIRPLUS_REC_SELF
                && GETDENTSPLUS_REC_END == DIRPLUS_REC_END,
                "the in-tree record flags are not dirplus-records.c's");
#  define SYS_SELF_FLAG GETDENTSPLUS_SELF
# else
#  define SYS_SELF_FLAG 0u
# endif

static int probe_state;		/* 0 not yet, 1 usable, -1 not usable */
static int probe_errno;

/* The flags a call may carry besides SELF and MARK_END, in the
   series' layout (AT_* where the *at() calls have one, the call's own
   in the per-syscall byte).  */
# define SYS_BASE_FLAGS (AT_SYMLINK_FOLLOW | AT_NO_AUTOMOUNT \
                         | GETDENTSPLUS_SKIP_DOTS)

/* The flags of the series' later revision, where the headers have them,
   and those of them the running kernel accepts (the probe's answer).  */
# ifdef GETDENTSPLUS_SELF
#  define SYS_NEW_FLAGS (GETDENTSPLUS_SELF | GETDENTSPLUS_MARK_END)
# else
#  define SYS_NEW_FLAGS 0u
# endif
static unsigned int sys_supported;

/** The raw call, or the fake a test installed before the probe.  */
static long
sys_getdentsplus (int fd, const struct getdentsplus_req *req, void *buf,
                  size_t size, unsigned int flags)
{
  if (dirplus_sys_call)
    return dirplus_sys_call (fd, req, buf, size, flags);
  return syscall (__NR_getdentsplus, fd, req, buf, size, flags);
}

/** Whether the running kernel is of the headers' major.minor version
    (where their number for the call can be trusted).  */
static bool
same_kernel_series (void)
{
  return (dirplus_kernel_version () >> 8) == (LINUX_VERSION_CODE >> 8);
}

/** Probe the call once: 0 if the running kernel has it, -1 with errno
    (ENOSYS when it does not, or answers unlike getdentsplus).  */
int
dirplus_sys_probe (void)
{
  if (probe_state)
    goto done;
  probe_state = -1;
  probe_errno = ENOSYS;

  /* A test's emulation needs no kernel.  */
  if (!dirplus_sys_call && !same_kernel_series ())
    goto done;
  struct getdentsplus_req req = { .size = sizeof req };
  char buf[SYS_ENTRY_MIN];
  /* Unknown flags fail before the fd is looked at ...  */
  if (sys_getdentsplus (-1, &req, buf, sizeof buf, ~0u) >= 0
      || errno != EINVAL)
    goto done;
  /* ... and a good request on no fd is EBADF ...  */
  if (sys_getdentsplus (-1, &req, buf, sizeof buf, 0) >= 0
      || errno != EBADF)
    goto done;
  /* ... also with the flags sys_read passes: EINVAL from a kernel of an
     earlier revision of the series, whose flags had other values.  */
  if (sys_getdentsplus (-1, &req, buf, sizeof buf, SYS_BASE_FLAGS) >= 0
      || errno != EBADF)
    goto done;
  probe_state = 1;
  /* The directory's own record and the end mark: EBADF where the kernel
     knows them, EINVAL where it is of the series' first revision.  */
  if (SYS_NEW_FLAGS
      && sys_getdentsplus (-1, &req, buf, sizeof buf, SYS_NEW_FLAGS) < 0
      && errno == EBADF)
    sys_supported = SYS_NEW_FLAGS;

 done:
  if (probe_state < 0)
    {
      errno = probe_errno;
      return -1;
    }
  return 0;
}

/** Whether D's filter drops "." and ".." (ls without -a): then the
    kernel need not look them up at all.  */
static bool
drops_dots (const struct dirplus_dir *d)
{
  return (d->filter
          && !d->filter (".", 1, DT_DIR, d->filter_arg)
          && !d->filter ("..", 2, DT_DIR, d->filter_arg));
}

/** The request for dirplus FLAGS and statx MASK in a directory of
    filesystem kind FS_KIND (-1 not known): STATX_XATTR_INFO where an
    ACL or a label is wanted and the filesystem is not known remote.  */
static struct getdentsplus_req
sys_request (unsigned int flags, unsigned int mask, int fs_kind)
{
  struct getdentsplus_req req = { .size = sizeof req, .statx_mask = mask };
  if (fs_kind <= DIRPLUS_FS_LOCAL
      && (dirplus_wanted_attrs (flags)
          & (DIRPLUS_ATTR_ACL | DIRPLUS_ATTR_LABEL)))
    req.statx_mask |= STATX_XATTR_INFO;
  return req;
}

/** The call's flags for dirplus FLAGS.  */
static unsigned int
sys_flags (unsigned int flags)
{
  unsigned int f = AT_NO_AUTOMOUNT;
  if (flags & DIRPLUS_FOLLOW)
    f |= AT_SYMLINK_FOLLOW;
  return f;
}

/** Read the next batch of D without the call: getdents64, then per entry
    what the sync backend does (statx, attribute probes).  */
static ssize_t
read_without_call (struct dirplus_dir *d)
{
  ssize_t n = dirplus_getdents_batch (d);
  for (ssize_t i = 0; i < n; i++)
    dirplus_stat_entry (d->fd, &d->ents[i], d->mask, d->flags);
  return n;
}

/** Read the next batch of D with one getdentsplus(2) call.  */
static ssize_t
sys_read (struct dirplus_dir *d)
{
  if (d->flags & DIRPLUS_NO_STAT)
    return dirplus_getdents_batch (d);
  if (d->bufsize < SYS_BUFSIZE)
    {
      char *p = realloc (d->buf, SYS_BUFSIZE);
      if (!p)
        return -1;
      d->buf = p;
      d->bufsize = SYS_BUFSIZE;
    }
  struct getdentsplus_req req = sys_request (d->flags, d->mask, d->fs_kind);
  unsigned int flags = sys_flags (d->flags);
  if (drops_dots (d))
    flags |= GETDENTSPLUS_SKIP_DOTS;
# ifdef GETDENTSPLUS_SELF
  flags |= sys_supported & GETDENTSPLUS_MARK_END;
  if (d->want_self)
    flags |= GETDENTSPLUS_SELF;
# endif

  d->nents = 0;
  while (!d->eof && d->nents == 0)
    {
      long n = sys_getdentsplus (d->fd, &req, d->buf, d->bufsize, flags);
      __atomic_fetch_add (&dirplus_counters.batch_calls, 1,
                          __ATOMIC_RELAXED);
      if (n < 0 && errno == ENOSYS)
        return read_without_call (d);
      if (n < 0)
        return -1;
      if (n == 0)
        {
          d->eof = true;
          break;
        }
      if (dirplus_records_add (d, n, flags & SYS_SELF_FLAG,
                               DIRPLUS_RECS_STATX) < 0)
        return -1;
      /* Only the first call of a directory starts at position 0.  */
      flags &= ~SYS_SELF_FLAG;
    }
  /* What the records did not answer (not asked: a filesystem that is
     not local, capabilities; or not determined: the attribute's read
     failed, a directory's ACL of either kind), resolved here like the
     module's unknown bits.  */
  dirplus_resolve_unknown (d->fd, d->ents, d->nents, d->flags);
  __atomic_fetch_add (&dirplus_counters.entries, d->nents, __ATOMIC_RELAXED);
  return d->nents;
}

/** Whether sys_read can give D's own stat (GETDENTSPLUS_SELF).  */
static bool
sys_self (const struct dirplus_dir *d)
{
# ifdef GETDENTSPLUS_SELF
  return (sys_supported & GETDENTSPLUS_SELF) && !(d->flags & DIRPLUS_NO_STAT);
# else
  (void) d;
  return false;
# endif
}

#else /* !HAVE_GETDENTSPLUS_SYSCALL */

/** Without kernel headers that define the call: never usable.  */
int
dirplus_sys_probe (void)
{
  errno = ENOSYS;
  return -1;
}

/** Never called (the probe fails); reads like the sync backend.  */
static ssize_t
sys_read (struct dirplus_dir *d)
{
  return dirplus_stat_batch (d, dirplus_getdents_batch (d));
}

#endif

dirplus_sys_call_fn dirplus_sys_call;

#if HAVE_GETDENTSPLUS_SYSCALL
const struct dirplus_ops dirplus_sys_ops = { .read = sys_read, .self = sys_self };
#else
const struct dirplus_ops dirplus_sys_ops = { .read = sys_read };
#endif
