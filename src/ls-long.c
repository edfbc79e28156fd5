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

/** Columns a user or group column takes: NAME's width, or the digits of
    ID when there is no name.  */
static int
id_width (char const *name, uintmax_t id)
{
  if (name)
    return mbswidth (name, 0);
  char buf[INT_BUFSIZE_BOUND (uintmax_t)];
  return snprintf (buf, sizeof buf, "%ju", id);
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
  char buf[INT_BUFSIZE_BOUND (uintmax_t)];
  return snprintf (buf, sizeof buf, "%ju", n);
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
    not widen anything (GNU's gobble_file returns before measuring
    them); call this for every file of the listing all the same.  */
void
long_widths_update (struct fileinfo const *f)
{
  if (!f->stat_ok)
    {
      /* A context is at least one byte ("?"), so counting it is
         harmless, and files that need no stat still have one.  */
      if (print_scontext && f->scontext)
        widen (&widths.scontext, strlen (f->scontext));
      return;
    }

  if (format == long_format || print_scontext)
    any_has_acl |= f->acl_type != ACL_T_NONE;

  if (format == long_format || print_block_size)
    {
      char buf[LONGEST_HUMAN_READABLE + 1];
      widen (&widths.block_size, mbswidth (format_blocks (f->stat.st_blocks,
                                                          buf), 0));
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
                 mbswidth (human_readable (size_of (f), buf,
                                           file_human_output_opts, 1,
                                           file_output_block_size), 0));
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
  return human_readable (blocks, buf, human_output_opts, STAT_BLOCK_SIZE,
                         output_block_size);
}

/** Append to *P the string S right-aligned in WIDTH columns (by its
    display width) and a space.  */
static void
put_padded (char **p, char const *s, int width)
{
  int w = mbswidth (s, 0);
  for (int pad = width - w; 0 < pad; pad--)
    *(*p)++ = ' ';
  size_t n = strlen (s);
  memcpy (*p, s, n);
  *p += n;
  *(*p)++ = ' ';
}

/** Print a user, group or context column: NAME left-aligned in WIDTH
    columns, or ID right-aligned when NAME is NULL; then a space.  */
static void
put_id (char const *name, uintmax_t id, int width)
{
  if (name)
    {
      int pad = width - mbswidth (name, 0);
      out_str (name);
      out_spaces (pad < 0 ? 1 : (size_t) pad + 1);
    }
  else
    {
      char buf[INT_BUFSIZE_BOUND (uintmax_t) + 64];
      int n = snprintf (buf, sizeof buf, "%*ju ", width, id);
      out_bytes (buf, n);
    }
}

/** Print the long-format line of F (without the end-of-line byte).  */
void
print_long_format (struct fileinfo *f)
{
  char mode[12];
  char buf[2 * (LONGEST_HUMAN_READABLE + 1) + sizeof mode
           + 3 * INT_BUFSIZE_BOUND (uintmax_t) + LONGEST_HUMAN_READABLE + 4
           + LS_TIME_BUFSIZE + 1];
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
      char const *ino = "?";
      if (f->stat_ok && f->stat.st_ino != 0)
        {
          snprintf (num, sizeof num, "%ju", (uintmax_t) f->stat.st_ino);
          ino = num;
        }
      p += sprintf (p, "%*s ", widths.inode, ino);
    }

  if (print_block_size)
    put_padded (&p, (f->stat_ok ? format_blocks (f->stat.st_blocks, num)
                     : "?"), widths.block_size);

  p += sprintf (p, "%s ", mode);
  if (f->stat_ok)
    snprintf (num, sizeof num, "%ju", (uintmax_t) f->stat.st_nlink);
  else
    strcpy (num, "?");
  p += sprintf (p, "%*s ", widths.nlink, num);

  dired_indent ();

  if (print_owner || print_group || print_author || print_scontext)
    {
      out_bytes (buf, p - buf);
      p = buf;
      if (print_owner)
        put_id (f->stat_ok ? user_name (f->stat.st_uid) : "?",
                f->stat.st_uid, widths.owner);
      if (print_group)
        put_id (f->stat_ok ? group_name (f->stat.st_gid) : "?",
                f->stat.st_gid, widths.group);
      if (print_author)
        put_id (f->stat_ok ? user_name (f->stat.st_uid) : "?",
                f->stat.st_uid, widths.author);
      if (print_scontext)
        put_id (f->scontext ? f->scontext : "?", 0, widths.scontext);
    }

  if (f->stat_ok && (S_ISCHR (f->stat.st_mode) || S_ISBLK (f->stat.st_mode)))
    {
      int blanks = widths.file_size - (widths.major + 2 + widths.minor);
      p += sprintf (p, "%*ju, %*ju ",
                    widths.major + (blanks < 0 ? 0 : blanks),
                    (uintmax_t) major (f->stat.st_rdev),
                    widths.minor, (uintmax_t) minor (f->stat.st_rdev));
    }
  else
    put_padded (&p, (f->stat_ok
                     ? human_readable (size_of (f), num,
                                       file_human_output_opts, 1,
                                       file_output_block_size)
                     : "?"), widths.file_size);

  p += format_file_time (f, p, LS_TIME_BUFSIZE);
  *p++ = ' ';

  out_bytes (buf, p - buf);
  size_t col = p - buf;
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
