/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ls-recurse.c -- listing the operands and directories, and -R.

   Operands that are files are listed first (in one listing), then each
   directory operand in sorted order; with -R each directory's
   subdirectories follow it, depth first, in the listing's order, like
   GNU ls.

   Unlike GNU ls, which opens "dir/sub/subsub/..." by its full name, every
   subdirectory is opened relative to its parent's file descriptor, so the
   depth of a tree is limited neither by PATH_MAX nor by the stack: the
   walk keeps an explicit stack of small records (the directory's dev/ino,
   its place in the path buffer and the names of the subdirectories still
   to visit).  Only the top levels (64) keep their descriptors open;
   deeper ones are reopened through ".." of the child (checked by dev/ino)
   when the walk comes back to them.

   Cycles (ls -RL through a symlink loop, bind mounts) are caught with a
   hash of the dev/ino pairs of the directories being listed, as GNU does:
   "not listing already-listed directory", exit status 2.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "ls.h"
#include "canonicalize.h"
#include "dev-ino.h"
#include "dirplus.h"
#include "error.h"
#include "hash.h"
#include "human.h"
#include "quote.h"
#include "xalloc.h"

/* Levels of the walk that keep their directory open: at most 64, fewer
   if the descriptor limit is low (see list_operands).  */
static size_t keep_open = 64;

/* The listing being built.  */
static struct file_list cur;

/* No directory header printed yet (no blank line before the first).  */
static bool first_dir = true;

/* dev/ino of the directories on the walk's stack (only with -R).  */
static Hash_table *active_dirs;

/* One directory of the -R walk.  */
struct level
{
  int fd;			/* open directory, or -1 */
  struct dirplus_dir *dir;	/* owner of FD while open, or NULL */
  dev_t dev;
  ino_t ino;
  size_t path_len;		/* length of its path in the path buffer */
  size_t name_off;		/* where its own name starts in the buffer */
  char **subdirs;		/* names of subdirectories still to list */
  size_t nsub, next;
};

/* The path of the directory being listed, as GNU ls names it.  */
static char *path;
static size_t path_alloc;

/** Hash a dev_ino.  */
static size_t
dev_ino_hash (void const *x, size_t table_size)
{
  struct dev_ino const *p = x;
  return (uintmax_t) p->st_ino % table_size;
}

/** Compare two dev_ino.  */
static bool
dev_ino_compare (void const *x, void const *y)
{
  struct dev_ino const *a = x;
  struct dev_ino const *b = y;
  return a->st_ino == b->st_ino && a->st_dev == b->st_dev;
}

/** Make sure the path buffer holds N bytes.  */
static void
path_reserve (size_t n)
{
  if (path_alloc < n)
    {
      path_alloc = n * 2;
      path = xrealloc (path, path_alloc);
    }
}

/** Set the path to NAME.  */
static void
path_set (char const *name)
{
  size_t n = strlen (name);
  path_reserve (n + 1);
  memcpy (path, name, n + 1);
}

/** Append "/NAME" to the first LEN bytes of the path (no '/' if it
   already ends in one); return where NAME starts.  */
static size_t
path_push (size_t len, char const *name)
{
  size_t n = strlen (name);
  path_reserve (len + n + 2);
  if (len && path[len - 1] != '/')
    path[len++] = '/';
  memcpy (path + len, name, n + 1);
  return len;
}

/** Print the "DIR:" header (after a blank line unless it is the first).  */
static void
print_header (char const *name, bool command_line_arg)
{
  if (!first_dir)
    out_char ('\n');
  first_dir = false;
  dired_indent ();
  char *absolute_name = NULL;
  if (print_hyperlink)
    {
      absolute_name = canonicalize_filename_mode (name, CAN_MISSING);
      if (!absolute_name)
        file_failure (command_line_arg, _("error canonicalizing %s"),
                      name);
    }
  print_dir_header_name (name, absolute_name);
  free (absolute_name);
  out_str (":\n");
}

/** Print the "total N" line.  */
static void
print_total (uintmax_t total)
{
  char buf[LONGEST_HUMAN_READABLE + 1];
  dired_indent ();
  out_str (_("total"));
  out_char (' ');
  out_str (human_readable (total, buf, human_output_opts, 512,
                           output_block_size));
  out_char (eolbyte);
}

/** Sort and print the current listing.  */
static void
print_listing (void)
{
  listing_seal (&cur);
  name_check_quoting (cur.sorted, cur.used);
  sort_files (cur.sorted, cur.used);
  if (cur.used)
    print_current_files (cur.sorted, cur.used);
}

/** Is NAME "." or ".."?  */
static bool
dot_or_dotdot (char const *name)
{
  return name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2]));
}

/** Append to LV's subdirectories to visit those of the current listing
   (in its sorted order: call after sorting).  *ALLOC is the allocated
   size of LV->subdirs.  */
static void
collect_subdirs (struct level *lv, size_t *alloc)
{
  for (size_t i = 0; i < cur.used; i++)
    {
      struct fileinfo const *f = cur.sorted[i];
      if ((f->filetype == directory || f->filetype == arg_directory)
          && !dot_or_dotdot (f->name))
        {
          if (lv->nsub == *alloc)
            lv->subdirs = x2nrealloc (lv->subdirs, alloc,
                                      sizeof *lv->subdirs);
          lv->subdirs[lv->nsub++] = xstrdup (f->name);
        }
    }
}

/** List the directory whose path is in the path buffer, reached as NAME
   relative to PARENTFD.  On success fill LV (open directory, dev/ino, and
   with -R the subdirectories to visit) and return true; on failure report
   it and return false.  */
static bool
list_dir (int parentfd, char const *name, bool command_line_arg,
          dev_t const *dev_hint, struct level *lv)
{
  struct dirplus_dir *d = gather_opendir (parentfd, name, command_line_arg);
  if (!d)
    {
      file_failure (command_line_arg, _("cannot open directory %s"),
                    path);
      return false;
    }
  /* The device it is most likely on (its own stat as an operand, its
     parent's below): the library picks how to read it before the first
     read; the directory's own stat corrects it below.  */
  if (dev_hint)
    dirplus_set_dev (d, *dev_hint);
  int fd = dirplus_fd (d);
  lv->fd = fd;
  lv->dir = d;
  lv->subdirs = NULL;
  lv->nsub = lv->next = 0;

  if (recursive)
    {
      struct stat st;
      if (dirplus_fstat (d, &st) != 0)
        {
          file_failure (command_line_arg,
                        _("cannot determine device and inode of %s"),
                        path);
          dirplus_close (d);
          return false;
        }
      lv->dev = st.st_dev;
      lv->ino = st.st_ino;
      dirplus_set_dev (d, st.st_dev);
      struct dev_ino *di = xmalloc (sizeof *di);
      di->st_dev = st.st_dev;
      di->st_ino = st.st_ino;
      struct dev_ino const *found = hash_insert (active_dirs, di);
      if (!found)
        xalloc_die ();
      if (found != di)
        {
          free (di);
          error (0, 0, _("%s: not listing already-listed directory"),
                 quotearg_n_style_colon (0, shell_escape_quoting_style,
                                         path));
          dirplus_close (d);
          set_exit_status (true);
          return false;
        }
    }

  listing_clear (&cur);
  if (recursive || print_dir_name)
    print_header (path, command_line_arg);

  /* -1 -U listings are printed as they are read, so that a huge
     directory is never held whole.  GNU does it entry by entry (the -i
     and -Z widths are then per entry) and not with -R.  We also stream
     with -R, a batch at a time, when that cannot change a byte: no
     width depends on other entries, and no option makes us stat or
     read an entry (so no per-entry diagnostic can come between the
     lines; only an entry whose type the directory does not give is
     stat'ed).  The subdirectories to visit are collected as the
     entries go by.  */
  bool per_entry = (format == one_per_line && sort_type == sort_none
                    && !print_block_size && !recursive);
  bool stream = (per_entry
                 || (recursive && format == one_per_line
                     && sort_type == sort_none && !print_block_size
                     && !print_inode && !print_scontext
                     && !format_needs_stat && !print_hyperlink
                     && !print_with_color && !directories_first
                     && dereference != DEREF_ALWAYS
                     && indicator_style != classify));
  size_t subdirs_alloc = 0;
  uintmax_t total = 0;
  int overflows = 0;
  for (;;)
    {
      struct dirplus_entry *ents;
      ssize_t n = dirplus_read (d, &ents);
      if (n == 0)
        break;
      if (n < 0)
        {
          /* Like GNU, go on after EOVERFLOW (one entry lost), but do not
             spin if the backend keeps failing at the same place.  */
          int err = errno;
          /* getdents fails with ENOENT once the directory has been
             removed; glibc's readdir, which GNU ls uses, takes that for
             the end of the directory (an empty listing, no message).  */
          if (err == ENOENT)
            break;
          file_failure (command_line_arg, _("reading directory %s"), path);
          if (err != EOVERFLOW || 100 < ++overflows)
            break;
          continue;
        }
      for (ssize_t i = 0; i < n; i++)
        {
          total += gather_entry (&cur, fd, path, &ents[i]);
          if (per_entry)
            {
              print_listing ();
              listing_clear (&cur);
            }
        }
      if (stream && !per_entry)
        {
          print_listing ();
          if (recursive)
            collect_subdirs (lv, &subdirs_alloc);
          listing_clear (&cur);
        }
      color_process_signals ();
    }

  listing_seal (&cur);
  name_check_quoting (cur.sorted, cur.used);
  sort_files (cur.sorted, cur.used);

  if (recursive)
    {
      collect_subdirs (lv, &subdirs_alloc);
      /* On a remote filesystem, a local one found cold, or a warm one
         with a CPU spare, the subdirectories are read ahead while this
         listing is printed and the walk goes down (dirplus-ahead.c); in
         the order the walk will take them.  */
      dirplus_ahead (d, lv->subdirs, lv->nsub);
    }

  if (format == long_format || print_block_size)
    print_total (total);
  if (cur.used)
    print_current_files (cur.sorted, cur.used);
  listing_clear (&cur);
  return true;
}

/** Forget LV: its dev/ino leaves the active set, its memory is freed, its
   directory closed.  */
static void
level_done (struct level *lv)
{
  if (recursive)
    {
      struct dev_ino key = { .st_ino = lv->ino, .st_dev = lv->dev };
      struct dev_ino *found = hash_remove (active_dirs, &key);
      free (found);
    }
  for (size_t i = lv->next; i < lv->nsub; i++)
    free (lv->subdirs[i]);
  free (lv->subdirs);
  if (lv->dir)
    dirplus_close (lv->dir);
  else if (0 <= lv->fd)
    close (lv->fd);
  lv->dir = NULL;
  lv->fd = -1;
}

/** Does FD refer to the directory of LV?  */
static bool
fd_is_level (int fd, struct level const *lv)
{
  struct stat st;
  return fstat (fd, &st) == 0 && st.st_dev == lv->dev
         && st.st_ino == lv->ino;
}

/** Reopen the closed directory STACK[I] from an open relative: first via
   ".." of STACK[I + 1] (still open), else by walking down the names from
   the nearest open ancestor.  Returns false if it cannot be found again.  */
static bool
reopen_level (struct level *stack, size_t i)
{
  int oflags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOCTTY;
  int fd = openat (stack[i + 1].fd, "..", oflags);
  if (0 <= fd && fd_is_level (fd, &stack[i]))
    {
      stack[i].fd = fd;
      return true;
    }
  if (0 <= fd)
    close (fd);

  /* Walk down from the nearest open ancestor, or from the working
     directory (level 0's name is the operand itself).  */
  size_t start = i + 1;
  int base = AT_FDCWD;
  while (0 < start)
    {
      start--;
      if (start < i && 0 <= stack[start].fd)
        {
          base = stack[start].fd;
          start++;
          break;
        }
    }
  fd = base;
  for (size_t j = start; j <= i; j++)
    {
      /* The name of level J sits between its name_off and path_len.  */
      size_t len = stack[j].path_len - stack[j].name_off;
      char *comp = ximemdup0 (path + stack[j].name_off, len);
      int nfd = openat (fd, comp, oflags);
      free (comp);
      if (fd != base)
        close (fd);
      if (nfd < 0)
        return false;
      fd = nfd;
    }
  if (fd == base)
    return false;
  if (!fd_is_level (fd, &stack[i]))
    {
      close (fd);
      return false;
    }
  stack[i].fd = fd;
  return true;
}

/** List directory NAME (an operand, or "." by default; DEV_HINT its
   device if known, else NULL) and, with -R, everything below it.  */
static void
list_tree (char const *name, dev_t const *dev_hint)
{
  struct level *stack = NULL;
  size_t depth = 0, alloc = 0;

  path_set (name);
  stack = x2nrealloc (stack, &alloc, sizeof *stack);
  if (!list_dir (AT_FDCWD, name, true, dev_hint, &stack[0]))
    {
      free (stack);
      return;
    }
  /* Like GNU's file_name_concat, "dir//" + "sub" gives "dir/sub".  */
  size_t len = strlen (path);
  while (1 < len && path[len - 1] == '/' && path[len - 2] == '/')
    path[--len] = '\0';
  stack[0].path_len = len;
  stack[0].name_off = 0;
  depth = 1;

  while (depth)
    {
      struct level *top = &stack[depth - 1];
      if (top->next < top->nsub)
        {
          char *sub = top->subdirs[top->next++];
          size_t off = path_push (top->path_len, sub);
          if (top->fd < 0 && !reopen_level (stack, depth - 1))
            {
              /* The directory moved away under us: skip the rest of it.  */
              path[top->path_len] = '\0';
              errno = ENOENT;
              file_failure (false, _("cannot open directory %s"), path);
              for (size_t j = top->next; j < top->nsub; j++)
                free (top->subdirs[j]);
              top->next = top->nsub;
              free (sub);
              continue;
            }
          if (depth == alloc)
            {
              stack = x2nrealloc (stack, &alloc, sizeof *stack);
              top = &stack[depth - 1];
            }
          struct level *child = &stack[depth];
          bool ok = list_dir (top->fd, sub, false, &top->dev, child);
          free (sub);
          if (ok)
            {
              child->path_len = strlen (path);
              child->name_off = off;
              if (child->nsub == 0)
                level_done (child);
              else
                {
                  /* Go down: the path stays the child's.  */
                  /* Deep down, keep only the child's directory open.  */
                  if (keep_open <= depth)
                    {
                      if (top->dir)
                        dirplus_close (top->dir);
                      else
                        close (top->fd);
                      top->dir = NULL;
                      top->fd = -1;
                    }
                  depth++;
                  continue;
                }
            }
          path[top->path_len] = '\0';
        }
      else
        {
          if (2 <= depth && stack[depth - 2].fd < 0)
            reopen_level (stack, depth - 2);
          level_done (top);
          depth--;
          if (depth)
            path[stack[depth - 1].path_len] = '\0';
        }
    }
  free (stack);
}

/** List the operands NAMES[0..N-1], or "." if there are none.  */
void
list_operands (char **names, int n)
{
  if (recursive)
    {
      struct rlimit rl;
      if (getrlimit (RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY
          && rl.rlim_cur < 2 * keep_open + 16)
        keep_open = rl.rlim_cur < 20 ? 1 : (rl.rlim_cur - 16) / 2;
      active_dirs = hash_initialize (64, NULL, dev_ino_hash,
                                     dev_ino_compare, free);
      if (!active_dirs)
        xalloc_die ();
    }

  char **dirs = NULL;
  dev_t *devs = NULL;		/* DIRS[i]'s device, when HAVE_DEV[i] */
  bool *have_dev = NULL;
  size_t ndirs = 0;

  listing_clear (&cur);
  if (n == 0)
    {
      if (immediate_dirs)
        gather_operand (&cur, ".");
      else
        {
          dirs = xmalloc (sizeof *dirs);
          have_dev = xcalloc (1, sizeof *have_dev);
          devs = xmalloc (sizeof *devs);
          dirs[ndirs++] = xstrdup (".");
        }
    }
  else
    for (int i = 0; i < n; i++)
      gather_operand (&cur, names[i]);

  size_t nfiles = cur.used;
  if (cur.used)
    {
      listing_seal (&cur);
      name_check_quoting (cur.sorted, cur.used);
      sort_files (cur.sorted, cur.used);
      if (!immediate_dirs)
        {
          /* Directories are listed after the files, in sorted order.  */
          nfiles = 0;
          dirs = xnrealloc (dirs, cur.used, sizeof *dirs);
          devs = xnrealloc (devs, cur.used, sizeof *devs);
          have_dev = xnrealloc (have_dev, cur.used, sizeof *have_dev);
          for (size_t i = 0; i < cur.used; i++)
            {
              struct fileinfo *f = cur.sorted[i];
              if (f->filetype == arg_directory)
                {
                  have_dev[ndirs] = f->stat_ok;
                  devs[ndirs] = f->stat.st_dev;
                  dirs[ndirs++] = xstrdup (f->name);
                }
              else
                cur.sorted[nfiles++] = f;
            }
        }
    }
  else
    name_check_quoting (NULL, 0);	/* forget failed operands' quoting */
  if (nfiles)
    {
      print_current_files (cur.sorted, nfiles);
      if (ndirs)
        out_char ('\n');
    }
  else if (n <= 1 && ndirs == 1)
    print_dir_name = false;
  listing_clear (&cur);

  for (size_t i = 0; i < ndirs; i++)
    {
      list_tree (dirs[i], have_dev[i] ? &devs[i] : NULL);
      free (dirs[i]);
      print_dir_name = true;
    }
  free (dirs);
  free (devs);
  free (have_dev);
}
