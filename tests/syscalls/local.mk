## SPDX-License-Identifier: GPL-3.0-or-later
## tests/syscalls/local.mk: syscall-count tests (strace).
TESTS += tests/syscalls/ls-l.sh
EXTRA_DIST += tests/syscalls/lib.sh tests/syscalls/ls-l.sh
TESTS += tests/syscalls/ls-lR-backends.sh
EXTRA_DIST += tests/syscalls/ls-lR-backends.sh
TESTS += tests/syscalls/ls-lR-warm.sh
EXTRA_DIST += tests/syscalls/ls-lR-warm.sh
TESTS += tests/syscalls/ls-remote.sh
EXTRA_DIST += tests/syscalls/ls-remote.sh
# Per filesystem (issue 21): ls -lR and ls -l make no more calls than GNU ls.
FS_SYSCALL_TESTS = tests/syscalls/fs-ramfs.sh tests/syscalls/fs-tmpfs.sh \
  tests/syscalls/fs-bindfs.sh tests/syscalls/fs-fuse2fs.sh \
  tests/syscalls/fs-squashfuse.sh tests/syscalls/fs-juicefs.sh \
  tests/syscalls/fs-xfs.sh tests/syscalls/fs-btrfs.sh \
  tests/syscalls/fs-erofs.sh tests/syscalls/fs-squashfs.sh \
  tests/syscalls/fs-overlay.sh tests/syscalls/fs-ext2-nofiletype.sh
TESTS += $(FS_SYSCALL_TESTS)
EXTRA_DIST += $(FS_SYSCALL_TESTS) tests/syscalls/fs-lib.sh
