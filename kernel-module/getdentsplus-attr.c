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
 * The cached rule (GDP_ATTR_CACHED, and every entry on a remote
 * filesystem; the uapi header says what user space sees): no probe may
 * wait for a server or a daemon.  ACL bits then come from the inode's ACL
 * cache (get_cached_acl(), which every ACL read fills and the filesystem
 * drops when it revalidates), or from the VFS when the filesystem has no
 * ACL fetch at all (the answer is then local: EOPNOTSUPP, or the negative
 * cache entry the VFS makes itself); label and capability are read only
 * where the filesystem is not remote.  Every answer, cached or not, goes
 * through the VFS helper getxattr(2) uses, with its LSM hook: a policy
 * that denies getxattr (a BPF LSM on inode_getxattr, SELinux's
 * FILE__GETATTR) leaves the bit unknown, never answered around it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/fs.h>
#include <linux/magic.h>
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

/*
 * Filesystems where reading an attribute may be a network or daemon round
 * trip, by superblock magic (what statfs(2) reports as f_type, so user
 * space can apply the same list).  FS_REQUIRES_DEV is no guide: fuseblk
 * has it and asks a daemon; tmpfs, proc and sysfs lack it and answer from
 * memory.  GFS2 and OCFS2 are block-device filesystems whose attribute
 * reads take cluster locks (a network round trip to the lock manager).
 * Not here: overlayfs (its upper and lower layers decide: a remote lower
 * layer answers ACLs through overlayfs's own ACL cache).
 */
#define GDP_GFS2_MAGIC		0x01161970
#define GDP_LUSTRE_MAGIC	0x0bd00bd0
#define GDP_GPFS_MAGIC		0x47504653
#define GDP_ORANGEFS_MAGIC	0x20030528

static bool gdp_sb_remote(const struct super_block *sb)
{
	switch (sb->s_magic) {
	case NFS_SUPER_MAGIC:
	case SMB_SUPER_MAGIC:
	case CIFS_SUPER_MAGIC:
	case SMB2_SUPER_MAGIC:
	case FUSE_SUPER_MAGIC:
	case CEPH_SUPER_MAGIC:
	case V9FS_MAGIC:
	case AFS_SUPER_MAGIC:
	case AFS_FS_MAGIC:
	case CODA_SUPER_MAGIC:
	case OCFS2_SUPER_MAGIC:
	case GDP_GFS2_MAGIC:
	case GDP_LUSTRE_MAGIC:
	case GDP_GPFS_MAGIC:
	case GDP_ORANGEFS_MAGIC:
		return true;
	}
	return false;
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

void gdp_attr_fill(const struct path *path, umode_t mode, u32 flags,
		   u32 *attr, u32 *attr_unknown)
{
	bool remote = gdp_sb_remote(path->dentry->d_sb);
	bool cached = remote || (flags & GDP_ATTR_CACHED);
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

	if (!(flags & GDP_WANT_LABEL) || remote)
		u |= GDP_ATTR_LABEL;
	else
		gdp_attr_set(GDP_ATTR_LABEL,
			     gdp_xattr(path, XATTR_NAME_SELINUX, true), &a, &u);

	if (!(flags & GDP_WANT_CAP) || remote)
		u |= GDP_ATTR_CAP;
	else
		gdp_attr_set(GDP_ATTR_CAP,
			     gdp_xattr(path, XATTR_NAME_CAPS, false), &a, &u);

	*attr = a;
	*attr_unknown = u;
}
