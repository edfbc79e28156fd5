#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/syscalls/fs-erofs.sh -- ls -lR and ls -l on erofs (mkfs.erofs of
# the trees with their ACLs and labels, mounted read-only through a loop
# device) make no more system calls than GNU ls 9.1 (issue 21); then
# again mounted noacl, where GNU's ACL probe fails "not supported" and
# it stops asking, leaving it one call per file fewer (the closest
# margin on a local filesystem).  See fs-lib.sh.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fs-lib.sh"
FS_NAME=erofs
fs_need_kernel erofs
fs_need_root
fs_need_prog mkfs.erofs setfacl setfattr
fs_mount ()
{
  fs_trees "$src" &&
  mkfs.erofs --quiet "$tmp/img" "$src" >"$tmp/mkfs.log" 2>&1 &&
  fs_loop "$tmp/img" "$mnt" -t erofs -o ro
}
fs_after ()
{
  umount "$mnt" && fs_loop "$tmp/img" "$mnt" -t erofs -o ro,noacl || {
    fail "cannot mount $FS_NAME noacl"
    return
  }
  FS_NAME="erofs (noacl)"
  fs_baseline
  fs_check small
  fs_check medium
  fs_check_l medium
}
fs_run
