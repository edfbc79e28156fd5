/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dirplus-kver.c -- shared piece: the running kernel's version, read
   from the vDSO's "Linux" ELF note (LINUX_VERSION_CODE), so without a
   system call.

   What it is for: the kernel features of the statx-attributes and
   inline io_uring statx series (dirplus-statxattr.c, the uring backend)
   are looked for only on a kernel that may have them (the series are
   against Linux 7.2), so that an older kernel sees exactly the calls it
   always saw: no probe, not even an unknown statx mask bit.  A process
   without a vDSO (vdso=0) asks uname(2) once instead.  dirplus-sys.c
   also asks it whether the running kernel is of the in-tree call's
   headers' version.

   Layering (see the map in dirplus-impl.h): a shared piece, called by
   dirplus.c and dirplus-statxattr.c; calls nothing of the library.  */

#include <config.h>

#include "dirplus-impl.h"

#include <elf.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/utsname.h>

/** The LINUX_VERSION_CODE of the running kernel from the vDSO's note
    ((major << 16) | (minor << 8) | min (sublevel, 255)), or 0 when there
    is no vDSO or no such note.  */
static unsigned int
vdso_version (void)
{
  const ElfW(Ehdr) *eh = (const void *) getauxval (AT_SYSINFO_EHDR);
  if (!eh || memcmp (eh->e_ident, ELFMAG, SELFMAG) != 0)
    return 0;
  const ElfW(Phdr) *ph = (const void *) ((const char *) eh + eh->e_phoff);
  for (int i = 0; i < eh->e_phnum; i++)
    {
      if (ph[i].p_type != PT_NOTE)
        continue;
      const char *p = (const char *) eh + ph[i].p_offset;
      const char *end = p + ph[i].p_filesz;
      while (p + sizeof (ElfW(Nhdr)) <= end)
        {
          const ElfW(Nhdr) *n = (const void *) p;
          const char *name = p + sizeof *n;
          const char *desc = name + ((n->n_namesz + 3) & ~3u);
          if (desc + ((n->n_descsz + 3) & ~3u) > end)
            break;
          if (n->n_type == 0 && n->n_namesz == 6
              && memcmp (name, "Linux", 6) == 0 && n->n_descsz == 4)
            {
              unsigned int v;
              memcpy (&v, desc, sizeof v);
              return v;
            }
          p = desc + ((n->n_descsz + 3) & ~3u);
        }
    }
  return 0;
}

/** The running kernel's version as LINUX_VERSION_CODE: from the vDSO's
    note, else (no vDSO) from uname(2)'s release, else 0.  Read once.  */
unsigned int
dirplus_kernel_version (void)
{
  static unsigned int version = -1;
  unsigned int v = __atomic_load_n (&version, __ATOMIC_RELAXED);
  if (v == (unsigned int) -1)
    {
      v = vdso_version ();
      struct utsname u;
      unsigned int major, minor;
      if (!v && uname (&u) == 0
          && sscanf (u.release, "%u.%u", &major, &minor) == 2)
        v = major << 16 | minor << 8;
      __atomic_store_n (&version, v, __ATOMIC_RELAXED);
    }
  return v;
}

/** Whether the running kernel is MAJOR.MINOR or later (see above).  */
bool
dirplus_kernel_at_least (unsigned int major, unsigned int minor)
{
  return (major << 16 | minor << 8) <= dirplus_kernel_version ();
}
