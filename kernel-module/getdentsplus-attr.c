// SPDX-License-Identifier: GPL-2.0
/*
 * Attribute bits of one entry, by GNU ls 9.1's rules
 * (gnulib file_has_acl(), getfilecon()):
 *
 *   GDP_ATTR_ACL_ACCESS   system.posix_acl_access exists with nonzero size
 *   GDP_ATTR_ACL_DEFAULT  directories only: system.posix_acl_default exists
 *   GDP_ATTR_LABEL        security.selinux exists with a nonempty value (an
 *                         empty label reads as none, as through libselinux)
 *   GDP_ATTR_CAP          security.capability exists
 *
 * Each probe goes through the VFS helper that getxattr(2) uses, so the LSM
 * hook and the mount's idmapping apply as for the caller.  ENODATA and
 * EOPNOTSUPP mean "known absent"; any other error leaves the bit unknown.
 * Bits that were not asked for are unknown.
 *
 * GDP_ATTR_CACHED: no attribute bit may call into the filesystem (a disk
 * read, a round trip to a server or a daemon); what memory cannot answer
 * is unknown, and the caller asks for it itself.  The decision is made
 * from the inode's own state, never from the filesystem's name:
 *   - ACL bits: the inode's ACL cache (get_cached_acl(), which every ACL
 *     read fills and the filesystem drops when it revalidates), or no
 *     call into the filesystem at all (no POSIX ACLs on the mount, a
 *     symlink, no ->get_acl): the VFS answers those itself.  A stacked
 *     filesystem (overlayfs) keeps its own cache in its own inode, which
 *     is what a read through it would consult first.
 *   - label and capability: only where the inode has no xattr handlers
 *     (no IOP_XATTR): then only an LSM answers, from memory, or nobody
 *     does.  Otherwise unknown.  (S_NOSEC would say "no capability" from
 *     memory, but only by skipping the getxattr LSM hook, and the
 *     capability LSM's own answer reads the filesystem: not used.)
 * Every answer, cached or not, goes through the VFS helper getxattr(2)
 * uses, with its LSM hook: a policy that denies getxattr (a BPF LSM on
 * inode_getxattr, SELinux's FILE__GETATTR) leaves the bit unknown, never
 * answered around it.  The ACL helper finds the cache entry that was
 * checked; should the filesystem drop it in between, the helper asks the
 * filesystem once, the call the caller would have made itself.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/fs.h>
#include <linux/path.h>
#include <linux/posix_acl.h>
#include <linux/posix_acl_xattr.h>
#include <linux/stat.h>
#include <linux/xattr.h>

#include "getdentsplus-internal.h"
#include "getdentsplus-compat.h"

enum gdp_presence {
	GDP_ABSENT,
	GDP_PRESENT,
	GDP_UNKNOWN,
};

static enum gdp_presence gdp_presence_of_err(long err)
{
	if (err == -ENODATA || err == -EOPNOTSUPP)
		return GDP_ABSENT;
	return GDP_UNKNOWN;
}

static enum gdp_presence gdp_xattr(const struct path *path, const char *name,
				   bool need_size)
{
	ssize_t n = vfs_getxattr(gdp_mnt_idmap(path->mnt), path->dentry, name,
				 NULL, 0);

	if (n < 0)
		return gdp_presence_of_err(n);
	return n > 0 || !need_size ? GDP_PRESENT : GDP_ABSENT;
}

static enum gdp_presence gdp_acl(const struct path *path, const char *name,
				 bool need_size)
{
#ifdef HAVE_VFS_GET_ACL
	/* An ACL that exists always has a nonzero xattr size. */
	struct posix_acl *acl;

	acl = vfs_get_acl(gdp_mnt_idmap(path->mnt), path->dentry, name);
	if (IS_ERR(acl))
		return gdp_presence_of_err(PTR_ERR(acl));
	if (!acl)
		return GDP_ABSENT;
	posix_acl_release(acl);
	return GDP_PRESENT;
#else
	return gdp_xattr(path, name, need_size);
#endif
}

/* Can reading this inode's ACL call into the filesystem? */
static bool gdp_fs_fetches_acl(const struct inode *inode)
{
#ifdef HAVE_GET_INODE_ACL
	if (inode->i_op->get_inode_acl)
		return true;
#endif
	return !!inode->i_op->get_acl;
}

/*
 * The ACL bit from memory only (see the top of the file).  The cache is
 * only consulted to learn that the answer is in memory; the answer itself
 * comes through the VFS helper that getxattr(2) uses, so the LSM hook
 * (security_inode_getxattr, or security_inode_get_acl) decides as it
 * would for the caller, and the helper finds the same cache entry.  Should
 * the filesystem drop it in between, the helper asks the filesystem: one
 * round trip, the one the caller would have made itself.
 */
static enum gdp_presence gdp_acl_cached(const struct path *path,
					const char *name, int type,
					bool need_size)
{
	struct inode *inode = d_inode(path->dentry);
	struct posix_acl *acl;

	/* What the VFS answers without the filesystem needs no cache. */
	if (IS_POSIXACL(inode) && !S_ISLNK(inode->i_mode) &&
	    gdp_fs_fetches_acl(inode)) {
		acl = get_cached_acl(inode, type);
		if (is_uncached_acl(acl))
			return GDP_UNKNOWN;
		posix_acl_release(acl);
	}
	return gdp_acl(path, name, need_size);
}

static void gdp_attr_set(u32 bit, enum gdp_presence p, u32 *attr,
			 u32 *unknown)
{
	if (p == GDP_PRESENT)
		*attr |= bit;
	else if (p == GDP_UNKNOWN)
		*unknown |= bit;
}

/*
 * The label or capability bit under GDP_ATTR_CACHED (see the top of the
 * file): answered only where the inode has no xattr handlers.
 */
static enum gdp_presence gdp_xattr_cached(const struct path *path,
					  const char *name, bool need_size)
{
	if (d_inode(path->dentry)->i_opflags & IOP_XATTR)
		return GDP_UNKNOWN;
	return gdp_xattr(path, name, need_size);
}

void gdp_attr_fill(const struct path *path, umode_t mode, u32 flags,
		   u32 *attr, u32 *attr_unknown)
{
	bool cached = flags & GDP_ATTR_CACHED;
	u32 a = 0, u = 0;

	if (!(flags & GDP_WANT_ACL)) {
		u |= GDP_ATTR_ACL_ACCESS | GDP_ATTR_ACL_DEFAULT;
	} else if (cached) {
		gdp_attr_set(GDP_ATTR_ACL_ACCESS,
			     gdp_acl_cached(path, XATTR_NAME_POSIX_ACL_ACCESS,
					    ACL_TYPE_ACCESS, true),
			     &a, &u);
		if (S_ISDIR(mode))
			gdp_attr_set(GDP_ATTR_ACL_DEFAULT,
				     gdp_acl_cached(path,
						    XATTR_NAME_POSIX_ACL_DEFAULT,
						    ACL_TYPE_DEFAULT, false),
				     &a, &u);
	} else {
		gdp_attr_set(GDP_ATTR_ACL_ACCESS,
			     gdp_acl(path, XATTR_NAME_POSIX_ACL_ACCESS, true),
			     &a, &u);
		if (S_ISDIR(mode))
			gdp_attr_set(GDP_ATTR_ACL_DEFAULT,
				     gdp_acl(path, XATTR_NAME_POSIX_ACL_DEFAULT,
					     false),
				     &a, &u);
	}

	if (!(flags & GDP_WANT_LABEL))
		u |= GDP_ATTR_LABEL;
	else
		gdp_attr_set(GDP_ATTR_LABEL,
			     cached ? gdp_xattr_cached(path, XATTR_NAME_SELINUX, true) :
			     gdp_xattr(path, XATTR_NAME_SELINUX, true), &a, &u);

	if (!(flags & GDP_WANT_CAP))
		u |= GDP_ATTR_CAP;
	else
		gdp_attr_set(GDP_ATTR_CAP,
			     cached ? gdp_xattr_cached(path, XATTR_NAME_CAPS, false) :
			     gdp_xattr(path, XATTR_NAME_CAPS, false), &a, &u);

	*attr = a;
	*attr_unknown = u;
}
