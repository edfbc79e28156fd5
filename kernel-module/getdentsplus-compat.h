/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One spelling for kernel APIs that changed between
 * 6.1 and 6.18.  Every branch is chosen by a HAVE_* probe from
 * compat-config.h (see compat/), never by version numbers: distributions
 * backport.
 *
 *   probe                     without (6.1)              with (newer)
 *   HAVE_FD_FILE              f.file                     fd_file(f)
 *   HAVE_MNT_IDMAP            mnt_user_ns(mnt)           mnt_idmap(mnt)
 *   HAVE_FILLDIR_BOOL         actor returns int (0 = go) actor returns bool
 *   HAVE_DIR_CONTEXT_COUNT    -                          ctx.count hint
 *   HAVE_VFS_GET_ACL          vfs_getxattr(ACL name)     vfs_get_acl()
 *   HAVE_GET_INODE_ACL        ->get_acl(inode, ...)      + ->get_inode_acl
 *   HAVE_VFS_PATH_LOOKUP_DECL vfs_path_lookup() exported   declared in namei.h
 *                             but declared in fs/internal.h
 */
#ifndef GDP_COMPAT_H
#define GDP_COMPAT_H

#include <linux/file.h>
#include <linux/fs.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/path.h>
#include "compat-config.h"

#ifndef HAVE_FD_FILE
#define fd_file(f) ((f).file)
#endif

#ifdef HAVE_MNT_IDMAP
typedef struct mnt_idmap *gdp_idmap_t;
#define gdp_mnt_idmap(mnt) mnt_idmap(mnt)
#else
typedef struct user_namespace *gdp_idmap_t;
#define gdp_mnt_idmap(mnt) mnt_user_ns(mnt)
#endif

#ifndef HAVE_VFS_PATH_LOOKUP_DECL
/* EXPORT_SYMBOL in fs/namei.c; same prototype since 2.6.39. */
int vfs_path_lookup(struct dentry *dentry, struct vfsmount *mnt,
		    const char *name, unsigned int flags, struct path *path);
#endif

#ifdef HAVE_FILLDIR_BOOL
typedef bool gdp_filldir_ret;
#define GDP_FILLDIR_CONTINUE	true
#define GDP_FILLDIR_STOP	false
#else
typedef int gdp_filldir_ret;
#define GDP_FILLDIR_CONTINUE	0
#define GDP_FILLDIR_STOP	(-EINVAL)
#endif

static inline void gdp_dir_context_set_count(struct dir_context *ctx,
					     size_t count)
{
#ifdef HAVE_DIR_CONTEXT_COUNT
	ctx->count = count > INT_MAX ? INT_MAX : (int)count;
#endif
}

#endif /* GDP_COMPAT_H */
