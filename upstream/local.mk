## SPDX-License-Identifier: GPL-3.0-or-later
## upstream/local.mk: the getdentsplus syscall patch series (issue 13).
## Nothing here is built or tested by make check yet; it is shipped.
EXTRA_DIST += upstream/README.md upstream/selftest-model.c \
	upstream/0000-cover-letter.patch \
	upstream/0001-fs-let-the-rest-of-fs-stat-a-path-and-check-dirent-n.patch \
	upstream/0002-fs-add-vfs_lookup_at-to-look-a-name-up-from-a-held-d.patch \
	upstream/0003-fs-add-getdentsplus-to-read-directory-entries-with-t.patch \
	upstream/0004-x86-wire-up-getdentsplus-syscall.patch \
	upstream/0005-arch-wire-up-getdentsplus-in-the-generic-syscall-tab.patch \
	upstream/0006-selftests-filesystems-add-getdentsplus-tests.patch \
	upstream/man-pages/0001-man-man2-getdentsplus.2-New-page.patch
