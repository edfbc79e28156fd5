/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tests/kmod/vm/gdp-compat-arm.c: the 32-bit (AArch32) caller checks of
 * getdentsplus.ko on arm64, the counterpart of gdp-review-test's
 * compat32 and ia32nr on x86-64 (which use int $0x80).  Built static with
 * arm-linux-gnueabihf-gcc by mkinitrd for an arm64 target; run by
 * vm-review-tests.sh.  Prints TAP lines without numbers.
 *
 *   gdp-compat-arm ioctl DIR   the ioctl from this 32-bit process
 *                              (compat_ioctl) lists DIR like getdents64,
 *                              each record's inode and mode as statx says;
 *                              __reserved != 0 -> EINVAL, an unknown
 *                              command -> ENOTTY
 *   gdp-compat-arm nr DIR      the module's number (loaded with a hole of
 *                              the 32-bit table, e.g. nr=402) called from
 *                              this process is not ours: ENOSYS
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/getdentsplus.h>

#define MASK (STATX_BASIC_STATS)
#define BUFSZ (1 << 16)

static int failures;

static void tap(int ok, const char *fmt, ...)
{
	va_list ap;
	printf("%s - compat-arm: ", ok ? "ok" : "not ok");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	failures += !ok;
}

static long gdp_ioctl(int dev, unsigned long cmd, int fd, void *buf, unsigned reserved)
{
	struct getdentsplus_args a;
	memset(&a, 0, sizeof a);
	a.dirfd = fd;
	a.buf = (uintptr_t)buf;
	a.size = BUFSZ;
	a.statx_mask = MASK;
	a.__reserved = reserved;
	return ioctl(dev, cmd, &a);
}

/* Number of names getdents64 returns for FD (from offset 0). */
static int count_getdents(int fd, char *buf)
{
	int n = 0;
	long len;
	lseek(fd, 0, SEEK_SET);
	while ((len = syscall(SYS_getdents64, fd, buf, BUFSZ)) > 0)
		for (long off = 0; off < len; n++)
			off += *(unsigned short *)(buf + off + 16);	/* d_reclen */
	return n;
}

/* Records of one ioctl stream: count them, check each against statx. */
static int check_records(int dev, int fd, char *buf, int *bad)
{
	int n = 0;
	long len;
	lseek(fd, 0, SEEK_SET);
	while ((len = gdp_ioctl(dev, GETDENTSPLUS_IOC, fd, buf, 0)) > 0) {
		for (long off = 0; off < len; n++) {
			struct getdentsplus_entry *e = (void *)(buf + off);
			struct statx sx;
			/* ABI 4 leaves ".." to the caller, and only it here. */
			if ((e->flags & GDP_REC_UNRESOLVED) && strcmp(e->name, "..")) {
				printf("# %s: left to the caller\n", e->name);
				++*bad;
			}
			if (e->error == 0 && !(e->flags & GDP_REC_UNRESOLVED) &&
			    (statx(fd, e->name, AT_SYMLINK_NOFOLLOW, MASK, &sx) != 0 ||
			     sx.stx_ino != e->stx.stx_ino || sx.stx_mode != e->stx.stx_mode)) {
				printf("# %s: ino/mode differ from statx\n", e->name);
				++*bad;
			}
			off += e->reclen;
		}
	}
	return len < 0 ? -1 : n;
}

static int cmd_ioctl(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY);
	int dev = open(GETDENTSPLUS_DEVICE, O_RDONLY);
	char *buf = malloc(BUFSZ);
	int bad = 0;
	if (fd < 0 || dev < 0 || !buf) {
		tap(0, "setup: %s", strerror(errno));
		return 1;
	}
	int want = count_getdents(fd, buf);
	int got = check_records(dev, fd, buf, &bad);
	tap(got > 0 && got == want && bad == 0,
	    "ioctl from an AArch32 process lists %s like getdents64 (%d records, getdents64 %d, %d differ from statx)",
	    dir, got, want, bad);
	long r = gdp_ioctl(dev, GETDENTSPLUS_IOC, fd, buf, 7);
	tap(r == -1 && errno == EINVAL, "__reserved != 0 -> EINVAL (got %ld %s)", r, strerror(errno));
	r = gdp_ioctl(dev, _IOWR(GETDENTSPLUS_IOC_MAGIC, 9, struct getdentsplus_args), fd, buf, 0);
	tap(r == -1 && errno == ENOTTY, "unknown command -> ENOTTY (got %ld %s)", r, strerror(errno));
	return 0;
}

static int cmd_nr(const char *dir)
{
	FILE *f = fopen(GETDENTSPLUS_NR_PATH, "r");
	int nr = -1;
	if (!f || fscanf(f, "%d", &nr) != 1 || nr <= 0) {
		tap(0, "nr: cannot read %s", GETDENTSPLUS_NR_PATH);
		return 1;
	}
	fclose(f);
	int fd = open(dir, O_RDONLY | O_DIRECTORY);
	char *buf = malloc(BUFSZ);
	errno = 0;
	long r = syscall(nr, fd, buf, BUFSZ, MASK, 0);
	tap(r == -1 && errno == ENOSYS, "32-bit syscall %d (a hole of the AArch32 table) -> ENOSYS, not the module (got %ld %s)",
	    nr, r, strerror(errno));
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "ioctl"))
		cmd_ioctl(argv[2]);
	else if (argc == 3 && !strcmp(argv[1], "nr"))
		cmd_nr(argv[2]);
	else {
		fprintf(stderr, "usage: gdp-compat-arm ioctl|nr DIR\n");
		return 2;
	}
	return failures ? 1 : 0;
}
