/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ls-gather.c -- filling struct fileinfo for command-line operands and
   directory entries.

   What has to be stat'ed, read (symlink targets) or probed (ACL, label)
   is decided per file the way GNU ls 9.1 decides it, so that the same
   diagnostics come out when something cannot be accessed; but the data
   itself comes from lib/dirplus, which hands us the stat data and the
   attribute bits of a whole batch of entries at once (one llistxattr per
   file at most; the label's value is read only for -Z).  */

#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "ls.h"
#include "areadlink.h"
#include "canonicalize.h"
#include "dirplus.h"
#include "error.h"
#include "obstack.h"
#include "quote.h"
#include "xalloc.h"

/* File names in diagnostics, quoted like GNU coreutils does.  */
#define quoteaf(arg) quotearg_style (shell_escape_always_quoting_style, arg)
#define quotef(arg) \
  quotearg_n_style_colon (0, shell_escape_quoting_style, arg)

/* Symlink targets are looked at: GNU's check_symlink_mode.  */
static bool check_symlink_mode;

/* The statx fields we use.  */
static unsigned int statx_mask;

/* The unknown security context.  */
static char unknown_context[] = "?";

/** Decide, once the options are final, what gathering needs.  */
void
list_files_init (void)
{
  check_symlink_mode = directories_first || color_needs_link_target ();
  statx_mask = STATX_BASIC_STATS | (time_type == time_btime ? STATX_BTIME : 0);
}

/** Set the exit status for a failure: SERIOUS gives 2, else at least 1.  */
void
set_exit_status (bool serious)
{
  if (serious)
    exit_status = LS_FAILURE;
  else if (exit_status == 0)
    exit_status = LS_MINOR_PROBLEM;
}

/** Report a failure to access FILE (errno says why) with MESSAGE.  */
void
file_failure (bool serious, char const *message, char const *file)
{
  error (0, errno, message, quoteaf (file));
  set_exit_status (serious);
}

/** Does one of PATTERNS match NAME?  */
static bool
patterns_match (struct ignore_pattern const *patterns, char const *name)
{
  for (struct ignore_pattern const *p = patterns; p; p = p->next)
    if (fnmatch (p->pattern, name, FNM_PERIOD) == 0)
      return true;
  return false;
}

/** Should the directory entry NAME be left out of the listing?  */
bool
file_ignored (char const *name)
{
  if (ignore_mode != IGNORE_MINIMAL && name[0] == '.'
      && (ignore_mode == IGNORE_DEFAULT || !name[1 + (name[1] == '.')]))
    return true;
  if (ignore_mode == IGNORE_DEFAULT && patterns_match (hide_patterns, name))
    return true;
  return patterns_match (ignore_patterns, name);
}

/* The names of the listing's files live in an obstack that listing_clear
   empties all at once: no malloc per name, none of malloc's per-block
   overhead (a directory of a million entries is held whole unless it is
   streamed).  Names are packed byte after byte (alignment 1).  There is
   one listing at a time.  */
static struct obstack name_pool;
static char *name_pool_base;	/* the pool's first object, NULL before */

/** A copy of NAME in the name pool.  */
static char *
pool_strdup (char const *name)
{
  if (!name_pool_base)
    {
      obstack_specify_allocation (&name_pool, 64 * 1024 - 64, 1,
                                  xmalloc, free);
      name_pool_base = obstack_alloc (&name_pool, 1);
    }
  return obstack_copy0 (&name_pool, name, strlen (name));
}

/** Forget every name in the pool; its first chunk stays for the next
   listing.  */
static void
pool_clear (void)
{
  if (name_pool_base)
    {
      obstack_free (&name_pool, name_pool_base);
      name_pool_base = obstack_alloc (&name_pool, 1);
    }
}

/** Free every file of L and start a new listing.  */
void
listing_clear (struct file_list *l)
{
  for (size_t i = 0; i < l->used; i++)
    {
      struct fileinfo *f = &l->files[i];
      free (f->linkname);
      free (f->absolute_name);
      if (f->scontext != unknown_context)
        free (f->scontext);
    }
  pool_clear ();
  l->used = 0;
  long_widths_reset ();
  any_has_acl = false;
}

/** Point L->sorted at L's files, in the order they were added.  */
void
listing_seal (struct file_list *l)
{
  if (l->sorted_alloc < l->used)
    {
      free (l->sorted);
      l->sorted_alloc = l->used;
      l->sorted = xnmalloc (l->used, sizeof *l->sorted);
    }
  for (size_t i = 0; i < l->used; i++)
    l->sorted[i] = &l->files[i];
}

/** A new zeroed file in L.  */
static struct fileinfo *
new_file (struct file_list *l)
{
  if (l->used == l->alloc)
    l->files = x2nrealloc (l->files, &l->alloc, sizeof *l->files);
  struct fileinfo *f = &l->files[l->used];
  memset (f, 0, sizeof *f);
  f->scontext = unknown_context;
  f->quoted = -1;
  return f;
}

/** The file type for a DT_* value.  */
static enum filetype
dtype_filetype (unsigned char d_type)
{
  switch (d_type)
    {
    case DT_FIFO: return fifo;
    case DT_CHR: return chardev;
    case DT_DIR: return directory;
    case DT_BLK: return blockdev;
    case DT_REG: return normal;
    case DT_LNK: return symbolic_link;
    case DT_SOCK: return sock;
#ifdef DT_WHT
    case DT_WHT: return whiteout;
#endif
    default: return unknown;
    }
}

/** The file type for a st_mode.  */
static enum filetype
mode_filetype (mode_t mode)
{
  return (S_ISREG (mode) ? normal : S_ISDIR (mode) ? directory
          : S_ISLNK (mode) ? symbolic_link : S_ISFIFO (mode) ? fifo
          : S_ISCHR (mode) ? chardev : S_ISBLK (mode) ? blockdev
          : S_ISSOCK (mode) ? sock : unknown);
}

/** Copy the statx data of E into F.  */
static void
set_stat (struct fileinfo *f, struct statx const *x)
{
  struct stat *st = &f->stat;
  dirplus_statx_to_stat (x, st);
  /* Only one timestamp is ever shown or sorted by: the birth time,
     when asked for, takes the place of the modification time.  */
  if (time_type == time_btime)
    {
      st->st_mtim.tv_sec = -1;
      st->st_mtim.tv_nsec = -1;
      if (x->stx_mask & STATX_BTIME)
        {
          st->st_mtim.tv_sec = x->stx_btime.tv_sec;
          st->st_mtim.tv_nsec = x->stx_btime.tv_nsec;
        }
    }
  f->stat_ok = true;
}

/** NAME inside DIRPATH as GNU names it in messages: no "./" prefix for
   the current directory, no doubled '/'.  The result lives in a buffer
   reused by the next call.  */
static char const *
attach (char const *dirpath, char const *name)
{
  static char *buf;
  static size_t buf_size;
  if (!dirpath || (dirpath[0] == '.' && dirpath[1] == '\0'))
    return name;
  size_t dl = strlen (dirpath), nl = strlen (name);
  if (buf_size < dl + nl + 2)
    {
      free (buf);
      buf_size = 2 * (dl + nl + 2);
      buf = xmalloc (buf_size);
    }
  char *p = buf;
  memcpy (p, dirpath, dl);
  if (dl && dirpath[dl - 1] != '/')
    p[dl++] = '/';
  memcpy (p + dl, name, nl + 1);
  return p;
}

/** The security context of NAME in DIRFD for -Z, or NULL with errno.  */
static char *
get_context (int dirfd, char const *name, bool follow)
{
  char buf[4096];
  ssize_t n = dirplus_getxattr (dirfd, name, "security.selinux", buf,
                                sizeof buf - 1, follow ? DIRPLUS_FOLLOW : 0);
  if (n < 0)
    return NULL;
  /* An empty value reads as "unsupported" (libselinux's getfilecon, which
     GNU uses): '?' for -Z, no '.'.  */
  if (n == 0)
    {
      errno = ENOTSUP;
      return NULL;
    }
  while (0 < n && buf[n - 1] == '\0')
    n--;
  buf[n] = '\0';
  return xstrdup (buf);
}

/** Fill F's ACL type and -Z context from the attribute bits in E, like
   GNU 9.1's getfilecon + file_has_acl pair.  */
static void
set_attrs (struct fileinfo *f, struct dirplus_entry const *e, int dirfd,
           char const *name, char const *full_name, bool follow)
{
  bool have_label = false, have_acl = false;
  bool err = false;
  int err_no = 0;

  /* The label: its presence (and value for -Z).  */
  bool label_known = e && !(e->attr_unknown & DIRPLUS_ATTR_LABEL)
                     && e->stat_errno == 0;
  if (label_known && !(e->attr & DIRPLUS_ATTR_LABEL))
    ;				/* no label: GNU's ENODATA, not an error */
  else if (label_known && !print_scontext)
    have_label = true;
  else
    {
      char *ctx = get_context (dirfd, name, follow);
      if (ctx)
        {
          /* 9.1 treats the value "unlabeled" as no context at all.  */
          have_label = strcmp (ctx, "unlabeled") != 0;
          if (print_scontext && have_label)
            f->scontext = ctx;
          else
            free (ctx);
        }
      else if (!(errno == ENOTSUP || errno == EOPNOTSUPP || errno == ENODATA))
        {
          err = true;
          err_no = errno;
        }
    }

  if (!err && format == long_format)
    {
      bool acl_known = e && e->stat_errno == 0
                       && !(e->attr_unknown & (DIRPLUS_ATTR_ACL_ACCESS
                                               | DIRPLUS_ATTR_ACL_DEFAULT));
      if (acl_known)
        have_acl = (e->attr & (DIRPLUS_ATTR_ACL_ACCESS
                               | DIRPLUS_ATTR_ACL_DEFAULT)) != 0;
      else if (!S_ISLNK (f->stat.st_mode))
        {
          /* GNU 9.1's rule (not the newer gnulib's, which also reads
             NFSv4 ACLs).  */
          int n = dirplus_file_has_acl (dirfd, name, f->stat.st_mode);
          if (n < 0)
            {
              err = true;
              err_no = errno;
            }
          have_acl = 0 < n;
        }
    }

  f->acl_type = (have_acl ? ACL_T_YES
                 : have_label ? ACL_T_LSM_CONTEXT_ONLY : ACL_T_NONE);
  any_has_acl |= f->acl_type != ACL_T_NONE;
  if (err)
    error (0, err_no, "%s", quotef (full_name));
}

/** Read F's symlink target and, if needed, the mode of what it points
   to (GNU: long format or check_symlink_mode).  */
static void
set_link (struct fileinfo *f, int dirfd, char const *name,
          char const *full_name, bool command_line_arg)
{
  f->linkname = areadlinkat_with_size (dirfd, name, f->stat.st_size);
  if (!f->linkname)
    {
      file_failure (command_line_arg, _("cannot read symbolic link %s"),
                    full_name);
      return;
    }
  if (indicator_style >= file_type || check_symlink_mode)
    {
      struct stat st;
      if (fstatat (dirfd, name, &st, 0) == 0)
        {
          f->linkok = true;
          f->linkmode = st.st_mode;
        }
    }
}

/** The common tail of gathering: type, attributes, link, widths.  */
static uintmax_t
finish_file (struct file_list *l, struct fileinfo *f, enum filetype type,
             struct dirplus_entry const *e, int dirfd, char const *name,
             char const *full_name, bool command_line_arg, bool do_deref)
{
  if (type == directory && command_line_arg && !immediate_dirs)
    type = arg_directory;
  f->filetype = type;

  if (format == long_format || print_scontext)
    set_attrs (f, e, dirfd, name, full_name, do_deref);

  if (type == symbolic_link
      && (format == long_format || check_symlink_mode))
    set_link (f, dirfd, name, full_name, command_line_arg);

  f->name = pool_strdup (name);
  l->used++;
  long_widths_update (f);
  return f->stat_ok ? f->stat.st_blocks : 0;
}

/** For --hyperlink: F's absolute name from FULL_NAME, as GNU computes it
   (symlinks resolved, a missing tail allowed).  */
static void
set_absolute_name (struct fileinfo *f, char const *full_name,
                   bool command_line_arg)
{
  f->absolute_name = canonicalize_filename_mode (full_name, CAN_MISSING);
  if (!f->absolute_name)
    file_failure (command_line_arg, _("error canonicalizing %s"),
                  full_name);
}

/** Stat NAME in DIRFD into E following symlinks if FOLLOW; 0 or -1.  */
static int
stat_one (int dirfd, char const *name, bool follow,
          struct dirplus_entry *e)
{
  unsigned int flags = (follow ? DIRPLUS_FOLLOW : 0);
  if (format == long_format || print_scontext)
    flags |= DIRPLUS_WANT_LABEL | (format == long_format
                                   ? DIRPLUS_WANT_ACL : 0);
  return dirplus_stat (dirfd, name, statx_mask, flags, e);
}

/** Add the command-line operand NAME to L.  */
uintmax_t
gather_operand (struct file_list *l, char const *name)
{
  struct dirplus_entry e;
  struct fileinfo *f = new_file (l);
  bool do_deref;
  int r;

  if (print_hyperlink)
    set_absolute_name (f, name, true);

  switch (dereference)
    {
    case DEREF_ALWAYS:
      r = stat_one (AT_FDCWD, name, true, &e);
      do_deref = true;
      break;
    case DEREF_COMMAND_LINE_ARGUMENTS:
    case DEREF_COMMAND_LINE_SYMLINK_TO_DIR:
      r = stat_one (AT_FDCWD, name, true, &e);
      do_deref = true;
      if (dereference == DEREF_COMMAND_LINE_ARGUMENTS)
        break;
      /* 9.1 falls back to lstat only for ENOENT (not ELOOP).  */
      if (r < 0 ? errno == ENOENT
          : !S_ISDIR (e.stx.stx_mode))
        {
          r = stat_one (AT_FDCWD, name, false, &e);
          do_deref = false;
        }
      break;
    default:
      r = stat_one (AT_FDCWD, name, false, &e);
      do_deref = false;
      break;
    }

  if (r < 0)
    {
      file_failure (true, _("cannot access %s"), name);
      /* It still counts for the alignment space, as in GNU.  */
      name_note_failed_operand (name);
      free (f->absolute_name);
      return 0;
    }
  set_stat (f, &e.stx);
  return finish_file (l, f, mode_filetype (f->stat.st_mode), &e, AT_FDCWD,
                      name, name, true, do_deref);
}

/** Must the directory entry of type TYPE be stat'ed?  (GNU 9.1's rule,
   for entries; operands always are.)  */
static bool
entry_needs_stat (enum filetype type)
{
  /* GNU ls on Linux does not trust d_ino (mount points): -i stats;
     9.1 also stats every entry for -Z.  */
  if (print_hyperlink || format_needs_stat || print_inode || print_scontext)
    return true;
  if ((type == directory || type == unknown) && color_dir_needs_stat ())
    return true;
  if ((print_inode || format_needs_type)
      && (type == symbolic_link || type == unknown)
      && (dereference == DEREF_ALWAYS || color_symlink_as_referent
          || check_symlink_mode))
    return true;
  if (format_needs_type
      && (type == unknown
          || (type == normal
              && (indicator_style == classify || color_file_needs_stat ()))))
    return true;
  return false;
}

/** Add the directory entry E (of DIRFD, called DIRPATH) to L.  */
uintmax_t
gather_entry (struct file_list *l, int dirfd, char const *dirpath,
              struct dirplus_entry const *e)
{
  struct fileinfo *f = new_file (l);
  char const *name = e->name;
  enum filetype type = dtype_filetype (e->d_type);
  bool follow = dereference == DEREF_ALWAYS;
  struct dirplus_entry own;
  char const *full_name = attach (dirpath, e->name);
  uintmax_t blocks;

  f->stat.st_ino = e->ino;
  f->d_ino = e->ino;
  f->filetype = type;

  if (entry_needs_stat (type))
    {
      if (print_hyperlink)
        set_absolute_name (f, full_name, false);
      if (e->stat_errno == 0 && e->stx.stx_mask == 0)
        {
          /* The directory was read without stat data: stat it now.  */
          stat_one (dirfd, e->name, follow, &own);
          own.name = e->name;
          e = &own;
        }
      if (e->stat_errno != 0)
        {
          errno = e->stat_errno;
          file_failure (false, _("cannot access %s"), full_name);
          f->name = pool_strdup (e->name);
          l->used++;
          long_widths_update (f);
          return 0;
        }
      set_stat (f, &e->stx);
      type = mode_filetype (f->stat.st_mode);
    }
  else if (e->stx.stx_mask == 0 && (format == long_format || print_scontext))
    e = NULL;			/* no attribute bits either */

  blocks = finish_file (l, f, type, e, dirfd, name, full_name, false,
                        follow);
  return blocks;
}

/** Keep an entry?  (Filter run before the backend stats it.)  */
static bool
keep_entry (char const *name, size_t namelen _GL_UNUSED,
            unsigned char d_type _GL_UNUSED, void *arg _GL_UNUSED)
{
  return !file_ignored (name);
}

/** Open directory NAME relative to PARENTFD for listing its entries.  */
struct dirplus_dir *
gather_opendir (int parentfd, char const *name, bool command_line_arg)
{
  unsigned int flags = DIRPLUS_OPEN_FOLLOW;
  unsigned int mask = statx_mask;
  (void) command_line_arg;

  if (dereference == DEREF_ALWAYS)
    flags |= DIRPLUS_FOLLOW;
  if (!format_needs_stat && !print_hyperlink && !print_inode
      && !print_scontext)
    flags |= DIRPLUS_NO_STAT;
  else if (format == long_format || print_scontext)
    flags |= DIRPLUS_WANT_LABEL | (format == long_format
                                   ? DIRPLUS_WANT_ACL : 0);
  struct dirplus_dir *d = dirplus_open (parentfd, name, mask, flags);
  if (d)
    dirplus_set_filter (d, keep_entry, NULL);
  return d;
}
