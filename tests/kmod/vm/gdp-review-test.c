/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tests/kmod/vm/gdp-review-test.c: in-VM checks of getdentsplus.ko added by
 * the kernel-module review (TAP lines without numbers, like gdp-test).
 * Run by tests/kmod/vm/vm-review-tests.sh inside the VM; built like gdp-test
 * (static, -I kernel-module/include/uapi).
 *
 *   gdp-review-test compat32 DIR       the ioctl from a 32-bit (int $0x80)
 *                                      caller equals the 64-bit ioctl
 *   gdp-review-test ia32nr DIR         int $0x80 with the module's number
 *                                      (an i386 hole) is not ours: ENOSYS
 *   gdp-review-test nrbits DIR         the number with the x32 bit is not
 *                                      ours; high garbage bits are ignored
 *                                      like the kernel's own dispatch does
 *   gdp-review-test automount DIR NAME automount point NAME in DIR: not
 *                                      triggered with AT_NO_AUTOMOUNT,
 *                                      triggered without (like fstatat)
 *   gdp-review-test idmap DIR SUB      an idmapped mount of DIR: records ==
 *                                      fstatat through it, also as uid 1000
 *                                      in SUB (searchable only through the
 *                                      mapping)
 *   gdp-review-test chroot DIR         ".." at the process root is the root
 *   gdp-review-test oracle DIR FLAGS [UID]  every record == fstatat (FLAGS:
 *                                      GDP_*), as UID if given
 *   gdp-review-test efault-race DIR SECS  list DIR (tmpfs) through a buffer
 *                                      that runs into a PROT_NONE page while
 *                                      a child creates files: no surviving
 *                                      entry twice or missing
 *   gdp-review-test seek DIR           lseek to each record's d_off, then a
 *                                      one-record call returns the next one
 *   gdp-review-test acl-cached DIR FILE SUBDIR  GDP_ATTR_CACHED after
 *                                      drop_caches: ACL bits unknown, known
 *                                      once read (issue 7)
 *   gdp-review-test name-race DIR CALLS  names are not read back from the
 *                                      user buffer (issue 8, fix 1)
 *   gdp-review-test dup2-race DIR CALLS  the fd is not looked up again
 *                                      (issue 8, fix 2)
 *   gdp-review-test lockwait DIR N     N tasks queued on one fd's position
 *                                      lock hold no buffers; the wait is
 *                                      killable (issue 8, fix 3)
 *   gdp-review-test errmap DIR IN OUT  with fail_function making every
 *                                      entry fail with -IN, its error is OUT
 *   gdp-review-test pivot-race D SECS  AT_SYMLINK_FOLLOW listings of a tmpfs D while
 *                                      another task pivot_root()s in and out
 *                                      of it (issue 12, finding 2)
 *   gdp-review-test lsm-cached DIR F   a BPF LSM denying getxattr also hides
 *                                      F's cached ACL bit (finding 5)
 *   gdp-review-test nodevice DIR       loaded with device=0: no device,
 *                                      the syscall works
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <linux/bpf.h>
#include <linux/userfaultfd.h>
#include <linux/getdentsplus.h>

#include "gdp-vmtest.h"
#include "gdp-cg.h"

#define REQ_MASK (STATX_BASIC_STATS | STATX_BTIME)
#define X32_BIT 0x40000000L

static int gdp_nr = -1;
static int gdp_dev = -1;

static void setup(void)
{
	FILE *f = fopen(GETDENTSPLUS_NR_PATH, "r");
	if (!f || fscanf(f, "%d", &gdp_nr) != 1)
		gdp_nr = -1;
	if (f)
		fclose(f);
	gdp_dev = open(GETDENTSPLUS_DEVICE, O_RDONLY | O_CLOEXEC);
}

static long call_ioctl(int fd, void *buf, size_t size, unsigned mask, unsigned flags)
{
	return gdp_ioc(gdp_dev, fd, buf, size, mask, flags);
}

#ifdef __x86_64__
/* A raw 32-bit syscall from this 64-bit process (ia32 emulation). */
static long int80(long nr, long a, long b, long c, long d, long e)
{
	long ret;
	asm volatile("push %%rbp\n\tint $0x80\n\tpop %%rbp"
		     : "=a"(ret)
		     : "a"(nr), "b"(a), "c"(b), "d"(c), "S"(d), "D"(e)
		     : "memory", "r8", "r9", "r10", "r11");
	return ret;
}
#endif

#define NEXT(r) ((struct getdentsplus_entry *)((char *)(r) + (r)->reclen))

/* ---- fstatat oracle ------------------------------------------------ */

static int cmp_one(int dfd, const struct getdentsplus_entry *r, unsigned flags, const char *what)
{
	struct statx sx;
	int sflags = (flags & AT_SYMLINK_FOLLOW) ? 0 : AT_SYMLINK_NOFOLLOW;
	if (flags & AT_NO_AUTOMOUNT)
		sflags |= AT_NO_AUTOMOUNT;
	if (r->flags & GDP_REC_UNRESOLVED) {
		/* ABI 4: only what the kernel's walk from the directory cannot
		 * answer as the caller's: ".." and a symlink to follow (here
		 * no lookup fails other than with ENOENT or EACCES). */
		struct statx lx;
		int walk = !strcmp(r->name, "..") ||
			   (!statx(dfd, r->name, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT,
				   STATX_TYPE, &lx) &&
			    (flags & AT_SYMLINK_FOLLOW) && S_ISLNK(lx.stx_mode));
		if (!walk || r->error || r->attr || r->attr_unknown != GDP_ATTR_ALL) {
			printf("# %s: %s: unresolved record (error %d, attr %#x) for an entry that needs no path walk\n",
			       what, r->name, r->error, r->attr);
			return 1;
		}
		return 0;
	}
	int rc = statx(dfd, r->name, sflags, REQ_MASK, &sx);
	int err = rc ? errno : 0;
	if (err != r->error) {
		printf("# %s: %s: error %d, fstatat %d\n", what, r->name, r->error, err);
		return 1;
	}
	if (err)
		return 0;
	const struct statx *m = &r->stx;
	int bad = 0;
#define F(f) if (m->f != sx.f) { printf("# %s: %s: " #f " %llu vs fstatat %llu\n", what, r->name, \
		(unsigned long long)m->f, (unsigned long long)sx.f); bad = 1; }
	F(stx_ino) F(stx_dev_major) F(stx_dev_minor) F(stx_mode) F(stx_nlink) F(stx_uid)
	F(stx_gid) F(stx_size) F(stx_blocks) F(stx_rdev_major) F(stx_rdev_minor)
	F(stx_mtime.tv_sec) F(stx_mtime.tv_nsec) F(stx_ctime.tv_sec) F(stx_ctime.tv_nsec)
	F(stx_attributes)
#undef F
	return bad;
}

/* List DFD from 0 with the ioctl, compare every record with fstatat. */
static int oracle(int dfd, unsigned flags, const char *what, int *nerr, long *nrec)
{
	static char buf[1 << 16];
	int bad = 0;
	*nerr = 0;
	*nrec = 0;
	lseek(dfd, 0, SEEK_SET);
	for (;;) {
		long n = call_ioctl(dfd, buf, sizeof buf, REQ_MASK, flags);
		if (n < 0) {
			printf("# %s: ioctl: %s\n", what, strerror(errno));
			return bad + 1;
		}
		if (n == 0)
			break;
		for (struct getdentsplus_entry *r = (void *)buf; (char *)r < buf + n; r = NEXT(r)) {
			bad += cmp_one(dfd, r, flags, what);
			*nerr += r->error != 0;
			++*nrec;
		}
	}
	return bad;
}

static int cmd_oracle(const char *dir, unsigned flags, int uid)
{
	if (uid >= 0 && (setgroups(0, NULL) || setresgid(uid, uid, uid) || setresuid(uid, uid, uid)))
		return tap(0, "oracle %s: setresuid %d: %s", dir, uid, strerror(errno));
	int fd = open(dir, O_RDONLY | O_DIRECTORY);
	int nerr;
	long nrec;
	if (fd < 0)
		return tap(0, "oracle %s: open: %s", dir, strerror(errno));
	/* /proc's own link count follows the processes that come and go
	 * between a record and its fstatat (seen on 2 CPUs: ".." of
	 * /proc/self, nlink 64 vs 63): a difference must persist over
	 * three tries to count. */
	int bad, tries = 0;
	do
		bad = oracle(fd, flags, dir, &nerr, &nrec);
	while (bad && ++tries < 3);
	tap(bad == 0 && nrec > 0, "oracle: %s flags %#x uid %d: %ld records equal fstatat (%d per-entry errors, try %d)",
	    dir, flags, uid < 0 ? (int)getuid() : uid, nrec, nerr, tries + 1);
	close(fd);
	return 0;
}

/* ---- 32-bit callers -------------------------------------------------- */

#ifndef __x86_64__
/* arm64: a 32-bit (AArch32) caller needs an AArch32 binary; a static
 * aarch64 program cannot switch to that execution state by itself. */
static int compat_skip(const char *what)
{
	printf("ok - %s: # SKIP no 32-bit caller from this program on %s: an AArch32 "
	       "process is a 32-bit ARM binary (gdp-compat-arm)\n", what, "arm64");
	return 0;
}

static int cmd_compat32(const char *dir)
{
	(void)dir;
	return compat_skip("compat32");
}

static int cmd_ia32nr(const char *dir)
{
	(void)dir;
	return compat_skip("ia32nr (compat caller with our number)");
}
#else
static int cmd_compat32(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY);
	size_t size = 1 << 16;
	char *b64 = malloc(size);
	char *b32 = mmap(NULL, size + 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	if (fd < 0 || !b64 || b32 == MAP_FAILED)
		return tap(0, "compat32: setup: %s", strerror(errno));
	struct getdentsplus_args *a32 = (void *)(b32 + size);
	memset(b64, 0xa5, size);
	memset(b32, 0x5a, size);
	lseek(fd, 0, SEEK_SET);
	long n64 = call_ioctl(fd, b64, size, REQ_MASK, GDP_WANT_ACL | GDP_WANT_LABEL | GDP_WANT_CAP);
	lseek(fd, 0, SEEK_SET);
	memset(a32, 0, sizeof *a32);
	a32->dirfd = fd;
	a32->flags = GDP_AT_FLAGS | GDP_WANT_ACL | GDP_WANT_LABEL | GDP_WANT_CAP;
	a32->buf = (uintptr_t)b32;
	a32->size = size;
	a32->statx_mask = REQ_MASK;
	long n32 = int80(54 /* i386 ioctl */, gdp_dev, GETDENTSPLUS_IOC, (long)(uintptr_t)a32, 0, 0);
	tap(n64 > 0 && n32 == n64 && !memcmp(b64, b32, n64),
	    "compat32: ioctl via int $0x80 (compat_ioctl) returns the same %ld bytes as the 64-bit ioctl (got %ld)",
	    n64, n32);
	/* The position after the 32-bit call is the same as after the 64-bit. */
	off_t p32 = lseek(fd, 0, SEEK_CUR);
	lseek(fd, 0, SEEK_SET);
	call_ioctl(fd, b64, size, REQ_MASK, 0);
	off_t p64 = lseek(fd, 0, SEEK_CUR);
	tap(p32 == p64, "compat32: position after the 32-bit call %lld == after the 64-bit call %lld",
	    (long long)p32, (long long)p64);
	a32->__reserved = 7;
	long r = int80(54, gdp_dev, GETDENTSPLUS_IOC, (long)(uintptr_t)a32, 0, 0);
	tap(r == -EINVAL, "compat32: __reserved != 0 -> EINVAL (got %ld)", r);
	a32->__reserved = 0;
	r = int80(54, gdp_dev, _IOWR(GETDENTSPLUS_IOC_MAGIC, 9, struct getdentsplus_args), (long)(uintptr_t)a32, 0, 0);
	tap(r == -ENOTTY, "compat32: unknown command -> ENOTTY (got %ld)", r);
	close(fd);
	return 0;
}

/* int $0x80 with our number: the ia32 table's hole reaches the same
 * ni_syscall function; it must stay ENOSYS. */
static int cmd_ia32nr(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY);
	char *b32 = mmap(NULL, 1 << 16, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	/* i386 holes in the module's range (i386 uses the rest). */
	int hole = (gdp_nr >= 387 && gdp_nr <= 392) || gdp_nr == 415;
	if (!hole) {
		printf("ok - ia32nr: # SKIP nr %d is a real i386 syscall\n", gdp_nr);
		return 0;
	}
	long r = int80(gdp_nr, fd, (long)(uintptr_t)b32, 1 << 16, REQ_MASK, 0);
	tap(r == -ENOSYS, "ia32nr: int $0x80 with nr %d (an i386 hole) -> ENOSYS (got %ld)", gdp_nr, r);
	lseek(fd, 0, SEEK_SET);
	r = syscall(gdp_nr, fd, b32, 1 << 16, REQ_MASK, 0);
	tap(r > 0, "ia32nr: the 64-bit syscall %d works (got %ld)", gdp_nr, r);
	close(fd);
	return 0;
}
#endif

static int cmd_nrbits(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY);
	static char buf[1 << 16];
	lseek(fd, 0, SEEK_SET);
	long r = syscall(X32_BIT | gdp_nr, fd, buf, sizeof buf, REQ_MASK, 0);
	int e = errno;
	tap(r == -1 && e == ENOSYS, "nrbits: %#lx (x32 bit + our number) -> ENOSYS (got %ld %s)",
	    X32_BIT | gdp_nr, r, r < 0 ? strerror(e) : "");
	lseek(fd, 0, SEEK_SET);
	long want = syscall(gdp_nr, fd, buf, sizeof buf, REQ_MASK, 0);
	lseek(fd, 0, SEEK_SET);
	/* The kernel dispatches on the low 32 bits of rax (getpid with
	 * garbage above works): so does the module. */
	long pid = syscall((1L << 32) | SYS_getpid);
	r = syscall((1L << 32) | gdp_nr, fd, buf, sizeof buf, REQ_MASK, 0);
	e = errno;
	tap(pid == getpid() && r == want,
	    "nrbits: (1<<32)|nr is dispatched like nr, as (1<<32)|getpid is (got %ld %s, want %ld)",
	    r, r < 0 ? strerror(e) : "", want);
	close(fd);
	return 0;
}

/* ---- automount ----------------------------------------------------- */

static int mounted_count(void)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char line[1024];
	int n = 0;
	while (f && fgets(line, sizeof line, f))
		n++;
	if (f)
		fclose(f);
	return n;
}

static struct getdentsplus_entry *find(char *buf, long n, const char *name)
{
	for (struct getdentsplus_entry *r = (void *)buf; (char *)r < buf + n; r = NEXT(r))
		if (!strcmp(r->name, name))
			return r;
	return NULL;
}

static int cmd_automount(const char *dir, const char *name)
{
	static char buf[1 << 16];
	int fd = open(dir, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return tap(0, "automount: open %s: %s", dir, strerror(errno));
	int m0 = mounted_count();
	long n = call_ioctl(fd, buf, sizeof buf, REQ_MASK, AT_NO_AUTOMOUNT);
	struct getdentsplus_entry *r = find(buf, n, name);
	int m1 = mounted_count();
	int bad = r ? cmp_one(fd, r, AT_NO_AUTOMOUNT, "no-automount") : 1;
	tap(r && m1 == m0 && !bad && (r->stx.stx_attributes & STATX_ATTR_AUTOMOUNT),
	    "automount: AT_NO_AUTOMOUNT: %s/%s not mounted (%d -> %d mounts), record == fstatat(AT_NO_AUTOMOUNT), STATX_ATTR_AUTOMOUNT",
	    dir, name, m0, m1);
	/*
	 * ABI 4: default flags resolve the name with the kernel's walk and
	 * LOOKUP_AUTOMOUNT, as fstatat without AT_NO_AUTOMOUNT does: the
	 * module's call mounts it and reports the mount root (ABI 3 left it
	 * to the caller).
	 */
	lseek(fd, 0, SEEK_SET);
	n = call_ioctl(fd, buf, sizeof buf, REQ_MASK, 0);
	r = find(buf, n, name);
	int m2 = mounted_count();
	bad = r ? cmp_one(fd, r, 0, "automount") : 1;
	tap(r && m2 == m1 + 1 && !(r->flags & GDP_REC_UNRESOLVED) && !bad &&
	    (r->stx.stx_attributes & STATX_ATTR_MOUNT_ROOT),
	    "automount: default flags: the call mounts %s/%s as fstatat would (%d -> %d mounts), record == fstatat, the mount root",
	    dir, name, m1, m2);
	/* Mounted now: a second call crosses into it without mounting more. */
	lseek(fd, 0, SEEK_SET);
	n = call_ioctl(fd, buf, sizeof buf, REQ_MASK, 0);
	r = find(buf, n, name);
	int m3 = mounted_count();
	bad = r ? cmp_one(fd, r, 0, "automount") : 1;
	tap(r && m3 == m2 && !bad && (r->stx.stx_attributes & STATX_ATTR_MOUNT_ROOT),
	    "automount: a second call crosses into the mount (%d -> %d mounts), record == fstatat",
	    m2, m3);
	close(fd);
	return 0;
}

/* ---- idmapped mount -------------------------------------------------- */

struct gdp_mount_attr {
	uint64_t attr_set, attr_clr, propagation, userns_fd;
};

static int userns_fd(void)
{
	int p[2];
	if (pipe(p))
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		char c;
		if (unshare(CLONE_NEWUSER))
			_exit(1);
		close(p[1]);
		if (read(p[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(p[0]);
	usleep(100000);
	char path[64];
	int ok = 1;
	const char *maps[] = { "uid_map", "gid_map" };
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof path, "/proc/%d/%s", pid, maps[i]);
		int f = open(path, O_WRONLY);
		/* swap 0 and 1000 */
		const char *m = "0 1000 1\n1000 0 1\n";
		if (f < 0 || write(f, m, strlen(m)) != (ssize_t)strlen(m))
			ok = 0;
		if (f >= 0)
			close(f);
	}
	snprintf(path, sizeof path, "/proc/%d/ns/user", pid);
	int nsfd = ok ? open(path, O_RDONLY) : -1;
	close(p[1]);
	waitpid(pid, NULL, 0);
	return nsfd;
}

static int cmd_idmap(const char *dir, const char *sub)
{
	int ns = userns_fd();
	if (ns < 0)
		return tap(0, "idmap: user namespace: %s", strerror(errno));
	int tree = syscall(SYS_open_tree, AT_FDCWD, dir, 1 /* OPEN_TREE_CLONE */ | O_CLOEXEC);
	if (tree < 0)
		return tap(0, "idmap: open_tree %s: %s", dir, strerror(errno));
	struct gdp_mount_attr ma = { .attr_set = 0x00100000 /* MOUNT_ATTR_IDMAP */, .userns_fd = ns };
	if (syscall(SYS_mount_setattr, tree, "", AT_EMPTY_PATH, &ma, sizeof ma))
		return tap(0, "idmap: mount_setattr: %s", strerror(errno));
	int nerr;
	long nrec;
	int tfd = openat(tree, ".", O_RDONLY | O_DIRECTORY);	/* open_tree gives O_PATH */
	int bad = oracle(tfd, 0, "idmap", &nerr, &nrec);
	/* Spot check: a root-owned entry shows as uid 1000 through the mapping. */
	struct statx sx;
	int mapped = !statx(tree, ".", 0, STATX_UID, &sx) && sx.stx_uid == 1000;
	tap(bad == 0 && nrec > 0 && mapped,
	    "idmap: %s through an idmapped mount (0<->1000): %ld records == fstatat (root shows as 1000: %s)",
	    dir, nrec, mapped ? "yes" : "no");
	int sfd = openat(tree, sub, O_RDONLY | O_DIRECTORY);
	int plain = open(dir, O_RDONLY | O_DIRECTORY);
	int psfd = openat(plain, sub, O_RDONLY | O_DIRECTORY);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		if (setgroups(0, NULL) || setresgid(1000, 1000, 1000) || setresuid(1000, 1000, 1000))
			_exit(3);
		int ne1, ne2;
		long nr1, nr2;
		int b1 = oracle(sfd, 0, "idmap uid 1000", &ne1, &nr1);
		tap(b1 == 0 && nr1 > 2 && ne1 == 0,
		    "idmap: as uid 1000, %s (root 0700 on disk, 1000 through the mapping): %ld records == fstatat, %d errors",
		    sub, nr1, ne1);
		int b2 = oracle(psfd, 0, "plain uid 1000", &ne2, &nr2);
		/* "." fails too: no search permission; ".." is left to the
		 * caller (ABI 4), whose fstatat fails the same way. */
		tap(b2 == 0 && ne2 == nr2 - 1 && nr2 > 2,
		    "idmap: as uid 1000, the same dir without the mapping: %ld records == fstatat, all EACCES but '..' (%d)",
		    nr2, ne2);
		fflush(stdout);
		_exit(failures ? 1 : 0);
	}
	int st;
	waitpid(pid, &st, 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st) > 1)
		tap(0, "idmap: child status %#x", st);
	return 0;
}

/* ---- chroot -------------------------------------------------------- */

static int cmd_chroot(const char *dir)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		if (chroot(dir) || chdir("/"))
			_exit(3);
		int fd = open("/", O_RDONLY | O_DIRECTORY);
		static char buf[1 << 16];
		long n = call_ioctl(fd, buf, sizeof buf, REQ_MASK, 0);
		struct getdentsplus_entry *dd = find(buf, n, ".."), *d = find(buf, n, ".");
		int bad = dd ? cmp_one(fd, dd, 0, "chroot ..") : 1;
		/* ABI 4 leaves ".." to the caller: its fstatat knows its root. */
		struct stat st0, st1;
		tap(dd && d && !bad && (dd->flags & GDP_REC_UNRESOLVED) &&
		    !fstatat(fd, "..", &st0, 0) && !fstat(fd, &st1) && st0.st_ino == st1.st_ino &&
		    d->stx.stx_ino == st1.st_ino,
		    "chroot: '..' of the process root is left to the caller, whose fstatat gives the root itself");
		_exit(0);
	}
	int st;
	waitpid(pid, &st, 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		tap(0, "chroot: child status %#x", st);
	return 0;
}

/* ---- EFAULT while the directory changes ---------------------------- */

/*
 * Every call faults after about 200 records, so each one ends early.  A
 * child keeps creating files meanwhile.  On tmpfs positions are ordinals
 * and new entries go in front of the others: a call that had to rewind
 * with lseek to an old d_off would land on an earlier entry and deliver
 * it again.  The pre-existing names must each come exactly once per pass.
 */
static int cmd_efault_race(const char *dir, int secs)
{
	int nold = 3000;
	char path[4096];
	mkdir(dir, 0755);
	for (int i = 0; i < nold; i++) {
		snprintf(path, sizeof path, "%s/old%05d", dir, i);
		int f = open(path, O_CREAT | O_WRONLY, 0644);
		if (f < 0)
			return tap(0, "efault-race: create %s: %s", path, strerror(errno));
		close(f);
	}
	long pg = sysconf(_SC_PAGESIZE);
	int npg = 16;
	char *m = mmap(NULL, (npg + 1) * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	mprotect(m + npg * pg, pg, PROT_NONE);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		for (long i = 0;; i++) {
			snprintf(path, sizeof path, "%s/new%09ld", dir, i);
			int f = open(path, O_CREAT | O_WRONLY, 0644);
			if (f >= 0)
				close(f);
		}
	}
	int fd = open(dir, O_RDONLY | O_DIRECTORY);
	unsigned char *seen = calloc(nold, 1);
	int passes = 0, dups = 0, missing = 0, calls = 0, efaults = 0;
	time_t end = time(NULL) + secs;
	while (time(NULL) < end) {
		memset(seen, 0, nold);
		lseek(fd, 0, SEEK_SET);
		for (;;) {
			long n = call_ioctl(fd, m, 1 << 20, 0, 0);
			calls++;
			if (n < 0) {
				efaults += errno == EFAULT;
				printf("# efault-race: call failed: %s\n", strerror(errno));
				break;
			}
			if (n == 0)
				break;
			for (struct getdentsplus_entry *r = (void *)m; (char *)r < m + n; r = NEXT(r)) {
				int k;
				if (sscanf(r->name, "old%05d", &k) == 1 && k >= 0 && k < nold) {
					if (seen[k]++)
						dups++;
				}
			}
		}
		for (int k = 0; k < nold; k++)
			missing += !seen[k];
		passes++;
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	tap(passes > 0 && dups == 0 && missing == 0 && efaults == 0,
	    "efault-race: %s: %d passes, %d calls ending at a PROT_NONE page while files are created: "
	    "%d repeated, %d missing of %d pre-existing entries", dir, passes, calls, dups, missing, nold);
	close(fd);
	return 0;
}

/* ---- resume from every d_off -------------------------------------- */

static int cmd_seek(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY);
	static char buf[1 << 20];
	long n = call_ioctl(fd, buf, sizeof buf, 0, 0);
	int bad = 0, k = 0;
	for (struct getdentsplus_entry *r = (void *)buf; (char *)r < buf + n; r = NEXT(r), k++) {
		struct getdentsplus_entry *nx = NEXT(r);
		char one[8192];
		size_t sz = (char *)nx < buf + n ? nx->reclen : GETDENTSPLUS_ENTRY_MIN;
		lseek(fd, r->d_off, SEEK_SET);
		long m = call_ioctl(fd, one, sz, 0, 0);
		if ((char *)nx >= buf + n) {
			if (m != 0) {
				printf("# after the last d_off: %ld\n", m);
				bad++;
			}
		} else if (m <= 0 || strcmp(((struct getdentsplus_entry *)one)->name, nx->name)) {
			printf("# seek to d_off of %s: got %ld %s, want %s\n", r->name, m,
			       m > 0 ? ((struct getdentsplus_entry *)one)->name : "", nx->name);
			bad++;
		}
	}
	tap(n > 0 && bad == 0, "seek: %s: lseek(d_off) of each of %d records then a one-record call gives the next", dir, k);
	return 0;
}

/* ---- issue 7: attribute bits only from memory (GDP_ATTR_CACHED) ------ */

static struct getdentsplus_entry *list_all(int fd, char *buf, size_t size, unsigned flags, long *n)
{
	lseek(fd, 0, SEEK_SET);
	*n = call_ioctl(fd, buf, size, REQ_MASK, flags);
	return *n > 0 ? (void *)buf : NULL;
}

/* ACL bits of a record: 1 present, 0 absent, -1 unknown. */
static int acl_state(const struct getdentsplus_entry *r, unsigned bit)
{
	return r->attr & bit ? 1 : r->attr_unknown & bit ? -1 : 0;
}

static int drop_caches(void)
{
	sync();
	int f = open("/proc/sys/vm/drop_caches", O_WRONLY);
	int ok = f >= 0 && write(f, "3\n", 2) == 2;
	if (f >= 0)
		close(f);
	return ok;
}

/*
 * After drop_caches the inodes of FILE (an access ACL) and SUBDIR (a
 * default ACL) are read again without their ACLs: with GDP_ATTR_CACHED
 * their ACL bits are unknown (error 0, stat data valid); once the ACLs
 * have been read (getxattr, as getfacl does) they are known.  Without the
 * flag every bit is known and equals getxattr.
 */
static int cmd_acl_cached(const char *dir, const char *file, const char *subdir)
{
	static char buf[1 << 18];
	const unsigned A = GDP_ATTR_ACL_ACCESS, D = GDP_ATTR_ACL_DEFAULT;
	char path[4096];
	long n;
	int fd = open(dir, O_RDONLY | O_DIRECTORY);
	if (fd < 0 || !drop_caches())
		return tap(0, "acl-cached: open %s / drop_caches: %s", dir, strerror(errno));
	list_all(fd, buf, sizeof buf, GDP_WANT_ACL | GDP_ATTR_CACHED, &n);
	if (n < 0)
		return tap(0, "acl-cached: call with GDP_ATTR_CACHED: %s", strerror(errno));
	struct getdentsplus_entry *f = find(buf, n, file), *d = find(buf, n, subdir);
	int unknown = 0;
	for (struct getdentsplus_entry *r = (void *)buf; (char *)r < buf + n; r = NEXT(r))
		unknown += acl_state(r, A) < 0;
	tap(f && d && !f->error && !d->error && (f->stx.stx_mask & STATX_INO) &&
	    acl_state(f, A) < 0 && acl_state(d, A) < 0 && acl_state(d, D) < 0,
	    "acl-cached: after drop_caches, GDP_ATTR_CACHED: %s and %s have their ACL bits unknown, error 0, stat data filled (%d of the entries unknown)",
	    file, subdir, unknown);

	snprintf(path, sizeof path, "%s/%s", dir, file);
	ssize_t fa = getxattr(path, "system.posix_acl_access", NULL, 0);
	snprintf(path, sizeof path, "%s/%s", dir, subdir);
	ssize_t da = getxattr(path, "system.posix_acl_access", NULL, 0);
	ssize_t dd = getxattr(path, "system.posix_acl_default", NULL, 0);
	list_all(fd, buf, sizeof buf, GDP_WANT_ACL | GDP_ATTR_CACHED, &n);
	f = find(buf, n, file);
	d = find(buf, n, subdir);
	tap(fa > 0 && da < 0 && dd > 0 && f && d && acl_state(f, A) == 1 && acl_state(d, A) == 0 &&
	    acl_state(d, D) == 1,
	    "acl-cached: after reading their ACLs (getxattr, like getfacl) the bits are known: %s access %d, %s access %d default %d",
	    file, f ? acl_state(f, A) : -9, subdir, d ? acl_state(d, A) : -9, d ? acl_state(d, D) : -9);

	/* Without the flag: all known, equal to getxattr. */
	list_all(fd, buf, sizeof buf, GDP_WANT_ACL, &n);
	int bad = 0, nrec = 0;
	for (struct getdentsplus_entry *r = (void *)buf; (char *)r < buf + n; r = NEXT(r), nrec++) {
		if (r->error || (r->flags & GDP_REC_UNRESOLVED))	/* "..": the caller's */
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, r->name);
		int want = S_ISLNK(r->stx.stx_mode) ? 0 : getxattr(path, "system.posix_acl_access", NULL, 0) > 0;
		if (acl_state(r, A) != want) {
			printf("# acl-cached: %s: access %d, getxattr %d\n", r->name, acl_state(r, A), want);
			bad++;
		}
	}
	tap(n > 0 && !bad, "acl-cached: without the flag on ext4 every access-ACL bit of %d records is known and equals getxattr", nrec);

	/* That uncached call filled the ACL cache of every entry. */
	list_all(fd, buf, sizeof buf, GDP_WANT_ACL | GDP_ATTR_CACHED, &n);
	unknown = 0;
	for (struct getdentsplus_entry *r = (void *)buf; (char *)r < buf + n; r = NEXT(r))
		unknown += !r->error && !(r->flags & GDP_REC_UNRESOLVED) &&
			   (acl_state(r, A) < 0 || (S_ISDIR(r->stx.stx_mode) && acl_state(r, D) < 0));
	tap(n > 0 && unknown == 0, "acl-cached: after an uncached call, GDP_ATTR_CACHED knows every ACL bit (%d unknown)", unknown);
	close(fd);
	return 0;
}

/* ---- issue 8 fix 1: names are never read back from user memory -------- */

struct rewriter {
	char *buf;
	long offs[64];
	int noffs;
	volatile int stop;
	long writes;
};

static void *rewrite_names(void *arg)
{
	struct rewriter *w = arg;
	while (!w->stop) {
		for (int i = 0; i < w->noffs; i++) {
			char *p = w->buf + w->offs[i];
			p[0] = '/';
			__atomic_store_n(&p[1], 0, __ATOMIC_RELAXED);
		}
		w->writes++;
	}
	return NULL;
}

static void mkfile(const char *path)
{
	int f = open(path, O_CREAT | O_WRONLY, 0644);
	if (f >= 0)
		close(f);
}

/*
 * DIR (made here, on tmpfs): 8 files and 8 symlinks to them; listed with
 * AT_SYMLINK_FOLLOW while a second thread keeps writing "/" at the place of every
 * record's name in the buffer.  Every record of ".", ".." and the links
 * must still carry the stat data of its own name, never that of "/".
 */
static int cmd_name_race(const char *dir, int calls)
{
	static char buf[1 << 16];
	char path[4096];
	mkdir(dir, 0755);
	for (int i = 0; i < 8; i++) {
		char t[16];
		snprintf(path, sizeof path, "%s/f%d", dir, i);
		mkfile(path);
		snprintf(path, sizeof path, "%s/s%d", dir, i);
		snprintf(t, sizeof t, "f%d", i);
		if (symlink(t, path) && errno != EEXIST)
			return tap(0, "name-race: symlink %s: %s", path, strerror(errno));
	}
	int fd = open(dir, O_RDONLY | O_DIRECTORY);
	long n;
	if (fd < 0 || !list_all(fd, buf, sizeof buf, AT_SYMLINK_FOLLOW, &n))
		return tap(0, "name-race: first listing of %s: %s", dir, strerror(errno));
	struct rewriter w = { .buf = buf };
	uint64_t want_ino[64], want_dino[64];
	for (struct getdentsplus_entry *r = (void *)buf; (char *)r < buf + n && w.noffs < 64; r = NEXT(r)) {
		struct statx sx;
		if (statx(fd, r->name, 0, STATX_INO, &sx))
			return tap(0, "name-race: statx %s: %s", r->name, strerror(errno));
		want_ino[w.noffs] = sx.stx_ino;
		want_dino[w.noffs] = r->d_ino;
		w.offs[w.noffs++] = (char *)r - buf + offsetof(struct getdentsplus_entry, name);
	}
	pthread_t th;
	pthread_create(&th, NULL, rewrite_names, &w);
	long bad = 0, done = 0, shifted = 0;
	for (int c = 0; c < calls; c++) {
		list_all(fd, buf, sizeof buf, AT_SYMLINK_FOLLOW, &n);
		int i = 0;
		for (struct getdentsplus_entry *r = (void *)buf; (char *)r < buf + n && i < w.noffs; r = NEXT(r), i++) {
			if (r->d_ino != want_dino[i]) {
				shifted++;	/* the layout changed: not a verdict */
				break;
			}
			/* A symlink may be left to the caller (the module walks
			 * no paths): then there is no stat data to check. */
			if (r->flags & GDP_REC_UNRESOLVED)
				continue;	/* left to the caller: "..", links */
			if (r->error || r->stx.stx_ino != want_ino[i])
				bad++;
		}
		done++;
	}
	w.stop = 1;
	pthread_join(th, NULL);
	tap(bad == 0 && done > shifted,
	    "name-race: %ld calls with AT_SYMLINK_FOLLOW while another thread writes \"/\" over every name in the buffer (%ld rewrites): %ld records of ., .., symlinks with another file's stat data",
	    done, w.writes, bad);
	close(fd);
	return 0;
}

/* ---- issue 8 fix 2: the fd is not looked up again ---------------------- */

struct dupper {
	int fd, fd1, fd2;
	volatile int stop;
	long swaps;
};

static void *dup_loop(void *arg)
{
	struct dupper *d = arg;
	while (!d->stop) {
		dup2(d->fd2, d->fd);
		dup2(d->fd1, d->fd);
		d->swaps++;
	}
	return NULL;
}

/*
 * DIR/a and DIR/b (made here; tmpfs): each has a symlink "l" to its own
 * first file and 200 files.  One thread lists fd (AT_SYMLINK_FOLLOW) while
 * another dup2()s DIR/a and DIR/b over it: whichever directory a call
 * lists, its ".", ".." and "l" records must be that directory's.
 */
static int cmd_dup2_race(const char *dir, int calls)
{
	static char buf[1 << 17];
	char path[4096];
	const char *sub[2] = { "a", "b" };
	uint64_t want_dot[2], want_l[2], want_dotdot;
	int fds[2];
	mkdir(dir, 0755);
	for (int k = 0; k < 2; k++) {
		char t[16];
		snprintf(path, sizeof path, "%s/%s", dir, sub[k]);
		mkdir(path, 0755);
		snprintf(path, sizeof path, "%s/%s/l", dir, sub[k]);
		snprintf(t, sizeof t, "%s0", sub[k]);
		symlink(t, path);	/* first: tmpfs lists it last */
		for (int i = 0; i < 200; i++) {
			snprintf(path, sizeof path, "%s/%s/%s%d", dir, sub[k], sub[k], i);
			mkfile(path);
		}
		snprintf(path, sizeof path, "%s/%s", dir, sub[k]);
		fds[k] = open(path, O_RDONLY | O_DIRECTORY);
		struct statx sx;
		if (fds[k] < 0 || statx(fds[k], ".", 0, STATX_INO, &sx))
			return tap(0, "dup2-race: %s: %s", path, strerror(errno));
		want_dot[k] = sx.stx_ino;
		if (statx(fds[k], "l", 0, STATX_INO, &sx))
			return tap(0, "dup2-race: %s/l: %s", path, strerror(errno));
		want_l[k] = sx.stx_ino;
	}
	struct statx sx;
	if (statx(AT_FDCWD, dir, 0, STATX_INO, &sx))
		return tap(0, "dup2-race: %s: %s", dir, strerror(errno));
	want_dotdot = sx.stx_ino;
	struct dupper d = { .fd = dup(fds[0]), .fd1 = fds[0], .fd2 = fds[1] };
	pthread_t th;
	pthread_create(&th, NULL, dup_loop, &d);
	long bad = 0, seen[2] = { 0, 0 };
	for (int c = 0; c < calls; c++) {
		long n;
		if (!list_all(d.fd, buf, sizeof buf, AT_SYMLINK_FOLLOW, &n))
			continue;
		int k = -1;
		for (struct getdentsplus_entry *r = (void *)buf; (char *)r < buf + n; r = NEXT(r))
			if (r->name[0] == 'a' || r->name[0] == 'b') {
				k = r->name[0] == 'b';
				break;
			}
		if (k < 0)
			continue;
		seen[k]++;
		for (struct getdentsplus_entry *r = (void *)buf; (char *)r < buf + n; r = NEXT(r)) {
			uint64_t want = !strcmp(r->name, ".") ? want_dot[k] : !strcmp(r->name, "..") ? want_dotdot :
					!strcmp(r->name, "l") ? want_l[k] : 0;
			if (r->flags & GDP_REC_UNRESOLVED)
				continue;	/* left to the caller: "..", links */
			if (want && (r->error || r->stx.stx_ino != want)) {
				if (bad < 5)
					printf("# dup2-race: %s/%s: ino %llu, want %llu (error %d)\n", sub[k], r->name,
					       (unsigned long long)r->stx.stx_ino, (unsigned long long)want, r->error);
				bad++;
			}
		}
	}
	d.stop = 1;
	pthread_join(th, NULL);
	tap(bad == 0 && seen[0] && seen[1],
	    "dup2-race: %d calls while another thread dup2()s over the fd (%ld swaps; listed a %ld times, b %ld): %ld records of ., .., l from the other directory",
	    calls, d.swaps, seen[0], seen[1], bad);
	return 0;
}

/* ---- issue 8 fix 3: no memory held while waiting for f_pos_lock -------- */




static char task_state(pid_t pid)
{
	char path[64], line[512];
	snprintf(path, sizeof path, "/proc/%d/stat", pid);
	FILE *f = fopen(path, "r");
	char st = '?';
	if (f && fgets(line, sizeof line, f)) {
		char *p = strrchr(line, ')');
		if (p && p[1] == ' ')
			st = p[2];
	}
	if (f)
		fclose(f);
	return st;
}

/* Wait until all N tasks are in state ST; a hang detector, not a timing
 * assertion: 120 s under TCG is far beyond what this takes. */
static int wait_state(const pid_t *pids, int n, char st)
{
	for (int t = 0; t < 6000; t++) {
		int k = 0;
		for (int i = 0; i < n; i++)
			k += task_state(pids[i]) == st;
		if (k == n)
			return 1;
		usleep(20000);
	}
	return 0;
}

struct holder {
	int fd;
	char *buf;
	size_t size;
	long ret;
	int err;
};

static void *hold_lock(void *arg)
{
	struct holder *h = arg;
	h->ret = call_ioctl(h->fd, h->buf, h->size, REQ_MASK, 0);
	h->err = errno;
	return NULL;
}

/*
 * One call on DIR's fd holds the position lock while it waits for a
 * userfaultfd page of its buffer; NWAIT processes sharing the fd then call
 * with 1 MiB buffers and queue on the lock.  What they are charged
 * meanwhile (memory.current of a memory cgroup they joined before calling;
 * the module's allocations are GFP_KERNEL_ACCOUNT) must stay far below the
 * staging buffer a call allocates (a quarter of the request), against the
 * same processes blocked in read() on a pipe in another cgroup; a
 * SIGKILLed waiter must die while the lock is still held (killable wait).
 */
static int cmd_lockwait(const char *dir, int nwait)
{
	const size_t wsize = 1 << 20;
	pid_t *pids = calloc(nwait, sizeof *pids);
	char cgbase[256], cgwait[256];
	int p[2];
	if (!cg_make("gdp-base", cgbase, sizeof cgbase) || !cg_make("gdp-wait", cgwait, sizeof cgwait))
		return tap(0, "lockwait: memory cgroups under /sys/fs/cgroup: %s", strerror(errno));
	if (pipe(p))
		return tap(0, "lockwait: pipe: %s", strerror(errno));
	fflush(stdout);
	for (int i = 0; i < nwait; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			char c;
			close(p[1]);
			if (!cg_join(cgbase))
				_exit(2);
			volatile char *b = malloc(wsize);
			(void)b;
			_exit(read(p[0], &c, 1) < 0);
		}
	}
	close(p[0]);
	int ok1 = wait_state(pids, nwait, 'S');
	long base = cg_current(cgbase);
	close(p[1]);
	for (int i = 0; i < nwait; i++)
		waitpid(pids[i], NULL, 0);

	int fd = open(dir, O_RDONLY | O_DIRECTORY);
	long pg = sysconf(_SC_PAGESIZE);
	size_t hsize = 16 * pg;
	char *hb = mmap(NULL, hsize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int uffd = syscall(SYS_userfaultfd, O_CLOEXEC);
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .range = { (uintptr_t)hb, hsize }, .mode = UFFDIO_REGISTER_MODE_MISSING };
	if (fd < 0 || hb == MAP_FAILED || uffd < 0 || ioctl(uffd, UFFDIO_API, &api) || ioctl(uffd, UFFDIO_REGISTER, &reg))
		return tap(0, "lockwait: setup (open, mmap, userfaultfd): %s", strerror(errno));
	struct holder h = { .fd = fd, .buf = hb, .size = hsize };
	pthread_t th;
	lseek(fd, 0, SEEK_SET);
	pthread_create(&th, NULL, hold_lock, &h);
	struct uffd_msg msg;
	if (read(uffd, &msg, sizeof msg) != sizeof msg || msg.event != UFFD_EVENT_PAGEFAULT)
		return tap(0, "lockwait: no userfaultfd page fault from the holding call: %s", strerror(errno));

	fflush(stdout);
	for (int i = 0; i < nwait; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			if (!cg_join(cgwait))
				_exit(2);
			char *b = malloc(wsize);
			long r = call_ioctl(fd, b, wsize, REQ_MASK, 0);
			_exit(r < 0);
		}
	}
	int ok2 = wait_state(pids, nwait, 'D');
	long held = cg_current(cgwait);
	long per = (held - base) / nwait;

	kill(pids[0], SIGKILL);
	int died = 0;
	for (int t = 0; t < 1000 && !died; t++) {	/* 20 s: a hang detector */
		if (waitpid(pids[0], NULL, WNOHANG) == pids[0])
			died = 1;
		else
			usleep(20000);
	}
	struct uffdio_zeropage zp = { .range = { (uintptr_t)hb, hsize } };
	if (ioctl(uffd, UFFDIO_ZEROPAGE, &zp))
		printf("# lockwait: UFFDIO_ZEROPAGE: %s\n", strerror(errno));
	pthread_join(th, NULL);
	int failed = 0;
	if (!died)
		waitpid(pids[0], NULL, 0);
	for (int i = 1; i < nwait; i++) {
		int st;
		waitpid(pids[i], &st, 0);
		failed += !WIFEXITED(st) || WEXITSTATUS(st);
	}
	printf("# lockwait: memory.current %ld bytes for %d tasks in read(), %ld for %d queued on the lock\n",
	       base, nwait, held, nwait);
	tap(ok1 && ok2 && base >= 0 && held >= 0 && per < 64 * 1024,
	    "lockwait: %d tasks queued on one fd's position lock are charged %ld bytes each beyond tasks blocked in read() (< 64 KiB; a 1 MiB request stages 256 KiB)",
	    nwait, per);
	tap(died, "lockwait: a SIGKILLed waiter dies while the lock is still held (killable wait)");
	tap(h.ret > 0 && failed == 0, "lockwait: the holder (%ld bytes) and the %d waiters complete once the fault is served (%d failed)",
	    h.ret, nwait - 1, failed);
	rmdir(cgbase);
	rmdir(cgwait);
	close(uffd);
	close(fd);
	return 0;
}

/* ---- issue 23: per-entry errors (ABI 4) ---------------------------- */

/*
 * With fail_function making gdp_entry_fault() return -IN, every record's
 * error must be OUT; OUT -1: every record is left to the caller
 * (GDP_REC_UNRESOLVED, error 0), whose own fstatat reports the failure
 * through the syscall return (ABI 4: only ENOENT and EACCES go into a
 * record, no kernel-internal code is translated).
 */
static int cmd_errmap(const char *dir, int in, int out)
{
	static char buf[1 << 16];
	int fd = open(dir, O_RDONLY | O_DIRECTORY);
	long n;
	int bad = 0, nrec = 0, got = 0, unres = 0;
	if (fd < 0 || !list_all(fd, buf, sizeof buf, GDP_WANT_ACL | GDP_SKIP_DOTS, &n))
		return tap(0, "errmap: %s: %s", dir, strerror(errno));
	for (struct getdentsplus_entry *r = (void *)buf; (char *)r < buf + n; r = NEXT(r), nrec++) {
		static const struct statx zero;
		got = r->error;
		unres += !!(r->flags & GDP_REC_UNRESOLVED);
		if (out < 0)
			bad += !(r->flags & GDP_REC_UNRESOLVED) || r->error ||
			       memcmp(&r->stx, &zero, sizeof zero) || r->attr ||
			       r->attr_unknown != GDP_ATTR_ALL;
		else
			bad += r->error != out || (r->flags & GDP_REC_UNRESOLVED) ||
			       memcmp(&r->stx, &zero, sizeof zero) || r->attr;
	}
	if (out < 0)
		tap(!bad && nrec > 0, "errmap: an entry failing with %d is left to the caller (%d of %d records unresolved, error 0)",
		    in, unres, nrec);
	else
		tap(!bad && nrec > 0, "errmap: an entry failing with %d reports error %d (%d records; last %d)", in, out, nrec, got);
	close(fd);
	return 0;
}

/* ---- issue 12 finding 2: pivot_root while symlinks are followed ------- */

#define PIV_N 200

/* One pivot cycle's worth of checks on the lister's records of D. */
static int pivot_check(int fd, char *buf, size_t size, const uint64_t *ino, long *unresolved)
{
	int bad = 0;
	long n;
	list_all(fd, buf, size, AT_SYMLINK_FOLLOW, &n);
	if (n <= 0)
		return 1;
	for (struct getdentsplus_entry *r = (void *)buf; (char *)r < buf + n; r = NEXT(r)) {
		int i;
		if (sscanf(r->name, "l%d", &i) != 1 || i < 0 || i >= PIV_N)
			continue;
		if (r->flags & GDP_REC_UNRESOLVED) {
			++*unresolved;
			continue;
		}
		/* Resolved by the module: it must be the link's own target. */
		if (r->error || r->stx.stx_ino != ino[i]) {
			if (bad < 5)
				printf("# pivot-race: %s: error %d ino %llu, target ino %llu\n", r->name,
				       r->error, (unsigned long long)r->stx.stx_ino, (unsigned long long)ino[i]);
			bad++;
		}
	}
	return bad;
}

struct pivot_arg {
	volatile int stop;
	int status;
	long pivots;
};

/* Pivot the (chrooted) root to /sub and back until told to stop. */
static void *pivot_loop(void *arg)
{
	struct pivot_arg *pa = arg;
	while (!pa->stop) {
		if (syscall(SYS_pivot_root, "/sub", "/sub/old") || chdir("/")) {
			pa->status = errno;
			break;
		}
		if (syscall(SYS_pivot_root, "/old", "/old/sub") || chdir("/")) {
			pa->status = errno;
			break;
		}
		pa->pivots++;
	}
	return NULL;
}

/*
 * D becomes the root of a tmpfs holding PIV_N symlinks l%03d ->
 * x/../x/../.../f%03d and "sub", another tmpfs, with "sub/old".  A
 * process chrooted into D lists it with AT_SYMLINK_FOLLOW over and over while
 * another of its threads pivots to /sub and back.  pivot_root() rewrites
 * every task's root and working directory that equal its old root (D): a
 * module that lent D to a private fs_struct for a path walk would see the
 * borrowed reference dropped (reference underflow, the unmounts below
 * busy or warning, "BUG: Dentry still in use" in the kernel log).  Every record must stay right and
 * both mounts must unmount afterwards.
 */
static int cmd_pivot_race(const char *d, int seconds)
{
	static char buf[1 << 17];
	char path[4096];
	uint64_t ino[PIV_N];
	if ((mkdir(d, 0755) && errno != EEXIST) || mount("pivot-d", d, "tmpfs", 0, "size=8m") ||
	    mount(NULL, d, NULL, MS_PRIVATE, NULL))
		return tap(0, "pivot-race: mount tmpfs on %s: %s", d, strerror(errno));
	for (int i = 0; i < PIV_N; i++) {
		struct stat st;
		snprintf(path, sizeof path, "%s/f%03d", d, i);
		int f = open(path, O_CREAT | O_WRONLY, 0644);
		close(f);
		stat(path, &st);
		ino[i] = st.st_ino;
		/* A long walk per link ("x/../" 800 times): the window in
		 * which a module walking it would have its own fs_struct. */
		char target[4096];
		size_t k = 0;
		for (int j = 0; j < 800; j++)
			k += snprintf(target + k, sizeof target - k, "x/../");
		snprintf(target + k, sizeof target - k, "f%03d", i);
		snprintf(path, sizeof path, "%s/l%03d", d, i);
		if (symlink(target, path))
			return tap(0, "pivot-race: symlink %s: %s", path, strerror(errno));
	}
	char sub[2048];
	snprintf(sub, sizeof sub, "%s/x", d);
	mkdir(sub, 0755);
	snprintf(sub, sizeof sub, "%s/sub", d);
	if (mkdir(sub, 0755) || mount("pivot-sub", sub, "tmpfs", 0, "size=1m") ||
	    mount(NULL, sub, NULL, MS_PRIVATE, NULL))
		return tap(0, "pivot-race: mount tmpfs on %s: %s", sub, strerror(errno));
	snprintf(path, sizeof path, "%s/old", sub);
	mkdir(path, 0755);

	/*
	 * Lister and pivoter are threads of one process chrooted into D:
	 * they share its fs_struct, so the lister's root is D too, and a
	 * module's private fs_struct would borrow D as its root and its
	 * working directory.
	 */
	fflush(stdout);
	pid_t child = fork();
	if (child == 0) {
		struct pivot_arg pa = { 0 };
		pthread_t th;
		int fd;
		if (chroot(d) || chdir("/") || (fd = open("/", O_RDONLY | O_DIRECTORY)) < 0)
			_exit(2);
		pthread_create(&th, NULL, pivot_loop, &pa);
		int bad = 0;
		long calls = 0, unresolved = 0;
		time_t end = time(NULL) + seconds;
		while (time(NULL) < end) {
			bad += pivot_check(fd, buf, sizeof buf, ino, &unresolved);
			calls++;
		}
		pa.stop = 1;
		pthread_join(th, NULL);
		tap(pa.status == 0 && pa.pivots > 0 && calls > 0 && !bad,
		    "pivot-race: %ld AT_SYMLINK_FOLLOW calls over %d symlinks while a thread sharing the caller's fs pivot_root()ed %ld times in and out of the listed directory: every record right (%d wrong, %ld left to the caller), pivoter status %d",
		    calls, PIV_N, pa.pivots, bad, unresolved, pa.status);
		fflush(stdout);
		_exit(failures ? 1 : 0);
	}
	int st = 0;
	waitpid(child, &st, 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st) > 1)
		tap(0, "pivot-race: the lister died (status %#x)", st);
	else if (WEXITSTATUS(st))
		failures++;
	int u1 = umount(sub) ? errno : 0;
	int u2 = umount(d) ? errno : 0;
	tap(!u1 && !u2, "pivot-race: both mounts unmount afterwards (no reference leaked: %s, %s)",
	    strerror(u1), strerror(u2));
	return 0;
}

/* ---- issue 12 finding 5: cached ACL bits go through the LSM hook -------- */

/* The BTF id of the function NAME in the kernel's BTF, or -1. */
static long btf_func_id(const char *name)
{
	int f = open("/sys/kernel/btf/vmlinux", O_RDONLY);
	if (f < 0) {
		printf("# btf: /sys/kernel/btf/vmlinux: %s\n", strerror(errno));
		return -1;
	}
	/* Read, not mmap: before 6.16 the file cannot be mapped; sysfs
	 * reports no useful size either. */
	size_t cap = 1 << 20, len = 0;
	unsigned char *b = malloc(cap);
	for (ssize_t k; b && (k = read(f, b + len, cap - len)) > 0;) {
		len += k;
		if (len == cap)
			b = realloc(b, cap *= 2);
	}
	close(f);
	if (!b || len < 24) {
		printf("# btf: cannot read /sys/kernel/btf/vmlinux\n");
		free(b);
		return -1;
	}
	struct { uint16_t magic; uint8_t ver, flags; uint32_t hdr_len, type_off, type_len, str_off, str_len; } h;
	memcpy(&h, b, sizeof h);
	long found = -1;
	const unsigned char *t = b + h.hdr_len + h.type_off, *end = t + h.type_len;
	if (h.hdr_len + h.str_off + h.str_len > len)
		end = t;
	const char *strs = (const char *)b + h.hdr_len + h.str_off;
	for (long id = 1; h.magic == 0xeb9f && t + 12 <= end && found < 0; id++) {
		uint32_t name_off, info;
		memcpy(&name_off, t, 4);
		memcpy(&info, t + 4, 4);
		unsigned kind = (info >> 24) & 0x1f, vlen = info & 0xffff;
		if (kind == 12 /* FUNC */ && !strcmp(strs + name_off, name))
			found = id;
		static const unsigned char fixed[20] = { [1] = 4, [3] = 12, [14] = 4, [17] = 4 };
		static const unsigned char per[20] = { [4] = 12, [5] = 12, [6] = 8, [13] = 8, [15] = 12, [19] = 12 };
		if (kind >= 20)
			break;
		t += 12 + fixed[kind] + (size_t)per[kind] * vlen;
	}
	if (found < 0)
		printf("# btf: no FUNC %s (magic %#x, %u bytes of types)\n", name, h.magic, h.type_len);
	free(b);
	return found;
}

/*
 * A BPF LSM program on the hook HOOK ("bpf_lsm_" + the LSM hook's name)
 * that denies every call of this process (EPERM).  Returns the link fd,
 * or -1 with errno (ENOENT: no such hook in this kernel).
 */
static int deny_hook(const char *hook)
{
	long id = btf_func_id(hook);
	if (id < 0) {
		errno = ENOENT;
		return -1;
	}
	struct bpf_insn prog[] = {
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_get_current_pid_tgid },
		{ .code = BPF_ALU64 | BPF_RSH | BPF_K, .dst_reg = 0, .imm = 32 },
		{ .code = BPF_JMP | BPF_JNE | BPF_K, .dst_reg = 0, .off = 2, .imm = getpid() },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = -EPERM },
		{ .code = BPF_JMP | BPF_EXIT },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	static char log[4096];
	union bpf_attr a;
	memset(&a, 0, sizeof a);
	a.prog_type = BPF_PROG_TYPE_LSM;
	a.expected_attach_type = BPF_LSM_MAC;
	a.insns = (uintptr_t)prog;
	a.insn_cnt = sizeof prog / sizeof prog[0];
	a.license = (uintptr_t)"GPL";
	a.attach_btf_id = id;
	a.log_buf = (uintptr_t)log;
	a.log_size = sizeof log;
	a.log_level = 1;
	int pfd = syscall(SYS_bpf, BPF_PROG_LOAD, &a, sizeof a);
	if (pfd < 0) {
		int e = errno;
		printf("# lsm-cached: BPF_PROG_LOAD %s: %s\n# %s\n", hook, strerror(e), log);
		errno = e;
		return -1;
	}
	memset(&a, 0, sizeof a);
	a.raw_tracepoint.prog_fd = pfd;
	int lfd = syscall(SYS_bpf, BPF_RAW_TRACEPOINT_OPEN, &a, sizeof a);
	int e = errno;
	close(pfd);
	errno = e;
	return lfd;
}

/*
 * FILE in DIR has an access ACL, read once (so the inode's ACL cache holds
 * it).  With a BPF LSM denying this process's getxattr (and get_acl), the
 * module must
 * not answer the ACL bit from the cache around the hook: unknown, with
 * GDP_ATTR_CACHED and without it, exactly where getxattr(2) is refused.
 */
static int cmd_lsm_cached(const char *dir, const char *file)
{
	static char buf[1 << 17];
	char path[4096], lsms[256] = "";
	const unsigned A = GDP_ATTR_ACL_ACCESS;
	long n;
	int l = open("/sys/kernel/security/lsm", O_RDONLY);
	if (l >= 0) {
		ssize_t k = read(l, lsms, sizeof lsms - 1);
		lsms[k > 0 ? k : 0] = 0;
		close(l);
	}
	if (!strstr(lsms, "bpf"))
		return printf("ok - lsm-cached # SKIP the BPF LSM is not active in this kernel (lsm: %s)\n", lsms), 0;
	snprintf(path, sizeof path, "%s/%s", dir, file);
	ssize_t before = getxattr(path, "system.posix_acl_access", NULL, 0);
	int fd = open(dir, O_RDONLY | O_DIRECTORY);
	struct getdentsplus_entry *r = list_all(fd, buf, sizeof buf, GDP_WANT_ACL | GDP_ATTR_CACHED, &n) ?
		find(buf, n, file) : NULL;
	int s0 = r ? acl_state(r, A) : -9;
	/* Since 6.2 POSIX ACLs have their own hook (inode_get_acl, through
	 * vfs_get_acl()); before, getxattr's.  Deny both where they exist. */
	int link = deny_hook("bpf_lsm_inode_getxattr");
	if (link < 0 && errno == 524 /* ENOTSUPP: no BPF trampoline here */) {
		close(fd);
		return printf("ok - lsm-cached # SKIP BPF LSM programs cannot be attached on this kernel (ENOTSUPP)\n"), 0;
	}
	if (link < 0) {
		close(fd);
		return tap(0, "lsm-cached: load a BPF LSM program on inode_getxattr: %s", strerror(errno));
	}
	int link2 = deny_hook("bpf_lsm_inode_get_acl");
	if (link2 < 0 && errno != ENOENT) {
		close(fd);
		close(link);
		return tap(0, "lsm-cached: load a BPF LSM program on inode_get_acl: %s", strerror(errno));
	}
	ssize_t denied = getxattr(path, "system.posix_acl_access", NULL, 0);
	int derr = errno;
	r = list_all(fd, buf, sizeof buf, GDP_WANT_ACL | GDP_ATTR_CACHED, &n) ? find(buf, n, file) : NULL;
	int s1 = r ? acl_state(r, A) : -9;
	r = list_all(fd, buf, sizeof buf, GDP_WANT_ACL, &n) ? find(buf, n, file) : NULL;
	int s2 = r ? acl_state(r, A) : -9;
	close(link);
	if (link2 >= 0)
		close(link2);
	ssize_t after = getxattr(path, "system.posix_acl_access", NULL, 0);
	close(fd);
	tap(before > 0 && s0 == 1 && denied < 0 && derr == EPERM && s1 == -1 && s2 == -1 && after > 0,
	    "lsm-cached: %s: ACL bit %d from the cache before; with a BPF LSM denying getxattr (getxattr: %s) GDP_ATTR_CACHED gives %d and an uncached call %d (-1 unknown); getxattr works again after (%zd)",
	    file, s0, denied < 0 ? strerror(derr) : "allowed", s1, s2, after);
	return 0;
}

/* ---- device=0 ----------------------------------------------------------- */

static int cmd_nodevice(const char *dir)
{
	static char buf[1 << 16];
	int dev = open(GETDENTSPLUS_DEVICE, O_RDONLY);
	int e = errno;
	int fd = open(dir, O_RDONLY | O_DIRECTORY);
	long n = syscall(gdp_nr, fd, buf, sizeof buf, REQ_MASK, 0);
	tap(dev < 0 && e == ENOENT && gdp_nr > 0 && n > 0,
	    "nodevice: with device=0 there is no %s (%s) and syscall %d works (%ld bytes)",
	    GETDENTSPLUS_DEVICE, dev < 0 ? strerror(e) : "it exists", gdp_nr, n);
	return 0;
}

int main(int argc, char **argv)
{
	setup();
	if (argc < 2)
		return 2;
	const char *c = argv[1];
	if (!strcmp(c, "compat32") && argc == 3)
		cmd_compat32(argv[2]);
	else if (!strcmp(c, "ia32nr") && argc == 3)
		cmd_ia32nr(argv[2]);
	else if (!strcmp(c, "nrbits") && argc == 3)
		cmd_nrbits(argv[2]);
	else if (!strcmp(c, "automount") && argc == 4)
		cmd_automount(argv[2], argv[3]);
	else if (!strcmp(c, "idmap") && argc == 4)
		cmd_idmap(argv[2], argv[3]);
	else if (!strcmp(c, "chroot") && argc == 3)
		cmd_chroot(argv[2]);
	else if (!strcmp(c, "oracle") && (argc == 4 || argc == 5))
		cmd_oracle(argv[2], strtoul(argv[3], NULL, 0), argc == 5 ? atoi(argv[4]) : -1);
	else if (!strcmp(c, "efault-race") && argc == 4)
		cmd_efault_race(argv[2], atoi(argv[3]));
	else if (!strcmp(c, "seek") && argc == 3)
		cmd_seek(argv[2]);
	else if (!strcmp(c, "acl-cached") && argc == 5)
		cmd_acl_cached(argv[2], argv[3], argv[4]);
	else if (!strcmp(c, "name-race") && argc == 4)
		cmd_name_race(argv[2], atoi(argv[3]));
	else if (!strcmp(c, "dup2-race") && argc == 4)
		cmd_dup2_race(argv[2], atoi(argv[3]));
	else if (!strcmp(c, "lockwait") && argc == 4)
		cmd_lockwait(argv[2], atoi(argv[3]));
	else if (!strcmp(c, "errmap") && argc == 5)
		cmd_errmap(argv[2], atoi(argv[3]), atoi(argv[4]));
	else if (!strcmp(c, "pivot-race") && argc == 4)
		cmd_pivot_race(argv[2], atoi(argv[3]));
	else if (!strcmp(c, "lsm-cached") && argc == 4)
		cmd_lsm_cached(argv[2], argv[3]);
	else if (!strcmp(c, "nodevice") && argc == 3)
		cmd_nodevice(argv[2]);
	else
		return 2;
	return failures ? 1 : 0;
}
