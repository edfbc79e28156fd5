#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/syscalls/fs-squashfuse.sh -- ls -lR on a squashfs image served by
# squashfuse (FUSE) makes no more system calls and no more daemon
# requests than GNU ls 9.1, with GNU's output although squashfuse lists
# security.selinux as trusted.selinux (issue 21).  See fs-lib.sh.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fs-lib.sh"
FS_NAME=squashfuse
fs_need_kernel fuse
fs_need_root
fs_need_prog squashfuse mksquashfs
fs_mount ()
{
  fs_trees "$src" &&
  mksquashfs "$src" "$tmp/img" -quiet -no-progress >/dev/null 2>&1 &&
  squashfuse "$tmp/img" "$mnt"
}
fs_run
