#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/syscalls/fs-overlay.sh -- ls -lR and ls -l on overlayfs (lower,
# upper and work directories on one ext4 loop image, the trees in the
# lower one, then through the overlay: a file removed (a whiteout), a
# directory removed and made again (opaque), files copied up by chmod,
# by an ACL and by a user xattr) make no more system calls than GNU ls
# 9.1 (issue 21).  See fs-lib.sh.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fs-lib.sh"
FS_NAME=overlay
fs_need_kernel overlay
fs_need_kernel ext4
fs_need_root
fs_need_prog mke2fs setfacl setfattr
fs_mount ()
{
  fs_image "$tmp/img" 64M mke2fs -q -F -t ext4 &&
  fs_loop "$tmp/img" "$src" &&
  mkdir "$src/lower" "$src/upper" "$src/work" &&
  fs_trees "$src/lower" &&
  mount -t overlay -o \
    "lowerdir=$src/lower,upperdir=$src/upper,workdir=$src/work" \
    overlay "$mnt" || return 1
  for _t in small medium; do
    rm "$mnt/$_t/d4/f03" &&
    rm -r "$mnt/$_t/d5" && mkdir "$mnt/$_t/d5" && touch "$mnt/$_t/d5/new" &&
    chmod 600 "$mnt/$_t/d4/f01" &&
    setfacl -m u:65534:rw "$mnt/$_t/d4/f02" &&
    setfattr -n user.note -v y "$mnt/$_t/d1/f02" || return 1
  done
}
fs_run
