/* ls-color.c -- LS_COLORS parsing and colouring of file names for lsplus ls.  */

#include <config.h>

#include "ls.h"

/** Parse LS_COLORS.  */
bool
color_init (void)
{
  return true;
}

/** Start colouring F.  */
bool
color_start (struct fileinfo const *f, bool symlink_target)
{
  (void) f;
  (void) symlink_target;
  return false;
}

/** End a colour.  */
void
color_end (void)
{
}

/** Prepare for non-filename text.  */
void
color_prep_non_filename_text (void)
{
}

/** Reset at exit.  */
void
color_finish (void)
{
}

/** Whether colouring needs link targets.  */
bool
color_needs_link_target (void)
{
  return false;
}

/** Whether colouring needs capabilities.  */
bool
color_needs_capability (void)
{
  return false;
}

/** Whether colouring needs stat.  */
bool
color_needs_stat (void)
{
  return false;
}
