/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dirplus.h -- read a directory: names, stat data and attribute bits.

   One API, backends chosen at run time (best first):
     intree        the kernel's getdentsplus(2) (upstream/'s series)
     getdentsplus  the kernel module's call: one syscall per batch
     statx         getdents64 + one statx per entry whose ACL and label
                   attributes (upstream/statx-xattr-info/) replace the xattr
                   calls, entry by entry (dirplus-statxattr.c)
     uring         getdents64 + batched IORING_OP_STATX (liburing); auto
                   takes it where the kernel runs that statx inline
                   (upstream/io_uring-statx/)
     sync          getdents64 + statx (+ at most one llistxattr) per entry

   Errors: functions return -1 (or NULL) with errno set.  Failures that
   concern a single entry (it vanished, it cannot be stat'ed, its xattrs
   cannot be listed) never fail the directory: they travel with the entry
   in stat_errno / attr_errno.

   Attribute bits follow GNU ls 9.1's rules: no ACL bits for a symlink
   that is not followed (GNU never asks), the access ACL counts when its
   xattr exists, the default ACL only on directories.  A filesystem that
   answers "xattrs unsupported" once is never asked again (per st_dev):
   its entries get the bits as known-absent.  What cannot be decided (a
   failed probe: EACCES, EIO, ...) is set in attr_unknown with its errno
   in attr_errno, and the caller may ask again (dirplus_file_has_acl).
   An NFSv4 ACL never sets a bit: GNU ls 9.1 does not look at it.

   How the bits are found depends on the filesystem (dirplus-fs.c): one
   listxattr per entry on a local disk and FUSE, GNU 9.1's own getxattr
   probes on a network filesystem; on remote filesystems the per-entry
   calls run in a pool of threads (dirplus-pool.c) and ls -R reads
   subdirectories ahead (dirplus-ahead.c), as it does on a local disk
   when the tree is cold.  */

#ifndef DIRPLUS_H
#define DIRPLUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/stat.h>		/* struct statx (glibc >= 2.28) */

/* Which backend.  */
enum dirplus_backend
{
  DIRPLUS_AUTO = 0,
  DIRPLUS_GETDENTSPLUS,
  DIRPLUS_URING,
  DIRPLUS_SYNC,
  DIRPLUS_INTREE,		/* the in-tree getdentsplus(2) system call */
  DIRPLUS_STATX,		/* sync, with statx's ACL/label attributes */
};

/* Request flags (dirplus_open, dirplus_stat).  */
enum
{
  DIRPLUS_FOLLOW = 0x01,	/* stat follows symlinks (stat, not lstat) */
  DIRPLUS_WANT_ACL = 0x02,	/* fill DIRPLUS_ATTR_ACL_ACCESS/DEFAULT */
  DIRPLUS_WANT_LABEL = 0x04,	/* fill DIRPLUS_ATTR_LABEL */
  DIRPLUS_WANT_CAP = 0x08,	/* fill DIRPLUS_ATTR_CAP */
  DIRPLUS_NO_STAT = 0x10,	/* names and d_type only: no stat at all */
  DIRPLUS_OPEN_FOLLOW = 0x20,	/* dirplus_open follows a symlink NAME even
                                   without DIRPLUS_FOLLOW (ls DIRLINK) */
};

/* Attribute bits of an entry; same values as the kernel ABI's GDP_ATTR_*.  */
enum
{
  DIRPLUS_ATTR_ACL_ACCESS = 0x01,	/* system.posix_acl_access, size > 0 */
  DIRPLUS_ATTR_ACL_DEFAULT = 0x02,	/* system.posix_acl_default exists */
  DIRPLUS_ATTR_LABEL = 0x04,		/* security.selinux exists */
  DIRPLUS_ATTR_CAP = 0x08,		/* security.capability exists (regular
					   files only) */
};

/* One directory entry as returned by dirplus_read.  The name and the entry
   stay valid until the next dirplus_read or dirplus_close on the same
   directory.  d_type is what the directory said (DT_UNKNOWN possible; with
   DIRPLUS_FOLLOW it is still the type of the link itself).  */
struct dirplus_entry
{
  const char *name;		/* NUL-terminated */
  size_t namelen;
  uint64_t ino;			/* d_ino */
  unsigned char d_type;		/* DT_* (DT_UNKNOWN possible) */
  int stat_errno;		/* 0: stx valid (stx.stx_mask says what) */
  struct statx stx;		/* zeroed when not stat'ed */
  unsigned int attr;		/* DIRPLUS_ATTR_* known present */
  unsigned int attr_unknown;	/* DIRPLUS_ATTR_* asked but not determined */
  int attr_errno;		/* why unknown (0 if all known or not asked) */
};

struct dirplus_dir;

/* Choose the backend for this process.  DIRPLUS_AUTO consults the
   environment variable LSPLUS_BACKEND
   (auto|intree|getdentsplus|statx|uring|sync) and then probes: intree
   when the kernel has the call, getdentsplus when the module is loaded,
   statx when the kernel's statx reports the ACL and label attributes,
   uring when the kernel runs io_uring's statx inline, else sync
   (measured faster than uring whose statx goes to io-wq, on a warm
   cache; uring has the fewest syscalls).  The statx and uring probes
   are made only on a kernel that may have their series (7.2 or later,
   from the vDSO: no system call before).
   LSPLUS_URING_BATCH (8..4096, default 256) sizes the io_uring ring;
   LSPLUS_THREADS=0|1 turns the sync backend's helper thread off|on
   (default: on when a CPU is idle, see dirplus-batch.c).
   Returns the backend in use, or -1 with errno (ENOSYS, EPERM, EINVAL for
   an unknown LSPLUS_BACKEND, ...) when a forced backend is unavailable.
   Safe to call more than once; later calls return the first answer.
   dirplus_open calls it with DIRPLUS_AUTO if nobody did.  */
int dirplus_setup (enum dirplus_backend want);

/* The name of the first of the library's environment variables
   (LSPLUS_REMOTE, LSPLUS_REMOTE_THREADS, LSPLUS_COLD_THREADS,
   LSPLUS_COLD_USEC) whose value is invalid, or NULL
   when all are valid.  */
const char *dirplus_env_invalid (void);

/* The name of a backend ("auto", "getdentsplus", "uring", "sync",
   "intree", "statx").  */
const char *dirplus_backend_name (enum dirplus_backend b);

/* Parse a backend name; -1 if unknown.  */
int dirplus_backend_parse (const char *name);

/* Open NAME relative to directory fd PARENTFD (AT_FDCWD allowed) for
   reading.  The directory is opened O_RDONLY|O_DIRECTORY|O_CLOEXEC|
   O_NOCTTY, and O_NOFOLLOW unless DIRPLUS_FOLLOW or DIRPLUS_OPEN_FOLLOW
   is set.  STATX_MASK and
   FLAGS say what dirplus_read fills in for each entry.  */
struct dirplus_dir *dirplus_open (int parentfd, const char *name,
                                  unsigned int statx_mask,
                                  unsigned int flags);

/* Take ownership of an already-open directory FD (closed by
   dirplus_close, also when this fails).  */
struct dirplus_dir *dirplus_fdopen (int fd, unsigned int statx_mask,
                                    unsigned int flags);

/* The directory's file descriptor (for opening subdirectories relative to
   it, or for fstat).  Owned by the dirplus_dir.  */
int dirplus_fd (const struct dirplus_dir *d);

/* A filter: return false to drop an entry before it is stat'ed (e.g. "."
   and "..", hidden files, --hide patterns).  ARG is passed through.  */
typedef bool (*dirplus_filter_fn) (const char *name, size_t namelen,
                                   unsigned char d_type, void *arg);

/* Install FILTER (NULL: keep everything) for the following dirplus_read
   calls on D.  Backends that stat in the kernel still drop the entries,
   they just cannot save the work.  */
void dirplus_set_filter (struct dirplus_dir *d, dirplus_filter_fn filter,
                         void *arg);

/* Read the next batch of entries ("." and ".." included, like getdents,
   unless a filter drops them).  On success stores a pointer to an array of
   entries in *ENTRIES and returns their number (never 0 before the end),
   0 at end of directory.  Returns -1 with errno on a read error.  */
ssize_t dirplus_read (struct dirplus_dir *d, struct dirplus_entry **entries);

/* fstat(2) of D's directory, taken right after it was opened when it
   was read ahead (in GNU ls's order: open, fstat, read; on NFSv4 an
   fstat after reading costs a GETATTR), else now.  0 or -1 with errno.  */
int dirplus_fstat (struct dirplus_dir *d, struct stat *st);

/* Tell the library the device D is on (ls learns it from its fstat of
   the directory for -R's cycle check): it decides how D's
   subdirectories are read without a system call of its own.  Called
   before the first read with the device D is most likely on (its
   parent's, or the operand's stat), it also decides how D itself is
   read (the getdentsplus backend asks a remote filesystem's attribute
   bits from memory only); a later call corrects it.  */
void dirplus_set_dev (struct dirplus_dir *d, dev_t dev);

/* Hint that NAMES[0..N-1], subdirectories of D, will be opened next with
   dirplus_open (D's fd, NAME, the same mask and flags), in this order,
   and read to the end with D's filter.  On a remote filesystem they are
   opened and read ahead in the background (dirplus-ahead.c), so that
   their round trips overlap; so are they on a local filesystem when D's
   first read waited for the disk (a cold cache, LSPLUS_COLD_THREADS and
   LSPLUS_COLD_USEC), so that several disk reads are in flight, and when
   it did not but a CPU is spare (LSPLUS_THREADS), so that their system
   calls run on that CPU while ls lists.  dirplus_open then returns what was read, exactly as it would have
   read it.  Elsewhere this does nothing.
   Hints under D are forgotten when D is closed.  */
void dirplus_ahead (struct dirplus_dir *d, char *const *names, size_t n);

/* The struct stat that statx data X gives (what fstatat would fill).  */
void dirplus_statx_to_stat (const struct statx *x, struct stat *st);

/* Close the directory and free its memory.  Returns -1 with errno if
   close(2) failed.  (The uring backend closes through the ring, with the
   next submission: no syscall of its own, and it reports 0.)  */
int dirplus_close (struct dirplus_dir *d);

/* Stat one file NAME relative to DIRFD, filling *E like dirplus_read would
   (name, namelen, attribute bits; d_type from the mode, ino from stx_ino).
   E->name points to NAME.  Returns 0, or -1 with errno if the file cannot
   be stat'ed (then E->stat_errno == errno too).  The uring backend does it
   through the ring; the others with statx (+ one listxattr).  */
int dirplus_stat (int dirfd, const char *name, unsigned int statx_mask,
                  unsigned int flags, struct dirplus_entry *e);

/* Read extended attribute XNAME of NAME relative to DIRFD (not following
   a final symlink unless DIRPLUS_FOLLOW is in FLAGS) into BUF of SIZE
   bytes, like lgetxattr(2): returns its size, or -1 with errno.  For -Z
   (security contexts).  Uses getxattrat(2) where the kernel has it.  */
ssize_t dirplus_getxattr (int dirfd, const char *name, const char *xname,
                          void *buf, size_t size, unsigned int flags);

/* Whether file NAME relative to DIRFD, of mode MODE, has an ACL, decided
   exactly as GNU ls 9.1 decides it (gnulib's file_has_acl of 2022): the
   POSIX access ACL exists with a nonzero size, or, for a directory, the
   default ACL does; never for a symlink; an NFSv4 ACL does not count.
   Returns 1, 0 (also when ACLs are unsupported: errno says so), or -1
   with errno.  */
int dirplus_file_has_acl (int dirfd, const char *name, mode_t mode);

/* Counters for tests and benchmarks.  COLD_TIMED: directories whose
   first getdents64 was timed for the cold-cache check.  */
struct dirplus_stats
{
  uint64_t dirs, entries, stat_calls, xattr_calls, batch_calls, cold_timed;
};
void dirplus_get_stats (struct dirplus_stats *s);

#endif /* DIRPLUS_H */
