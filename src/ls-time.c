/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ls-time.c -- timestamps in lsplus's ls long format: --time-style,
   TIME_STYLE, --full-time, the six-month rule, birth times, and the
   fallbacks GNU ls 9.1 uses when a time cannot be shown.  */

#include <config.h>

#include <langinfo.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wchar.h>
#include <wctype.h>

#include "argmatch.h"
#include "c-ctype.h"
#include "error.h"
#include "hard-locale.h"
#include "intprops.h"
#include "mbswidth.h"
#include "progname.h"
#include "quote.h"
#include "stat-time.h"
#include "strftime.h"
#include "timespec.h"
#include "xalloc.h"

#include "ls.h"

/* The time zone of TZ, allocated on first use.  */
static timezone_t local_tz;
static bool local_tz_ready;

/* The clock, read lazily: it starts lower than any timestamp, so the
   first file checked reads it, and it is read again whenever a file
   looks newer than it (it may have been touched meanwhile).  */
static struct timespec now = { .tv_sec = TYPE_MINIMUM (time_t),
                               .tv_nsec = -1 };

/* The spellings --time-style accepts (besides +FORMAT), in GNU's order,
   which the diagnostic lists.  */
static char const *const style_names[] =
{
  "full-iso", "long-iso", "iso", "locale", NULL
};
enum style { STYLE_FULL_ISO, STYLE_LONG_ISO, STYLE_ISO, STYLE_LOCALE };
static enum style const style_values[] =
{
  STYLE_FULL_ISO, STYLE_LONG_ISO, STYLE_ISO, STYLE_LOCALE
};

/* Per-month copies of the two formats with the first plain "%b"
   replaced by the month's abbreviation padded to the widest one, so
   that columns line up in locales with month names of several widths.
   Used only when every piece fitted (month_formats_ok).  */
enum { MONTH_FORMAT_SIZE = 128 };
static char month_formats[2][12][MONTH_FORMAT_SIZE];
static bool month_formats_ok;

/** Return the time zone named by TZ (or the system default).  */
static timezone_t
tz (void)
{
  if (!local_tz_ready)
    {
      local_tz = tzalloc (getenv ("TZ"));
      local_tz_ready = true;
    }
  return local_tz;
}

/** Return a pointer to the first "%b" of FMT that has no flags or
    width, skipping "%%"; NULL if there is none.  */
static char const *
find_plain_month (char const *fmt)
{
  for (char const *p = fmt; *p; p++)
    if (*p == '%')
      {
        if (p[1] == 'b')
          return p;
        if (p[1] == '%')
          p++;
      }
  return NULL;
}

/** Store in *WIDTH the columns of the month abbreviation NAME, and in
    OUT (MONTH_FORMAT_SIZE bytes) NAME as it is shown: in a multibyte
    locale an unprintable character becomes U+FFFD (one column); in a
    unibyte locale each byte is one column.  Return false if NAME is not
    a valid multibyte string or does not fit.  */
static bool
measure_month_name (char const *name, char out[MONTH_FORMAT_SIZE],
                    size_t *width)
{
  size_t len = strlen (name);
  if (MONTH_FORMAT_SIZE <= len)
    return false;
  memcpy (out, name, len + 1);
  *width = len;
  if (MB_CUR_MAX <= 1)
    return true;

  wchar_t wc[MONTH_FORMAT_SIZE];
  size_t n = mbstowcs (wc, name, MONTH_FORMAT_SIZE);
  if (n == (size_t) -1 || MONTH_FORMAT_SIZE <= n)
    return false;
  bool changed = false;
  for (size_t i = 0; i < n; i++)
    if (!iswprint (wc[i]) || wcwidth (wc[i]) < 0)
      {
        wc[i] = 0xFFFD;
        changed = true;
      }
  if (changed)
    {
      len = wcstombs (out, wc, MONTH_FORMAT_SIZE);
      if (len == (size_t) -1 || MONTH_FORMAT_SIZE <= len)
        return false;
    }
  *width = wcswidth (wc, n);
  return true;
}

/** Fill MON with the twelve abbreviated month names of the locale
    (LC_TIME), padded with spaces to the widest of them: on the right of
    names, on the left of numeric ones.  Widths are those of LC_CTYPE
    (bytes in a unibyte locale).  Return false if a name is unusable
    (contains '%', is not a valid multibyte string, or is too long).  */
static bool
load_month_names (char mon[12][MONTH_FORMAT_SIZE])
{
  size_t width[12], widest = 0;

  for (int i = 0; i < 12; i++)
    {
      char const *name = nl_langinfo (ABMON_1 + i);
      if (strchr (name, '%') || !measure_month_name (name, mon[i], &width[i]))
        return false;
      if (widest < width[i])
        widest = width[i];
    }

  for (int i = 0; i < 12; i++)
    {
      size_t len = strlen (mon[i]);
      size_t pad = widest - width[i];
      if (MONTH_FORMAT_SIZE <= len + pad)
        return false;
      if (c_isdigit (mon[i][0]))
        {
          memmove (mon[i] + pad, mon[i], len);
          memset (mon[i], ' ', pad);
        }
      else
        memset (mon[i] + len, ' ', pad);
      mon[i][len + pad] = '\0';
    }
  return true;
}

/** Precompute month_formats from long_time_format.  */
static void
prepare_month_formats (void)
{
  char const *at[2];
  char mon[12][MONTH_FORMAT_SIZE];

  month_formats_ok = false;
  for (int r = 0; r < 2; r++)
    at[r] = find_plain_month (long_time_format[r]);
  if (!at[0] && !at[1])
    return;
  if (!load_month_names (mon))
    return;

  for (int r = 0; r < 2; r++)
    for (int m = 0; m < 12; m++)
      {
        char const *fmt = long_time_format[r];
        int n;
        if (!at[r])
          n = snprintf (month_formats[r][m], MONTH_FORMAT_SIZE, "%s", fmt);
        else
          {
            size_t head = at[r] - fmt;
            if (MONTH_FORMAT_SIZE < head)
              return;
            n = snprintf (month_formats[r][m], MONTH_FORMAT_SIZE,
                          "%.*s%s%s", (int) head, fmt, mon[m], at[r] + 2);
          }
        if (n < 0 || MONTH_FORMAT_SIZE <= n)
          return;
      }
  month_formats_ok = true;
}

/** Report the bad time style STYLE (PROBLEM from argmatch) the way GNU
    ls does, and exit.  */
static _Noreturn void
bad_style (char const *style, ptrdiff_t problem)
{
  argmatch_invalid ("time style", style, problem);
  fputs (_("Valid arguments are:\n"), stderr);
  for (char const *const *p = style_names; *p; p++)
    fprintf (stderr, "  - [posix-]%s\n", *p);
  fputs (_("  - +FORMAT (e.g., +%H:%M) for a 'date'-style format\n"),
         stderr);
  fprintf (stderr, _("Try '%s --help' for more information.\n"),
           program_name);
  exit (LS_FAILURE);
}

/** Set long_time_format from STYLE (the --time-style or --full-time
    argument, or NULL to use TIME_STYLE or "locale").  Call only for the
    long format.  Exits with GNU's diagnostics on a bad style.  */
void
time_style_init (char const *style)
{
  static char const posix[] = "posix-";

  if (!long_time_format[0])
    long_time_format[0] = "%b %e  %Y";
  if (!long_time_format[1])
    long_time_format[1] = "%b %e %H:%M";

  if (!style)
    {
      style = getenv ("TIME_STYLE");
      if (!style)
        style = "locale";
    }

  /* "posix-STYLE" means STYLE, except that in the C/POSIX locale it
     means the POSIX default whatever STYLE is.  */
  while (strncmp (style, posix, sizeof posix - 1) == 0)
    {
      if (!hard_locale (LC_TIME))
        return;
      style += sizeof posix - 1;
    }

  if (*style == '+')
    {
      char *old = xstrdup (style + 1);
      char *nl = strchr (old, '\n');
      char const *recent = old;
      if (nl)
        {
          if (strchr (nl + 1, '\n'))
            error (LS_FAILURE, 0, _("invalid time style format %s"),
                   quote (style + 1));
          *nl = '\0';
          recent = nl + 1;
        }
      long_time_format[0] = old;
      long_time_format[1] = recent;
    }
  else
    {
      ptrdiff_t i = argmatch (style, style_names, (char const *) style_values,
                              sizeof *style_values);
      if (i < 0)
        bad_style (style, i);
      switch (style_values[i])
        {
        case STYLE_FULL_ISO:
          long_time_format[0] = long_time_format[1]
            = "%Y-%m-%d %H:%M:%S.%N %z";
          break;
        case STYLE_LONG_ISO:
          long_time_format[0] = long_time_format[1] = "%Y-%m-%d %H:%M";
          break;
        case STYLE_ISO:
          long_time_format[0] = "%Y-%m-%d ";
          long_time_format[1] = "%m-%d %H:%M";
          break;
        case STYLE_LOCALE:
          if (hard_locale (LC_TIME))
            for (int r = 0; r < 2; r++)
              long_time_format[r] = dcgettext (NULL, long_time_format[r],
                                               LC_TIME);
          break;
        }
    }

  prepare_month_formats ();
}

/** Store in *TS the timestamp of F selected by time_type and return
    true; if it is unknown (no birth time), store {-1, -1} (what GNU ls
    sorts such files by) and return false.  */
bool
file_time (struct fileinfo const *f, struct timespec *ts)
{
  switch (time_type)
    {
    case time_ctime:
      *ts = get_stat_ctime (&f->stat);
      return true;
    case time_atime:
      *ts = get_stat_atime (&f->stat);
      return true;
    case time_btime:
      /* Gathering stored it in st_mtim; {-1, -1} means unknown.  */
      *ts = get_stat_mtime (&f->stat);
      return ! (ts->tv_sec == -1 && ts->tv_nsec == -1);
    case time_mtime:
    default:
      *ts = get_stat_mtime (&f->stat);
      return true;
    }
}

/** Format TM with the old (RECENT false) or recent format into BUF of
    SIZE bytes; NS is the nanoseconds for %N.  */
static size_t
strftime_for (char *buf, size_t size, bool recent, struct tm const *tm,
              int ns)
{
  char const *fmt = (month_formats_ok ? month_formats[recent][tm->tm_mon]
                     : long_time_format[recent]);
  return nstrftime (buf, size, fmt, tm, tz (), ns);
}

/** Columns an old timestamp takes (the Epoch formatted), used to pad
    the raw-number fallback; 0 if unknown.  */
static int
expected_time_width (void)
{
  static int width = -1;
  if (width < 0)
    {
      time_t epoch = 0;
      struct tm tm;
      char buf[LS_TIME_BUFSIZE];
      width = 0;
      if (localtime_rz (tz (), &epoch, &tm))
        {
          size_t n = strftime_for (buf, sizeof buf, false, &tm, 0);
          if (n)
            {
              int w = mbsnwidth (buf, n, 0);
              width = w < 0 ? 0 : w;
            }
        }
    }
  return width;
}

/* The last conversion to local time (the result depends on the
   seconds only: the time zone never changes while ls runs).  */
static time_t last_local_sec;
static struct tm last_local_tm;
static bool last_local_ok;

/** localtime_rz in the local zone, remembering the last answer (files
    of a directory often share their timestamps' seconds).  */
static bool
local_time (time_t t, struct tm *tm)
{
  if (! (last_local_ok && last_local_sec == t))
    {
      if (!localtime_rz (tz (), &t, &last_local_tm))
        return false;
      last_local_sec = t;
      last_local_ok = true;
    }
  *tm = last_local_tm;
  return true;
}

/* The last formatted timestamp, per format (old, recent): its text is
   a function of the seconds (and the nanoseconds, if the format has
   %N), so it is reused for the next file with the same time.  */
struct time_text
{
  bool ok;
  time_t sec;
  long nsec;
  size_t len;
  char text[128];
};
static struct time_text last_text[2];

/** Format F's time for the long format into BUF (of SIZE bytes, at
    least LS_TIME_BUFSIZE) without the following space, and return its
    length.  When the time is unknown or cannot be converted, write "?"
    or the number of seconds, right-aligned to the usual width.  */
size_t
format_file_time (struct fileinfo const *f, char *buf, size_t size)
{
  struct timespec when;
  struct tm tm;
  bool known = file_time (f, &when);
  size_t n = 0;

  if (!long_time_format[0])
    time_style_init (NULL);

  /* nstrftime returns 0 both for an empty result and for a failure;
     a non-NUL first byte tells them apart.  */
  buf[0] = '\1';
  if (f->stat_ok && known && local_time (when.tv_sec, &tm))
    {
      if (timespec_cmp (now, when) < 0)
        gettime (&now);

      /* Recent: newer than half an average Gregorian year
         (365.2425 days) ago and not in the future.  */
      struct timespec half_year_ago = { .tv_sec = now.tv_sec - 31556952 / 2,
                                        .tv_nsec = now.tv_nsec };
      bool recent = (timespec_cmp (half_year_ago, when) < 0
                     && timespec_cmp (when, now) < 0);

      struct time_text *c = &last_text[recent];
      bool uses_ns = (!long_time_format[recent]
                      || strchr (long_time_format[recent], 'N'));
      if (c->ok && c->sec == when.tv_sec
          && (!uses_ns || c->nsec == when.tv_nsec) && c->len < size)
        {
          memcpy (buf, c->text, c->len + 1);
          return c->len;
        }
      n = strftime_for (buf, size, recent, &tm, when.tv_nsec);
      c->ok = 0 < n && n < sizeof c->text;
      if (c->ok)
        {
          c->sec = when.tv_sec;
          c->nsec = when.tv_nsec;
          c->len = n;
          memcpy (c->text, buf, n + 1);
        }
    }

  if (n || !buf[0])
    return n;

  char num[INT_BUFSIZE_BOUND (intmax_t)];
  if (f->stat_ok && known)
    snprintf (num, sizeof num, "%jd", (intmax_t) when.tv_sec);
  else
    strcpy (num, "?");
  int len = snprintf (buf, size, "%*s", expected_time_width (), num);
  return len < 0 ? 0 : (size_t) len < size ? (size_t) len : size - 1;
}

/** Nothing to do: the clock is read when the first timestamp needs it,
    as GNU ls does.  Kept for callers.  */
void
time_init (void)
{
}
