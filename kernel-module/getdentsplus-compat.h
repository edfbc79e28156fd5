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
 *   HAVE_LOOKUP_ONE_QSTR      (ns, name, base, len)      (idmap, &qstr, base)
 *   HAVE_FOLLOW_DOWN_FLAGS    follow_down(path)          follow_down(path, 0)
 *   HAVE_FILLDIR_BOOL         actor returns int (0 = go) actor returns bool
 *   HAVE_DIR_CONTEXT_COUNT    -                          ctx.count hint
 *   HAVE_VFS_GET_ACL          vfs_getxattr(ACL name)     vfs_get_acl()
 *   HAVE_GET_INODE_ACL        ->get_acl(inode, ...)      + ->get_inode_acl
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

/*
 * Look up one name in a directory of @dir with the caller's credentials:
 * MAY_EXEC on the directory is checked (mount idmapping honoured), and a
 * negative result is -ENOENT.
 */
static inline struct dentry *gdp_lookup_positive(const struct path *dir,
						 const char *name, int len)
{
#ifdef HAVE_LOOKUP_ONE_QSTR
	struct qstr q = QSTR_INIT(name, len);

	return lookup_one_positive_unlocked(gdp_mnt_idmap(dir->mnt), &q,
					    dir->dentry);
#else
	return lookup_one_positive_unlocked(gdp_mnt_idmap(dir->mnt), name,
					    dir->dentry, len);
#endif
}

/* Cross mounts (and managed dentries) on @path, without automounting. */
static inline int gdp_follow_down(struct path *path)
{
#ifdef HAVE_FOLLOW_DOWN_FLAGS
	return follow_down(path, 0);
#else
	return follow_down(path);
#endif
}

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
