// SPDX-License-Identifier: GPL-2.0
/*
 * vfs_path_lookup() is exported from fs/namei.c in every kernel the
 * module supports, but <linux/namei.h> declares it only in some; the
 * others keep the prototype in fs/internal.h.
 */
#include <linux/namei.h>
#include <linux/path.h>

int gdp_probe(struct dentry *d, struct vfsmount *m, struct path *p);
int gdp_probe(struct dentry *d, struct vfsmount *m, struct path *p)
{
	return vfs_path_lookup(d, m, "x", 0, p);
}
