/* dirplus.h -- read a directory: names, stat data and attribute bits.

   One API, three backends chosen at run time (best first):
     getdentsplus  the kernel module's call: one syscall per batch
     uring         getdents64 + batched IORING_OP_STATX (liburing)
     sync          getdents64 + statx (+ at most one llistxattr) per entry

   Errors: functions return -1 (or NULL) with errno set.  Failures that
   concern a single entry (it vanished, it cannot be stat'ed, its xattrs
   cannot be listed) never fail the directory: they travel with the entry
   in stat_errno / attr_errno.  */

#ifndef DIRPLUS_H
#define DIRPLUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>		/* struct statx (glibc >= 2.28) */

/* Which backend.  */
enum dirplus_backend
{
  DIRPLUS_AUTO = 0,
  DIRPLUS_GETDENTSPLUS,
  DIRPLUS_URING,
  DIRPLUS_SYNC,
};

/* Request flags (dirplus_open, dirplus_stat).  */
enum
{
  DIRPLUS_FOLLOW = 0x01,	/* stat follows symlinks (stat, not lstat) */
  DIRPLUS_WANT_ACL = 0x02,	/* fill DIRPLUS_ATTR_ACL_ACCESS/DEFAULT */
  DIRPLUS_WANT_LABEL = 0x04,	/* fill DIRPLUS_ATTR_LABEL */
  DIRPLUS_WANT_CAP = 0x08,	/* fill DIRPLUS_ATTR_CAP */
  DIRPLUS_NO_STAT = 0x10,	/* names and d_type only: no stat at all */
};

/* Attribute bits of an entry; same values as the kernel ABI's GDP_ATTR_*.  */
enum
{
  DIRPLUS_ATTR_ACL_ACCESS = 0x01,	/* system.posix_acl_access, size > 0 */
  DIRPLUS_ATTR_ACL_DEFAULT = 0x02,	/* system.posix_acl_default exists */
  DIRPLUS_ATTR_LABEL = 0x04,		/* security.selinux exists */
  DIRPLUS_ATTR_CAP = 0x08,		/* security.capability exists */
};

/* One directory entry as returned by dirplus_read.  The name and the entry
   stay valid until the next dirplus_read or dirplus_close on the same
   directory.  */
struct dirplus_entry
{
  const char *name;
  size_t namelen;
  uint64_t ino;			/* d_ino */
  unsigned char d_type;		/* DT_* (DT_UNKNOWN possible) */
  int stat_errno;		/* 0: stx valid (stx.stx_mask says what) */
  struct statx stx;
  unsigned int attr;		/* DIRPLUS_ATTR_* known present */
  unsigned int attr_unknown;	/* DIRPLUS_ATTR_* not determined */
  int attr_errno;		/* why (0 if unsupported or not asked) */
};

struct dirplus_dir;

/* Choose the backend for this process.  DIRPLUS_AUTO consults the
   environment variable LSPLUS_BACKEND (auto|getdentsplus|uring|sync) and
   then probes.  Returns the backend in use, or -1 with errno (ENOSYS,
   EPERM, ...) when a forced backend is unavailable.  Safe to call more
   than once; later calls return the first answer.  */
int dirplus_setup (enum dirplus_backend want);

/* The name of a backend ("getdentsplus", "uring", "sync").  */
const char *dirplus_backend_name (enum dirplus_backend b);

/* Parse a backend name; -1 if unknown.  */
int dirplus_backend_parse (const char *name);

/* Open NAME relative to directory fd PARENTFD (AT_FDCWD allowed) for
   reading.  The directory is opened O_RDONLY|O_DIRECTORY|O_CLOEXEC, and
   O_NOFOLLOW unless DIRPLUS_FOLLOW is set.  STATX_MASK and FLAGS say what
   dirplus_read fills in for each entry.  */
struct dirplus_dir *dirplus_open (int parentfd, const char *name,
                                  unsigned int statx_mask,
                                  unsigned int flags);

/* Take ownership of an already-open directory FD.  */
struct dirplus_dir *dirplus_fdopen (int fd, unsigned int statx_mask,
                                    unsigned int flags);

/* The directory's file descriptor (for opening subdirectories relative to
   it, or for fstat).  Owned by the dirplus_dir.  */
int dirplus_fd (const struct dirplus_dir *d);

/* Read the next batch of entries ("." and ".." included, like getdents).
   On success stores a pointer to an array of entries in *ENTRIES and
   returns their number, 0 at end of directory.  Returns -1 with errno on a
   read error (the entries read before stay valid for the caller only until
   the next call).  */
ssize_t dirplus_read (struct dirplus_dir *d, struct dirplus_entry **entries);

/* Close the directory and free its memory.  Returns -1 with errno if
   close(2) failed.  */
int dirplus_close (struct dirplus_dir *d);

/* Stat one file NAME relative to DIRFD, filling *E like dirplus_read would
   (name and d_type included).  Returns 0, or -1 with errno if the file
   cannot be stat'ed (then E->stat_errno == errno too).  */
int dirplus_stat (int dirfd, const char *name, unsigned int statx_mask,
                  unsigned int flags, struct dirplus_entry *e);

/* Counters for tests and benchmarks.  */
struct dirplus_stats
{
  uint64_t dirs, entries, stat_calls, xattr_calls, batch_calls;
};
void dirplus_get_stats (struct dirplus_stats *s);

#endif /* DIRPLUS_H */
