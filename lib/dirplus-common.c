/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dirplus-common.c -- shared piece (bottom layer): the library's global
   counters (dirplus_get_stats reads them), the fd helper that keeps
   the library's long-lived fds off 0..2, and the clock that times calls.

   Layering (see the map in dirplus-impl.h): a shared piece, called by
   dirplus.c, the backends and the other shared pieces; calls nothing of
   the library.  */

#include <config.h>

#include "dirplus-impl.h"

#include <errno.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

struct dirplus_stats dirplus_counters;

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

/** Microseconds on the monotonic clock (vDSO: no system call).  */
long long
dirplus_usec_now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}
