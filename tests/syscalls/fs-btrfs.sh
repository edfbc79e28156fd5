#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/syscalls/fs-btrfs.sh -- ls -lR and ls -l in a btrfs subvolume
# (a loop image mounted on $src, the subvolume "sv" mounted on its own
# with subvol=, the trees with their ACLs and labels made in it) make no
# more system calls than GNU ls 9.1 (issue 21).  See fs-lib.sh.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fs-lib.sh"
FS_NAME=btrfs
fs_need_kernel btrfs
fs_need_root
fs_need_prog mkfs.btrfs btrfs findmnt setfacl setfattr
fs_mount ()
{
  fs_image "$tmp/img" 200M mkfs.btrfs -q &&
  fs_loop "$tmp/img" "$src" &&
  btrfs -q subvolume create "$src/sv" >/dev/null &&
  mount -o subvol=sv "$(findmnt -n -o SOURCE "$src")" "$mnt" &&
  fs_trees "$mnt"
}
fs_run
