/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dirplus-gdp.c -- the getdentsplus backend: one call of the kernel
   module returns a buffer of records, each a directory entry with its
   stat data and attribute bits (kernel-module/include/uapi/linux/
   getdentsplus.h).  No per-file syscall at all.

   The call is found once: the syscall number the module publishes in
   /sys/module/getdentsplus/parameters/nr (0 there, or ENOSYS from it:
   not usable), else the GETDENTSPLUS_IOC ioctl on /dev/getdentsplus.
   The number belongs to the native 64-bit system call table: a 32-bit
   (or x32) build uses the ioctl only, since the same number is another
   system call there.  What the module offers (ABI version, request
   flags) is read from sysfs, never guessed from an EINVAL.  A syscall
   that starts failing with ENOSYS (kprobes disabled system-wide, the
   module unloaded) is replaced by the ioctl, or for that batch by
   getdents64 + statx, call by call: never a failed listing.

   The module answers attribute bits from memory only (GDP_ATTR_CACHED)
   for a directory on a remote filesystem (dirplus-fs.c's kind of its
   device, from dirplus_set_dev); the bits it leaves unknown are asked
   here, as the sync backend asks them.

   A directory read to its end in one call costs that one call: the
   module marks the last record (GDP_MARK_END, ABI version 3), so no
   second call asks for the end, and for ls -R it returns the
   directory's own stat with the first batch (GDP_WANT_SELF), so no
   fstat either.  */

/* Layering (see the map in dirplus-impl.h): a backend, chosen by
   dirplus.c; it calls only shared pieces (dirplus-records.c for its
   records, dirplus-getdents.c, dirplus-attr.c, dirplus-stat.c for what
   the module leaves to user space, dirplus-common.c).  */

#include <config.h>

#include "dirplus-impl.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>

#include <linux/getdentsplus.h>

/* Buffer size: records are ~300 bytes plus the name.  The module asks
   the filesystem for as much per directory read as getdents64 with
   glibc's 32 KiB buffer only when the records of that read fit (about
   400 KiB for short names): with less, a filesystem that sizes its reads
   by the reader's buffer (FUSE on newer kernels) would be read in more
   pieces than GNU ls reads it (tests/kmod/vm/gdp-fuse-test.c, readdirs).  */
#define GDP_BUFSIZE (512 * 1024)

/* The syscall number is usable only from the native 64-bit ABI.  */
#if (defined __x86_64__ || defined __aarch64__) && defined __LP64__
# define GDP_NATIVE_SYSCALL 1
#else
# define GDP_NATIVE_SYSCALL 0
#endif

/* The records are read by dirplus-records.c.  */
DIRPLUS_REC_LAYOUT (struct getdentsplus_entry);
_Static_assert (GDP_REC_UNRESOLVED == DIRPLUS_REC_UNRESOLVED
                && GDP_REC_SELF == DIRPLUS_REC_SELF
                && GDP_REC_END == DIRPLUS_REC_END
                && GETDENTSPLUS_ENTRY_MIN == DIRPLUS_REC_MIN,
                "the module's record flags are dirplus-records.c's");

/* What a module without the sysfs files (ABI version 1) accepts.  */
#define GDP_V1_FLAGS 0xffu

/* The request flags of ABI 4 and earlier, and their ABI 5 spelling.  */
static const struct
{
  unsigned int v4, at;
} v4_flags[] =
  {
    { GDP_V4_FOLLOW, AT_SYMLINK_FOLLOW },
    { GDP_V4_NO_AUTOMOUNT, AT_NO_AUTOMOUNT },
    { GDP_V4_STATX_FORCE_SYNC, AT_STATX_FORCE_SYNC },
    { GDP_V4_STATX_DONT_SYNC, AT_STATX_DONT_SYNC },
    { GDP_V4_WANT_ACL, GDP_WANT_ACL },
    { GDP_V4_WANT_LABEL, GDP_WANT_LABEL },
    { GDP_V4_WANT_CAP, GDP_WANT_CAP },
    { GDP_V4_ATTR_CACHED, GDP_ATTR_CACHED },
    { GDP_V4_SKIP_DOTS, GDP_SKIP_DOTS },
    { GDP_V4_WANT_SELF, GDP_WANT_SELF },
    { GDP_V4_MARK_END, GDP_MARK_END },
  };

static int probe_state;		/* 0 not yet, 1 usable, -1 not usable */
static int probe_errno;
static long gdp_nr;		/* the syscall number, 0: use the ioctl */
static int gdp_devfd = -1;	/* /dev/getdentsplus */
static unsigned int gdp_supported = GDP_FLAGS_ALL; /* request flags */
static bool gdp_v4_layout;	/* the module takes only the GDP_V4_* layout */
static pthread_mutex_t gdp_switch_lock = PTHREAD_MUTEX_INITIALIZER;

dirplus_gdp_call_fn dirplus_gdp_call;

/** Call the module through its syscall.  */
static long
gdp_syscall (int fd, void *buf, size_t size, unsigned int mask,
             unsigned int flags)
{
  return syscall (gdp_nr, fd, buf, size, mask, flags);
}

/** Call the module through its ioctl.  */
static long
gdp_ioctl (int fd, void *buf, size_t size, unsigned int mask,
           unsigned int flags)
{
  struct getdentsplus_args args =
    {
      .dirfd = fd, .flags = flags, .buf = (uintptr_t) buf, .size = size,
      .statx_mask = mask,
    };
  return ioctl (gdp_devfd, GETDENTSPLUS_IOC, &args);
}

/** The unsigned number in sysfs file PATH (decimal or 0x hex), or DFLT
    when it is missing or unreadable.  */
static unsigned long
sysfs_number (const char *path, unsigned long dflt)
{
  long v;
  FILE *f = fopen (path, "re");
  if (!f)
    return dflt;
  if (fscanf (f, "%li", &v) != 1 || v < 0)
    v = dflt;
  fclose (f);
  return v;
}

/** V4 (flags in the layout of ABI 4 and earlier) in the ABI 5 layout.  */
static unsigned int
flags_from_v4 (unsigned long v4)
{
  unsigned int f = GDP_AT_FLAGS;
  for (size_t i = 0; i < sizeof v4_flags / sizeof *v4_flags; i++)
    if (v4 & v4_flags[i].v4)
      f |= v4_flags[i].at;
  return f;
}

/** The syscall number published by the module, or 0.  */
static long
published_nr (void)
{
  unsigned long nr = sysfs_number (GETDENTSPLUS_NR_PATH, 0);
  return nr < 1024 ? nr : 0;
}

/** Whether CALL answers like the module does to a bad fd (anything but
    ENOSYS: EBADF, EINVAL, ...).  */
static bool
answers (dirplus_gdp_call_fn call)
{
  char buf[GETDENTSPLUS_ENTRY_MIN];
  return call (-1, buf, sizeof buf, 0, 0) < 0 && errno != ENOSYS
         && errno != ENOTTY;
}

/** Probe the module once: 0 if usable, -1 with errno (ENOSYS when it is
    not loaded).  A call installed by a test (dirplus_gdp_call set before
    the probe) is taken as is.  */
int
dirplus_gdp_probe (void)
{
  if (probe_state)
    goto done;
  probe_state = -1;
  probe_errno = ENOSYS;

  if (dirplus_gdp_call)
    {
      probe_state = 1;
      goto done;
    }
  /* Version 1 modules have no flags file (and may lack GDP_SKIP_DOTS);
     before version 5 the file is in the GDP_V4_* layout.  */
  unsigned long supported = sysfs_number (GETDENTSPLUS_FLAGS_PATH,
                                          GDP_V1_FLAGS);
  gdp_v4_layout = sysfs_number (GETDENTSPLUS_ABI_PATH, 1) < 5;
  gdp_supported = (gdp_v4_layout
                   ? flags_from_v4 (supported & GDP_V4_FLAGS_ALL)
                   : supported & GDP_FLAGS_ALL);
  gdp_nr = GDP_NATIVE_SYSCALL ? published_nr () : 0;
  if (gdp_nr > 0 && answers (gdp_syscall))
    {
      dirplus_gdp_call = gdp_syscall;
      probe_state = 1;
      goto done;
    }
  gdp_devfd = dirplus_fd_above_stdio (open (GETDENTSPLUS_DEVICE,
                                            O_RDONLY | O_CLOEXEC));
  if (gdp_devfd < 0)
    {
      if (errno != ENOENT)
        probe_errno = errno;
      goto done;
    }
  if (answers (gdp_ioctl))
    {
      dirplus_gdp_call = gdp_ioctl;
      probe_state = 1;
      goto done;
    }
  close (gdp_devfd);
  gdp_devfd = -1;

 done:
  if (probe_state < 0)
    {
      errno = probe_errno;
      return -1;
    }
  return 0;
}

/** FLAGS (the ABI 5 layout) in the layout of ABI 4 and earlier.  */
static unsigned int
flags_to_v4 (unsigned int flags)
{
  unsigned int f = 0;
  for (size_t i = 0; i < sizeof v4_flags / sizeof *v4_flags; i++)
    if (flags & v4_flags[i].at)
      f |= v4_flags[i].v4;
  return f;
}

/** Whether D's filter drops "." and ".." (ls without -a): then the module
    need not look them up at all.  */
static bool
drops_dots (const struct dirplus_dir *d)
{
  return (d->filter && (gdp_supported & GDP_SKIP_DOTS)
          && !d->filter (".", 1, DT_DIR, d->filter_arg)
          && !d->filter ("..", 2, DT_DIR, d->filter_arg));
}

/** After the syscall said ENOSYS (kprobes disabled, module gone): use the
    ioctl from now on if the device answers.  Returns 0 when the ioctl is
    the call now, -1 when neither works (this batch then goes without the
    module).  */
static int
switch_to_ioctl (void)
{
  int r = -1;
  pthread_mutex_lock (&gdp_switch_lock);
  if (__atomic_load_n (&dirplus_gdp_call, __ATOMIC_ACQUIRE) == gdp_ioctl)
    r = 0;
  else
    {
      if (gdp_devfd < 0)
        gdp_devfd = dirplus_fd_above_stdio (open (GETDENTSPLUS_DEVICE,
                                                  O_RDONLY | O_CLOEXEC));
      if (0 <= gdp_devfd && answers (gdp_ioctl))
        {
          __atomic_store_n (&dirplus_gdp_call, gdp_ioctl, __ATOMIC_RELEASE);
          r = 0;
        }
    }
  pthread_mutex_unlock (&gdp_switch_lock);
  return r;
}

/** One call of the module for D; on ENOSYS from the syscall, the ioctl.
    Returns what the call returns; -1 with errno ENOSYS when neither
    the syscall nor the ioctl is there any more.  */
static long
gdp_call (struct dirplus_dir *d, unsigned int mask, unsigned int flags)
{
  dirplus_gdp_call_fn call = __atomic_load_n (&dirplus_gdp_call,
                                              __ATOMIC_ACQUIRE);
  if (gdp_v4_layout)
    flags = flags_to_v4 (flags);
  long n = call (d->fd, d->buf, d->bufsize, mask, flags);
  __atomic_fetch_add (&dirplus_counters.batch_calls, 1, __ATOMIC_RELAXED);
  if (n < 0 && errno == ENOSYS && call == gdp_syscall)
    {
      if (switch_to_ioctl () == 0)
        {
          n = gdp_ioctl (d->fd, d->buf, d->bufsize, mask, flags);
          __atomic_fetch_add (&dirplus_counters.batch_calls, 1,
                              __ATOMIC_RELAXED);
        }
      else
        errno = ENOSYS;	/* not the failed open's ENOENT */
    }
  return n;
}

/** Read the next batch of D without the module: getdents64, then per
    entry what the sync backend does (statx, attribute probes).  */
static ssize_t
read_without_module (struct dirplus_dir *d)
{
  ssize_t n = dirplus_getdents_batch (d);
  for (ssize_t i = 0; i < n; i++)
    dirplus_stat_entry (d->fd, &d->ents[i], d->mask, d->flags);
  return n;
}

/** The request flags (ABI 5 layout) for dirplus FLAGS.  */
static unsigned int
gdp_flags (unsigned int flags)
{
  unsigned int f = GDP_AT_FLAGS | AT_NO_AUTOMOUNT;
  if (flags & DIRPLUS_FOLLOW)
    f |= AT_SYMLINK_FOLLOW;
  if (flags & DIRPLUS_WANT_ACL)
    f |= GDP_WANT_ACL;
  if (flags & DIRPLUS_WANT_LABEL)
    f |= GDP_WANT_LABEL;
  if (flags & DIRPLUS_WANT_CAP)
    f |= GDP_WANT_CAP;
  return f;
}

/** Read the next batch of D with one call of the module.  */
static ssize_t
gdp_read (struct dirplus_dir *d)
{
  if (d->flags & DIRPLUS_NO_STAT)
    return dirplus_getdents_batch (d);
  if (d->bufsize < GDP_BUFSIZE)
    {
      char *p = realloc (d->buf, GDP_BUFSIZE);
      if (!p)
        return -1;
      d->buf = p;
      d->bufsize = GDP_BUFSIZE;
    }
  unsigned int flags = gdp_flags (d->flags);
  unsigned int mask = d->mask & GDP_STATX_SUPPORTED;
  if (drops_dots (d))
    flags |= GDP_SKIP_DOTS;

  if (gdp_supported & GDP_MARK_END)
    flags |= GDP_MARK_END;
  /* Where an attribute read is a round trip, the module answers from
     memory only, and what it leaves unknown is asked here, overlapped
     (dirplus_resolve_unknown).  Since ABI 4 the module no longer decides
     that from a list of its own.  */
  if (DIRPLUS_FS_LOCAL < d->fs_kind)
    flags |= GDP_ATTR_CACHED;
  if (d->want_self)
    flags |= GDP_WANT_SELF;

  d->nents = 0;
  while (!d->eof && d->nents == 0)
    {
      long n = gdp_call (d, mask, flags);
      if (n < 0 && errno == ENOSYS)
        return read_without_module (d);
      if (n < 0)
        return -1;
      if (n == 0)
        {
          d->eof = true;
          break;
        }
      if (dirplus_records_add (d, n, flags & GDP_WANT_SELF,
                               DIRPLUS_RECS_MODULE) < 0)
        return -1;
      /* Only the first call of a directory starts at position 0.  */
      flags &= ~GDP_WANT_SELF;
    }
  /* What the module could not answer without a round trip (a remote
     filesystem's ACLs), resolved here, overlapped.  */
  dirplus_resolve_unknown (d->fd, d->ents, d->nents, d->flags);
  __atomic_fetch_add (&dirplus_counters.entries, d->nents, __ATOMIC_RELAXED);
  return d->nents;
}

/** Whether gdp_read can give D's own stat (GDP_WANT_SELF).  */
static bool
gdp_self (const struct dirplus_dir *d)
{
  return (gdp_supported & GDP_WANT_SELF) && !(d->flags & DIRPLUS_NO_STAT);
}

const struct dirplus_ops dirplus_gdp_ops = { .read = gdp_read, .self = gdp_self };
