/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dirplus-xattr.c -- shared piece: listxattr and getxattr of a name
   relative to a directory fd, through listxattrat(2)/getxattrat(2) where
   the kernel has them, else through a "/proc/self/fd/DIRFD/NAME" path.

   Layering (see the map in dirplus-impl.h): a shared piece, called by
   dirplus-stat.c and by dirplus.c's dirplus_getxattr; calls only
   dirplus-common.c (the counters).  */

#include <config.h>

#include "dirplus-impl.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/xattr.h>

/* The new *xattrat syscalls (Linux 6.13) share one number on every
   architecture with the unified table; glibc 2.36 does not know them.  */
#if !defined __NR_listxattrat && (defined __x86_64__ && !defined __ILP32__ \
                                  || defined __aarch64__)
# define __NR_getxattrat 464
# define __NR_listxattrat 465
#endif

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

/** getxattr of xattr XNAME of NAME relative to DIRFD into BUF of SIZE
    bytes, following a final symlink if FOLLOW (see dirplus-impl.h).  */
ssize_t
dirplus_getxattr_at (int dirfd, const char *name, const char *xname,
                     void *buf, size_t size, bool follow)
{
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
