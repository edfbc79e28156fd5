/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ls.c -- main program of lsplus's ls, a drop-in GNU ls 9.1 clone.

   File map (one concern per file):
     ls.c          main(): option parsing (getopt_long + argmatch), the
                   environment (COLUMNS, TABSIZE, TIME_STYLE, LS_BLOCK_SIZE,
                   BLOCK_SIZE, QUOTING_STYLE, LS_COLORS via ls-color.c,
                   LSPLUS_BACKEND), operands, exit status, --help/--version
     ls-gather.c   filling struct fileinfo: operands (stat, -H/-L), directory
                   contents through lib/dirplus, symlink targets, ACL/label/
                   capability bits, -Z contexts, --hide/-I/-a/-A filtering
     ls-recurse.c  listing directories: headers, "total", -R with
                   directories opened relative to their parent fd, cycle
                   detection (dev/ino), error reporting
     ls-sort.c     sort_files(): every --sort key, -r, --group-directories-first
     ls-collkey.c  collation keys: names compared without a strcoll call
                   per comparison, in the order strcoll gives
     ls-layout.c   print_current_files(): -1 -C -x -m -l, column fitting,
                   tab stops, --zero
     ls-long.c     long format line, field widths, sizes/blocks (human),
                   owner/group/author, device numbers, -i -s -Z columns
     ls-time.c     timestamps: --time-style, the six-month rule, --full-time
     ls-name.c     names: quoting styles, -b -q -N -Q, widths, indicators
                   (-F -p --file-type), hyperlinks
     ls-color.c    LS_COLORS parsing and colouring of names
     ls-out.c      every byte of output goes through here: counts bytes for
                   --dired, records //DIRED// offsets
     ls.h          the shared types (struct fileinfo), option globals and
                   the interface of every file above
     lib/dirplus*  reading directories (names + stat data + attribute bits)
                   with five backends: intree (the in-tree call), getdentsplus
                   (the module), statx (its ACL and label attributes),
                   io_uring, sync

   Deliberate deviations from GNU ls 9.1:
     - ls -R descends by opening each directory relative to its parent's
       file descriptor, so arbitrarily deep trees (10,000 levels and more)
       are listed; GNU ls fails there with "File name too long".  For
       the same reason ls -RL can follow more than 40 symbolic links along
       one path, where GNU reports "Too many levels of symbolic links".
     - ls -R may open subdirectories before it lists them: up to 64 in one
       io_uring submission with the getdentsplus backends, and opened and
       read by threads on a remote filesystem or a cold local tree (the
       same calls GNU makes, overlapped).  A subdirectory renamed, removed
       or replaced between that open and its listing is listed as it was
       when opened, where GNU, opening it later, would report it gone or
       list the new one.
     - The environment variable LSPLUS_BACKEND chooses how directories are
       read (auto, getdentsplus, uring, sync), LSPLUS_REMOTE,
       LSPLUS_REMOTE_THREADS and LSPLUS_AHEAD how remote filesystems are
       read, and LSPLUS_COLD_THREADS and LSPLUS_COLD_USEC how a cold local
       tree is read ahead (an invalid value of any of them is an error,
       exit 2); see --help.
     - --help and --version print our own text, in English (our own
       text domain "lsplus", which has no catalogue yet); everything else
       GNU ls translates is translated by GNU coreutils' catalogues.
     - -C/-x column fitting uses memory proportional to the number of
       files, not files x columns: a huge -w on a huge directory lists
       where GNU runs out of memory (the chosen layout is the same).
     - In the long format without -Z, a security label counts as present
       from the directory's attribute bits alone; GNU 9.1 reads the label
       and shows no '.' when its value is exactly "unlabeled" (-Z does read
       the value and matches GNU).  This saves an lgetxattr per file.
     - A file whose security label is empty shows no '.' and '?' for -Z,
       as in GNU; but GNU 9.1 then takes labels for unsupported on that
       whole filesystem for the rest of the run (libselinux maps the empty
       value to ENOTSUP, and ls latches that per device), hiding the real
       labels of the files it lists after it.  We do not copy that latch:
       every other file shows its own label.
     - ls -R keeps the descriptors of the directories it is inside open
       (see the first item), and the uring backend one of its ring, so
       in /dev/fd (/proc/self/fd) those numbers still name open files:
       `ls -1RL /dev/fd` finds /dev/fd/3 to be /dev/fd itself and says
       "not listing already-listed directory" (status 2), where GNU, which
       closed each directory before descending, says "cannot open
       directory '/dev/fd/3'" (status 1); `ls -lLd /dev/fd` with
       LSPLUS_BACKEND=uring shows a size one larger (procfs gives the
       number of open descriptors as that directory's size; the ring's
       is one, and the ring stats the operand).  What a process lists
       about its own descriptors depends on which it holds.
     - Attribute bits come from one listxattr per file where that works,
       so what a FUSE daemon answers to getxattr but leaves out of its
       list is not seen: we check the list against GNU's probes on the
       first file of each filesystem whose list is empty, and for a file
       whose list names a label or ACL under another namespace (squashfuse
       0.1.105 lists security.selinux as trusted.selinux); when they
       disagree that filesystem is probed GNU's way from then on.  A
       daemon inconsistent only for later files differs from GNU there.  */

#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "ls.h"
#include "argmatch.h"
#include "closeout.h"
#include "dirplus.h"
#include "error.h"
#include "exitfail.h"
#include "human.h"
#include "minmax.h"
#include "progname.h"
#include "quote.h"
#include "xalloc.h"
#include "xstrtol.h"

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
bool print_dir_name = true;
bool format_needs_stat;
bool format_needs_type;
bool full_time;
int human_output_opts;
uintmax_t output_block_size;
int file_human_output_opts;
uintmax_t file_output_block_size = 1;
size_t line_length;
size_t tabsize;
struct quoting_options *filename_quoting_options;
struct quoting_options *dirname_quoting_options;
char const *long_time_format[2];
int exit_status;
int dirplus_backend;

/* Codes of the long options that have no short form.  */
enum
{
  AUTHOR_OPTION = CHAR_MAX + 1,
  BLOCK_SIZE_OPTION,
  COLOR_OPTION,
  DEREF_CMDLINE_SYMLINK_TO_DIR_OPTION,
  FILE_TYPE_OPTION,
  FORMAT_OPTION,
  FULL_TIME_OPTION,
  GROUP_DIRS_FIRST_OPTION,
  HIDE_OPTION,
  HYPERLINK_OPTION,
  INDICATOR_STYLE_OPTION,
  QUOTING_STYLE_OPTION,
  SHOW_CONTROL_CHARS_OPTION,
  SI_OPTION,
  SORT_OPTION,
  TIME_OPTION,
  TIME_STYLE_OPTION,
  ZERO_OPTION,
  HELP_OPTION,
  VERSION_OPTION
};

/* The long options, in GNU ls's order: getopt lists the candidates of an
   ambiguous abbreviation in this order.  */
static struct option const long_options[] =
{
  {"all", no_argument, NULL, 'a'},
  {"escape", no_argument, NULL, 'b'},
  {"directory", no_argument, NULL, 'd'},
  {"dired", no_argument, NULL, 'D'},
  {"full-time", no_argument, NULL, FULL_TIME_OPTION},
  {"group-directories-first", no_argument, NULL, GROUP_DIRS_FIRST_OPTION},
  {"human-readable", no_argument, NULL, 'h'},
  {"inode", no_argument, NULL, 'i'},
  {"kibibytes", no_argument, NULL, 'k'},
  {"numeric-uid-gid", no_argument, NULL, 'n'},
  {"no-group", no_argument, NULL, 'G'},
  {"hide-control-chars", no_argument, NULL, 'q'},
  {"reverse", no_argument, NULL, 'r'},
  {"size", no_argument, NULL, 's'},
  {"width", required_argument, NULL, 'w'},
  {"almost-all", no_argument, NULL, 'A'},
  {"ignore-backups", no_argument, NULL, 'B'},
  {"classify", optional_argument, NULL, 'F'},
  {"file-type", no_argument, NULL, FILE_TYPE_OPTION},
  {"si", no_argument, NULL, SI_OPTION},
  {"dereference-command-line", no_argument, NULL, 'H'},
  {"dereference-command-line-symlink-to-dir", no_argument, NULL,
   DEREF_CMDLINE_SYMLINK_TO_DIR_OPTION},
  {"hide", required_argument, NULL, HIDE_OPTION},
  {"ignore", required_argument, NULL, 'I'},
  {"indicator-style", required_argument, NULL, INDICATOR_STYLE_OPTION},
  {"dereference", no_argument, NULL, 'L'},
  {"literal", no_argument, NULL, 'N'},
  {"quote-name", no_argument, NULL, 'Q'},
  {"quoting-style", required_argument, NULL, QUOTING_STYLE_OPTION},
  {"recursive", no_argument, NULL, 'R'},
  {"format", required_argument, NULL, FORMAT_OPTION},
  {"show-control-chars", no_argument, NULL, SHOW_CONTROL_CHARS_OPTION},
  {"sort", required_argument, NULL, SORT_OPTION},
  {"tabsize", required_argument, NULL, 'T'},
  {"time", required_argument, NULL, TIME_OPTION},
  {"time-style", required_argument, NULL, TIME_STYLE_OPTION},
  {"zero", no_argument, NULL, ZERO_OPTION},
  {"color", optional_argument, NULL, COLOR_OPTION},
  {"hyperlink", optional_argument, NULL, HYPERLINK_OPTION},
  {"block-size", required_argument, NULL, BLOCK_SIZE_OPTION},
  {"context", no_argument, NULL, 'Z'},
  {"author", no_argument, NULL, AUTHOR_OPTION},
  {"help", no_argument, NULL, HELP_OPTION},
  {"version", no_argument, NULL, VERSION_OPTION},
  {NULL, 0, NULL, 0}
};

/* Argument tables for argmatch; synonyms share a value and are listed
   next to each other, as "Valid arguments are:" shows them.  */
static char const *const format_args[] =
{
  "verbose", "long", "commas", "horizontal", "across",
  "vertical", "single-column", NULL
};
static enum format const format_vals[] =
{
  long_format, long_format, with_commas, horizontal, horizontal,
  many_per_line, one_per_line
};

static char const *const sort_args[] =
{
  "none", "time", "size", "extension", "version", "width", NULL
};
static enum sort_type const sort_vals[] =
{
  sort_none, sort_time, sort_size, sort_extension, sort_version, sort_width
};

static char const *const time_args[] =
{
  "atime", "access", "use", "ctime", "status", "birth", "creation", NULL
};
static enum time_type const time_vals[] =
{
  time_atime, time_atime, time_atime, time_ctime, time_ctime,
  time_btime, time_btime
};

static char const *const indicator_style_args[] =
{
  "none", "slash", "file-type", "classify", NULL
};
static enum indicator_style const indicator_style_vals[] =
{
  none, slash, file_type, classify
};

enum when { WHEN_ALWAYS, WHEN_NEVER, WHEN_IF_TTY };
static char const *const when_args[] =
{
  "always", "yes", "force", "never", "no", "none", "auto", "tty", "if-tty",
  NULL
};
static enum when const when_vals[] =
{
  WHEN_ALWAYS, WHEN_ALWAYS, WHEN_ALWAYS, WHEN_NEVER, WHEN_NEVER, WHEN_NEVER,
  WHEN_IF_TTY, WHEN_IF_TTY, WHEN_IF_TTY
};

/** Make GNU coreutils' catalogues translate _() and gnulib's messages,
   as they do for GNU ls (see ls.h).  */
static void
coreutils_text_domain (void)
{
#if ENABLE_NLS
  textdomain ("coreutils");
#endif
}

/** Switch to our own text domain for --help and --version, which print
   our own text: gnulib's pieces of it (version_etc's licence lines,
   bug-report addresses) then stay in the same language as the rest, not
   in coreutils' translation of them.  No "lsplus" catalogue exists (yet),
   so that is English.  Back to coreutils' at exit, before close_stdout
   (registered earlier, so it runs later) may report a write error.  */
static void
own_text_domain (void)
{
#if ENABLE_NLS
  textdomain (PACKAGE);
  atexit (coreutils_text_domain);
#endif
}

/** Exit with STATUS; for a failure, only point at --help like GNU.
   The text is lsplus's own (a deliberate deviation), but it describes
   exactly GNU ls 9.1's option semantics.  help2man turns it into the man
   page (man/local.mk): keep GNU's layout of option lines.  */
static _Noreturn void
usage (int status)
{
  if (status != EXIT_SUCCESS)
    {
      fprintf (stderr, _("Try '%s --help' for more information.\n"),
               program_name);
      exit (status);
    }

  printf ("Usage: %s [OPTION]... [FILE]...\n", program_name);
  fputs ("\
List information about the FILEs (the current directory by default).\n\
Sort entries alphabetically if none of -cftuvSUX nor --sort is specified.\n\
This is lsplus's ls: it accepts every option of GNU ls 9.1 with the same\n\
meaning and prints the same output, reading directories faster.\n\
\n\
Mandatory arguments to long options are mandatory for short options too.\n\
  -a, --all                  do not ignore entries starting with .\n\
  -A, --almost-all           do not list implied . and ..\n\
      --author               with -l, print the author of each file\n\
  -b, --escape               print C-style escapes for nongraphic characters\n\
      --block-size=SIZE      with -l, scale sizes by SIZE when printing them;\n\
                               e.g., '--block-size=M'; see SIZE format below\n\
  -B, --ignore-backups       do not list implied entries ending with ~\n\
  -c                         with -lt: sort by, and show, ctime (time of last\n\
                               change of file status information);\n\
                               with -l: show ctime and sort by name;\n\
                               otherwise: sort by ctime, newest first\n\
  -C                         list entries by columns\n\
      --color[=WHEN]         color the output WHEN (a bare --color means\n\
                               always); see the colors paragraph below\n\
  -d, --directory            list directories themselves, not their contents\n\
  -D, --dired                generate output designed for Emacs' dired mode\n\
  -f                         list all entries in directory order: like -aU,\n\
                               and cancels -l, -s, --color and --hyperlink\n\
                               given before it\n\
  -F, --classify[=WHEN]      append indicator (one of */=>@|) to entries WHEN\n\
                               (a bare --classify or -F means always)\n\
      --file-type            likewise, except do not append '*'\n\
      --format=WORD          across -x, commas -m, horizontal -x, long -l,\n\
                               single-column -1, verbose -l, vertical -C\n\
      --full-time            like -l --time-style=full-iso\n\
  -g                         like -l, but do not list owner\n\
      --group-directories-first\n\
                             group directories before files; can be combined\n\
                               with a --sort option, but --sort=none (-U)\n\
                               disables grouping\n\
  -G, --no-group             in a long listing, don't print group names\n\
  -h, --human-readable       with -l and -s, print sizes like 1K 234M 2G etc.\n\
      --si                   likewise, but use powers of 1000 not 1024\n\
  -H, --dereference-command-line\n\
                             follow symbolic links listed on the command line\n\
      --dereference-command-line-symlink-to-dir\n\
                             follow each command line symbolic link\n\
                               that points to a directory\n\
      --hide=PATTERN         do not list implied entries matching shell\n\
                               PATTERN (overridden by -a or -A)\n\
      --hyperlink[=WHEN]     hyperlink file names WHEN (bare: always)\n\
      --indicator-style=WORD\n\
                             append indicator with style WORD to entry names:\n\
                               none (default), slash (-p),\n\
                               file-type (--file-type), classify (-F)\n\
  -i, --inode                print the index number of each file\n\
  -I, --ignore=PATTERN       do not list implied entries matching shell PATTERN\n\
  -k, --kibibytes            default to 1024-byte blocks for file system usage;\n\
                               used only with -s and per directory totals\n\
  -l                         use a long listing format\n\
  -L, --dereference          when showing file information for a symbolic\n\
                               link, show information for the file the link\n\
                               references rather than for the link itself\n\
  -m                         fill width with a comma separated list of entries\n\
  -n, --numeric-uid-gid      like -l, but list numeric user and group IDs\n\
  -N, --literal              print entry names without quoting\n\
  -o                         like -l, but do not list group information\n\
  -p, --indicator-style=slash\n\
                             append / indicator to directories\n\
  -q, --hide-control-chars   print ? instead of nongraphic characters\n\
                               (the default when output is a terminal)\n\
      --show-control-chars   show nongraphic characters as-is (the default\n\
                               when output is not a terminal)\n\
  -Q, --quote-name           enclose entry names in double quotes\n\
      --quoting-style=WORD   use quoting style WORD for entry names:\n\
                               literal, locale, shell, shell-always,\n\
                               shell-escape, shell-escape-always, c, escape\n\
                               (overrides the QUOTING_STYLE variable)\n\
  -r, --reverse              reverse order while sorting\n\
  -R, --recursive            list subdirectories recursively\n\
  -s, --size                 print the allocated size of each file, in blocks\n\
  -S                         sort by file size, largest first\n\
      --sort=WORD            sort by WORD instead of name: none (-U), size (-S),\n\
                               time (-t), version (-v), extension (-X), width\n\
      --time=WORD            use another time than the modification time;\n\
                               access time (-u): atime, access, use;\n\
                               change time (-c): ctime, status;\n\
                               birth time: birth, creation;\n\
                               with -l, WORD determines which time to show;\n\
                               with --sort=time, sort by WORD (newest first);\n\
                               the modification time is the default and has\n\
                               no WORD (mtime is rejected, as by GNU ls 9.1)\n\
      --time-style=TIME_STYLE\n\
                             time/date format with -l; see TIME_STYLE below\n\
  -t                         sort by time, newest first; see --time\n\
  -T, --tabsize=COLS         assume tab stops at each COLS instead of 8\n\
  -u                         with -lt: sort by, and show, access time;\n\
                               with -l: show access time and sort by name;\n\
                               otherwise: sort by access time, newest first\n\
  -U                         do not sort; list entries in directory order\n\
  -v                         natural sort of (version) numbers within text\n\
  -w, --width=COLS           set output width to COLS.  0 means no limit\n\
  -x                         list entries by lines instead of by columns\n\
  -X                         sort alphabetically by entry extension\n\
  -Z, --context              print any security context of each file\n\
      --zero                 end each output line with NUL, not newline\n\
  -1                         list one file per line\n\
      --help                 display this help and exit\n\
      --version              output version information and exit\n\
\n\
The SIZE argument is an integer and optional unit (example: 10K is 10*1024).\n\
Units are K,M,G,T,P,E,Z,Y (powers of 1024) or KB,MB,... (powers of 1000).\n\
Binary prefixes can be used, too: KiB=K, MiB=M, and so on.\n\
\n\
The TIME_STYLE argument can be full-iso, long-iso, iso, locale, or +FORMAT.\n\
FORMAT is interpreted like in date(1).  If FORMAT is FORMAT1<newline>FORMAT2,\n\
then FORMAT1 applies to non-recent files and FORMAT2 to recent files.\n\
TIME_STYLE prefixed with 'posix-' takes effect only outside the POSIX locale.\n\
Also the TIME_STYLE environment variable sets the default style to use.\n\
\n\
The WHEN argument defaults to 'always' and can also be 'auto' or 'never'\n\
(synonyms: yes, force; tty, if-tty; no, none).\n\
\n\
Using color to distinguish file types is disabled both by default and\n\
with --color=never.  With --color=auto, ls emits color codes only when\n\
standard output is connected to a terminal.  The LS_COLORS environment\n\
variable can change the settings.  Use the dircolors(1) command to set it.\n\
\n\
Environment variables, as in GNU ls: LS_COLORS, COLUMNS (default -w),\n\
TABSIZE (default -T), TIME_STYLE, QUOTING_STYLE, LS_BLOCK_SIZE and\n\
BLOCK_SIZE (default --block-size), POSIXLY_CORRECT (512-byte blocks;\n\
options end at the first FILE), TERM and COLORTERM (whether --color=auto\n\
colors without LS_COLORS), TZ, and the locale variables LC_ALL,\n\
LC_COLLATE, LC_CTYPE, LC_TIME, LANG.\n\
\n\
Environment variables of lsplus alone:\n\
  LSPLUS_BACKEND=WORD        how directories are read: auto (the default:\n\
                             intree if the kernel has it, else\n\
                             getdentsplus if its kernel module is loaded,\n\
                             else statx if the kernel's statx tells ACLs\n\
                             and labels, else uring if its statx runs\n\
                             inline, else sync, and uring for the\n\
                             directories of network filesystems), intree\n\
                             (the kernel's own getdentsplus system call),\n\
                             getdentsplus (the module: no system call per\n\
                             file), statx (one statx per file, no xattr\n\
                             call), uring (io_uring batches), sync\n\
                             (getdents64 + statx + listxattr); naming\n\
                             a backend that is not available, or an\n\
                             unknown WORD, is an error (exit status 2)\n\
  LSPLUS_THREADS=0|1         sync backend's helper threads (a big\n\
                             directory shared, a warm tree's next\n\
                             directories read under -R): 0 never, 1\n\
                             always (with 2 or more CPUs); unset: only\n\
                             when a CPU is idle and the calls saved\n\
                             against GNU ls pay for the threads' own\n\
  LSPLUS_URING_BATCH=N       uring backend: operations in flight, 8 to 4096\n\
                             (default 256); any other value makes the\n\
                             backend unavailable\n\
  LSPLUS_REMOTE=WORD         the kind every filesystem is taken for: auto\n\
                             (the default: from /proc/self/mountinfo),\n\
                             local, net (GNU's own attribute probes, calls\n\
                             overlapped on threads), fuse (overlapped);\n\
                             another WORD is an error (exit status 2)\n\
  LSPLUS_REMOTE_THREADS=N    threads that overlap per-file calls on remote\n\
                             filesystems, 1 to 256, whatever their own\n\
                             calls cost; unset: as many as were measured\n\
                             to pay, up to 64, paid from the calls saved\n\
                             against GNU ls (never more calls in all);\n\
                             another value is an error (exit status 2)\n\
  LSPLUS_AHEAD=N             with -R on remote filesystems, directories\n\
                             read ahead at once, 1 to 256; unset: 8, 64\n\
                             once a directory's open took 4 ms or more,\n\
                             started once it was measured to pay and\n\
                             paid from the calls saved against GNU ls;\n\
                             another value is an error (exit status 2)\n\
  LSPLUS_COLD_THREADS=N      threads that read subdirectories ahead under\n\
                             ls -R when a local directory was found cold\n\
                             (its first read waited for the disk), 0 to 8\n\
                             (default 4; 0: never); another value is an\n\
                             error (exit status 2)\n\
  LSPLUS_COLD_USEC=N         a directory read is slow when it takes longer\n\
                             than N microseconds, plus 1 per 128 bytes read\n\
                             and twice the directory's open; cold after two\n\
                             slow ones in a row; 0 to 1000000 (default 30;\n\
                             0: every directory is cold, for tests); another\n\
                             value is an error (exit status 2)\n\
\n\
Exit status:\n\
 0  if OK,\n\
 1  if minor problems (e.g., cannot access subdirectory),\n\
 2  if serious trouble (e.g., cannot access command-line argument).\n\
", stdout);
  printf ("\nReport bugs to: <%s>\n", PACKAGE_BUGREPORT);
  if (*PACKAGE_URL)
    printf ("%s home page: <%s>\n", PACKAGE_NAME, PACKAGE_URL);
  exit (status);
}

/** Print --version: the year comes from configure (LSPLUS_COPYRIGHT_YEAR),
   not from gnulib's version-etc.  */
static void
print_version (void)
{
  printf ("ls (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
  printf ("Copyright (C) %d the lsplus authors.\n", LSPLUS_COPYRIGHT_YEAR);
  fputs ("\
License GPLv3+: GNU GPL version 3 or later <https://gnu.org/licenses/gpl.html>.\n\
This is free software: you are free to change and redistribute it.\n\
There is NO WARRANTY, to the extent permitted by law.\n\
\n\
Written by the lsplus authors (see the AUTHORS file).\n", stdout);
}

/** Whether standard output is a terminal (asked once).  */
static bool
stdout_isatty (void)
{
  static signed char tty = -1;
  if (tty < 0)
    tty = isatty (STDOUT_FILENO);
  return tty;
}

/** Look ARG up in ARGLIST for option CONTEXT; on failure print GNU's
   diagnostic and the list of valid arguments, and exit with status 1 as
   GNU ls does (its argmatch failures use EXIT_FAILURE).  */
static ptrdiff_t
match_arg (char const *context, char const *arg,
           char const *const *arglist, void const *vallist, size_t valsize)
{
  ptrdiff_t i = argmatch (arg, arglist, vallist, valsize);
  if (i < 0)
    {
      argmatch_invalid (context, arg, i);
      argmatch_valid (arglist, vallist, valsize);
      usage (EXIT_FAILURE);
    }
  return i;
}

#define MATCH_ARG(context, arg, args, vals) \
  ((vals)[match_arg (context, arg, args, vals, sizeof *(vals))])

/** Resolve an optional WHEN argument (absent means always).  */
static bool
decide_when (char const *option, char const *arg)
{
  enum when w = arg ? MATCH_ARG (option, arg, when_args, when_vals)
                    : WHEN_ALWAYS;
  return w == WHEN_ALWAYS || (w == WHEN_IF_TTY && stdout_isatty ());
}

/** Parse a line width; -1 if invalid, 0 (no limit) if too large.  */
static ptrdiff_t
parse_line_length (char const *spec)
{
  uintmax_t val;
  switch (xstrtoumax (spec, NULL, 0, &val, ""))
    {
    case LONGINT_OK:
      return val <= MIN (PTRDIFF_MAX, SIZE_MAX) ? (ptrdiff_t) val : 0;
    case LONGINT_OVERFLOW:
      return 0;
    default:
      return -1;
    }
}

/** Parse the -T argument or die like GNU's xnumtoumax.  */
static size_t
parse_tabsize (char const *arg)
{
  uintmax_t val;
  enum strtol_error e = xstrtoumax (arg, NULL, 0, &val, "");
  if (e == LONGINT_OK && val <= MIN (PTRDIFF_MAX, SIZE_MAX))
    return val;
  int err = (e == LONGINT_OVERFLOW || e == LONGINT_OK) ? EOVERFLOW : 0;
  error (LS_FAILURE, err, "%s: %s", _("invalid tab size"), quote (arg));
  abort ();
}

/** Die for an invalid --block-size ARG, as GNU's xstrtol_fatal says it.  */
static _Noreturn void
block_size_fatal (enum strtol_error e, char const *arg)
{
  char const *fmt;
  switch (e)
    {
    case LONGINT_INVALID_SUFFIX_CHAR:
    case LONGINT_INVALID_SUFFIX_CHAR_WITH_OVERFLOW:
      fmt = N_("invalid suffix in %s%s argument '%s'");
      break;
    case LONGINT_OVERFLOW:
      fmt = N_("%s%s argument '%s' too large");
      break;
    default:
      fmt = N_("invalid %s%s argument '%s'");
      break;
    }
  error (LS_FAILURE, 0, _(fmt), "--", "block-size", arg);
  abort ();
}

/** Push PATTERN on the front of the list *LIST.  */
static void
add_pattern (struct ignore_pattern **list, char const *pattern)
{
  struct ignore_pattern *p = xmalloc (sizeof *p);
  p->pattern = pattern;
  p->next = *list;
  *list = p;
}

/** QUOTING_STYLE from the environment, or -1 if unset or invalid.  */
static int
env_quoting_style (void)
{
  char const *s = getenv ("QUOTING_STYLE");
  if (!s)
    return -1;
  ptrdiff_t i = ARGMATCH (s, quoting_style_args, quoting_style_vals);
  if (i < 0)
    {
      error (0, 0, _("ignoring invalid value of environment variable "
                     "QUOTING_STYLE: %s"), quote (s));
      return -1;
    }
  return quoting_style_vals[i];
}

/* What the options said, before the defaults are applied.  */
static char const *time_style_option;

/** Parse the options; return the index of the first operand.  */
static int
decode_switches (int argc, char **argv)
{
  bool kibibytes = false;
  bool explicit_time = false;
  int format_opt = -1;
  int hide_control_chars_opt = -1;
  int quoting_style_opt = -1;
  int sort_opt = -1;
  ptrdiff_t tabsize_opt = -1;
  ptrdiff_t width_opt = -1;

  for (;;)
    {
      int oi = -1;
      int c = getopt_long (argc, argv,
                           "abcdfghiklmnopqrstuvw:xABCDFGHI:LNQRST:UXZ1",
                           long_options, &oi);
      if (c == -1)
        break;
      switch (c)
        {
        case 'a': ignore_mode = IGNORE_MINIMAL; break;
        case 'b': quoting_style_opt = escape_quoting_style; break;
        case 'c': time_type = time_ctime; explicit_time = true; break;
        case 'd': immediate_dirs = true; break;
        case 'f':
          /* -a -U, and cancels -l, -s, --color and --hyperlink so far.  */
          ignore_mode = IGNORE_MINIMAL;
          sort_opt = sort_none;
          if (format_opt == long_format)
            format_opt = -1;
          print_block_size = false;
          print_with_color = false;
          print_hyperlink = false;
          break;
        case FILE_TYPE_OPTION: indicator_style = file_type; break;
        case 'g': format_opt = long_format; print_owner = false; break;
        case 'h':
          human_output_opts = human_autoscale | human_SI | human_base_1024;
          file_human_output_opts = human_output_opts;
          output_block_size = file_output_block_size = 1;
          break;
        case 'i': print_inode = true; break;
        case 'k': kibibytes = true; break;
        case 'l': format_opt = long_format; break;
        case 'm': format_opt = with_commas; break;
        case 'n': numeric_ids = true; format_opt = long_format; break;
        case 'o': format_opt = long_format; print_group = false; break;
        case 'p': indicator_style = slash; break;
        case 'q': hide_control_chars_opt = true; break;
        case 'r': sort_reverse = true; break;
        case 's': print_block_size = true; break;
        case 't': sort_opt = sort_time; break;
        case 'u': time_type = time_atime; explicit_time = true; break;
        case 'v': sort_opt = sort_version; break;
        case 'w':
          width_opt = parse_line_length (optarg);
          if (width_opt < 0)
            error (LS_FAILURE, 0, "%s: %s", _("invalid line width"),
                   quote (optarg));
          break;
        case 'x': format_opt = horizontal; break;
        case 'A': ignore_mode = IGNORE_DOT_AND_DOTDOT; break;
        case 'B':
          add_pattern (&ignore_patterns, "*~");
          add_pattern (&ignore_patterns, ".*~");
          break;
        case 'C': format_opt = many_per_line; break;
        case 'D':
          /* In 9.1 --dired does not imply -l (9.2 changed that).  */
          dired = true;
          break;
        case 'F':
          if (decide_when ("--classify", optarg))
            indicator_style = classify;
          break;
        case 'G': print_group = false; break;
        case 'H': dereference = DEREF_COMMAND_LINE_ARGUMENTS; break;
        case DEREF_CMDLINE_SYMLINK_TO_DIR_OPTION:
          dereference = DEREF_COMMAND_LINE_SYMLINK_TO_DIR;
          break;
        case 'I': add_pattern (&ignore_patterns, optarg); break;
        case 'L': dereference = DEREF_ALWAYS; break;
        case 'N': quoting_style_opt = literal_quoting_style; break;
        case 'Q': quoting_style_opt = c_quoting_style; break;
        case 'R': recursive = true; break;
        case 'S': sort_opt = sort_size; break;
        case 'T': tabsize_opt = parse_tabsize (optarg); break;
        case 'U': sort_opt = sort_none; break;
        case 'X': sort_opt = sort_extension; break;
        case '1':
          /* -1 does not undo an earlier -l.  */
          if (format_opt != long_format)
            format_opt = one_per_line;
          break;
        case AUTHOR_OPTION: print_author = true; break;
        case HIDE_OPTION: add_pattern (&hide_patterns, optarg); break;
        case SORT_OPTION:
          sort_opt = MATCH_ARG ("--sort", optarg, sort_args, sort_vals);
          break;
        case GROUP_DIRS_FIRST_OPTION: directories_first = true; break;
        case TIME_OPTION:
          time_type = MATCH_ARG ("--time", optarg, time_args, time_vals);
          explicit_time = true;
          break;
        case FORMAT_OPTION:
          format_opt = MATCH_ARG ("--format", optarg, format_args,
                                  format_vals);
          break;
        case FULL_TIME_OPTION:
          format_opt = long_format;
          time_style_option = "full-iso";
          full_time = true;
          break;
        case COLOR_OPTION:
          print_with_color = decide_when ("--color", optarg);
          break;
        case HYPERLINK_OPTION:
          print_hyperlink = decide_when ("--hyperlink", optarg);
          break;
        case INDICATOR_STYLE_OPTION:
          indicator_style = MATCH_ARG ("--indicator-style", optarg,
                                       indicator_style_args,
                                       indicator_style_vals);
          break;
        case QUOTING_STYLE_OPTION:
          quoting_style_opt = MATCH_ARG ("--quoting-style", optarg,
                                         quoting_style_args,
                                         quoting_style_vals);
          break;
        case TIME_STYLE_OPTION: time_style_option = optarg; break;
        case SHOW_CONTROL_CHARS_OPTION: hide_control_chars_opt = false; break;
        case BLOCK_SIZE_OPTION:
          {
            enum strtol_error e = human_options (optarg, &human_output_opts,
                                                 &output_block_size);
            if (e != LONGINT_OK)
              block_size_fatal (e, optarg);
            file_human_output_opts = human_output_opts;
            file_output_block_size = output_block_size;
          }
          break;
        case SI_OPTION:
          human_output_opts = human_autoscale | human_SI;
          file_human_output_opts = human_output_opts;
          output_block_size = file_output_block_size = 1;
          break;
        case 'Z': print_scontext = true; break;
        case ZERO_OPTION:
          eolbyte = '\0';
          hide_control_chars_opt = false;
          if (format_opt != long_format)
            format_opt = one_per_line;
          print_with_color = false;
          quoting_style_opt = literal_quoting_style;
          break;
        case HELP_OPTION:
          own_text_domain ();
          usage (EXIT_SUCCESS);
        case VERSION_OPTION:
          own_text_domain ();
          print_version ();
          exit (EXIT_SUCCESS);
        default:
          usage (LS_FAILURE);
        }
    }

  /* Block sizes from the environment, unless an option chose one.  */
  if (!output_block_size)
    {
      char const *ls_block_size = getenv ("LS_BLOCK_SIZE");
      human_options (ls_block_size, &human_output_opts, &output_block_size);
      if (ls_block_size || getenv ("BLOCK_SIZE"))
        {
          file_human_output_opts = human_output_opts;
          file_output_block_size = output_block_size;
        }
      if (kibibytes)
        {
          human_output_opts = 0;
          output_block_size = 1024;
        }
    }

  format = (0 <= format_opt ? (enum format) format_opt
            : stdout_isatty () ? many_per_line : one_per_line);

  /* The line length: -w, else the terminal's width, else COLUMNS.  */
  ptrdiff_t linelen = width_opt;
  if (format == many_per_line || format == horizontal
      || format == with_commas || print_with_color)
    {
      struct winsize ws;
      if (linelen < 0 && stdout_isatty ()
          && 0 <= ioctl (STDOUT_FILENO, TIOCGWINSZ, &ws) && 0 < ws.ws_col)
        linelen = ws.ws_col;
      if (linelen < 0)
        {
          char const *p = getenv ("COLUMNS");
          if (p && *p)
            {
              linelen = parse_line_length (p);
              if (linelen < 0)
                error (0, 0, _("ignoring invalid width in environment "
                               "variable COLUMNS: %s"), quote (p));
            }
        }
    }
  line_length = linelen < 0 ? 80 : linelen;

  if (format == many_per_line || format == horizontal
      || format == with_commas)
    {
      if (0 <= tabsize_opt)
        tabsize = tabsize_opt;
      else
        {
          tabsize = 8;
          char const *p = getenv ("TABSIZE");
          if (p)
            {
              uintmax_t t;
              if (xstrtoumax (p, NULL, 0, &t, "") == LONGINT_OK
                  && t <= SIZE_MAX)
                tabsize = t;
              else
                error (0, 0, _("ignoring invalid tab size in environment "
                               "variable TABSIZE: %s"), quote (p));
            }
        }
    }

  qmark_funny_chars = (hide_control_chars_opt < 0 ? stdout_isatty ()
                       : hide_control_chars_opt);

  int qs = quoting_style_opt;
  if (qs < 0)
    qs = env_quoting_style ();
  if (qs < 0 && stdout_isatty ())
    qs = shell_escape_quoting_style;
  if (0 <= qs)
    set_quoting_style (NULL, qs);
  qs = get_quoting_style (NULL);
  align_variable_outer_quotes
    = ((format == long_format
        || ((format == many_per_line || format == horizontal)
            && line_length))
       && (qs == shell_quoting_style || qs == shell_escape_quoting_style
           || qs == c_maybe_quoting_style));
  filename_quoting_options = clone_quoting_options (NULL);
  if (qs == escape_quoting_style)
    set_char_quoting (filename_quoting_options, ' ', 1);
  if (file_type <= indicator_style)
    for (char const *p = &"*=>@|"[indicator_style - file_type]; *p; p++)
      set_char_quoting (filename_quoting_options, *p, 1);
  dirname_quoting_options = clone_quoting_options (NULL);
  set_char_quoting (dirname_quoting_options, ':', 1);

  /* --dired only means something for the long format without links.  */
  dired = dired && format == long_format && !print_hyperlink;
  if (dired && eolbyte == '\0')
    error (LS_FAILURE, 0, _("--dired and --zero are incompatible"));

  /* -c, -u or --time without -l sort by that time.  */
  sort_type = (0 <= sort_opt ? (enum sort_type) sort_opt
               : format != long_format && explicit_time ? sort_time
               : sort_name);

  return optind;
}

/** Choose the directory-reading backend from LSPLUS_BACKEND.  */
static void
setup_backend (void)
{
  char const *want = getenv ("LSPLUS_BACKEND");
  int b = DIRPLUS_AUTO;
  if (want && *want && strcmp (want, "auto") != 0)
    {
      b = dirplus_backend_parse (want);
      if (b < 0)
        error (LS_FAILURE, 0, "invalid value of LSPLUS_BACKEND: %s "
               "(valid: auto, intree, getdentsplus, statx, uring, sync)", quote (want));
    }
  char const *bad = dirplus_env_invalid ();
  if (bad)
    error (LS_FAILURE, 0, "invalid value of %s: %s", bad,
           quote (getenv (bad)));
  int got = dirplus_setup (b);
  if (got < 0)
    error (LS_FAILURE, errno, "directory backend %s is not available",
           quote (want));
  dirplus_backend = got;
}

int
main (int argc, char **argv)
{
  set_program_name (argv[0]);
  setlocale (LC_ALL, "");
#if ENABLE_NLS
  bindtextdomain ("coreutils", COREUTILS_LOCALEDIR);
#endif
  coreutils_text_domain ();
  exit_failure = LS_FAILURE;
  atexit (close_stdout);

  int i = decode_switches (argc, argv);

  if (format == long_format)
    time_style_init (time_style_option);
  time_init ();

  if (print_with_color && !color_init ())
    print_with_color = false;
  if (print_with_color)
    tabsize = 0;		/* no tabs among colour escapes */

  if (dereference == DEREF_UNDEFINED)
    dereference = ((immediate_dirs || indicator_style == classify
                    || format == long_format)
                   ? DEREF_NEVER : DEREF_COMMAND_LINE_SYMLINK_TO_DIR);

  format_needs_stat = (sort_type == sort_time || sort_type == sort_size
                       || format == long_format
                       || print_block_size || print_hyperlink);
  format_needs_type = (!format_needs_stat
                       && (recursive || print_with_color || print_scontext
                           || directories_first
                           || indicator_style != none));

  name_init ();
  setup_backend ();
  list_files_init ();

  list_operands (argv + i, argc - i);

  if (print_with_color)
    color_finish ();
  dired_finish ();
  return exit_status;
}
