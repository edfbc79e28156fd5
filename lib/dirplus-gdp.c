/* dirplus-gdp.c -- the getdentsplus backend: one call of the kernel
   module returns a batch of entries with their stat data and attribute
   bits.  */

#include <config.h>

#include "dirplus-impl.h"

#include <errno.h>

/** Probe the module: 0 if usable, -1 with errno.  */
int
dirplus_gdp_probe (void)
{
  errno = ENOSYS;
  return -1;
}

/** Read the next batch of D (not reached until the probe succeeds).  */
static ssize_t
gdp_read (struct dirplus_dir *d)
{
  errno = ENOSYS;
  return -1;
}

const struct dirplus_ops dirplus_gdp_ops = { gdp_read };
