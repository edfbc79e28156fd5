// SPDX-License-Identifier: GPL-2.0
/*
 * The getdentsplus operation.
 *
 * One call:
 *  1. check the arguments, take the fd and its position lock (getdents64's
 *     f_pos_lock);
 *  2. iterate_dir() with an actor that copies names into a bounded staging
 *     buffer and claims each record's place in the caller's buffer (zeroes
 *     it, as getdents64's filldir64 writes there too): no lookup, no
 *     getattr while the filesystem holds the directory locked; read
 *     again while the filesystem offers more (GDP_MARK_END needs to know
 *     the end, and a read of only skipped dots is not the end); then drop
 *     the position lock, as getdents64 does after its read;
 *  3. GDP_WANT_SELF at position 0: the directory's own record first (its
 *     getattr through the struct file, as fstat does); then for each
 *     staged name: one lookup in the directory with the caller's
 *     permissions, cross mounts, vfs_getattr(), attribute bits, build the
 *     record in zeroed memory, copy_to_user(); every name comes from the
 *     kernel's staged copy and every lookup starts at the struct file taken
 *     in step 1: nothing is read back from user memory and the fd number is
 *     not looked up again.  No path walks: what needs one (a symlink to
 *     follow, an automount point, a mount trap) is left to the caller
 *     (GDP_REC_UNRESOLVED);
 *  4. the position is right after the last staged entry, so that
 *     getdents64, lseek and getdentsplus can be mixed on one fd.
 *
 * An unwritable buffer stops step 2 at the entry whose place faults, with
 * the filesystem's own position, exactly like getdents64.  Step 3 rewinds
 * with lseek to the last delivered d_off only when it cannot deliver what
 * was staged (a fatal signal, or the buffer unmapped by another thread in
 * between) and nobody moved the position meanwhile: that is exact where
 * positions are cookies (ext4, xfs, btrfs, kernfs), but on ordinal
 * positions (dcache_readdir's tmpfs, ramfs, debugfs; /proc/sys) a
 * directory changing meanwhile shifts them, as it does for any lseek to
 * an old d_off.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cred.h>
#include <linux/dcache.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/error-injection.h>
#include <linux/fs.h>
#include <linux/fs_struct.h>
#include <linux/kdev_t.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/path.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/stat.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/uidgid.h>

#include "getdentsplus-internal.h"
#include "getdentsplus-compat.h"

/* One staged directory entry; entries follow each other 8-aligned. */
struct gdp_staged {
	u64 ino;
	s64 off;		/* position after this entry (its d_off) */
	u16 namelen;
	u8 type;
	char name[];		/* NUL-terminated */
};

#define GDP_STAGED_LEN(namelen) \
	ALIGN(offsetof(struct gdp_staged, name) + (namelen) + 1, 8)

struct gdp_stage {
	struct dir_context ctx;
	char *buf;
	size_t used;
	size_t cap;
	char __user *ubuf;	/* the caller's buffer */
	size_t out_used;	/* its bytes promised to staged entries */
	size_t out_left;	/* user buffer bytes not yet promised */
	unsigned int nr;
	unsigned int seen;	/* entries the filesystem offered, dots too */
	struct gdp_staged *last;
	int error;		/* why the first entry could not be staged */
	bool skip_dots;		/* GDP_SKIP_DOTS */
	bool stopped;		/* the actor refused an entry: no end yet */
};

/* One request, as the per-entry code needs it. */
struct gdp_req {
	struct file *dir;	/* held for the whole call */
	struct path root;	/* the caller's root (a reference) */
	u32 mask;
	u32 flags;
	unsigned int query_flags;	/* AT_STATX_* for vfs_getattr() */
};

/* gdp_resolve(): only the caller's own path walk can answer this entry. */
#define GDP_UNRESOLVED	1

/* The actor refuses the entry: the batch ends before it. */
static gdp_filldir_ret gdp_stage_stop(struct gdp_stage *st)
{
	st->stopped = true;
	return GDP_FILLDIR_STOP;
}

static gdp_filldir_ret gdp_stage_actor(struct dir_context *ctx,
				       const char *name, int namelen,
				       loff_t offset, u64 ino,
				       unsigned int d_type)
{
	struct gdp_stage *st = container_of(ctx, struct gdp_stage, ctx);
	struct gdp_staged *e;
	size_t need, reclen;

	st->seen++;
	/* Like getdents64: an entry's d_off is where the next one starts. */
	if (st->last)
		st->last->off = offset;

	/*
	 * A skipped dot leaves the previous record's d_off at the dot, as
	 * getdents64 does; resuming there reads the dot again and skips it.
	 * The next entry must not move that d_off past the dot (ext4 reads
	 * a one-block directory in hash order, dots anywhere).
	 */
	if (st->skip_dots && name[0] == '.' &&
	    (namelen == 1 || (namelen == 2 && name[1] == '.'))) {
		st->last = NULL;
		return GDP_FILLDIR_CONTINUE;
	}

	if (unlikely(namelen <= 0 || namelen > GDP_NAME_MAX ||
		     memchr(name, '/', namelen))) {
		st->error = -EIO;
		return gdp_stage_stop(st);
	}
	reclen = GDP_RECLEN(namelen);
	if (reclen > st->out_left) {
		if (!st->nr)
			st->error = -EINVAL;
		return gdp_stage_stop(st);
	}
	need = GDP_STAGED_LEN(namelen);
	if (need > st->cap - st->used)
		return gdp_stage_stop(st);
	if (st->nr && fatal_signal_pending(current))
		return gdp_stage_stop(st);
	/*
	 * The record's place must be writable before the entry is taken:
	 * then a bad buffer ends the batch here, where the filesystem keeps
	 * its position, instead of after the fact with an lseek that is
	 * not exact on every filesystem (see the top of the file).  A page
	 * fault here is what filldir64 risks too.
	 */
	if (clear_user(st->ubuf + st->out_used, reclen)) {
		if (!st->nr)
			st->error = -EFAULT;
		return gdp_stage_stop(st);
	}

	e = (struct gdp_staged *)(st->buf + st->used);
	e->ino = ino;
	e->off = offset;	/* fixed by the next entry or the caller */
	e->namelen = namelen;
	e->type = d_type & 15;	/* high bits may carry FILLDIR_FLAG_* */
	memcpy(e->name, name, namelen);
	e->name[namelen] = '\0';

	st->used += need;
	st->out_used += reclen;
	st->out_left -= reclen;
	st->nr++;
	st->last = e;
	gdp_dir_context_set_count(ctx, st->out_left);
	return GDP_FILLDIR_CONTINUE;
}

static bool gdp_is_dots(const struct gdp_staged *e)
{
	return e->name[0] == '.' &&
	       (e->namelen == 1 || (e->namelen == 2 && e->name[1] == '.'));
}

/* fstatat() needs search permission on the directory for every name. */
static int gdp_may_search(const struct path *dir)
{
	return inode_permission(gdp_mnt_idmap(dir->mnt), d_inode(dir->dentry),
				MAY_EXEC);
}

/*
 * ".." of the directory, as a path walk's ".." step goes: the caller's
 * root is its own parent; at the root of a mount, climb to where the mount
 * is attached (through mounts stacked on mount roots), staying put when
 * that reaches the caller's root or a mount without a parent; then the
 * parent dentry, ENOENT if a bind mount's subtree no longer contains it.
 * Returns 0 with @path held (the caller crosses what is mounted on it),
 * or -errno.
 */
static int gdp_dotdot(const struct gdp_req *req, struct path *path)
{
	struct path p = req->dir->f_path;
	struct dentry *parent;

	path_get(&p);
	if (path_equal(&p, &req->root))
		goto out;
	if (p.dentry == p.mnt->mnt_root) {
		struct path up = p;

		path_get(&up);
		for (;;) {
			if (!follow_up(&up) || path_equal(&up, &req->root)) {
				path_put(&up);
				goto out;
			}
			if (up.dentry != up.mnt->mnt_root)
				break;
		}
		path_put(&p);
		p = up;
	}
	parent = dget_parent(p.dentry);
	if (p.mnt->mnt_root != p.mnt->mnt_sb->s_root &&
	    !is_subdir(parent, p.mnt->mnt_root)) {
		dput(parent);
		path_put(&p);
		return -ENOENT;
	}
	dput(p.dentry);
	p.dentry = parent;
out:
	*path = p;
	return 0;
}

/*
 * Cross what is mounted on @path, as the last step of fstatat()'s walk
 * does.  Returns 0, GDP_UNRESOLVED when the result is an automount point
 * or a mount trap that fstatat() would trigger (the caller's own walk
 * does that, with its own root, credentials and namespace), or -errno.
 * Mount traps (autofs's DCACHE_MANAGE_TRANSIT) are left to the caller in
 * every case: their ->d_manage() may wait for a daemon.
 */
static int gdp_cross_mounts(const struct gdp_req *req, struct path *path)
{
	unsigned int managed;
	int err;

	managed = READ_ONCE(path->dentry->d_flags) & DCACHE_MANAGED_DENTRY;
	if (!managed)
		return 0;
	if (managed & DCACHE_MANAGE_TRANSIT)
		return GDP_UNRESOLVED;
	err = gdp_follow_down(path);
	if (err)
		return err;
	managed = READ_ONCE(path->dentry->d_flags);
	if (managed & DCACHE_MANAGE_TRANSIT)
		return GDP_UNRESOLVED;
	if ((managed & DCACHE_NEED_AUTOMOUNT) &&
	    !(req->flags & GDP_NO_AUTOMOUNT))
		return GDP_UNRESOLVED;
	return 0;
}

/*
 * What fstatat(dirfd, name) would stat, with the caller's permissions.
 * Returns 0 with @path held, GDP_UNRESOLVED when only a full path walk
 * can answer (a symlink to follow, an automount point or a mount trap):
 * the module walks no path of its own (no private fs_struct, no name
 * buffer, no audit names entry per entry), the record says "stat it
 * yourself" instead; or -errno.
 */
static int gdp_resolve(const struct gdp_req *req, const struct gdp_staged *e,
		       struct path *path)
{
	const struct path *dir = &req->dir->f_path;
	struct dentry *dentry;
	int err;

	if (gdp_is_dots(e)) {
		err = gdp_may_search(dir);
		if (err)
			return err;
		if (e->namelen == 1) {
			/* "." is the directory itself, as the walk leaves it. */
			*path = *dir;
			path_get(path);
			return 0;
		}
		err = gdp_dotdot(req, path);
		if (err)
			return err;
		goto cross;
	}

	/* Checks MAY_EXEC on the directory; -ENOENT if it vanished. */
	dentry = gdp_lookup_positive(dir, e->name, e->namelen);
	if (IS_ERR(dentry))
		return PTR_ERR(dentry);
	if ((req->flags & GDP_FOLLOW) && d_is_symlink(dentry)) {
		dput(dentry);
		return GDP_UNRESOLVED;
	}
	path->mnt = mntget(dir->mnt);
	path->dentry = dentry;
cross:
	/* A mountpoint reports the root of what is mounted on it. */
	err = gdp_cross_mounts(req, path);
	if (err)
		path_put(path);
	return err;
}

/*
 * A per-entry error as user space may see it.  Lookups and getattr can
 * fail with the kernel's internal codes (>= 512: ERESTARTSYS when a signal
 * interrupts a wait, NFS's ENOTSUPP/EJUKEBOX/EBADHANDLE, ...), which a
 * syscall's return never shows (the entry code restarts or converts them).
 * In a record they would be numbers no libc knows.  Returns the -errno
 * the record carries (negated).
 */
static int gdp_entry_errno(int err)
{
	switch (err) {
	case -ERESTARTSYS:
	case -ERESTARTNOINTR:
	case -ERESTARTNOHAND:
	case -ERESTART_RESTARTBLOCK:
		return -EINTR;		/* interrupted: retry with fstatat */
	case -ENOIOCTLCMD:
		return -ENOTTY;
	case -EOPENSTALE:
		return -ESTALE;
	case -ENOTSUPP:
		return -EOPNOTSUPP;
	case -EJUKEBOX:
		return -EAGAIN;		/* the server asks to retry later */
	}
	if (err >= 0 || -err >= ERESTARTSYS)
		return -EIO;
	return err;
}

static void gdp_ts(struct statx_timestamp *to, const struct timespec64 *from)
{
	to->tv_sec = from->tv_sec;
	to->tv_nsec = from->tv_nsec;
}

/* struct kstat to the user's struct statx, as statx(2) converts it. */
static void gdp_fill_statx(struct statx *sx, const struct kstat *ks,
			   const struct path *path)
{
	sx->stx_mask = ks->result_mask & GDP_STATX_SUPPORTED;
	sx->stx_blksize = ks->blksize;
	sx->stx_attributes = ks->attributes;
	sx->stx_nlink = ks->nlink;
	sx->stx_uid = from_kuid_munged(current_user_ns(), ks->uid);
	sx->stx_gid = from_kgid_munged(current_user_ns(), ks->gid);
	sx->stx_mode = ks->mode;
	sx->stx_ino = ks->ino;
	sx->stx_size = ks->size;
	sx->stx_blocks = ks->blocks;
	sx->stx_attributes_mask = ks->attributes_mask;
	gdp_ts(&sx->stx_atime, &ks->atime);
	if (sx->stx_mask & STATX_BTIME)
		gdp_ts(&sx->stx_btime, &ks->btime);
	gdp_ts(&sx->stx_ctime, &ks->ctime);
	gdp_ts(&sx->stx_mtime, &ks->mtime);
	sx->stx_rdev_major = MAJOR(ks->rdev);
	sx->stx_rdev_minor = MINOR(ks->rdev);
	sx->stx_dev_major = MAJOR(ks->dev);
	sx->stx_dev_minor = MINOR(ks->dev);

	/* What vfs_statx() adds on top of ->getattr(). */
	if (path->mnt->mnt_root == path->dentry)
		sx->stx_attributes |= STATX_ATTR_MOUNT_ROOT;
	sx->stx_attributes_mask |= STATX_ATTR_MOUNT_ROOT;
}

/*
 * The point where the kernel's fault injection (fail_function, with
 * CONFIG_FUNCTION_ERROR_INJECTION) makes an entry fail after it resolved,
 * as if vfs_getattr() had: the tests use it to check how errors reach the
 * record, kernel-internal codes included.  Returns 0 otherwise.  noipa,
 * not just noinline: the compiler must not propagate the constant 0 into
 * the caller and drop the check the injected value goes through.
 */
#if __has_attribute(__noipa__)
#define gdp_noipa __attribute__((__noipa__))
#else
#define gdp_noipa noinline
#endif
static gdp_noipa int gdp_entry_fault(const struct path *path)
{
	return 0;
}
ALLOW_ERROR_INJECTION(gdp_entry_fault, ERRNO);

/*
 * Fill one record (already zeroed, reclen bytes).  Failures of the entry
 * go into rec->error and leave stx and attr zero.
 */
static void gdp_fill_record(const struct gdp_req *req,
			    const struct gdp_staged *e,
			    struct getdentsplus_entry *rec)
{
	struct path path;
	struct kstat ks;
	int err;

	rec->d_ino = e->ino;
	rec->d_off = e->off;
	rec->reclen = GDP_RECLEN(e->namelen);
	rec->namelen = e->namelen;
	rec->d_type = e->type;
	rec->name_off = GDP_REC_HDR;
	memcpy(rec->name, e->name, e->namelen);
	rec->attr_unknown = GDP_ATTR_ALL;

	err = gdp_resolve(req, e, &path);
	if (err == GDP_UNRESOLVED) {
		/* stx and attr stay zero, every bit unknown: see the header. */
		rec->flags = GDP_REC_UNRESOLVED;
		return;
	}
	if (err)
		goto err_entry;
	err = gdp_entry_fault(&path);
	if (err)
		goto err_path;

	memset(&ks, 0, sizeof(ks));
	err = vfs_getattr(&path, &ks, req->mask, req->query_flags);
	if (err)
		goto err_path;

	gdp_fill_statx(&rec->stx, &ks, &path);
	gdp_attr_fill(&path, ks.mode, req->flags, &rec->attr,
		      &rec->attr_unknown);
	path_put(&path);
	return;

err_path:
	path_put(&path);
err_entry:
	rec->error = -gdp_entry_errno(err);
}

/*
 * Fill the record of the directory itself (GDP_WANT_SELF; already zeroed,
 * GDP_RECLEN(0) bytes): what fstat() of the fd returns, which needs no
 * permission, so neither does this.
 */
static void gdp_fill_self(const struct gdp_req *req,
			  struct getdentsplus_entry *rec)
{
	const struct path *path = &req->dir->f_path;
	struct kstat ks;
	int err;

	rec->d_ino = file_inode(req->dir)->i_ino;
	rec->d_off = 0;
	rec->reclen = GDP_RECLEN(0);
	rec->d_type = DT_DIR;
	rec->flags = GDP_REC_SELF;
	rec->name_off = GDP_REC_HDR;
	rec->attr_unknown = GDP_ATTR_ALL;

	memset(&ks, 0, sizeof(ks));
	err = vfs_getattr(path, &ks, req->mask, req->query_flags);
	if (err) {
		rec->error = -gdp_entry_errno(err);
		return;
	}
	gdp_fill_statx(&rec->stx, &ks, path);
	gdp_attr_fill(path, ks.mode, req->flags, &rec->attr,
		      &rec->attr_unknown);
}

/*
 * Put the position on @pos like lseek(SEEK_SET), so the fs sees it.  @pos
 * is a d_off the filesystem itself reported during this call, so its
 * ->llseek accepts it.  vfs_llseek() fails only with -ESPIPE, when the
 * directory cannot seek at all (no ->llseek, or FMODE_LSEEK cleared): its
 * readdir then has no state but the position, which iterate_dir() hands it
 * from f_pos, so writing f_pos (what default_llseek() does) is that seek.
 * Any other failure leaves the position where the filesystem put it: the
 * staged entries are skipped rather than the filesystem's own state
 * contradicted.  Called with f_pos_lock held.
 */
static void gdp_set_pos(struct file *file, loff_t pos)
{
	if (file->f_pos == pos)
		return;
	if (vfs_llseek(file, pos, SEEK_SET) == -ESPIPE)
		file->f_pos = pos;
}

/*
 * Staged entries were not all delivered: put the position back on @pos
 * (after the last delivered record) so that the next read returns them,
 * unless someone else used the position since the staging left it at
 * @staged_end (another thread reading or seeking the same open file:
 * their position wins, the undelivered entries are skipped for this
 * caller as they would be for two getdents64 callers sharing a file).
 * A fatal signal also skips the rewind: the task is going away.
 */
static void gdp_rewind(struct file *file, loff_t pos, loff_t staged_end)
{
	if (mutex_lock_killable(&file->f_pos_lock))
		return;
	if (file->f_pos == staged_end)
		gdp_set_pos(file, pos);
	mutex_unlock(&file->f_pos_lock);
}

/*
 * Deliver the staged entries, after the directory's own record @self_rec
 * (filled before the read; NULL: none).  @pos is the position before the
 * first one, @staged_end the
 * position the staging left; @at_end: the staging reached the end of the
 * directory (the last record gets GDP_REC_END).  Runs without
 * f_pos_lock.  Returns the bytes written, or -EFAULT / -EINTR when
 * nothing was.
 */
static long gdp_emit(const struct gdp_req *req, const struct gdp_stage *st,
		     struct getdentsplus_entry *rec, char __user *ubuf,
		     loff_t pos, loff_t staged_end,
		     const struct getdentsplus_entry *self_rec, bool at_end)
{
	const struct gdp_staged *e = (const struct gdp_staged *)st->buf;
	size_t done = 0;
	unsigned int i;
	long err = 0;

	if (self_rec) {
		memcpy(rec, self_rec, GDP_RECLEN(0));
		if (at_end && !st->nr)
			rec->flags |= GDP_REC_END;
		if (copy_to_user(ubuf, rec, GDP_RECLEN(0))) {
			if (st->nr)
				gdp_rewind(req->dir, pos, staged_end);
			return -EFAULT;
		}
		done = GDP_RECLEN(0);
	}
	for (i = 0; i < st->nr; i++) {
		size_t reclen = GDP_RECLEN(e->namelen);

		if (fatal_signal_pending(current)) {
			err = -EINTR;
			break;
		}
		memset(rec, 0, reclen);
		gdp_fill_record(req, e, rec);
		if (at_end && i + 1 == st->nr)
			rec->flags |= GDP_REC_END;
		if (copy_to_user(ubuf + done, rec, reclen)) {
			err = -EFAULT;
			break;
		}
		done += reclen;
		pos = e->off;
		e = (const void *)e + GDP_STAGED_LEN(e->namelen);
		cond_resched();
	}
	/*
	 * Staged but not delivered (a fatal signal, or the buffer changed
	 * under us since the actor checked it): read again next time.
	 */
	if (i < st->nr)
		gdp_rewind(req->dir, pos, staged_end);
	/* The directory's own record alone is no progress: report why. */
	if (self_rec && i == 0 && st->nr)
		return err;
	return done ? (long)done : err;
}

/*
 * Read names until the staging stops or the filesystem has no more.  A
 * filesystem may return from one read before the end without being full
 * (FUSE reads a page of its daemon's entries at a time): ask again when
 * the end must be known (@want_end), and when all it offered were skipped
 * dots, so that a call returns 0 only at the end.  Bounded: a filesystem
 * that offers entries without moving on gets no end mark, not a loop.
 * Returns iterate_dir()'s result; *@at_end says whether the end was seen.
 */
static int gdp_stage_names(struct file *file, struct gdp_stage *st,
			   bool want_end, bool *at_end)
{
	int rounds = 8;
	int ret;

	ret = iterate_dir(file, &st->ctx);
	while (ret >= 0 && !st->stopped && st->seen &&
	       (want_end || !st->nr) && rounds-- > 0) {
		if (fatal_signal_pending(current))
			break;
		cond_resched();
		st->seen = 0;
		ret = iterate_dir(file, &st->ctx);
	}
	*at_end = ret >= 0 && !st->stopped && !st->seen;
	return ret;
}

static int gdp_check_args(size_t size, u32 mask, u32 flags)
{
	if (flags & ~GDP_FLAGS_ALL)
		return -EINVAL;
	if ((flags & GDP_STATX_FORCE_SYNC) && (flags & GDP_STATX_DONT_SYNC))
		return -EINVAL;
	if (mask & ~GDP_STATX_SUPPORTED)
		return -EINVAL;
	if (size < GETDENTSPLUS_ENTRY_MIN)
		return -EINVAL;
	return 0;
}

/*
 * Staging bytes for a request of @size: a staged entry takes at most
 * 27 + namelen bytes where its record takes at least 297 + namelen, so a
 * quarter of the request holds every batch whose names average up to 63
 * bytes (longer names end a batch early, never wrongly), and one entry of
 * any length always fits (its record fits in @size, or the call is EINVAL).
 */
static size_t gdp_stage_cap(size_t size)
{
	return clamp_t(size_t, size / 4,
		       min_t(size_t, size, GDP_STAGED_LEN(GDP_NAME_MAX)),
		       GDP_STAGE_MAX);
}

long gdp_getdentsplus(int dirfd, void __user *ubuf, size_t size,
		      u32 statx_mask, u32 flags)
{
	struct gdp_stage st = { .ctx.actor = gdp_stage_actor };
	struct gdp_req req = {
		.mask = statx_mask,
		.flags = flags,
	};
	struct getdentsplus_entry *rec, *self_rec = NULL;
	struct file *file;
	struct fd f;
	loff_t pos, staged_end;
	bool self, at_end;
	long ret;

	ret = gdp_check_args(size, statx_mask, flags);
	if (ret)
		return ret;
	size = min_t(size_t, size, GDP_SIZE_MAX);
	if (!access_ok(ubuf, size))
		return -EFAULT;

	if (flags & GDP_STATX_FORCE_SYNC)
		req.query_flags |= AT_STATX_FORCE_SYNC;
	if (flags & GDP_STATX_DONT_SYNC)
		req.query_flags |= AT_STATX_DONT_SYNC;

	/* fdget() refuses O_PATH files: EBADF, as for getdents64. */
	f = fdget(dirfd);
	file = fd_file(f);
	if (!file)
		return -EBADF;
	req.dir = file;
	ret = -EBADF;
	if (unlikely(file->f_mode & FMODE_PATH))
		goto err_fdput;
	ret = -ENOTDIR;
	if (!S_ISDIR(file_inode(file)->i_mode))
		goto err_fdput;

	/*
	 * What fdget_pos() does for getdents64, taken unconditionally, but
	 * killable, and before any allocation: tasks queued on one shared fd
	 * hold no buffers while they wait.
	 */
	if (mutex_lock_killable(&file->f_pos_lock)) {
		ret = -EINTR;
		goto err_fdput;
	}
	/*
	 * Sizes the caller chooses: a failure is the caller's ENOMEM, not a
	 * kernel warning with a stack trace (__GFP_NOWARN).
	 */
	ret = -ENOMEM;
	rec = kmalloc(min_t(size_t, size, GDP_RECLEN(GDP_NAME_MAX)),
		      GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (!rec)
		goto err_unlock;
	st.cap = gdp_stage_cap(size);
	st.buf = kvmalloc(st.cap, GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (!st.buf)
		goto err_free_rec;
	st.ubuf = ubuf;
	st.out_left = size;
	st.skip_dots = flags & GDP_SKIP_DOTS;
	pos = file->f_pos;
	/* The directory's own record takes the buffer's first bytes. */
	self = (flags & GDP_WANT_SELF) && pos == 0;
	if (self) {
		ret = -ENOMEM;
		self_rec = kzalloc(GDP_RECLEN(0), GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
		if (!self_rec)
			goto err_free_stage;
		/*
		 * Before the directory is read, as ls -R's fstat comes before
		 * its read: on NFS a READDIR invalidates the directory's cached
		 * atime, and a getattr after it would be a GETATTR round trip
		 * that fstat-then-getdents64 does not make.
		 */
		gdp_fill_self(&req, self_rec);
		ret = -EFAULT;
		if (clear_user(ubuf, GDP_RECLEN(0)))
			goto err_free_stage;
		st.out_used = GDP_RECLEN(0);
		st.out_left -= GDP_RECLEN(0);
	}
	gdp_dir_context_set_count(&st.ctx, st.out_left);
	get_fs_root(current->fs, &req.root);

	ret = gdp_stage_names(file, &st, flags & GDP_MARK_END, &at_end);
	if (st.last)
		st.last->off = st.ctx.pos;
	staged_end = file->f_pos;
	/*
	 * The position is settled: like getdents64, hold its lock only for
	 * the directory read.  The per-entry phase (lookups, getattr, each
	 * possibly a network round trip) must not block other users of the
	 * open file; everything it needs is staged or held (the file).
	 */
	mutex_unlock(&file->f_pos_lock);
	if (st.nr || (self && ret >= 0 && !st.error))
		ret = gdp_emit(&req, &st, rec, ubuf, pos, staged_end, self_rec,
			       at_end && (flags & GDP_MARK_END));
	else if (ret >= 0)
		ret = st.error;		/* 0 at end of directory */

	path_put(&req.root);
	kfree(self_rec);
	kvfree(st.buf);
	kfree(rec);
	fdput(f);
	return ret;

err_free_stage:
	kfree(self_rec);
	kvfree(st.buf);
err_free_rec:
	kfree(rec);
err_unlock:
	mutex_unlock(&file->f_pos_lock);
err_fdput:
	fdput(f);
	return ret;
}
