/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ls-color.c -- LS_COLORS parsing and colouring of file names for lsplus ls.

   The colour database is a table of "indicators" (two-letter keys such as
   "di" or "ln", plus the left/right/end codes that wrap every sequence)
   and a list of file-name suffixes.  The rules below reproduce GNU ls 9.1:
   the same defaults, the same parser (with its escapes and diagnostics),
   the same choice of colour for each file, and the same bytes around the
   colour sequences (a reset before the first colour, one after every
   coloured name, none at exit when the left/right codes are standard).

   Colour escapes are not file-name bytes: they are written through
   ls-out.c but are not counted in dired_pos, like GNU's.  */

#include <config.h>

#include <fnmatch.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ls.h"
#include "c-strcase.h"
#include "error.h"
#include "quote.h"
#include "xalloc.h"

/* A byte string that may contain NULs.  */
struct bin_str
{
  size_t len;
  char const *string;
};

#define BIN(s) { sizeof (s) - 1, s }

/* The two-letter names of the indicators, in enum indicator_no order.  */
static char const indicator_name[][2] =
{
  {'l','c'}, {'r','c'}, {'e','c'}, {'r','s'}, {'n','o'}, {'f','i'},
  {'d','i'}, {'l','n'}, {'p','i'}, {'s','o'}, {'b','d'}, {'c','d'},
  {'m','i'}, {'o','r'}, {'e','x'}, {'d','o'}, {'s','u'}, {'s','g'},
  {'s','t'}, {'o','w'}, {'t','w'}, {'c','a'}, {'m','h'}, {'c','l'}
};

enum { N_INDICATORS = sizeof indicator_name / sizeof indicator_name[0] };

/* The sequences, initialised with GNU ls 9.1's built-in defaults.  */
static struct bin_str color_indicator[N_INDICATORS] =
{
  BIN ("\033["),		/* lc */
  BIN ("m"),			/* rc */
  { 0, NULL },			/* ec */
  BIN ("0"),			/* rs */
  { 0, NULL },			/* no */
  { 0, NULL },			/* fi */
  BIN ("01;34"),		/* di */
  BIN ("01;36"),		/* ln */
  BIN ("33"),			/* pi */
  BIN ("01;35"),		/* so */
  BIN ("01;33"),		/* bd */
  BIN ("01;33"),		/* cd */
  { 0, NULL },			/* mi */
  { 0, NULL },			/* or */
  BIN ("01;32"),		/* ex */
  BIN ("01;35"),		/* do */
  BIN ("37;41"),		/* su */
  BIN ("30;43"),		/* sg */
  BIN ("37;44"),		/* st */
  BIN ("34;42"),		/* ow */
  BIN ("30;42"),		/* tw */
  { 0, NULL },			/* ca */
  { 0, NULL },			/* mh */
  BIN ("\033[K"),		/* cl */
};

/* One "*SUFFIX=SEQ" entry.  Later entries are pushed on the front, so
   that the last definition of a suffix wins.  */
struct color_ext
{
  struct bin_str ext;
  struct bin_str seq;
  struct color_ext *next;
};

static struct color_ext *color_ext_list;

/* Storage for the decoded LS_COLORS strings.  */
static char *color_buf;

/* "ln=target": colour symlinks like the file they point to.  */
bool color_symlink_as_referent;

/* Whether any colour sequence has been written yet.  */
static bool used_color;

/* TERM patterns for which GNU ls 9.1 colours by default when LS_COLORS
   is unset (the TERM lines of its built-in dircolors database).  */
static char const *const known_terms[] =
{
  "Eterm", "ansi", "*color*", "con[0-9]*x[0-9]*", "cons25", "console",
  "cygwin", "*direct*", "dtterm", "gnome", "hurd", "jfbterm", "konsole",
  "kterm", "linux", "linux-c", "mlterm", "putty", "rxvt*", "screen*",
  "st", "terminator", "tmux*", "vt100", "xterm*"
};

/** Is TYPE set to something other than "", "0" or "00"?  */
bool
is_colored (enum indicator_no type)
{
  size_t len = color_indicator[type].len;
  char const *s = color_indicator[type].string;
  if (len == 0)
    return false;
  if (len > 2)
    return true;
  return s[0] != '0' || s[len - 1] != '0';
}

/* ---- output of escape sequences (not counted for --dired) ---- */

/** Write N raw bytes of S without counting them in dired_pos.  */
static void
put_raw (char const *s, size_t n)
{
  off_t pos = dired_pos;
  out_bytes (s, n);
  dired_pos = pos;
}

static void put_indicator (struct bin_str const *ind);

/** Restore the terminal's default colour after the program's colours:
   the "end" code if set, otherwise left + reset + right.  */
void
color_prep_non_filename_text (void)
{
  if (color_indicator[C_END].string != NULL)
    put_indicator (&color_indicator[C_END]);
  else
    {
      put_indicator (&color_indicator[C_LEFT]);
      put_indicator (&color_indicator[C_RESET]);
      put_indicator (&color_indicator[C_RIGHT]);
    }
}

/* Signals that must not leave the terminal coloured.  As in GNU ls, the
   handlers only record the signal; color_process_signals() acts on it
   between two names, after restoring the default colour.  */
static int const caught_sigs[] =
{
  SIGTSTP, SIGALRM, SIGHUP, SIGINT, SIGPIPE, SIGQUIT, SIGTERM,
  SIGPOLL, SIGPROF, SIGVTALRM, SIGXCPU, SIGXFSZ
};
enum { N_CAUGHT = sizeof caught_sigs / sizeof caught_sigs[0] };

static sigset_t caught_set;
static volatile sig_atomic_t interrupt_signal;
static volatile sig_atomic_t stop_signal_count;

/** Record a terminating signal.  */
static void
color_sighandler (int sig)
{
  if (!interrupt_signal)
    interrupt_signal = sig;
}

/** Record a stop request.  */
static void
color_stophandler (int sig)
{
  (void) sig;
  if (!interrupt_signal)
    stop_signal_count++;
}

/** When standard output is a terminal, catch the signals that would
   otherwise leave it coloured.  */
static void
color_signal_init (void)
{
  if (tcgetpgrp (STDOUT_FILENO) < 0)
    return;
  struct sigaction act;
  sigemptyset (&caught_set);
  for (int i = 0; i < N_CAUGHT; i++)
    {
      sigaction (caught_sigs[i], NULL, &act);
      if (act.sa_handler != SIG_IGN)
        sigaddset (&caught_set, caught_sigs[i]);
    }
  act.sa_mask = caught_set;
  act.sa_flags = SA_RESTART;
  for (int i = 0; i < N_CAUGHT; i++)
    if (sigismember (&caught_set, caught_sigs[i]))
      {
        act.sa_handler = (caught_sigs[i] == SIGTSTP
                          ? color_stophandler : color_sighandler);
        sigaction (caught_sigs[i], &act, NULL);
      }
}

static void restore_default_color (void);

/** Act on signals recorded by the handlers: restore the default colour,
   then stop or die as the signal asks.  */
void
color_process_signals (void)
{
  while (interrupt_signal || stop_signal_count)
    {
      sigset_t oldset;
      if (used_color)
        restore_default_color ();
      fflush (stdout);
      sigprocmask (SIG_BLOCK, &caught_set, &oldset);
      int sig = interrupt_signal;
      int stops = stop_signal_count;
      if (stops)
        {
          stop_signal_count = stops - 1;
          sig = SIGSTOP;
        }
      else
        signal (sig, SIG_DFL);
      raise (sig);
      sigprocmask (SIG_SETMASK, &oldset, NULL);
    }
}

/** Write one indicator; the first one written is preceded by a reset.  */
static void
put_indicator (struct bin_str const *ind)
{
  if (!used_color)
    {
      used_color = true;
      color_signal_init ();
      color_prep_non_filename_text ();
    }
  put_raw (ind->string, ind->len);
}

/** Left code + right code: back to the terminal's default colour.  */
static void
restore_default_color (void)
{
  put_indicator (&color_indicator[C_LEFT]);
  put_indicator (&color_indicator[C_RIGHT]);
}

/** Switch to the colour IND (a reset first if "no" is set).  */
static void
print_color_indicator (struct bin_str const *ind)
{
  if (is_colored (C_NORM))
    restore_default_color ();
  put_indicator (&color_indicator[C_LEFT]);
  put_indicator (ind);
  put_indicator (&color_indicator[C_RIGHT]);
}

/** Before the non-name parts of an entry: the "no" colour, if set.  */
void
color_set_normal (void)
{
  if (print_with_color && is_colored (C_NORM))
    {
      put_indicator (&color_indicator[C_LEFT]);
      put_indicator (&color_indicator[C_NORM]);
      put_indicator (&color_indicator[C_RIGHT]);
    }
}

/** Emit the clear-to-end-of-line sequence.  */
void
color_clear_to_eol (void)
{
  put_indicator (&color_indicator[C_CLR_TO_EOL]);
}

/** Whether printing a name with colour on emits any colour at all for F:
   true if F has a colour or if "no" is set.  */
bool
color_used_for (struct fileinfo const *f, bool symlink_target)
{
  return print_with_color
         && (color_of (f, symlink_target) || is_colored (C_NORM));
}

/* ---- choosing a colour ---- */

/** The colour sequence for F (its link target if SYMLINK_TARGET), or NULL
   if it has none.  The returned pointer is opaque to other files.  */
void const *
color_of (struct fileinfo const *f, bool symlink_target)
{
  enum indicator_no type;
  char const *name;
  mode_t mode;
  int linkok;		/* 1 ok, 0 broken link, -1 missing target */

  if (symlink_target)
    {
      name = f->linkname;
      mode = f->linkmode;
      linkok = f->linkok ? 0 : -1;
    }
  else
    {
      name = f->name;
      mode = (color_symlink_as_referent && f->linkok
              ? f->linkmode : f->stat.st_mode);
      linkok = f->linkok;
    }

  if (linkok == -1 && is_colored (C_MISSING))
    type = C_MISSING;
  else if (!f->stat_ok)
    {
      static enum indicator_no const by_filetype[] =
        {
          C_ORPHAN, C_FIFO, C_CHR, C_DIR, C_BLK, C_FILE,
          C_LINK, C_SOCK, C_FILE, C_DIR
        };
      type = by_filetype[f->filetype];
    }
  else if (S_ISREG (mode))
    {
      type = C_FILE;
      if ((mode & S_ISUID) && is_colored (C_SETUID))
        type = C_SETUID;
      else if ((mode & S_ISGID) && is_colored (C_SETGID))
        type = C_SETGID;
      else if (is_colored (C_CAP) && f->has_capability)
        type = C_CAP;
      else if ((mode & (S_IXUSR | S_IXGRP | S_IXOTH)) && is_colored (C_EXEC))
        type = C_EXEC;
      else if (1 < f->stat.st_nlink && is_colored (C_MULTIHARDLINK))
        type = C_MULTIHARDLINK;
    }
  else if (S_ISDIR (mode))
    {
      type = C_DIR;
      if ((mode & S_ISVTX) && (mode & S_IWOTH)
          && is_colored (C_STICKY_OTHER_WRITABLE))
        type = C_STICKY_OTHER_WRITABLE;
      else if ((mode & S_IWOTH) && is_colored (C_OTHER_WRITABLE))
        type = C_OTHER_WRITABLE;
      else if ((mode & S_ISVTX) && is_colored (C_STICKY))
        type = C_STICKY;
    }
  else if (S_ISLNK (mode))
    type = C_LINK;
  else if (S_ISFIFO (mode))
    type = C_FIFO;
  else if (S_ISSOCK (mode))
    type = C_SOCK;
  else if (S_ISBLK (mode))
    type = C_BLK;
  else if (S_ISCHR (mode))
    type = C_CHR;
  else
    type = C_ORPHAN;	/* no doors on Linux; anything else is odd */

  /* Suffixes only matter for plain files; the comparison ignores ASCII
     case, and the most recently defined matching suffix wins.  */
  struct color_ext const *ext = NULL;
  if (type == C_FILE)
    {
      size_t len = strlen (name);
      char const *end = name + len;
      for (ext = color_ext_list; ext; ext = ext->next)
        if (ext->ext.len <= len
            && c_strncasecmp (end - ext->ext.len, ext->ext.string,
                              ext->ext.len) == 0)
          break;
    }

  if (type == C_LINK && !linkok
      && (color_symlink_as_referent || is_colored (C_ORPHAN)))
    type = C_ORPHAN;

  struct bin_str const *s = ext ? &ext->seq : &color_indicator[type];
  return s->string ? s : NULL;
}

/** Print the colour for F (or its target); true if one was printed.  */
bool
color_start (struct fileinfo const *f, bool symlink_target)
{
  struct bin_str const *ind = color_of (f, symlink_target);
  if (ind)
    print_color_indicator (ind);
  return ind != NULL;
}

/** Print the colour sequence C obtained from color_of (non-NULL).  */
void
color_start_seq (void const *c)
{
  print_color_indicator (c);
}

/** End a coloured name.  */
void
color_end (void)
{
  color_prep_non_filename_text ();
}

/* ---- LS_COLORS parsing ---- */

/** Decode one LS_COLORS string from *SRC into *DEST, GNU style: backslash
   escapes (\a \b \e \f \n \r \t \v \? \_, octal \NNN, hex \xHH, any other
   escaped char as itself) and caret notation (^X, ^?).  The string ends at
   ':' or NUL, or at '=' if EQUALS_END.  Advances both pointers, stores the
   byte count in *COUNT; returns false on a malformed escape.  */
static bool
decode_color_string (char **dest, char const **src, bool equals_end,
                     size_t *count)
{
  char const *p = *src;
  char *q = *dest;
  size_t n = 0;
  bool ok = true;

  for (;;)
    {
      char c = *p;
      if (c == ':' || c == '\0' || (c == '=' && equals_end))
        break;
      p++;
      if (c == '\\')
        {
          char e = *p;
          if (e == '\0')
            {
              ok = false;
              break;
            }
          p++;
          if ('0' <= e && e <= '7')
            {
              unsigned char v = e - '0';
              while ('0' <= *p && *p <= '7')
                v = (v << 3) + (*p++ - '0');
              c = v;
            }
          else if (e == 'x' || e == 'X')
            {
              unsigned char v = 0;
              for (;;)
                {
                  char h = *p;
                  if ('0' <= h && h <= '9')
                    v = (v << 4) + (h - '0');
                  else if ('a' <= h && h <= 'f')
                    v = (v << 4) + (h - 'a' + 10);
                  else if ('A' <= h && h <= 'F')
                    v = (v << 4) + (h - 'A' + 10);
                  else
                    break;
                  p++;
                }
              c = v;
            }
          else
            switch (e)
              {
              case 'a': c = '\a'; break;
              case 'b': c = '\b'; break;
              case 'e': c = 27; break;
              case 'f': c = '\f'; break;
              case 'n': c = '\n'; break;
              case 'r': c = '\r'; break;
              case 't': c = '\t'; break;
              case 'v': c = '\v'; break;
              case '?': c = 127; break;
              case '_': c = ' '; break;
              default: c = e; break;
              }
        }
      else if (c == '^')
        {
          char e = *p;
          if ('@' <= e && e <= '~')
            {
              c = e & 037;
              p++;
            }
          else if (e == '?')
            c = 127;	/* GNU leaves the '?' to be copied as well */
          else
            {
              ok = false;
              break;
            }
        }
      *q++ = c;
      n++;
    }

  *dest = q;
  *src = p;
  *count = n;
  return ok;
}

/** Does TERM match one of the terminal types known to colour?  */
static bool
known_term_type (void)
{
  char const *term = getenv ("TERM");
  if (!term || !*term)
    return false;
  for (size_t i = 0; i < sizeof known_terms / sizeof known_terms[0]; i++)
    if (fnmatch (known_terms[i], term, 0) == 0)
      return true;
  return false;
}

/** Forget every suffix entry.  */
static void
free_ext_list (void)
{
  while (color_ext_list)
    {
      struct color_ext *e = color_ext_list;
      color_ext_list = e->next;
      free (e);
    }
}

/** Parse LS_COLORS like GNU ls 9.1.  Without LS_COLORS, colour stays on
   (with the built-in defaults) only if COLORTERM is non-empty or TERM is a
   known colour terminal.  A malformed value is diagnosed and turns colour
   off.  Returns the resulting print_with_color.  */
bool
color_init (void)
{
  char const *p = getenv ("LS_COLORS");
  if (!p || !*p)
    {
      char const *colorterm = getenv ("COLORTERM");
      if (!(colorterm && *colorterm) && !known_term_type ())
        print_with_color = false;
      return print_with_color;
    }

  /* Decoded strings are never longer than their source.  */
  char *buf = color_buf = xstrdup (p);
  bool failed = false;

  while (!failed && *p)
    {
      if (*p == ':')
        {
          p++;
          continue;
        }
      if (*p == '*')
        {
          struct color_ext *ext = xmalloc (sizeof *ext);
          ext->next = color_ext_list;
          color_ext_list = ext;
          ext->seq.string = NULL;
          ext->seq.len = 0;
          p++;
          ext->ext.string = buf;
          if (!decode_color_string (&buf, &p, true, &ext->ext.len)
              || *p++ != '=')
            {
              failed = true;
              break;
            }
          ext->seq.string = buf;
          if (!decode_color_string (&buf, &p, false, &ext->seq.len))
            failed = true;
          continue;
        }

      /* A two-letter key.  */
      char label[3];
      label[0] = *p++;
      if (!*p)
        {
          failed = true;
          break;
        }
      label[1] = *p++;
      label[2] = '\0';
      if (*p++ != '=')
        {
          failed = true;
          break;
        }
      int i;
      for (i = 0; i < N_INDICATORS; i++)
        if (label[0] == indicator_name[i][0]
            && label[1] == indicator_name[i][1])
          break;
      if (i == N_INDICATORS
          || ((color_indicator[i].string = buf),
              !decode_color_string (&buf, &p, false,
                                    &color_indicator[i].len)))
        {
          /* GNU reports a bad value of a known key this way too.  */
          error (0, 0, _("unrecognized prefix: %s"), quote (label));
          failed = true;
        }
    }

  /* GNU makes this check even when the value turns out malformed.  */
  if (color_indicator[C_LINK].len == 6
      && memcmp (color_indicator[C_LINK].string, "target", 6) == 0)
    color_symlink_as_referent = true;

  if (failed)
    {
      error (0, 0, _("unparsable value for LS_COLORS environment variable"));
      free (color_buf);
      color_buf = NULL;
      free_ext_list ();
      print_with_color = false;
      return false;
    }

  return print_with_color;
}

/** At exit: if colours were used and the left/right codes are not the
   standard "\033[" and "m", write left + right to restore the terminal.  */
void
color_finish (void)
{
  if (!(print_with_color && used_color))
    return;
  bool standard = (color_indicator[C_LEFT].len == 2
                   && memcmp (color_indicator[C_LEFT].string, "\033[", 2) == 0
                   && color_indicator[C_RIGHT].len == 1
                   && color_indicator[C_RIGHT].string[0] == 'm');
  if (!standard)
    restore_default_color ();
  fflush (stdout);

  /* Stop catching signals, then act on any that arrived meanwhile.  */
  for (int i = 0; i < N_CAUGHT; i++)
    if (sigismember (&caught_set, caught_sigs[i]))
      signal (caught_sigs[i], SIG_DFL);
  for (int j = stop_signal_count; j; j--)
    raise (SIGSTOP);
  if (interrupt_signal)
    raise (interrupt_signal);
}

/* ---- what gathering must find out for colouring ---- */

/** Colour needs symlink targets stat'ed (GNU's check_symlink_mode part
   that comes from colour): orphans coloured, executables coloured through
   ln=target, or missing targets coloured in long format.  */
bool
color_needs_link_target (void)
{
  return print_with_color
         && (is_colored (C_ORPHAN)
             || (is_colored (C_EXEC) && color_symlink_as_referent)
             || (is_colored (C_MISSING) && format == long_format));
}

/** Colour needs capabilities looked up.  Always false: the GNU ls 9.1 we
   mimic (Debian 12) is built without libcap, so it never finds one and
   never uses the "ca" colour.  */
bool
color_needs_capability (void)
{
  return false;
}

/** Colour needs directories stat'ed (sticky / other-writable colours).  */
bool
color_dir_needs_stat (void)
{
  return print_with_color
         && (is_colored (C_OTHER_WRITABLE) || is_colored (C_STICKY)
             || is_colored (C_STICKY_OTHER_WRITABLE));
}

/** Colour needs regular files stat'ed (ex, su, sg colours).  */
bool
color_file_needs_stat (void)
{
  return print_with_color
         && (is_colored (C_EXEC) || is_colored (C_SETUID)
             || is_colored (C_SETGID));
}

/** Either of the two above.  */
bool
color_needs_stat (void)
{
  return color_dir_needs_stat () || color_file_needs_stat ();
}
