/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tests/unit/statxattr-shim.c -- an LD_PRELOAD emulation of
   upstream/statx-xattr-info/ for tests/unit/statxattr-ls.test, so that
   src/ls's "statx" path runs end to end on a kernel without the series:
     - getauxval (AT_SYSINFO_EHDR) returns a small ELF image whose "Linux"
       note says 7.2.13 (lib/dirplus-kver.c reads the running kernel's
       version there, and looks for the series only from 7.2 on);
     - statx asked with STATX_XATTR_INFO gets STATX_ATTR_ACL and
       STATX_ATTR_SECLABEL as the series gives them (an access ACL, or a
       directory's default ACL; a non-empty security.selinux of the file
       the reply describes), both in stx_attributes_mask and
       STATX_XATTR_INFO in stx_mask; without the request bit, nothing
       (as the series).
   The emulation's own xattr calls use absolute paths, which the test's
   counts (calls relative to a directory fd) leave out.  Only glibc's
   statx() is seen: the ring's IORING_OP_STATX is not emulated.  */

#ifndef _GNU_SOURCE
# define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#define X_XATTR_INFO 0x00040000U
#define X_ATTR_ACL 0x02000000
#define X_ATTR_SECLABEL 0x04000000

/* The fake vDSO: an ELF header, one PT_NOTE, the "Linux" note.  */
struct fake_vdso
{
  Elf64_Ehdr eh;
  Elf64_Phdr ph;
  Elf64_Nhdr nh;
  char name[8];
  unsigned int version;
};
static struct fake_vdso fake;

/** getauxval(3), with AT_SYSINFO_EHDR pointing at the fake vDSO.  */
unsigned long
getauxval (unsigned long type)
{
  static unsigned long (*real) (unsigned long);
  if (!real)
    real = (unsigned long (*) (unsigned long)) dlsym (RTLD_NEXT, "getauxval");
  if (type != AT_SYSINFO_EHDR)
    return real (type);
  memcpy (fake.eh.e_ident, ELFMAG, SELFMAG);
  fake.eh.e_phoff = offsetof (struct fake_vdso, ph);
  fake.eh.e_phnum = 1;
  fake.ph.p_type = PT_NOTE;
  fake.ph.p_offset = offsetof (struct fake_vdso, nh);
  fake.ph.p_filesz = sizeof fake.nh + sizeof fake.name + sizeof fake.version;
  fake.nh.n_namesz = 6;
  fake.nh.n_descsz = 4;
  fake.nh.n_type = 0;
  memcpy (fake.name, "Linux", 6);
  fake.version = 7 << 16 | 2 << 8 | 13;
  return (unsigned long) &fake;
}

/** The absolute path of PATH relative to DIRFD in BUF; false if not
    known.  */
static int
absolute (int dirfd, const char *path, char *buf, size_t size)
{
  char dir[PATH_MAX];
  if (path[0] == '/')
    return snprintf (buf, size, "%s", path) < (int) size;
  if (dirfd == AT_FDCWD)
    {
      if (!getcwd (dir, sizeof dir))
        return 0;
    }
  else
    {
      char link[64];
      snprintf (link, sizeof link, "/proc/self/fd/%d", dirfd);
      ssize_t n = readlink (link, dir, sizeof dir - 1);
      if (n < 0)
        return 0;
      dir[n] = '\0';
    }
  return snprintf (buf, size, "%s/%s", dir, path) < (int) size;
}

/** statx(2) with the series' attributes (see the top).  */
int
statx (int dirfd, const char *path, int flags, unsigned int mask,
       struct statx *stx)
{
  static int (*real) (int, const char *, int, unsigned int, struct statx *);
  if (!real)
    real = (int (*) (int, const char *, int, unsigned int, struct statx *))
           dlsym (RTLD_NEXT, "statx");
  int r = real (dirfd, path, flags, mask, stx);
  char abs[2 * PATH_MAX];
  if (r != 0 || !(mask & X_XATTR_INFO)
      || !absolute (dirfd, path, abs, sizeof abs))
    return r;
  int acl = 0;
  if (!S_ISLNK (stx->stx_mode))
    acl = (getxattr (abs, "system.posix_acl_access", NULL, 0) > 0
           || (S_ISDIR (stx->stx_mode)
               && getxattr (abs, "system.posix_acl_default", NULL, 0) > 0));
  /* The label of what the reply describes: the link itself, or the file
     the name leads to.  */
  int label = (S_ISLNK (stx->stx_mode)
               ? lgetxattr (abs, "security.selinux", NULL, 0)
               : getxattr (abs, "security.selinux", NULL, 0)) > 0;
  stx->stx_mask |= X_XATTR_INFO;
  stx->stx_attributes_mask |= X_ATTR_ACL | X_ATTR_SECLABEL;
  stx->stx_attributes &= ~(__u64) (X_ATTR_ACL | X_ATTR_SECLABEL);
  stx->stx_attributes |= (acl ? X_ATTR_ACL : 0) | (label ? X_ATTR_SECLABEL : 0);
  return r;
}
