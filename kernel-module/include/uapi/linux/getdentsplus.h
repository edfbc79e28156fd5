/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * getdentsplus: read a batch of directory entries together with their stat
 * data and attribute-presence bits in one call.
 *
 * This is the only copy of the ABI.  The kernel module, lib/dirplus and the
 * tests all include it.  Fixed-width types only: the layout is the same for
 * 32- and 64-bit callers.
 *
 *   long getdentsplus(int dirfd, void *buf, size_t size,
 *                     unsigned int statx_mask, unsigned int flags);
 *
 * Returns the number of bytes written to buf (a sequence of struct
 * getdentsplus_entry records), 0 at end of directory, or -1 with errno.
 * Reading resumes through the file position exactly like getdents64(2):
 * after a call, the position is the d_off of the last record returned, so
 * getdents64, lseek and getdentsplus may be interleaved on the same fd.
 *
 * Position (ABI 4): like getdents64, the call holds the open file's
 * position lock for its whole duration, lookups and getattr included,
 * and moves the position once, to the d_off of the last record it
 * returns: the position is consistent after every call, whatever other
 * users of the same open file do.  They wait for the call, as they wait
 * for getdents64 on a slow filesystem; users of other open files of the
 * same directory never do.  Every entry read from the directory is
 * returned, and nothing is rewound: the place of each record is pinned
 * in the caller's buffer before its entry is taken (an unwritable
 * buffer ends the batch there, where the filesystem keeps its position),
 * and a pending signal turns the rest of the batch into
 * GDP_REC_UNRESOLVED records instead of dropping it.
 *
 * Each record is what fstatat(dirfd, name, flags) from the caller gives:
 * the name is resolved by the kernel's own path walk from the directory
 * (permission to search it, mount crossing, automount unless
 * AT_NO_AUTOMOUNT, ESTALE retried as statx retries it).  The two cases
 * that walk cannot answer as the caller's would, ".." and a symlink to
 * follow under AT_SYMLINK_FOLLOW, are GDP_REC_UNRESOLVED.
 *
 * Errors for the call as a whole: EBADF (bad or O_PATH fd), ENOTDIR,
 * EINVAL (unknown flag or mask bits, both sync flags, nonzero __reserved,
 * size below GETDENTSPLUS_ENTRY_MIN, or the next entry's record does not
 * fit and nothing was delivered yet), EFAULT (buffer not writable; the
 * position is left at the first entry that was not delivered), EINTR
 * (fatal signal before any record), ENOMEM, or the directory read's own
 * error (e.g. EIO, ENOENT for a removed directory) when no entry was read.
 * Once some records are delivered, a later fault or signal just ends the
 * batch: the call returns their bytes.  Per-entry failures never fail the
 * call.  Two are reported in the record's "error" field, with stx and
 * attr all zero: ENOENT (the name vanished since the directory was read)
 * and EACCES (no search permission on the directory).  Any other failure
 * of an entry (EINTR, ENOMEM, EIO, ESTALE after its retry, ...) makes the
 * record GDP_REC_UNRESOLVED: the caller's own fstatat then reports it
 * through the system call's return, with its restart semantics.  Kernel
 * memory held by a call does not depend on the buffer size: blocked in
 * the directory read it holds one record's scratch (and the filesystem
 * what it holds for getdents64); between a read and its records, the
 * names of that read (at most 32 KiB) and a pin on the caller's pages
 * under their records (at most 512 KiB of its own buffer).
 * An audited task (an audit rule matching the caller) gets at most 256
 * entries per call: each lookup pins its name (one page) until the call
 * returns, at most 1 MiB.
 *
 * The syscall number is not fixed: the module picks a free slot of the
 * x86-64 table and publishes it in /sys/module/getdentsplus/parameters/nr
 * (0 there: the syscall is not available, use the ioctl).  The number is
 * for the native 64-bit ABI only (x86-64, arm64): the same number is a
 * different system call for 32-bit callers (423 is
 * sched_rr_get_interval_time64 on i386 and arm), and x32 callers never
 * reach it.  32-bit and x32 programs use the ioctl.
 * The same operation is available as GETDENTSPLUS_IOC on /dev/getdentsplus
 * (absent when the module was loaded with device=0), from every ABI.
 * A call through the syscall may fail with ENOSYS at any time (kprobes
 * disabled system-wide, the module unloaded): fall back per call.
 *
 * Discovery without trial calls: GETDENTSPLUS_ABI_PATH holds the ABI
 * version (GETDENTSPLUS_ABI_VERSION of the module; missing: version 1),
 * GETDENTSPLUS_FLAGS_PATH the request flags the module accepts and
 * GETDENTSPLUS_MASK_PATH the statx_mask bits (both hexadecimal; missing:
 * 0xff and STATX_BASIC_STATS | STATX_BTIME; the flags are in the layout
 * of the module's version, see "Request flags").  Pass only flags listed
 * there: an unknown flag is EINVAL, as is a buffer too small for the
 * next record, so EINVAL cannot tell the two apart.
 *
 * Versions.  2 added the record's flags and name_off (both zero padding
 * in version 1), GDP_REC_UNRESOLVED, the sysfs files above and the _IOW
 * spelling of the ioctl (version 1's _IOWR number is still accepted).
 * 3 added GDP_WANT_SELF and GDP_MARK_END with their record flags
 * GDP_REC_SELF and GDP_REC_END (set only for a caller that asks).
 * 4 kept the request and record layouts and changed the rules: the
 * position lock is held for the whole call (see "Position"), names are
 * resolved by the kernel's walk (automount points are mounted unless
 * GDP_V4_NO_AUTOMOUNT, as fstatat does; ".." is GDP_REC_UNRESOLVED), only
 * ENOENT and EACCES reach a record's error, a signal ends a batch with
 * GDP_REC_UNRESOLVED records, GDP_ATTR_CACHED means "no call into the
 * filesystem" and applies only when asked (no list of remote filesystem
 * types any more: the caller asks for it where a read is a round trip),
 * and the self record is left out when its getattr fails other than
 * with ENOENT or EACCES (then fstat(2) the fd).
 * 5 moved the request flags to the AT_* layout (GDP_AT_FLAGS); the
 * layout of 4 and earlier (GDP_V4_*) is still accepted, and means what
 * it meant in version 4.
 * A version 3 or 4 caller lists correctly on it (every rule change shows
 * as a record it already handles; it reads the flags file in its own
 * layout, which costs it at most GDP_V4_SKIP_DOTS); on a remote
 * filesystem it gets the
 * attribute bits the slow way (read by the kernel, one entry at a time).
 * A newer module never changes what an older caller reads: a record
 * grows only for a request flag that asks for the new fields, which an
 * older caller does not pass.  A newer caller meeting an older module
 * reads the version from sysfs and uses what that version offers.
 */
#ifndef _UAPI_LINUX_GETDENTSPLUS_H
#define _UAPI_LINUX_GETDENTSPLUS_H

#include <linux/types.h>
#include <linux/ioctl.h>
#include <linux/stat.h>		/* struct statx, STATX_* */

#define GETDENTSPLUS_ABI_VERSION	5

/*
 * Request flags (ABI 5).  Where fstatat(2) and statx(2) have a flag for
 * the same thing, it is their AT_* flag, with its value (<fcntl.h> with
 * _GNU_SOURCE, or <linux/fcntl.h>; this header includes neither):
 *   AT_SYMLINK_FOLLOW	stat a symlink's target, not the link; the default
 *			is not to follow, as for linkat(2) and
 *			name_to_handle_at(2), the calls that spell
 *			"follow" this way
 *   AT_NO_AUTOMOUNT	do not mount an automount point (fstatat(2))
 *   AT_STATX_FORCE_SYNC, AT_STATX_DONT_SYNC
 *			as statx(2); both at once: EINVAL
 * The flags of this call alone take the bits <fcntl.h> reserves for flags
 * of one system call (0xff).  GDP_AT_FLAGS says that the request is in
 * this layout: the module also takes requests of ABI 4 and earlier
 * (GDP_V4_* below, no GDP_AT_FLAGS) from callers built before it, so it
 * must tell the two apart.  Every other bit (AT_SYMLINK_NOFOLLOW and
 * AT_EMPTY_PATH included: not following is the default, and the
 * directory itself is GDP_WANT_SELF) fails with EINVAL.
 */
#define GDP_ATTR_CACHED		0x0001	/* attribute bits without the fs */
#define GDP_SKIP_DOTS		0x0002	/* leave out "." and ".." */
#define GDP_WANT_SELF		0x0004	/* the directory's own record first */
#define GDP_MARK_END		0x0008	/* mark the directory's last record */
#define GDP_WANT_ACL		0x0010	/* compute GDP_ATTR_ACL_ACCESS/DEFAULT */
#define GDP_WANT_LABEL		0x0020	/* compute GDP_ATTR_LABEL */
#define GDP_WANT_CAP		0x0040	/* compute GDP_ATTR_CAP */
#define GDP_AT_FLAGS		0x80000000u /* the request is in this layout */
/* AT_SYMLINK_FOLLOW | AT_NO_AUTOMOUNT | AT_STATX_FORCE_SYNC | _DONT_SYNC */
#define GDP_AT_ALL		0x6c00
#define GDP_FLAGS_ALL		(GDP_AT_FLAGS | GDP_AT_ALL | 0x007f)

/*
 * The layout of ABI 1 to 4, still accepted without GDP_AT_FLAGS.  A
 * module of those versions takes only this one, and publishes its
 * accepted flags (GETDENTSPLUS_FLAGS_PATH) in it.
 */
#define GDP_V4_FOLLOW		0x0001	/* AT_SYMLINK_FOLLOW */
#define GDP_V4_NO_AUTOMOUNT	0x0002	/* AT_NO_AUTOMOUNT */
#define GDP_V4_STATX_FORCE_SYNC	0x0004	/* AT_STATX_FORCE_SYNC */
#define GDP_V4_STATX_DONT_SYNC	0x0008	/* AT_STATX_DONT_SYNC */
#define GDP_V4_WANT_ACL		0x0010
#define GDP_V4_WANT_LABEL	0x0020
#define GDP_V4_WANT_CAP		0x0040
#define GDP_V4_ATTR_CACHED	0x0080
#define GDP_V4_SKIP_DOTS	0x0100
#define GDP_V4_WANT_SELF	0x0200	/* v3 */
#define GDP_V4_MARK_END		0x0400	/* v3 */
#define GDP_V4_FLAGS_ALL	0x07ff
/*
 * GDP_SKIP_DOTS: "." and ".." are neither returned nor looked up, stat'ed
 * or probed (a caller that drops them, like ls without -a, would only
 * pay for them: on NFSv4 the stat of a directory just read is a GETATTR
 * round trip).  The file position still moves past them.
 */
/*
 * GDP_WANT_SELF: a call that starts at the beginning of the directory
 * (file position 0) first returns a record for the directory itself:
 * GDP_REC_SELF in flags, namelen 0 and an empty name, d_type DT_DIR,
 * d_ino the directory's inode number, d_off 0 (resuming there reads the
 * directory again from its start), and in stx and attr what fstat(2) of
 * the fd and the attribute rules below give (ENOENT or EACCES in error,
 * as for any entry; after any other failure the record is left out:
 * fstat(2) the fd to see it).  It spares a reader that needs the directory's own stat
 * (ls -R: device and inode, to detect loops) an fstat(2); it is taken
 * before the directory is read, as that fstat would be.  The buffer
 * must hold it and the first entry (else EINVAL, as for one entry, and
 * like getdents64 the failed call may leave the position on that entry:
 * seek to 0 to ask again); a call at any other position returns no
 * such record.
 *
 * GDP_MARK_END: when the call read the directory to its end, the last
 * record it returns carries GDP_REC_END: the next call would return 0
 * (unless entries are created meanwhile), so the caller need not make
 * it.  A call reads the directory while its buffer has room (a
 * filesystem that reads a directory a part at a time is asked again,
 * as the next getdents64 would ask it), with or without the flag: the
 * mark never costs a read that getdents64 would not make.  Each read
 * asks the filesystem (dir_context.count, for those that size a read
 * by it, like FUSE) for no more entries than the buffer can take, and
 * at most what glibc's readdir asks getdents64 for (32 KiB).  A buffer
 * that takes such a full read (512 KiB does for any names) is read
 * again only when it can take as much as the filesystem gave the last
 * read: a listing then makes no more directory reads than getdents64
 * with glibc's buffer.  A smaller buffer is read while it has room, as
 * getdents64 reads one of its size.  A batch ended early (a full
 * buffer, a signal, a fault, no room for another read as big) carries
 * no mark.  A
 * call returning 0 still means the end, also under GDP_SKIP_DOTS.
 */

/*
 * statx_mask bits accepted (any other bit: EINVAL).  As with statx(2) the
 * mask is a request: stx.stx_mask says what was actually filled, and may
 * hold basic fields that were not asked for.  STATX_MNT_ID is not offered
 * (a module cannot read the mount id).
 */
#define GDP_STATX_SUPPORTED	(STATX_BASIC_STATS | STATX_BTIME)

/* Attribute bits of an entry (both in attr and attr_unknown). */
#define GDP_ATTR_ACL_ACCESS	0x0001	/* system.posix_acl_access, size > 0 */
#define GDP_ATTR_ACL_DEFAULT	0x0002	/* system.posix_acl_default exists (dirs) */
#define GDP_ATTR_LABEL		0x0004	/* security.selinux, nonempty */
#define GDP_ATTR_CAP		0x0008	/* security.capability exists */
#define GDP_ATTR_ALL		0x000f

/*
 * Known and unknown attribute bits.  For every entry (error 0) and every
 * GDP_ATTR_* bit exactly one of these holds:
 *   - the bit is set in attr: the attribute is present;
 *   - the bit is clear in attr and in attr_unknown: known absent;
 *   - the bit is set in attr_unknown (and clear in attr): not determined.
 * User space that needs an unknown bit asks for it itself (getxattr(2),
 * as GNU ls would), and may do so for many entries at once.  An unknown
 * bit is not an error: the entry's error stays 0 and its stx is valid.
 * A bit is unknown when
 *   - it was not asked for (GDP_WANT_*; GDP_ATTR_ACL_DEFAULT of a
 *     non-directory is known absent whenever ACLs are asked for);
 *   - reading it failed with an error other than ENODATA/EOPNOTSUPP;
 *   - the "cached" rule below applies and memory does not answer it.
 *
 * The cached rule (GDP_ATTR_CACHED): no attribute bit calls into the
 * filesystem (no disk read, no round trip to a server or a daemon); what
 * the kernel's memory cannot answer is unknown:
 *   - ACL bits from the inode's ACL cache (what the kernel keeps after any
 *     ACL read: getfacl, ls -l, an earlier call; the filesystem's own
 *     revalidation drops it), or from the VFS alone where the filesystem
 *     has no POSIX ACL support or no ACL fetch.  Not cached: unknown.
 *   - GDP_ATTR_LABEL and GDP_ATTR_CAP: known only for an inode without
 *     xattr handlers (then the LSM, from memory, or nobody answers);
 *     otherwise unknown.
 * The rule applies only when asked.  Ask it where reading an attribute
 * is a network or daemon round trip (NFS, SMB, FUSE, Ceph, ...: by the
 * filesystem type, e.g. from /proc/self/mountinfo) and ask the unknown
 * bits yourself, many at once.  Stat data and name resolution are not
 * affected: they are what fstatat(2) and statx(2) with the same
 * AT_STATX_* flag do, ->revalidate and ->getattr included.
 *
 * GDP_ATTR_LABEL is the security label as getxattr("security.selinux")
 * reads it, which is what GNU ls (getfilecon) reads: the label SELinux
 * holds in memory where SELinux is the active LSM, the stored xattr
 * otherwise.  Other LSMs' labels (Smack's security.SMACK64, ...) are not
 * this bit.
 */

/*
 * One record.  Records start 8-byte aligned; reclen covers the header, the
 * name, its terminating NUL and padding.  Every byte of a record (padding
 * included) is written by the kernel: nothing is left uninitialised.
 *
 * The name starts name_off bytes into the record: read it there, not at
 * offsetof(name), so that a later version can grow the header (only for
 * callers that ask for it, see "Versions" above).  name_off is 0 from a
 * version 1 module: the name is then at offsetof(name).
 */
struct getdentsplus_entry {
	__u64 d_ino;		/* as getdents64 reports it */
	__s64 d_off;		/* position of the next entry */
	__u32 reclen;		/* multiple of 8 */
	__u16 namelen;		/* strlen(name) */
	__u8 d_type;		/* DT_* */
	__u8 flags;		/* GDP_REC_* */
	__s32 error;		/* 0, or a positive errno: stx not valid */
	__u32 attr;		/* GDP_ATTR_* known to be present */
	__u32 attr_unknown;	/* GDP_ATTR_* not determined (or not asked) */
	__u32 name_off;		/* where the name starts (0: offsetof(name)) */
	struct statx stx;	/* stx.stx_mask: the fields actually filled */
	char name[];		/* NUL-terminated */
};

/*
 * Record flags.
 * GDP_REC_UNRESOLVED: the entry is left to the caller, who stats the name
 * itself (fstatat(dirfd, name, ...)): error is 0, stx (stx_mask 0
 * included) and attr are zero, attr_unknown is GDP_ATTR_ALL.  Since ABI 4
 * that is: "..", a symlink under AT_SYMLINK_FOLLOW (the kernel's walk
 * from the directory would resolve its target from there, not from the
 * caller's root), an entry whose lookup or getattr failed other than with ENOENT
 * or EACCES, and the rest of a batch once a signal is pending.  (Earlier
 * versions: symlinks to follow, automount points, mount traps.  A version
 * 1 caller sees error 0 with stx_mask 0, i.e. nothing filled, and does
 * the same.)
 */
#define GDP_REC_UNRESOLVED	0x01
#define GDP_REC_SELF		0x02	/* the directory itself (GDP_WANT_SELF) */
#define GDP_REC_END		0x04	/* no entry follows (GDP_MARK_END) */

#define GETDENTSPLUS_ENTRY_MIN \
	((__u32)((sizeof(struct getdentsplus_entry) + 1 + 7) & ~7u))

/* Argument of GETDENTSPLUS_IOC on /dev/getdentsplus. */
struct getdentsplus_args {
	__s32 dirfd;
	__u32 flags;		/* GDP_* */
	__u64 buf;		/* user pointer */
	__u64 size;
	__u32 statx_mask;	/* STATX_* */
	__u32 __reserved;	/* must be 0 */
};

/*
 * The argument is only read: _IOW.  Version 1 spelled it _IOWR, which
 * the module still accepts (GETDENTSPLUS_IOC_V1).
 */
#define GETDENTSPLUS_IOC_MAGIC	0xd9
#define GETDENTSPLUS_IOC	_IOW(GETDENTSPLUS_IOC_MAGIC, 1, struct getdentsplus_args)
#define GETDENTSPLUS_IOC_V1	_IOWR(GETDENTSPLUS_IOC_MAGIC, 1, struct getdentsplus_args)

#define GETDENTSPLUS_DEVICE	"/dev/getdentsplus"
#define GETDENTSPLUS_NR_PATH	"/sys/module/getdentsplus/parameters/nr"
#define GETDENTSPLUS_ABI_PATH	"/sys/module/getdentsplus/parameters/abi"
#define GETDENTSPLUS_FLAGS_PATH	"/sys/module/getdentsplus/parameters/flags"
#define GETDENTSPLUS_MASK_PATH	"/sys/module/getdentsplus/parameters/statx_mask"

#endif /* _UAPI_LINUX_GETDENTSPLUS_H */
