// SPDX-License-Identifier: GPL-2.0
/* follow_down(path, lookup_flags) (6.2+); 6.1 has follow_down(path). */
#include <linux/namei.h>
#include <linux/path.h>

int gdp_probe(struct path *path);
int gdp_probe(struct path *path)
{
	return follow_down(path, 0);
}
