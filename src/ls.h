/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ls.h -- types, options and cross-file interfaces of lsplus's ls.

   The map of the ls-*.c files (one concern each) is at the top of
   ls.c.

   Conventions: report errors with error() and quoteaf(), keep the exit
   status ladder (LS_MINOR_PROBLEM / LS_FAILURE) exactly like GNU ls; all
   output to stdout goes through ls-out.c.  */

#ifndef LS_H
#define LS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>

#include "gettext.h"
#include "quotearg.h"

/* Messages.  ls says what GNU ls 9.1 says, in GNU's words, so GNU's
   message catalogues (Debian's coreutils package installs them) translate
   them: main() makes "coreutils" the default text domain.  Mark with _()
   only a message whose text is a msgid of coreutils 9.1; our own messages
   (backend errors, --help, --version) stay unmarked, in English.  gnulib's
   modules (quotearg's quotes, argmatch, xstrtol, closeout) translate
   through the same domain, libc's getopt and strerror through "libc".  */
#define _(msgid) gettext (msgid)
#define N_(msgid) msgid

/* Exit statuses, as in GNU ls.  */
enum
{
  LS_MINOR_PROBLEM = 1,	/* e.g. a file could not be accessed */
  LS_FAILURE = 2,	/* serious trouble: bad usage, command-line operand
                           that does not exist, write error */
};

/* The type of a file, as far as ls cares.  */
enum filetype
{
  unknown,
  fifo,
  chardev,
  directory,
  blockdev,
  normal,
  symbolic_link,
  sock,
  whiteout,
  arg_directory		/* a command-line operand that is a directory */
};

/* What the long format shows after the mode string.  */
enum acl_type
{
  ACL_T_NONE,
  ACL_T_LSM_CONTEXT_ONLY,	/* '.' */
  ACL_T_YES			/* '+' */
};

struct fileinfo
{
  char *name;			/* operand as given, or the entry name */
  char *linkname;		/* symlink target (long format, -F, color) */
  char *absolute_name;		/* for --hyperlink; NULL otherwise */
  struct stat stat;		/* with --time=birth, st_mtim holds the
                                   birth time, {-1, -1} if unknown (as in
                                   GNU ls 9.1: one timestamp is used) */
  uint64_t d_ino;		/* inode from the directory entry, 0 if none */
  enum filetype filetype;
  mode_t linkmode;		/* st_mode of the symlink target, if linkok */
  enum acl_type acl_type;
  int quoted;			/* -1 unknown, 0 no quotes needed, 1 quoted,
                                   2 (see ls-name.c) */
  char *scontext;		/* security context for -Z, or "?" */
  bool stat_ok;			/* stat succeeded */
  bool linkok;			/* symlink target can be stat'ed */
  bool has_capability;
  unsigned int width;		/* cached name width, 0 if not computed
                                   (fields ordered to keep this struct at
                                   208 bytes: ls holds one per entry) */
};

/* ---- options (defined in ls.c, set by option parsing) ---- */

enum format
{
  long_format,		/* -l and other options that imply -l */
  one_per_line,		/* -1 */
  many_per_line,	/* -C */
  horizontal,		/* -x */
  with_commas		/* -m */
};
extern enum format format;

enum time_type
{
  time_mtime = 0,	/* default */
  time_ctime,		/* -c */
  time_atime,		/* -u */
  time_btime,		/* birth time */
  time_numtypes
};
extern enum time_type time_type;

enum sort_type
{
  sort_name = 0,	/* default */
  sort_extension,	/* -X */
  sort_width,		/* --sort=width */
  sort_size,		/* -S */
  sort_version,		/* -v */
  sort_time,		/* -t; uses time_type */
  sort_none,		/* -U */
  sort_numtypes
};
extern enum sort_type sort_type;
extern bool sort_reverse;		/* -r */
extern bool directories_first;		/* --group-directories-first */

enum dereference_symlink
{
  DEREF_UNDEFINED = 0,
  DEREF_NEVER,
  DEREF_COMMAND_LINE_ARGUMENTS,		/* -H */
  DEREF_COMMAND_LINE_SYMLINK_TO_DIR,	/* the default w/o -l, -d, -F... */
  DEREF_ALWAYS				/* -L */
};
extern enum dereference_symlink dereference;

enum indicator_style
{
  none = 0,		/*     (default) */
  slash,		/* -p  '/' */
  file_type,		/* --file-type  '/' '@' '|' '=' '>' */
  classify		/* -F  as file_type, plus '*' */
};
extern enum indicator_style indicator_style;

enum ignore_mode
{
  IGNORE_DEFAULT = 0,	/* ignore names starting with '.' */
  IGNORE_DOT_AND_DOTDOT,	/* -A: ignore "." and ".." only */
  IGNORE_MINIMAL	/* -a: ignore nothing */
};
extern enum ignore_mode ignore_mode;

/* Linked lists of shell patterns (-I PAT, --hide=PAT).  */
struct ignore_pattern
{
  const char *pattern;
  struct ignore_pattern *next;
};
extern struct ignore_pattern *ignore_patterns;	/* -I, -B */
extern struct ignore_pattern *hide_patterns;	/* --hide, unless -a/-A */

extern bool print_owner;		/* not -g */
extern bool print_group;		/* not -G / -o */
extern bool print_author;		/* --author */
extern bool numeric_ids;		/* -n */
extern bool print_block_size;		/* -s */
extern bool print_inode;		/* -i */
extern bool print_scontext;		/* -Z */
extern bool recursive;			/* -R */
extern bool immediate_dirs;		/* -d */
extern bool print_with_color;		/* --color resolved to yes */
extern bool print_hyperlink;		/* --hyperlink resolved to yes */
extern bool dired;			/* -D, only with long format */
extern bool qmark_funny_chars;		/* -q resolved */
extern bool align_variable_outer_quotes; /* shell-escape-ish alignment */
extern char eolbyte;			/* '\n', or '\0' with --zero */
extern bool print_dir_name;		/* print "dir:" headers */
extern bool format_needs_stat;
extern bool format_needs_type;
extern bool full_time;

/* Sizes: -s blocks and -l sizes (gnulib human.h options).  */
extern int human_output_opts;
extern uintmax_t output_block_size;
extern int file_human_output_opts;
extern uintmax_t file_output_block_size;

/* Line length for -C -x -m; 0 means no limit.  Tab size, 0 = no tabs.  */
extern size_t line_length;
extern size_t tabsize;

/* Quoting (set in ls.c from -b -q -N -Q --quoting-style QUOTING_STYLE).  */
extern struct quoting_options *filename_quoting_options;
extern struct quoting_options *dirname_quoting_options;

/* Time formats: [0] for old files, [1] for recent ones (strftime
   formats; NULL entries when --time-style=locale falls back).  */
extern char const *long_time_format[2];

/* Exit status so far.  */
extern int exit_status;

/* The backend requested with LSPLUS_BACKEND (lib/dirplus.h values).  */
extern int dirplus_backend;

/* ---- ls-out.c: all output ---- */
extern off_t dired_pos;			/* bytes written so far */
void out_bytes (char const *s, size_t n);
void out_str (char const *s);
void out_char (char c);
void out_spaces (size_t n);
/* Record a name's byte span for //DIRED// (start, end offsets).  */
void dired_add_name (off_t start, off_t end);
/* Record a directory header's span for //SUBDIRED//.  */
void dired_add_subdir (off_t start, off_t end);
/* Print a directory header line ("  dir:" with --dired indentation).  */
void dired_indent (void);
/* At exit: print //DIRED//, //SUBDIRED//, //DIRED-OPTIONS// if dired.  */
void dired_finish (void);

/* ---- ls-color.c ---- */
/* The LS_COLORS keys, in GNU's order: lc rc ec rs no fi di ln pi so bd cd
   mi or ex do su sg st ow tw ca mh cl.  */
enum indicator_no
{
  C_LEFT, C_RIGHT, C_END, C_RESET, C_NORM, C_FILE, C_DIR, C_LINK,
  C_FIFO, C_SOCK, C_BLK, C_CHR, C_MISSING, C_ORPHAN, C_EXEC, C_DOOR,
  C_SETUID, C_SETGID, C_STICKY, C_OTHER_WRITABLE, C_STICKY_OTHER_WRITABLE,
  C_CAP, C_MULTIHARDLINK, C_CLR_TO_EOL
};
/* Call once after options if print_with_color: parses LS_COLORS (or,
   without it, keeps colour only if COLORTERM is set or TERM is known);
   on a malformed value prints GNU's diagnostics and sets
   print_with_color = false.  Returns the final print_with_color.  */
bool color_init (void);
/* Is colour KEY set to something other than "", "0", "00"?  Used for
   GNU's check_stat / check_symlink_mode conditions.  */
bool is_colored (enum indicator_no key);
/* "ln=target" was given.  */
extern bool color_symlink_as_referent;
/* Opaque colour sequence of F (its link target if SYMLINK_TARGET), or
   NULL if none.  */
void const *color_of (struct fileinfo const *f, bool symlink_target);
/* Print the colour for F; true if a colour sequence was emitted.  */
bool color_start (struct fileinfo const *f, bool symlink_target);
void color_start_seq (void const *seq);	/* seq from color_of, non-NULL */
/* End the colour started by color_start (= prep_non_filename_text).  */
void color_end (void);
/* GNU's prep_non_filename_text: "ec", or "lc rs rc".  */
void color_prep_non_filename_text (void);
/* GNU's set_normal_color: "lc no rc" if "no" is set.  ls-layout.c calls
   it before each long-format line; print_file_name_and_frills calls it
   itself.  */
void color_set_normal (void);
/* Does printing F's name (or target) emit colour codes at all?  */
bool color_used_for (struct fileinfo const *f, bool symlink_target);
void color_clear_to_eol (void);
/* Act on signals caught while colouring (restore colour, then die or
   stop).  Cheap; call it in long loops (e.g. reading a big directory).  */
void color_process_signals (void);
/* At exit: restore the terminal if colour was used with non-standard
   lc/rc, and re-raise signals that arrived.  */
void color_finish (void);
/* What gathering must find out for colouring (all false without colour):
   link targets (GNU's check_symlink_mode from colours), capabilities
   (always false, see ls-color.c), stat of directories (ow/st/tw) and of
   regular files (ex/su/sg).  color_needs_stat = either of the last two.  */
bool color_needs_link_target (void);
bool color_needs_capability (void);
bool color_dir_needs_stat (void);
bool color_file_needs_stat (void);
bool color_needs_stat (void);

/* ---- ls-name.c ---- */
/* Called once after options: prepares quoting and hyperlink state.  */
void name_init (void);
/* Printed width of F's name as quoted (cached in F->width).  */
size_t name_width (struct fileinfo *f);
/* Print F's name (colour, hyperlink, quoting) as at column 0; returns
   print_name_with_quoting's value.  */
size_t print_name (struct fileinfo *f);
/* The -F / -p / --file-type character for F, or 0 for none.  */
char type_indicator_char (struct fileinfo const *f, bool stat_ok,
                          mode_t mode, enum filetype type);
/* Name plus inode, blocks, context and indicator as in -C/-x/-1/-m.  */
size_t print_file_name_and_frills (struct fileinfo *f, size_t start_col);
size_t length_of_file_name_and_frills (struct fileinfo *f);
/* Print a directory header's NAME (without the ':') with the dirname
   quoting, recording its //SUBDIRED// span; hyperlinked to ABSOLUTE_NAME
   unless NULL.  print_dir_name_quoted (N) = print_dir_header_name (N,
   NULL).  Return the bytes printed.  */
size_t print_dir_header_name (char const *name, char const *absolute_name);
size_t print_dir_name_quoted (char const *name);
/* For the files V[0..N-1] of one listing, decide whether any needs quotes
   (then the others get an alignment space with shell-escape-like styles
   in -l/-C/-x; GNU's cwd_some_quoted).  Call it once per listing, after
   gathering and before sorting/printing; for command-line operands over
   ALL gathered operands, before the directories are taken out (as GNU).
   It also resets the cached f->width.  */
void name_check_quoting (struct fileinfo **v, size_t n);
/* Call for each command-line operand that fails (cannot access) and so
   is not in the listing: in GNU it still counts for name_check_quoting's
   decision (ls -l 'no such' f: " f" with shell-escape quoting).  */
void name_note_failed_operand (char const *name);
/* (requested by ls-long.c) Like GNU's print_name_with_quoting: print
   F's name, or its link target if SYMLINK_TARGET, with the alignment
   pad space (never for a target), colour, hyperlink and quoting; if
   DIRED_NAME, record the quoted name's byte span (after the pad, without
   colour/hyperlink bytes) with dired_add_name.  START_COL is the output
   column where printing starts (for the clear-to-eol logic).  Returns
   the bytes written for the name plus the pad, like GNU.  */
size_t print_name_with_quoting (struct fileinfo *f, bool symlink_target,
                                bool dired_name, size_t start_col);

/* ---- ls-long.c ---- */
/* Column widths of the current listing, computed over all its files.  */
struct long_widths
{
  int inode, block_size, nlink, scontext, owner, group, author,
      major, minor, file_size;
};
extern struct long_widths widths;
void long_widths_reset (void);
void long_widths_update (struct fileinfo const *f);
void print_long_format (struct fileinfo *f);
/* Blocks for -s / "total", formatted like GNU; writes into BUF.  */
char const *format_blocks (uintmax_t blocks, char *buf);
extern bool any_has_acl;		/* a '+' or '.' column is needed */

/* ---- ls-time.c ---- */
/* Size of a buffer for format_file_time (GNU's limit of 1000 bytes on a
   formatted timestamp, plus the NUL).  */
enum { LS_TIME_BUFSIZE = 1001 };
/* Parse --time-style / TIME_STYLE (exits with GNU's message on error).  */
void time_style_init (char const *style);
/* The timestamp of F selected by time_type; false if unavailable.  */
bool file_time (struct fileinfo const *f, struct timespec *ts);
/* Format F's time for the long format into BUF (returns length), or
   write "?" padded.  */
size_t format_file_time (struct fileinfo const *f, char *buf, size_t size);
/* Called at startup: current_time used by the six-month rule.  */
void time_init (void);

/* ---- ls-collkey.c ---- */
/* Which keys order names as strcoll does in the current locale.  */
enum collkey_kind
{
  COLLKEY_NONE,		/* none: every comparison calls strcoll */
  COLLKEY_BYTES,	/* strcoll is strcmp: the name itself */
  COLLKEY_LEVEL1	/* glibc: the first level of strxfrm's key */
};
/* A name's key, or the part of it that is kept (see ls-collkey.c).  */
struct collkey
{
  uint64_t head[2];	/* bytes 0-15, big-endian, zero-padded */
  uint32_t tail;	/* offset of bytes 16 to len - 1 in the arena */
  uint16_t len;		/* bytes kept; 0: the key decides nothing */
  bool made;		/* collkey_make was called in this sort */
};
enum collkey_kind collkey_locale_kind (void);
/* Begin a sort with keys of kind K (forgets the previous sort's keys).  */
void collkey_start (enum collkey_kind k);
void collkey_make (struct collkey *k, char const *name);
/* strcoll's sign for the two keys' names, or 0 if the keys cannot tell.  */
int collkey_cmp (struct collkey const *a, struct collkey const *b);

/* ---- ls-sort.c ---- */
void sort_files (struct fileinfo **v, size_t n);

/* ---- ls-layout.c ---- */
void print_current_files (struct fileinfo **v, size_t n);

/* ---- ls-gather.c / ls-recurse.c ---- */
/* The files of the current listing: FILES owns them, SORTED points at
   them (in the order sort_files leaves) once listing_seal was called.  */
struct file_list
{
  struct fileinfo *files;
  struct fileinfo **sorted;
  size_t used, alloc, sorted_alloc;
};
struct dirplus_dir;
struct dirplus_entry;
void list_files_init (void);
/* Free the files of L and reset the widths for a new listing.  */
void listing_clear (struct file_list *l);
/* Fill L->sorted (unsorted) for sort_files and printing.  */
void listing_seal (struct file_list *l);
/* Add command-line operand NAME; returns the blocks it adds to "total".  */
uintmax_t gather_operand (struct file_list *l, char const *name);
/* Add the entry E of directory DIRFD, whose name for messages is DIRPATH;
   returns its blocks.  */
uintmax_t gather_entry (struct file_list *l, int dirfd, char const *dirpath,
                        struct dirplus_entry const *e);
/* Open directory NAME relative to PARENTFD for listing; NULL + errno.  */
struct dirplus_dir *gather_opendir (int parentfd, char const *name,
                                    bool command_line_arg);
/* Should entry NAME be left out (-a -A -I --hide -B)?  */
bool file_ignored (char const *name);
/* Set the exit status for a failure (SERIOUS: 2, else at least 1).  */
void set_exit_status (bool serious);
/* error() with errno, MESSAGE containing one %s for quoteaf (FILE).  */
void file_failure (bool serious, char const *message, char const *file);
/* List the command-line operands NAMES[0..N-1] ("." if N is 0).  */
void list_operands (char **names, int n);

#endif /* LS_H */
