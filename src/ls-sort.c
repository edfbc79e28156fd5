/* ls-sort.c -- ordering the files of one listing, like GNU ls 9.1.

   sort_files() orders a vector of fileinfo pointers by the key chosen with
   --sort / -t -S -X -v -U (and -c -u --time for the time key), reversed by
   -r, with --group-directories-first putting directories (and symlinks
   whose target is known to be a directory) in front.

   Behaviour that must match GNU exactly:
   - every key except "none" and "version" breaks ties by comparing names
     with strcoll (byte order in the C locale);
   - -r reverses the whole comparison, tie-breaks included, but never the
     grouping of directories;
   - a strcoll failure is reported once ("cannot compare file names") and
     the whole sort is redone from the original order with strcmp;
   - the merge sort is gnulib's mpsort, so that entries comparing equal end
     up in the same order as with GNU ls.  */

#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ls.h"

#include "error.h"
#include "filevercmp.h"
#include "mpsort.h"
#include "quote.h"
#include "stat-time.h"
#include "timespec.h"
#include "xalloc.h"

#include <libintl.h>
#ifndef _
# define _(msgid) gettext (msgid)
#endif

/* The comparison in force during one call of sort_files.  */
static struct
{
  enum sort_type key;
  enum time_type time;
  bool reverse;
  bool dirs_first;
  bool use_strcmp;		/* strcoll failed: compare bytes instead */
  bool strcoll_failed;		/* set by name_cmp on the first failure */
} order;

/* Pointer buffer for mpsort, which needs N / 2 spare slots after the N
   it sorts, and a copy of the unsorted order in case we must restart.  */
static void const **sortbuf;
static size_t sortbuf_alloc;

/** Compare names A and B by the current locale's collation (or by bytes
    after a collation failure).  On the first strcoll error, report it
    like GNU ls and switch to byte comparison for the rest of this sort;
    sort_files then redoes the sort from scratch.  */
static int
name_cmp (char const *a, char const *b)
{
  if (order.use_strcmp || order.strcoll_failed)
    return strcmp (a, b);

  errno = 0;
  int diff = strcoll (a, b);
  if (errno)
    {
      error (0, errno, _("cannot compare file names %s and %s"),
             quote_n (0, a), quote_n (1, b));
      if (exit_status == 0)
        exit_status = LS_MINOR_PROBLEM;
      order.strcoll_failed = true;
      return strcmp (a, b);
    }
  return diff;
}

/** Three-way comparison of two integers of any width.  */
#define THREE_WAY(a, b) (((a) > (b)) - ((a) < (b)))

/** The timestamp of F that a time sort uses.  Files whose stat failed
    count as time 0 (GNU keeps a zeroed stat for them); a missing birth
    time counts as -1 seconds and -1 nanoseconds, older than anything.  */
static struct timespec
sort_time_of (struct fileinfo const *f)
{
  struct timespec ts = { 0, 0 };
  if (!f->stat_ok)
    return ts;
  switch (order.time)
    {
    case time_ctime:
      return get_stat_ctime (&f->stat);
    case time_atime:
      return get_stat_atime (&f->stat);
    case time_btime:
      if (f->btime_ok)
        return f->btime;
      ts.tv_sec = -1;
      ts.tv_nsec = -1;
      return ts;
    case time_mtime:
    default:
      return get_stat_mtime (&f->stat);
    }
}

/** The extension used by -X: from the last '.' on, or "" if none.  */
static char const *
extension_of (char const *name)
{
  char const *dot = strrchr (name, '.');
  return dot ? dot : "";
}

/** Compare A and B by the sort key alone, ascending in the sense GNU ls
    lists them without -r (newest and largest first for -t and -S).  */
static int
key_cmp (struct fileinfo *a, struct fileinfo *b)
{
  int diff;

  switch (order.key)
    {
    case sort_extension:
      diff = name_cmp (extension_of (a->name), extension_of (b->name));
      break;

    case sort_width:
      {
        size_t wa = name_width (a);
        size_t wb = name_width (b);
        diff = THREE_WAY (wa, wb);
      }
      break;

    case sort_size:
      {
        off_t sa = a->stat_ok ? a->stat.st_size : 0;
        off_t sb = b->stat_ok ? b->stat.st_size : 0;
        diff = THREE_WAY (sb, sa);
      }
      break;

    case sort_version:
      /* filevercmp is locale-independent, so its tie-break is strcmp.  */
      diff = filevercmp (a->name, b->name);
      return diff ? diff : strcmp (a->name, b->name);

    case sort_time:
      diff = timespec_cmp (sort_time_of (b), sort_time_of (a));
      break;

    case sort_name:
    default:
      diff = 0;
      break;
    }

  return diff ? diff : name_cmp (a->name, b->name);
}

/** Whether F goes first with --group-directories-first: a directory, or
    a symlink whose target was stat'ed and is a directory.  */
static bool
groups_as_directory (struct fileinfo const *f)
{
  return (f->filetype == directory || f->filetype == arg_directory
          || (f->linkok && S_ISDIR (f->linkmode)));
}

/** The mpsort comparison function: grouping, then the (possibly reversed)
    key comparison.  */
static int
file_cmp (void const *pa, void const *pb)
{
  struct fileinfo *a = (struct fileinfo *) pa;
  struct fileinfo *b = (struct fileinfo *) pb;

  if (order.dirs_first)
    {
      int diff = groups_as_directory (b) - groups_as_directory (a);
      if (diff)
        return diff;
    }

  return order.reverse ? key_cmp (b, a) : key_cmp (a, b);
}

/** Sort the N files of V in place according to the sort options.  */
void
sort_files (struct fileinfo **v, size_t n)
{
  if (sort_type == sort_none || n < 2)
    return;

  /* Layout of SORTBUF: [0, n) sorted in place, [n, n + n/2) mpsort's
     scratch space, [2n, 3n) the original order.  */
  if (sortbuf_alloc < 3 * n)
    {
      free (sortbuf);
      sortbuf = xnmalloc (n, 3 * sizeof *sortbuf);
      sortbuf_alloc = 3 * n;
    }
  for (size_t i = 0; i < n; i++)
    sortbuf[i] = sortbuf[2 * n + i] = v[i];

  order.key = sort_type;
  order.time = time_type;
  order.reverse = sort_reverse;
  order.dirs_first = directories_first;
  order.use_strcmp = false;
  order.strcoll_failed = false;

  mpsort (sortbuf, n, file_cmp);

  if (order.strcoll_failed)
    {
      /* Start over from the unsorted order, comparing bytes only.  */
      order.use_strcmp = true;
      memcpy (sortbuf, sortbuf + 2 * n, n * sizeof *sortbuf);
      mpsort (sortbuf, n, file_cmp);
    }

  for (size_t i = 0; i < n; i++)
    v[i] = (struct fileinfo *) sortbuf[i];
}
