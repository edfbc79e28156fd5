// SPDX-License-Identifier: GPL-2.0
/* struct dir_context carries a "count" buffer-size hint (recent kernels, e.g. 6.18). */
#include <linux/fs.h>

void gdp_probe(struct dir_context *ctx);
void gdp_probe(struct dir_context *ctx)
{
	ctx->count = 1;
}
