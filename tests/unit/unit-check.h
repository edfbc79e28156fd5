/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tests/unit/unit-check.h -- what the unit test programs share: fail()
   prints "FAIL: ..." and counts it in failures, which the program's main
   turns into its exit status; die() ends a test that cannot go on
   (status 99); in_child() runs a case in a child process;
   set_posix_acl() gives a file an extended POSIX ACL.  Static: each
   program that includes it has its own count.  */
#ifndef UNIT_CHECK_H
#define UNIT_CHECK_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <sys/xattr.h>
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

/** Give PATH an extended POSIX ACL (user::rw- user:65534:r-- group::r--
    mask::r-- other::r--), the DEFAULT one if DFLT, by writing the xattr
    (version 2, then tag, perm, id entries): true if it could.  */
static bool __attribute__ ((unused))
set_posix_acl (const char *path, bool dflt)
{
  struct { uint16_t tag, perm; uint32_t id; } ent[] =
    {
      { 0x01, 6, -1 }, { 0x02, 4, 65534 }, { 0x04, 4, -1 },
      { 0x10, 4, -1 }, { 0x20, 4, -1 },
    };
  char value[4 + sizeof ent];
  uint32_t version = 2;
  memcpy (value, &version, 4);
  memcpy (value + 4, ent, sizeof ent);
  return setxattr (path, dflt ? "system.posix_acl_default"
                   : "system.posix_acl_access", value, sizeof value, 0) == 0;
}

#endif /* UNIT_CHECK_H */
