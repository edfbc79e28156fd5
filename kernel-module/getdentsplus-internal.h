/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the module's files share.
 *
 *   getdentsplus-main.c   module init/exit, parameters, the two entry
 *                         points (syscall through a kprobe, ioctl on a
 *                         misc device)
 *   getdentsplus-walk.c   the operation: argument checks, iterate_dir
 *                         staging in rounds, lookups by vfs_path_lookup(),
 *                         statx fill, record emission, file position
 *   getdentsplus-attr.c   attribute bits (ACL, default ACL, label, caps)
 *   getdentsplus-compat.h kernel API differences (6.1 .. 6.18), driven by
 *                         compat-config.h which Kbuild generates from the
 *                         compat/HAVE_*.c probes
 */
#ifndef GDP_INTERNAL_H
#define GDP_INTERNAL_H

#include <linux/types.h>
#include <linux/compiler.h>
/*
 * Our own uapi header, by its path from this directory: a kernel with the
 * in-tree getdentsplus() (upstream/, issue 13) has an
 * include/uapi/linux/getdentsplus.h of its own, and the kernel's include
 * directories come before ccflags-y's in a module build.
 */
#include "include/uapi/linux/getdentsplus.h"

struct path;

/* Records: the fixed header, then the name and its NUL, 8-aligned. */
#define GDP_REC_HDR	offsetof(struct getdentsplus_entry, name)
#define GDP_RECLEN(namelen) ALIGN(GDP_REC_HDR + (namelen) + 1, 8)

/* Longest name we accept from a filesystem (getdents64 uses PATH_MAX). */
#define GDP_NAME_MAX	(PATH_MAX - 1)

/*
 * Staging of one round: allocated when the filesystem offers its first
 * entry (a call blocked in the directory read holds none), one page,
 * doubled while the filesystem delivers, up to GDP_STAGE_MAX: what
 * glibc's readdir gives getdents64, so that a filesystem sizing its reads
 * by the reader's hint (FUSE) is asked as much per read as for GNU ls.
 * Freed at the end of each round.  Bigger only for one name longer than
 * that (filesystems whose names exceed NAME_MAX).
 */
#define GDP_STAGE_CHUNK	4096
#define GDP_STAGE_MAX	32768

/* The result of one call can never exceed this (fits an ioctl's int). */
#define GDP_SIZE_MAX	(INT_MAX & ~7)

long gdp_getdentsplus(int dirfd, void __user *buf, size_t size,
		      u32 statx_mask, u32 flags);

void gdp_attr_fill(const struct path *path, umode_t mode, u32 flags,
		   u32 *attr, u32 *attr_unknown);

#endif /* GDP_INTERNAL_H */
