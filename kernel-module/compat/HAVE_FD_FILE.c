// SPDX-License-Identifier: GPL-2.0
/* struct fd is opaque, read through fd_file() (6.12+); 6.1 has f.file. */
#include <linux/file.h>

struct file *gdp_probe(struct fd f);
struct file *gdp_probe(struct fd f)
{
	return fd_file(f);
}
