#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/syscalls/fs-xfs.sh -- ls -lR and ls -l on xfs (a loop image, the
# trees with their ACLs and labels made on it) make no more system calls
# than GNU ls 9.1 (issue 21).  See fs-lib.sh.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fs-lib.sh"
FS_NAME=xfs
fs_need_kernel xfs
fs_need_root
fs_need_prog mkfs.xfs setfacl setfattr
fs_mount ()
{
  fs_image "$tmp/img" 320M mkfs.xfs -q &&
  fs_loop "$tmp/img" "$mnt" &&
  fs_trees "$mnt"
}
fs_run
