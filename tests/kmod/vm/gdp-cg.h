/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tests/kmod/vm/gdp-cg.h: memory cgroups for the in-VM checks that measure
 * what the module's calls are charged (gdp-review-test lockwait,
 * gdp-fuse-test memhold).  Static functions: each test program that
 * includes it gets its own copy. */
#ifndef GDP_CG_H
#define GDP_CG_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/mount.h>
#include <unistd.h>

/** The memory cgroup NAME under the cgroup2 root (mounted if it is
 * not), its path in DIR; 0 on failure. */
static inline int cg_make(const char *name, char *dir, size_t len)
{
	const char *root = "/sys/fs/cgroup";
	struct statfs sfs;
	char p[256];
	int f;

	if ((statfs(root, &sfs) || sfs.f_type != 0x63677270 /* CGROUP2_SUPER_MAGIC */) &&
	    mount("cgroup2", root, "cgroup2", 0, NULL))
		return 0;
	snprintf(p, sizeof p, "%s/cgroup.subtree_control", root);
	f = open(p, O_WRONLY);
	if (f < 0 || write(f, "+memory", 7) != 7) {
		if (f >= 0)
			close(f);
		return 0;
	}
	close(f);
	snprintf(dir, len, "%s/%s", root, name);
	return !mkdir(dir, 0755) || errno == EEXIST;
}

/** memory.current of cgroup DIR, or -1. */
static inline long cg_current(const char *dir)
{
	char p[512];
	long v = -1;
	FILE *f;

	snprintf(p, sizeof p, "%s/memory.current", dir);
	f = fopen(p, "r");
	if (!f || fscanf(f, "%ld", &v) != 1)
		v = -1;
	if (f)
		fclose(f);
	return v;
}

/** Move the calling process into cgroup DIR; 1 on success. */
static inline int cg_join(const char *dir)
{
	char p[512];
	int f, ok;

	snprintf(p, sizeof p, "%s/cgroup.procs", dir);
	f = open(p, O_WRONLY);
	ok = f >= 0 && write(f, "0", 1) == 1;
	if (f >= 0)
		close(f);
	return ok;
}

#endif /* GDP_CG_H */
