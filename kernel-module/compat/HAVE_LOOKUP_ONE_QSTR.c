// SPDX-License-Identifier: GPL-2.0
/*
 * lookup_one_positive_unlocked(idmap, &qstr, base) (6.16+); before that
 * it took (userns-or-idmap, name, base, len).
 */
#include <linux/namei.h>
#include <linux/dcache.h>

struct dentry *gdp_probe(struct dentry *base, struct qstr *name);
struct dentry *gdp_probe(struct dentry *base, struct qstr *name)
{
	return lookup_one_positive_unlocked(NULL, name, base);
}
