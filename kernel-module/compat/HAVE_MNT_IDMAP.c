// SPDX-License-Identifier: GPL-2.0
/* Mounts carry a struct mnt_idmap (6.3+); 6.1 has mnt_user_ns(). */
#include <linux/mount.h>

struct mnt_idmap *gdp_probe(struct vfsmount *mnt);
struct mnt_idmap *gdp_probe(struct vfsmount *mnt)
{
	return mnt_idmap(mnt);
}
