/* ls.c -- main program of lsplus's ls (skeleton; option parsing below).  */

#include <config.h>

#include <locale.h>
#include <stdlib.h>

#include "ls.h"
#include "closeout.h"
#include "progname.h"

enum format format;
enum time_type time_type;
enum sort_type sort_type;
bool sort_reverse;
bool directories_first;
enum dereference_symlink dereference;
enum indicator_style indicator_style;
enum ignore_mode ignore_mode;
struct ignore_pattern *ignore_patterns;
struct ignore_pattern *hide_patterns;
bool print_owner = true;
bool print_group = true;
bool print_author;
bool numeric_ids;
bool print_block_size;
bool print_inode;
bool print_scontext;
bool recursive;
bool immediate_dirs;
bool print_with_color;
bool print_hyperlink;
bool dired;
bool qmark_funny_chars;
bool align_variable_outer_quotes;
char eolbyte = '\n';
bool print_dir_name;
bool format_needs_stat;
bool format_needs_type;
bool full_time;
int human_output_opts;
uintmax_t output_block_size;
int file_human_output_opts;
uintmax_t file_output_block_size;
size_t line_length;
size_t tabsize;
struct quoting_options *filename_quoting_options;
struct quoting_options *dirname_quoting_options;
char const *long_time_format[2];
int exit_status;
int dirplus_backend;

int
main (int argc _GL_UNUSED, char **argv)
{
  set_program_name (argv[0]);
  setlocale (LC_ALL, "");
  atexit (close_stdout);
  return exit_status;
}
