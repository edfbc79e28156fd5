#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/syscalls/fs-ext2-nofiletype.sh -- ls -lR and ls -l on ext2 without
# the filetype feature (getdents gives DT_UNKNOWN for every entry, so
# both programs stat what GNU would otherwise skip) make no more system
# calls than GNU ls 9.1 (issue 21).  See fs-lib.sh.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fs-lib.sh"
FS_NAME=ext2-nofiletype
fs_need_kernel ext2
fs_need_root
fs_need_prog mke2fs setfacl setfattr
fs_mount ()
{
  fs_image "$tmp/img" 64M mke2fs -q -F -t ext2 -O ^filetype &&
  fs_loop "$tmp/img" "$mnt" &&
  fs_trees "$mnt"
}
fs_run
