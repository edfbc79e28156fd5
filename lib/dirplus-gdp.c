/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dirplus-gdp.c -- the getdentsplus backend: one call of the kernel
   module returns a buffer of records, each a directory entry with its
   stat data and attribute bits (kernel-module/include/uapi/linux/
   getdentsplus.h).  No per-file syscall at all.

   The call is found once: the syscall number the module publishes in
   /sys/module/getdentsplus/parameters/nr (0 there, or ENOSYS from it:
   not usable), else the GETDENTSPLUS_IOC ioctl on /dev/getdentsplus.  */

#include <config.h>

#include "dirplus-impl.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>

#include <linux/getdentsplus.h>

/* Buffer size: records are ~300 bytes plus the name.  */
#define GDP_BUFSIZE (256 * 1024)

static int probe_state;		/* 0 not yet, 1 usable, -1 not usable */
static int probe_errno;
static long gdp_nr;		/* the syscall number, 0: use the ioctl */
static int gdp_devfd = -1;	/* /dev/getdentsplus */

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

/** The syscall number published by the module, or 0.  */
static long
published_nr (void)
{
  long nr = 0;
  FILE *f = fopen (GETDENTSPLUS_NR_PATH, "re");
  if (!f)
    return 0;
  if (fscanf (f, "%ld", &nr) != 1 || nr < 0 || nr >= 1024)
    nr = 0;
  fclose (f);
  return nr;
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
  gdp_nr = published_nr ();
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

/* Whether the module takes GDP_SKIP_DOTS: 1 yes, -1 no (an older module
   answered EINVAL), 0 not tried yet.  */
static int skip_dots_state;

/** Whether D's filter drops "." and ".." (ls without -a): then the module
    need not look them up at all.  */
static bool
drops_dots (const struct dirplus_dir *d)
{
  return (d->filter && skip_dots_state >= 0
          && !d->filter (".", 1, DT_DIR, d->filter_arg)
          && !d->filter ("..", 2, DT_DIR, d->filter_arg));
}

/** The GDP_* request flags for dirplus FLAGS.  */
static unsigned int
gdp_flags (unsigned int flags)
{
  unsigned int f = GDP_NO_AUTOMOUNT;
  if (flags & DIRPLUS_FOLLOW)
    f |= GDP_FOLLOW;
  if (flags & DIRPLUS_WANT_ACL)
    f |= GDP_WANT_ACL;
  if (flags & DIRPLUS_WANT_LABEL)
    f |= GDP_WANT_LABEL;
  if (flags & DIRPLUS_WANT_CAP)
    f |= GDP_WANT_CAP;
  return f;
}

/** Fill entry E from record R, for request FLAGS.  */
static void
entry_from_record (struct dirplus_entry *e,
                   const struct getdentsplus_entry *r, unsigned int flags)
{
  memset (e, 0, sizeof *e);
  e->name = r->name;
  e->namelen = r->namelen;
  e->ino = r->d_ino;
  e->d_type = r->d_type;
  e->stat_errno = r->error;
  if (!r->error)
    memcpy (&e->stx, &r->stx, sizeof e->stx);
  /* GNU's rules (no ACL of an unfollowed link, ...) on the kernel's bits;
     what the kernel could not decide is left to the caller.  */
  unsigned int bits = dirplus_attrs_needed (e, flags);
  e->attr = r->attr & bits;
  e->attr_unknown |= r->attr_unknown & bits;
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

  d->nents = 0;
  while (!d->eof && d->nents == 0)
    {
      long n = dirplus_gdp_call (d->fd, d->buf, d->bufsize, mask, flags);
      if (n < 0 && errno == EINVAL && (flags & GDP_SKIP_DOTS)
          && skip_dots_state == 0)
        {
          /* A module older than GDP_SKIP_DOTS: the filter drops them.  */
          skip_dots_state = -1;
          flags &= ~GDP_SKIP_DOTS;
          n = dirplus_gdp_call (d->fd, d->buf, d->bufsize, mask, flags);
        }
      else if (0 <= n && (flags & GDP_SKIP_DOTS))
        skip_dots_state = 1;
      __atomic_fetch_add (&dirplus_counters.batch_calls, 1,
                          __ATOMIC_RELAXED);
      if (n < 0)
        return -1;
      if (n == 0)
        {
          d->eof = true;
          break;
        }
      if (dirplus_reserve (d, n / GETDENTSPLUS_ENTRY_MIN + 1) < 0)
        return -1;
      const long hdr = sizeof (struct getdentsplus_entry);
      for (long off = 0; off + hdr <= n;)
        {
          const struct getdentsplus_entry *r = (void *) (d->buf + off);
          if (r->reclen < GETDENTSPLUS_ENTRY_MIN || off + r->reclen > n)
            {
              errno = EIO;	/* a malformed buffer: never trust it */
              return -1;
            }
          off += r->reclen;
          if (d->filter && !d->filter (r->name, r->namelen, r->d_type,
                                       d->filter_arg))
            continue;
          entry_from_record (&d->ents[d->nents++], r, d->flags);
        }
    }
  /* What the module could not answer without a round trip (a remote
     filesystem's ACLs), resolved here, overlapped.  */
  dirplus_resolve_unknown (d->fd, d->ents, d->nents, d->flags);
  __atomic_fetch_add (&dirplus_counters.entries, d->nents, __ATOMIC_RELAXED);
  return d->nents;
}

const struct dirplus_ops dirplus_gdp_ops = { gdp_read };
