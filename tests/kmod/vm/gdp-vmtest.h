/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tests/kmod/vm/gdp-vmtest.h: what the in-VM test programs share: TAP lines
 * without numbers (vm-tests.sh numbers them) and the module's ioctl.
 * Static functions: each program that includes it gets its own copy. */
#ifndef GDP_VMTEST_H
#define GDP_VMTEST_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/getdentsplus.h>

/* Checks that failed so far: the exit status says whether any did. */
static int failures;

/** Print one TAP line ("ok - ..." / "not ok - ..."); returns @ok. */
static inline int tap(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s - ", ok ? "ok" : "not ok");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!ok)
		failures++;
	return ok;
}

/** One getdentsplus call through the ioctl on device fd DEV. */
static inline long gdp_ioc(int dev, int fd, void *buf, size_t size,
			   unsigned int mask, unsigned int flags)
{
	struct getdentsplus_args a;

	memset(&a, 0, sizeof a);
	a.dirfd = fd;
	a.flags = flags | GDP_AT_FLAGS;
	a.buf = (uintptr_t)buf;
	a.size = size;
	a.statx_mask = mask;
	return ioctl(dev, GETDENTSPLUS_IOC, &a);
}

#endif /* GDP_VMTEST_H */
