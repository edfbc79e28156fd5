// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * upstream/selftest-model.c: a userspace model of getdentsplus(2) as the
 * series documents it (getdents64 + statx, positions moved back with
 * lseek; the ACL and label attributes are whatever the running kernel's
 * statx gives for STATX_XATTR_INFO, none on a kernel without the first
 * series), for running the series' kselftest on a kernel without
 * the call, to check the test's own logic.  Not part of the series, and
 * no evidence about the kernel code: see upstream/README.md.
 *
 * Link with -Wl,--wrap=syscall,--wrap=sigaction: the model serves
 * syscall(472, ...), takes one lock for it and for getdents64 (the
 * kernel's f_pos_lock, for the tests that share an open directory
 * between threads), and learns from the handlers the test installs when
 * a signal arrived during a call (the kernel's signal_pending()).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>
#include <dirent.h>
#include <linux/getdentsplus.h>
#include <linux/stat.h>

long __real_syscall(long nr, ...);
int __real_sigaction(int sig, const struct sigaction *act,
		     struct sigaction *old);

static pthread_mutex_t pos_lock = PTHREAD_MUTEX_INITIALIZER;
static void (*handlers[65])(int);
static volatile sig_atomic_t signals;	/* handler runs so far */

static void trampoline(int sig)
{
	signals++;
	handlers[sig](sig);
}

/** The test's sigaction(), with a count of the handler's runs. */
int __wrap_sigaction(int sig, const struct sigaction *act,
		     struct sigaction *old)
{
	struct sigaction a;

	if (act && !(act->sa_flags & SA_SIGINFO) && sig > 0 && sig < 65 &&
	    act->sa_handler != SIG_DFL && act->sa_handler != SIG_IGN) {
		a = *act;
		handlers[sig] = act->sa_handler;
		a.sa_handler = trampoline;
		act = &a;
	}
	return __real_sigaction(sig, act, old);
}

#define HDR	offsetof(struct getdentsplus_entry, name)
#define RECLEN(n) ((HDR + (n) + 1 + 7) & ~(size_t)7)

struct d64 {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

/** Can @len bytes at @p be read (a stand-in for "written")? */
static int writable(const void *p, size_t len)
{
	int fds[2], ok;

	if (pipe2(fds, O_NONBLOCK))
		return 0;
	ok = write(fds[1], p, len) == (ssize_t)len;
	close(fds[0]);
	close(fds[1]);
	return ok;
}

/** Fill one record as the kernel would. */
static void fill(int dfd, const struct d64 *d, struct getdentsplus_entry *r,
		 const struct getdentsplus_req *req, unsigned int flags)
{
	size_t nl = strlen(d->name);
	int follow = !!(flags & AT_SYMLINK_FOLLOW);
	int at = (flags & (AT_NO_AUTOMOUNT | AT_STATX_SYNC_TYPE)) |
		 (follow ? 0 : AT_SYMLINK_NOFOLLOW);
	struct statx sx;

	memset(r, 0, RECLEN(nl));
	r->d_ino = d->ino;
	r->d_off = d->off;
	r->reclen = RECLEN(nl);
	r->namelen = nl;
	r->d_type = d->type;
	r->name_off = HDR;
	memcpy(r->name, d->name, nl);
	/* Only ENOENT and EACCES in the record; else the caller's statx. */
	if (statx(dfd, d->name, at, req->statx_mask, &sx)) {
		if (errno == ENOENT || errno == EACCES)
			r->error = errno;
		else
			r->flags = GETDENTSPLUS_REC_UNRESOLVED;
		return;
	}
	r->stx = sx;
}

/** The model. */
static long emu(int fd, const struct getdentsplus_req *ureq, char *buf,
		size_t size, unsigned int flags)
{
	static char d64buf[65536];
	struct getdentsplus_req req;
	struct getdentsplus_entry *rec, *last = NULL;
	uint32_t usize;
	size_t done = 0, base = 0;
	off_t pos;
	struct stat st;
	long n, p;
	int fl, idle = 8, stopped = 0, staged;
	sig_atomic_t sig0 = signals;

	/* AT_* where one exists, the call's own in the per-syscall byte. */
	if (flags & ~(AT_SYMLINK_FOLLOW | AT_NO_AUTOMOUNT | AT_STATX_SYNC_TYPE |
		      GETDENTSPLUS_SKIP_DOTS | GETDENTSPLUS_SELF |
		      GETDENTSPLUS_MARK_END))
		return errno = EINVAL, -1;
	if ((flags & AT_STATX_SYNC_TYPE) == AT_STATX_SYNC_TYPE)
		return errno = EINVAL, -1;
	if (!ureq || !writable(ureq, 4))
		return errno = EFAULT, -1;
	usize = ureq->size;
	if (usize > 4096)
		return errno = E2BIG, -1;
	if (usize < GETDENTSPLUS_REQ_SIZE_VER0)
		return errno = EINVAL, -1;
	if (!writable(ureq, usize))
		return errno = EFAULT, -1;
	for (uint32_t i = sizeof(req); i < usize; i++)
		if (((const char *)ureq)[i])
			return errno = E2BIG, -1;
	memcpy(&req, ureq, sizeof(req));
	if (req.statx_mask & STATX__RESERVED)
		return errno = EINVAL, -1;
	if (size < RECLEN(1))
		return errno = EINVAL, -1;
	if ((unsigned long)buf + size < (unsigned long)buf ||
	    (unsigned long)buf + size > 0x7ffffffff000UL)
		return errno = EFAULT, -1;
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || (fl & O_PATH))
		return errno = EBADF, -1;
	if (fstat(fd, &st))
		return -1;
	if (!S_ISDIR(st.st_mode))
		return errno = ENOTDIR, -1;

	rec = malloc(RECLEN(4096));
	pos = lseek(fd, 0, SEEK_CUR);
	/* GETDENTSPLUS_SELF at position 0: the directory's own record. */
	if ((flags & GETDENTSPLUS_SELF) && pos == 0) {
		struct d64 *self = (void *)d64buf;

		if (!writable(buf, RECLEN(0))) {
			free(rec);
			return errno = EFAULT, -1;
		}
		self->ino = st.st_ino;
		strcpy(self->name, ".");
		fill(fd, self, rec, &req, flags & ~AT_SYMLINK_FOLLOW);
		rec->d_off = 0;
		rec->namelen = 0;
		rec->name[0] = '\0';
		rec->d_type = DT_DIR;
		rec->flags = GETDENTSPLUS_REC_SELF;
		memcpy(buf, rec, RECLEN(0));
		last = (void *)buf;
		done = base = RECLEN(0);
	}
again:
	n = __real_syscall(SYS_getdents64, fd, d64buf, sizeof(d64buf));
	if (n < 0) {
		free(rec);
		return -1;
	}
	staged = 0;
	for (p = 0; p < n;) {
		struct d64 *d = (void *)(d64buf + p);
		size_t rl = RECLEN(strlen(d->name));

		if ((flags & GETDENTSPLUS_SKIP_DOTS) &&
		    (!strcmp(d->name, ".") || !strcmp(d->name, ".."))) {
			pos = d->off;
			p += d->reclen;
			continue;
		}
		if (done + rl > size) {
			stopped = 1;
			if (done == base) {
				lseek(fd, pos, SEEK_SET);
				free(rec);
				return errno = EINVAL, -1;
			}
			break;
		}
		if (!writable(buf + done, rl)) {
			stopped = 1;
			if (done == base) {
				lseek(fd, pos, SEEK_SET);
				free(rec);
				return errno = EFAULT, -1;
			}
			break;
		}
		/* A signal ends the batch after the first record. */
		if (done > base && signals != sig0) {
			stopped = 1;
			break;
		}
		fill(fd, d, rec, &req, flags);
		memcpy(buf + done, rec, rl);
		last = (void *)(buf + done);
		done += rl;
		pos = d->off;
		p += d->reclen;
		staged++;
	}
	/* Read while the buffer has room, as the next getdents64 would. */
	if (!stopped && n > 0 && (staged || --idle > 0))
		goto again;
	if (!stopped && n == 0 && last && (flags & GETDENTSPLUS_MARK_END))
		last->flags |= GETDENTSPLUS_REC_END;
	lseek(fd, pos, SEEK_SET);
	free(rec);
	return done;
}

/** Dispatch: the model for 472, the real call otherwise. */
long __wrap_syscall(long nr, long a1, long a2, long a3, long a4, long a5,
		    long a6)
{
	long ret;

	if (nr != 472 && nr != SYS_getdents64)
		return __real_syscall(nr, a1, a2, a3, a4, a5, a6);
	pthread_mutex_lock(&pos_lock);
	if (nr == 472)
		ret = emu(a1, (void *)a2, (void *)a3, a4, a5);
	else
		ret = __real_syscall(nr, a1, a2, a3);
	pthread_mutex_unlock(&pos_lock);
	return ret;
}
