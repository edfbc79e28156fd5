/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tests/kmod/vm/gdp-fuzz.c: randomized fuzzer of the getdentsplus module (TAP).
 *
 * Runs inside the test VM (static binary, root).  For a time or a number
 * of calls, callers (processes of two threads each) call the syscall and
 * the ioctl with random descriptors, buffers, sizes, flags and statx
 * masks, while other tasks rename/create/unlink entries, mount and unmount
 * tmpfs on them, stop/continue/interrupt/kill the callers (respawned),
 * move and read the shared directory positions, and (-r) unload and load
 * the module.  Every result is checked: a documented errno only (the exact
 * one when a single argument is wrong), a size within the buffer and a
 * multiple of 8, well-formed records, nothing written outside the buffer.
 *
 *   gdp-fuzz [-s SEED] [-t SECS] [-n CALLS] [-j CALLERS] [-r KO] [-m]
 *            [-F] SCRATCH... [-- DIR...]
 *     SCRATCH  directories the churn and mount tasks work in (created)
 *     DIR      more directories to list (fixture, /proc, /sys, /dev)
 *     -t, -n   stop after SECS seconds (default 60) or CALLS calls in all
 *     -j       caller processes (default 4, two threads each)
 *     -s       seed (default: from the clock); printed, so a run replays
 *              each task's own sequence of choices (not the interleaving)
 *     -r KO    one task loops rmmod/insmod KO; callers then also accept
 *              ENOSYS (syscall) and ENOENT/ENODEV/ENXIO (opening the device)
 *     -m       one task mounts/unmounts tmpfs on scratch entries
 *     -F       fault-injection mode: callers set their own make-it-fail
 *              around each call (debugfs fail* knobs with task-filter=Y),
 *              and ENOMEM/EFAULT are also accepted for bad arguments
 *
 * Prints "ok - fuzz: ..." / "not ok - fuzz: ..." lines and "# " notes;
 * exits 0 when every check passed, 1 otherwise.
 *
 * Layout: random numbers and shared counters; the call and its checks
 * (buffers, expectations, records); the caller; the other tasks; main().
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <linux/getdentsplus.h>

#define MAX_CALLERS 16
#define MAX_FDS 64
#define MAX_DIAG 40
/* RW pages (64 KiB with 4 KiB pages: calls that big make the module
 * allocate from the page allocator, which fail_page_alloc fails), then a
 * guard, a read-only, a PROT_NONE and an unmapped page. */
#define RW_PAGES 16
#define ARENA_PAGES (RW_PAGES + 4)
#define GUARD_PAGE RW_PAGES
#define RO_PAGE (RW_PAGES + 1)
#define NONE_PAGE (RW_PAGES + 2)
#define HOLE_PAGE (RW_PAGES + 3)
#define MAX_RECLEN ((sizeof(struct getdentsplus_entry) + 256 + 7) & ~7ul)

/* ---- random numbers ----------------------------------------------- */

/** splitmix64: the next number of the sequence in *S. */
static uint64_t rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/** A number in [0, N) (N > 0). */
static uint64_t below(uint64_t *s, uint64_t n) { return rnd(s) % n; }

/** True with probability PCT percent. */
static int chance(uint64_t *s, int pct) { return (int)below(s, 100) < pct; }

/* ---- what the tasks share (MAP_SHARED, survives killed callers) ----- */

enum vclass { V_ERRNO, V_SIZE, V_RECORD, V_OUTSIDE, V_EXACT, V_MISSING, V_NCLASS };
static const char *vclass_name[V_NCLASS] = {
	"every error a documented errno",
	"returned size <= buffer size, a multiple of 8, inside writable memory",
	"every record well formed",
	"nothing written outside the buffer",
	"the exact errno when one argument is wrong",
	"a missing module gives ENOSYS/ENOENT/ENODEV/ENXIO only",
};

struct shared {
	atomic_int stop;
	atomic_int quiet;		/* the rmmod task holds the callers stopped */
	atomic_int diag_left;
	atomic_long calls[2];		/* syscall, ioctl */
	atomic_long results_pos, results_eof, records, entry_err;
	atomic_long err[256];		/* call errno histogram (256: other) */
	atomic_long entry_errno[134];
	atomic_long unresolved;		/* GDP_REC_UNRESOLVED records */
	atomic_long viol[V_NCLASS];
	atomic_long dev_missing, nr_missing;
	atomic_long churn_ops, mounts, umounts, seeks, signals, kills, respawns;
	atomic_long unloads, unloads_racing, loads, rmmod_busy, died;
	atomic_long caller_calls[MAX_CALLERS];
	pid_t caller_pid[MAX_CALLERS];
};

static struct shared *sh;
static uint64_t seed;
static int fault_mode, have_rmmod;
static int nfds;
static int fds[MAX_FDS];
static char fd_what[MAX_FDS][64];	/* for diagnostics */
enum fdkind { FD_DIR, FD_SCRATCH_DIR, FD_NOTDIR, FD_BADF };
static enum fdkind fd_kind[MAX_FDS];
static char **scratch;
static int nscratch;

/** A "# " line (atomic write), at most MAX_DIAG over all tasks. */
static void note(const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n;

	if (atomic_fetch_sub(&sh->diag_left, 1) <= 0)
		return;
	va_start(ap, fmt);
	n = vsnprintf(line + 2, sizeof line - 3, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof line - 4)
		n = sizeof line - 4;
	line[0] = '#';
	line[1] = ' ';
	line[n + 2] = '\n';
	if (write(1, line, n + 3) < 0)
		return;
}

/** Monotonic seconds. */
static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/** Sleep US microseconds. */
static void usleep_(long us)
{
	struct timespec ts = { us / 1000000, us % 1000000 * 1000 };

	nanosleep(&ts, NULL);
}

/* ---- one call: its arguments ---------------------------------------- */

enum bufkind { B_OK, B_GUARD, B_NULL, B_UNMAPPED, B_RO, B_NONE, B_KERNEL, B_NKIND };
static const char *bufkind_name[B_NKIND] = {
	"rw", "guard-end", "NULL", "unmapped", "read-only", "PROT_NONE", "kernel"
};

struct arena {
	char *base;		/* ARENA_PAGES pages (see RW_PAGES) */
	size_t page;
	size_t rw;		/* writable bytes at base */
};

struct call {
	int via;		/* 0 syscall, 1 ioctl */
	int fdi;		/* index in fds[], or -1 for fd */
	int fd;
	enum fdkind kind;
	enum bufkind bk;
	char *buf;
	size_t size;
	unsigned int mask, reserved;
	unsigned int flags;	/* what the call is asked, in the ABI 5 layout */
	unsigned int wire;	/* what is passed: flags, or the ABI 4 layout */
	int args_bad;		/* ioctl: the args pointer itself is bad (1: */
				/* straddles the guard page, 2: unmapped) */
	unsigned long cmd;	/* ioctl command */
};

/** Set up a thread's buffer arena: RW pages, a guard, RO, PROT_NONE, a hole. */
static int arena_init(struct arena *a)
{
	a->page = sysconf(_SC_PAGESIZE);
	a->base = mmap(NULL, ARENA_PAGES * a->page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (a->base == MAP_FAILED)
		return -1;
	a->rw = RW_PAGES * a->page;
	if (mprotect(a->base + GUARD_PAGE * a->page, a->page, PROT_NONE) ||
	    mprotect(a->base + RO_PAGE * a->page, a->page, PROT_READ) ||
	    mprotect(a->base + NONE_PAGE * a->page, a->page, PROT_NONE) ||
	    munmap(a->base + HOLE_PAGE * a->page, a->page))
		return -1;
	return 0;
}

/** A random size: tiny, around the minimum and maximum record, or large. */
static size_t pick_size(uint64_t *s, size_t room)
{
	switch (below(s, 9)) {
	case 0: return below(s, GETDENTSPLUS_ENTRY_MIN);
	case 1: return GETDENTSPLUS_ENTRY_MIN + below(s, 16) - 8;
	case 2: return MAX_RECLEN + below(s, 16) - 8;
	case 3: return SIZE_MAX - below(s, 2);
	case 4: return (size_t)1 << (32 + below(s, 20));
	case 5: return room + 1 + below(s, 4096);	/* past the arena */
	default: return room ? 1 + below(s, room) : 0;
	}
}

/* The bits of the ABI 4 layout and their ABI 5 spelling. */
static const struct { unsigned int v4, at; } v4_map[] = {
	{ 0x0001, AT_SYMLINK_FOLLOW }, { 0x0002, AT_NO_AUTOMOUNT },
	{ 0x0004, AT_STATX_FORCE_SYNC }, { 0x0008, AT_STATX_DONT_SYNC },
	{ 0x0010, GDP_WANT_ACL }, { 0x0020, GDP_WANT_LABEL },
	{ 0x0040, GDP_WANT_CAP }, { 0x0080, GDP_ATTR_CACHED },
	{ 0x0100, GDP_SKIP_DOTS }, { 0x0200, GDP_WANT_SELF },
	{ 0x0400, GDP_MARK_END },
};

/** ABI 5 flags @f in the ABI 4 layout, or ABI 4 flags @f in ABI 5's (@to_v4 0). */
static unsigned int v4_layout(unsigned int f, int to_v4)
{
	unsigned int r = to_v4 ? 0 : GDP_AT_FLAGS;

	for (size_t i = 0; i < sizeof v4_map / sizeof *v4_map; i++)
		if (f & (to_v4 ? v4_map[i].at : v4_map[i].v4))
			r |= to_v4 ? v4_map[i].v4 : v4_map[i].at;
	return r;
}

/** Whether the module must refuse the flags passed (@wire) with EINVAL. */
static int flags_bad(unsigned int wire)
{
	if (!(wire & GDP_AT_FLAGS))
		return (wire & ~0x7ffu) || (wire & 0xc) == 0xc;
	return (wire & ~GDP_FLAGS_ALL) ||
	       (wire & AT_STATX_SYNC_TYPE) == AT_STATX_SYNC_TYPE;
}

/** Random flags: usually valid, sometimes with unknown or conflicting bits. */
static unsigned int pick_flags(uint64_t *s)
{
	unsigned int f = (rnd(s) & GDP_FLAGS_ALL) | GDP_AT_FLAGS;

	if (!chance(s, 25) && (f & AT_STATX_FORCE_SYNC) && (f & AT_STATX_DONT_SYNC))
		f &= ~AT_STATX_DONT_SYNC;
	if (chance(s, 10))
		f |= 1u << (9 + below(s, 23));
	if (chance(s, 3))
		f = rnd(s);
	return f;
}

/** Random statx mask: usually within GDP_STATX_SUPPORTED. */
static unsigned int pick_mask(uint64_t *s)
{
	static const unsigned int bad[] = {
		STATX_MNT_ID, 0x2000 /* DIOALIGN */, 0x80000000u, 0x10000,
	};
	unsigned int m = chance(s, 50) ? GDP_STATX_SUPPORTED : rnd(s) & GDP_STATX_SUPPORTED;

	if (chance(s, 10))
		m |= bad[below(s, sizeof bad / sizeof bad[0])];
	if (chance(s, 3))
		m = rnd(s);
	return m;
}

/** Fill C with random arguments (buffer in arena A). */
/*
 * What C passes: its flags, or one time in five (when they are valid) the
 * same request in the layout of ABI 4, which must mean the same.  Flags
 * without GDP_AT_FLAGS (a random word) are that layout already.
 */
static void pick_wire(uint64_t *s, struct call *c)
{
	c->wire = c->flags;
	if (!(c->flags & GDP_AT_FLAGS))
		c->flags = flags_bad(c->wire) ? c->wire : v4_layout(c->wire, 0);
	else if (!flags_bad(c->flags) && chance(s, 20))
		c->wire = v4_layout(c->flags, 1);
}

static void pick_call(uint64_t *s, struct arena *a, int devfd, struct call *c)
{
	/* Never opened: the pool is opened before any of these numbers. */
	static const int badfds[] = { -1, -100, INT_MAX, 1 << 20, 999, INT_MIN };
	size_t off;

	memset(c, 0, sizeof *c);
	c->via = devfd >= 0 && chance(s, 50);
	if (chance(s, 5)) {
		c->fdi = -1;
		c->fd = badfds[below(s, sizeof badfds / sizeof badfds[0])];
		c->kind = FD_BADF;
	} else {
		c->fdi = below(s, nfds);
		c->fd = fds[c->fdi];
		c->kind = fd_kind[c->fdi];
	}
	c->bk = chance(s, 70) ? B_OK : (enum bufkind)below(s, B_NKIND);
	off = chance(s, 80) ? 0 : 1 + below(s, 7);	/* misaligned */
	switch (c->bk) {
	case B_OK:
		c->buf = a->base + off;
		c->size = pick_size(s, a->rw - off);
		break;
	case B_GUARD: {
		size_t k = 8 + below(s, 2 * MAX_RECLEN);

		c->buf = a->base + a->rw - k - off;
		c->size = k + off + below(s, a->page);
		break;
	}
	case B_NULL: c->buf = NULL; break;
	case B_UNMAPPED: c->buf = a->base + HOLE_PAGE * a->page + off; break;
	case B_RO: c->buf = a->base + RO_PAGE * a->page + off; break;
	case B_NONE: c->buf = a->base + NONE_PAGE * a->page + off; break;
	case B_KERNEL: c->buf = (char *)(0xffff888000000000ul + off); break;
	default: break;
	}
	if (c->bk != B_OK && c->bk != B_GUARD)
		c->size = chance(s, 70) ? 4096 : pick_size(s, 4096);
	c->mask = pick_mask(s);
	c->flags = pick_flags(s);
	if (chance(s, 50) && c->kind != FD_BADF && c->kind != FD_NOTDIR) {
		/* Half the calls are valid: they reach the directory walk. */
		c->bk = B_OK;
		c->buf = a->base + off;
		c->size = MAX_RECLEN + below(s, a->rw - off - MAX_RECLEN + 1);
		c->flags &= GDP_FLAGS_ALL & ~AT_STATX_DONT_SYNC;
		c->flags |= GDP_AT_FLAGS;
		c->mask &= GDP_STATX_SUPPORTED;
		c->cmd = GETDENTSPLUS_IOC;
		pick_wire(s, c);
		return;
	}
	if (c->via) {
		c->reserved = chance(s, 4) ? (unsigned int)rnd(s) | 1 : 0;
		c->args_bad = chance(s, 3) ? 1 + below(s, 2) : 0;
		c->cmd = chance(s, 3) ? (unsigned long)rnd(s) & 0xffffffff : GETDENTSPLUS_IOC;
		if (c->cmd != GETDENTSPLUS_IOC && chance(s, 50))	/* a near miss */
			c->cmd = _IOR(GETDENTSPLUS_IOC_MAGIC, 1, struct getdentsplus_args);
	}
	pick_wire(s, c);
}

/* ---- one call: what it may return ----------------------------------- */

/** Is E an errno the header documents for the call (or a missing module)? */
static int documented(int e, const struct call *c)
{
	switch (e) {
	case EBADF: case ENOTDIR: case EINVAL: case EFAULT: case EINTR:
	case ENOMEM: case ENOENT: case EIO:
		return 1;
	case ENOSYS:
		return have_rmmod && c->via == 0;
	case ENOTTY:
		return c->via == 1;
	}
	return 0;
}

/**
 * The one errno a call with a single wrong argument must give, 0 when
 * no argument or more than one is wrong (then only "documented" holds),
 * -1 when the call must not fail with EINVAL/EBADF/ENOTDIR at all.
 */
static int exact_errno(const struct call *c)
{
	int bad = 0, want = 0;
	int args = flags_bad(c->wire) ||
		   (c->mask & ~GDP_STATX_SUPPORTED) ||
		   c->size < GETDENTSPLUS_ENTRY_MIN || c->reserved;

	if (c->via == 1 && c->cmd != GETDENTSPLUS_IOC && c->cmd != GETDENTSPLUS_IOC_V1)
		return ENOTTY;
	if (c->via == 1 && c->args_bad)
		return EFAULT;
	if (args) {
		bad++;
		want = EINVAL;
	}
	if (c->bk == B_KERNEL) {
		bad++;
		want = EFAULT;
	}
	if (c->kind == FD_BADF) {
		bad++;
		want = EBADF;
	} else if (c->kind == FD_NOTDIR) {
		bad++;
		want = ENOTDIR;
	}
	if (bad == 1)
		return want;
	return bad ? 0 : -1;
}

/** Record a violation of class V, with a note saying what and the call. */
static void violation(enum vclass v, const struct call *c, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	atomic_fetch_add(&sh->viol[v], 1);
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	note("%s: %s via %s fd %d (%s) buf %s%+ld size %#zx mask %#x flags %#x%s", vclass_name[v],
	     what, c->via ? "ioctl" : "syscall", c->fd,
	     c->fdi >= 0 ? fd_what[c->fdi] : c->kind == FD_BADF ? "bad fd" : "scratch subdir",
	     bufkind_name[c->bk], c->buf ? (long)((uintptr_t)c->buf & 7) : 0L, c->size,
	     c->mask, c->wire, c->reserved ? " reserved!=0" : "");
}

/** Are all N bytes at P zero? */
static int zero(const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n--)
		if (*b++)
			return 0;
	return 1;
}

/**
 * The stat part of a record without error: only offered mask bits, every
 * field outside them and every spare zero, the type the directory gave
 * (names keep their type in the scratch dirs; AT_SYMLINK_FOLLOW may change a
 * symlink's).  Returns a description of the first problem, or NULL.
 */
static const char *bad_stat(const struct getdentsplus_entry *r, unsigned int flags)
{
	const struct statx *x = &r->stx;
	unsigned int t = (x->stx_mode & S_IFMT) >> 12;

	if (x->stx_mask & ~GDP_STATX_SUPPORTED)
		return "stx_mask has bits the module does not offer";
	if (x->stx_mnt_id || x->stx_dio_mem_align || x->stx_dio_offset_align ||
	    x->__spare0[0] || !zero(x->__spare3, sizeof x->__spare3))
		return "spare or unoffered statx fields not zero";
	if (x->stx_atime.__reserved || x->stx_btime.__reserved ||
	    x->stx_ctime.__reserved || x->stx_mtime.__reserved)
		return "timestamp __reserved not zero";
	if (!(x->stx_mask & STATX_BTIME) && (x->stx_btime.tv_sec || x->stx_btime.tv_nsec))
		return "btime filled without STATX_BTIME";
	if (x->stx_attributes & ~x->stx_attributes_mask ||
	    !(x->stx_attributes_mask & STATX_ATTR_MOUNT_ROOT))
		return "stx_attributes outside stx_attributes_mask";
	if ((x->stx_mask & STATX_TYPE) && r->d_type != DT_UNKNOWN && t != r->d_type &&
	    !((flags & AT_SYMLINK_FOLLOW) && r->d_type == DT_LNK))
		return "file type differs from d_type";
	return NULL;
}

/** Check the N bytes of records at BUF; returns the number of problems. */
static int check_records(const struct call *c, const char *buf, long n)
{
	long pos = 0;
	long recs = 0;

	while (pos < n) {
		const struct getdentsplus_entry *r = (const void *)(buf + pos);
		const char *why;
		size_t room, nl;
		int self;

		if (n - pos < (long)GETDENTSPLUS_ENTRY_MIN || r->reclen < GETDENTSPLUS_ENTRY_MIN ||
		    r->reclen % 8 || r->reclen > n - pos) {
			violation(V_RECORD, c, "record at %ld of %ld: reclen %u", pos, n,
				  n - pos >= 24 ? r->reclen : 0);
			return 1;
		}
		room = r->reclen - sizeof *r;
		nl = strnlen(r->name, room);
		/* Only the directory's own record (GDP_WANT_SELF) has no name. */
		self = !!(r->flags & GDP_REC_SELF);
		if (nl == room || nl != r->namelen || (nl == 0) != self) {
			violation(V_RECORD, c, "record at %ld: namelen %u, name length %zu, room %zu, flags %#x",
				  pos, r->namelen, nl, room, r->flags);
			return 1;
		}
		if (!zero(r->name + nl, room - nl) ||
		    (r->flags & ~(GDP_REC_UNRESOLVED | GDP_REC_SELF | GDP_REC_END)) ||
		    (self && (!(c->flags & GDP_WANT_SELF) || pos != 0 || r->d_type != DT_DIR ||
			      r->d_off != 0 || (r->flags & GDP_REC_UNRESOLVED))) ||
		    ((r->flags & GDP_REC_END) &&
		     (!(c->flags & GDP_MARK_END) || pos + (long)r->reclen != n)) ||
		    r->name_off != offsetof(struct getdentsplus_entry, name)) {
			violation(V_RECORD, c, "record '%s' at %ld of %ld: nonzero padding, flags %#x (asked %#x), d_type %u or name_off %u",
				  r->name, pos, n, r->flags, c->flags, r->d_type, r->name_off);
			return 1;
		}
		if (r->d_type > 14 || r->attr & ~GDP_ATTR_ALL || r->attr_unknown & ~GDP_ATTR_ALL ||
		    r->attr & r->attr_unknown) {
			violation(V_RECORD, c, "record '%s': d_type %u attr %#x unknown %#x", r->name,
				  r->d_type, r->attr, r->attr_unknown);
			return 1;
		}
		if (r->error) {
			if (r->error < 0 || r->error > 133) {
				violation(V_RECORD, c, "record '%s': error %d", r->name, r->error);
				return 1;
			}
			if (!zero(&r->stx, sizeof r->stx) || r->attr) {
				violation(V_RECORD, c, "record '%s': error %d with stat/attr data",
					  r->name, r->error);
				return 1;
			}
			atomic_fetch_add(&sh->entry_err, 1);
			atomic_fetch_add(&sh->entry_errno[r->error], 1);
			/* ABI 4: only these two reach a record; any other
			 * failure leaves the entry to the caller. */
			if (r->error != ENOENT && r->error != EACCES) {
				violation(V_RECORD, c, "record '%s': error %s in the record (ABI 4: only ENOENT and EACCES)",
					  r->name, strerrorname_np(r->error));
				return 1;
			}
		} else if (r->flags & GDP_REC_UNRESOLVED) {
			/* Left to the caller: "..", a symlink to follow, a
			 * failed entry, the rest of a batch after a signal. */
			atomic_fetch_add(&sh->unresolved, 1);
			if (!zero(&r->stx, sizeof r->stx) || r->attr || r->attr_unknown != GDP_ATTR_ALL) {
				violation(V_RECORD, c, "record '%s': unresolved, d_type %u, attr %#x unknown %#x, stx not zero",
					  r->name, r->d_type, r->attr, r->attr_unknown);
				return 1;
			}
		} else if ((why = bad_stat(r, c->flags))) {
			violation(V_RECORD, c, "record '%s': %s (stx_mask %#x mode %#o d_type %u)",
				  r->name, why, r->stx.stx_mask, r->stx.stx_mode, r->d_type);
			return 1;
		}
		if (c->flags & GDP_SKIP_DOTS && (!strcmp(r->name, ".") || !strcmp(r->name, ".."))) {
			violation(V_RECORD, c, "'%s' returned with GDP_SKIP_DOTS", r->name);
			return 1;
		}
		recs++;
		pos += r->reclen;
	}
	atomic_fetch_add(&sh->records, recs);
	return 0;
}

/** Make the call C (the ioctl through device fd DEV). */
static long do_call(const struct call *c, int dev, int nr, struct arena *a)
{
	struct getdentsplus_args args = {
		.dirfd = c->fd, .flags = c->wire, .buf = (uintptr_t)c->buf,
		.size = c->size, .statx_mask = c->mask, .__reserved = c->reserved,
	};
	void *ap = &args;

	if (c->via == 0)
		return syscall(nr, c->fd, c->buf, c->size, c->mask, c->wire);
	if (c->args_bad) {
		/* The argument block straddling the guard page, or unmapped. */
		ap = a->base + GUARD_PAGE * a->page - sizeof args / 2;
		memcpy(ap, &args, sizeof args / 2);
		if (c->args_bad == 2)
			ap = a->base + HOLE_PAGE * a->page;
	}
	return ioctl(dev, c->cmd, ap);
}

/*
 * GDP_WANT_SELF: at position 0 the directory's own record comes first,
 * and the buffer must hold it and the next entry's (else EINVAL).
 */
static size_t self_room(const struct call *c)
{
	return (c->flags & GDP_WANT_SELF) ? GETDENTSPLUS_ENTRY_MIN : 0;
}

/** Check the result RET/E of call C against every invariant. */
static void check_result(const struct call *c, long ret, int e, struct arena *a)
{
	int want = exact_errno(c);
	char *lo = a->base, *hi = a->base + a->rw;

	if (ret < 0) {
		atomic_fetch_add(&sh->err[e > 0 && e < 256 ? e : 255], 1);
		if (e == ENOSYS && c->via == 0 && have_rmmod) {
			atomic_fetch_add(&sh->nr_missing, 1);
			return;
		}
		if (!documented(e, c)) {
			violation(V_ERRNO, c, "errno %d (%s)", e, strerrorname_np(e) ?: "?");
			return;
		}
		if (want > 0 && e != want && !(fault_mode && (e == ENOMEM || e == EFAULT)))
			violation(V_EXACT, c, "got %s, want %s", strerrorname_np(e),
				  strerrorname_np(want));
		else if (want < 0 && (e == EBADF || e == ENOTDIR || e == ENOTTY ||
				      (e == EINVAL && c->size >= MAX_RECLEN + self_room(c)) ||
				      (e == EFAULT && !fault_mode && c->bk == B_OK &&
				       c->size <= a->rw - 7) ||
				      /* a directory nobody removes or breaks */
				      (c->kind == FD_DIR && (e == ENOENT || e == EIO))))
			violation(V_EXACT, c, "%s for valid arguments", strerrorname_np(e));
		return;
	}
	if (ret == 0) {
		atomic_fetch_add(&sh->results_eof, 1);
	} else {
		atomic_fetch_add(&sh->results_pos, 1);
	}
	if (want > 0) {
		violation(V_EXACT, c, "returned %ld, want %s", ret, strerrorname_np(want));
		return;
	}
	if (ret == 0)
		return;
	if ((size_t)ret > c->size || ret % 8 || c->buf < lo || c->buf + ret > hi) {
		violation(V_SIZE, c, "returned %ld", ret);
		return;
	}
	check_records(c, c->buf, ret);
}

/** After the call: the RW arena outside [buf, buf+size) still holds 0xa5. */
static void check_outside(const struct call *c, struct arena *a)
{
	char *lo = a->base, *hi = a->base + a->rw;
	char *b0 = c->buf, *b1;

	if (c->args_bad)	/* do_call put half an argument block at the end */
		hi -= sizeof(struct getdentsplus_args);

	if (c->bk != B_OK && c->bk != B_GUARD) {
		b0 = hi;
		b1 = hi;
	} else {
		b1 = c->size > (size_t)(hi - b0) ? hi : b0 + c->size;
	}
	for (char *p = lo; p < hi; p++) {
		if (p == b0)
			p = b1;
		if (p < hi && *(unsigned char *)p != 0xa5) {
			violation(V_OUTSIDE, c, "byte %+ld from the buffer written",
				  p < b0 ? (long)(p - b0) : (long)(p - b1));
			return;
		}
	}
}

/* ---- the callers ---------------------------------------------------- */

struct caller {
	int slot;
	int thread;
	uint64_t rng;
	int failfd;		/* /proc/thread-self/make-it-fail (-F) */
};

/** Read the module's syscall number (0: none or no module). */
static int read_nr(void)
{
	char b[32] = "";
	int fd = open(GETDENTSPLUS_NR_PATH, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return 0;
	n = read(fd, b, sizeof b - 1);
	close(fd);
	return n > 0 ? atoi(b) : 0;
}

/** Open the device: a missing module gives ENOENT/ENODEV/ENXIO only. */
static int open_dev(void)
{
	int fd = open(GETDENTSPLUS_DEVICE, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		if (errno == ENOENT || errno == ENODEV || errno == ENXIO) {
			atomic_fetch_add(&sh->dev_missing, 1);
		} else {
			struct call c = { .fdi = -1, .fd = -1 };

			violation(V_MISSING, &c, "open(%s): %s", GETDENTSPLUS_DEVICE,
				  strerrorname_np(errno));
		}
	}
	return fd;
}

/** Open a scratch subdirectory (it may vanish at any time): -1 if none. */
static int open_scratch_sub(uint64_t *s)
{
	char p[PATH_MAX];

	snprintf(p, sizeof p, "%s/d%d", scratch[below(s, nscratch)], (int)below(s, 8));
	return open(p, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

/** One caller thread: random calls until told to stop. */
static void *caller_main(void *arg)
{
	struct caller *me = arg;
	struct arena a;
	int dev = -1, dev_calls = 0, nr = read_nr(), warned = 0;
	long n = 0;

	if (arena_init(&a)) {
		note("caller: arena: %s", strerror(errno));
		return NULL;
	}
	if (fault_mode)
		me->failfd = open("/proc/thread-self/make-it-fail", O_WRONLY | O_CLOEXEC);
	while (!atomic_load(&sh->stop)) {
		struct call c;
		int own = -1;
		long ret;
		int e;

		/* The device is held for short bursts only, so rmmod can succeed. */
		if (dev < 0 && (!have_rmmod || (me->slot == 0 && me->thread == 0)) &&
		    chance(&me->rng, have_rmmod ? 10 : 60))
			dev = open_dev();
		if ((n & 63) == 0 || nr <= 0)
			nr = read_nr();
		pick_call(&me->rng, &a, dev, &c);
		if (c.via == 0 && nr <= 0) {
			if (!have_rmmod && !warned++)
				note("caller: no syscall number published");
			atomic_fetch_add(&sh->nr_missing, 1);
			usleep_(1000);
			continue;
		}
		if (c.kind != FD_BADF && chance(&me->rng, 15)) {
			own = open_scratch_sub(&me->rng);
			if (own >= 0) {
				c.fd = own;
				c.fdi = -1;
				c.kind = FD_SCRATCH_DIR;
			}
		}
		if (chance(&me->rng, 10))
			lseek(c.fd, 0, SEEK_SET);
		memset(a.base, 0xa5, a.rw);
		if (me->failfd >= 0 && pwrite(me->failfd, "1", 1, 0) != 1)
			continue;
		ret = do_call(&c, dev, nr, &a);
		e = errno;
		/* The write may fail itself (an injected fault): retry it. */
		for (int i = 0; me->failfd >= 0 && i < 1000; i++)
			if (pwrite(me->failfd, "0", 1, 0) == 1)
				break;
		atomic_fetch_add(&sh->calls[c.via], 1);
		atomic_fetch_add(&sh->caller_calls[me->slot], 1);
		check_result(&c, ret, e, &a);
		check_outside(&c, &a);
		if (own >= 0)
			close(own);
		if (dev >= 0 && ++dev_calls > 20 + (int)below(&me->rng, 40)) {
			close(dev);
			dev = -1;
			dev_calls = 0;
		}
		n++;
	}
	if (dev >= 0)
		close(dev);
	return NULL;
}

/** SIGUSR1: only interrupts a call (no SA_RESTART). */
static void on_usr1(int sig) { (void)sig; }

/** A caller process: two threads on the same descriptors; exits 0. */
static void caller_process(int slot, uint64_t gen)
{
	struct caller c[2];
	pthread_t t;

	for (int i = 0; i < 2; i++) {
		c[i] = (struct caller){ .slot = slot, .thread = i, .failfd = -1 };
		c[i].rng = seed ^ (0x1000 * (uint64_t)slot + 0x10 * gen + i);
	}
	if (pthread_create(&t, NULL, caller_main, &c[1]) == 0) {
		caller_main(&c[0]);
		pthread_join(t, NULL);
	} else {
		caller_main(&c[0]);
	}
	_exit(0);
}

/* ---- the other tasks -------------------------------------------------- */

/** Churn: create, unlink, rename, mkdir, rmdir, symlink in the scratch dirs. */
static void churn_task(uint64_t s)
{
	char a[PATH_MAX], b[PATH_MAX], longname[256];

	memset(longname, 'n', 255);
	longname[255] = 0;
	while (!atomic_load(&sh->stop)) {
		const char *d = scratch[below(&s, nscratch)];
		const char *d2 = scratch[below(&s, nscratch)];
		int i = below(&s, 32), j = below(&s, 32), k = below(&s, 8);

		snprintf(a, sizeof a, "%s/f%d", d, i);
		snprintf(b, sizeof b, "%s/f%d", d2, j);
		switch (below(&s, 10)) {
		case 0: close(open(a, O_CREAT | O_WRONLY | O_CLOEXEC, 0644)); break;
		case 1: unlink(a); break;
		case 2: rename(a, b); break;
		case 3:
			snprintf(a, sizeof a, "%s/d%d/f%d", d, k, i);
			close(open(a, O_CREAT | O_WRONLY | O_CLOEXEC, 0644));
			break;
		case 4:
			snprintf(a, sizeof a, "%s/d%d", d, k);
			snprintf(b, sizeof b, "%s/d%d", d2, (int)below(&s, 8));
			if (chance(&s, 50))
				renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE);
			else
				rename(a, b);
			break;
		case 5:
			snprintf(a, sizeof a, "%s/d%d", d, k);
			if (mkdir(a, 0755) && chance(&s, 30)) {
				snprintf(b, sizeof b, "%s/d%d/f%d", d, k, i);
				unlink(b);
				rmdir(a);
			}
			break;
		case 6:
			snprintf(a, sizeof a, "%s/l%d", d, k);
			unlink(a);
			if (chance(&s, 30))
				symlink(a, a);	/* a loop: ELOOP with AT_SYMLINK_FOLLOW */
			else
				symlink(chance(&s, 50) ? "f1" : "/proc/self/fd/0", a);
			break;
		case 7:
			snprintf(a, sizeof a, "%s/%s", d, longname);
			if (chance(&s, 50))
				close(open(a, O_CREAT | O_WRONLY | O_CLOEXEC, 0644));
			else
				unlink(a);
			break;
		case 8:
			snprintf(a, sizeof a, "%s/d%d/f%d", d, k, i);
			unlink(a);
			break;
		default:
			snprintf(a, sizeof a, "%s/d%d/f%d", d, k, i);
			renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_NOREPLACE);
			break;
		}
		atomic_fetch_add(&sh->churn_ops, 1);
		if (chance(&s, 5))
			usleep_(500);
	}
}

/** Mounts: tmpfs on scratch subdirectories, unmounted (lazily) at random. */
static void mount_task(uint64_t s)
{
	char p[PATH_MAX];

	while (!atomic_load(&sh->stop)) {
		snprintf(p, sizeof p, "%s/d%d", scratch[below(&s, nscratch)], (int)below(&s, 8));
		if (chance(&s, 55)) {
			mkdir(p, 0755);
			if (mount("fuzz", p, "tmpfs", 0, "size=1m,nr_inodes=64") == 0) {
				atomic_fetch_add(&sh->mounts, 1);
				snprintf(p + strlen(p), sizeof p - strlen(p), "/in%d", (int)below(&s, 4));
				mkdir(p, 0755);
			}
		} else if (umount2(p, chance(&s, 50) ? MNT_DETACH : 0) == 0) {
			atomic_fetch_add(&sh->umounts, 1);
		}
		usleep_(2000 + below(&s, 20000));
	}
}

/** Seeks and getdents64 on the shared directory descriptors. */
static void seek_task(uint64_t s)
{
	char buf[4096];

	while (!atomic_load(&sh->stop)) {
		int fd = fds[below(&s, nfds)];

		switch (below(&s, 6)) {
		case 0: lseek(fd, 0, SEEK_SET); break;
		case 1: lseek(fd, (off_t)rnd(&s) & LLONG_MAX, SEEK_SET); break;
		case 2: lseek(fd, below(&s, 64), SEEK_SET); break;
		case 3: lseek(fd, 0, SEEK_END); break;
		case 4: lseek(fd, (off_t)below(&s, 1024) - 512, SEEK_CUR); break;
		default: syscall(SYS_getdents64, fd, buf, sizeof buf); break;
		}
		atomic_fetch_add(&sh->seeks, 1);
		usleep_(below(&s, 3000));
	}
}

/** Signals to callers: stop/continue, interrupt, and now and then SIGKILL. */
static void signal_task(uint64_t s, int ncallers)
{
	while (!atomic_load(&sh->stop)) {
		pid_t p = sh->caller_pid[below(&s, ncallers)];

		usleep_(5000 + below(&s, 30000));
		if (p <= 0 || atomic_load(&sh->quiet))
			continue;
		switch (below(&s, 10)) {
		case 0: case 1: case 2:
			kill(p, SIGSTOP);
			usleep_(below(&s, 20000));
			kill(p, SIGCONT);
			break;
		case 9:
			if (chance(&s, 50)) {
				kill(p, SIGKILL);
				atomic_fetch_add(&sh->kills, 1);
				break;
			}
			/* fall through */
		default:
			/*
			 * Not under fault injection: the handler's frame is
			 * copied while make-it-fail is set, fail_usercopy fails
			 * it, and the kernel kills the caller with SIGSEGV
			 * ("bad frame in rt_sigreturn").
			 */
			if (!fault_mode)
				kill(p, SIGUSR1);
			break;
		}
		atomic_fetch_add(&sh->signals, 1);
	}
}

/** Send SIG to every caller process. */
static void signal_callers(int ncallers, int sig)
{
	for (int i = 0; i < ncallers; i++)
		if (sh->caller_pid[i] > 0)
			kill(sh->caller_pid[i], sig);
}

/** Is every thread of process PID stopped (or the process gone)? */
static int all_stopped(pid_t pid)
{
	char path[320], buf[256];
	struct dirent *d;
	DIR *dir;
	int stopped = 1;

	snprintf(path, sizeof path, "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir)
		return 1;
	while (stopped && (d = readdir(dir))) {
		char *p;
		ssize_t n;
		int fd;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "/proc/%d/task/%s/stat", pid, d->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof buf - 1);
		close(fd);
		buf[n > 0 ? n : 0] = 0;
		p = strrchr(buf, ')');	/* "pid (comm) S ..." */
		if (p && p[1] == ' ' && p[2] != 'T' && p[2] != 't' && p[2] != 'Z' && p[2] != 'X')
			stopped = 0;
	}
	closedir(dir);
	return stopped;
}

/**
 * Stop every caller and wait (at most 3 s) until all their threads are;
 * the signal task leaves them stopped meanwhile (sh->quiet), a respawned
 * caller is stopped too.
 */
static void stop_callers(int ncallers)
{
	atomic_store(&sh->quiet, 1);
	for (int t = 0; t < 300; t++) {
		int all = 1;

		signal_callers(ncallers, SIGSTOP);
		for (int i = 0; i < ncallers && all; i++)
			if (sh->caller_pid[i] > 0 && !all_stopped(sh->caller_pid[i]))
				all = 0;
		if (all)
			return;
		usleep_(10000);
	}
}

/**
 * rmmod/insmod in a loop (EBUSY while the device is open or a call holds
 * the module is fine).  Callers calling back to back almost always hold
 * it, so a third of the attempts race with calls in flight; the others
 * stop the callers first (a stopped task is out of the module), so the
 * module does go away, and continue them either after the unload (they
 * then call a missing module) or while it is under way (they hit the
 * probe of a module that is going away: issue 12's rmmod hang).
 */
static void rmmod_task(uint64_t s, const char *ko, int ncallers)
{
	while (!atomic_load(&sh->stop)) {
		int how = below(&s, 3), gone, e, st;
		pid_t k;

		usleep_(50000 + below(&s, 250000));
		if (how)
			stop_callers(ncallers);
		if (how == 2 && (k = fork()) == 0)
			_exit(syscall(SYS_delete_module, "getdentsplus", O_NONBLOCK) ? errno : 0);
		if (how == 2 && k > 0) {
			usleep_(below(&s, 3000));
			atomic_store(&sh->quiet, 0);
			signal_callers(ncallers, SIGCONT);
			waitpid(k, &st, 0);
			gone = WIFEXITED(st) && WEXITSTATUS(st) == 0;
			e = WIFEXITED(st) ? WEXITSTATUS(st) : EINTR;
		} else {
			gone = syscall(SYS_delete_module, "getdentsplus", O_NONBLOCK) == 0;
			e = errno;
		}
		if (how) {
			atomic_store(&sh->quiet, 0);
			signal_callers(ncallers, SIGCONT);
		}
		if (gone) {
			atomic_fetch_add(&sh->unloads, 1);
			if (how == 2)
				atomic_fetch_add(&sh->unloads_racing, 1);
		} else {
			if (e != EBUSY && e != EAGAIN && e != EWOULDBLOCK && e != ENOENT)
				note("rmmod: %s", strerror(e));
			atomic_fetch_add(&sh->rmmod_busy, 1);
			continue;
		}
		usleep_(10000 + below(&s, 100000));
		int fd = open(ko, O_RDONLY | O_CLOEXEC);

		if (fd >= 0 && syscall(SYS_finit_module, fd, "", 0) == 0)
			atomic_fetch_add(&sh->loads, 1);
		else
			note("insmod %s: %s", ko, strerror(errno));
		if (fd >= 0)
			close(fd);
	}
	/* Leave the module loaded. */
	if (access("/sys/module/getdentsplus", F_OK)) {
		int fd = open(ko, O_RDONLY | O_CLOEXEC);

		if (fd < 0 || syscall(SYS_finit_module, fd, "", 0))
			note("final insmod %s: %s", ko, strerror(errno));
		else
			atomic_fetch_add(&sh->loads, 1);
		if (fd >= 0)
			close(fd);
	}
}

/* ---- setup and main ------------------------------------------------- */

/** Add FD of KIND, described by WHAT, to the shared pool. */
static void add_fd(int fd, enum fdkind kind, const char *what)
{
	if (fd < 0 || nfds >= MAX_FDS)
		return;
	fds[nfds] = fd;
	fd_kind[nfds] = kind;
	snprintf(fd_what[nfds], sizeof fd_what[0], "%s", what);
	nfds++;
}

/** The descriptor pool: directories, files, O_PATH, a pipe. */
static void setup_fds(char **dirs, int ndirs)
{
	char p[PATH_MAX];
	int pfd[2];

	for (int i = 0; i < nscratch; i++) {
		mkdir(scratch[i], 0755);
		for (int k = 0; k < 8; k++) {
			snprintf(p, sizeof p, "%s/d%d", scratch[i], k);
			mkdir(p, 0755);
		}
		add_fd(open(scratch[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC), FD_SCRATCH_DIR, scratch[i]);
		add_fd(open(scratch[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC), FD_SCRATCH_DIR, scratch[i]);
		add_fd(open(scratch[i], O_PATH | O_DIRECTORY | O_CLOEXEC), FD_BADF, "O_PATH dir");
		snprintf(p, sizeof p, "%s/file", scratch[i]);
		add_fd(open(p, O_RDWR | O_CREAT | O_CLOEXEC, 0644), FD_NOTDIR, "regular file");
	}
	for (int i = 0; i < ndirs; i++)
		add_fd(open(dirs[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC), FD_DIR, dirs[i]);
	add_fd(open("/dev/null", O_RDWR | O_CLOEXEC), FD_NOTDIR, "/dev/null");
	if (pipe2(pfd, O_CLOEXEC) == 0) {
		add_fd(pfd[0], FD_NOTDIR, "pipe");
		close(pfd[1]);
	}
	close(999);	/* one of pick_call's bad descriptors */
}

/** Unmount whatever the mount task left under the scratch directories. */
static void unmount_all(void)
{
	for (int pass = 0; pass < 20; pass++) {
		char line[PATH_MAX + 256], mp[PATH_MAX];
		FILE *f = fopen("/proc/self/mounts", "r");
		int found = 0;

		if (!f)
			return;
		while (fgets(line, sizeof line, f)) {
			if (sscanf(line, "%*s %4095s", mp) != 1)
				continue;
			for (int i = 0; i < nscratch; i++)
				if (!strncmp(mp, scratch[i], strlen(scratch[i])) &&
				    mp[strlen(scratch[i])] == '/') {
					umount2(mp, MNT_DETACH);
					found++;
				}
		}
		fclose(f);
		if (!found)
			return;
	}
}

/** Fork a task running FN-like code selected by WHICH; returns its pid. */
static pid_t spawn(int which, uint64_t s, int ncallers, const char *ko)
{
	pid_t p = fork();

	if (p != 0)
		return p;
	switch (which) {
	case 0: churn_task(s); break;
	case 1: mount_task(s); break;
	case 2: seek_task(s); break;
	case 3: signal_task(s, ncallers); break;
	case 4: rmmod_task(s, ko, ncallers); break;
	}
	_exit(0);
}

/** Print the checks: one TAP line per invariant, then the counters. */
static int report(double secs, int stuck)
{
	long calls = sh->calls[0] + sh->calls[1];
	int fails = 0;
	char hist[1024] = "";
	size_t hl = 0;

	printf("# fuzz: %ld calls (syscall %ld, ioctl %ld) in %.1f s, seed %llu; "
	       "%ld with records (%ld records, %ld with a per-entry error), %ld at end of directory\n",
	       calls, (long)sh->calls[0], (long)sh->calls[1], secs, (unsigned long long)seed,
	       (long)sh->results_pos, (long)sh->records, (long)sh->entry_err, (long)sh->results_eof);
	for (int e = 1; e < 256; e++)
		if (sh->err[e] && hl < sizeof hist - 40)
			hl += snprintf(hist + hl, sizeof hist - hl, " %s:%ld",
				       e < 255 ? strerrorname_np(e) : "other", (long)sh->err[e]);
	printf("# fuzz: call errors:%s\n", hist);
	hl = 0;
	hist[0] = 0;
	for (int e = 1; e < 134; e++)
		if (sh->entry_errno[e] && hl < sizeof hist - 40)
			hl += snprintf(hist + hl, sizeof hist - hl, " %s:%ld", strerrorname_np(e),
				       (long)sh->entry_errno[e]);
	printf("# fuzz: per-entry errors:%s\n", hl ? hist : " none");
	printf("# fuzz: churn %ld ops, %ld mounts, %ld umounts, %ld seeks/getdents64, "
	       "%ld signals, %ld SIGKILLs, %ld respawns\n", (long)sh->churn_ops, (long)sh->mounts,
	       (long)sh->umounts, (long)sh->seeks, (long)sh->signals, (long)sh->kills,
	       (long)sh->respawns);
	if (have_rmmod)
		printf("# fuzz: rmmod/insmod: %ld unloads (%ld with the callers continued during "
		       "the unload), %ld loads, %ld refused (busy); "
		       "module missing: %ld syscalls ENOSYS, %ld device opens failed\n",
		       (long)sh->unloads, (long)sh->unloads_racing, (long)sh->loads, (long)sh->rmmod_busy,
		       (long)sh->nr_missing, (long)sh->dev_missing);
	printf("# fuzz-totals: calls=%ld ENOMEM=%ld EFAULT=%ld EINTR=%ld entry-errors=%ld "
	       "entry-ENOMEM=%ld unresolved=%ld\n", calls, (long)sh->err[ENOMEM], (long)sh->err[EFAULT],
	       (long)sh->err[EINTR], (long)sh->entry_err, (long)sh->entry_errno[ENOMEM],
	       (long)sh->unresolved);
	for (int v = 0; v < V_NCLASS; v++) {
		int ok = sh->viol[v] == 0;

		if (v == V_MISSING && !have_rmmod)
			continue;
		printf("%s - fuzz%s: %s (%ld calls, seed %llu%s)\n", ok ? "ok" : "not ok",
		       fault_mode ? " under fault injection" : "", vclass_name[v], calls,
		       (unsigned long long)seed, ok ? "" : "");
		if (!ok) {
			printf("# %ld violations\n", (long)sh->viol[v]);
			fails++;
		}
	}
	printf("%s - fuzz: every caller returned from the kernel at the end (%d stuck)\n",
	       stuck ? "not ok" : "ok", stuck);
	fails += stuck != 0;
	printf("%s - fuzz: no caller died of a signal other than the fuzzer's SIGKILLs (%ld)\n",
	       sh->died ? "not ok" : "ok", (long)sh->died);
	fails += sh->died != 0;
	if (have_rmmod) {
		int loaded = access("/sys/module/getdentsplus", F_OK) == 0;

		printf("%s - fuzz: rmmod/insmod loop: %ld unloads and %ld loads, module loaded at the end\n",
		       loaded && sh->loads == sh->unloads ? "ok" : "not ok",
		       (long)sh->unloads, (long)sh->loads);
		fails += !(loaded && sh->loads == sh->unloads);
	}
	printf("%s - fuzz: calls were made (%ld)\n", calls > 0 ? "ok" : "not ok", calls);
	fails += calls == 0;
	fflush(stdout);
	return fails;
}

/** The caller that died with wait status ST in SLOT: respawn it unless stopping. */
static int reap_caller(int slot, int st, uint64_t *gen)
{
	if (WIFSIGNALED(st) && WTERMSIG(st) != SIGKILL) {
		note("caller %d died of signal %d", slot, WTERMSIG(st));
		atomic_fetch_add(&sh->died, 1);
	}
	if (!sh->stop && WIFSIGNALED(st)) {
		pid_t q = fork();

		if (q == 0)
			caller_process(slot, *gen);
		sh->caller_pid[slot] = q;
		++*gen;
		atomic_fetch_add(&sh->respawns, 1);
		return 1;
	}
	sh->caller_pid[slot] = 0;
	return 0;
}

/**
 * Run NCALLERS callers until SECS seconds or LIMIT calls (0: none) from
 * T0, respawning killed ones; then continue and reap them all, at most
 * 30 s.  Returns how many were still in the kernel then (killed); *T1 is
 * when the run stopped.
 */
static int supervise(int ncallers, double secs, long limit, double t0, double *t1)
{
	uint64_t gen = 1;
	int live = ncallers, stuck = 0;
	pid_t p;

	for (int i = 0; i < ncallers; i++) {
		p = fork();
		if (p == 0)
			caller_process(i, 0);
		sh->caller_pid[i] = p;
	}
	while (live > 0) {
		int st;

		if (!sh->stop && (now() - t0 >= secs ||
				  (limit && sh->calls[0] + sh->calls[1] >= limit))) {
			sh->stop = 1;
			*t1 = now();
		}
		usleep_(20000);
		while ((p = waitpid(-1, &st, WNOHANG)) > 0)
			for (int i = 0; i < ncallers; i++)
				if (sh->caller_pid[i] == p && !reap_caller(i, st, &gen))
					live--;
		if (!sh->stop)
			continue;
		/* A stopped caller cannot see the flag: continue them all. */
		signal_callers(ncallers, SIGCONT);
		if (now() - *t1 > 30) {
			for (int i = 0; i < ncallers; i++)
				if (sh->caller_pid[i] > 0) {
					note("caller %d (pid %d) still running 30 s after the end",
					     i, sh->caller_pid[i]);
					stuck++;
					kill(sh->caller_pid[i], SIGKILL);
				}
			break;
		}
	}
	return stuck;
}

/** Options, the pool and the tasks; the checks' TAP lines; 0 when all pass. */
int main(int argc, char **argv)
{
	double secs = 60, t0, t1 = 0;
	long limit = 0;
	int ncallers = 4, do_mount = 0, opt, stuck;
	const char *ko = NULL;
	pid_t helpers[5] = { 0 };
	char **dirs = NULL;
	int ndirs = 0;

	seed = (uint64_t)time(NULL) * 1000003u ^ getpid();
	while ((opt = getopt(argc, argv, "s:t:n:j:r:mF")) != -1) {
		switch (opt) {
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 't': secs = atof(optarg); break;
		case 'n': limit = atol(optarg); break;
		case 'j': ncallers = atoi(optarg); break;
		case 'r': ko = optarg; have_rmmod = 1; break;
		case 'm': do_mount = 1; break;
		case 'F': fault_mode = 1; break;
		default:
			fprintf(stderr, "usage: gdp-fuzz [-s SEED] [-t SECS] [-n CALLS] [-j N] "
				"[-r KO] [-m] [-F] SCRATCH... [-- DIR...]\n");
			return 2;
		}
	}
	if (ncallers < 1 || ncallers > MAX_CALLERS || optind >= argc) {
		fprintf(stderr, "gdp-fuzz: need 1..%d callers and a scratch directory\n", MAX_CALLERS);
		return 2;
	}
	scratch = argv + optind;
	for (int i = optind; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			argv[i] = NULL;
			dirs = argv + i + 1;
			ndirs = argc - i - 1;
			break;
		}
		nscratch++;
	}
	sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return 2;
	sh->diag_left = MAX_DIAG;
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("# gdp-fuzz: seed %llu (replay: -s %llu), %d callers x 2 threads, %.0f s%s%s%s\n",
	       (unsigned long long)seed, (unsigned long long)seed, ncallers, secs,
	       limit ? ", or a number of calls" : "", ko ? ", rmmod/insmod loop" : "",
	       fault_mode ? ", fault-injection mode" : "");
	setup_fds(dirs, ndirs);
	/* Before the first fork: a caller must never die of SIGUSR1. */
	sigaction(SIGUSR1, &(struct sigaction){ .sa_handler = on_usr1 }, NULL);

	t0 = now();
	helpers[0] = spawn(0, seed ^ 0xc0ffee, ncallers, ko);
	if (do_mount)
		helpers[1] = spawn(1, seed ^ 0x3077, ncallers, ko);
	helpers[2] = spawn(2, seed ^ 0x5eef, ncallers, ko);
	helpers[3] = spawn(3, seed ^ 0x5169, ncallers, ko);
	if (ko)
		helpers[4] = spawn(4, seed ^ 0x7e11, ncallers, ko);
	stuck = supervise(ncallers, secs, limit, t0, &t1);
	sh->stop = 1;
	for (int i = 0; i < 5; i++)
		if (helpers[i] > 0) {
			kill(helpers[i], SIGCONT);
			waitpid(helpers[i], NULL, 0);
		}
	unmount_all();
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	return report(t1 - t0, stuck) ? 1 : 0;
}
