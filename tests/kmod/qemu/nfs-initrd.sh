# SPDX-License-Identifier: GPL-3.0-or-later
# tests/kmod/qemu/nfs-initrd.sh: the NFS part of the VM's initramfs (sourced by
# mkinitrd when LSPLUS_VM_NFS=1; nothing of it is built otherwise, so the
# module tests keep their small initramfs).
#
# Adds what a kernel NFS server and an NFS client need inside one VM over
# loopback (DESIGN.md section 3): the kernel modules ($nfs_extra_mods),
# rpcbind, rpc.statd, nfsdcld, rpc.nfsd, rpc.mountd, exportfs, mount.nfs
# and tc (netem) with their libraries, the /etc files libtirpc and
# mount.nfs read (netconfig, protocols -- without it NFSv3 mounts fail
# "Protocol not supported" --, services, hosts, nfs.conf), the users
# _rpc and statd, the state directories, and the in-VM scripts
# vm-nfs-setup.sh (server + mounts, run by init) and vm-nfs-tests.sh (the
# checks of nfs-vm.test).  Costs about 3 MB in the initramfs and 1 s here.
# Uses copy_bin, need, $root and $vm_testdir from mkinitrd.

nfs_extra_mods="sunrpc grace lockd nfs_acl auth_rpcgss nfsd netfs fscache nfs
	nfsv3 dns_resolver nfsv4 sch_netem"

for b in rpcbind rpc.statd nfsdcld rpc.nfsd rpc.mountd exportfs mount.nfs tc; do
	p=$(command -v "$b" || true)
	[ -n "$p" ] || p=$(ls /usr/sbin/"$b" /sbin/"$b" 2>/dev/null | head -n 1)
	[ -n "$p" ] || vm_die "missing host tool $b (run tools/install-deps: nfs-kernel-server, iproute2)"
	copy_bin "$p" "usr/sbin/$b"
done

for f in netconfig protocols services; do
	[ -f "/etc/$f" ] || vm_die "missing /etc/$f (packages libtirpc-common, netbase)"
	cp "/etc/$f" "etc/$f"
done
echo '127.0.0.1 localhost' >etc/hosts
ln -sf /proc/mounts etc/mtab
cat >etc/nfs.conf <<'EOF'
[general]
pipefs-directory=/var/lib/nfs/rpc_pipefs
[nfsd]
threads=8
[mountd]
manage-gids=n
EOF

# Users of the daemons (uids no fixture file uses).
echo '_rpc:x:201:65534::/run/rpcbind:/bin/false' >>etc/passwd
echo 'statd:x:202:65534::/var/lib/nfs:/bin/false' >>etc/passwd

# State directories; /var/run must be /run (rpc.statd registers there).
mkdir -p var/lib/nfs/sm var/lib/nfs/sm.bak var/lib/nfs/nfsdcld \
	var/lib/nfs/rpc_pipefs var/lib/nfs/v4recovery mnt/nfs3 mnt/nfs4
ln -sfn /run var/run

for s in vm-nfs-setup.sh vm-nfs-tests.sh vm-nfs-lib.sh; do
	cp "$vm_testdir/$s" "$s"
	chmod 755 "$s"
done
