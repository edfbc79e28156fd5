/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dirplus-fs.c -- what kind of filesystem a device holds, and so how its
   entries are best read.

   Three kinds, decided from the filesystem type that /proc/self/mountinfo
   gives for the device (read once, and again only for a device it did not
   list; never statfs(2), which is a round trip on NFS):

     local   ext4, xfs, btrfs, tmpfs, ...: one listxattr per entry answers
             every attribute bit; entries are stat'ed in the calling thread
             (plus the one helper thread of dirplus-batch.c).
     fuse    fuse, fuse.*, fuseblk, virtiofs: every xattr call is a request
             to the daemon and is never cached by the kernel, so one
             listxattr per entry is still the cheapest answer (GNU ls 9.1
             makes two getxattr requests); the per-entry calls are
             overlapped in the remote pool (dirplus-pool.c).
     net     nfs, nfs4, cifs, smb3, ceph, lustre, 9p, afs, ...: a listxattr
             is a round trip where GNU 9.1 makes none (NFSv4: its POSIX ACL
             and label probes fail locally and it stops asking), so the
             attribute bits are probed exactly the way GNU 9.1 probes them
             (getxattr of the ACL names, lgetxattr of the label, and the same
             per-device "unsupported" latch): never more round trips than
             GNU by construction.  Overlapped through io_uring's workers
             under auto and uring (dirplus-uring.c), else in the remote
             pool.

   LSPLUS_REMOTE=auto (default) | fuse | net | local forces every device to
   one kind (tests and benchmarks on a local disk).  A device missing from
   mountinfo (btrfs subvolumes, /proc not mounted) is local: today's
   behaviour, the one that never needs mountinfo.

   Layering (see the map in dirplus-impl.h): a shared piece, called by
   dirplus.c (dirplus_set_dev, dirplus_stat, LSPLUS_REMOTE), the uring
   backend, dirplus-batch.c and dirplus-stat.c; calls nothing of the
   library.  */

#include <config.h>

#include "dirplus-impl.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/sysmacros.h>

/* Filesystem types whose xattr calls are network round trips (the part of
   a "fuse.*" subtype does not matter: all FUSE is DIRPLUS_FS_FUSE).  */
static const char *const net_types[] =
{
  "nfs", "nfs4", "cifs", "smb3", "smbfs", "ceph", "lustre", "9p", "afs",
  "coda", "ncpfs", "orangefs", "pvfs2", "gpfs", "beegfs", "vboxsf",
  "glusterfs", "gfs2", "ocfs2", "panfs", "davfs",
};

/** The kind of filesystem type TYPE (as mountinfo spells it).  */
enum dirplus_fs_kind
dirplus_fs_kind_of_type (const char *type)
{
  if (strcmp (type, "fuse") == 0 || strncmp (type, "fuse.", 5) == 0
      || strcmp (type, "fuseblk") == 0 || strcmp (type, "virtiofs") == 0)
    return DIRPLUS_FS_FUSE;
  for (size_t i = 0; i < sizeof net_types / sizeof net_types[0]; i++)
    if (strcmp (type, net_types[i]) == 0)
      return DIRPLUS_FS_NET;
  return DIRPLUS_FS_LOCAL;
}

/** Parse one mountinfo LINE: store its device in *DEV and its filesystem
    type's kind in *KIND.  Returns 0, or -1 for a line it cannot read.
    The format (proc(5)): ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS
    [OPTIONAL...] - FSTYPE SOURCE SUPEROPTIONS.  */
int
dirplus_fs_parse_mountinfo_line (const char *line, dev_t *dev,
                                 enum dirplus_fs_kind *kind)
{
  unsigned int maj, min;
  if (sscanf (line, "%*u %*u %u:%u", &maj, &min) != 2)
    return -1;
  /* The separator is the first field that is exactly "-".  */
  const char *p = strstr (line, " - ");
  if (!p)
    return -1;
  p += 3;
  size_t len = strcspn (p, " \n");
  if (len == 0 || len >= 64)
    return -1;
  char type[64];
  memcpy (type, p, len);
  type[len] = '\0';
  *dev = makedev (maj, min);
  *kind = dirplus_fs_kind_of_type (type);
  return 0;
}

/* Known devices: a small table, most recent first; a device that was not
   in mountinfo is stored as local so that mountinfo is re-read at most
   once per new device.  Read by the pool's threads: guarded by LOCK.  */
enum { N_DEVS = 32 };
static struct { dev_t dev; enum dirplus_fs_kind kind; } devs[N_DEVS];
static size_t n_devs;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int forced = -1;		/* LSPLUS_REMOTE: a kind, or -1 (auto) */
static bool forced_read;

/** Remember that DEV is of KIND (LOCK held).  */
static void
remember (dev_t dev, enum dirplus_fs_kind kind)
{
  size_t n = n_devs < N_DEVS ? n_devs : N_DEVS - 1;
  memmove (devs + 1, devs, n * sizeof devs[0]);
  devs[0].dev = dev;
  devs[0].kind = kind;
  n_devs = n + 1;
}

/** Look DEV up in /proc/self/mountinfo (LOCK held): its kind, local if it
    is not listed or the file cannot be read.  */
static enum dirplus_fs_kind
lookup_mountinfo (dev_t dev)
{
  enum dirplus_fs_kind found = DIRPLUS_FS_LOCAL;
  int fd = open ("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return found;
  FILE *f = fdopen (fd, "r");
  if (!f)
    {
      close (fd);
      return found;
    }
  char *line = NULL;
  size_t size = 0;
  while (getline (&line, &size, f) > 0)
    {
      dev_t d;
      enum dirplus_fs_kind k;
      if (dirplus_fs_parse_mountinfo_line (line, &d, &k) == 0 && d == dev)
        found = k;		/* the last mount of a device wins */
    }
  free (line);
  fclose (f);
  return found;
}

/** The kind of filesystem device DEV holds.  */
enum dirplus_fs_kind
dirplus_fs_kind (dev_t dev)
{
  /* Each thread remembers its last answer: most calls ask about the same
     device as the previous one, and take no lock.  */
  static __thread dev_t last_dev;
  static __thread int last_kind = -1;
  if (0 <= last_kind && last_dev == dev)
    return last_kind;

  enum dirplus_fs_kind kind;
  pthread_mutex_lock (&lock);
  if (!forced_read)
    {
      forced_read = true;
      const char *env = getenv ("LSPLUS_REMOTE");
      if (env && strcmp (env, "local") == 0)
        forced = DIRPLUS_FS_LOCAL;
      else if (env && strcmp (env, "fuse") == 0)
        forced = DIRPLUS_FS_FUSE;
      else if (env && strcmp (env, "net") == 0)
        forced = DIRPLUS_FS_NET;
    }
  if (forced >= 0)
    {
      kind = forced;
      goto done;
    }
  size_t n = n_devs < N_DEVS ? n_devs : N_DEVS;
  for (size_t i = 0; i < n; i++)
    if (devs[i].dev == dev)
      {
        kind = devs[i].kind;
        goto done;
      }
  kind = lookup_mountinfo (dev);
  remember (dev, kind);
 done:
  pthread_mutex_unlock (&lock);
  last_dev = dev;
  last_kind = kind;
  return kind;
}

/** Whether LSPLUS_REMOTE holds a value this library understands (unset,
    empty, auto, local, fuse, net).  */
bool
dirplus_fs_env_valid (void)
{
  const char *env = getenv ("LSPLUS_REMOTE");
  return (!env || !*env || strcmp (env, "auto") == 0
          || strcmp (env, "local") == 0 || strcmp (env, "fuse") == 0
          || strcmp (env, "net") == 0);
}
