/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tests/kmod/gdp-review-test.c: in-VM checks of getdentsplus.ko added by
 * the kernel-module review (TAP lines without numbers, like gdp-test).
 * Run by tests/kmod/vm-review-tests.sh inside the VM; built like gdp-test
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
 *                                      triggered with GDP_NO_AUTOMOUNT,
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
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <linux/getdentsplus.h>

#define REQ_MASK (STATX_BASIC_STATS | STATX_BTIME)
#define X32_BIT 0x40000000L

static int failures;
static int gdp_nr = -1;
static int gdp_dev = -1;

static int tap(int ok, const char *fmt, ...)
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
	struct getdentsplus_args a;
	memset(&a, 0, sizeof a);
	a.dirfd = fd;
	a.flags = flags;
	a.buf = (uintptr_t)buf;
	a.size = size;
	a.statx_mask = mask;
	return ioctl(gdp_dev, GETDENTSPLUS_IOC, &a);
}

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

#define NEXT(r) ((struct getdentsplus_entry *)((char *)(r) + (r)->reclen))

/* ---- fstatat oracle ------------------------------------------------ */

static int cmp_one(int dfd, const struct getdentsplus_entry *r, unsigned flags, const char *what)
{
	struct statx sx;
	int sflags = (flags & GDP_FOLLOW) ? 0 : AT_SYMLINK_NOFOLLOW;
	if (flags & GDP_NO_AUTOMOUNT)
		sflags |= AT_NO_AUTOMOUNT;
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
	int bad = oracle(fd, flags, dir, &nerr, &nrec);
	tap(bad == 0 && nrec > 0, "oracle: %s flags %#x uid %d: %ld records equal fstatat (%d per-entry errors)",
	    dir, flags, uid < 0 ? (int)getuid() : uid, nrec, nerr);
	close(fd);
	return 0;
}

/* ---- 32-bit callers -------------------------------------------------- */

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
	a32->flags = GDP_WANT_ACL | GDP_WANT_LABEL | GDP_WANT_CAP;
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
	long n = call_ioctl(fd, buf, sizeof buf, REQ_MASK, GDP_NO_AUTOMOUNT);
	struct getdentsplus_entry *r = find(buf, n, name);
	int m1 = mounted_count();
	int bad = r ? cmp_one(fd, r, GDP_NO_AUTOMOUNT, "no-automount") : 1;
	tap(r && m1 == m0 && !bad && (r->stx.stx_attributes & STATX_ATTR_AUTOMOUNT),
	    "automount: GDP_NO_AUTOMOUNT: %s/%s not mounted (%d -> %d mounts), record == fstatat(AT_NO_AUTOMOUNT), STATX_ATTR_AUTOMOUNT",
	    dir, name, m0, m1);
	lseek(fd, 0, SEEK_SET);
	n = call_ioctl(fd, buf, sizeof buf, REQ_MASK, 0);
	r = find(buf, n, name);
	int m2 = mounted_count();
	bad = r ? cmp_one(fd, r, 0, "automount") : 1;
	tap(r && m2 == m1 + 1 && !bad && (r->stx.stx_attributes & STATX_ATTR_MOUNT_ROOT),
	    "automount: default flags trigger it like fstatat (%d -> %d mounts), record == fstatat, mount root",
	    m1, m2);
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
		/* "." and ".." walks fail too: no search permission. */
		tap(b2 == 0 && ne2 == nr2 && nr2 > 2,
		    "idmap: as uid 1000, the same dir without the mapping: %ld records == fstatat, all EACCES (%d)",
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
		tap(dd && d && !bad && dd->stx.stx_ino == d->stx.stx_ino,
		    "chroot: '..' of the process root is the root itself, == fstatat");
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
	else
		return 2;
	return failures ? 1 : 0;
}
