/* ls-out.c -- the one path of every byte ls writes to standard output.

   Keeps dired_pos, the count of bytes written so far, and records the
   byte spans that --dired reports at the end: file names in
   //DIRED// and directory headers in //SUBDIRED//.  */

#include <config.h>

#include <stdio.h>
#include <string.h>

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

/** Write N bytes from S.  */
void
out_bytes (char const *s, size_t n)
{
  fwrite (s, 1, n, stdout);
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
  putchar (c);
  dired_pos++;
}

/** Write N spaces.  */
void
out_spaces (size_t n)
{
  while (n--)
    out_char (' ');
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
