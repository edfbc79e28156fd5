/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dirplus-openahead.c -- shared piece: open the subdirectories ls -R
   will list next, many in one io_uring submission, where the rest of a
   directory costs a single call.

   With the getdentsplus module (or the in-tree call) a directory costs
   its open, one call that returns every entry with its stat data, and
   its close (batched, dirplus-close.c): the open is half of what is
   left.  ls tells the library which subdirectories it will open next
   (dirplus_ahead, in the order it will open them); here up to OA_WINDOW
   of them are opened with IORING_OP_OPENAT in one io_uring_enter, and
   dirplus_open takes the fd (or the open's errno) instead of calling
   openat itself.  The open is the one dirplus_open would make (same
   parent fd, name and flags), made earlier; ls still reports its
   failure when it reaches the directory.  Opens the kernel cannot do
   without blocking run in io_uring's workers side by side, which on a
   cold cache overlaps their inode reads.

   Newer hints go first (ls lists depth first: the subdirectories it just
   found are the next it opens); within a hint, its order.  A hint is
   dropped, and what it opened is closed, when its parent is closed.
   Bounds: at most OA_WINDOW fds opened and not yet taken, OA_QUEUE names
   remembered, nothing at all under an RLIMIT_NOFILE below OA_MIN_NOFILE.
   Where io_uring or its OPENAT are unusable (old kernel, disabled,
   filtered), or an open ahead fails for want of fds, dirplus_open just
   opens the directory itself.

   ls is single-threaded: this is used from one thread only.

   Layering (see the map in dirplus-impl.h): a shared piece, called by
   dirplus.c; calls dirplus-common.c only.  Its ring is its own (the
   uring backend's ring is that backend's; the two never run in one
   process, since this serves only the getdentsplus backends).  */

#include <config.h>

#include "dirplus-impl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>

#if USE_URING
# include <liburing.h>

enum
{
  OA_WINDOW = 64,		/* fds opened ahead, not yet taken */
  OA_QUEUE = 4096,		/* names remembered */
  OA_MIN_NOFILE = 1024,		/* RLIMIT_NOFILE needed */
};

/* One name hinted.  */
struct oa_name
{
  struct oa_name *next;		/* in the order they will be opened */
  int parentfd;
  int oflags;
  int fd;			/* >= 0 opened, -errno failed, OA_QUEUED */
  char name[];
};
#define OA_QUEUED INT32_MIN

static struct io_uring oa_ring;
static int oa_state;		/* 0 untried, 1 usable, -1 not usable */
static struct oa_name *oa_head;	/* hints, the next to be opened first */
static size_t oa_count;		/* names in the list */
static size_t oa_open;		/* of them opened, fd not taken */

/** Whether opening ahead is possible (decided once: the ring, the
    descriptor limit).  */
static bool
oa_usable (void)
{
  if (oa_state == 0)
    {
      struct rlimit rl;
      oa_state = -1;
      if (getrlimit (RLIMIT_NOFILE, &rl) == 0
          && OA_MIN_NOFILE <= rl.rlim_cur
          && io_uring_queue_init (OA_WINDOW, &oa_ring, 0) == 0)
        oa_state = 1;
    }
  return oa_state > 0;
}

/** Close the fd of hint N if it was opened, and free N.  */
static void
oa_free (struct oa_name *n)
{
  if (0 <= n->fd)
    {
      dirplus_close_later (n->fd);
      oa_open--;
    }
  oa_count--;
  free (n);
}

/** Open the queued hints from N on (in list order) while the window has
    room, in one submission; wait for them all.  */
static void
oa_fill (struct oa_name *n)
{
  struct oa_name *batch[OA_WINDOW];
  unsigned int k = 0;
  for (; n && oa_open + k < OA_WINDOW; n = n->next)
    {
      if (n->fd != OA_QUEUED)
        continue;
      struct io_uring_sqe *sqe = io_uring_get_sqe (&oa_ring);
      if (!sqe)
        break;
      io_uring_prep_openat (sqe, n->parentfd, n->name, n->oflags, 0);
      io_uring_sqe_set_data (sqe, n);
      batch[k++] = n;
    }
  if (k == 0)
    return;
  /* One io_uring_enter: opens that complete without blocking are done
     when it returns, the others are waited for.  */
  int r = io_uring_submit_and_wait (&oa_ring, k);
  unsigned int submitted = r < 0 ? 0 : r;
  if (submitted != k)
    /* Never submit again: what the ring still holds must not run later
       (its data would be freed hints).  */
    oa_state = -1;
  for (unsigned int seen = 0; seen < submitted;)
    {
      struct io_uring_cqe *cqe;
      int w = io_uring_wait_cqe (&oa_ring, &cqe);
      if (w == -EINTR)
        continue;
      if (w < 0)
        {
          oa_state = -1;
          break;
        }
      struct oa_name *h = io_uring_cqe_get_data (cqe);
      int res = cqe->res;
      io_uring_cqe_seen (&oa_ring, cqe);
      seen++;
      if (res >= 0)
        {
          h->fd = dirplus_fd_above_stdio (res);
          if (0 <= h->fd)
            oa_open++;
          else
            h->fd = -EAGAIN;
        }
      else if (res == -EINVAL || res == -EOPNOTSUPP || res == -ENOSYS)
        {
          /* No OPENAT in this ring (or not with these flags): never
             open ahead again, dirplus_open opens it itself.  */
          oa_state = -1;
          h->fd = -EAGAIN;
        }
      else if (res == -EMFILE || res == -ENFILE || res == -EAGAIN
               || res == -ENOMEM || res == -EINTR)
        /* Not the open's own answer (out of fds, ...): dirplus_open
           opens it itself.  */
        h->fd = -EAGAIN;
      else
        h->fd = res;
    }
  /* Left without an answer by a failed ring: opened by dirplus_open.  */
  for (unsigned int i = 0; i < k; i++)
    if (batch[i]->fd == OA_QUEUED)
      batch[i]->fd = -EAGAIN;
}

/** Hint that NAMES[0..N-1] will be opened next relative to PARENTFD with
    OFLAGS, in this order (dirplus_ahead).  */
void
dirplus_openahead_hint (int parentfd, char *const *names, size_t n,
                        int oflags)
{
  if (n == 0 || !oa_usable ())
    return;
  struct oa_name *first = NULL, **tail = &first;
  for (size_t i = 0; i < n && oa_count < OA_QUEUE; i++)
    {
      size_t len = strlen (names[i]);
      struct oa_name *h = malloc (offsetof (struct oa_name, name) + len + 1);
      if (!h)
        break;
      h->parentfd = parentfd;
      h->oflags = oflags;
      h->fd = OA_QUEUED;
      memcpy (h->name, names[i], len + 1);
      *tail = h;
      tail = &h->next;
      oa_count++;
    }
  *tail = oa_head;
  oa_head = first;
  if (first)
    oa_fill (first);
}

/** Take the open of NAME relative to PARENTFD with OFLAGS if it was
    hinted: true with *FD (or -1 and *ERR, the open's errno); false when
    dirplus_open must open it itself.  */
bool
dirplus_openahead_take (int parentfd, const char *name, int oflags,
                        int *fd, int *err)
{
  struct oa_name **p = &oa_head;
  for (; *p; p = &(*p)->next)
    if ((*p)->parentfd == parentfd && (*p)->oflags == oflags
        && strcmp ((*p)->name, name) == 0)
      break;
  struct oa_name *h = *p;
  if (!h)
    return false;
  if (h->fd == OA_QUEUED && 0 < oa_state)
    oa_fill (h);
  *p = h->next;
  bool found = h->fd != OA_QUEUED && h->fd != -EAGAIN;
  if (found)
    {
      if (0 <= h->fd)
        {
          *fd = h->fd;
          oa_open--;
          h->fd = OA_QUEUED;	/* now the caller's */
        }
      else
        {
          *fd = -1;
          *err = -h->fd;
        }
    }
  oa_free (h);
  return found;
}

/** Forget the hints under directory fd FD (about to be closed), closing
    what was opened for them.  */
void
dirplus_openahead_drop (int fd)
{
  for (struct oa_name **p = &oa_head; *p;)
    if ((*p)->parentfd == fd)
      {
        struct oa_name *h = *p;
        *p = h->next;
        oa_free (h);
      }
    else
      p = &(*p)->next;
}

#else /* !USE_URING */

/** Without liburing nothing is opened ahead.  */
void
dirplus_openahead_hint (int parentfd, char *const *names, size_t n,
                        int oflags)
{
  (void) parentfd, (void) names, (void) n, (void) oflags;
}

/** Nothing was opened ahead.  */
bool
dirplus_openahead_take (int parentfd, const char *name, int oflags,
                        int *fd, int *err)
{
  (void) parentfd, (void) name, (void) oflags, (void) fd, (void) err;
  return false;
}

/** Nothing to forget.  */
void
dirplus_openahead_drop (int fd)
{
  (void) fd;
}

#endif
