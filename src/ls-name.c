/* ls-name.c -- printing file names for lsplus ls: quoting, indicators,
   hyperlinks.  */

#include <config.h>

#include <string.h>

#include "ls.h"

/** Prepare quoting state.  */
void
name_init (void)
{
}

/** Width of F's name.  */
size_t
name_width (struct fileinfo *f)
{
  return strlen (f->name);
}

/** Print F's name.  */
size_t
print_name (struct fileinfo *f)
{
  out_str (f->name);
  return strlen (f->name);
}

/** Indicator character.  */
char
type_indicator_char (struct fileinfo const *f, bool stat_ok, mode_t mode,
                     enum filetype type)
{
  (void) f;
  (void) stat_ok;
  (void) mode;
  (void) type;
  return 0;
}

/** Print name and frills.  */
size_t
print_file_name_and_frills (struct fileinfo *f, size_t start_col)
{
  (void) start_col;
  return print_name (f);
}

/** Length of name and frills.  */
size_t
length_of_file_name_and_frills (struct fileinfo *f)
{
  return name_width (f);
}

/** Print a dir name.  */
size_t
print_dir_name_quoted (char const *name)
{
  out_str (name);
  return strlen (name);
}

/** Check quoting of a listing.  */
void
name_check_quoting (struct fileinfo **v, size_t n)
{
  (void) v;
  (void) n;
}
