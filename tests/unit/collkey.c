/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tests/unit/collkey.c -- src/ls-collkey.c: wherever two collation keys
   decide, they decide as strcoll does.

   For each locale of the GNU suite (C, C.UTF-8, de_DE.UTF-8, fr_FR.UTF-8,
   ja_JP.UTF-8) and any named on the command line, random pairs of names
   are built from pieces that collate alike (case, accents, ligatures,
   contractions, digits, punctuation, ignorable characters, CJK, invalid
   bytes), often sharing a start (also a start longer than a key keeps);
   the sign of collkey_cmp, where it is not 0, must be strcoll's; so
   for a few pairs on which glibc's strxfrm and strcoll disagree.  Prints
   how many pairs the keys decided.  Exit 0 pass, 1 fail, 99 a locale of
   the suite is missing (with locales named, e.g. from LOCPATH, missing
   ones are skipped).  */

#include <config.h>

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ls.h"

static char const *const pieces[] = {
  "a", "A", "\xc3\xa4", "\xc3\x84", "b", "B", "e", "\xc3\xa9", "\xc3\x89",
  "\xc3\xa8", "\xc3\x9f", "ss", "SS", "\xc3\xa7", "\xc5\x93", "oe", " ", "-",
  "_", ".", ",", "0", "1", "9", "~", "!", "(", "'", "\xe6\x97\xa5",
  "\xe3\x82\xab", "\xe3\x81\x8b", "\xef\xbd\xb6", "\xc3\x85", "\xc3\xb8",
  "\xff", "\xc3", "\xc7\x86", "\xef\xac\x81", "fi", "\xc2\xbd", "\xc2\xb2",
  "ch", "CH", "c", "h", "ll", "\xc4\xb3", "ij", "\t", "\xe2\x80\x8b", "I",
  "i", "\xc4\xb1", "\xc3\xb6", "z", "Z", "x",
};
enum { NPIECES = sizeof pieces / sizeof *pieces };

/** Append N random pieces to S (room for at least N * 4 more bytes).  */
static void
append_pieces (char *s, int n)
{
  for (int i = 0; i < n; i++)
    strcat (s, pieces[rand () % NPIECES]);
}

/** Fill A and B with a random pair: unrelated, or sharing a start (of
    some pieces, or of 60 'x' and some pieces: longer than a key).  */
static void
random_pair (char *a, char *b)
{
  *a = *b = 0;
  int shape = rand () % 4;
  if (shape == 3)
    {
      memset (a, 'x', 60);
      a[60] = 0;
    }
  if (shape >= 2)
    {
      append_pieces (a, 1 + rand () % 6);
      strcpy (b, a);
    }
  append_pieces (a, rand () % 7);
  append_pieces (b, rand () % 7);
}

/* Pairs on which glibc 2.36's strxfrm and strcoll disagree (found by a
   random search in de_DE.UTF-8; "\xff" is an invalid byte): keys must
   leave them to strcoll.  */
static char const *const disagree[][2] = {
  { "ij0\t\xc3\x85~", "ij0\xc3\x85\t" },
  { "0\xc3\xa7)", "0\xff\xc3\xa7 " },
  { "\xef\xbd\xb6\xe6\x97\xa5~!0", "\xef\xbd\xb6\xe6\x97\xa5~!0," },
  { "\xc2\xbd\xc2\xb2_\xc3\xaa", "\xc2\xbd\xc2\xb2\xc3\xa8" },
  { "1\xc3\x85" "0\xc3\xa8", "1\xc3\x85" "0\xff\xc3\x89" },
  { "\xc2\xb2\xc3\xa8-", "\xc2\xb2(\xc3\x89" },
  { "B\xc2\xbdij", "B\xc2\xbd\t\xc4\xb3" },
};
enum { NDISAGREE = sizeof disagree / sizeof *disagree };

/** The sign of X.  */
static int
sign (int x)
{
  return (x > 0) - (x < 0);
}

/** Check PAIRS random pairs in locale LOC; return the disagreements, or
    -1 if LOC is not available.  */
static long
check_locale (char const *loc, long pairs)
{
  if (!setlocale (LC_ALL, loc))
    return -1;
  enum collkey_kind kind = collkey_locale_kind ();
  long decided = 0, bad = 0;
  char a[1024], b[1024];

  for (long i = 0; i < pairs + NDISAGREE; i++)
    {
      struct collkey ka, kb;
      if (i < NDISAGREE)
        {
          strcpy (a, disagree[i][0]);
          strcpy (b, disagree[i][1]);
        }
      else
        random_pair (a, b);
      collkey_start (kind);
      collkey_make (&ka, a);
      collkey_make (&kb, b);
      int k = sign (collkey_cmp (&ka, &kb));
      if (!k)
        continue;
      decided++;
      int c = sign (strcoll (a, b));
      if (c != k && bad++ < 5)
        printf ("FAIL: %s: keys say %d, strcoll %d for \"%s\" and \"%s\"\n",
                loc, k, c, a, b);
    }
  printf ("%s: keys of kind %d decided %ld of %ld pairs, %ld against "
          "strcoll\n", loc, (int) kind, decided, pairs + NDISAGREE, bad);
  return bad;
}

int
main (int argc, char **argv)
{
  static char const *const suite[] = {
    "C", "C.UTF-8", "de_DE.UTF-8", "fr_FR.UTF-8", "ja_JP.UTF-8"
  };
  int status = 0;

  srand (22);
  for (int i = 0; i < (int) (sizeof suite / sizeof *suite); i++)
    {
      long bad = check_locale (suite[i], 100000);
      if (bad < 0 && argc > 1)
        printf ("note: locale %s missing, skipped\n", suite[i]);
      else if (bad < 0)
        {
          printf ("ERROR: locale %s missing (tools/install-deps)\n",
                  suite[i]);
          return 99;
        }
      if (bad)
        status = 1;
    }
  for (int i = 1; i < argc; i++)
    {
      long bad = check_locale (argv[i], 100000);
      if (bad < 0)
        printf ("note: locale %s missing, skipped\n", argv[i]);
      else if (bad)
        status = 1;
    }
  return status;
}
