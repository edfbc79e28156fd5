/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dirplus-common.c -- shared piece (bottom layer): the library's global
   counters (dirplus_get_stats reads them), the fd helper that keeps
   the library's long-lived fds off 0..2, and the clock that times calls.

   Also the statx-to-stat conversion (dirplus.c offers it to ls).

   Layering (see the map in dirplus-impl.h): a shared piece, called by
   dirplus.c, the backends and the other shared pieces; calls nothing of
   the library.  */

#include <config.h>

#include "dirplus-impl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/sysmacros.h>

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

/** The struct stat that statx data X gives (what fstatat would fill).  */
void
dirplus_stx_to_stat (const struct statx *x, struct stat *st)
{
  memset (st, 0, sizeof *st);
  st->st_dev = makedev (x->stx_dev_major, x->stx_dev_minor);
  st->st_ino = x->stx_ino;
  st->st_mode = x->stx_mode;
  st->st_nlink = x->stx_nlink;
  st->st_uid = x->stx_uid;
  st->st_gid = x->stx_gid;
  st->st_rdev = makedev (x->stx_rdev_major, x->stx_rdev_minor);
  st->st_size = x->stx_size;
  st->st_blksize = x->stx_blksize;
  st->st_blocks = x->stx_blocks;
  st->st_atim.tv_sec = x->stx_atime.tv_sec;
  st->st_atim.tv_nsec = x->stx_atime.tv_nsec;
  st->st_mtim.tv_sec = x->stx_mtime.tv_sec;
  st->st_mtim.tv_nsec = x->stx_mtime.tv_nsec;
  st->st_ctim.tv_sec = x->stx_ctime.tv_sec;
  st->st_ctim.tv_nsec = x->stx_ctime.tv_nsec;
}

/** Microseconds on the monotonic clock (a vDSO call where the
    clocksource allows it, else a system call).  */
long long
dirplus_usec_now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

/** One step of a busy wait: the CPU's pause hint where it has one.  */
static inline void
cpu_relax (void)
{
#if defined __x86_64__ || defined __i386__
  __builtin_ia32_pause ();
#elif defined __aarch64__
  __asm__ volatile ("yield" ::: "memory");
#else
  __asm__ volatile ("" ::: "memory");
#endif
}

/** Busy-wait steps per microsecond here, measured once (two clock
    readings): a spin counts steps, not clock readings, which are system
    calls where the clock has no vDSO (a QEMU TCG guest), hundreds per
    spin.  A measurement slowed down (preempted) only makes spins
    shorter.  */
static long
steps_per_usec (void)
{
  static long rate;
  long r = __atomic_load_n (&rate, __ATOMIC_RELAXED);
  if (r == 0)
    {
      enum { STEPS = 4096 };
      long long t0 = dirplus_usec_now ();
      for (int i = 0; i < STEPS; i++)
        cpu_relax ();
      long long us = dirplus_usec_now () - t0;
      r = us <= 0 ? STEPS : STEPS / us < 1 ? 1 : STEPS / us;
      __atomic_store_n (&rate, r, __ATOMIC_RELAXED);
    }
  return r;
}

/** Spin for about USEC microseconds at most while the word at ADDR
    holds VAL (EQUAL) or anything else (!EQUAL).  */
void
dirplus_spin_while (const unsigned int *addr, unsigned int val, bool equal,
                    int usec)
{
  long steps = usec * steps_per_usec ();
  for (long i = 0;
       i < steps && (__atomic_load_n (addr, __ATOMIC_ACQUIRE) == val) == equal;
       i++)
    cpu_relax ();
}

/** The number environment variable NAME gives (see dirplus-impl.h).  */
long
dirplus_env_number (const char *name, long lo, long hi, long dflt)
{
  const char *env = getenv (name);
  if (!env || !*env)
    return dflt;
  /* Called on read paths too: the caller's errno stays as it was.  */
  int saved = errno;
  char *end;
  errno = 0;
  long v = strtol (env, &end, 10);
  bool ok = errno == 0 && *end == '\0' && lo <= v && v <= hi;
  errno = saved;
  return ok ? v : -1;
}
