#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/syscalls/fs-squashfs.sh -- ls -lR and ls -l on squashfs (the
# kernel's, not squashfuse: mksquashfs of the trees with their ACLs and
# labels, mounted through a loop device) make no more system calls than
# GNU ls 9.1 (issue 21).  See fs-lib.sh.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fs-lib.sh"
FS_NAME=squashfs
fs_need_kernel squashfs
fs_need_root
fs_need_prog mksquashfs setfacl setfattr
fs_mount ()
{
  fs_trees "$src" &&
  mksquashfs "$src" "$tmp/img" -quiet -no-progress >/dev/null 2>&1 &&
  fs_loop "$tmp/img" "$mnt" -t squashfs -o ro
}
fs_run
