// SPDX-License-Identifier: GPL-2.0
/*
 * inode_operations.get_inode_acl (6.2+): the cached ACL fetch moved there
 * and ->get_acl took a dentry; 6.1 has only ->get_acl(inode, type, rcu).
 */
#include <linux/fs.h>

bool gdp_probe(const struct inode *inode);
bool gdp_probe(const struct inode *inode)
{
	return inode->i_op->get_inode_acl != NULL;
}
