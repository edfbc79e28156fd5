/* ls-stubs.c -- temporary weak definitions so that src/ls links while the
   other ls-*.c files are being written.  Every definition is weak: the real
   one in its own file wins.  This file goes away once all exist.  */

#include <config.h>
#include <string.h>
#include "ls.h"

#define WEAK __attribute__ ((weak))

WEAK bool color_init (void) { return true; }
WEAK bool color_start (struct fileinfo const *f _GL_UNUSED,
                       bool symlink_target _GL_UNUSED) { return false; }
WEAK void color_end (void) {}
WEAK void color_prep_non_filename_text (void) {}
WEAK void color_finish (void) {}
WEAK bool color_needs_link_target (void) { return false; }
WEAK bool color_needs_capability (void) { return false; }
WEAK bool color_needs_stat (void) { return false; }

WEAK void name_init (void) {}
WEAK size_t name_width (struct fileinfo *f) { return strlen (f->name); }
WEAK size_t print_name (struct fileinfo *f)
{ out_str (f->name); return strlen (f->name); }
WEAK char type_indicator_char (struct fileinfo const *f _GL_UNUSED,
                               bool stat_ok _GL_UNUSED,
                               mode_t mode _GL_UNUSED,
                               enum filetype type _GL_UNUSED) { return 0; }
WEAK size_t print_file_name_and_frills (struct fileinfo *f,
                                        size_t start_col _GL_UNUSED)
{ return print_name (f); }
WEAK size_t length_of_file_name_and_frills (struct fileinfo *f)
{ return name_width (f); }
WEAK size_t print_dir_name_quoted (char const *name)
{ out_str (name); return strlen (name); }
WEAK void name_check_quoting (struct fileinfo **v _GL_UNUSED,
                              size_t n _GL_UNUSED) {}

WEAK struct long_widths widths;
WEAK bool any_has_acl;
WEAK void long_widths_reset (void) {}
WEAK void long_widths_update (struct fileinfo const *f _GL_UNUSED) {}
WEAK void print_long_format (struct fileinfo *f)
{ print_name (f); }
WEAK char const *format_blocks (uintmax_t blocks _GL_UNUSED, char *buf)
{ buf[0] = '0'; buf[1] = 0; return buf; }

WEAK void time_style_init (char const *style _GL_UNUSED) {}
WEAK bool file_time (struct fileinfo const *f, struct timespec *ts)
{ ts->tv_sec = f->stat.st_mtime; ts->tv_nsec = 0; return true; }
WEAK size_t format_file_time (struct fileinfo const *f _GL_UNUSED,
                              char *buf, size_t size _GL_UNUSED)
{ buf[0] = '?'; buf[1] = 0; return 1; }
WEAK void time_init (void) {}

WEAK void sort_files (struct fileinfo **v _GL_UNUSED, size_t n _GL_UNUSED) {}
WEAK void print_current_files (struct fileinfo **v, size_t n)
{
  for (size_t i = 0; i < n; i++)
    {
      print_file_name_and_frills (v[i], 0);
      out_char (eolbyte);
    }
}
