/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tests/unit/unit-check.h -- the failure report the unit test programs
   share: fail() prints "FAIL: ..." and counts it in failures, which the
   program's main turns into its exit status.  Static: each program that
   includes it has its own count.  */
#ifndef UNIT_CHECK_H
#define UNIT_CHECK_H

#include <stdarg.h>
#include <stdio.h>

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

#endif /* UNIT_CHECK_H */
