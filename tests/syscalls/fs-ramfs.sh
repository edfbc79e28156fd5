#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/syscalls/fs-ramfs.sh -- ls -lR on ramfs makes no more system calls
# than GNU ls 9.1 (issue 21): ramfs stores no xattrs, its listxattr
# answers an empty list and its getxattr "not supported", which GNU
# latches at its first probe.  See fs-lib.sh.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fs-lib.sh"
FS_NAME=ramfs
fs_need_kernel ramfs
fs_need_root
fs_mount () { mount -t ramfs ramfs "$mnt" && fs_trees "$mnt"; }
fs_run
