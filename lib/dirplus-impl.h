/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dirplus-impl.h -- internals of the dirplus library: the map of its files
   and their layers, struct dirplus_dir, and what each file offers the
   layers above it.

   Calls go one way, from the top down (tests/tools/layers.test checks it
   on the object files: who defines and who references each symbol):

   API (top): nothing of the library calls into it
     dirplus.c          the public API of dirplus.h, and the choice of the
                        backend (LSPLUS_BACKEND, probes)
   backends: called by dirplus.c only, never by each other
     dirplus-sync.c     getdents64, then the portable per-entry statx (+ one
                        listxattr, or GNU's getxattr probes on a network
                        filesystem): dirplus-batch.c
     dirplus-uring.c    batched IORING_OP_STATX / IORING_OP_GETXATTR; its
                        ring in dirplus-uring-ring.c, what the two share
                        in dirplus-uring.h
     (the "statx" backend is the sync backend's code with the statx
     attributes of dirplus-statxattr.c asked: dirplus.c)
     dirplus-gdp.c      the getdentsplus kernel module's call
     dirplus-sys.c      the in-tree getdentsplus(2) system call
                        (upstream/'s series), built with the kernel
                        headers that define it (its own include path)
   shared pieces: called from above and by each other, never call a
   backend or dirplus.c (dirplus-ahead.c reads a directory through the
   operations its parent carries, D->ops, without naming a backend)
     dirplus-batch.c    a batch stat'ed the portable way: in the remote
                        pool, shared with a helper thread, or in turn
     dirplus-stat.c     one entry's statx and attribute bits; the bits the
                        module left unknown, resolved in the pool
     dirplus-attr.c     attribute rules; the per-device "xattrs
                        unsupported" latch
     dirplus-statxattr.c the statx ACL and label attributes (a kernel
                        with upstream/statx-xattr-info/): where they stand
                        for the xattr probes
     dirplus-kver.c     the running kernel's version (vDSO note, no
                        system call)
     dirplus-xattr.c    listxattr/getxattr relative to a directory fd
                        (listxattrat/getxattrat, else /proc/self/fd paths)
     dirplus-getdents.c getdents64 batching; a batch's entry array and
                        scratch memory
     dirplus-fs.c       the kind of filesystem a device holds (mountinfo)
     dirplus-pool.c     threads that overlap per-entry round trips on
                        remote filesystems
     dirplus-ahead.c    directories read ahead (ls -R: remote filesystems,
                        a cold local tree, a warm one on an idle CPU)
     dirplus-records.c  getdentsplus records (module and in-tree call
                        alike) to a batch of entries
     dirplus-openahead.c subdirectories opened ahead in one io_uring
                        submission (ls -R with getdentsplus)
     dirplus-close.c    fds of finished directories closed in batches
                        (close_range)
     dirplus-common.c   the global counters; fds kept off 0..2; statx to
                        struct stat; a monotonic clock  */

#ifndef DIRPLUS_IMPL_H
#define DIRPLUS_IMPL_H

#include "dirplus.h"

/* The statx ACL and label attributes of upstream/statx-xattr-info/'s series
   (dirplus-statxattr.c), where the headers do not have them yet.  */
#ifndef STATX_XATTR_INFO
# define STATX_XATTR_INFO 0x00040000U
#endif
#ifndef STATX_ATTR_ACL
# define STATX_ATTR_ACL 0x02000000
#endif
#ifndef STATX_ATTR_SECLABEL
# define STATX_ATTR_SECLABEL 0x04000000
#endif

/* Size of the getdents64 buffer.  */
#define DIRPLUS_BUFSIZE (64 * 1024)

/* The attribute bits each DIRPLUS_WANT_* flag asks for.  */
#define DIRPLUS_ATTR_ACL (DIRPLUS_ATTR_ACL_ACCESS | DIRPLUS_ATTR_ACL_DEFAULT)

struct dirplus_ops;

struct dirplus_dir
{
  int fd;
  unsigned int mask;		/* statx mask asked */
  unsigned int flags;		/* DIRPLUS_* request flags */
  enum dirplus_backend backend;
  const struct dirplus_ops *ops; /* the backend's (set by dirplus.c) */
  bool eof;
  dirplus_filter_fn filter;
  void *filter_arg;
  char *buf;			/* getdents64 (or getdentsplus) buffer */
  size_t bufsize;
  struct dirplus_entry *ents;	/* the current batch */
  size_t nents, cap;
  char *scratch;		/* backend's per-batch memory */
  size_t scratch_size;
  int fs_kind;			/* enum dirplus_fs_kind, -1 not known yet */
  bool have_dev;		/* DEV: told by dirplus_set_dev */
  dev_t dev;
  bool read_ahead;		/* batches come from dirplus-ahead.c */
  struct ahead_batch *ahead;	/* batches read ahead, not yet returned */
  struct ahead_batch *ahead_cur; /* the batch returned last */
  bool have_st;			/* ST / ST_ERRNO: the fstat read ahead */
  int st_errno;
  struct stat st;
  bool started;			/* dirplus_read was called */
  bool want_self;		/* ask the backend for the directory's stat */
  bool primed;			/* the first batch was read by dirplus_fstat: */
  ssize_t primed_n;		/*   its result */
  int primed_errno;		/*   and errno */
  bool close_later;		/* dirplus-close.c may defer the close */
  int open_usec;		/* how long its openat took (0: not timed) */
  bool timed;			/* the first getdents64 has been timed */
  bool cold;			/* ... and it waited for the disk */
  bool no_share;		/* never share a batch with the helper thread
                                   (read in a read-ahead thread) */
};

/* ---- backends (called by dirplus.c only) ---- */

/* A backend: how a batch is produced.  READ fills D->ents (D->nents) with
   the next batch and returns their number, 0 at the end, -1 with errno.  */
struct dirplus_ops
{
  ssize_t (*read) (struct dirplus_dir *d);
  /* Whether read can also give the directory's own stat with the first
     batch when D->want_self is set (into D->st, D->st_errno, setting
     D->have_st); NULL: never.  */
  bool (*self) (const struct dirplus_dir *d);
  /* READ may run in several threads at once (on different
     directories): a cold local directory may be read ahead.  */
  bool threads_ok;
  /* Whether READ of D in the calling thread costs a few system calls
     per batch where the same READ in a read-ahead thread costs the
     portable per-entry calls (the uring backend's ring has one issuer:
     dirplus-ahead.c then never reads D's subdirectories ahead on the
     threads' budget); NULL: never.  */
  bool (*batched) (const struct dirplus_dir *d);
};

extern const struct dirplus_ops dirplus_sync_ops;
#if USE_URING
extern const struct dirplus_ops dirplus_uring_ops;
/* Probe io_uring once: 0 if usable, -1 with errno.  */
int dirplus_uring_probe (void);
/* Close directory FD through the ring (no syscall of its own).  */
int dirplus_uring_close (int fd);
/* Submit the closes queued in the ring (to free their fds now).  */
void dirplus_uring_flush_closes (void);
/* dirplus_stat_entry through the ring: 0, or -1 with errno.  */
int dirplus_uring_stat (int dirfd, struct dirplus_entry *e,
                        unsigned int mask, unsigned int flags);
/* Whether the kernel runs IORING_OP_STATX inline where it can
   (IORING_FEAT_STATX_INLINE, upstream/io_uring-statx/): only looked for
   (the ring created, probed) on a kernel that may have it
   (dirplus-kver.c), else false without a system call.  */
bool dirplus_uring_statx_inline (void);
/* Whether the benchmark knob LSPLUS_URING_STOCK=1 is set: IOSQE_ASYNC
   on the ring's statx and xattr SQEs and no statx attributes, as on a
   kernel without the two statx series.  */
bool dirplus_uring_stock (void);
/* Feature bits a test adds to what the kernel reported (emulation).  */
extern unsigned int dirplus_uring_fake_features;
#endif
extern const struct dirplus_ops dirplus_gdp_ops;
/* Probe the getdentsplus module once: 0 if usable, -1 with errno.  */
int dirplus_gdp_probe (void);
/* How the module is called (its syscall or its ioctl), with the
   getdentsplus(2) arguments.  A test may set it before the probe to
   emulate the module.  */
typedef long (*dirplus_gdp_call_fn) (int fd, void *buf, size_t size,
                                     unsigned int mask, unsigned int flags);
extern dirplus_gdp_call_fn dirplus_gdp_call;
extern const struct dirplus_ops dirplus_sys_ops;
/* Probe the in-tree getdentsplus(2) call once: 0 if the running kernel
   has it, -1 with errno (ENOSYS: not there, or not built in).  */
int dirplus_sys_probe (void);
/* The in-tree call, with its arguments (REQ: a struct getdentsplus_req
   of that call's uapi header, which this header may not include: the
   module's has the same name).  A test may set it before the probe to
   emulate the call.  */
typedef long (*dirplus_sys_call_fn) (int fd, const void *req, void *buf,
                                     size_t size, unsigned int flags);
extern dirplus_sys_call_fn dirplus_sys_call;

/* ---- shared pieces (called by the layers above and each other) ---- */

/* dirplus-batch.c: stat the N entries of D's batch (N < 0: a failed
   read, returned as is) the portable way.  Returns N.  */
ssize_t dirplus_stat_batch (struct dirplus_dir *d, ssize_t n);

/* dirplus-stat.c: stat entry E (name set) relative to DIRFD and fill its
   attribute bits.  */
void dirplus_stat_entry (int dirfd, struct dirplus_entry *e,
                         unsigned int mask, unsigned int flags);

/* dirplus-stat.c: fill attribute BITS of stat'ed entry E: one listxattr,
   or on a network filesystem the getxattr probes GNU ls 9.1 makes
   (dirplus-fs.c).  */
void dirplus_entry_attrs (int dirfd, struct dirplus_entry *e,
                          unsigned int bits, bool follow);

/* dirplus-stat.c: fill attribute BITS of entry E just stat'ed: from its
   statx reply where that determined them (dirplus-statxattr.c), the
   rest with dirplus_entry_attrs.  */
void dirplus_entry_attrs_after_statx (int dirfd, struct dirplus_entry *e,
                                      unsigned int bits, bool follow);

/* dirplus-stat.c: resolve, in the remote pool, the attribute bits the
   kernel module left unknown in the N entries ENTS of directory DIRFD
   (request FLAGS).  */
void dirplus_resolve_unknown (int dirfd, struct dirplus_entry *ents,
                              size_t n, unsigned int flags);

/* dirplus-kver.c: the running kernel's version as LINUX_VERSION_CODE
   (from the vDSO, no system call; without a vDSO from uname(2), once),
   and whether it is MAJOR.MINOR or later.  */
unsigned int dirplus_kernel_version (void);
bool dirplus_kernel_at_least (unsigned int major, unsigned int minor);

/* dirplus-statxattr.c: the statx ACL and label attributes.  Whether the
   kernel may have them (no system call); use them from now on (ON: only
   where possible) or not; whether they are in use; whether the kernel
   reports them (one statx of "/", once: 0, or -1 with ENOSYS).  */
bool dirplus_statx_attrs_possible (void);
void dirplus_statx_attrs_use (bool on);
bool dirplus_statx_attrs_in_use (void);
int dirplus_statx_attrs_probe (void);
/* The request mask for MASK, request FLAGS, in a directory of kind
   FS_KIND (-1 unknown): STATX_XATTR_INFO added where it is worth it.  */
unsigned int dirplus_statx_request (unsigned int mask, unsigned int flags,
                                    int fs_kind);
/* Take E's attribute BITS its statx reply determined; the bits left to
   find the old way.  */
unsigned int dirplus_statx_attrs_take (struct dirplus_entry *e,
                                       unsigned int bits);
/* The same for a reply of a kernel known to have the series (the
   in-tree getdentsplus's records), whether or not statx uses them.  */
unsigned int dirplus_statx_attrs_apply (struct dirplus_entry *e,
                                        unsigned int bits);
/* A test's emulation of the series: adds the attributes to the real
   statx reply *STX of NAME relative to DIRFD, asked with MASK
   (dirplus_statx_reply calls it after every statx of the library).  */
typedef void (*dirplus_statx_emulate_fn) (int dirfd, const char *name,
                                          unsigned int mask,
                                          struct statx *stx);
extern dirplus_statx_emulate_fn dirplus_statx_emulate;
void dirplus_statx_reply (int dirfd, const char *name, unsigned int mask,
                          struct statx *stx);

/* dirplus-attr.c: attribute bits asked for by request FLAGS.  */
unsigned int dirplus_wanted_attrs (unsigned int flags);

/* dirplus-attr.c: whether ERR means "this filesystem has no xattr
   support".  */
bool dirplus_errno_unsupported (int err);

/* dirplus-attr.c: the per-device "xattrs unsupported" cache: the
   attribute bits known unsupported on DEV; add BITS to them.  */
unsigned int dirplus_dev_unsupported (dev_t dev);
void dirplus_dev_mark_unsupported (dev_t dev, unsigned int bits);

/* A pseudo-bit of the per-device "unsupported" table: listxattr said
   "unsupported" there, so attributes are probed one by one (a filesystem
   may serve getxattr of an ACL without listxattr).  */
#define DIRPLUS_DEV_NO_LIST 0x100
/* Pseudo-bits: attribute bit B << DIRPLUS_DEV_CHECKED_SHIFT says that
   GNU's probe of B was made once on the device after an empty
   listxattr (dirplus-stat.c): done, whatever it answered.  */
#define DIRPLUS_DEV_CHECKED_SHIFT 16

/* dirplus-attr.c: the device of a stat'ed entry.  */
dev_t dirplus_entry_dev (const struct dirplus_entry *e);

/* dirplus-attr.c: the attribute bits to compute for entry E (already
   stat'ed) given the request FLAGS: none for a failed stat, no
   ACL/capability bits for an unfollowed symlink, none on a device known
   unsupported.  Sets E->attr_unknown/attr_errno for a failed stat.  */
unsigned int dirplus_attrs_needed (struct dirplus_entry *e,
                                   unsigned int flags);

/* dirplus-attr.c: set E's attribute bits (among BITS) from the
   NUL-separated xattr name LIST of LEN bytes.  */
void dirplus_attrs_from_list (struct dirplus_entry *e, unsigned int bits,
                              const char *list, size_t len);

/* dirplus-attr.c: record the outcome of a failed attribute query (errno
   ERR) for E.  */
void dirplus_attrs_failed (struct dirplus_entry *e, unsigned int bits,
                           int err);

/* dirplus-xattr.c: listxattr of NAME relative to DIRFD, following a
   final symlink if FOLLOW: listxattrat(2) where the kernel has it, else a
   path.  */
ssize_t dirplus_listxattr_at (int dirfd, const char *name, bool follow,
                              char *list, size_t size);

/* dirplus-xattr.c: getxattr of XNAME of NAME relative to DIRFD into BUF
   of SIZE bytes, following a final symlink if FOLLOW: getxattrat(2) where
   the kernel has it, else a path (dirplus_getxattr's work).  */
ssize_t dirplus_getxattr_at (int dirfd, const char *name, const char *xname,
                             void *buf, size_t size, bool follow);

/* dirplus-getdents.c: read the next getdents64 buffer of D and turn it
   into entries (filtered, not stat'ed).  Returns the number of entries,
   0 at the end.  */
ssize_t dirplus_getdents_batch (struct dirplus_dir *d);

/* dirplus-getdents.c: make room for N entries in D->ents.  */
int dirplus_reserve (struct dirplus_dir *d, size_t n);

/* dirplus-getdents.c: make D->scratch at least SIZE bytes.  */
int dirplus_scratch_reserve (struct dirplus_dir *d, size_t size);

/* Kinds of filesystem (dirplus-fs.c).  */
enum dirplus_fs_kind
{
  DIRPLUS_FS_LOCAL,		/* one listxattr per entry, no pool */
  DIRPLUS_FS_FUSE,		/* one listxattr per entry, in the pool */
  DIRPLUS_FS_NET,		/* GNU 9.1's getxattr probes, in the pool */
};

/* dirplus-fs.c: the kind of filesystem on device DEV (LSPLUS_REMOTE may
   force it).  */
enum dirplus_fs_kind dirplus_fs_kind (dev_t dev);

/* dirplus-fs.c: the kind of a mountinfo filesystem type name (for unit
   tests too).  */
enum dirplus_fs_kind dirplus_fs_kind_of_type (const char *type);

/* dirplus-fs.c: parse one /proc/self/mountinfo line: 0, or -1 if
   malformed.  */
int dirplus_fs_parse_mountinfo_line (const char *line, dev_t *dev,
                                     enum dirplus_fs_kind *kind);

/* dirplus-fs.c, dirplus-pool.c, dirplus-ahead.c: whether LSPLUS_REMOTE /
   LSPLUS_REMOTE_THREADS / LSPLUS_AHEAD are valid.  */
bool dirplus_fs_env_valid (void);
bool dirplus_pool_env_valid (void);
bool dirplus_ahead_env_valid (void);

/* The remote pool (dirplus-pool.c): call FN (ARG, I) for each I in
   [0, N) on up to LSPLUS_REMOTE_THREADS threads plus the caller.  */
typedef void (*dirplus_pool_fn) (void *arg, size_t i);
/* Start detached threads running FN (all signals blocked, small stacks)
   until *COUNT reaches WANT; stops quietly at the first failure.  The
   caller holds the lock that guards *COUNT.  */
void dirplus_start_threads (void *(*fn) (void *), int *count, int want);
void dirplus_pool_run (size_t n, dirplus_pool_fn fn, void *arg);
/* The threads' call budget (dirplus-pool.c): calls saved against GNU ls
   9.1's, added by whoever saved them; taken (true) only when it holds N,
   before a thread is started or woken.  */
void dirplus_budget_add (long n);
bool dirplus_budget_take (long n);
/* Take EACH calls for each of up to MAX things, as many as the budget
   holds: their number.  */
int dirplus_budget_take_up_to (long each, int max);
/* The calls the budget holds.  */
long dirplus_budget_left (void);
/* Whether LSPLUS_REMOTE_THREADS fixes the pool's width (and spends
   without a budget).  */
bool dirplus_pool_forced (void);
/* Whether entries were found waiting for round trips (a job came to
   the pool).  */
bool dirplus_pool_slow (void);
/* Set in a thread whose dirplus_pool_run handed calls to the pool (the
   read-ahead clears and reads it: see dirplus-ahead.c).  */
extern _Thread_local bool dirplus_pool_used;

/* dirplus-batch.c: how many helper threads may run beside the caller,
   each on a CPU of its own: under LSPLUS_THREADS=1 (*FORCED) one less
   than the CPUs the process may run on, unset the CPUs with nothing
   runnable now, 0 under LSPLUS_THREADS=0 or on one CPU.  Unless forced,
   looked at (/proc/loadavg) only while the budget holds a thread's NEED
   calls too, and a "none now" again every few asks.  */
int dirplus_spare_cpus (bool *forced, long need);

/* Directories read ahead (dirplus-ahead.c).  */
struct ahead_batch;
/* Hint that NAMES[0..N-1], subdirectories of PARENT, are opened next
   (dirplus_ahead): read them ahead with PARENT->ops on a remote
   filesystem, on a local one whose PARENT was cold, or on a warm one
   when a CPU is spare.  */
void dirplus_ahead_hint (struct dirplus_dir *parent, char *const *names,
                         size_t n);
/* dirplus-getdents.c: whether LSPLUS_COLD_USEC is unset or valid.  */
bool dirplus_getdents_env_valid (void);
/* Whether the next directory's openat and first getdents64 are timed
   (the cold-cache check samples directories while the tree looks
   warm); when not, sets *COLD to what the directory counts as.  */
bool dirplus_cold_timed (bool *cold);
/* Whether the last directory timed waited for the disk.  */
bool dirplus_cold_now (void);
/* Whether LSPLUS_COLD_THREADS is unset or valid (0..8).  */
bool dirplus_ahead_cold_env_valid (void);
/* Take NAME under PARENTFD if it was read ahead with MASK and FLAGS:
   *FOUND says so; then *FD is its fd (or -1 and *OPEN_ERRNO why), *COLD
   whether its first getdents64 waited for the disk, and the batches are
   returned.  */
struct ahead_batch *dirplus_ahead_take (int parentfd, const char *name,
                                        unsigned int mask,
                                        unsigned int flags, int *fd,
                                        int *open_errno, struct stat *st,
                                        int *st_errno, bool *cold,
                                        bool *found);
/* The next batch of D read ahead, like dirplus_read.  */
ssize_t dirplus_ahead_read (struct dirplus_dir *d,
                            struct dirplus_entry **entries);
/* Free a list of batches.  */
void dirplus_ahead_free_batches (struct ahead_batch *b);
/* Whether a warm local tree is being read ahead now (its threads take
   the spare CPUs: no batch is shared with the helper thread).  */
bool dirplus_ahead_warm_busy (void);
/* Forget the hints made under directory fd FD (about to be closed).  */
void dirplus_ahead_drop (int fd);

/* dirplus-common.c: global counters.  */
extern struct dirplus_stats dirplus_counters;

/* dirplus-common.c: move FD above 0..2 (a long-lived fd must not take a
   closed stdout's number): the new fd, or -1 with errno.  */
int dirplus_fd_above_stdio (int fd);
/* dirplus-common.c: microseconds on the monotonic clock (a system call
   where the clock has no vDSO: QEMU TCG guests).  */
long long dirplus_usec_now (void);
/* dirplus-common.c: spin for about USEC microseconds at most while the
   word at ADDR holds VAL (EQUAL) or anything else (!EQUAL), counting
   busy-wait steps (the clock is read twice per process, to measure
   them).  */
void dirplus_spin_while (const unsigned int *addr, unsigned int val,
                         bool equal, int usec);
/* dirplus-common.c: the number environment variable NAME gives, in
   LO..HI (LO >= 0); DFLT when it is unset or empty; -1 when it is set to
   anything else (the library's LSPLUS_* numbers, checked up front by
   dirplus_env_invalid).  */
long dirplus_env_number (const char *name, long lo, long hi, long dflt);

/* dirplus-records.c: the records of the getdentsplus calls, described
   here because their two uapi headers cannot meet in one file; each
   backend checks its header against its layout at compile time.  The
   module's (<linux/getdentsplus.h> of kernel-module/) carries attribute
   bits of its own: */
struct dirplus_rec
{
  uint64_t d_ino;
  int64_t d_off;
  uint32_t reclen;
  uint16_t namelen;
  uint8_t d_type;
  uint8_t flags;		/* DIRPLUS_REC_* */
  int32_t error;
  uint32_t attr;
  uint32_t attr_unknown;
  uint32_t name_off;
  struct statx stx;
  char name[];
};
enum
{
  DIRPLUS_REC_UNRESOLVED = 0x01,	/* left to the caller's path walk */
  DIRPLUS_REC_SELF = 0x02,	/* the directory itself (asked for) */
  DIRPLUS_REC_END = 0x04,	/* the directory's last record */
};
/* The smallest record: the header and a NUL, 8-aligned.  */
#define DIRPLUS_REC_MIN ((sizeof (struct dirplus_rec) + 1 + 7) & ~(size_t) 7)
/* Whether TYPE, a uapi header's struct getdentsplus_entry, has the
   fields both layouts share where REC has them.  */
#define DIRPLUS_REC_SHARED_AS(type, rec) \
  (offsetof (type, d_ino) == offsetof (rec, d_ino) \
   && offsetof (type, d_off) == offsetof (rec, d_off) \
   && offsetof (type, reclen) == offsetof (rec, reclen) \
   && offsetof (type, namelen) == offsetof (rec, namelen) \
   && offsetof (type, d_type) == offsetof (rec, d_type) \
   && offsetof (type, flags) == offsetof (rec, flags) \
   && offsetof (type, error) == offsetof (rec, error) \
   && offsetof (type, name_off) == offsetof (rec, name_off) \
   && offsetof (type, stx) == offsetof (rec, stx) \
   && offsetof (type, name) == offsetof (rec, name))
/* Check at compile time that TYPE has the layout of struct dirplus_rec.  */
#define DIRPLUS_REC_LAYOUT(type) \
  _Static_assert (sizeof (type) == sizeof (struct dirplus_rec) \
                  && DIRPLUS_REC_SHARED_AS (type, struct dirplus_rec) \
                  && offsetof (type, attr) == offsetof (struct dirplus_rec, attr) \
                  && offsetof (type, attr_unknown) \
                     == offsetof (struct dirplus_rec, attr_unknown), \
                  "the getdentsplus record of " #type " has another layout")
/* The in-tree call's (upstream/'s series) is a statx reply and nothing
   else: its ACL and label bits are statx's attributes
   (STATX_XATTR_INFO, dirplus-statxattr.c); the same record flags.  */
struct dirplus_rec_sx
{
  uint64_t d_ino;
  int64_t d_off;
  uint32_t reclen;
  uint16_t namelen;
  uint8_t d_type;
  uint8_t flags;		/* DIRPLUS_REC_* */
  int32_t error;
  uint32_t name_off;
  struct statx stx;
  char name[];
};
#define DIRPLUS_REC_SX_MIN \
  ((sizeof (struct dirplus_rec_sx) + 1 + 7) & ~(size_t) 7)
#define DIRPLUS_REC_SX_LAYOUT(type) \
  _Static_assert (sizeof (type) == sizeof (struct dirplus_rec_sx) \
                  && DIRPLUS_REC_SHARED_AS (type, struct dirplus_rec_sx), \
                  "the getdentsplus record of " #type " has another layout")
/* Which of the two a buffer holds.  */
enum dirplus_rec_kind
{
  DIRPLUS_RECS_MODULE,		/* struct dirplus_rec */
  DIRPLUS_RECS_STATX,		/* struct dirplus_rec_sx */
};
/* Append the N bytes of records of KIND in D->buf to D's batch
   (D->ents, D->nents): the end mark sets D->eof, the directory's own
   record (only if SELF_ASKED) D->st; entries D's filter drops are
   skipped, what the kernel left to user space is stat'ed.  0, or -1
   with errno (EIO: a malformed buffer).  */
int dirplus_records_add (struct dirplus_dir *d, long n, bool self_asked,
                         enum dirplus_rec_kind kind);

/* dirplus-openahead.c: open NAMES[0..N-1] relative to PARENTFD with
   OFLAGS ahead (many in one io_uring submission); take one (true: *FD,
   or -1 and *ERR; false: open it yourself); forget the hints under FD
   (closing what they opened).  */
void dirplus_openahead_hint (int parentfd, char *const *names, size_t n,
                             int oflags);
bool dirplus_openahead_take (int parentfd, const char *name, int oflags,
                             int *fd, int *err);
void dirplus_openahead_drop (int fd);

/* dirplus-common.c: the struct stat of statx data X
   (dirplus_statx_to_stat of dirplus.h).  */
void dirplus_stx_to_stat (const struct statx *x, struct stat *st);

/* dirplus-close.c: close directory fd FD now or with the next batch
   (0, or -1 with errno from an immediate close); close every fd that
   waits.  */
int dirplus_close_later (int fd);
void dirplus_flush_closes (void);

#endif /* DIRPLUS_IMPL_H */
