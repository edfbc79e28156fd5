#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/syscalls/fs-fuse2fs.sh -- ls -lR on an ext4 image served by
# fuse2fs (FUSE) makes no more system calls and no more daemon requests
# than GNU ls 9.1 (issue 21).  See fs-lib.sh.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fs-lib.sh"
FS_NAME=fuse2fs
fs_need_kernel fuse
fs_need_root
fs_need_prog fuse2fs mke2fs
fs_mount ()
{
  fs_trees "$src" &&
  mke2fs -q -t ext4 -d "$src" "$tmp/img" 16M >/dev/null 2>&1 &&
  fuse2fs -o ro "$tmp/img" "$mnt" >/dev/null 2>&1
}
fs_run
