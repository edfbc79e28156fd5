/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tests/kmod/vm/gdp-fuse-test.c: getdentsplus over a FUSE filesystem that
 * stalls (issue 12, finding 6: the directory's position lock).
 *
 *   gdp-fuse-test fposlock MNT
 *
 * Mounts a tiny read-only FUSE filesystem of its own on MNT (the raw
 * /dev/fuse protocol, served by a thread of this program: no libfuse):
 * a root directory with "alpha" (file), "stall" (file) and "omega" (dir).
 * The LOOKUP of "stall" is not answered until the test says so, like an
 * NFS server that stopped answering.
 *
 * Thread A calls getdentsplus (the ioctl, so that the check does not
 * depend on kprobes) on an open fd of the root: it reads the directory,
 * then blocks in the per-entry phase on that LOOKUP.  Thread B then calls
 * lseek(fd, 0, SEEK_SET) and getdents64(fd) on the same open file.
 * ABI 4 follows getdents64's rule: the position lock (f_pos_lock) is held
 * for the whole call, so B waits for A, as it would for a getdents64
 * blocked in the filesystem; another open file of the directory (C)
 * does not wait.  Once released, A's records must be right (inode,
 * type, mode, size of every entry).
 *
 *   gdp-fuse-test estale MNT       a LOOKUP, then a GETATTR, answered
 *                                  ESTALE once: retried as fstatat does
 *   gdp-fuse-test memhold MNT N    N calls blocked in READDIR hold what
 *                                  N getdents64 calls hold, plus pages
 *   gdp-fuse-test signal MNT       a signal ends a slow batch promptly
 *                                  and nothing is lost (issue 23)
 *   gdp-fuse-test overlay MNT OVL  overlayfs (at OVL) over this FUSE:
 *                                  GDP_ATTR_CACHED asks the daemon nothing
 *   gdp-fuse-test readdirs MNT N   N files: the module's listing makes no
 *                                  more READDIRs than getdents64's
 *
 *   gdp-fuse-test chunked MNT
 *
 * The same filesystem, but its READDIR replies hold at most two entries
 * (".", ".." first, alone), as a daemon may answer: a directory read in
 * parts.  getdentsplus with GDP_SKIP_DOTS must not take the first part
 * (dots only) for the end, and GDP_MARK_END must mark only the real end.
 *
 * TAP lines without numbers, like gdp-test; built like it (static,
 * -I kernel-module/include/uapi); run by vm-compat-tests.sh.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/mman.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <signal.h>
#include <sys/uio.h>
#include <time.h>
#include <linux/fuse.h>
#include <linux/getdentsplus.h>

#include "gdp-vmtest.h"
#include "gdp-cg.h"

/* How long a thread may take for something that should be immediate. */
#define WAIT_MS 10000


/** Milliseconds of CLOCK_MONOTONIC. */
static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* ---- the filesystem ------------------------------------------------ */

struct node {
	const char *name;
	uint64_t ino;
	uint32_t mode;
	uint64_t size;
};

/* The root first; the rest are its entries, in READDIR order. */
static const struct node base_nodes[] = {
	{ ".", FUSE_ROOT_ID, S_IFDIR | 0755, 4096 },
	{ "alpha", 2, S_IFREG | 0644, 11 },
	{ "stall", 3, S_IFREG | 0600, 3333 },
	{ "omega", 4, S_IFDIR | 0750, 4096 },
};
/* The filesystem served: base_nodes, or more (make_nodes()). */
static const struct node *nodes = base_nodes;
static size_t nnodes = sizeof base_nodes / sizeof base_nodes[0];
#define NNODES nnodes

/** Serve the root and @n files "f000"... instead (inodes 2...). */
static void make_nodes(size_t n)
{
	struct node *v = calloc(n + 1, sizeof *v);
	char *names = calloc(n, 16);

	if (!v || !names)
		abort();
	v[0] = base_nodes[0];
	for (size_t i = 0; i < n; i++) {
		snprintf(names + 16 * i, 16, "f%03u", (unsigned int)(i % 1000000));
		v[i + 1] = (struct node){ names + 16 * i, i + 2, S_IFREG | 0644, 100 + i };
	}
	nodes = v;
	nnodes = n + 1;
}

/* State shared by the server thread and the test. */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int fuse_fd = -1;
static int release_pipe[2] = { -1, -1 };
static int stall_armed;		/* the next LOOKUP of "stall" is held */
static uint64_t stall_unique;	/* the held request (0: none) */
static int stall_seen;		/* a LOOKUP of "stall" was held */
static int server_error;	/* errno of the server's last failure */
static unsigned int readdir_chunk; /* entries per READDIR reply (0: all) */
static unsigned int readdir_calls; /* READDIR requests answered */
static unsigned long readdir_bytes_asked; /* their sizes, summed */
static int estale_lookup;	/* answer the next LOOKUP of "alpha" ESTALE */
static int estale_getattr;	/* answer the next GETATTR of "alpha" ESTALE */
static int estale_sent;		/* ESTALE answers sent */
static int hold_readdir;	/* never answer READDIR */
static unsigned int readdir_held; /* READDIR requests left unanswered */
static uint64_t held_unique[256]; /* ... their request ids (the first 256) */
static long delay_us;		/* answer LOOKUP and GETATTR after this */
static unsigned int lookups;	/* LOOKUP requests answered */
static unsigned int attr_xattrs; /* GETXATTRs of ACL, label or capability */

/** The node with inode number @ino, or NULL. */
static const struct node *node_by_ino(uint64_t ino)
{
	for (size_t i = 0; i < NNODES; i++)
		if (nodes[i].ino == ino)
			return &nodes[i];
	return NULL;
}

/** Fill a fuse_attr for node @n. */
static void fill_attr(struct fuse_attr *a, const struct node *n)
{
	memset(a, 0, sizeof *a);
	a->ino = n->ino;
	a->size = n->size;
	a->blocks = (n->size + 511) / 512;
	a->atime = a->mtime = a->ctime = 1700000000;
	a->mode = n->mode;
	a->nlink = S_ISDIR(n->mode) ? 2 : 1;
	a->blksize = 4096;
}

/** Send a reply: header with @error and @len payload bytes; -1/errno. */
static int reply(uint64_t unique, int error, const void *data, size_t len)
{
	struct fuse_out_header h = {
		.len = sizeof h + len, .error = error, .unique = unique,
	};
	struct iovec iov[2] = {
		{ &h, sizeof h }, { (void *)data, len },
	};

	if (writev(fuse_fd, iov, len ? 2 : 1) < 0) {
		/* ENOENT: the request was interrupted and is gone. */
		if (errno != ENOENT)
			server_error = errno;
		return -1;
	}
	return 0;
}

/** Reply to a LOOKUP with node @n (attributes valid for 0 s). */
static int reply_entry(uint64_t unique, const struct node *n)
{
	struct fuse_entry_out e;

	memset(&e, 0, sizeof e);
	e.nodeid = n->ino;
	e.generation = 1;
	e.entry_valid = 60;
	fill_attr(&e.attr, n);
	return reply(unique, 0, &e, sizeof e);
}

/** Answer READDIR from position @off with at most @size bytes. */
static int do_readdir(uint64_t unique, uint64_t off, uint32_t size)
{
	static char buf[1 << 20];	/* the kernel asks 1 MiB at most */
	size_t used = 0;

	/* Entries: ".", "..", then nodes[1..]: positions 0..NNODES. */
	__atomic_fetch_add(&readdir_calls, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&readdir_bytes_asked, size, __ATOMIC_RELAXED);
	for (uint64_t i = off; i < NNODES + 1; i++) {
		if (readdir_chunk && i - off == readdir_chunk)
			break;
		const char *name = i == 0 ? "." : i == 1 ? ".." : nodes[i - 1].name;
		const struct node *n = i < 2 ? &nodes[0] : &nodes[i - 1];
		size_t nlen = strlen(name);
		size_t rl = FUSE_DIRENT_ALIGN(FUSE_NAME_OFFSET + nlen);
		struct fuse_dirent *d = (void *)(buf + used);

		if (used + rl > size || used + rl > sizeof buf)
			break;
		memset(d, 0, rl);
		d->ino = n->ino;
		d->off = i + 1;
		d->namelen = nlen;
		d->type = S_ISDIR(n->mode) ? DT_DIR : DT_REG;
		memcpy(d->name, name, nlen);
		used += rl;
	}
	return reply(unique, 0, buf, used);
}

/** Handle one request of @len bytes in @buf. */
static void handle(const char *buf, size_t len)
{
	const struct fuse_in_header *in = (const void *)buf;
	const void *arg = buf + sizeof *in;

	if (len < sizeof *in)
		return;
	switch (in->opcode) {
	case FUSE_INIT: {
		const struct fuse_init_in *ii = arg;
		struct fuse_init_out o;

		memset(&o, 0, sizeof o);
		o.major = FUSE_KERNEL_VERSION;
		o.minor = ii->minor < 31 ? ii->minor : 31;
		o.max_readahead = ii->max_readahead;
		o.max_background = 16;
		o.congestion_threshold = 12;
		o.max_write = 65536;
		o.time_gran = 1;
		/* Without it the kernel serialises LOOKUP and READDIR of one
		 * directory on a mutex of its own (fuse_lock_inode): B would
		 * wait for A whatever the module does. */
		o.flags = ii->flags & FUSE_PARALLEL_DIROPS;
		reply(in->unique, 0, &o, sizeof o);
		break;
	}
	case FUSE_LOOKUP: {
		const char *name = arg;
		const struct node *n = NULL;

		for (size_t i = 1; i < NNODES && in->nodeid == FUSE_ROOT_ID; i++)
			if (!strcmp(nodes[i].name, name))
				n = &nodes[i];
		if (!n) {
			reply(in->unique, -ENOENT, NULL, 0);
			break;
		}
		if (delay_us)
			usleep(delay_us);
		__atomic_fetch_add(&lookups, 1, __ATOMIC_RELAXED);
		if (n->ino == 2 && __atomic_exchange_n(&estale_lookup, 0, __ATOMIC_SEQ_CST)) {
			__atomic_fetch_add(&estale_sent, 1, __ATOMIC_SEQ_CST);
			reply(in->unique, -ESTALE, NULL, 0);
			break;
		}
		pthread_mutex_lock(&mu);
		if (nodes == base_nodes && n->ino == 3 && stall_armed) {
			stall_armed = 0;
			stall_unique = in->unique;
			stall_seen = 1;
			pthread_cond_broadcast(&cv);
			pthread_mutex_unlock(&mu);
			break;	/* answered by release_stall() */
		}
		pthread_mutex_unlock(&mu);
		reply_entry(in->unique, n);
		break;
	}
	case FUSE_GETATTR: {
		const struct node *n = node_by_ino(in->nodeid);
		struct fuse_attr_out o;

		if (!n) {
			reply(in->unique, -ENOENT, NULL, 0);
			break;
		}
		if (delay_us)
			usleep(delay_us);
		if (n->ino == 2 && __atomic_exchange_n(&estale_getattr, 0, __ATOMIC_SEQ_CST)) {
			__atomic_fetch_add(&estale_sent, 1, __ATOMIC_SEQ_CST);
			reply(in->unique, -ESTALE, NULL, 0);
			break;
		}
		memset(&o, 0, sizeof o);
		fill_attr(&o.attr, n);
		reply(in->unique, 0, &o, sizeof o);
		break;
	}
	case FUSE_OPENDIR: {
		struct fuse_open_out o;

		memset(&o, 0, sizeof o);
		o.fh = 1;
		reply(in->unique, 0, &o, sizeof o);
		break;
	}
	case FUSE_READDIR: {
		const struct fuse_read_in *r = arg;

		if (hold_readdir) {	/* like a server that went away */
			unsigned int k = __atomic_load_n(&readdir_held, __ATOMIC_SEQ_CST);

			if (k < sizeof held_unique / sizeof held_unique[0])
				held_unique[k] = in->unique;
			__atomic_fetch_add(&readdir_held, 1, __ATOMIC_SEQ_CST);
			break;
		}
		do_readdir(in->unique, r->offset, r->size);
		break;
	}
	case FUSE_GETXATTR: {
		const char *name = (const char *)arg + sizeof(struct fuse_getxattr_in);

		if (!strncmp(name, "security.", 9) || !strncmp(name, "system.posix_acl_", 17))
			__atomic_fetch_add(&attr_xattrs, 1, __ATOMIC_SEQ_CST);
		reply(in->unique, -ENODATA, NULL, 0);
		break;
	}
	case FUSE_STATFS: {	/* overlayfs asks its layers */
		struct fuse_statfs_out o;

		memset(&o, 0, sizeof o);
		o.st.bsize = o.st.frsize = 4096;
		o.st.namelen = 255;
		reply(in->unique, 0, &o, sizeof o);
		break;
	}
	case FUSE_RELEASEDIR:
	case FUSE_DESTROY:
		reply(in->unique, 0, NULL, 0);
		break;
	case FUSE_FORGET:
	case FUSE_BATCH_FORGET:
	case FUSE_INTERRUPT:
		break;		/* no reply */
	default:
		/* GETXATTR, ACCESS, STATFS, ...: not implemented. */
		reply(in->unique, -ENOSYS, NULL, 0);
		break;
	}
}

/** Answer the held LOOKUP (from the server thread). */
static void answer_held(void)
{
	uint64_t u;

	pthread_mutex_lock(&mu);
	u = stall_unique;
	stall_unique = 0;
	pthread_mutex_unlock(&mu);
	if (u)
		reply_entry(u, &nodes[2]);
}

/** The server thread: requests until the filesystem is unmounted. */
static void *server(void *unused)
{
	static char buf[FUSE_MIN_READ_BUFFER + 65536 + 4096];

	(void)unused;
	for (;;) {
		struct pollfd p[2] = {
			{ .fd = fuse_fd, .events = POLLIN },
			{ .fd = release_pipe[0], .events = POLLIN },
		};
		ssize_t n;

		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			server_error = errno;
			break;
		}
		if (p[1].revents & POLLIN) {
			char c;

			if (read(release_pipe[0], &c, 1) == 1)
				answer_held();
		}
		if (!(p[0].revents & (POLLIN | POLLERR | POLLHUP)))
			continue;
		n = read(fuse_fd, buf, sizeof buf);
		if (n < 0) {
			if (errno == EINTR || errno == ENOENT || errno == EAGAIN)
				continue;
			if (errno != ENODEV)	/* ENODEV: unmounted */
				server_error = errno;
			break;
		}
		handle(buf, n);
	}
	return NULL;
}

/* ---- the test ------------------------------------------------------ */

static int dfd = -1;
static int gdp_dev = -1;
static char a_buf[65536] __attribute__((aligned(8)));
static long a_ret;
static int a_errno;
static int a_done, b_done;
static long long a_end_ms, b_start_ms, b_end_ms;
static long b_count, c_count;
static int b_errno;

/** Thread A: one getdentsplus call (the ioctl) on dfd. */
static void *thread_a(void *unused)
{
	struct getdentsplus_args args;

	(void)unused;
	memset(&args, 0, sizeof args);
	args.dirfd = dfd;
	args.buf = (uintptr_t)a_buf;
	args.size = sizeof a_buf;
	args.statx_mask = STATX_BASIC_STATS;
	/* The version 1 number: accepted by every module version. */
	a_ret = ioctl(gdp_dev, GETDENTSPLUS_IOC_V1, &args);
	a_errno = errno;
	pthread_mutex_lock(&mu);
	a_done = 1;
	a_end_ms = now_ms();
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	return NULL;
}

/** Thread B: lseek to 0 and getdents64 on the same open file. */
static void *thread_b(void *unused)
{
	static char buf[8192] __attribute__((aligned(8)));
	long count = 0;
	long n;

	(void)unused;
	b_start_ms = now_ms();
	if (lseek(dfd, 0, SEEK_SET) != 0) {
		b_errno = errno;
		count = -1;
		goto out;
	}
	while ((n = syscall(SYS_getdents64, dfd, buf, sizeof buf)) > 0) {
		for (long o = 0; o < n;) {
			struct dirent64 *d = (void *)(buf + o);

			count++;
			o += d->d_reclen;
		}
	}
	if (n < 0) {
		b_errno = errno;
		count = -1;
	}
out:
	pthread_mutex_lock(&mu);
	b_count = count;
	b_done = 1;
	b_end_ms = now_ms();
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	return NULL;
}

/** getdents64 of a new open file of @mnt to its end: the entries, -1. */
static long read_other(const char *mnt)
{
	static char buf[8192] __attribute__((aligned(8)));
	int fd = open(mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	long count = 0, n;

	if (fd < 0)
		return -1;
	while ((n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0)
		for (long o = 0; o < n; o += ((struct dirent64 *)(buf + o))->d_reclen)
			count++;
	close(fd);
	return n < 0 ? -1 : count;
}

/** Wait until *@flag is set or @ms pass; returns the flag. */
static int wait_flag(int *flag, long ms)
{
	struct timespec ts;
	int r;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += ms / 1000;
	ts.tv_nsec += (ms % 1000) * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&mu);
	while (!*flag)
		if (pthread_cond_timedwait(&cv, &mu, &ts))
			break;
	r = *flag;
	pthread_mutex_unlock(&mu);
	return r;
}

/** Release the held LOOKUP. */
static void release_stall(void)
{
	char c = 1;

	if (write(release_pipe[1], &c, 1) != 1)
		perror("gdp-fuse-test: release");
}

/** Check A's records against the filesystem's nodes; 1 when right. */
static int check_a_records(char *why, size_t whylen)
{
	int seen[NNODES];

	memset(seen, 0, sizeof seen);
	long nrec = 0;

	if (a_ret <= 0) {
		snprintf(why, whylen, "returned %ld (%s)", a_ret,
			 a_ret < 0 ? strerror(a_errno) : "no records");
		return 0;
	}
	for (long o = 0; o < a_ret;) {
		struct getdentsplus_entry *e = (void *)(a_buf + o);
		const char *name = e->name_off ? (char *)e + e->name_off : e->name;
		const struct node *n = NULL;

		if (e->reclen < GETDENTSPLUS_ENTRY_MIN || o + e->reclen > a_ret) {
			snprintf(why, whylen, "bad reclen %u at %ld", e->reclen, o);
			return 0;
		}
		o += e->reclen;
		nrec++;
		if (!strcmp(name, ".") || !strcmp(name, ".."))
			continue;
		for (size_t i = 1; i < NNODES; i++)
			if (!strcmp(nodes[i].name, name))
				n = &nodes[i];
		if (!n) {
			snprintf(why, whylen, "unknown name '%s'", name);
			return 0;
		}
		seen[n - nodes]++;
		if (e->error || e->flags || e->d_ino != n->ino ||
		    e->stx.stx_ino != n->ino || e->stx.stx_mode != n->mode ||
		    e->stx.stx_size != n->size ||
		    e->d_type != (S_ISDIR(n->mode) ? DT_DIR : DT_REG)) {
			snprintf(why, whylen,
				 "'%s': error %d flags %#x ino %llu/%llu mode %#o size %llu type %u",
				 name, e->error, e->flags, (unsigned long long)e->d_ino,
				 (unsigned long long)e->stx.stx_ino, e->stx.stx_mode,
				 (unsigned long long)e->stx.stx_size, e->d_type);
			return 0;
		}
	}
	for (size_t i = 1; i < NNODES; i++)
		if (seen[i] != 1) {
			snprintf(why, whylen, "'%s' seen %d times", nodes[i].name, seen[i]);
			return 0;
		}
	snprintf(why, whylen, "%ld records", nrec);
	return 1;
}

/** Mount the filesystem on @mnt and start its server; -1 on failure
 * (reported as @what). */
static int mount_fs(const char *mnt, const char *what, pthread_t *srv)
{
	char opts[128];

	fuse_fd = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	if (fuse_fd < 0 || pipe(release_pipe) < 0) {
		tap(0, "%s: open /dev/fuse: %s", what, strerror(errno));
		return -1;
	}
	mkdir(mnt, 0755);
	snprintf(opts, sizeof opts, "fd=%d,rootmode=40000,user_id=0,group_id=0,allow_other",
		 fuse_fd);
	if (mount("gdp-fuse", mnt, "fuse.gdp-fuse", MS_NOSUID | MS_NODEV, opts) < 0) {
		tap(0, "%s: mount FUSE on %s: %s", what, mnt, strerror(errno));
		return -1;
	}
	if (pthread_create(srv, NULL, server, NULL)) {
		tap(0, "%s: server thread", what);
		umount2(mnt, MNT_DETACH);
		return -1;
	}
	return 0;
}

/** One getdentsplus ioctl on dfd into a_buf with @flags; the bytes or -1. */
static long gdp_ioctl(unsigned int flags)
{
	struct getdentsplus_args args;

	memset(&args, 0, sizeof args);
	args.dirfd = dfd;
	args.flags = flags | GDP_AT_FLAGS;
	args.buf = (uintptr_t)a_buf;
	args.size = sizeof a_buf;
	args.statx_mask = STATX_BASIC_STATS;
	return ioctl(gdp_dev, GETDENTSPLUS_IOC, &args);
}

/*
 * Read dfd from position 0 with @flags until a call returns 0 or marks
 * the end; the names in @names (space-separated), the calls made, the
 * records of the first call and the end marks seen.  -1 on a failed call.
 */
static int list_chunked(unsigned int flags, char *names, size_t len, int *calls,
			int *first, int *ends, int *end_last)
{
	size_t used = 0;

	names[0] = '\0';
	*calls = *first = *ends = *end_last = 0;
	if (lseek(dfd, 0, SEEK_SET) != 0)
		return -1;
	for (;;) {
		long n = gdp_ioctl(flags);
		int recs = 0;

		++*calls;
		if (n < 0)
			return -1;
		if (n == 0 || *calls > 20)
			return 0;
		for (long o = 0; o < n;) {
			struct getdentsplus_entry *e = (void *)(a_buf + o);

			if (e->reclen < GETDENTSPLUS_ENTRY_MIN || o + e->reclen > n)
				return -1;
			used += snprintf(names + used, len - used, "%s%s", used ? " " : "",
					 (e->flags & GDP_REC_SELF) ? "<self>" :
					 (char *)e + e->name_off);
			if (used >= len)
				return -1;
			o += e->reclen;
			recs++;
			if (e->flags & GDP_REC_END) {
				++*ends;
				*end_last = o == n;
			}
		}
		if (*calls == 1)
			*first = recs;
		if (*ends)
			return 0;
	}
}

/** The chunked test on mount point @mnt; returns the exit status. */
static int cmd_chunked(const char *mnt)
{
	static const char all[] = ". .. alpha stall omega";
	static const char nodots[] = "alpha stall omega";
	pthread_t srv;
	char names[256];
	int calls, first, ends, end_last, r;
	unsigned int before;
	long n;

	gdp_dev = open(GETDENTSPLUS_DEVICE, O_RDWR | O_CLOEXEC);
	if (gdp_dev < 0) {
		tap(0, "fuse-chunked: open %s: %s", GETDENTSPLUS_DEVICE, strerror(errno));
		return 1;
	}
	readdir_chunk = 2;
	if (mount_fs(mnt, "fuse-chunked", &srv) < 0)
		return 1;
	dfd = open(mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		tap(0, "fuse-chunked: open %s: %s", mnt, strerror(errno));
		goto unmount;
	}

	/* The first part holds only the dots: not the end. */
	r = list_chunked(GDP_SKIP_DOTS, names, sizeof names, &calls, &first, &ends, &end_last);
	tap(r == 0 && first > 0 && !strcmp(names, nodots),
	    "fuse-chunked: GDP_SKIP_DOTS when the filesystem's first part is only the dots: "
	    "the first call returns entries (%d), all of them in %d calls ('%s'%s)",
	    first, calls, names, r ? ", a call failed" : "");

	r = list_chunked(GDP_MARK_END, names, sizeof names, &calls, &first, &ends, &end_last);
	before = __atomic_load_n(&readdir_calls, __ATOMIC_RELAXED);
	n = gdp_ioctl(GDP_MARK_END);
	tap(r == 0 && calls == 1 && ends == 1 && end_last && !strcmp(names, all) && n == 0 &&
	    __atomic_load_n(&readdir_calls, __ATOMIC_RELAXED) - before <= 1,
	    "fuse-chunked: GDP_MARK_END reads every part in one call and marks only the last "
	    "record (%d call(s), %d mark(s), on the last: %d, '%s'); the next call returns %ld",
	    calls, ends, end_last, names, n);

	r = list_chunked(GDP_MARK_END | GDP_SKIP_DOTS | GDP_WANT_SELF, names, sizeof names,
			 &calls, &first, &ends, &end_last);
	tap(r == 0 && calls == 1 && ends == 1 && end_last && !strcmp(names, "<self> alpha stall omega"),
	    "fuse-chunked: with GDP_WANT_SELF and GDP_SKIP_DOTS too: the directory's record, "
	    "then every entry, one call, one mark ('%s')", names);

	/* Without the flags: parts as getdents64 gives them, no mark. */
	r = list_chunked(0, names, sizeof names, &calls, &first, &ends, &end_last);
	tap(r == 0 && ends == 0 && !strcmp(names, all),
	    "fuse-chunked: no flags: every entry, no end mark (%d calls)", calls);
	close(dfd);
unmount:
	if (umount2(mnt, 0) < 0 && umount2(mnt, MNT_DETACH) < 0)
		tap(0, "fuse-chunked: umount %s: %s", mnt, strerror(errno));
	close(fuse_fd);
	if (server_error)
		tap(0, "fuse-chunked: FUSE server: %s", strerror(server_error));
	return failures ? 1 : 0;
}

/** The fposlock test on mount point @mnt; returns the exit status. */
static int cmd_fposlock(const char *mnt)
{
	pthread_t srv, ta, tb;
	char why[256];
	long long t_stall, t_release, b_ms;
	int b_first;

	gdp_dev = open(GETDENTSPLUS_DEVICE, O_RDWR | O_CLOEXEC);
	if (gdp_dev < 0) {
		tap(0, "fuse-fposlock: open %s: %s", GETDENTSPLUS_DEVICE, strerror(errno));
		return 1;
	}
	if (mount_fs(mnt, "fuse-fposlock", &srv) < 0)
		return 1;
	dfd = open(mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		tap(0, "fuse-fposlock: open %s: %s", mnt, strerror(errno));
		goto unmount;
	}

	pthread_mutex_lock(&mu);
	stall_armed = 1;
	pthread_mutex_unlock(&mu);
	pthread_create(&ta, NULL, thread_a, NULL);
	if (!tap(wait_flag(&stall_seen, WAIT_MS) && !a_done,
		 "fuse-fposlock: getdentsplus (thread A) blocks in the per-entry phase on the "
		 "FUSE LOOKUP of 'stall' (the server holds it)")) {
		release_stall();
		pthread_join(ta, NULL);
		goto close;
	}
	t_stall = now_ms();
	/* Another open file of the same directory never waits for A. */
	c_count = read_other(mnt);
	tap(c_count == (long)NNODES + 1 && !a_done,
	    "fuse-fposlock: getdents64 on another open file of the directory finishes while A "
	    "is blocked (%ld entries)", c_count);
	pthread_create(&tb, NULL, thread_b, NULL);
	wait_flag(&b_done, 1500);
	pthread_mutex_lock(&mu);
	b_first = b_done && !a_done;
	pthread_mutex_unlock(&mu);
	t_release = now_ms();
	release_stall();
	pthread_join(tb, NULL);
	pthread_join(ta, NULL);
	b_ms = b_end_ms - b_start_ms;
	printf("# B (lseek + getdents64) took %lld ms; A was released %lld ms after it "
	       "stalled and returned %lld ms before B\n",
	       b_ms, now_ms() - t_stall, b_end_ms - a_end_ms);
	/*
	 * ABI 4: getdents64's rule.  The call holds the position lock for
	 * its whole duration, so B, on the same open file, waits for it, as
	 * it would wait for a getdents64 blocked in the filesystem (ABI 3
	 * dropped the lock after the read and rewound by guess).  B's end
	 * is compared with the release, not with A's return: once A drops
	 * the lock inside its call, B may run and stamp its end before A's
	 * thread is scheduled to stamp its own (3 ms before, once, under a
	 * loaded TCG host).
	 */
	tap(!b_first && t_release <= b_end_ms,
	    "fuse-fposlock: lseek(fd, 0) + getdents64 on the same open file (thread B) "
	    "waits for A's call, as for a getdents64 (B: %lld ms%s)",
	    b_ms, b_first ? ", finished while A was blocked: the position lock was dropped" : "");
	tap(b_count == (long)NNODES + 1, "fuse-fposlock: B's getdents64 read %ld entries "
	    "(want %zu)%s%s", b_count, NNODES + 1, b_count < 0 ? ": " : "",
	    b_count < 0 ? strerror(b_errno) : "");
	tap(check_a_records(why, sizeof why),
	    "fuse-fposlock: A's records once released: every entry once, inode, type, "
	    "mode and size right (%s)", why);
close:
	close(dfd);
unmount:
	if (umount2(mnt, 0) < 0 && umount2(mnt, MNT_DETACH) < 0)
		tap(0, "fuse-fposlock: umount %s: %s", mnt, strerror(errno));
	/*
	 * Not joined: a server thread blocked in read() is not woken by
	 * close(), and a lazily detached mount keeps the connection up; it
	 * ends with the process (a join hung the test after every check
	 * had passed, in one run of three).
	 */
	close(fuse_fd);
	if (server_error)
		tap(0, "fuse-fposlock: FUSE server: %s", strerror(server_error));
	return failures ? 1 : 0;
}

/* ---- issue 23: ESTALE retried as fstatat retries it ----------------- */

/** The record named @name in the first @n bytes of a_buf, or NULL. */
static const struct getdentsplus_entry *a_find(long n, const char *name)
{
	for (long o = 0; o + (long)sizeof(struct getdentsplus_entry) <= n;) {
		const struct getdentsplus_entry *e = (const void *)(a_buf + o);

		if (e->reclen < sizeof *e || o + (long)e->reclen > n)
			break;
		if (!strcmp(e->name, name))
			return e;
		o += e->reclen;
	}
	return NULL;
}

/**
 * The server answers the first LOOKUP (then the first GETATTR) of "alpha"
 * with ESTALE.  fstatat retries with LOOKUP_REVAL and succeeds: so must
 * the call, and the record must be alpha's (ABI 3 kept ESTALE in it).
 */
static int cmd_estale(const char *mnt)
{
	const struct getdentsplus_entry *e;
	pthread_t srv;
	struct stat st;
	long n;

	gdp_dev = open(GETDENTSPLUS_DEVICE, O_RDWR | O_CLOEXEC);
	if (gdp_dev < 0 || mount_fs(mnt, "fuse-estale", &srv) < 0)
		return tap(0, "fuse-estale: setup: %s", strerror(errno)), 1;
	dfd = open(mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	estale_lookup = 1;
	n = gdp_ioctl(GDP_SKIP_DOTS);
	e = n > 0 ? a_find(n, "alpha") : NULL;
	tap(e && !e->error && !(e->flags & GDP_REC_UNRESOLVED) && e->stx.stx_ino == 2 &&
	    e->stx.stx_size == 11 && estale_sent == 1,
	    "fuse-estale: a LOOKUP answered ESTALE once is retried (LOOKUP_REVAL): the record is alpha's "
	    "(error %d, flags %#x, ino %llu; %d ESTALE sent)", e ? e->error : -1, e ? e->flags : 0,
	    e ? (unsigned long long)e->stx.stx_ino : 0ULL, estale_sent);

	estale_getattr = 1;
	lseek(dfd, 0, SEEK_SET);
	n = gdp_ioctl(GDP_SKIP_DOTS);
	e = n > 0 ? a_find(n, "alpha") : NULL;
	tap(e && !e->error && !(e->flags & GDP_REC_UNRESOLVED) && e->stx.stx_ino == 2 &&
	    estale_sent == 2,
	    "fuse-estale: a GETATTR answered ESTALE once is retried as statx retries it: the record is alpha's "
	    "(error %d, flags %#x; %d ESTALE sent)", e ? e->error : -1, e ? e->flags : 0, estale_sent);

	/* The oracle: fstatat in the same situation. */
	estale_getattr = 1;
	int rc = fstatat(dfd, "alpha", &st, AT_SYMLINK_NOFOLLOW);
	tap(!rc && st.st_ino == 2 && estale_sent == 3,
	    "fuse-estale: fstatat retries the same way (%d ESTALE sent)", estale_sent);
	close(dfd);
	if (umount2(mnt, 0) < 0 && umount2(mnt, MNT_DETACH) < 0)
		tap(0, "fuse-estale: umount %s: %s", mnt, strerror(errno));
	close(fuse_fd);
	return failures ? 1 : 0;
}

/* ---- issue 23 finding 1: memory held by a call blocked in READDIR ---- */



/**
 * Answer the READDIRs held since @from with EIO: a task whose request the
 * daemon has read waits for the answer even when killed.
 */
static void release_readdirs(unsigned int from)
{
	unsigned int n = __atomic_load_n(&readdir_held, __ATOMIC_SEQ_CST);

	for (unsigned int k = from; k < n && k < sizeof held_unique / sizeof held_unique[0]; k++)
		reply(held_unique[k], -EIO, NULL, 0);
}

/**
 * @ntask processes in a cgroup of their own, each with its own open file
 * of the root, call getdents64 (@plus 0) or getdentsplus (@plus 1) with a
 * 4 MiB buffer; the server never answers READDIR.  Returns the cgroup's
 * growth per task while they are blocked, in bytes (-1: not measured).
 */
static long blocked_bytes(const char *mnt, int ntask, int plus)
{
	const size_t size = 4 << 20;
	unsigned int before = readdir_held;
	char cg[256], name[32];
	int ready[2], go[2];
	long base, held = -1;
	pid_t *pids = calloc(ntask, sizeof *pids);

	snprintf(name, sizeof name, "gdp-readdir-%d", plus);
	if (!pids || !cg_make(name, cg, sizeof cg) || pipe(ready) || pipe(go))
		return -1;
	for (int i = 0; i < ntask; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			char p[512], c;
			int f, fd;

			/* Only the server may hold the connection open. */
			close(fuse_fd);
			snprintf(p, sizeof p, "%s/cgroup.procs", cg);
			f = open(p, O_WRONLY);
			if (f < 0 || write(f, "0", 1) != 1)
				_exit(3);
			close(f);
			fd = open(mnt, O_RDONLY | O_DIRECTORY);
			/* Untouched: only what the kernel allocates is charged. */
			char *buf = mmap(NULL, size, PROT_READ | PROT_WRITE,
					 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (fd < 0 || buf == MAP_FAILED || write(ready[1], "r", 1) != 1 ||
			    read(go[0], &c, 1) != 1)
				_exit(4);
			if (plus) {
				struct getdentsplus_args a = {
					.dirfd = fd, .buf = (uintptr_t)buf, .size = size,
					.statx_mask = STATX_BASIC_STATS,
					.flags = GDP_WANT_ACL | GDP_WANT_LABEL,
				};
				ioctl(gdp_dev, GETDENTSPLUS_IOC_V1, &a);
			} else {
				syscall(SYS_getdents64, fd, buf, size);
			}
			_exit(0);
		}
	}
	for (int i = 0; i < ntask; i++) {
		char c;

		if (read(ready[0], &c, 1) != 1)
			goto out;
	}
	usleep(300000);
	base = cg_current(cg);
	for (int i = 0; i < ntask; i++)
		if (write(go[1], "g", 1) != 1)
			goto out;
	for (int t = 0; t < 600 && readdir_held - before < (unsigned int)ntask; t++)
		usleep(50000);
	usleep(500000);
	if (readdir_held - before == (unsigned int)ntask && base >= 0)
		held = (cg_current(cg) - base) / ntask;
	else
		printf("# %d READDIRs held of %d\n", readdir_held - before, ntask);
out:
	for (int i = 0; i < ntask; i++)
		if (pids[i] > 0)
			kill(pids[i], SIGKILL);
	release_readdirs(before);
	for (int i = 0; i < ntask; i++)
		if (pids[i] > 0)
			waitpid(pids[i], NULL, 0);
	close(ready[0]);
	close(ready[1]);
	close(go[0]);
	close(go[1]);
	rmdir(cg);
	free(pids);
	return held;
}

/**
 * Finding 1 of issue 23: ABI 3 allocated a quarter of the caller's
 * buffer (up to 512 KiB) before reading, and a call blocked in the
 * filesystem kept it.  Now a blocked call may hold no more than what
 * getdents64 holds in the same place plus a few pages.
 */
static int cmd_memhold(const char *mnt, int ntask)
{
	pthread_t srv;
	long g64, gdp;

	gdp_dev = open(GETDENTSPLUS_DEVICE, O_RDWR | O_CLOEXEC);
	if (gdp_dev < 0 || mount_fs(mnt, "fuse-memhold", &srv) < 0)
		return tap(0, "fuse-memhold: setup: %s", strerror(errno)), 1;
	hold_readdir = 1;
	g64 = blocked_bytes(mnt, ntask, 0);
	gdp = blocked_bytes(mnt, ntask, 1);
	printf("# fuse-memhold: %d tasks blocked in READDIR with a 4 MiB buffer: "
	       "getdents64 %ld bytes each, getdentsplus %ld\n", ntask, g64, gdp);
	tap(g64 >= 0 && gdp >= 0 && gdp <= g64 + 16384,
	    "fuse-memhold: a getdentsplus call blocked in READDIR is charged %ld bytes, getdents64 %ld "
	    "(at most 16 KiB more; ABI 3: ~520 KiB)", gdp, g64);
	if (umount2(mnt, MNT_DETACH) < 0)
		tap(0, "fuse-memhold: umount %s: %s", mnt, strerror(errno));
	close(fuse_fd);
	return failures ? 1 : 0;
}

/* ---- issue 23: a signal ends a batch promptly ------------------------ */

static volatile long long sig_ms;

static void on_alarm(int sig)
{
	(void)sig;
	sig_ms = now_ms();
}

static pthread_t caller;

/** Thread: one getdentsplus call of 200 slow entries. */
static void *slow_call(void *unused)
{
	(void)unused;
	a_ret = gdp_ioctl(GDP_SKIP_DOTS);
	a_errno = errno;
	a_end_ms = now_ms();
	return NULL;
}

/**
 * 200 files, each LOOKUP and GETATTR answered after 50 ms (a slow server).
 * SIGALRM (a handler, no SA_RESTART) is sent to the caller a few entries
 * into its batch: the handler must run within a second (ABI 3 checked only
 * fatal signals: 12 s here), the call returns what it built and leaves the
 * rest of its batch to the caller (GDP_REC_UNRESOLVED), and the listing
 * stays exact: every name once, in the calls that follow.
 */
static int cmd_signal(const char *mnt)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	int nres = 0, nunres = 0, dup = 0, missing = 0;
	unsigned char seen[200] = { 0 };
	pthread_t srv;
	long long t0;

	make_nodes(200);
	gdp_dev = open(GETDENTSPLUS_DEVICE, O_RDWR | O_CLOEXEC);
	if (gdp_dev < 0 || mount_fs(mnt, "fuse-signal", &srv) < 0)
		return tap(0, "fuse-signal: setup: %s", strerror(errno)), 1;
	dfd = open(mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	sigaction(SIGALRM, &sa, NULL);
	delay_us = 50000;
	pthread_create(&caller, NULL, slow_call, NULL);
	for (int t = 0; t < 2000 && __atomic_load_n(&lookups, __ATOMIC_RELAXED) < 4; t++)
		usleep(5000);
	t0 = now_ms();
	pthread_kill(caller, SIGALRM);
	pthread_join(caller, NULL);
	delay_us = 0;
	printf("# fuse-signal: the handler ran %lld ms after the signal, the call returned %ld "
	       "after %lld ms (%s)\n", sig_ms - t0, a_ret, a_end_ms - t0,
	       a_ret < 0 ? strerror(a_errno) : "bytes");
	tap(sig_ms && sig_ms - t0 < 1000 && a_ret > 0,
	    "fuse-signal: the handler runs %lld ms after SIGALRM (< 1 s), the call returns records",
	    sig_ms ? sig_ms - t0 : -1);
	for (long n = a_ret; n > 0; n = gdp_ioctl(GDP_SKIP_DOTS)) {
		for (long o = 0; o < n;) {
			const struct getdentsplus_entry *e = (const void *)(a_buf + o);
			unsigned int k;

			if (sscanf(e->name, "f%u", &k) == 1 && k < 200) {
				dup += seen[k]++ > 0;
				if (e->flags & GDP_REC_UNRESOLVED)
					nunres++;
				else if (!e->error && e->stx.stx_ino == k + 2 && e->stx.stx_size == 100 + k)
					nres++;
			}
			o += e->reclen;
		}
	}
	for (int k = 0; k < 200; k++)
		missing += !seen[k];
	tap(!dup && !missing && nunres > 0 && nres + nunres == 200,
	    "fuse-signal: every name once over the calls (%d repeated, %d missing); %d records left to "
	    "the caller after the signal, the other %d right", dup, missing, nunres, nres);
	close(dfd);
	if (umount2(mnt, 0) < 0 && umount2(mnt, MNT_DETACH) < 0)
		tap(0, "fuse-signal: umount %s: %s", mnt, strerror(errno));
	close(fuse_fd);
	return failures ? 1 : 0;
}

/* ---- issue 23 finding 3: overlayfs over FUSE, "from memory" ---------- */

/**
 * An overlay whose only (lower) layers are this FUSE filesystem of 64
 * files and an empty tmpfs directory.  With GDP_ATTR_CACHED no attribute
 * bit may reach the daemon: no GETXATTR of an ACL, a label or a
 * capability (ABI 3 decided "remote" by the filesystem's name, and
 * overlayfs was not in its list: 128 GETXATTRs for 64 entries).  Without
 * the flag the same call asks the daemon (the count can see them).
 */
static int cmd_overlay(const char *mnt, const char *ovl)
{
	const unsigned int want = GDP_SKIP_DOTS | GDP_WANT_ACL | GDP_WANT_LABEL | GDP_WANT_CAP;
	char empty[512], opts[1200];
	int nrec = 0, good = 0, unknown = 0;
	unsigned int x0, x1, x2;
	pthread_t srv;
	long n;

	make_nodes(64);
	gdp_dev = open(GETDENTSPLUS_DEVICE, O_RDWR | O_CLOEXEC);
	if (gdp_dev < 0 || mount_fs(mnt, "fuse-overlay", &srv) < 0)
		return tap(0, "fuse-overlay: setup: %s", strerror(errno)), 1;
	snprintf(empty, sizeof empty, "%s.empty", ovl);
	mkdir(empty, 0755);
	mkdir(ovl, 0755);
	snprintf(opts, sizeof opts, "lowerdir=%s:%s", mnt, empty);
	if (mount("overlay", ovl, "overlay", MS_RDONLY, opts) < 0) {
		printf("ok - fuse-overlay # SKIP overlay over FUSE: mount: %s\n", strerror(errno));
		goto unmount;
	}
	dfd = open(ovl, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	x0 = __atomic_load_n(&attr_xattrs, __ATOMIC_SEQ_CST);
	n = gdp_ioctl(want | GDP_ATTR_CACHED);
	x1 = __atomic_load_n(&attr_xattrs, __ATOMIC_SEQ_CST);
	for (long o = 0; o < n; nrec++) {
		const struct getdentsplus_entry *e = (const void *)(a_buf + o);
		unsigned int k;

		if (sscanf(e->name, "f%u", &k) == 1 && !e->error && !(e->flags & GDP_REC_UNRESOLVED) &&
		    e->stx.stx_size == 100 + k)
			good++;
		unknown += (e->attr_unknown & (GDP_ATTR_LABEL | GDP_ATTR_CAP)) ==
			   (GDP_ATTR_LABEL | GDP_ATTR_CAP);
		o += e->reclen;
	}
	tap(n > 0 && good == 64 && x1 == x0 && unknown == 64,
	    "fuse-overlay: GDP_ATTR_CACHED on overlayfs over FUSE: %d records stat'ed, %u GETXATTRs "
	    "reached the daemon (want 0), label and capability unknown in %d", good, x1 - x0, unknown);
	lseek(dfd, 0, SEEK_SET);
	n = gdp_ioctl(want);
	x2 = __atomic_load_n(&attr_xattrs, __ATOMIC_SEQ_CST);
	tap(n > 0 && x2 > x1, "fuse-overlay: without the flag the call reads through to the daemon "
	    "(%u GETXATTRs): the count sees them", x2 - x1);
	close(dfd);
	umount2(ovl, MNT_DETACH);
unmount:
	if (umount2(mnt, 0) < 0 && umount2(mnt, MNT_DETACH) < 0)
		tap(0, "fuse-overlay: umount %s: %s", mnt, strerror(errno));
	close(fuse_fd);
	return failures ? 1 : 0;
}

/* ---- issue 23 point 6: no more READDIRs than getdents64 ------------- */

/* The buffer lib/dirplus-gdp.c gives the module (GDP_BUFSIZE there). */
#define LIB_BUFSIZE (512 * 1024)
/* The buffer glibc's readdir gives getdents64 (GNU ls reads with it). */
#define GLIBC_BUFSIZE 32768
/* A buffer for every record of the directory readdirs makes. */
#define BIG_BUFSIZE (4 << 20)

/**
 * Read the whole directory at @mnt with getdents64 (@plus 0) or with the
 * module as lib/dirplus-gdp.c calls it (@plus 1: GDP_MARK_END and
 * GDP_SKIP_DOTS, until the marked record), @size bytes per call.
 * Returns the entries read (dots not counted) or -1; *@calls and
 * *@readdirs the calls made and the READDIRs the daemon answered, *@asked
 * the bytes those READDIRs asked for.
 */
static long read_counting(const char *mnt, int plus, size_t size, unsigned int *calls,
			  unsigned int *readdirs, unsigned long *asked)
{
	char *buf = malloc(size);
	unsigned int r0 = __atomic_load_n(&readdir_calls, __ATOMIC_RELAXED);
	unsigned long a0 = __atomic_load_n(&readdir_bytes_asked, __ATOMIC_RELAXED);
	long entries = 0;
	int fd = open(mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int end = 0;

	*calls = 0;
	if (!buf || fd < 0)
		goto fail;
	while (!end) {
		long n;

		if (plus) {
			n = gdp_ioc(gdp_dev, fd, buf, size, STATX_BASIC_STATS,
				    GDP_MARK_END | GDP_SKIP_DOTS);
		} else {
			n = syscall(SYS_getdents64, fd, buf, size);
		}
		++*calls;
		if (n < 0)
			goto fail;
		if (n == 0)
			break;
		for (long o = 0; o < n;) {
			if (plus) {
				const struct getdentsplus_entry *e = (const void *)(buf + o);

				entries++;
				end |= e->flags & GDP_REC_END;
				o += e->reclen;
			} else {
				const struct linux_dirent64 { uint64_t ino; int64_t off;
					unsigned short reclen; unsigned char type; char name[];
				} *d = (const void *)(buf + o);

				entries += strcmp(d->name, ".") && strcmp(d->name, "..");
				o += d->reclen;
			}
		}
	}
	*readdirs = __atomic_load_n(&readdir_calls, __ATOMIC_RELAXED) - r0;
	*asked = __atomic_load_n(&readdir_bytes_asked, __ATOMIC_RELAXED) - a0;
	close(fd);
	free(buf);
	return entries;
fail:
	if (fd >= 0)
		close(fd);
	free(buf);
	return -1;
}

/**
 * A directory of @n files over FUSE, read once with getdents64 and
 * glibc's buffer (what GNU ls does) and once with the module and the
 * library's buffer.  Kernels from 6.16 on size a FUSE READDIR by the
 * reader's hint (dir_context.count) instead of one page: the module must
 * not ask in smaller pieces than getdents64 does, nor drop entries a
 * READDIR brought (the next READDIR would fetch them again).  The
 * module's listing must cost no more READDIRs, each a round trip to the
 * daemon, than GNU's.
 */
static int cmd_readdirs(const char *mnt, int n)
{
	unsigned int c64, r64, cp, rp, cb, rb;
	unsigned long a64, ap, ab;
	pthread_t srv;
	long e64, ep, eb;

	make_nodes(n);
	gdp_dev = open(GETDENTSPLUS_DEVICE, O_RDWR | O_CLOEXEC);
	if (gdp_dev < 0 || mount_fs(mnt, "fuse-readdirs", &srv) < 0)
		return tap(0, "fuse-readdirs: setup: %s", strerror(errno)), 1;
	e64 = read_counting(mnt, 0, GLIBC_BUFSIZE, &c64, &r64, &a64);
	ep = read_counting(mnt, 1, LIB_BUFSIZE, &cp, &rp, &ap);
	printf("# fuse-readdirs: %d files: getdents64 (%d-byte buffer) %ld entries in %u calls, "
	       "%u READDIRs asking %lu bytes; getdentsplus (%d-byte buffer) %ld entries in %u "
	       "calls, %u READDIRs asking %lu bytes\n", n, GLIBC_BUFSIZE, e64, c64, r64, a64,
	       LIB_BUFSIZE, ep, cp, rp, ap);
	tap(e64 == n && ep == n && rp <= r64,
	    "fuse-readdirs: %d files: the module's listing makes %u READDIRs, getdents64 with "
	    "glibc's buffer %u (every entry read: %ld and %ld)", n, rp, r64, ep, e64);
	/*
	 * A buffer that takes the whole directory: one call reads it all
	 * (each round's hint counted with the staging of the round before
	 * emptied; counted against it, a round that staged a full read
	 * left no hint and ended the call).
	 */
	eb = read_counting(mnt, 1, BIG_BUFSIZE, &cb, &rb, &ab);
	printf("# fuse-readdirs: %d files, a %d-byte buffer: %ld entries in %u calls, %u READDIRs\n",
	       n, BIG_BUFSIZE, eb, cb, rb);
	tap(eb == n && cb == 1 && rb <= r64,
	    "fuse-readdirs: %d files, a buffer for all of them: one call (%u), %u READDIRs "
	    "(getdents64 %u)", n, cb, rb, r64);
	if (umount2(mnt, 0) < 0 && umount2(mnt, MNT_DETACH) < 0)
		tap(0, "fuse-readdirs: umount %s: %s", mnt, strerror(errno));
	close(fuse_fd);
	return failures ? 1 : 0;
}

/** Entry point: gdp-fuse-test fposlock|chunked MNT. */
int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 3 && !strcmp(argv[1], "fposlock"))
		return cmd_fposlock(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "chunked"))
		return cmd_chunked(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "estale"))
		return cmd_estale(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "memhold"))
		return cmd_memhold(argv[2], atoi(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "signal"))
		return cmd_signal(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "overlay"))
		return cmd_overlay(argv[2], argv[3]);
	if (argc == 4 && !strcmp(argv[1], "readdirs"))
		return cmd_readdirs(argv[2], atoi(argv[3]));
	fprintf(stderr, "usage: gdp-fuse-test fposlock|chunked|estale|signal MNT, memhold MNT N, "
		"overlay MNT OVL, readdirs MNT N\n");
	return 2;
}
