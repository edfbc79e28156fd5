// SPDX-License-Identifier: GPL-2.0
/*
 * struct fs_struct has a spinlock_t lock next to a seqcount_spinlock_t seq
 * (6.1 .. 6.14); newer kernels have one seqlock_t seq instead.
 */
#include <linux/fs_struct.h>

spinlock_t *gdp_probe(struct fs_struct *fs);
spinlock_t *gdp_probe(struct fs_struct *fs)
{
	return &fs->lock;
}
