#!/bin/busybox sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/kmod/vm/vm-nfs-setup.sh: start the kernel NFS server in the VM and
# mount its export twice over loopback (run by init with lsplus.nfs=1 or
# lsplus.mode=nfs, after the ext4 fixture is mounted -o acl and
# setup_tree has given it its ACLs, default ACLs and labels).
#
# Exports /mnt/ext4 to 127.0.0.1 (rw, no_root_squash, sync) and mounts it
# NFSv3 on /mnt/nfs3 and NFSv4.2 on /mnt/nfs4 (vm-nfs-lib.sh).  nfsdcld
# runs before rpc.nfsd, so the server skips the 90 s NFSv4 grace period
# (it has no clients to wait for).  Prints "LSPLUS-VM: nfs ..." lines;
# "LSPLUS-VM: nfs ready" when both mounts are up (about 3 s under TCG).
. /vm-nfs-lib.sh

say() { echo "LSPLUS-VM: nfs: $*"; }
t0=$(nfs_now)
for m in sunrpc grace lockd nfs_acl auth_rpcgss nfsd nfs nfsv3 nfsv4 sch_netem; do
	modprobe "$m" || say "modprobe $m failed"
done
ip link set lo up
mount -t rpc_pipefs rpc_pipefs /var/lib/nfs/rpc_pipefs || say "rpc_pipefs mount failed"
mount -t nfsd nfsd /proc/fs/nfsd || say "nfsd mount failed"
mkdir -p /run/rpcbind
echo "$NFS_EXPORT 127.0.0.1(rw,no_root_squash,no_subtree_check,sync)" >/etc/exports

/usr/sbin/rpcbind || say "rpcbind failed"
/usr/sbin/rpc.statd --no-notify || say "rpc.statd failed"
/usr/sbin/nfsdcld || say "nfsdcld failed"
/usr/sbin/exportfs -ra || say "exportfs failed"
/usr/sbin/rpc.mountd || say "rpc.mountd failed"
/usr/sbin/rpc.nfsd 8 || say "rpc.nfsd failed"

ok=1
for v in 3 4.2; do
	if nfs_mount $v; then
		say "NFSv$v mounted on $(nfs_mnt $v)"
	else
		say "NFSv$v mount FAILED"
		ok=0
	fi
done
[ $ok = 1 ] && say "ready ($(awk -v a="$t0" -v b="$(nfs_now)" 'BEGIN { printf "%.1f", b - a }') s)"
exit 0
