## SPDX-License-Identifier: GPL-3.0-or-later
## upstream/local.mk: the getdentsplus syscall patch series (issue 13) and
## the statx ACL/label and inline io_uring statx series (issue 20).
## Nothing here is built or tested by make check yet; it is shipped.
EXTRA_DIST += upstream/README.md upstream/selftest-model.c \
	upstream/0000-cover-letter.patch \
	upstream/0001-fs-let-the-rest-of-fs-stat-a-path-and-check-dirent-n.patch \
	upstream/0002-fs-add-vfs_lookup_at-to-look-a-name-up-from-a-held-d.patch \
	upstream/0003-fs-add-getdentsplus-to-read-directory-entries-with-t.patch \
	upstream/0004-arch-wire-up-getdentsplus-syscall.patch \
	upstream/0005-tools-sync-syscall-tables-and-asm-generic-unistd.h-w.patch \
	upstream/0006-selftests-filesystems-add-getdentsplus-tests.patch \
	upstream/man-pages/0001-man-man2-getdentsplus.2-New-page.patch \
	upstream/statx-xattr-info/0000-cover-letter.patch \
	upstream/statx-xattr-info/man-pages/0001-man-man2-statx.2-Document-STATX_XATTR_INFO-STATX_ATT.patch \
	upstream/statx-xattr-info/0001-statx-report-whether-a-file-has-a-POSIX-ACL-or-a-sec.patch \
	upstream/statx-xattr-info/0002-ext4-tell-statx-when-an-inode-stores-no-security-lab.patch \
	upstream/statx-xattr-info/0003-xfs-tell-statx-when-an-inode-stores-no-security-labe.patch \
	upstream/statx-xattr-info/0004-shmem-tell-statx-whether-a-security-label-is-stored.patch \
	upstream/statx-xattr-info/0005-ext2-cache-the-absence-of-ACLs-for-inodes-without-an.patch \
	upstream/statx-xattr-info/0006-selftests-filesystems-add-statx-ACL-and-label-attrib.patch \
	upstream/io_uring-statx/0000-cover-letter.patch \
	upstream/io_uring-statx/0001-fs-add-do_statx_nowait-for-callers-that-must-not-blo.patch \
	upstream/io_uring-statx/0002-io_uring-statx-complete-inline-when-the-answer-is-in.patch \
	upstream/io_uring-statx/0003-selftests-io_uring-add-IORING_OP_STATX-inline-comple.patch
