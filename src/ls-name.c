/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ls-name.c -- printing file names for lsplus ls: quoting styles, -q,
   screen widths, type indicators (-F -p --file-type), hyperlinks, and the
   "frills" (-i -s -Z) of the short formats.

   Behaviour follows GNU ls 9.1: a name is first quoted with gnulib's
   quotearg in the selected style; then, with -q and a style that can
   leave control characters raw (literal, shell, shell-always), each
   non-printable character is replaced by '?'.  With the shell-escape-like
   styles in columns or long format, once any name of a listing needs
   quotes, the names that don't get a leading space so that the names
   line up ("align_variable_outer_quotes").  */

#include <config.h>

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "ls.h"
#include "c-ctype.h"
#include "human.h"
#include "mbswidth.h"
#include "quotearg.h"
#include "xalloc.h"
#include "xgethostname.h"

/* Whether some name of the current listing needs quoting (GNU's
   cwd_some_quoted); set by name_check_quoting.  */
static bool some_quoted;

/* Bytes that quoting leaves alone wherever they are in a name, for
   the file-name and the directory-name quoting options: a name made
   only of them is printed as is (see plain_name).  Found out by asking
   quotearg itself, in name_init.  */
static bool plain_file_byte[256];
static bool plain_dir_byte[256];

/* For --hyperlink: the host name, and the bytes that need no %-escape.  */
static char const *hostname;
static bool uri_unreserved[256];

/** Fill PLAIN[C] for the bytes C that OPTIONS never change: only
   printable ASCII candidates, each tried alone, doubled, and between
   and beside other letters (quoting in these styles does not depend on
   anything wider than that; '#', '~' and '?' are context-dependent and
   never candidates).  */
static void
find_plain_bytes (bool *plain, struct quoting_options const *options)
{
  static char const candidates[] =
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    "._-+,/:=@%^";
  for (char const *c = candidates; *c; c++)
    {
      char tries[5][4] = { { *c }, { *c, *c }, { 'a', *c },
                           { *c, 'a' }, { 'a', *c, 'a' } };
      bool ok = true;
      for (int i = 0; ok && i < 5; i++)
        {
          char out[16];
          size_t len = strlen (tries[i]);
          ok = (quotearg_buffer (out, sizeof out, tries[i], len, options)
                == len && memcmp (out, tries[i], len) == 0);
        }
      plain[(unsigned char) *c] = ok;
    }
}

/** Is NAME (not empty) made only of bytes that PLAIN says quoting leaves
   alone?  Then store its length in *LEN.  */
static bool
plain_name (char const *name, bool const *plain, size_t *len)
{
  char const *p = name;
  for (; *p; p++)
    if (!plain[(unsigned char) *p])
      return false;
  *len = p - name;
  return p != name;
}

/** Finish the quoting options after option parsing (see ls.h) and
   prepare --hyperlink.  */
void
name_init (void)
{
  if (!filename_quoting_options)
    filename_quoting_options = clone_quoting_options (NULL);
  enum quoting_style qs = get_quoting_style (filename_quoting_options);

  align_variable_outer_quotes
    = ((format == long_format
        || ((format == many_per_line || format == horizontal) && line_length))
       && (qs == shell_quoting_style
           || qs == shell_escape_quoting_style
           || qs == c_maybe_quoting_style));

  /* -b escapes spaces too; indicator characters must not be mistaken
     for part of the name.  */
  if (qs == escape_quoting_style)
    set_char_quoting (filename_quoting_options, ' ', 1);
  if (file_type <= indicator_style)
    for (char const *p = &"*=>@|"[indicator_style - file_type]; *p; p++)
      set_char_quoting (filename_quoting_options, *p, 1);

  if (!dirname_quoting_options)
    dirname_quoting_options = clone_quoting_options (NULL);
  set_char_quoting (dirname_quoting_options, ':', 1);

  find_plain_bytes (plain_file_byte, filename_quoting_options);
  find_plain_bytes (plain_dir_byte, dirname_quoting_options);

  if (print_hyperlink)
    {
      for (int i = 0; i < 256; i++)
        uri_unreserved[i] = (c_isalnum (i) || i == '~' || i == '-'
                             || i == '.' || i == '_');
      hostname = xgethostname ();
      if (!hostname)
        hostname = "";
    }
}

/** Would quoting change NAME?  (GNU's needs_quoting.)  */
static bool
needs_quoting (char const *name)
{
  char test[2];
  size_t len;
  if (plain_name (name, plain_file_byte, &len))
    return false;
  len = quotearg_buffer (test, sizeof test, name, -1,
                         filename_quoting_options);
  return *name != *test || strlen (name) != len;
}

/* A name that was looked at but did not make it into the listing (a
   command-line operand that could not be accessed) needed quotes.  */
static bool pending_quoted;

/** GNU decides on the alignment space while gathering, before it knows
   whether a file can be accessed, so an operand that fails still counts:
   call this for such an operand, before name_check_quoting.  */
void
name_note_failed_operand (char const *name)
{
  if (align_variable_outer_quotes && !pending_quoted && needs_quoting (name))
    pending_quoted = true;
}

/** Decide, for the files V[0..N-1] of one listing, whether names that
   need no quotes get an alignment space.  Call it for each listing before
   widths are needed (sorting by width, column layout) and before printing;
   for command-line operands, over all of them before the directories are
   taken out.  Also forgets cached widths.  */
void
name_check_quoting (struct fileinfo **v, size_t n)
{
  some_quoted = pending_quoted;
  pending_quoted = false;
  for (size_t i = 0; i < n; i++)
    {
      v[i]->width = 0;
      if (align_variable_outer_quotes && !some_quoted
          && needs_quoting (v[i]->name))
        some_quoted = true;
    }
}

/** Replace, in the N bytes at BUF, each non-printable character by '?'
   (a whole multibyte character by one '?', an invalid byte by one '?').
   Returns the new length; stores the screen width in *WIDTH.  */
static size_t
qmark_replace (char *buf, size_t n, size_t *width)
{
  size_t w = 0;

  if (MB_CUR_MAX == 1)
    {
      for (size_t i = 0; i < n; i++)
        if (!isprint ((unsigned char) buf[i]))
          buf[i] = '?';
      *width = n;
      return n;
    }

  char const *p = buf;
  char const *lim = buf + n;
  char *q = buf;
  while (p < lim)
    {
      unsigned char c = *p;
      if (c < 0x80 && c_isprint (c))
        {
          *q++ = *p++;
          w++;
          continue;
        }
      mbstate_t st;
      memset (&st, 0, sizeof st);
      do
        {
          wchar_t wc;
          size_t bytes = mbrtowc (&wc, p, lim - p, &st);
          if (bytes == (size_t) -1)
            {
              p++;
              *q++ = '?';
              w++;
              break;
            }
          if (bytes == (size_t) -2)
            {
              p = lim;
              *q++ = '?';
              w++;
              break;
            }
          if (bytes == 0)
            bytes = 1;
          int cw = wcwidth (wc);
          if (cw >= 0)
            {
              memmove (q, p, bytes);
              q += bytes;
              p += bytes;
              w += cw;
            }
          else
            {
              p += bytes;
              *q++ = '?';
              w++;
            }
        }
      while (!mbsinit (&st));
    }
  *width = w;
  return q - buf;
}

/** Screen width of the N bytes at BUF printed raw.  */
static size_t
raw_width (char const *buf, size_t n)
{
  if (MB_CUR_MAX > 1)
    {
      int w = mbsnwidth (buf, n, 0);
      return w < 0 ? 0 : w;
    }
  size_t w = 0;
  for (size_t i = 0; i < n; i++)
    w += isprint ((unsigned char) buf[i]) != 0;
  return w;
}

/* A quoted name: bytes, length, screen width, whether quoting changed
   it, and whether it gets the alignment space.  */
struct qname
{
  char *buf;
  size_t len;
  size_t width;
  bool pad;
  bool borrowed;		/* BUF is the name itself */
  char small[256];
};

/** Quote NAME with OPTIONS into Q (GNU's quote_name_buf).  Free with
   qname_free.  */
static void
quote_into (struct qname *q, char const *name,
            struct quoting_options const *options)
{
  enum quoting_style qs = get_quoting_style (options);
  bool qmark = (qmark_funny_chars
                && (qs == shell_quoting_style
                    || qs == shell_always_quoting_style
                    || qs == literal_quoting_style));

  /* The common case: nothing to quote, nothing to replace.  */
  bool const *plain = (options == filename_quoting_options ? plain_file_byte
                       : options == dirname_quoting_options ? plain_dir_byte
                       : NULL);
  size_t len;
  if (plain && plain_name (name, plain, &len))
    {
      q->buf = (char *) name;
      q->borrowed = true;
      q->len = q->width = len;
      q->pad = align_variable_outer_quotes && some_quoted;
      return;
    }
  q->borrowed = false;

  len = quotearg_buffer (q->small, sizeof q->small, name, -1, options);
  q->buf = q->small;
  if (sizeof q->small <= len)
    {
      q->buf = xmalloc (len + 1);
      quotearg_buffer (q->buf, len + 1, name, -1, options);
    }
  bool quoted = *name != *q->buf || strlen (name) != len;

  if (qmark)
    len = qmark_replace (q->buf, len, &q->width);
  else
    q->width = raw_width (q->buf, len);
  q->len = len;

  q->pad = align_variable_outer_quotes && some_quoted && !quoted;
}

/** Release what quote_into allocated.  */
static void
qname_free (struct qname *q)
{
  if (q->buf != q->small && !q->borrowed)
    free (q->buf);
}

/** Screen width of F's quoted name, including the alignment space;
   cached in F->width.  */
size_t
name_width (struct fileinfo *f)
{
  if (f->width)
    return f->width;
  struct qname q;
  quote_into (&q, f->name, filename_quoting_options);
  qname_free (&q);
  f->width = q.width + q.pad;
  return f->width;
}

/** Write the N bytes at S without counting them for --dired.  */
static void
out_uncounted (char const *s, size_t n)
{
  off_t pos = dired_pos;
  out_bytes (s, n);
  dired_pos = pos;
}

/** Write STR %-escaped for a file:// URI; if PATH, '/' stays as is.  */
static void
out_uri_escaped (char const *str, bool path)
{
  static char const hex[] = "0123456789abcdef";
  for (; *str; str++)
    {
      unsigned char c = *str;
      if ((path && c == '/') || uri_unreserved[c])
        out_uncounted (str, 1);
      else
        {
          char e[3] = { '%', hex[c >> 4], hex[c & 15] };
          out_uncounted (e, 3);
        }
    }
}

/** Print the quoted name Q: alignment space (if ALLOW_PAD), colour COLOR
   (may be NULL), hyperlink to ABSOLUTE_NAME (may be NULL), the bytes, and
   for --dired the byte span (as a name if DIRED_NAME, as a directory
   header if DIRED_SUBDIR).  Returns bytes + pad, like GNU's quote_name.  */
static size_t
emit_qname (struct qname const *q, void const *color, bool allow_pad,
            char const *absolute_name, bool dired_name, bool dired_subdir)
{
  if (q->pad && allow_pad)
    out_char (' ');

  if (color)
    color_start_seq (color);

  /* When aligning, keep the outer quotes out of the link.  */
  bool skip_quotes = false;
  if (absolute_name)
    {
      if (align_variable_outer_quotes && some_quoted && !q->pad)
        {
          skip_quotes = true;
          out_uncounted (q->buf, 1);
        }
      out_uncounted ("\033]8;;file://", 12);
      out_uri_escaped (hostname, false);
      if (*absolute_name != '/')
        out_uncounted ("/", 1);
      out_uri_escaped (absolute_name, true);
      out_uncounted ("\a", 1);
    }

  off_t start = dired_pos;
  if (skip_quotes)
    {
      out_bytes (q->buf + 1, q->len - 2);
      dired_pos += 2;
    }
  else
    out_bytes (q->buf, q->len);
  if (dired_name)
    dired_add_name (start, dired_pos);
  if (dired_subdir)
    dired_add_subdir (start, dired_pos);

  if (absolute_name)
    {
      out_uncounted ("\033]8;;\a", 6);
      if (skip_quotes)
        out_uncounted (q->buf + q->len - 1, 1);
    }

  return q->len + q->pad;
}

/** See ls.h (GNU's print_name_with_quoting).  */
size_t
print_name_with_quoting (struct fileinfo *f, bool symlink_target,
                         bool dired_name, size_t start_col)
{
  char const *name = symlink_target ? f->linkname : f->name;
  void const *color = (print_with_color
                       ? color_of (f, symlink_target) : NULL);
  bool used_color_here = print_with_color && (color || is_colored (C_NORM));

  struct qname q;
  quote_into (&q, name, filename_quoting_options);
  size_t len = emit_qname (&q, color, !symlink_target, f->absolute_name,
                           dired_name, false);
  qname_free (&q);

  color_process_signals ();
  if (used_color_here)
    {
      color_prep_non_filename_text ();
      /* The name may have wrapped: clear the rest of the line.  */
      if (line_length
          && start_col / line_length != (start_col + len - 1) / line_length)
        color_clear_to_eol ();
    }
  return len;
}

/** Print F's name at column 0 (see print_name_with_quoting).  */
size_t
print_name (struct fileinfo *f)
{
  return print_name_with_quoting (f, false, false, 0);
}

/** The indicator for a file of type TYPE / mode MODE (MODE valid if
   STAT_OK) under the current indicator style, or 0.  */
char
type_indicator_char (struct fileinfo const *f, bool stat_ok, mode_t mode,
                     enum filetype type)
{
  (void) f;
  if (indicator_style == none)
    return 0;
  if (stat_ok ? S_ISREG (mode) : type == normal)
    return (stat_ok && indicator_style == classify
            && (mode & (S_IXUSR | S_IXGRP | S_IXOTH))) ? '*' : 0;
  if (stat_ok ? S_ISDIR (mode) : (type == directory
                                  || type == arg_directory))
    return '/';
  if (indicator_style == slash)
    return 0;
  if (stat_ok ? S_ISLNK (mode) : type == symbolic_link)
    return '@';
  if (stat_ok ? S_ISFIFO (mode) : type == fifo)
    return '|';
  if (stat_ok ? S_ISSOCK (mode) : type == sock)
    return '=';
  return 0;
}

/** Format F's inode number like GNU (or "?") into BUF.  */
static char const *
inode_string (struct fileinfo const *f, char *buf)
{
  if (!(f->stat_ok && f->stat.st_ino != 0))
    return "?";
  sprintf (buf, "%ju", (uintmax_t) f->stat.st_ino);
  return buf;
}

/** Write S right-aligned in WIDTH columns, then a space.  */
static void
out_field (char const *s, size_t width)
{
  size_t len = strlen (s);
  if (len < width)
    out_spaces (width - len);
  out_str (s);
  out_char (' ');
}

/** Print F for -1/-C/-x/-m: "no" colour, inode, blocks, context, name,
   indicator.  START_COL is the output column.  Returns the width printed
   for the name and indicator (GNU's value).  */
size_t
print_file_name_and_frills (struct fileinfo *f, size_t start_col)
{
  char buf[LONGEST_HUMAN_READABLE + 32];
  bool commas = format == with_commas;

  color_set_normal ();

  if (print_inode)
    out_field (inode_string (f, buf), commas ? 0 : widths.inode);
  if (print_block_size)
    out_field (!f->stat_ok ? "?" : format_blocks (f->stat.st_blocks, buf),
               commas ? 0 : widths.block_size);
  if (print_scontext)
    out_field (f->scontext ? f->scontext : "?",
               commas ? 0 : widths.scontext);

  size_t width = print_name_with_quoting (f, false, false, start_col);

  char c = type_indicator_char (f, f->stat_ok, f->stat.st_mode, f->filetype);
  if (c)
    {
      out_char (c);
      width++;
    }
  return width;
}

/** The columns print_file_name_and_frills will use for F.  */
size_t
length_of_file_name_and_frills (struct fileinfo *f)
{
  char buf[LONGEST_HUMAN_READABLE + 32];
  bool commas = format == with_commas;
  size_t len = 0;

  if (print_inode)
    len += 1 + (commas
                /* GNU does not trust d_ino: its inode field is 0 when
                   the stat failed, and counts as "0" here.  */
                ? (size_t) snprintf (buf, sizeof buf, "%ju",
                                     (uintmax_t) (f->stat_ok
                                                  ? f->stat.st_ino : 0))
                : (size_t) widths.inode);
  if (print_block_size)
    len += 1 + (commas
                ? strlen (!f->stat_ok ? "?"
                          : format_blocks (f->stat.st_blocks, buf))
                : (size_t) widths.block_size);
  if (print_scontext)
    len += 1 + (commas ? strlen (f->scontext ? f->scontext : "?")
                : (size_t) widths.scontext);

  len += name_width (f);

  if (type_indicator_char (f, f->stat_ok, f->stat.st_mode, f->filetype))
    len++;
  return len;
}

/** Print the directory header name NAME ("NAME:" without the colon) with
   the directory-name quoting, as a //SUBDIRED// span, hyperlinked to
   ABSOLUTE_NAME if not NULL.  Returns the bytes printed.  */
size_t
print_dir_header_name (char const *name, char const *absolute_name)
{
  struct qname q;
  bool saved = some_quoted;
  /* A header is printed before its listing is known: never padded.  */
  some_quoted = false;
  quote_into (&q, name, dirname_quoting_options);
  size_t len = emit_qname (&q, NULL, true, absolute_name, false, true);
  qname_free (&q);
  some_quoted = saved;
  return len;
}

/** Print NAME with the directory-name quoting (a header without
   hyperlink).  */
size_t
print_dir_name_quoted (char const *name)
{
  return print_dir_header_name (name, NULL);
}
