// SPDX-License-Identifier: GPL-2.0
/* dir_context actors return bool (true: continue) since 6.1; int before. */
#include <linux/fs.h>

static bool gdp_probe_actor(struct dir_context *ctx, const char *name, int len,
			    loff_t off, u64 ino, unsigned int type)
{
	return true;
}

void gdp_probe(struct dir_context *ctx);
void gdp_probe(struct dir_context *ctx)
{
	ctx->actor = gdp_probe_actor;
}
