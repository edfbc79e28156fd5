## SPDX-License-Identifier: GPL-3.0-or-later
## tests/gnu/local.mk: the GNU differential test (/bin/ls vs src/ls),
## one test script per directory-reading backend.
GNU_DIFF_TESTS = \
	tests/gnu/diff-sync.test \
	tests/gnu/diff-uring.test \
	tests/gnu/diff-getdentsplus.test
TESTS += $(GNU_DIFF_TESTS) tests/gnu/empty-label.test tests/gnu/diff-cold.test \
	tests/gnu/diff-warm.test \
	tests/gnu/collate.test
## The "fs" cases on other filesystems (issue 21): loop images, memory
## filesystems and FUSE, one test each (tests/gnu/fsmatrix.py).
GNU_FS_TESTS = \
	tests/gnu/fs-xfs.test \
	tests/gnu/fs-btrfs.test \
	tests/gnu/fs-erofs.test \
	tests/gnu/fs-squashfs.test \
	tests/gnu/fs-overlay.test \
	tests/gnu/fs-ext2-nofiletype.test \
	tests/gnu/fs-ramfs.test \
	tests/gnu/fs-tmpfs.test \
	tests/gnu/fs-fuse2fs.test \
	tests/gnu/fs-squashfuse.test \
	tests/gnu/fs-bindfs.test
TESTS += $(GNU_FS_TESTS)
EXTRA_DIST += $(GNU_FS_TESTS) tests/gnu/fs-matrix.sh tests/gnu/fsmatrix.py
EXTRA_DIST += $(GNU_DIFF_TESTS) tests/gnu/empty-label.test \
	tests/gnu/diff-cold.test tests/gnu/diff-warm.test \
	tests/gnu/collate.test \
	tests/gnu/collate.py \
	tests/gnu/cases.py \
	tests/gnu/diff-backend.sh tests/gnu/python-env.sh \
	tests/gnu/difftest.py \
	tests/gnu/fixture.py \
	tests/gnu/README.md
