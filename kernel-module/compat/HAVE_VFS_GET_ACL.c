// SPDX-License-Identifier: GPL-2.0
/*
 * vfs_get_acl() (6.2+): the POSIX ACL API with its LSM hook.  Since 6.2
 * vfs_getxattr() no longer serves system.posix_acl_*.
 */
#include <linux/fs.h>
#include <linux/posix_acl.h>
#include <linux/xattr.h>

struct posix_acl *gdp_probe(struct dentry *dentry);
struct posix_acl *gdp_probe(struct dentry *dentry)
{
	return vfs_get_acl(NULL, dentry, XATTR_NAME_POSIX_ACL_ACCESS);
}
