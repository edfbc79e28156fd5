/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tests/unit/unit-check.h -- what the unit test programs share: fail()
   prints "FAIL: ..." and counts it in failures, which the program's main
   turns into its exit status; die() ends a test that cannot go on
   (status 99); in_child() runs a case in a child process.  Static: each
   program that includes it has its own count.  */
#ifndef UNIT_CHECK_H
#define UNIT_CHECK_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int failures;

/** Report a failed check (printf-style) and count it.  */
static void __attribute__ ((format (printf, 1, 2), unused))
fail (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  fputs ("FAIL: ", stdout);
  vprintf (fmt, ap);
  putchar ('\n');
  va_end (ap);
  fflush (stdout);
  failures++;
}

/** Die: the test itself cannot go on.  */
static void __attribute__ ((noreturn, unused))
die (const char *what)
{
  printf ("ERROR: %s: %s\n", what, strerror (errno));
  exit (99);
}

/** Run FN (ARG) in a child; its exit status (99 if it did not exit).  */
static int __attribute__ ((unused))
in_child (int (*fn) (int), int arg)
{
  fflush (stdout);
  pid_t pid = fork ();
  if (pid < 0)
    die ("fork");
  if (pid == 0)
    {
      int r = fn (arg);
      fflush (stdout);
      _exit (r);
    }
  int status;
  if (waitpid (pid, &status, 0) < 0)
    die ("waitpid");
  return WIFEXITED (status) ? WEXITSTATUS (status) : 99;
}

#endif /* UNIT_CHECK_H */
