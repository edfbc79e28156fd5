/* ls-time.c -- timestamps in lsplus's ls long format: --time-style,
   TIME_STYLE, --full-time, the six-month rule and birth times.  */

#include <config.h>

#include "ls.h"

/** Parse the time style STYLE.  */
void
time_style_init (char const *style)
{
  (void) style;
}

/** Store in *TS the timestamp of F selected by time_type.  */
bool
file_time (struct fileinfo const *f, struct timespec *ts)
{
  (void) f;
  (void) ts;
  return false;
}

/** Format F's time into BUF of SIZE bytes.  */
size_t
format_file_time (struct fileinfo const *f, char *buf, size_t size)
{
  (void) f;
  (void) size;
  buf[0] = '\0';
  return 0;
}

/** Record the current time for the six-month rule.  */
void
time_init (void)
{
}
