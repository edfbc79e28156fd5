// SPDX-License-Identifier: GPL-2.0
/*
 * getdentsplus-attr.c: attribute bits of one entry, by GNU ls 9.1's rules
 * (gnulib file_has_acl(), getfilecon()):
 *
 *   GDP_ATTR_ACL_ACCESS   system.posix_acl_access exists with nonzero size
 *   GDP_ATTR_ACL_DEFAULT  directories only: system.posix_acl_default exists
 *   GDP_ATTR_LABEL        security.selinux exists
 *   GDP_ATTR_CAP          security.capability exists
 *
 * Each probe goes through the VFS helper that getxattr(2) uses, so the LSM
 * hook and the mount's idmapping apply as for the caller.  ENODATA and
 * EOPNOTSUPP mean "known absent"; any other error leaves the bit unknown.
 * Bits that were not asked for are unknown.
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
	u32 a = 0, u = 0;

	if (flags & GDP_WANT_ACL) {
		gdp_attr_set(GDP_ATTR_ACL_ACCESS,
			     gdp_acl(path, XATTR_NAME_POSIX_ACL_ACCESS, true),
			     &a, &u);
		if (S_ISDIR(mode))
			gdp_attr_set(GDP_ATTR_ACL_DEFAULT,
				     gdp_acl(path, XATTR_NAME_POSIX_ACL_DEFAULT,
					     false),
				     &a, &u);
	} else {
		u |= GDP_ATTR_ACL_ACCESS | GDP_ATTR_ACL_DEFAULT;
	}

	if (flags & GDP_WANT_LABEL)
		gdp_attr_set(GDP_ATTR_LABEL,
			     gdp_xattr(path, XATTR_NAME_SELINUX, false), &a, &u);
	else
		u |= GDP_ATTR_LABEL;

	if (flags & GDP_WANT_CAP)
		gdp_attr_set(GDP_ATTR_CAP,
			     gdp_xattr(path, XATTR_NAME_CAPS, false), &a, &u);
	else
		u |= GDP_ATTR_CAP;

	*attr = a;
	*attr_unknown = u;
}
