/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ls-sort.c -- ordering the files of one listing, like GNU ls 9.1.

   sort_files() orders a vector of fileinfo pointers by the key chosen with
   --sort / -t -S -X -v -U (and -c -u --time for the time key), reversed by
   -r, with --group-directories-first putting directories (and symlinks
   to directories: gathering stats symlink targets for that option) in
   front.

   Behaviour that must match GNU exactly:
   - every key except "none" and "version" breaks ties by comparing names
     with strcoll (byte order in the C locale);
   - -r reverses the whole comparison, tie-breaks included, but never the
     grouping of directories;
   - a strcoll failure is reported once ("cannot compare file names") and
     the whole sort is redone from the original order with strcmp;
   - the merge sort is gnulib's mpsort, so that entries comparing equal end
     up in the same order as with GNU ls.

   Names are compared through collation keys (ls-collkey.c) made once per
   name, falling back to strcoll only where the keys cannot tell: every
   comparison keeps strcoll's sign, so mpsort makes the same comparisons
   and moves as in GNU ls and the order is GNU's, ties included.  What
   mpsort sorts are pointers to sort entries (a name's key beside its
   fileinfo), so that most comparisons read 32 bytes per file and not the
   fileinfo and its name.  */

#include <config.h>

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "ls.h"

#include "error.h"
#include "c-ctype.h"
#include "mpsort.h"
#include "quote.h"
#include "stat-time.h"
#include "timespec.h"
#include "xalloc.h"

/* Collation keys pay when they save more strcoll calls than the strxfrm
   calls they cost (one strxfrm costs about two strcolls here, a sort of
   N files makes about N log2 N comparisons).  Below this many files the
   sort costs little either way (ls -1R of 20,000 files in directories of
   4 to 32: the same user time with and without keys, within noise), so
   the plain path is kept there.  */
enum { SORT_KEYS_MIN = 32 };

/* The comparison in force during one call of sort_files.  */
static struct
{
  enum sort_type key;
  enum time_type time;
  bool reverse;
  bool dirs_first;
  bool keys;			/* compare collation keys first */
  bool use_strcmp;		/* strcoll failed: compare bytes instead */
  bool strcoll_failed;		/* set by name_cmp on the first failure */
} order;

/* What mpsort sorts pointers to: a file and the key of its name.  */
struct sort_entry
{
  struct collkey key;
  struct fileinfo *f;
};
static struct sort_entry *entries;
static size_t entries_alloc;

/* With -X: the keys of the files' extensions, parallel to ENTRIES.  */
static struct collkey *ext_keys;
static size_t ext_keys_alloc;

/* Pointer buffer for mpsort, which needs N / 2 spare slots after the N
   it sorts.  */
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
    count as time 0 (GNU keeps a zeroed stat for them).  With
    --time=birth the gathering code stores the birth time in st_mtim,
    {-1, -1} when unknown (older than anything), as GNU 9.1 does.  */
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
    case time_mtime:
    default:
      return get_stat_mtime (&f->stat);
    }
}

/* ---- version order (-v) ----

   GNU ls 9.1 was built with the gnulib filevercmp of early 2022.  The
   gnulib we import is newer and orders names that start with '.'
   differently (9.1 lets the file suffix cover the whole name, so ".a"
   has an empty version part), so -v uses this re-implementation of the
   9.1 rules:
   - "" < "." < ".." < other names starting with '.' < all other names;
   - the suffix (\.[A-Za-z~][A-Za-z0-9~]*)*$ is cut off and the rest is
     compared Debian-style (runs of digits numerically, letters before
     other bytes, '~' before everything, even the end of the string);
   - if that is a tie, the whole names are compared the same way.  */

/** Length of NAME (N bytes) without its longest version suffix.  */
static size_t
version_prefix_len (char const *name, size_t n)
{
  for (size_t i = 0; ; i++)
    {
      size_t start = i;
      while (i + 1 < n && name[i] == '.'
             && (c_isalpha (name[i + 1]) || name[i + 1] == '~'))
        {
          i += 2;
          while (i < n && (c_isalnum (name[i]) || name[i] == '~'))
            i++;
        }
      if (i >= n)
        return start;
    }
}

/** Weight of byte POS of S (length LEN) among non-digits.  */
static int
version_weight (char const *s, size_t pos, size_t len)
{
  if (pos == len)
    return -1;
  unsigned char c = s[pos];
  if (c_isdigit (c))
    return 0;
  if (c_isalpha (c))
    return c;
  if (c == '~')
    return -2;
  return c + UCHAR_MAX + 1;
}

/** Debian version comparison of A[0, ALEN) and B[0, BLEN).  */
static int
version_parts_cmp (char const *a, size_t alen, char const *b, size_t blen)
{
  size_t i = 0, j = 0;

  while (i < alen || j < blen)
    {
      /* Non-digit runs, byte by byte.  */
      while ((i < alen && !c_isdigit (a[i])) || (j < blen && !c_isdigit (b[j])))
        {
          int wa = version_weight (a, i, alen);
          int wb = version_weight (b, j, blen);
          if (wa != wb)
            return wa - wb;
          i++;
          j++;
        }

      /* Digit runs, numerically: skip leading zeros, then the longer run
         wins, else the first differing digit decides.  */
      while (i < alen && a[i] == '0')
        i++;
      while (j < blen && b[j] == '0')
        j++;
      int first_diff = 0;
      while (i < alen && j < blen && c_isdigit (a[i]) && c_isdigit (b[j]))
        {
          if (!first_diff)
            first_diff = a[i] - b[j];
          i++;
          j++;
        }
      if (i < alen && c_isdigit (a[i]))
        return 1;
      if (j < blen && c_isdigit (b[j]))
        return -1;
      if (first_diff)
        return first_diff;
    }
  return 0;
}

/** Compare file names A and B in GNU ls 9.1's version order.  */
static int
version_cmp (char const *a, char const *b)
{
  if (!a[0] || !b[0])
    return !!a[0] - !!b[0];

  if (a[0] == '.' || b[0] == '.')
    {
      if (a[0] != b[0])
        return a[0] == '.' ? -1 : 1;
      bool adot = !a[1], bdot = !b[1];
      if (adot || bdot)
        return bdot - adot;
      bool adotdot = a[1] == '.' && !a[2];
      bool bdotdot = b[1] == '.' && !b[2];
      if (adotdot || bdotdot)
        return bdotdot - adotdot;
    }

  size_t alen = strlen (a), blen = strlen (b);
  size_t apre = version_prefix_len (a, alen);
  size_t bpre = version_prefix_len (b, blen);
  int diff = version_parts_cmp (a, apre, b, bpre);
  if (diff || (apre == alen && bpre == blen))
    return diff;
  return version_parts_cmp (a, alen, b, blen);
}

/** The extension used by -X: from the last '.' on, or "" if none.  */
static char const *
extension_of (char const *name)
{
  char const *dot = strrchr (name, '.');
  return dot ? dot : "";
}

/** The string of F that name comparisons compare: its name, or with
    EXT its extension (-X).  */
static char const *
compared_string (struct fileinfo const *f, bool ext)
{
  return ext ? extension_of (f->name) : f->name;
}

/** Compare the names of files A and B (with EXT their extensions) as
    name_cmp does, deciding by their keys KA and KB (made here if not
    yet made) where the keys can tell.  The files themselves are read
    only when a key is made or cannot tell.  Identical strings (the
    extensions of -X, a repeated operand) compare equal without strcoll:
    strcoll (s, s) is 0.  */
static int
keyed_cmp (struct collkey *ka, struct fileinfo const *a,
           struct collkey *kb, struct fileinfo const *b, bool ext)
{
  bool keys = order.keys && !order.use_strcmp && !order.strcoll_failed;

  if (keys)
    {
      if (!ka->made)
        collkey_make (ka, compared_string (a, ext));
      if (!kb->made)
        collkey_make (kb, compared_string (b, ext));
      int diff = collkey_cmp (ka, kb);
      if (diff)
        return diff;
    }

  char const *sa = compared_string (a, ext);
  char const *sb = compared_string (b, ext);
  return keys && strcmp (sa, sb) == 0 ? 0 : name_cmp (sa, sb);
}

/** Compare the names of entries A and B like name_cmp.  */
static int
entry_name_cmp (struct sort_entry *a, struct sort_entry *b)
{
  return keyed_cmp (&a->key, a->f, &b->key, b->f, false);
}

/** Compare the extensions (-X) of entries A and B like name_cmp.  */
static int
entry_ext_cmp (struct sort_entry *a, struct sort_entry *b)
{
  return keyed_cmp (&ext_keys[a - entries], a->f,
                    &ext_keys[b - entries], b->f, true);
}

/** Compare entries A and B by the sort key alone, ascending in the sense
    GNU ls lists them without -r (newest and largest first for -t and
    -S).  */
static int
key_cmp (struct sort_entry *ea, struct sort_entry *eb)
{
  struct fileinfo *a = ea->f;
  struct fileinfo *b = eb->f;
  int diff;

  switch (order.key)
    {
    case sort_extension:
      diff = entry_ext_cmp (ea, eb);
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
      /* Version order is locale-independent: its tie-break is strcmp.  */
      diff = version_cmp (a->name, b->name);
      return diff ? diff : strcmp (a->name, b->name);

    case sort_time:
      diff = timespec_cmp (sort_time_of (b), sort_time_of (a));
      break;

    case sort_name:
    default:
      diff = 0;
      break;
    }

  return diff ? diff : entry_name_cmp (ea, eb);
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
  struct sort_entry *a = (struct sort_entry *) pa;
  struct sort_entry *b = (struct sort_entry *) pb;

  if (order.dirs_first)
    {
      int diff = groups_as_directory (b->f) - groups_as_directory (a->f);
      if (diff)
        return diff;
    }

  return order.reverse ? key_cmp (b, a) : key_cmp (a, b);
}

/** Make room for the sort entries (and with -X the extension keys) of
    N files, and make the entries point at V's files, keys not made.  */
static void
prepare_entries (struct fileinfo **v, size_t n)
{
  if (entries_alloc < n)
    {
      free (entries);
      entries = xnmalloc (n, sizeof *entries);
      entries_alloc = n;
    }
  for (size_t i = 0; i < n; i++)
    {
      entries[i].key.made = false;
      entries[i].f = v[i];
    }

  if (order.key == sort_extension)
    {
      if (ext_keys_alloc < n)
        {
          free (ext_keys);
          ext_keys = xnmalloc (n, sizeof *ext_keys);
          ext_keys_alloc = n;
        }
      for (size_t i = 0; i < n; i++)
        ext_keys[i].made = false;
    }
}

/** Run mpsort over the N entries, from their original order.  */
static void
sort_entries (size_t n)
{
  for (size_t i = 0; i < n; i++)
    sortbuf[i] = &entries[i];
  mpsort (sortbuf, n, file_cmp);
}

/** Whether this sort compares collation keys, and of which kind.  */
static enum collkey_kind
sort_key_kind (size_t n)
{
  if (order.key == sort_version)
    return COLLKEY_NONE;	/* no strcoll at all */
  enum collkey_kind k = collkey_locale_kind ();
  if (k == COLLKEY_LEVEL1 && n < SORT_KEYS_MIN)
    return COLLKEY_NONE;
  return k;
}

/** Sort the N files of V in place according to the sort options.  */
void
sort_files (struct fileinfo **v, size_t n)
{
  if (sort_type == sort_none || n < 2)
    return;

  /* Layout of SORTBUF: [0, n) sorted in place, [n, n + n/2) mpsort's
     scratch space.  */
  size_t need = n + n / 2 + 1;
  if (sortbuf_alloc < need)
    {
      free (sortbuf);
      sortbuf = xnmalloc (need, sizeof *sortbuf);
      sortbuf_alloc = need;
    }

  order.key = sort_type;
  order.time = time_type;
  order.reverse = sort_reverse;
  order.dirs_first = directories_first;
  order.use_strcmp = false;
  order.strcoll_failed = false;
  enum collkey_kind kind = sort_key_kind (n);
  order.keys = kind != COLLKEY_NONE;
  collkey_start (kind);
  prepare_entries (v, n);

  sort_entries (n);

  if (order.strcoll_failed)
    {
      /* Start over from the unsorted order, comparing bytes only.  */
      order.use_strcmp = true;
      sort_entries (n);
    }

  for (size_t i = 0; i < n; i++)
    v[i] = ((struct sort_entry const *) sortbuf[i])->f;
}
