/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench/vm-timer.c -- run a command with its output thrown away and print
   its wall time, peak RSS, exit status and CPU time in user space and in
   the kernel: "SECONDS MAXRSS_KIB STATUS USER_SECONDS SYSTEM_SECONDS".

   Used inside the benchmark VM (bench/run-vm), whose busybox has no
   sub-second clock and no GNU time.  Built statically on the host.

     vm-timer CMD [ARG]...  */

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/** Seconds on the monotonic clock.  */
static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

int
main (int argc, char **argv)
{
  if (argc < 2)
    {
      fputs ("usage: vm-timer CMD [ARG]...\n", stderr);
      return 2;
    }
  double t0 = now ();
  pid_t pid = fork ();
  if (pid < 0)
    {
      perror ("vm-timer: fork");
      return 2;
    }
  if (pid == 0)
    {
      int null = open ("/dev/null", O_WRONLY);
      if (null < 0 || dup2 (null, 1) < 0 || dup2 (null, 2) < 0)
        _exit (127);
      execvp (argv[1], argv + 1);
      _exit (127);
    }
  int status;
  struct rusage ru;
  if (wait4 (pid, &status, 0, &ru) < 0)
    {
      perror ("vm-timer: wait4");
      return 2;
    }
  double t1 = now ();
  printf ("%.6f %ld %d %ld.%06ld %ld.%06ld\n", t1 - t0, ru.ru_maxrss,
          WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status),
          (long) ru.ru_utime.tv_sec, (long) ru.ru_utime.tv_usec,
          (long) ru.ru_stime.tv_sec, (long) ru.ru_stime.tv_usec);
  return 0;
}
