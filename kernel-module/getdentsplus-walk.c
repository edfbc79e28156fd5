// SPDX-License-Identifier: GPL-2.0
/*
 * The getdentsplus operation (ABI 5).
 *
 * One call, all of it under the file's position lock (f_pos_lock), as
 * getdents64 holds it for its whole call:
 *  1. check the arguments, take the fd and its position lock;
 *  2. GETDENTSPLUS_SELF at position 0: the directory's own record first
 *     (its getattr through the struct file, as fstat does);
 *  3. rounds, until the caller's buffer is full, the directory ends or a
 *     signal is pending: iterate_dir() with an actor that copies names
 *     into a staging buffer (allocated as entries arrive, at most what
 *     glibc's readdir asks getdents64 for, freed after the round; no
 *     lookup or getattr while the filesystem holds the directory
 *     locked) and pins the user pages under each record's place in the
 *     caller's buffer (a fault there is what filldir64 risks too); then
 *     for each staged name: resolve it with the kernel's own path walk
 *     (vfs_path_lookup() from the directory, one component: RCU walk
 *     first, mount crossing, automounts, ESTALE retry, all as in
 *     fstatat), vfs_getattr(), attribute bits, the record built in
 *     zeroed memory and written through the pinned pages (nothing can
 *     fail there: no fault after the read);
 *  4. the position is where the filesystem left it after the last staged
 *     entry: every staged entry is delivered, so nothing is rewound; a
 *     round that only found the end and still moved the position (btrfs
 *     moves it from INT_MAX to LLONG_MAX) gives back the position it
 *     started from, the last record's d_off, as getdents64 leaves it.
 *
 * What is never done: a rewind of the position by guess (the position is
 * consistent after every call, as getdents64's), a private walk (what
 * vfs_path_lookup() cannot answer as fstatat would, ".." and a symlink to
 * follow, is left to the caller: GDP_REC_UNRESOLVED), a per-entry error
 * code the syscall exit path would have turned into something else (only
 * ENOENT and EACCES go into a record; any other failure leaves the entry
 * to the caller, whose own fstatat gets it with restart semantics), and
 * memory proportional to the caller's buffer while the call may block.
 *
 * A pending signal ends the batch: the entries already staged are
 * delivered as GDP_REC_UNRESOLVED without further lookups, so the call
 * returns promptly, the position stays exact and the signal's handler
 * runs.  A batch ends early only before an entry the actor refused (a
 * full or unwritable buffer, a signal, the audit limit), where the
 * filesystem itself keeps its position, as for getdents64.  A buffer
 * unmapped by another thread during the call still receives its records
 * in the pages pinned for them; the position stays right.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/audit.h>
#include <linux/cred.h>
#include <linux/dcache.h>
#include <linux/dirent.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/error-injection.h>
#include <linux/fcntl.h>
#include <linux/highmem.h>
#include <linux/fs.h>
#include <linux/kdev_t.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/path.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sizes.h>
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

/*
 * User pages pinned for one round's records: the records of a round are
 * written through these pages, so once an entry is staged nothing can
 * keep its record from the caller (no fault after the read, no rewind).
 */
#define GDP_PIN_INLINE	16
#define GDP_PIN_MAX	128

/*
 * The smallest entry of a getdents64 buffer (a one-character name): a
 * filesystem that sizes its read by the hint in dir_context.count brings
 * at most count / GDP_DIRENT_MIN entries (FUSE's own are bigger).
 */
#define GDP_DIRENT_MIN	ALIGN(offsetof(struct linux_dirent64, d_name) + 2, 8)
#define GDP_DIRENT_LEN(namelen) \
	ALIGN(offsetof(struct linux_dirent64, d_name) + (namelen) + 1, 8)

/* One round of staging (see the top of the file). */
struct gdp_stage {
	struct dir_context ctx;
	char *buf;		/* NULL until the round's first entry */
	size_t used;
	size_t cap;
	size_t hint;		/* dir_context.count given for the round */
	size_t brought;		/* getdents64 bytes of the entries offered */
	struct getdentsplus_entry *rec;	/* one record is built here */
	size_t rec_cap;
	char __user *ubuf;	/* the caller's buffer */
	size_t out_used;	/* its bytes promised to records */
	size_t out_left;	/* user buffer bytes not yet promised */
	unsigned long pin_base;	/* user address of pages[0] (page aligned) */
	unsigned int npages;	/* pinned for this round */
	unsigned int pages_cap;	/* room in pages[] */
	struct page **pages;	/* pages_inline, or GDP_PIN_MAX allocated */
	struct page *pages_inline[GDP_PIN_INLINE];
	unsigned int nr;	/* entries staged in this round */
	unsigned int seen;	/* entries the filesystem offered, dots too */
	unsigned int budget;	/* entries this call may still take */
	bool delivered;		/* a record of an entry is already promised */
	struct gdp_staged *last;
	int error;		/* why the call's first entry could not be staged */
	bool skip_dots;		/* GDP_SKIP_DOTS */
	bool stopped;		/* the actor refused an entry: no end yet */
	bool batch_full;	/* ... and no further round may take it */
};

/* One request, as the per-entry code needs it. */
struct gdp_req {
	struct file *dir;	/* held for the whole call */
	u32 mask;
	u32 flags;
	unsigned int lookup_flags;	/* LOOKUP_* as fstatat() derives them */
	unsigned int query_flags;	/* AT_STATX_* for vfs_getattr() */
};

/* What the delivery of one call has done so far. */
struct gdp_out {
	size_t done;			/* bytes delivered */
	size_t last;			/* offset of the last record delivered */
	bool interrupted;		/* a signal: the rest is left to the caller */
};

/* gdp_resolve(): only the caller's own path walk can answer this entry. */
#define GDP_UNRESOLVED	1

/*
 * An audited task pins every name its lookups pass through getname (one
 * names_cache object, PATH_MAX bytes, until the call returns): at most
 * this many entries per call then, 1 MiB of names.
 */
#define GDP_AUDIT_MAX_ENTRIES	(SZ_1M / PATH_MAX)

/*
 * Whether this call's lookups pin their names: audit on and a rule that
 * applies to the caller (a syscall entry with audit off leaves a task's
 * context as it was, so the context alone does not say).
 */
static bool gdp_audited(void)
{
	return audit_enabled && !audit_dummy_context();
}

/*
 * The caller's bytes this round may still promise to records: its room,
 * within the pages one round pins.
 */
static size_t gdp_round_room(const struct gdp_stage *st)
{
	unsigned long at = (unsigned long)st->ubuf + st->out_used;
	unsigned long base = st->npages ? st->pin_base : (at & PAGE_MASK);

	return min_t(size_t, st->out_left, base + GDP_PIN_MAX * PAGE_SIZE - at);
}

/*
 * The filesystem's read-size hint (dir_context.count, where the kernel
 * has it): no more than this round can take.  Its records must fit what
 * the round may still promise (a record of a short name is the biggest
 * next to its getdents64 entry), its names the staging, and the audit
 * budget the entries: so a filesystem that sizes its read by the hint
 * (FUSE) never brings an entry the round would drop, which its next read
 * would have to fetch again.  GDP_STAGE_MAX at most: what getdents64
 * asks for GNU ls.
 */
static size_t gdp_hint(const struct gdp_stage *st)
{
	size_t entries = min_t(size_t, gdp_round_room(st) / GDP_RECLEN(1),
			       st->budget);
	size_t stage = GDP_STAGE_MAX - min_t(size_t, st->used, GDP_STAGE_MAX);

	return min(entries * GDP_DIRENT_MIN, stage);
}

static void gdp_stage_hint(struct gdp_stage *st)
{
	gdp_dir_context_set_count(&st->ctx, gdp_hint(st));
}

/* The actor refuses the entry: this round ends before it. */
static gdp_filldir_ret gdp_stage_stop(struct gdp_stage *st, bool batch_full)
{
	st->stopped = true;
	st->batch_full |= batch_full;
	return GDP_FILLDIR_STOP;
}

static bool gdp_name_is_dots(const char *name, int namelen)
{
	return name[0] == '.' &&
	       (namelen == 1 || (namelen == 2 && name[1] == '.'));
}

/*
 * Pin the caller's pages under the record place [@off, @off + @len) of
 * the user buffer (FOLL_WRITE: what a write there would fault in, and a
 * copy-on-write page broken now).  Returns 0, -EFAULT when the place is
 * not writable, or 1 when it needs more pages than a round pins (the
 * round ends; the next one starts with no page pinned).
 */
static int gdp_pin(struct gdp_stage *st, size_t off, size_t len)
{
	unsigned long start = (unsigned long)st->ubuf + off;
	unsigned long end = start + len - 1;
	unsigned int want;
	int got;

	if (!st->npages)
		st->pin_base = start & PAGE_MASK;
	want = ((end - st->pin_base) >> PAGE_SHIFT) + 1;
	if (want <= st->npages)
		return 0;
	if (want > GDP_PIN_MAX)
		return 1;
	if (want > st->pages_cap) {
		struct page **pages = kmalloc_array(GDP_PIN_MAX, sizeof(*pages),
						    GFP_KERNEL_ACCOUNT |
						    __GFP_NOWARN);

		if (!pages)
			return 1;
		memcpy(pages, st->pages, st->npages * sizeof(*pages));
		st->pages = pages;
		st->pages_cap = GDP_PIN_MAX;
	}
	got = pin_user_pages_fast(st->pin_base + st->npages * PAGE_SIZE,
				  want - st->npages, FOLL_WRITE,
				  st->pages + st->npages);
	if (got > 0)
		st->npages += got;
	return st->npages < want ? -EFAULT : 0;
}

/*
 * End a round: unpin its pages (what was written there is the caller's)
 * and free its staging, so that the next directory read holds neither.
 */
static void gdp_end_round(struct gdp_stage *st)
{
	if (st->npages)
		unpin_user_pages_dirty_lock(st->pages, st->npages, true);
	st->npages = 0;
	if (st->pages != st->pages_inline) {
		kfree(st->pages);
		st->pages = st->pages_inline;
		st->pages_cap = GDP_PIN_INLINE;
	}
	kvfree(st->buf);
	st->buf = NULL;
	st->cap = 0;
	st->used = 0;
}

/* Copy @len bytes to the pinned user buffer at offset @off. */
static void gdp_copy_out(struct gdp_stage *st, size_t off, const void *src,
			 size_t len)
{
	unsigned long at = (unsigned long)st->ubuf + off - st->pin_base;

	while (len) {
		size_t po = offset_in_page(at);
		size_t n = min_t(size_t, len, PAGE_SIZE - po);
		char *k = kmap_local_page(st->pages[at >> PAGE_SHIFT]);

		memcpy(k + po, src, n);
		kunmap_local(k);
		src += n;
		at += n;
		len -= n;
	}
}

/*
 * @old (*@cap bytes, contents not kept) or, when @need is more, a new
 * buffer of @need bytes in its place (@old freed, *@cap updated); NULL
 * when that fails (@old kept).  For the record scratch, for a record of
 * a name longer than NAME_MAX (only some filesystems have them).  Called
 * by the actor, where a failure ends the round.
 */
static void *gdp_grow(void *old, size_t *cap, size_t need)
{
	void *bigger;

	if (need <= *cap)
		return old;
	bigger = kmalloc(need, GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (!bigger)
		return NULL;
	kfree(old);
	*cap = need;
	return bigger;
}

/*
 * Room for @need more staged bytes: the staging doubled (GDP_STAGE_CHUNK
 * to start with, up to GDP_STAGE_MAX, or exactly one long name), its
 * entries kept.  Returns 0, or -ENOMEM with the staging as it was.
 */
static int gdp_stage_grow(struct gdp_stage *st, size_t need)
{
	size_t cap = max_t(size_t, st->used + need,
			   clamp_t(size_t, 2 * st->cap, GDP_STAGE_CHUNK,
				   GDP_STAGE_MAX));
	char *buf = kvmalloc(cap, GFP_KERNEL_ACCOUNT | __GFP_NOWARN);

	if (!buf)
		return -ENOMEM;
	if (st->used)
		memcpy(buf, st->buf, st->used);
	if (st->last)
		st->last = (void *)(buf + ((char *)st->last - st->buf));
	kvfree(st->buf);
	st->buf = buf;
	st->cap = cap;
	return 0;
}

static gdp_filldir_ret gdp_stage_actor(struct dir_context *ctx,
				       const char *name, int namelen,
				       loff_t offset, u64 ino,
				       unsigned int d_type)
{
	struct gdp_stage *st = container_of(ctx, struct gdp_stage, ctx);
	bool first = !st->nr && !st->delivered;
	struct getdentsplus_entry *rec;
	struct gdp_staged *e;
	size_t need, reclen;

	st->seen++;
	st->brought += GDP_DIRENT_LEN(namelen);
	/* Like getdents64: an entry's d_off is where the next one starts. */
	if (st->last)
		st->last->off = offset;

	/*
	 * A skipped dot leaves the previous record's d_off at the dot, as
	 * getdents64 does; resuming there reads the dot again and skips it.
	 * The next entry must not move that d_off past the dot (ext4 reads
	 * a one-block directory in hash order, dots anywhere).
	 */
	if (st->skip_dots && gdp_name_is_dots(name, namelen)) {
		st->last = NULL;
		return GDP_FILLDIR_CONTINUE;
	}

	/* What getdents64's verify_dirent_name() refuses, with its -EIO. */
	if (unlikely(namelen <= 0 || namelen > GDP_NAME_MAX ||
		     memchr(name, '/', namelen))) {
		if (first)
			st->error = -EIO;
		return gdp_stage_stop(st, true);
	}
	reclen = GDP_RECLEN(namelen);
	if (reclen > st->out_left) {
		if (first)
			st->error = -EINVAL;
		return gdp_stage_stop(st, true);
	}
	if (!st->budget || (!first && signal_pending(current)))
		return gdp_stage_stop(st, true);
	need = GDP_STAGED_LEN(namelen);
	if (need > st->cap - st->used) {
		if (st->nr && st->used + need > GDP_STAGE_MAX)
			return gdp_stage_stop(st, false);
		if (gdp_stage_grow(st, need)) {
			if (st->nr)
				return gdp_stage_stop(st, false);
			goto nomem;
		}
	}
	rec = gdp_grow(st->rec, &st->rec_cap, reclen);
	if (!rec)
		goto nomem;
	st->rec = rec;
	/*
	 * The record's place is pinned before the entry is taken: a bad
	 * buffer ends the batch here, where the filesystem keeps its
	 * position, and once taken the record cannot fail to arrive.  A
	 * page fault here is what filldir64 risks too.
	 */
	switch (gdp_pin(st, st->out_used, reclen)) {
	case 0:
		break;
	case 1:
		return gdp_stage_stop(st, false);
	default:
		if (first)
			st->error = -EFAULT;
		return gdp_stage_stop(st, true);
	}

	e = (struct gdp_staged *)(st->buf + st->used);
	e->ino = ino;
	e->off = offset;	/* fixed by the next entry or the round's end */
	e->namelen = namelen;
	e->type = d_type & 15;	/* high bits may carry FILLDIR_FLAG_* */
	memcpy(e->name, name, namelen);
	e->name[namelen] = '\0';

	st->used += need;
	st->out_used += reclen;
	st->out_left -= reclen;
	st->nr++;
	st->budget--;
	st->last = e;
	gdp_stage_hint(st);
	return GDP_FILLDIR_CONTINUE;
nomem:
	if (first)
		st->error = -ENOMEM;
	return gdp_stage_stop(st, true);
}

/*
 * What fstatat(dirfd, name, flags) would stat, with the caller's
 * permissions, by the kernel's own walk: vfs_path_lookup() of the one
 * component from the directory's path (MAY_EXEC on the directory, RCU
 * walk then ref walk, ->d_revalidate, mount crossing, automount unless
 * AT_NO_AUTOMOUNT, mount traps, an ESTALE retry with LOOKUP_REVAL).  Two
 * cases would differ from the caller's fstatat, because the walk starts
 * at the directory as its root: ".." (the walk stays at its root) and a
 * symlink to follow (an absolute target, or one climbing out, would
 * resolve from the directory).  Those are GDP_UNRESOLVED: the caller
 * stats them itself.  No symlink is followed here at all: a symlink
 * mounted on a name, or on what a mount crossing reaches, is seen after
 * the crossing, where fstatat would follow it.  Returns 0 with @path
 * held, GDP_UNRESOLVED, or -errno.
 */
static int gdp_resolve(const struct gdp_req *req, const struct gdp_staged *e,
		       unsigned int lookup_flags, struct path *path)
{
	const struct path *dir = &req->dir->f_path;
	int err;

	if (e->namelen == 2 && e->name[0] == '.' && e->name[1] == '.')
		return GDP_UNRESOLVED;
	err = vfs_path_lookup(dir->dentry, dir->mnt, e->name, lookup_flags,
			      path);
	if (err)
		return err;
	if ((req->flags & AT_SYMLINK_FOLLOW) && d_is_symlink(path->dentry)) {
		path_put(path);
		return GDP_UNRESOLVED;
	}
	return 0;
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
 * record.  Returns 0 otherwise.  noipa, not just noinline: the compiler
 * must not propagate the constant 0 into the caller and drop the check
 * the injected value goes through.
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

/* The header every record of @e carries (already zeroed, reclen bytes). */
static void gdp_fill_header(const struct gdp_staged *e,
			    struct getdentsplus_entry *rec)
{
	rec->d_ino = e->ino;
	rec->d_off = e->off;
	rec->reclen = GDP_RECLEN(e->namelen);
	rec->namelen = e->namelen;
	rec->d_type = e->type;
	rec->name_off = GDP_REC_HDR;
	memcpy(rec->name, e->name, e->namelen);
	rec->attr_unknown = GDP_ATTR_ALL;
}

/*
 * Lookup and getattr of one entry, retried once with LOOKUP_REVAL on
 * ESTALE as vfs_statx() retries (retry_estale()).  Returns 0 with @ks and
 * @path filled (@path held), GDP_UNRESOLVED, or -errno.
 */
static int gdp_stat_entry(const struct gdp_req *req,
			  const struct gdp_staged *e, struct path *path,
			  struct kstat *ks)
{
	unsigned int lookup_flags = req->lookup_flags;
	int err;

retry:
	err = gdp_resolve(req, e, lookup_flags, path);
	if (err)
		return err;
	err = gdp_entry_fault(path);
	if (!err) {
		memset(ks, 0, sizeof(*ks));
		err = vfs_getattr(path, ks, req->mask, req->query_flags);
	}
	if (!err)
		return 0;
	path_put(path);
	if (retry_estale(err, lookup_flags)) {
		lookup_flags |= LOOKUP_REVAL;
		goto retry;
	}
	return err;
}

/*
 * Fill one record (already zeroed, reclen bytes).  An entry that vanished
 * (ENOENT) or may not be searched (EACCES) says so in rec->error; any
 * other failure (EINTR, ENOMEM, EIO, ...) leaves the entry to the caller
 * (GDP_REC_UNRESOLVED), whose fstatat reports it through the syscall
 * return path, restarts included.
 */
static void gdp_fill_record(const struct gdp_req *req,
			    const struct gdp_staged *e,
			    struct getdentsplus_entry *rec)
{
	struct path path;
	struct kstat ks;
	int err;

	gdp_fill_header(e, rec);
	err = gdp_stat_entry(req, e, &path, &ks);
	if (err == -ENOENT || err == -EACCES) {
		rec->error = -err;
		return;
	}
	if (err) {
		/* stx and attr stay zero, every bit unknown: see the header. */
		rec->flags = GDP_REC_UNRESOLVED;
		return;
	}
	gdp_fill_statx(&rec->stx, &ks, &path);
	gdp_attr_fill(&path, ks.mode, req->flags, &rec->attr,
		      &rec->attr_unknown);
	path_put(&path);
}

/*
 * Fill the record of the directory itself (GDP_WANT_SELF; already zeroed,
 * GDP_RECLEN(0) bytes): what fstat() of the fd returns, which needs no
 * permission, so neither does this.  Returns false when there is no such
 * record: a failure other than ENOENT or EACCES is the caller's fstat's
 * to report.
 */
static bool gdp_fill_self(const struct gdp_req *req,
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
	if (err == -ENOENT || err == -EACCES) {
		rec->error = -err;
		return true;
	}
	if (err)
		return false;
	gdp_fill_statx(&rec->stx, &ks, path);
	gdp_attr_fill(path, ks.mode, req->flags, &rec->attr,
		      &rec->attr_unknown);
	return true;
}

/*
 * Deliver the entries staged in one round, through the round's pinned
 * pages: nothing can fail here, so every staged entry arrives and the
 * position the filesystem left is right.  Once a signal is pending, the
 * rest of the round is delivered without lookups (GDP_REC_UNRESOLVED), so
 * the call returns promptly.
 */
static void gdp_emit_round(const struct gdp_req *req, struct gdp_stage *st,
			   struct gdp_out *out)
{
	const struct gdp_staged *e = (const struct gdp_staged *)st->buf;
	struct getdentsplus_entry *rec = st->rec;
	unsigned int i;

	for (i = 0; i < st->nr; i++) {
		size_t reclen = GDP_RECLEN(e->namelen);

		if (out->done && !out->interrupted && signal_pending(current))
			out->interrupted = true;
		memset(rec, 0, reclen);
		if (out->interrupted) {
			gdp_fill_header(e, rec);
			rec->flags = GDP_REC_UNRESOLVED;
		} else {
			gdp_fill_record(req, e, rec);
		}
		gdp_copy_out(st, out->done, rec, reclen);
		out->last = out->done;
		out->done += reclen;
		e = (const void *)e + GDP_STAGED_LEN(e->namelen);
		cond_resched();
	}
}

/*
 * The request flags of ABI 4 and earlier (no GDP_AT_FLAGS), in the layout
 * of ABI 5: each old bit has exactly one new one.
 */
static const struct {
	u32 v4, at;
} gdp_v4_flags[] = {
	{ GDP_V4_FOLLOW,		AT_SYMLINK_FOLLOW },
	{ GDP_V4_NO_AUTOMOUNT,		AT_NO_AUTOMOUNT },
	{ GDP_V4_STATX_FORCE_SYNC,	AT_STATX_FORCE_SYNC },
	{ GDP_V4_STATX_DONT_SYNC,	AT_STATX_DONT_SYNC },
	{ GDP_V4_WANT_ACL,		GDP_WANT_ACL },
	{ GDP_V4_WANT_LABEL,		GDP_WANT_LABEL },
	{ GDP_V4_WANT_CAP,		GDP_WANT_CAP },
	{ GDP_V4_ATTR_CACHED,		GDP_ATTR_CACHED },
	{ GDP_V4_SKIP_DOTS,		GDP_SKIP_DOTS },
	{ GDP_V4_WANT_SELF,		GDP_WANT_SELF },
	{ GDP_V4_MARK_END,		GDP_MARK_END },
};

/*
 * Check the arguments and give the request flags in the layout of ABI 5
 * (see the uapi header): an old request is translated, an unknown bit in
 * either layout is EINVAL.
 */
static int gdp_check_args(size_t size, u32 mask, u32 *flags)
{
	u32 f = *flags;
	unsigned int i;

	BUILD_BUG_ON(GDP_AT_ALL != (AT_SYMLINK_FOLLOW | AT_NO_AUTOMOUNT |
				    AT_STATX_SYNC_TYPE));
	BUILD_BUG_ON(GDP_FLAGS_ALL & (AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH));
	if (!(f & GDP_AT_FLAGS)) {
		if (f & ~GDP_V4_FLAGS_ALL)
			return -EINVAL;
		*flags = 0;
		for (i = 0; i < ARRAY_SIZE(gdp_v4_flags); i++)
			if (f & gdp_v4_flags[i].v4)
				*flags |= gdp_v4_flags[i].at;
		f = *flags;
	}
	if (f & ~GDP_FLAGS_ALL)
		return -EINVAL;
	if ((f & AT_STATX_SYNC_TYPE) == AT_STATX_SYNC_TYPE)
		return -EINVAL;
	if (mask & ~GDP_STATX_SUPPORTED)
		return -EINVAL;
	if (size < GETDENTSPLUS_ENTRY_MIN)
		return -EINVAL;
	return 0;
}

/*
 * The rounds of one call (see the top of the file), after the directory's
 * own record if any.  Reads while the caller's buffer has room: a
 * filesystem that returns from one read before its end (FUSE reads a page
 * of its daemon's entries at a time) is asked again, as the caller's next
 * getdents64 would ask it, so a listing makes no more reads than
 * getdents64's.  A round that offered only skipped dots does not count
 * towards the bound on rounds without progress (a filesystem that offers
 * entries without moving on ends the batch, without an end mark).
 * Returns what iterate_dir() last returned; *@at_end says whether the
 * end of the directory was seen.  The round that finds the end after
 * records were delivered is the read the caller's next getdents64
 * would make: if it moved the position, the position it started from
 * (the last record's d_off) is put back, so that the position after
 * the call is the last d_off, as after getdents64 (btrfs marks its end
 * by moving from INT_MAX to LLONG_MAX on that read).  A call with a
 * buffer for a full read that has no room left for another read as big
 * as the last ends without the mark: the caller's next call asks with
 * its whole buffer.
 */
static int gdp_rounds(const struct gdp_req *req, struct gdp_stage *st,
		      struct gdp_out *out, bool *at_end)
{
	struct file *file = req->dir;
	size_t full = 0;
	int idle = 8;
	loff_t pos;
	int ret;

	*at_end = false;
	for (;;) {
		st->used = 0;
		st->nr = 0;
		st->seen = 0;
		st->brought = 0;
		st->last = NULL;
		st->stopped = false;
		st->hint = gdp_hint(st);
		if (!full)
			full = st->hint >= GDP_STAGE_MAX ? GDP_STAGE_MAX : 1;
		gdp_stage_hint(st);
		pos = file->f_pos;
		ret = iterate_dir(file, &st->ctx);
		if (st->last)
			st->last->off = st->ctx.pos;
		if (st->nr) {
			gdp_emit_round(req, st, out);
			st->delivered = true;
		}
		gdp_end_round(st);
		if (ret < 0 || st->batch_full || out->interrupted)
			break;
		if (!st->stopped && !st->seen) {
			*at_end = true;
			if (ret >= 0 && st->delivered && file->f_pos != pos)
				file->f_pos = pos;
			break;
		}
		/*
		 * A buffer that took a full read (GDP_STAGE_MAX): another
		 * read only where it asks as much as the filesystem gave this
		 * one (all of the hint when the round refused an entry), as a
		 * smaller read would cost a listing more reads than
		 * getdents64's with glibc's buffer.  A filesystem that gives
		 * little per read (FUSE on kernels that ask it one page, a
		 * daemon answering a few entries) is asked again, as
		 * getdents64 would ask it.  A smaller buffer is read while it
		 * has room, as getdents64 reads one of its size.
		 */
		if (full == GDP_STAGE_MAX &&
		    gdp_hint(st) < min_t(size_t, GDP_STAGE_MAX,
					 st->stopped ? st->hint : st->brought))
			break;
		if (!st->nr && !--idle)
			break;
		if (signal_pending(current))
			break;
		cond_resched();
	}
	return ret;
}

long gdp_getdentsplus(int dirfd, void __user *ubuf, size_t size,
		      u32 statx_mask, u32 flags)
{
	struct gdp_stage st = { .ctx.actor = gdp_stage_actor };
	struct gdp_req req = {
		.mask = statx_mask,
	};
	struct gdp_out out = { };
	struct file *file;
	struct fd f;
	bool at_end;
	long ret;

	ret = gdp_check_args(size, statx_mask, &flags);
	if (ret)
		return ret;
	req.flags = flags;
	size = min_t(size_t, size, GDP_SIZE_MAX);
	if (!access_ok(ubuf, size))
		return -EFAULT;

	/*
	 * As fstatat() derives them from AT_NO_AUTOMOUNT (no symlink is
	 * followed here: see gdp_resolve()).
	 */
	if (!(flags & AT_NO_AUTOMOUNT))
		req.lookup_flags |= LOOKUP_AUTOMOUNT;
	req.query_flags = flags & AT_STATX_SYNC_TYPE;

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
	 * What fdget_pos() does for getdents64, taken unconditionally (the
	 * module cannot call it), killable, and held for the whole call:
	 * the position is consistent after every call, and only users of
	 * the same open file wait, as they wait for getdents64.
	 */
	if (mutex_lock_killable(&file->f_pos_lock)) {
		ret = -EINTR;
		goto err_fdput;
	}
	/*
	 * A small, fixed size, whatever the caller's buffer: a call blocked
	 * in the directory read holds this and nothing more (the staging
	 * and the pinned pages exist between a read and its records).
	 */
	ret = -ENOMEM;
	st.rec_cap = GDP_RECLEN(NAME_MAX);
	st.rec = kmalloc(st.rec_cap, GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (!st.rec)
		goto err_unlock;
	st.pages = st.pages_inline;
	st.pages_cap = GDP_PIN_INLINE;
	st.ubuf = ubuf;
	st.out_left = size;
	st.skip_dots = flags & GDP_SKIP_DOTS;
	st.budget = gdp_audited() ? GDP_AUDIT_MAX_ENTRIES : UINT_MAX;

	/*
	 * The directory's own record takes the buffer's first bytes.  Taken
	 * before the directory is read, as ls -R's fstat comes before its
	 * read: on NFS a READDIR invalidates the directory's cached atime,
	 * and a getattr after it would be a GETATTR round trip that
	 * fstat-then-getdents64 does not make.
	 */
	if ((flags & GDP_WANT_SELF) && file->f_pos == 0) {
		memset(st.rec, 0, GDP_RECLEN(0));
		if (gdp_fill_self(&req, st.rec)) {
			ret = -EFAULT;
			if (copy_to_user(ubuf, st.rec, GDP_RECLEN(0)))
				goto err_free_rec;
			out.done = GDP_RECLEN(0);
			st.out_used = out.done;
			st.out_left -= out.done;
		}
	}

	ret = gdp_rounds(&req, &st, &out, &at_end);
	/*
	 * The directory's own record alone is no progress when entries
	 * were there to read: report why (the position is still 0).
	 */
	if (out.done && !st.delivered && !at_end && (ret < 0 || st.error))
		out.done = 0;
	if (out.done) {
		/*
		 * The end is known only after the last round: mark the last
		 * record in place.  Its page is no longer pinned, so a buffer
		 * unmapped meanwhile just leaves it unmarked (allowed).
		 */
		if (at_end && (flags & GDP_MARK_END)) {
			struct getdentsplus_entry __user *last =
				(void __user *)((char __user *)ubuf + out.last);
			u8 fl;

			if (!get_user(fl, &last->flags))
				put_user(fl | GDP_REC_END, &last->flags);
		}
		ret = out.done;
	} else if (ret >= 0) {
		ret = st.error;		/* 0 at end of directory */
	}

	mutex_unlock(&file->f_pos_lock);
	kfree(st.rec);
	fdput(f);
	return ret;

err_free_rec:
	kfree(st.rec);
err_unlock:
	mutex_unlock(&file->f_pos_lock);
err_fdput:
	fdput(f);
	return ret;
}
