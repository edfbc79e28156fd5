#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/syscalls/fs-tmpfs.sh -- ls -lR on tmpfs (ACLs, labels, user
# xattrs) makes no more system calls than GNU ls 9.1 (issue 21).  See
# fs-lib.sh.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fs-lib.sh"
FS_NAME=tmpfs
fs_need_kernel tmpfs
fs_need_root
fs_mount () { mount -t tmpfs tmpfs "$mnt" && fs_trees "$mnt"; }
fs_run
