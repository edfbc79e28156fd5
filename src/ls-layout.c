/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ls-layout.c -- arranging the names of one listing on the page, like
   GNU ls 9.1: one per line (-1), in columns (-C), across (-x), separated
   by commas (-m), or in long format (-l, one line per file via
   ls-long.c).

   Column fitting follows GNU's rule exactly: every candidate number of
   columns c (at most line_length / 3, rounded up, and at most the number
   of files) starts with c columns of the minimum width 3; each file widens
   its column to its width plus a 2-space separator (no separator for the
   last column); c is usable if its total stays below line_length, or if
   no file ever widened a column.  The largest usable c wins (1 if none).
   GNU evaluates all candidates at once with a triangular array (so it
   runs out of memory with huge -w values); we test candidates from the
   largest down and stop at the first usable one (for -C, all candidates
   with the same number of rows at once), which gives the same answer
   with memory linear in c.

   Padding between columns uses tabs when tabsize is not 0 (-T, TABSIZE;
   the default is 8), spaces otherwise.  line_length 0 (-w 0) means no
   limit: -C and -x then print everything on one line like -m without
   commas.  */

#include <config.h>

#include <stdint.h>
#include <stdlib.h>

#include "ls.h"

#include "xalloc.h"

/* The narrowest a column can be (a 1-character name and 2 spaces).  */
enum { MIN_COLUMN_WIDTH = 3 };

/* Per-listing scratch: the width of each file's name and frills, and the
   widths of the columns of the layout being tried.  */
static size_t *file_len;
static size_t file_len_alloc;
static size_t *col_width;
static size_t col_width_alloc;

/** Output padding from column FROM to column TO, using tabs where a tab
    stop lies in between and tabs are enabled.  */
static void
indent (size_t from, size_t to)
{
  while (from < to)
    {
      if (tabsize != 0 && to / tabsize > (from + 1) / tabsize)
        {
          out_char ('\t');
          from += tabsize - from % tabsize;
        }
      else
        {
          out_char (' ');
          from++;
        }
    }
}

/** Fill FILE_LEN with the printed width of each of the N files of V.  */
static void
measure_files (struct fileinfo **v, size_t n)
{
  if (file_len_alloc < n)
    {
      free (file_len);
      file_len = xnmalloc (n, sizeof *file_len);
      file_len_alloc = n;
    }
  for (size_t i = 0; i < n; i++)
    file_len[i] = length_of_file_name_and_frills (v[i]);
}

/** Try a layout of COLS columns for N files measured in FILE_LEN, filled
    top to bottom if BY_COLUMNS, else left to right.  Leave the column
    widths (separator included, except for the last column) in COL_WIDTH
    and return whether the layout is usable under GNU's rule.  */
static bool
try_columns (size_t n, size_t cols, bool by_columns)
{
  size_t rows = (n + cols - 1) / cols;
  size_t total = cols * MIN_COLUMN_WIDTH;

  for (size_t c = 0; c < cols; c++)
    col_width[c] = MIN_COLUMN_WIDTH;

  for (size_t i = 0; i < n; i++)
    {
      size_t c = by_columns ? i / rows : i % cols;
      size_t want = file_len[i] + (c == cols - 1 ? 0 : 2);
      if (col_width[c] < want)
        {
          total += want - col_width[c];
          col_width[c] = want;
          if (line_length <= total)
            return false;
        }
    }
  return true;
}

/** -C: the largest usable number of columns, at most MAX_COLS, for the
    N measured files.  All candidates with the same number of rows share
    one arrangement of USED non-empty columns (the others stay empty at
    width 3), so each distinct row count is measured once: the total of
    a candidate c > USED is BASE + 3 * (c - USED), where every used
    column has its separator; for c == USED the last one has none.  */
static size_t
choose_columns_down (size_t n, size_t max_cols)
{
  size_t cols = max_cols;

  while (1 < cols)
    {
      size_t rows = (n + cols - 1) / cols;
      size_t used = (n + rows - 1) / rows;
      size_t base = 0;		/* sum of max (3, width + 2) */
      size_t last = 0;		/* widest name of the last used column */
      bool wide = false;	/* some name wider than 1 outside the last */
      bool hopeless = false;

      for (size_t k = 0; k < used; k++)
        {
          size_t w = 0;
          size_t lim = (k + 1) * rows < n ? (k + 1) * rows : n;
          for (size_t i = k * rows; i < lim; i++)
            if (w < file_len[i])
              w = file_len[i];
          base += w + 2 < MIN_COLUMN_WIDTH ? MIN_COLUMN_WIDTH : w + 2;
          if (k + 1 < used)
            wide |= 1 < w;
          else
            last = w;
          /* Even without the last separator this row count cannot fit.  */
          if (wide && line_length + 2 <= base)
            {
              hopeless = true;
              break;
            }
        }

      if (!hopeless)
        {
          /* Candidates with empty columns: every used column, the last
             one included, has a separator.  Nothing widens iff no name
             is wider than 1.  */
          if (!wide && last <= 1)
            return cols;
          if (used < cols && base < line_length)
            {
              size_t c = used + (line_length - 1 - base) / MIN_COLUMN_WIDTH;
              if (used < c)
                return c < cols ? c : cols;
            }

          /* Exactly USED columns: the last one has no separator.  */
          size_t with_sep = last + 2 < MIN_COLUMN_WIDTH ? MIN_COLUMN_WIDTH
                            : last + 2;
          size_t without = last < MIN_COLUMN_WIDTH ? MIN_COLUMN_WIDTH : last;
          size_t total = base - with_sep + without;
          if ((!wide && last <= MIN_COLUMN_WIDTH) || total < line_length)
            return used;
        }

      cols = used - 1;
    }
  return 1;
}

/** -x: the largest usable number of columns, at most MAX_COLS, for the N
    measured files, trying each candidate in turn.  Two cheap bounds rule
    out most hopeless candidates when the files are many and the line is
    long: a column is at least as wide as the mean of its entries (each
    with its separator) and holds at most ROWS entries, so the line is at
    least (SUM - 2 * ROWS) / ROWS wide; and the first row alone needs the
    widths of the first COLS names.  These are only shortcuts when some
    name is wider than 3: then a column surely widens and GNU's "nothing
    widened" exception cannot apply.  */
static size_t
choose_columns_across (size_t n, size_t max_cols)
{
  size_t sum = 0, longest = 0;
  for (size_t i = 0; i < n; i++)
    {
      sum += file_len[i] + 2;
      if (longest < file_len[i])
        longest = file_len[i];
    }

  /* FIRST_ROW: the widths of the first COLS names with separators; the
     line is at least that minus the last separator.  */
  size_t first_row = 0;
  for (size_t i = 0; i < max_cols; i++)
    first_row += (file_len[i] + 2 < MIN_COLUMN_WIDTH ? MIN_COLUMN_WIDTH
                  : file_len[i] + 2);

  for (size_t cols = max_cols; 1 < cols; cols--)
    {
      size_t rows = (n + cols - 1) / cols;
      bool hopeless = (MIN_COLUMN_WIDTH < longest
                       && ((2 * rows <= sum
                            && line_length <= (sum - 2 * rows) / rows)
                           || line_length + 2 <= first_row));
      if (!hopeless && try_columns (n, cols, false))
        return cols;
      size_t w = file_len[cols - 1] + 2;
      first_row -= w < MIN_COLUMN_WIDTH ? MIN_COLUMN_WIDTH : w;
    }
  return 1;
}

/** Choose the number of columns for the N measured files (filled top to
    bottom if BY_COLUMNS) and leave its column widths in COL_WIDTH.  */
static size_t
choose_columns (size_t n, bool by_columns)
{
  size_t max_idx = line_length / MIN_COLUMN_WIDTH
                   + (line_length % MIN_COLUMN_WIDTH != 0);
  size_t max_cols = 0 < max_idx && max_idx < n ? max_idx : n;

  if (col_width_alloc < max_cols)
    {
      free (col_width);
      col_width = xnmalloc (max_cols, sizeof *col_width);
      col_width_alloc = max_cols;
    }

  size_t cols = (by_columns ? choose_columns_down (n, max_cols)
                 : choose_columns_across (n, max_cols));
  try_columns (n, cols, by_columns);
  return cols;
}

/** -C: columns filled top to bottom.  */
static void
print_many_per_line (struct fileinfo **v, size_t n)
{
  size_t cols = choose_columns (n, true);
  size_t rows = n / cols + (n % cols != 0);

  for (size_t row = 0; row < rows; row++)
    {
      size_t pos = 0;
      size_t col = 0;
      for (size_t i = row; ; col++)
        {
          print_file_name_and_frills (v[i], pos);
          size_t width = col_width[col];
          i += rows;
          if (n <= i)
            break;
          indent (pos + file_len[i - rows], pos + width);
          pos += width;
        }
      out_char (eolbyte);
    }
}

/** -x: rows filled left to right.  */
static void
print_horizontal (struct fileinfo **v, size_t n)
{
  size_t cols = choose_columns (n, false);
  size_t pos = 0;

  print_file_name_and_frills (v[0], 0);
  for (size_t i = 1; i < n; i++)
    {
      size_t col = i % cols;
      if (col == 0)
        {
          out_char (eolbyte);
          pos = 0;
        }
      else
        {
          size_t width = col_width[col - 1];
          indent (pos + file_len[i - 1], pos + width);
          pos += width;
        }
      print_file_name_and_frills (v[i], pos);
    }
  out_char (eolbyte);
}

/** -m (SEP ','), and -C / -x without a line length (SEP ' '): names
    separated by SEP and a space, wrapping before a name that would reach
    line_length (never when line_length is 0).  */
static void
print_with_separator (struct fileinfo **v, size_t n, char sep)
{
  size_t pos = 0;

  for (size_t i = 0; i < n; i++)
    {
      size_t len = line_length ? length_of_file_name_and_frills (v[i]) : 0;

      if (i != 0)
        {
          char after;
          if (! line_length
              || (pos + len + 2 < line_length
                  && pos <= SIZE_MAX - len - 2))
            {
              pos += 2;
              after = ' ';
            }
          else
            {
              pos = 0;
              after = eolbyte;
            }
          out_char (sep);
          out_char (after);
        }

      print_file_name_and_frills (v[i], pos);
      pos += len;
    }
  out_char (eolbyte);
}

/** Print the N files of V (already sorted) in the current format.  */
void
print_current_files (struct fileinfo **v, size_t n)
{
  if (n == 0)
    return;

  switch (format)
    {
    case one_per_line:
      for (size_t i = 0; i < n; i++)
        {
          print_file_name_and_frills (v[i], 0);
          out_char (eolbyte);
        }
      break;

    case many_per_line:
      if (! line_length)
        print_with_separator (v, n, ' ');
      else
        {
          measure_files (v, n);
          print_many_per_line (v, n);
        }
      break;

    case horizontal:
      if (! line_length)
        print_with_separator (v, n, ' ');
      else
        {
          measure_files (v, n);
          print_horizontal (v, n);
        }
      break;

    case with_commas:
      print_with_separator (v, n, ',');
      break;

    case long_format:
      for (size_t i = 0; i < n; i++)
        {
          color_set_normal ();	/* GNU starts each line in the 'no' colour */
          print_long_format (v[i]);
          out_char (eolbyte);
        }
      break;
    }
}
