/* ls-long.c -- the long format (-l) of lsplus's ls: mode string, link
   count, owner/group/author, sizes and device numbers, the -i/-s/-Z
   columns, the timestamp and the symlink target, with GNU's widths.  */

#include <config.h>

#include "ls.h"

struct long_widths widths;
bool any_has_acl;

/** Forget the widths of the previous listing.  */
void
long_widths_reset (void)
{
}

/** Widen the columns of the current listing for file F.  */
void
long_widths_update (struct fileinfo const *f)
{
  (void) f;
}

/** Print the long-format line of F.  */
void
print_long_format (struct fileinfo *f)
{
  (void) f;
}

/** Format BLOCKS for -s / "total" into BUF.  */
char const *
format_blocks (uintmax_t blocks, char *buf)
{
  (void) blocks;
  buf[0] = '\0';
  return buf;
}
