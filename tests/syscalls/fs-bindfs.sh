#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/syscalls/fs-bindfs.sh -- ls -lR through bindfs (FUSE) over a tmpfs
# makes no more system calls and no more daemon requests than GNU ls 9.1
# (issue 21: the remote pool and the read-ahead start only when they
# pay).  See fs-lib.sh.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fs-lib.sh"
FS_NAME=bindfs
fs_need_kernel fuse
fs_need_root
fs_need_prog bindfs
fs_mount ()
{
  mount -t tmpfs tmpfs "$src" && fs_trees "$src" && bindfs "$src" "$mnt"
}
fs_run
