/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ls-out.c -- the one path of every byte ls writes to standard output.

   Keeps dired_pos, the count of bytes written so far, and records the
   byte spans that --dired reports at the end: file names in
   //DIRED// and directory headers in //SUBDIRED//.  */

#include <config.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ls.h"
#include "xalloc.h"

off_t dired_pos;

/* A growable list of offsets (pairs of start, end).  */
struct offsets
{
  off_t *v;
  size_t used, alloc;
};

static struct offsets dired_names;	/* //DIRED// */
static struct offsets dired_subdirs;	/* //SUBDIRED// */

/* Standard output's buffer when it is not a terminal: big, so that
   a long listing takes few write calls (stdio would use st_blksize,
   4 KiB for a pipe or /dev/null).  Set up before the first byte.  */
enum { OUT_BUFSIZE = 64 * 1024 };
static bool out_ready;

/** Give stdout a large full buffer unless it is a terminal (which
   keeps stdio's line buffering).  */
static void
out_setup (void)
{
  static char buffer[OUT_BUFSIZE];
  out_ready = true;
  if (!isatty (STDOUT_FILENO))
    setvbuf (stdout, buffer, _IOFBF, sizeof buffer);
}

/** Write N bytes from S.  */
void
out_bytes (char const *s, size_t n)
{
  if (!out_ready)
    out_setup ();
  fwrite_unlocked (s, 1, n, stdout);
  dired_pos += n;
}

/** Write the string S.  */
void
out_str (char const *s)
{
  out_bytes (s, strlen (s));
}

/** Write the byte C.  */
void
out_char (char c)
{
  if (!out_ready)
    out_setup ();
  putc_unlocked (c, stdout);
  dired_pos++;
}

/** Write N spaces.  */
void
out_spaces (size_t n)
{
  static char const spaces[] = "                                ";
  while (n)
    {
      size_t k = n < sizeof spaces - 1 ? n : sizeof spaces - 1;
      out_bytes (spaces, k);
      n -= k;
    }
}

/** Append the pair START, END to O.  */
static void
offsets_add (struct offsets *o, off_t start, off_t end)
{
  if (o->alloc - o->used < 2)
    o->v = x2nrealloc (o->v, &o->alloc, sizeof *o->v);
  if (o->alloc - o->used < 2)
    o->v = x2nrealloc (o->v, &o->alloc, sizeof *o->v);
  o->v[o->used++] = start;
  o->v[o->used++] = end;
}

/** Remember a file name's byte span for //DIRED//.  */
void
dired_add_name (off_t start, off_t end)
{
  if (dired)
    offsets_add (&dired_names, start, end);
}

/** Remember a directory header's byte span for //SUBDIRED//.  */
void
dired_add_subdir (off_t start, off_t end)
{
  if (dired)
    offsets_add (&dired_subdirs, start, end);
}

/** With --dired, every line of a listing starts with two spaces.  */
void
dired_indent (void)
{
  if (dired)
    out_spaces (2);
}

/** Print one list of offsets, preceded by its label, if it is not empty.  */
static void
offsets_dump (char const *label, struct offsets const *o)
{
  if (o->used == 0)
    return;
  fputs (label, stdout);
  for (size_t i = 0; i < o->used; i++)
    printf (" %jd", (intmax_t) o->v[i]);
  putchar ('\n');
}

/** The trailer --dired adds after all listings.  */
void
dired_finish (void)
{
  if (!dired)
    return;
  offsets_dump ("//DIRED//", &dired_names);
  offsets_dump ("//SUBDIRED//", &dired_subdirs);
  printf ("//DIRED-OPTIONS// --quoting-style=%s\n",
          quoting_style_args[get_quoting_style (filename_quoting_options)]);
}
