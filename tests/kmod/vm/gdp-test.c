/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tests/kmod/vm/gdp-test.c: in-VM checks of the getdentsplus module (TAP).
 *
 * Runs inside the test VM (static binary).  Every check prints one TAP
 * line without a number ("ok - ..." / "not ok - ..."); the host numbers
 * them.  Diagnostics are "# " lines, capped per check.
 *
 *   gdp-test compare DIR...        recursive oracle check: syscall, ioctl,
 *                                  AT_SYMLINK_FOLLOW and no-attribute requests vs
 *                                  getdents64 + statx/fstatat + getxattr
 *   gdp-test resume DIR [CREATE]   small buffers, interleaving, lseek
 *   gdp-test concurrent DIR SECS   lister vs a creating/deleting child
 *   gdp-test unpriv DIR...         the same oracle check as uid 65534
 *   gdp-test badinput DIR FILE     call-level errors, EFAULT recovery
 *   gdp-test padding DIR           no uninitialised bytes; ioctl == syscall
 *   gdp-test hammer DIR SECS MODE  load for the rmmod test (syscall|ioctl|
 *                                  syscall-only: syscall, device closed)
 *   gdp-test enosys NR             NR gives ENOSYS (module unloaded)
 *   gdp-test spin NR SECS          call NR with no buffer in a loop (EINVAL/
 *                                  EBADF or ENOSYS only): rmmod cycles load
 *   gdp-test edges DIR [BIGDIR]    exact-fit buffers, other syscall numbers,
 *                                  a deleted dir, SIGKILL in long calls
 *   gdp-test sanity DIR            one listing works (after re-insmod)
 *   gdp-test selfend DIR           GDP_WANT_SELF, GDP_MARK_END (ABI 3)
 *
 * Layout: helpers (TAP, calls, record parsing) first, then one function
 * per subcommand, main() at the bottom.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <linux/getdentsplus.h>

#define REQ_MASK (STATX_BASIC_STATS | STATX_BTIME)
#define WANT_ALL (GDP_WANT_ACL | GDP_WANT_LABEL | GDP_WANT_CAP)
#define MAX_DIAG 8

/* ---- TAP ---------------------------------------------------------- */

static int diag_left;
static int failures;

static void check_begin(void) { diag_left = MAX_DIAG; }

static void diag(const char *fmt, ...)
{
	va_list ap;
	if (diag_left-- <= 0)
		return;
	va_start(ap, fmt);
	fputs("# ", stdout);
	vprintf(fmt, ap);
	fputs("\n", stdout);
	va_end(ap);
}

static int tap(int ok, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	printf("%s - ", ok ? "ok" : "not ok");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	fflush(stdout);
	if (!ok)
		failures++;
	check_begin();
	return ok;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p) {
		perror("malloc");
		exit(2);
	}
	return p;
}

/* ---- the calls ----------------------------------------------------- */

enum via { VIA_SYSCALL, VIA_IOCTL };
static const char *via_name[] = { "syscall", "ioctl" };
static int gdp_nr = -1;
static int gdp_dev = -1;

static int gdp_setup(void)
{
	FILE *f = fopen(GETDENTSPLUS_NR_PATH, "r");
	if (!f || fscanf(f, "%d", &gdp_nr) != 1) {
		printf("# cannot read %s: %s\n", GETDENTSPLUS_NR_PATH, strerror(errno));
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	gdp_dev = open(GETDENTSPLUS_DEVICE, O_RDONLY | O_CLOEXEC);
	if (gdp_dev < 0)
		printf("# cannot open %s: %s\n", GETDENTSPLUS_DEVICE, strerror(errno));
	return 0;
}

/* One call with FLAGS as they are: no layout marker added. */
static long gdp_call_raw(enum via via, int fd, void *buf, size_t size,
			 unsigned mask, unsigned flags)
{
	if (via == VIA_SYSCALL) {
		if (gdp_nr <= 0) { /* 0: the module offers no syscall */
			errno = ENOSYS;
			return -1;
		}
		return syscall(gdp_nr, fd, buf, size, mask, flags);
	}
	struct getdentsplus_args a;
	memset(&a, 0, sizeof a);
	a.dirfd = fd;
	a.flags = flags;
	a.buf = (uintptr_t)buf;
	a.size = size;
	a.statx_mask = mask;
	return ioctl(gdp_dev, GETDENTSPLUS_IOC, &a);
}

/* One call with FLAGS in the ABI 5 layout (GDP_AT_FLAGS added). */
static long gdp_call(enum via via, int fd, void *buf, size_t size,
		     unsigned mask, unsigned flags)
{
	return gdp_call_raw(via, fd, buf, size, mask, flags | GDP_AT_FLAGS);
}

/* ---- records ------------------------------------------------------- */

struct ent {
	char *name;
	uint64_t ino;
	int64_t off;
	unsigned type;
	int error;
	unsigned flags;		/* GDP_REC_* */
	uint32_t attr, attr_unknown;
	struct statx stx;
};

struct list {
	struct ent *v;
	size_t n, cap;
};

static void list_push(struct list *l, const struct ent *e)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 256;
		l->v = realloc(l->v, l->cap * sizeof *l->v);
		if (!l->v) {
			perror("realloc");
			exit(2);
		}
	}
	l->v[l->n++] = *e;
}

static void list_free(struct list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].name);
	free(l->v);
	memset(l, 0, sizeof *l);
}

static int all_zero(const void *p, size_t n)
{
	const unsigned char *c = p;
	for (size_t i = 0; i < n; i++)
		if (c[i])
			return 0;
	return 1;
}

/* Check the structure of the LEN bytes a call returned and append the
 * records to L.  Returns the number of structural problems found. */
static int parse_records(const char *buf, long len, struct list *l, int64_t *last_off)
{
	int bad = 0;
	long pos = 0;
	while (pos < len) {
		const struct getdentsplus_entry *r = (const void *)(buf + pos);
		if (len - pos < (long)sizeof *r) {
			diag("record at %ld: %ld bytes left, header needs %zu", pos, len - pos, sizeof *r);
			return bad + 1;
		}
		if (r->reclen % 8 || r->reclen < GETDENTSPLUS_ENTRY_MIN || r->reclen > len - pos) {
			diag("record at %ld: bad reclen %u (len %ld)", pos, r->reclen, len);
			return bad + 1;
		}
		size_t room = r->reclen - sizeof *r;
		size_t nl = strnlen(r->name, room);
		if (nl == room || nl != r->namelen) {
			diag("record at %ld: namelen %u, strnlen %zu, room %zu", pos, r->namelen, nl, room);
			bad++;
		} else if (!all_zero(r->name + nl, room - nl)) {
			diag("record '%s': nonzero bytes after the name's NUL", r->name);
			bad++;
		} else if (sizeof *r + nl + 1 + 7 < r->reclen) {
			diag("record '%s': reclen %u larger than needed", r->name, r->reclen);
			bad++;
		}
		if (r->flags & ~(GDP_REC_UNRESOLVED | GDP_REC_SELF | GDP_REC_END)) {
			diag("record '%s': unknown record flags %#x", r->name, r->flags);
			bad++;
		}
		if (r->name_off != offsetof(struct getdentsplus_entry, name)) {
			diag("record '%s': name_off %u, the name is at %zu", r->name, r->name_off,
			     offsetof(struct getdentsplus_entry, name));
			bad++;
		}
		if ((r->flags & GDP_REC_UNRESOLVED) &&
		    (r->error || r->attr || r->attr_unknown != GDP_ATTR_ALL ||
		     !all_zero(&r->stx, sizeof r->stx))) {
			diag("record '%s': unresolved but error %d, attr %#x, unknown %#x, stx not all zero",
			     r->name, r->error, r->attr, r->attr_unknown);
			bad++;
		}
		if (r->stx.__spare0[0] ||
		    !all_zero(r->stx.__spare3, sizeof r->stx.__spare3)) {
			diag("record '%s': nonzero statx spare fields", r->name);
			bad++;
		}
		if ((!(r->stx.stx_mask & STATX_BTIME) &&
		     (r->stx.stx_btime.tv_sec || r->stx.stx_btime.tv_nsec || r->stx.stx_btime.__reserved)) ||
		    (!(r->stx.stx_mask & STATX_MNT_ID) && r->stx.stx_mnt_id) ||
		    (!(r->stx.stx_mask & STATX_DIOALIGN) &&
		     (r->stx.stx_dio_mem_align || r->stx.stx_dio_offset_align)) ||
		    (r->stx.stx_attributes & ~r->stx.stx_attributes_mask) ||
		    r->stx.stx_atime.__reserved || r->stx.stx_mtime.__reserved ||
		    r->stx.stx_ctime.__reserved) {
			diag("record '%s': statx fields outside stx_mask %#x not zero", r->name, r->stx.stx_mask);
			bad++;
		}
		if (r->attr & ~GDP_ATTR_ALL || r->attr_unknown & ~GDP_ATTR_ALL ||
		    r->attr & r->attr_unknown) {
			diag("record '%s': attr %#x unknown %#x inconsistent", r->name, r->attr, r->attr_unknown);
			bad++;
		}
		if (r->error) {
			if (r->error < 0 || r->error > 4095) {
				diag("record '%s': error %d not a positive errno", r->name, r->error);
				bad++;
			}
			if (!all_zero(&r->stx, sizeof r->stx) || r->attr) {
				diag("record '%s': error %d but stat/attr data not zeroed", r->name, r->error);
				bad++;
			}
		}
		struct ent e = {
			.name = strndup(r->name, nl), .ino = r->d_ino, .off = r->d_off,
			.type = r->d_type, .error = r->error, .flags = r->flags, .attr = r->attr,
			.attr_unknown = r->attr_unknown, .stx = r->stx,
		};
		list_push(l, &e);
		if (last_off)
			*last_off = r->d_off;
		pos += r->reclen;
	}
	return bad;
}

/* getdents64's record. */
struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* Whether the directory entries of FD from position FROM up to TO are
 * only "." and "..".  A GDP_SKIP_DOTS call whose batch ended on skipped
 * dots leaves the file position past them, while its last record keeps
 * getdents64's d_off: the position of the first of those dots.  Leaves
 * FD at TO. */
static int only_dots_between(int fd, int64_t from, off_t to)
{
	char b[4096];
	int ok = 0;
	if (lseek(fd, from, SEEK_SET) != from)
		goto out;
	for (;;) {
		long n = syscall(SYS_getdents64, fd, b, sizeof b);
		if (n <= 0)
			goto out;
		for (long p = 0; p < n;) {
			struct linux_dirent64 *d = (void *)(b + p);
			if (strcmp(d->d_name, ".") && strcmp(d->d_name, ".."))
				goto out;
			if (d->d_off == to) {
				ok = 1;
				goto out;
			}
			p += d->d_reclen;
		}
	}
out:
	lseek(fd, to, SEEK_SET);
	return ok;
}

/* List the whole directory FD from position 0 with calls of SIZE bytes.
 * Returns the number of problems (call errors, structure, position). */
static int gdp_list(enum via via, int fd, size_t size, unsigned mask,
		    unsigned flags, struct list *l, long *ncalls)
{
	char *buf = xmalloc(size);
	int bad = 0;
	long calls = 0;
	if (lseek(fd, 0, SEEK_SET) != 0) {
		diag("lseek 0: %s", strerror(errno));
		bad++;
	}
	for (;;) {
		int64_t last = 0;
		long n = gdp_call(via, fd, buf, size, mask, flags);
		calls++;
		if (n < 0) {
			diag("%s(size %zu) failed: %s", via_name[via], size, strerror(errno));
			bad++;
			break;
		}
		if (n == 0)
			break;
		if (n > (long)size) {
			diag("returned %ld > size %zu", n, size);
			bad++;
			break;
		}
		bad += parse_records(buf, n, l, &last);
		off_t pos = lseek(fd, 0, SEEK_CUR);
		if (pos != last && !((flags & GDP_SKIP_DOTS) && only_dots_between(fd, last, pos))) {
			diag("position after call %lld, last d_off %lld", (long long)pos, (long long)last);
			bad++;
		}
		if (calls > 10000000) {
			diag("no end of directory after %ld calls", calls);
			bad++;
			break;
		}
	}
	free(buf);
	if (ncalls)
		*ncalls = calls;
	return bad;
}

/* getdents64 reference listing (struct linux_dirent64 above). */

static long getdents64_once(int fd, struct list *l, size_t size)
{
	char *buf = xmalloc(size);
	long n = syscall(SYS_getdents64, fd, buf, size);
	for (long pos = 0; n > 0 && pos < n;) {
		struct linux_dirent64 *d = (void *)(buf + pos);
		struct ent e = { .name = strdup(d->d_name), .ino = d->d_ino,
				 .off = d->d_off, .type = d->d_type };
		list_push(l, &e);
		pos += d->d_reclen;
	}
	free(buf);
	return n;
}

static int getdents_list(int fd, struct list *l)
{
	if (lseek(fd, 0, SEEK_SET) != 0)
		return -1;
	long n;
	while ((n = getdents64_once(fd, l, 1 << 16)) > 0)
		;
	return n < 0 ? -1 : 0;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct ent *)a)->name, ((const struct ent *)b)->name);
}

/* Names of A and B (sorted in place) equal as multisets, and (if IDS)
 * d_ino/d_type/d_off equal name by name. */
static int same_names(struct list *a, struct list *b, int ids, const char *what)
{
	int bad = 0;
	qsort(a->v, a->n, sizeof *a->v, cmp_name);
	qsort(b->v, b->n, sizeof *b->v, cmp_name);
	for (size_t i = 1; i < a->n; i++)
		if (!strcmp(a->v[i].name, a->v[i - 1].name)) {
			diag("%s: '%s' returned twice", what, a->v[i].name);
			bad++;
		}
	size_t i = 0, j = 0;
	while (i < a->n || j < b->n) {
		int c = i == a->n ? 1 : j == b->n ? -1 : strcmp(a->v[i].name, b->v[j].name);
		if (c < 0) {
			diag("%s: extra name '%s'", what, a->v[i].name);
			bad++;
			i++;
		} else if (c > 0) {
			diag("%s: missing name '%s'", what, b->v[j].name);
			bad++;
			j++;
		} else {
			const struct ent *x = &a->v[i], *y = &b->v[j];
			if (ids && (x->ino != y->ino || x->type != y->type)) {
				diag("%s '%s': d_ino/d_type %llu/%u, getdents64 %llu/%u", what, x->name,
				     (unsigned long long)x->ino, x->type,
				     (unsigned long long)y->ino, y->type);
				bad++;
			}
			if (ids && x->off != y->off) {
				diag("%s '%s': d_off %lld, getdents64 %lld", what, x->name,
				     (long long)x->off, (long long)y->off);
				bad++;
			}
			i++;
			j++;
		}
	}
	return bad;
}

/* ---- the oracle ---------------------------------------------------- */

#define TS_EQ(a, b) ((a).tv_sec == (b).tv_sec && (a).tv_nsec == (b).tv_nsec)
#define TS_LE(a, b) ((a).tv_sec < (b).tv_sec || ((a).tv_sec == (b).tv_sec && (a).tv_nsec <= (b).tv_nsec))

static int cmp_stat(const char *name, const struct statx *m, const struct statx *r,
		    const struct stat *st)
{
	int bad = 0;
	uint32_t need = r->stx_mask & REQ_MASK;
	if ((m->stx_mask & need) != need) {
		diag("'%s': stx_mask %#x lacks %#x (statx gave %#x)", name, m->stx_mask,
		     need & ~m->stx_mask, r->stx_mask);
		bad++;
	}
	uint32_t both = m->stx_mask & r->stx_mask;
#define F(bit, fld)                                                                      \
	if ((both & (bit)) && m->fld != r->fld) {                                           \
		diag("'%s': " #fld " %llu, statx %llu", name, (unsigned long long)m->fld,   \
		     (unsigned long long)r->fld);                                           \
		bad++;                                                                      \
	}
	F(STATX_TYPE | STATX_MODE, stx_mode)
	F(STATX_NLINK, stx_nlink)
	F(STATX_UID, stx_uid)
	F(STATX_GID, stx_gid)
	F(STATX_INO, stx_ino)
	F(STATX_SIZE, stx_size)
	F(STATX_BLOCKS, stx_blocks)
	F(STATX_MNT_ID, stx_mnt_id)
	F(0xffffffff, stx_blksize)
	F(0xffffffff, stx_rdev_major)
	F(0xffffffff, stx_rdev_minor)
	F(0xffffffff, stx_dev_major)
	F(0xffffffff, stx_dev_minor)
#undef F
	uint64_t am = m->stx_attributes_mask & r->stx_attributes_mask;
	if ((m->stx_attributes ^ r->stx_attributes) & am) {
		diag("'%s': stx_attributes %#llx, statx %#llx", name,
		     (unsigned long long)m->stx_attributes, (unsigned long long)r->stx_attributes);
		bad++;
	}
	if ((both & STATX_MTIME) && !TS_EQ(m->stx_mtime, r->stx_mtime)) {
		diag("'%s': mtime differs", name);
		bad++;
	}
	if ((both & STATX_CTIME) && !TS_EQ(m->stx_ctime, r->stx_ctime)) {
		diag("'%s': ctime differs", name);
		bad++;
	}
	if ((both & STATX_BTIME) && !TS_EQ(m->stx_btime, r->stx_btime)) {
		diag("'%s': btime differs", name);
		bad++;
	}
	if ((both & STATX_ATIME) && !TS_LE(m->stx_atime, r->stx_atime)) {
		diag("'%s': atime later than statx's", name);
		bad++;
	}
	/* The same against fstatat's struct stat. */
	if (m->stx_ino != st->st_ino || m->stx_mode != st->st_mode ||
	    m->stx_nlink != st->st_nlink || m->stx_uid != st->st_uid ||
	    m->stx_gid != st->st_gid || m->stx_size != (uint64_t)st->st_size ||
	    m->stx_blocks != (uint64_t)st->st_blocks ||
	    m->stx_rdev_major != major(st->st_rdev) || m->stx_rdev_minor != minor(st->st_rdev) ||
	    m->stx_dev_major != major(st->st_dev) || m->stx_dev_minor != minor(st->st_dev) ||
	    m->stx_mtime.tv_sec != st->st_mtim.tv_sec || m->stx_mtime.tv_nsec != st->st_mtim.tv_nsec ||
	    m->stx_ctime.tv_sec != st->st_ctim.tv_sec || m->stx_ctime.tv_nsec != st->st_ctim.tv_nsec) {
		diag("'%s': differs from fstatat (ino %llu/%llu mode %o/%o dev %u:%u/%u:%u)", name,
		     (unsigned long long)m->stx_ino, (unsigned long long)st->st_ino,
		     m->stx_mode, st->st_mode, m->stx_dev_major, m->stx_dev_minor,
		     major(st->st_dev), minor(st->st_dev));
		bad++;
	}
	return bad;
}

/* Expected attribute bit from an xattr probe: 1 present, 0 absent, -1
 * undeterminable (an error other than ENODATA). */
static int probe(const char *path, const char *xname, int follow, int need_size)
{
	ssize_t n = follow ? getxattr(path, xname, NULL, 0) : lgetxattr(path, xname, NULL, 0);
	if (n >= 0)
		return need_size ? n > 0 : 1;
	return errno == ENODATA ? 0 : -1;
}

static int cmp_attr(const char *path, const struct ent *e, unsigned flags)
{
	static const struct {
		uint32_t bit, want;
		const char *xname;
		int need_size, dirs_only;
	} a[] = {
		{ GDP_ATTR_ACL_ACCESS, GDP_WANT_ACL, "system.posix_acl_access", 1, 0 },
		{ GDP_ATTR_ACL_DEFAULT, GDP_WANT_ACL, "system.posix_acl_default", 1, 1 },
		{ GDP_ATTR_LABEL, GDP_WANT_LABEL, "security.selinux", 0, 0 },
		{ GDP_ATTR_CAP, GDP_WANT_CAP, "security.capability", 0, 0 },
	};
	int bad = 0, follow = flags & AT_SYMLINK_FOLLOW;
	for (size_t i = 0; i < sizeof a / sizeof a[0]; i++) {
		int got = e->attr & a[i].bit ? 1 : e->attr_unknown & a[i].bit ? -1 : 0;
		if (!(flags & a[i].want)) {
			if (got != -1) {
				diag("'%s': attr %#x not asked for but not marked unknown", e->name, a[i].bit);
				bad++;
			}
			continue;
		}
		int exp = probe(path, a[i].xname, follow, a[i].need_size);
		if (a[i].dirs_only && !S_ISDIR(e->stx.stx_mode) && exp == 0)
			exp = 0;
		if (exp == -1 ? got == 1 : got != exp) {
			diag("'%s': %s: module %d, getxattr %d (1 yes, 0 no, -1 unknown)",
			     e->name, a[i].xname, got, exp);
			bad++;
		}
	}
	return bad;
}

/* Positive controls: entries seen with each GDP_ATTR_* bit, and entries
 * (other than "..") on another device than their directory (mountpoints). */
static long attr_seen[5];
/* Records left to the caller (GDP_REC_UNRESOLVED) that were checked. */
static long unresolved_seen;

/* One directory, one way of calling: the module's listing equals
 * getdents64's names and, entry by entry, statx/fstatat/getxattr. */
static int check_dir(const char *dir, enum via via, size_t size, unsigned flags, int *nerr)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		diag("open %s: %s", dir, strerror(errno));
		return 1;
	}
	struct stat dst;
	fstat(fd, &dst);
	dev_t dir_dev = dst.st_dev;
	struct list m = { 0 }, g = { 0 };
	int bad = gdp_list(via, fd, size, REQ_MASK, flags, &m, NULL);
	if (getdents_list(fd, &g) < 0) {
		diag("getdents64: %s", strerror(errno));
		bad++;
	}
	bad += same_names(&m, &g, 1, via_name[via]);
	int follow = flags & AT_SYMLINK_FOLLOW;
	for (size_t i = 0; i < m.n; i++) {
		const struct ent *e = &m.v[i];
		struct statx r;
		struct stat st;
		int af = follow ? 0 : AT_SYMLINK_NOFOLLOW;
		int rc = statx(fd, e->name, af, REQ_MASK, &r);
		int err = rc < 0 ? errno : 0;
		int rc2 = fstatat(fd, e->name, &st, af);
		if ((rc2 < 0 ? errno : 0) != err) {
			diag("'%s': statx and fstatat disagree", e->name);
			bad++;
		}
		/* Left to the caller: only what the kernel's walk from the
		 * directory cannot answer as the caller's would (ABI 4: ".."
		 * and a symlink to follow), and every such entry. */
		struct stat lst;
		int walk = !strcmp(e->name, "..") ||
			   (follow && !fstatat(fd, e->name, &lst, AT_SYMLINK_NOFOLLOW) &&
			    S_ISLNK(lst.st_mode));
		if (!!(e->flags & GDP_REC_UNRESOLVED) != walk) {
			diag("'%s': %s, but the record %s unresolved", e->name,
			     walk ? "'..' or a symlink to follow" : "needs no path walk",
			     e->flags & GDP_REC_UNRESOLVED ? "is" : "is not");
			bad++;
		}
		if (walk) {
			if (strcmp(e->name, ".."))
				unresolved_seen++;	/* symlinks only */
			continue;
		}
		if (err || e->error) {
			if (e->error != err) {
				diag("'%s': per-entry error %d (%s), fstatat says %d (%s)", e->name,
				     e->error, strerror(e->error), err, strerror(err));
				bad++;
			}
			if (e->error && nerr)
				(*nerr)++;
			continue;
		}
		bad += cmp_stat(e->name, &e->stx, &r, &st);
		for (int b = 0; b < 4; b++)
			if (e->attr & (1u << b))
				attr_seen[b]++;
		if (strcmp(e->name, "..") && makedev(e->stx.stx_dev_major, e->stx.stx_dev_minor) != dir_dev)
			attr_seen[4]++;
		char *path;
		if (asprintf(&path, "%s/%s", dir, e->name) < 0)
			exit(2);
		bad += cmp_attr(path, e, flags);
		free(path);
	}
	list_free(&m);
	list_free(&g);
	close(fd);
	return bad;
}

struct dirs {
	char **v;
	size_t n;
};

/* Every directory below DIR that the caller can open (not following
 * symlinks, crossing mountpoints). */
static void collect_dirs(const char *dir, struct dirs *d)
{
	DIR *dp = opendir(dir);
	if (!dp) {
		printf("# not listing %s: %s\n", dir, strerror(errno));
		return;
	}
	d->v = realloc(d->v, (d->n + 1) * sizeof *d->v);
	d->v[d->n++] = strdup(dir);
	struct dirent *de;
	while ((de = readdir(dp))) {
		if (de->d_type != DT_DIR || !strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		char *sub;
		if (asprintf(&sub, "%s/%s", dir, de->d_name) < 0)
			exit(2);
		collect_dirs(sub, d);
		free(sub);
	}
	closedir(dp);
}

static const struct mode {
	const char *name;
	enum via via;
	size_t size;
	unsigned flags;
} modes[] = {
	{ "syscall", VIA_SYSCALL, 1 << 16, WANT_ALL },
	{ "ioctl", VIA_IOCTL, 4096, WANT_ALL },
	{ "syscall AT_SYMLINK_FOLLOW", VIA_SYSCALL, 600, WANT_ALL | AT_SYMLINK_FOLLOW },
	{ "syscall no attributes asked", VIA_SYSCALL, 8192, 0 },
	{ "ioctl GDP_WANT_ACL only", VIA_IOCTL, 1 << 16, GDP_WANT_ACL },
	{ "syscall AT_STATX_DONT_SYNC", VIA_SYSCALL, 1 << 16, WANT_ALL | AT_STATX_DONT_SYNC },
};

/* compare DIR...: every directory below each DIR, every mode. */
static int cmd_compare(int argc, char **argv, const char *who, int want_errors)
{
	for (int a = 0; a < argc; a++) {
		struct dirs d = { 0 };
		collect_dirs(argv[a], &d);
		for (size_t k = 0; k < sizeof modes / sizeof modes[0]; k++) {
			int bad = 0, nerr = 0;
			size_t ndirs = d.n;
			memset(attr_seen, 0, sizeof attr_seen);
			unresolved_seen = 0;
			check_begin();
			for (size_t i = 0; i < ndirs; i++) {
				int b = check_dir(d.v[i], modes[k].via, modes[k].size, modes[k].flags, &nerr);
				if (b)
					diag("... in %s", d.v[i]);
				bad += b;
			}
			tap(bad == 0, "%s%s: %s (%zu dirs) equals getdents64+statx+getxattr", who,
			    argv[a], modes[k].name, ndirs);
			if (want_errors && k == 0)
				tap(nerr > 0, "%s%s: per-entry errors reported (%d)", who, argv[a], nerr);
			if (k == 0)
				printf("# %s: entries with ACL %ld, default ACL %ld, label %ld, capability %ld;"
				       " on another device %ld\n", argv[a], attr_seen[0], attr_seen[1],
				       attr_seen[2], attr_seen[3], attr_seen[4]);
			if (k == 0 && !*who && !strncmp(argv[a], "/mnt/", 5))
				tap(attr_seen[0] && attr_seen[1] && attr_seen[2] && attr_seen[3] && attr_seen[4],
				    "%s: the fixture exercises every attribute bit and a mountpoint", argv[a]);
			if ((modes[k].flags & AT_SYMLINK_FOLLOW) && !*who && !strncmp(argv[a], "/mnt/", 5))
				tap(unresolved_seen > 0,
				    "%s: %s: symlinks to follow are left to the caller (%ld records GDP_REC_UNRESOLVED)",
				    argv[a], modes[k].name, unresolved_seen);
		}
		for (size_t i = 0; i < d.n; i++)
			free(d.v[i]);
		free(d.v);
	}
	return 0;
}

/* ---- resume -------------------------------------------------------- */

static int make_files(const char *dir, long n, const char *prefix)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY);
	if (dfd < 0)
		return -1;
	char name[64];
	for (long i = 0; i < n; i++) {
		snprintf(name, sizeof name, "%s%06ld", prefix, i);
		int fd = openat(dfd, name, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
		if (fd < 0)
			return -1;
		close(fd);
	}
	close(dfd);
	return 0;
}

static int cmd_resume(const char *dir, long create)
{
	if (create > 0) {
		double t = now();
		mkdir(dir, 0755);
		if (make_files(dir, create, "f") < 0) {
			tap(0, "resume: create %ld files in %s: %s", create, dir, strerror(errno));
			return 1;
		}
		printf("# created %ld files in %.1f s\n", create, now() - t);
	}
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		tap(0, "resume: open %s: %s", dir, strerror(errno));
		return 1;
	}
	struct list g = { 0 };
	getdents_list(fd, &g);
	size_t total = g.n;
	/* d_off order as getdents64 returned it (before same_names sorts). */
	struct ent *order = xmalloc(total * sizeof *order);
	memcpy(order, g.v, total * sizeof *order);

	/* Small buffers: one record, two records, one record + a bit. */
	size_t rec = GETDENTSPLUS_ENTRY_MIN;
	size_t sizes[] = { rec, 2 * rec, rec + 8 + rec / 2 };
	for (size_t k = 0; k < 3; k++) {
		struct list m = { 0 }, gg = { 0 };
		long calls = 0;
		check_begin();
		double t = now();
		int bad = gdp_list(VIA_SYSCALL, fd, sizes[k], REQ_MASK, WANT_ALL, &m, &calls);
		double dt = now() - t;
		getdents_list(fd, &gg);
		bad += same_names(&m, &gg, 1, "small buffer");
		for (size_t i = 0; i < m.n; i++)
			if (m.v[i].error) {
				diag("'%s': error %d", m.v[i].name, m.v[i].error);
				bad++;
			}
		tap(bad == 0, "resume %s: size %zu (%zu entries, %ld calls, %.1f s): each name once, same set as getdents64",
		    dir, sizes[k], m.n, calls, dt);
		list_free(&m);
		list_free(&gg);
	}

	/* Interleave getdentsplus and getdents64 on one fd. */
	{
		struct list m = { 0 }, gg = { 0 };
		char *buf = xmalloc(2 * rec);
		int bad = 0;
		lseek(fd, 0, SEEK_SET);
		for (int turn = 0, done = 0; done < 2; turn ^= 1) {
			long n;
			if (turn == 0) {
				n = gdp_call(VIA_SYSCALL, fd, buf, 2 * rec, REQ_MASK, 0);
				if (n > 0)
					bad += parse_records(buf, n, &m, NULL);
			} else {
				n = getdents64_once(fd, &m, 80);
			}
			if (n < 0) {
				diag("interleaved call failed: %s", strerror(errno));
				bad++;
				break;
			}
			done = n == 0 ? done + 1 : 0;
		}
		free(buf);
		getdents_list(fd, &gg);
		bad += same_names(&m, &gg, 0, "interleaved");
		tap(bad == 0, "resume %s: interleaved getdentsplus/getdents64: each name once", dir);
		list_free(&m);
		list_free(&gg);
	}

	/* lseek(SEEK_SET, d_off of entry i) then a call starts at entry i+1. */
	{
		char *buf = xmalloc(1 << 12);
		int bad = 0, tries = 0;
		srand(12345);
		for (int t = 0; t < 40 && total; t++) {
			size_t i = t == 0 ? 0 : t == 1 ? total - 1 : (size_t)rand() % total;
			if (lseek(fd, order[i].off, SEEK_SET) < 0) {
				diag("lseek %lld: %s", (long long)order[i].off, strerror(errno));
				bad++;
				continue;
			}
			long n = gdp_call(VIA_SYSCALL, fd, buf, 1 << 12, REQ_MASK, 0);
			tries++;
			const struct getdentsplus_entry *r = (void *)buf;
			if (i + 1 == total) {
				if (n != 0) {
					diag("after the last d_off: %ld, expected 0", n);
					bad++;
				}
			} else if (n <= 0 || strcmp(r->name, order[i + 1].name)) {
				diag("after d_off of '%s': got '%s' (n %ld), expected '%s'", order[i].name,
				     n > 0 ? r->name : "", n, order[i + 1].name);
				bad++;
			}
		}
		free(buf);
		tap(bad == 0, "resume %s: lseek to a getdents64 d_off resumes at the next entry (%d tries)", dir, tries);
	}
	/* End of directory stays 0. */
	{
		char buf[4096];
		lseek(fd, 0, SEEK_END);
		long a = gdp_call(VIA_SYSCALL, fd, buf, sizeof buf, REQ_MASK, 0);
		while (a > 0)
			a = gdp_call(VIA_SYSCALL, fd, buf, sizeof buf, REQ_MASK, 0);
		long b = gdp_call(VIA_SYSCALL, fd, buf, sizeof buf, REQ_MASK, 0);
		tap(a == 0 && b == 0, "resume %s: 0 at end of directory, twice", dir);
	}
	free(order);
	list_free(&g);
	close(fd);
	return 0;
}

/* ---- concurrency --------------------------------------------------- */

static int cmd_concurrent(const char *dir, int secs)
{
	mkdir(dir, 0755);
	const int keep = 300;
	if (make_files(dir, keep, "keep-") < 0) {
		tap(0, "concurrent %s: setup: %s", dir, strerror(errno));
		return 1;
	}
	pid_t pid = fork();
	if (pid == 0) {
		int dfd = open(dir, O_RDONLY | O_DIRECTORY);
		double end = now() + secs;
		char name[64];
		for (long i = 0; now() < end; i++) {
			snprintf(name, sizeof name, "tmp-%ld", i);
			int fd = openat(dfd, name, O_CREAT | O_WRONLY, 0644);
			if (fd >= 0)
				close(fd);
			if (i >= 20) {
				snprintf(name, sizeof name, "tmp-%ld", i - 20 + (i % 7));
				unlinkat(dfd, name, 0);
				snprintf(name, sizeof name, "tmp-%ld", i - 20);
				unlinkat(dfd, name, 0);
			}
		}
		_exit(0);
	}
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int bad = 0, passes = 0, vanished = 0;
	int *seen = xmalloc(keep * sizeof *seen);
	size_t sizes[] = { 4096, 2 * GETDENTSPLUS_ENTRY_MIN, 1 << 16 };
	check_begin();
	for (;;) {
		int status;
		pid_t w = waitpid(pid, &status, WNOHANG);
		struct list m = { 0 };
		memset(seen, 0, keep * sizeof *seen);
		enum via via = passes % 2 ? VIA_IOCTL : VIA_SYSCALL;
		bad += gdp_list(via, fd, sizes[passes % 3], REQ_MASK, WANT_ALL, &m, NULL);
		qsort(m.v, m.n, sizeof *m.v, cmp_name);
		for (size_t i = 0; i < m.n; i++) {
			const struct ent *e = &m.v[i];
			int k;
			if (i && !strcmp(e->name, m.v[i - 1].name)) {
				diag("pass %d: '%s' twice", passes, e->name);
				bad++;
			}
			if (sscanf(e->name, "keep-%d", &k) == 1 && k >= 0 && k < keep) {
				seen[k]++;
				if (e->error) {
					diag("pass %d: '%s' error %d", passes, e->name, e->error);
					bad++;
				}
			} else if (e->error == ENOENT) {
				vanished++;
			} else if (e->error) {
				diag("pass %d: '%s' error %d (%s)", passes, e->name, e->error, strerror(e->error));
				bad++;
			}
		}
		for (int k = 0; k < keep; k++)
			if (seen[k] != 1) {
				diag("pass %d: keep-%06d seen %d times", passes, k, seen[k]);
				bad++;
			}
		list_free(&m);
		passes++;
		if (w == pid)
			break;
	}
	free(seen);
	close(fd);
	tap(bad == 0 && passes > 2,
	    "concurrent %s: %d passes while a child creates/deletes: survivors once per pass, vanished ones ENOENT (%d) or absent",
	    dir, passes, vanished);
	return 0;
}

/* ---- unprivileged -------------------------------------------------- */

static int cmd_unpriv(int argc, char **argv)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		if (setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534)) {
			tap(0, "unpriv: drop privileges: %s", strerror(errno));
			_exit(1);
		}
		/* The ioctl through the fd opened as root (inherited). */
		int fd = open(GETDENTSPLUS_DEVICE, O_RDONLY);
		if (fd < 0)
			printf("not ok - unpriv: %s can be opened by uid 65534: %s # TODO device mode\n",
			       GETDENTSPLUS_DEVICE, strerror(errno));
		else
			tap(1, "unpriv: %s can be opened by uid 65534", GETDENTSPLUS_DEVICE);
		if (fd >= 0)
			close(fd);
		for (int a = 0; a < argc; a++) {
			int want_errors = strstr(argv[a], "noexec") != NULL;
			cmd_compare(1, argv + a, "uid 65534: ", want_errors);
		}
		fflush(stdout);
		_exit(0);
	}
	int status;
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		tap(0, "unpriv: child exited with status %#x", status);
	return 0;
}

/* ---- bad input ----------------------------------------------------- */

static void expect_err(long rc, int want, const char *what)
{
	int e = rc < 0 ? errno : 0;
	tap(rc == -1 && e == want, "badinput: %s -> %s (got %ld, %s)", what, strerrorname_np(want),
	    rc, rc < 0 ? strerrorname_np(e) : "success");
}

/*
 * The whole listing of FD from position 0, its records' bytes as the call
 * wrote them, with FLAGS passed as they are.  Returns the length, or -1.
 */
static long raw_listing(enum via via, int fd, unsigned flags, char *out, size_t cap)
{
	char buf[4096];
	size_t len = 0;
	long n;

	lseek(fd, 0, SEEK_SET);
	while ((n = gdp_call_raw(via, fd, buf, sizeof buf, REQ_MASK, flags)) > 0) {
		if (len + n > cap)
			return -1;
		memcpy(out + len, buf, n);
		len += n;
	}
	return n < 0 ? -1 : (long)len;
}

/*
 * A request in the layout of ABI 4 and earlier (no GDP_AT_FLAGS) means
 * what it meant there: its records are byte for byte those of the same
 * request in the ABI 5 layout.  Each old bit is written out here from the
 * ABI 4 header, not taken from the module's translation.
 */
static void check_v4_layout(enum via via, int fd, const char *w)
{
	static const struct { unsigned v4, at; const char *name; } map[] = {
		{ 0x0001, AT_SYMLINK_FOLLOW, "FOLLOW" },
		{ 0x0002, AT_NO_AUTOMOUNT, "NO_AUTOMOUNT" },
		{ 0x0004, AT_STATX_FORCE_SYNC, "STATX_FORCE_SYNC" },
		{ 0x0008, AT_STATX_DONT_SYNC, "STATX_DONT_SYNC" },
		{ 0x0010, GDP_WANT_ACL, "WANT_ACL" },
		{ 0x0020, GDP_WANT_LABEL, "WANT_LABEL" },
		{ 0x0040, GDP_WANT_CAP, "WANT_CAP" },
		{ 0x0080, GDP_ATTR_CACHED, "ATTR_CACHED" },
		{ 0x0100, GDP_SKIP_DOTS, "SKIP_DOTS" },
		{ 0x0200, GDP_WANT_SELF, "WANT_SELF" },
		{ 0x0400, GDP_MARK_END, "MARK_END" },
	};
	static const unsigned combos[] = {
		0, 0x0001, 0x0002, 0x0004, 0x0008, 0x0010, 0x0070, 0x00f0, 0x0100,
		0x0200, 0x0400, 0x0771, 0x07fb, 0x07f7,
	};
	static char a[1 << 20], b[1 << 20];

	/* Once first, so that reading the directory has set its atime. */
	raw_listing(via, fd, GDP_AT_FLAGS | GDP_WANT_SELF, a, sizeof a);
	for (size_t c = 0; c < sizeof combos / sizeof *combos; c++) {
		unsigned v4 = combos[c], at = GDP_AT_FLAGS;
		for (size_t i = 0; i < sizeof map / sizeof *map; i++)
			if (v4 & map[i].v4)
				at |= map[i].at;
		long na = raw_listing(via, fd, v4, a, sizeof a);
		long nb = raw_listing(via, fd, at, b, sizeof b);
		tap(na > 0 && na == nb && !memcmp(a, b, na),
		    "badinput: %s: ABI 4 layout %#06x gives the records of ABI 5's %#x (%ld and %ld bytes)",
		    w, v4, at, na, nb);
	}
}

static char *first_name(int fd, enum via via)
{
	char buf[4096];
	lseek(fd, 0, SEEK_SET);
	long n = gdp_call(via, fd, buf, sizeof buf, REQ_MASK, 0);
	return n > 0 ? strdup(((struct getdentsplus_entry *)buf)->name) : strdup("(none)");
}

static int cmd_badinput(const char *dir, const char *file)
{
	char buf[8192];
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int pfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	int ffd = open(file, O_RDONLY | O_CLOEXEC);
	size_t min = GETDENTSPLUS_ENTRY_MIN;
	for (int v = 0; v < 2; v++) {
		char w[64];
		snprintf(w, sizeof w, "%s", via_name[v]);
		char what[160];
#define E(rc, err, ...) (snprintf(what, sizeof what, __VA_ARGS__), expect_err(rc, err, what))
		E(gdp_call(v, -1, buf, sizeof buf, REQ_MASK, 0), EBADF, "%s: fd -1", w);
		E(gdp_call(v, 9999, buf, sizeof buf, REQ_MASK, 0), EBADF, "%s: fd 9999 (closed)", w);
		E(gdp_call(v, pfd, buf, sizeof buf, REQ_MASK, 0), EBADF, "%s: O_PATH fd", w);
		E(gdp_call(v, ffd, buf, sizeof buf, REQ_MASK, 0), ENOTDIR, "%s: regular file fd", w);
		E(gdp_call(v, fd, buf, 0, REQ_MASK, 0), EINVAL, "%s: size 0", w);
		E(gdp_call(v, fd, buf, min - 1, REQ_MASK, 0), EINVAL, "%s: size ENTRY_MIN-1", w);
		/* ABI 5 layout: every bit it does not define, one at a time
		 * (AT_SYMLINK_NOFOLLOW and AT_EMPTY_PATH among them), and
		 * both sync flags; the ABI 4 layout: its unknown bits. */
		for (int b = 0; b < 31; b++) {
			unsigned bit = 1u << b;
			if (bit & GDP_FLAGS_ALL)
				continue;
			E(gdp_call_raw(v, fd, buf, sizeof buf, REQ_MASK, GDP_AT_FLAGS | bit), EINVAL,
			  "%s: GDP_AT_FLAGS | unknown flag %#x%s", w, bit,
			  bit == AT_SYMLINK_NOFOLLOW ? " (AT_SYMLINK_NOFOLLOW)" :
			  bit == AT_EMPTY_PATH ? " (AT_EMPTY_PATH)" : "");
		}
		E(gdp_call(v, fd, buf, sizeof buf, REQ_MASK, AT_STATX_FORCE_SYNC | AT_STATX_DONT_SYNC), EINVAL,
		  "%s: AT_STATX_FORCE_SYNC|AT_STATX_DONT_SYNC", w);
		E(gdp_call_raw(v, fd, buf, sizeof buf, REQ_MASK, GDP_V4_FLAGS_ALL + 1), EINVAL,
		  "%s: ABI 4 layout, unknown flag %#x", w, GDP_V4_FLAGS_ALL + 1);
		E(gdp_call_raw(v, fd, buf, sizeof buf, REQ_MASK, 0x40000000u), EINVAL,
		  "%s: ABI 4 layout, unknown flag 0x40000000", w);
		E(gdp_call_raw(v, fd, buf, sizeof buf, REQ_MASK, GDP_V4_STATX_FORCE_SYNC | GDP_V4_STATX_DONT_SYNC),
		  EINVAL, "%s: ABI 4 layout, both sync flags", w);
		E(gdp_call(v, fd, buf, sizeof buf, 0x80000000u, 0), EINVAL, "%s: statx mask bit 0x80000000", w);
		check_v4_layout(v, fd, w);
		E(gdp_call(v, fd, buf, sizeof buf, REQ_MASK | STATX_MNT_ID, 0), EINVAL,
		  "%s: statx mask STATX_MNT_ID (not in GDP_STATX_SUPPORTED)", w);
		/* GDP_SKIP_DOTS: every name but "." and "..", also in small
		 * batches (resuming after a skipped dot), positions exact. */
		for (int k = 0; k < 2; k++) {
			struct list got = { 0 }, ref = { 0 }, want = { 0 };
			size_t sz = k ? 3 * min : sizeof buf;
			int bad = gdp_list(v, fd, sz, REQ_MASK, GDP_SKIP_DOTS, &got, NULL);
			if (getdents_list(fd, &ref) < 0)
				bad++;
			for (size_t i = 0; i < ref.n; i++)
				if (strcmp(ref.v[i].name, ".") && strcmp(ref.v[i].name, ".."))
					list_push(&want, &ref.v[i]);
			char sk[96];
			snprintf(sk, sizeof sk, "%s: GDP_SKIP_DOTS, size %zu", w, sz);
			bad += same_names(&got, &want, 1, sk);
			tap(!bad, "badinput: %s: no '.' or '..', every other name once with its d_off (%zu names)",
			    sk, got.n);
			free(want.v);
			list_free(&ref);
			list_free(&got);
		}
		lseek(fd, 0, SEEK_SET);
		char *first = first_name(fd, v);
		lseek(fd, 0, SEEK_SET);
		E(gdp_call(v, fd, NULL, sizeof buf, REQ_MASK, 0), EFAULT, "%s: NULL buffer", w);
		char *again = first_name(fd, VIA_SYSCALL);
		/* first_name rewinds; check the position-preserving property too. */
		lseek(fd, 0, SEEK_SET);
		gdp_call(v, fd, NULL, sizeof buf, REQ_MASK, 0);
		long n = gdp_call(v, fd, buf, sizeof buf, REQ_MASK, 0);
		tap(n > 0 && !strcmp(((struct getdentsplus_entry *)buf)->name, first) && !strcmp(again, first),
		    "badinput: %s: after EFAULT the next call returns the first entry again ('%s')", w, first);
		free(again);
		free(first);

		long pg = sysconf(_SC_PAGESIZE);
		char *un = mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		munmap(un, 4 * pg);
		lseek(fd, 0, SEEK_SET);
		E(gdp_call(v, fd, un, 4 * pg, REQ_MASK, 0), EFAULT, "%s: unmapped buffer", w);
		char *ro = mmap(NULL, 4 * pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		lseek(fd, 0, SEEK_SET);
		E(gdp_call(v, fd, ro, 4 * pg, REQ_MASK, 0), EFAULT, "%s: PROT_READ buffer", w);
		munmap(ro, 4 * pg);
		E(gdp_call(v, fd, (void *)0xffff888000000000ull, sizeof buf, REQ_MASK, 0), EFAULT,
		  "%s: kernel address as buffer", w);

		/* A buffer that runs into a PROT_NONE page after 1.5 records:
		 * either records before the fault or EFAULT; nothing lost. */
		{
			char *m = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			mprotect(m + pg, pg, PROT_NONE);
			char *b = m + pg - (min + min / 2);
			struct list got = { 0 }, ref = { 0 };
			int bad = 0;
			lseek(fd, 0, SEEK_SET);
			long r = gdp_call(v, fd, b, 1 << 16, REQ_MASK, 0);
			if (r > 0)
				bad += parse_records(b, r, &got, NULL);
			else if (!(r == -1 && errno == EFAULT)) {
				diag("straddling buffer: %ld %s", r, strerror(errno));
				bad++;
			}
			/* Continue from the position with good calls. */
			for (;;) {
				long k = gdp_call(v, fd, buf, sizeof buf, REQ_MASK, 0);
				if (k <= 0)
					break;
				bad += parse_records(buf, k, &got, NULL);
			}
			getdents_list(fd, &ref);
			bad += same_names(&got, &ref, 0, "after fault");
			tap(bad == 0, "badinput: %s: buffer running into a PROT_NONE page: %s, then no entry lost or repeated",
			    w, r > 0 ? "partial result" : "EFAULT");
			list_free(&got);
			list_free(&ref);
			munmap(m, 2 * pg);
		}

		/* Huge sizes with a real (smaller) buffer and a small dir. */
		{
			size_t bufsz = 1 << 20;
			char *big = mmap(NULL, bufsz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			size_t huge[] = { (size_t)1 << 40, SIZE_MAX, (size_t)1 << 32, ((size_t)1 << 31) + 8 };
			for (int h = 0; h < 4; h++) {
				lseek(fd, 0, SEEK_SET);
				long r = gdp_call(v, fd, big, huge[h], REQ_MASK, 0);
				int e = errno;
				lseek(fd, 0, SEEK_SET);
				long r2 = gdp_call(v, fd, big, bufsz, REQ_MASK, 0);
				int ok = r >= 0 ? r == r2 : (e == EFAULT || e == EINVAL);
				tap(ok, "badinput: %s: size %#zx with a 1 MiB buffer: %s (no ENOMEM)", w, huge[h],
				    r >= 0 ? "same result as a normal call" : strerrorname_np(e));
			}
			munmap(big, bufsz);
		}
#undef E
	}
	/* ioctl-only: __reserved must be 0; other bad requests on the device. */
	{
		struct getdentsplus_args a = { .dirfd = fd, .buf = (uintptr_t)buf, .size = sizeof buf,
					       .statx_mask = REQ_MASK, .__reserved = 1 };
		lseek(fd, 0, SEEK_SET);
		expect_err(ioctl(gdp_dev, GETDENTSPLUS_IOC, &a), EINVAL, "ioctl: __reserved = 1");
		expect_err(ioctl(gdp_dev, GETDENTSPLUS_IOC, NULL), EFAULT, "ioctl: NULL argument");
		long r = ioctl(gdp_dev, _IOWR(GETDENTSPLUS_IOC_MAGIC, 2, struct getdentsplus_args), &a);
		tap(r == -1 && (errno == ENOTTY || errno == EINVAL),
		    "badinput: ioctl: unknown command -> ENOTTY (got %ld, %s)", r, strerrorname_np(errno));
		/* The ioctl on the directory itself is not ours. */
		r = ioctl(fd, GETDENTSPLUS_IOC, &a);
		tap(r == -1, "badinput: GETDENTSPLUS_IOC on the directory fd fails (%s)", strerrorname_np(errno));
		/* ABI 2 spells the command _IOW; version 1's _IOWR still works. */
		a.__reserved = 0;
		lseek(fd, 0, SEEK_SET);
		long r2 = ioctl(gdp_dev, GETDENTSPLUS_IOC, &a);
		lseek(fd, 0, SEEK_SET);
		long r1 = ioctl(gdp_dev, GETDENTSPLUS_IOC_V1, &a);
		tap(GETDENTSPLUS_IOC != GETDENTSPLUS_IOC_V1 && _IOC_DIR(GETDENTSPLUS_IOC) == _IOC_WRITE &&
		    r2 > 0 && r1 == r2,
		    "badinput: ioctl: GETDENTSPLUS_IOC is _IOW (%#lx) and works (%ld bytes); version 1's _IOWR (%#lx) too (%ld)",
		    (unsigned long)GETDENTSPLUS_IOC, r2, (unsigned long)GETDENTSPLUS_IOC_V1, r1);
	}
	close(fd);
	close(pfd);
	close(ffd);
	return 0;
}

/* ---- padding ------------------------------------------------------- */

/* skipdots DIR: GDP_SKIP_DOTS keeps getdents64's d_off for the record just
 * before a skipped "." or "..".  On ext4 a directory of one block with
 * dir_index is read in hash order, "." and ".." wherever their hashes put
 * them; a call that skipped a dot gave the record before it the position
 * of the entry after the dot (a valid resume point, but not getdents64's
 * d_off, which the header promises).  DIR gets 32 subdirectories of 12
 * files; on ext4 at least one must have a dot after another entry, or the
 * check proves nothing.  Each directory's files have names of their own
 * (its letter, then the number: still 7 bytes): the hash seed is one per
 * filesystem, so with the same names all 32 directories were one draw,
 * and about one image in a hundred put both dots first in every one of
 * them (a CI rehearsal's fresh image did). */
static int cmd_skipdots(const char *dir)
{
	char buf[4096];
	struct statfs sfs;
	int dirs_before_dot = 0, bad = 0, ndirs = 32;
	if ((mkdir(dir, 0755) < 0 && errno != EEXIST) || statfs(dir, &sfs) < 0) {
		tap(0, "skipdots %s: mkdir/statfs (%s)", dir, strerror(errno));
		return 1;
	}
	for (int d = 0; d < ndirs; d++) {
		snprintf(buf, sizeof buf, "%s/sd-%02d", dir, d);
		if (mkdir(buf, 0755) < 0 && errno != EEXIST) {
			diag("mkdir %s: %s", buf, strerror(errno));
			bad++;
			continue;
		}
		char pfx[2] = { d < 26 ? 'a' + d : 'A' + d - 26, 0 };
		if (make_files(buf, 12, pfx) < 0) {
			bad++;
			continue;
		}
		int fd = open(buf, O_RDONLY | O_DIRECTORY);
		struct list ref = { 0 };
		if (fd < 0 || getdents_list(fd, &ref) < 0) {
			diag("%s: open/getdents64: %s", buf, strerror(errno));
			bad++;
			if (fd >= 0)
				close(fd);
			continue;
		}
		for (size_t i = 1; i < ref.n; i++)
			if ((!strcmp(ref.v[i].name, ".") || !strcmp(ref.v[i].name, "..")) &&
			    strcmp(ref.v[i - 1].name, ".") && strcmp(ref.v[i - 1].name, "..")) {
				dirs_before_dot++;
				break;
			}
		for (int v = 0; v < 2; v++) {
			if (v == VIA_SYSCALL && gdp_nr <= 0)
				continue;
			if (v == VIA_IOCTL && gdp_dev < 0)
				continue;
			/* One big call, calls of about three records, and
			 * calls of one record (the 7-byte names need
			 * ENTRY_MIN + 8 at most): there every dot after a
			 * record ends a batch, where the file position is past
			 * the dot and the record's d_off is the dot's. */
			for (int k = 0; k < 3; k++) {
				struct list got = { 0 }, want = { 0 };
				char what[sizeof buf + 64];
				size_t sz = k == 2 ? GETDENTSPLUS_ENTRY_MIN + 8 :
					    k ? 3 * GETDENTSPLUS_ENTRY_MIN + 64 : 1 << 16;
				snprintf(what, sizeof what, "%s via %s, size %zu", buf, via_name[v], sz);
				bad += gdp_list(v, fd, sz, REQ_MASK, GDP_SKIP_DOTS, &got, NULL);
				for (size_t i = 0; i < ref.n; i++)
					if (strcmp(ref.v[i].name, ".") && strcmp(ref.v[i].name, ".."))
						list_push(&want, &ref.v[i]);
				bad += same_names(&got, &want, 1, what);
				free(want.v);
				list_free(&got);
			}
		}
		list_free(&ref);
		close(fd);
	}
	int ext4 = sfs.f_type == 0xEF53;
	tap(bad == 0, "skipdots %s: GDP_SKIP_DOTS: every record's d_off equals getdents64's, also just before a skipped dot (%d of %d directories have a dot after another entry)",
	    dir, dirs_before_dot, ndirs);
	if (ext4)
		tap(dirs_before_dot > 0, "skipdots %s: ext4 put a dot after another entry in at least one directory (%d): the check above is not vacuous",
		    dir, dirs_before_dot);
	return bad != 0 || (ext4 && !dirs_before_dot);
}

/* One listing of FD from position 0 with FLAGS (GDP_WANT_SELF and/or
 * GDP_MARK_END among them) and buffers of SIZE bytes; checks what the two
 * flags promise against WANT (getdents64's names, without the dots under
 * GDP_SKIP_DOTS) and ST (fstat of FD).  Returns the problems found. */
static int selfend_list(enum via via, int fd, size_t size, unsigned flags,
			struct list *want, const struct stat *st, const char *what)
{
	char *buf = xmalloc(size);
	struct list got = { 0 };
	int bad = 0, selfs = 0, ends = 0, end_last = 0;
	long calls = 0, n;
	lseek(fd, 0, SEEK_SET);
	for (;;) {
		n = gdp_call(via, fd, buf, size, REQ_MASK, flags);
		calls++;
		if (n <= 0 || calls > 100000)
			break;
		struct list l = { 0 };
		bad += parse_records(buf, n, &l, NULL);
		end_last = 0;
		for (size_t i = 0; i < l.n; i++) {
			struct ent *e = &l.v[i];
			if (e->flags & GDP_REC_END) {
				ends++;
				end_last = i + 1 == l.n;
			}
			if (!(e->flags & GDP_REC_SELF)) {
				list_push(&got, e);
				e->name = NULL;
				continue;
			}
			selfs++;
			if (calls != 1 || i != 0 || e->name[0] || e->off != 0 || e->type != DT_DIR ||
			    e->error || e->ino != st->st_ino || e->stx.stx_ino != st->st_ino ||
			    makedev(e->stx.stx_dev_major, e->stx.stx_dev_minor) != st->st_dev ||
			    e->stx.stx_mode != st->st_mode || e->stx.stx_nlink != st->st_nlink ||
			    e->stx.stx_uid != st->st_uid || e->stx.stx_size != (uint64_t)st->st_size) {
				diag("%s: directory record in call %ld at %zu: name '%s', d_off %lld, type %u, error %d, ino %llu/%llu (fstat %llu), mode %o (fstat %o), nlink %u (fstat %lu)",
				     what, calls, i, e->name, (long long)e->off, e->type, e->error,
				     (unsigned long long)e->ino, (unsigned long long)e->stx.stx_ino,
				     (unsigned long long)st->st_ino, e->stx.stx_mode, st->st_mode,
				     e->stx.stx_nlink, (unsigned long)st->st_nlink);
				bad++;
			}
		}
		list_free(&l);
		if (ends)
			break;
	}
	if (n < 0) {
		diag("%s: call %ld failed: %s", what, calls, strerror(errno));
		bad++;
	}
	/* After the end mark, the directory has nothing more. */
	if (ends && (n = gdp_call(via, fd, buf, size, REQ_MASK, flags)) != 0) {
		diag("%s: a call after the end mark returned %ld", what, n);
		bad++;
	}
	if (selfs != !!(flags & GDP_WANT_SELF)) {
		diag("%s: %d directory records", what, selfs);
		bad++;
	}
	/* A directory with no record to give (empty but for skipped dots,
	 * no directory record) ends with a call that returns 0. */
	int records = got.n + selfs;
	if ((flags & GDP_MARK_END) && records ? (ends != 1 || !end_last) : ends != 0) {
		diag("%s: %d end marks (on the last record of the last batch: %d)", what, ends, end_last);
		bad++;
	}
	bad += same_names(&got, want, 1, what);
	list_free(&got);
	free(buf);
	return bad;
}

/*
 * GDP_WANT_SELF and GDP_MARK_END (ABI 3) on directories of 0, 1, 12 and
 * 3000 entries under DIR: the directory's own record (first, only at
 * position 0, what fstat says), the end mark (exactly once, on the last
 * record, and nothing after it), the same names as getdents64, in big
 * and in one-record buffers, via syscall and ioctl.  Then the edges: a
 * buffer that holds only the directory's record is EINVAL for a directory
 * with entries, and enough for an empty one (its record then carries the
 * end mark); no directory record at another position; neither flag set:
 * neither record flag.
 */
static int cmd_selfend(const char *dir)
{
	static const long sizes[] = { 0, 1, 12, 600 };
	static const unsigned fl[] = {
		0, GDP_WANT_SELF, GDP_MARK_END, GDP_WANT_SELF | GDP_MARK_END,
		GDP_WANT_SELF | GDP_MARK_END | GDP_SKIP_DOTS, GDP_MARK_END | GDP_SKIP_DOTS,
	};
	char path[4096], what[4200];
	char *buf = xmalloc(1 << 16);
	int bad = 0, edge_bad = 0;
	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		tap(0, "selfend %s: mkdir (%s)", dir, strerror(errno));
		return 1;
	}
	for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
		snprintf(path, sizeof path, "%s/se-%ld", dir, sizes[s]);
		if ((mkdir(path, 0755) < 0 && errno != EEXIST) || make_files(path, sizes[s], "e") < 0) {
			diag("%s: mkdir/files: %s", path, strerror(errno));
			bad++;
			continue;
		}
		int fd = open(path, O_RDONLY | O_DIRECTORY);
		struct list ref = { 0 }, nodots = { 0 };
		struct stat st;
		if (fd < 0 || fstat(fd, &st) < 0 || getdents_list(fd, &ref) < 0) {
			diag("%s: open/fstat/getdents64: %s", path, strerror(errno));
			bad++;
			if (fd >= 0)
				close(fd);
			continue;
		}
		for (size_t i = 0; i < ref.n; i++)
			if (strcmp(ref.v[i].name, ".") && strcmp(ref.v[i].name, ".."))
				list_push(&nodots, &ref.v[i]);
		for (int v = 0; v < 2; v++) {
			if ((v == VIA_SYSCALL && gdp_nr <= 0) || (v == VIA_IOCTL && gdp_dev < 0))
				continue;
			for (size_t f = 0; f < sizeof fl / sizeof *fl; f++)
				for (int k = 0; k < 2; k++) {
					/* k: buffers of two records (self + one entry). */
					size_t sz = k ? 2 * GETDENTSPLUS_ENTRY_MIN + 16 : 1 << 16;
					snprintf(what, sizeof what, "%s via %s, flags %#x, size %zu", path,
						 via_name[v], fl[f], sz);
					bad += selfend_list(v, fd, sz, fl[f],
							    (fl[f] & GDP_SKIP_DOTS) ? &nodots : &ref, &st, what);
				}
			/* Edges. */
			long n;
			lseek(fd, 0, SEEK_SET);
			n = gdp_call(v, fd, buf, GETDENTSPLUS_ENTRY_MIN, REQ_MASK, GDP_WANT_SELF | GDP_MARK_END);
			if (!(n < 0 && errno == EINVAL)) {
				diag("%s via %s: a buffer for the directory's record only: %ld (%s), want EINVAL",
				     path, via_name[v], n, n < 0 ? strerror(errno) : "");
				edge_bad++;
			}
			lseek(fd, 0, SEEK_SET);
			n = gdp_call(v, fd, buf, GETDENTSPLUS_ENTRY_MIN, REQ_MASK,
				     GDP_WANT_SELF | GDP_MARK_END | GDP_SKIP_DOTS);
			const struct getdentsplus_entry *r = (const void *)buf;
			if (sizes[s] == 0 ?
			    (n != (long)GETDENTSPLUS_ENTRY_MIN || r->flags != (GDP_REC_SELF | GDP_REC_END)) :
			    !(n < 0 && errno == EINVAL)) {
				diag("%s via %s: empty but for dots, one record's buffer, GDP_SKIP_DOTS: %ld (%s), flags %#x",
				     path, via_name[v], n, n < 0 ? strerror(errno) : "", n > 0 ? r->flags : 0);
				edge_bad++;
			}
			if (ref.n > 1) {
				/* Not at position 0 (one entry read by getdents64):
				 * no directory record, the entry getdents64 gives
				 * next first. */
				struct list one = { 0 }, next = { 0 }, l = { 0 };
				lseek(fd, 0, SEEK_SET);
				getdents64_once(fd, &one, 24 + 8);
				off_t here = lseek(fd, 0, SEEK_CUR);
				getdents64_once(fd, &next, 1 << 16);
				lseek(fd, here, SEEK_SET);
				n = gdp_call(v, fd, buf, 1 << 16, REQ_MASK, GDP_WANT_SELF);
				if (one.n != 1 || !next.n || n <= 0 || parse_records(buf, n, &l, NULL) ||
				    !l.n || (l.v[0].flags & GDP_REC_SELF) || strcmp(l.v[0].name, next.v[0].name)) {
					diag("%s via %s: after '%s' (position %lld): %ld, first '%s' flags %#x (getdents64: '%s')",
					     path, via_name[v], one.n ? one.v[0].name : "?", (long long)here, n,
					     l.n ? l.v[0].name : "", l.n ? l.v[0].flags : 0,
					     next.n ? next.v[0].name : "?");
					edge_bad++;
				}
				list_free(&one);
				list_free(&next);
				list_free(&l);
			}
		}
		free(nodots.v);
		list_free(&ref);
		close(fd);
	}
	free(buf);
	tap(bad == 0, "selfend %s: GDP_WANT_SELF gives the directory's fstat first, GDP_MARK_END marks the last record once, names as getdents64's (0, 1, 12, 600 entries; big and two-record buffers)",
	    dir);
	tap(edge_bad == 0, "selfend %s: edges: EINVAL for a buffer of the directory's record alone, unless it is empty (then self + end); no directory record past position 0",
	    dir);
	return bad || edge_bad;
}

static int cmd_padding(const char *dir)
{
	size_t size = 1 << 16;
	char *a = xmalloc(size), *b = xmalloc(size), *c = xmalloc(size);
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int bad = 0;
	memset(a, 0xaa, size);
	memset(b, 0x55, size);
	memset(c, 0xaa, size);
	lseek(fd, 0, SEEK_SET);
	long na = gdp_call(VIA_SYSCALL, fd, a, size, REQ_MASK, WANT_ALL);
	lseek(fd, 0, SEEK_SET);
	long nb = gdp_call(VIA_SYSCALL, fd, b, size, REQ_MASK, WANT_ALL);
	lseek(fd, 0, SEEK_SET);
	long nc = gdp_call(VIA_IOCTL, fd, c, size, REQ_MASK, WANT_ALL);
	check_begin();
	if (na <= 0 || na != nb) {
		diag("calls returned %ld and %ld", na, nb);
		bad++;
	} else {
		for (long i = 0; i < na; i++)
			if (a[i] != b[i]) {
				diag("byte %ld differs between a 0xAA- and a 0x55-filled buffer", i);
				bad++;
			}
		struct list l = { 0 };
		bad += parse_records(a, na, &l, NULL);
		list_free(&l);
		/* Bytes past the returned length are not written. */
		for (long i = na; i < (long)size; i++)
			if ((unsigned char)a[i] != 0xaa) {
				diag("byte %ld past the returned length was written", i);
				bad++;
				break;
			}
	}
	tap(bad == 0, "padding %s: every byte of every record written (0xAA vs 0x55 fill), pads zero", dir);
	tap(nc == na && na > 0 && !memcmp(a, c, na),
	    "padding %s: ioctl output byte-identical to the syscall's (%ld vs %ld bytes)", dir, nc, na);
	close(fd);
	free(a);
	free(b);
	free(c);
	return 0;
}

/* ---- rmmod support ------------------------------------------------- */

static int cmd_hammer(const char *dir, int secs, const char *mode)
{
	enum via via = strcmp(mode, "ioctl") ? VIA_SYSCALL : VIA_IOCTL;
	if (via == VIA_IOCTL && gdp_dev < 0) {
		printf("# hammer: no device\n");
		return 1;
	}
	/* "syscall-only": close the device first, so that between calls
	 * nothing holds a module reference and rmmod can succeed while the
	 * callers run (issue 12). */
	if (!strcmp(mode, "syscall-only") && gdp_dev >= 0) {
		close(gdp_dev);
		gdp_dev = -1;
	}
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char *buf = xmalloc(1 << 14);
	long ok = 0, enosys = 0, other = 0;
	double end = now() + secs;
	while (now() < end) {
		lseek(fd, 0, SEEK_SET);
		long n;
		while ((n = gdp_call(via, fd, buf, 1 << 14, REQ_MASK, WANT_ALL)) > 0)
			;
		if (n == 0)
			ok++;
		else if (errno == ENOSYS)
			enosys++;
		else {
			if (other++ < 5)
				printf("# hammer %s: %s\n", mode, strerror(errno));
		}
	}
	printf("# hammer %s %d: %ld listings, %ld ENOSYS, %ld other errors\n", mode, getpid(), ok, enosys, other);
	return other ? 1 : 0;
}

/* Call syscall NR with no buffer as fast as possible for SECS seconds:
 * EINVAL or EBADF from the module, ENOSYS without it, anything else is
 * an error.
 * Keeps ni_syscall (and the probe on it) hot while references are held
 * only for an instant, so that rmmod succeeds often (issue 12). */
static int cmd_spin(int nr, int secs)
{
	long answers = 0, enosys = 0, other = 0;
	double end = now() + secs;
	while (now() < end) {
		for (int i = 0; i < 256; i++) {
			long r = syscall(nr, -1, NULL, 0, 0, 0);
			if (r == -1 && (errno == EINVAL || errno == EBADF))
				answers++;
			else if (r == -1 && errno == ENOSYS)
				enosys++;
			else if (other++ < 5)
				printf("# spin %d: got %ld (%s)\n", nr, r, r < 0 ? strerror(errno) : "success");
		}
	}
	printf("# spin %d %d: %ld EINVAL/EBADF, %ld ENOSYS, %ld other\n", nr, getpid(), answers, enosys, other);
	return other ? 1 : 0;
}

static int cmd_enosys(int nr)
{
	char buf[4096];
	int fd = open("/", O_RDONLY | O_DIRECTORY);
	long r = syscall(nr, fd, buf, sizeof buf, REQ_MASK, 0);
	int e = errno;
	tap(r == -1 && e == ENOSYS, "syscall %d after rmmod -> ENOSYS (got %ld, %s)", nr, r,
	    r < 0 ? strerrorname_np(e) : "success");
	return 0;
}

static int cmd_sanity(const char *dir)
{
	int bad = check_dir(dir, VIA_SYSCALL, 1 << 16, WANT_ALL, NULL);
	bad += check_dir(dir, VIA_IOCTL, 1 << 16, WANT_ALL, NULL);
	tap(bad == 0, "sanity %s: syscall and ioctl listings correct", dir);
	return 0;
}

/* ---- edges ---------------------------------------------------------- */

/* Boundaries: each entry with a buffer of exactly its reclen (fits) and
 * one byte less (EINVAL); other syscall numbers; a deleted directory; a
 * fatal signal during a long call. */
static int cmd_edges(const char *dir, const char *bigdir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct list g = { 0 };
	getdents_list(fd, &g);
	char *buf = xmalloc(1 << 12);
	int bad = 0;
	for (size_t i = 0; i < g.n; i++) {
		off_t start = i ? g.v[i - 1].off : 0;
		size_t need = (sizeof(struct getdentsplus_entry) + strlen(g.v[i].name) + 1 + 7) & ~(size_t)7;
		lseek(fd, start, SEEK_SET);
		long n = gdp_call(VIA_SYSCALL, fd, buf, need - 1, REQ_MASK, 0);
		if (!(n == -1 && errno == EINVAL)) {
			diag("'%s': size %zu (one less than its record): %ld %s", g.v[i].name, need - 1, n,
			     n < 0 ? strerror(errno) : "");
			bad++;
		}
		lseek(fd, start, SEEK_SET);
		n = gdp_call(VIA_SYSCALL, fd, buf, need, REQ_MASK, 0);
		if (n != (long)need || strcmp(((struct getdentsplus_entry *)buf)->name, g.v[i].name)) {
			diag("'%s': size %zu (exactly its record): %ld %s", g.v[i].name, need, n,
			     n < 0 ? strerror(errno) : "");
			bad++;
		}
	}
	tap(bad == 0, "edges %s: a buffer of exactly one record fits, one byte less is EINVAL (%zu entries)", dir, g.n);
	list_free(&g);

	/* Only our number is ours. */
	long r = syscall(gdp_nr - 1, fd, buf, 4096, REQ_MASK, 0);
	tap(r == -1 && errno == ENOSYS, "edges: neighbouring hole %d still ENOSYS (%s)", gdp_nr - 1,
	    r < 0 ? strerrorname_np(errno) : "success");
	r = syscall(0x40000000 | gdp_nr, fd, buf, 4096, REQ_MASK, 0);
	tap(r == -1 && errno == ENOSYS, "edges: x32 number %#x ENOSYS (%s)", 0x40000000 | gdp_nr,
	    r < 0 ? strerrorname_np(errno) : "success");
	close(fd);

	/* A deleted directory answers like getdents64 does. */
	char tmpl[] = "/mnt/tmp/gdp-deleted-XXXXXX";
	if (mkdtemp(tmpl)) {
		int dfd = open(tmpl, O_RDONLY | O_DIRECTORY);
		rmdir(tmpl);
		long a = gdp_call(VIA_SYSCALL, dfd, buf, 4096, REQ_MASK, WANT_ALL);
		int ea = errno;
		char gb[4096];
		lseek(dfd, 0, SEEK_SET);
		long b = syscall(SYS_getdents64, dfd, gb, sizeof gb);
		int eb = errno;
		tap((a < 0) == (b < 0) && (a >= 0 ? a == 0 || b > 0 : ea == eb),
		    "edges: removed directory: %ld %s, getdents64 %ld %s", a,
		    a < 0 ? strerrorname_np(ea) : "", b, b < 0 ? strerrorname_np(eb) : "");
		close(dfd);
	}

	/* SIGKILL during long calls (big buffer over a big directory). */
	if (bigdir) {
		pid_t pid = fork();
		if (pid == 0) {
			int bfd = open(bigdir, O_RDONLY | O_DIRECTORY);
			size_t sz = 64 << 20;
			char *b = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			for (;;) {
				lseek(bfd, 0, SEEK_SET);
				while (gdp_call(VIA_SYSCALL, bfd, b, sz, REQ_MASK, WANT_ALL) > 0)
					;
			}
		}
		usleep(700000);
		double t = now();
		kill(pid, SIGKILL);
		int status;
		waitpid(pid, &status, 0);
		double dt = now() - t;
		tap(WIFSIGNALED(status) && dt < 2.0,
		    "edges: SIGKILL during 64 MiB calls over %s: reaped after %.2f s", bigdir, dt);
		/* One 64 MiB call: how many entries per call. */
		int bfd = open(bigdir, O_RDONLY | O_DIRECTORY);
		size_t sz = 64 << 20;
		char *b = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		struct list m = { 0 }, gg = { 0 };
		long calls = 0;
		double t0 = now();
		for (long n; (n = gdp_call(VIA_SYSCALL, bfd, b, sz, REQ_MASK, WANT_ALL)) > 0; calls++)
			parse_records(b, n, &m, NULL);
		double t1 = now();
		getdents_list(bfd, &gg);
		int bad2 = same_names(&m, &gg, 1, "64 MiB buffer");
		tap(bad2 == 0, "edges: %s with a 64 MiB buffer: %zu entries in %ld calls, %.2f s", bigdir, m.n,
		    calls, t1 - t0);
		list_free(&m);
		list_free(&gg);
		munmap(b, sz);
		close(bfd);
	}
	free(buf);
	return 0;
}

/* ---- main ---------------------------------------------------------- */

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2) {
		fprintf(stderr, "usage: gdp-test compare|resume|concurrent|unpriv|badinput|selfend|skipdots|padding|hammer|enosys|spin|sanity ...\n");
		return 2;
	}
	const char *cmd = argv[1];
	if (!strcmp(cmd, "enosys") && argc == 3)
		return cmd_enosys(atoi(argv[2]));
	if (!strcmp(cmd, "spin") && argc == 4)
		return cmd_spin(atoi(argv[2]), atoi(argv[3]));
	if (gdp_setup() < 0) {
		tap(0, "%s: module interface present", cmd);
		return 1;
	}
	check_begin();
	if (!strcmp(cmd, "compare") && argc >= 3)
		cmd_compare(argc - 2, argv + 2, "", 0);
	else if (!strcmp(cmd, "resume") && argc >= 3)
		cmd_resume(argv[2], argc > 3 ? atol(argv[3]) : 0);
	else if (!strcmp(cmd, "concurrent") && argc == 4)
		cmd_concurrent(argv[2], atoi(argv[3]));
	else if (!strcmp(cmd, "unpriv") && argc >= 3)
		cmd_unpriv(argc - 2, argv + 2);
	else if (!strcmp(cmd, "badinput") && argc == 4)
		cmd_badinput(argv[2], argv[3]);
	else if (!strcmp(cmd, "selfend") && argc == 3)
		cmd_selfend(argv[2]);
	else if (!strcmp(cmd, "skipdots") && argc == 3)
		cmd_skipdots(argv[2]);
	else if (!strcmp(cmd, "padding") && argc == 3)
		cmd_padding(argv[2]);
	else if (!strcmp(cmd, "hammer") && argc == 5)
		return cmd_hammer(argv[2], atoi(argv[3]), argv[4]);
	else if (!strcmp(cmd, "edges") && argc >= 3)
		cmd_edges(argv[2], argc > 3 ? argv[3] : NULL);
	else if (!strcmp(cmd, "sanity") && argc == 3)
		cmd_sanity(argv[2]);
	else {
		fprintf(stderr, "gdp-test: bad arguments\n");
		return 2;
	}
	return failures ? 1 : 0;
}
