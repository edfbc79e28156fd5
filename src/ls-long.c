/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ls-long.c -- the long format (-l) of lsplus's ls: mode string, link
   count, owner/group/author, sizes and device numbers, the -i/-s/-Z
   columns, the timestamp and the symlink target, with the column widths
   of GNU ls 9.1.  The widths are also used by the -s/-i/-Z columns of
   the other formats.  */

#include <config.h>

#include <string.h>
#include <sys/sysmacros.h>

#include "filemode.h"
#include "human.h"
#include "idcache.h"
#include "intprops.h"
#include "mbswidth.h"

#include "ls.h"

struct long_widths widths;
bool any_has_acl;

/* File type letters for entries that could not be stat'ed, indexed by
   enum filetype.  */
static char const type_letter[] =
  { '?', 'p', 'c', 'd', 'b', '-', 'l', 's', 'w', 'd' };

/* Blocks in struct stat's st_blocks.  */
enum { STAT_BLOCK_SIZE = 512 };

/** Forget the widths (and the ACL column) of the previous listing.  */
void
long_widths_reset (void)
{
  memset (&widths, 0, sizeof widths);
  any_has_acl = false;
}

static int digits (uintmax_t n);

/** Screen width of S: its length when it is printable ASCII (the usual
    case: numbers, most names), else what mbswidth says.  */
static int
text_width (char const *s)
{
  char const *p = s;
  for (; *p; p++)
    if (! (' ' <= *p && *p <= '~'))
      return mbswidth (s, 0);
  return p - s;
}

/** Columns a user or group column takes: NAME's width, or the digits of
    ID when there is no name.  idcache hands out the same NAME pointer
    for the same id, so the last answer is remembered.  */
static int
id_width (char const *name, uintmax_t id)
{
  static char const *last_name;
  static int last_width;
  if (name)
    {
      if (name != last_name)
        {
          last_width = text_width (name);
          last_name = name;
        }
      return last_width;
    }
  return digits (id);
}

/** The user name to show for U, or NULL for the number.  */
static char const *
user_name (uid_t u)
{
  return numeric_ids ? NULL : getuser (u);
}

/** The group name to show for G, or NULL for the number.  */
static char const *
group_name (gid_t g)
{
  return numeric_ids ? NULL : getgroup (g);
}

/** The size of F as an unsigned number (negative sizes wrap, like
    GNU's unsigned_file_size).  */
static uintmax_t
size_of (struct fileinfo const *f)
{
  return (uintmax_t) f->stat.st_size;
}

/** Digits in N.  */
static int
digits (uintmax_t n)
{
  int d = 1;
  while (10 <= n)
    {
      n /= 10;
      d++;
    }
  return d;
}

/** Write N in decimal so that it ends just before END; return its
    start.  */
static char *
decimal_before (uintmax_t n, char *end)
{
  char *p = end;
  do
    *--p = '0' + n % 10;
  while ((n /= 10) != 0);
  return p;
}

/** human_readable (N, BUF, OPTS, FROM, TO), computed here without
    localeconv and division by powers when the answer is a plain
    integer: no autoscaling, grouping or unit, the block sizes dividing
    one another, rounding up or down.  Otherwise gnulib does it.  BUF
    holds LONGEST_HUMAN_READABLE + 1 bytes.  */
static char *
plain_human (uintmax_t n, char *buf, int opts, uintmax_t from, uintmax_t to)
{
  int rounding = opts & (human_ceiling | human_round_to_nearest
                         | human_floor);
  if (! (opts & (human_group_digits | human_autoscale | human_SI))
      && rounding != human_round_to_nearest && from != 0 && to != 0)
    {
      char *end = buf + LONGEST_HUMAN_READABLE;
      if (to <= from && from % to == 0)
        {
          uintmax_t mult = from / to;
          uintmax_t amt = n * mult;
          if (amt / mult == n)
            {
              *end = '\0';
              return decimal_before (amt, end);
            }
        }
      else if (from < to && to % from == 0)
        {
          uintmax_t div = to / from;
          uintmax_t amt = n / div;
          if (rounding == human_ceiling && n % div != 0)
            amt++;
          *end = '\0';
          return decimal_before (amt, end);
        }
    }
  return human_readable (n, buf, opts, from, to);
}

/** Raise *W to at least N.  */
static void
widen (int *w, int n)
{
  if (*w < n)
    *w = n;
}

/** Widen the columns of the current listing for file F, as GNU's
    gobble_file does.  F's ACL/label state also decides whether the
    listing has the 11th mode character.  Files whose stat failed do
    not widen anything, not even the -Z column for their "?" (GNU's
    gobble_file returns before measuring them, so a -C listing where
    every stat failed counts the context as zero columns wide); call
    this for every file of the listing all the same.  */
void
long_widths_update (struct fileinfo const *f)
{
  if (!f->stat_ok)
    return;

  if (format == long_format || print_scontext)
    any_has_acl |= f->acl_type != ACL_T_NONE;

  if (format == long_format || print_block_size)
    {
      char buf[LONGEST_HUMAN_READABLE + 1];
      widen (&widths.block_size, text_width (format_blocks (f->stat.st_blocks,
                                                            buf)));
    }

  if (format == long_format)
    {
      if (print_owner)
        widen (&widths.owner, id_width (user_name (f->stat.st_uid),
                                        f->stat.st_uid));
      if (print_group)
        widen (&widths.group, id_width (group_name (f->stat.st_gid),
                                        f->stat.st_gid));
      if (print_author)
        widen (&widths.author, id_width (user_name (f->stat.st_uid),
                                         f->stat.st_uid));
    }

  if (print_scontext && f->scontext)
    widen (&widths.scontext, strlen (f->scontext));

  if (format == long_format)
    {
      widen (&widths.nlink, digits (f->stat.st_nlink));
      if (S_ISCHR (f->stat.st_mode) || S_ISBLK (f->stat.st_mode))
        {
          widen (&widths.major, digits (major (f->stat.st_rdev)));
          widen (&widths.minor, digits (minor (f->stat.st_rdev)));
          widen (&widths.file_size, widths.major + 2 + widths.minor);
        }
      else
        {
          char buf[LONGEST_HUMAN_READABLE + 1];
          widen (&widths.file_size,
                 text_width (plain_human (size_of (f), buf,
                                          file_human_output_opts, 1,
                                          file_output_block_size)));
        }
    }

  if (print_inode)
    widen (&widths.inode, digits (f->stat.st_ino));
}

/** Format BLOCKS (in 512-byte units, as st_blocks) for -s / "total"
    with the -s block size options into BUF, which must hold
    LONGEST_HUMAN_READABLE + 1 bytes; return the start of the text
    (somewhere inside BUF).  */
char const *
format_blocks (uintmax_t blocks, char *buf)
{
  return plain_human (blocks, buf, human_output_opts, STAT_BLOCK_SIZE,
                      output_block_size);
}

/** Append to *P the string S right-aligned in WIDTH columns (by its
    display width) and a space.  */
static void
put_padded (char **p, char const *s, int width)
{
  int w = text_width (s);
  for (int pad = width - w; 0 < pad; pad--)
    *(*p)++ = ' ';
  size_t n = strlen (s);
  memcpy (*p, s, n);
  *p += n;
  *(*p)++ = ' ';
}

/* The long-format line is built in one buffer and written in as few
   pieces as possible.  TAIL_ROOM is what the size and time columns
   after the owner/group/context columns may need.  */
enum
{
  TAIL_ROOM = 2 * INT_BUFSIZE_BOUND (uintmax_t) + LONGEST_HUMAN_READABLE
              + 8 + LS_TIME_BUFSIZE + 1,
  LINE_BUFSIZE = 2 * (LONGEST_HUMAN_READABLE + 1) + 12
                 + 3 * INT_BUFSIZE_BOUND (uintmax_t) + 4 + 1024 + TAIL_ROOM
};

/** Append N right-aligned in WIDTH columns and a space at *P.  */
static void
put_number (char **p, uintmax_t n, int width)
{
  char tmp[INT_BUFSIZE_BOUND (uintmax_t)];
  char *end = tmp + sizeof tmp;
  char *d = decimal_before (n, end);
  for (int pad = width - (end - d); 0 < pad; pad--)
    *(*p)++ = ' ';
  memcpy (*p, d, end - d);
  *p += end - d;
  *(*p)++ = ' ';
}

/** Append a user, group or context column at *P in BUF (of
    LINE_BUFSIZE bytes): NAME left-aligned in WIDTH columns, or ID
    right-aligned when NAME is NULL; then a space.  What is already in
    BUF is written out first when the column might not fit with
    TAIL_ROOM to spare.  */
static void
put_id (char *buf, char **p, char const *name, uintmax_t id, int width)
{
  size_t len = name ? strlen (name) : INT_BUFSIZE_BOUND (uintmax_t);
  size_t need = len + (width < 0 ? 0 : width) + 1 + TAIL_ROOM;
  if ((size_t) (buf + LINE_BUFSIZE - *p) < need)
    {
      out_bytes (buf, *p - buf);
      *p = buf;
      if (LINE_BUFSIZE < need)
        {
          /* Too long for the buffer: write it directly.  */
          if (name)
            {
              int pad = width - mbswidth (name, 0);
              out_str (name);
              out_spaces (pad < 0 ? 1 : (size_t) pad + 1);
            }
          else
            {
              char num[INT_BUFSIZE_BOUND (uintmax_t) + 1];
              char *q = num;
              put_number (&q, id, 0);
              out_spaces (width - (q - num - 1) < 0
                          ? 0 : width - (q - num - 1));
              out_bytes (num, q - num);
            }
          return;
        }
    }
  if (name)
    {
      int pad = width - text_width (name);
      memcpy (*p, name, len);
      *p += len;
      do
        *(*p)++ = ' ';
      while (0 < pad--);
    }
  else
    put_number (p, id, width);
}

/** Print the long-format line of F (without the end-of-line byte).  */
void
print_long_format (struct fileinfo *f)
{
  char mode[12];
  char buf[LINE_BUFSIZE];
  char num[LONGEST_HUMAN_READABLE + INT_BUFSIZE_BOUND (uintmax_t)];
  char *p = buf;

  if (f->stat_ok)
    filemodestring (&f->stat, mode);
  else
    {
      mode[0] = type_letter[f->filetype];
      memset (mode + 1, '?', 10);
      mode[11] = '\0';
    }
  if (!any_has_acl)
    mode[10] = '\0';
  else if (f->acl_type == ACL_T_LSM_CONTEXT_ONLY)
    mode[10] = '.';
  else if (f->acl_type == ACL_T_YES)
    mode[10] = '+';

  if (print_inode)
    {
      if (f->stat_ok && f->stat.st_ino != 0)
        put_number (&p, f->stat.st_ino, widths.inode);
      else
        put_padded (&p, "?", widths.inode);
    }

  if (print_block_size)
    put_padded (&p, (f->stat_ok ? format_blocks (f->stat.st_blocks, num)
                     : "?"), widths.block_size);

  size_t modelen = strlen (mode);
  memcpy (p, mode, modelen);
  p += modelen;
  *p++ = ' ';
  if (f->stat_ok)
    put_number (&p, f->stat.st_nlink, widths.nlink);
  else
    put_padded (&p, "?", widths.nlink);

  dired_indent ();

  /* Like GNU, the column passed on for the name counts only what
     follows the owner/group/author/context columns, if any.  */
  char *col_start = buf;
  if (print_owner)
    put_id (buf, &p, f->stat_ok ? user_name (f->stat.st_uid) : "?",
            f->stat.st_uid, widths.owner);
  if (print_group)
    put_id (buf, &p, f->stat_ok ? group_name (f->stat.st_gid) : "?",
            f->stat.st_gid, widths.group);
  if (print_author)
    put_id (buf, &p, f->stat_ok ? user_name (f->stat.st_uid) : "?",
            f->stat.st_uid, widths.author);
  if (print_scontext)
    put_id (buf, &p, f->scontext ? f->scontext : "?", 0, widths.scontext);
  if (print_owner || print_group || print_author || print_scontext)
    col_start = p;

  if (f->stat_ok && (S_ISCHR (f->stat.st_mode) || S_ISBLK (f->stat.st_mode)))
    {
      int blanks = widths.file_size - (widths.major + 2 + widths.minor);
      put_number (&p, major (f->stat.st_rdev),
                  widths.major + (blanks < 0 ? 0 : blanks));
      p[-1] = ',';
      *p++ = ' ';
      put_number (&p, minor (f->stat.st_rdev), widths.minor);
    }
  else
    put_padded (&p, (f->stat_ok
                     ? plain_human (size_of (f), num,
                                    file_human_output_opts, 1,
                                    file_output_block_size)
                     : "?"), widths.file_size);

  p += format_file_time (f, p, LS_TIME_BUFSIZE);
  *p++ = ' ';

  out_bytes (buf, p - buf);
  size_t col = p - col_start;
  size_t w = print_name_with_quoting (f, false, true, col);

  if (f->filetype == symbolic_link)
    {
      if (f->linkname)
        {
          out_str (" -> ");
          print_name_with_quoting (f, true, false, col + w + 4);
          if (indicator_style != none)
            {
              char c = type_indicator_char (f, true, f->linkmode, unknown);
              if (c)
                out_char (c);
            }
        }
    }
  else if (indicator_style != none)
    {
      char c = type_indicator_char (f, f->stat_ok, f->stat.st_mode,
                                    f->filetype);
      if (c)
        out_char (c);
    }
}
