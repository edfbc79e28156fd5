# SPDX-License-Identifier: GPL-3.0-or-later
# tests/kmod/vm-lib.sh: shared shell functions of the QEMU VM rig (sourced).
#
# Map of the rig (tests/kmod/):
#   vm-lib.sh       this file: paths, kernel version, logging
#   fetch-kernel    download + extract the Debian kernel image (cached)
#   build-module    build kernel-module/ out of tree against its headers
#   mkdisk          fixture tree -> ext4 image (mke2fs -d)
#   mkinitrd        busybox-static initramfs with modules, tests, tools
#   init            /init of the VM (runs the in-VM tests, powers off)
#   vm-tests.sh     the in-VM test driver (TAP), run by init
#   vm-gnudiff.sh   tests/gnu/difftest.py in the VM (getdentsplus backend)
#   gdp-test.c      the in-VM C test program (TAP fragments)
#   boot            qemu-system-x86_64 -accel tcg + serial-log checks
#   run-vm.test     the automake test: all of the above, TAP on stdout
#   nfs-vm.test     the NFS test (issue 7): the same VM with LSPLUS_VM_NFS=1
#   nfs-initrd.sh   (mkinitrd) NFS modules, daemons, /etc files, scripts
#   vm-nfs-setup.sh (init) nfsd + NFSv3/NFSv4.2 mounts of the ext4 disk
#   vm-nfs-lib.sh   in-VM helpers: mount, cold remount, mountstats counters
#   vm-nfs-tests.sh the in-VM checks of nfs-vm.test (RPC counts, GNU suite)
#
# Environment:
#   LSPLUS_VM_CACHE   download cache (default tests/kmod/cache in the source)
#   LSPLUS_VM_WORK    build products (default tests/kmod/work in the build dir)
#   LSPLUS_VM_KVER    kernel version (default: what linux-image-amd64 pulls)
#   LSPLUS_LS         src/ls binary to test end to end (optional)

vm_srcdir=$(cd "$(dirname "$0")" && pwd)
vm_topsrc=$(cd "$vm_srcdir/../.." && pwd)

vm_log() { printf '%s: %s\n' "${0##*/}" "$*" >&2; }
vm_die() { vm_log "error: $*"; exit 99; }

vm_cache_dir() {
	d=${LSPLUS_VM_CACHE:-$vm_srcdir/cache}
	mkdir -p "$d" && (cd "$d" && pwd)
}

vm_work_dir() {
	if [ -n "${LSPLUS_VM_WORK-}" ]; then
		d=$LSPLUS_VM_WORK
	elif [ -d "$PWD/tests/kmod" ]; then
		d=$PWD/tests/kmod/work
	else
		d=$vm_srcdir/work
	fi
	mkdir -p "$d" && (cd "$d" && pwd)
}

# The kernel ABI name (e.g. 6.1.0-56-amd64) that linux-image-amd64 depends
# on, resolved from apt's lists, never hard-coded.
vm_kver() {
	if [ -n "${LSPLUS_VM_KVER-}" ]; then
		echo "$LSPLUS_VM_KVER"
		return
	fi
	v=$(apt-cache depends linux-image-amd64 2>/dev/null |
		sed -n 's/^ *Depends: linux-image-\([0-9][^ ]*-amd64\)$/\1/p' |
		head -n 1)
	if [ -z "$v" ]; then
		apt-get update -qq >/dev/null 2>&1 || true
		v=$(apt-cache depends linux-image-amd64 2>/dev/null |
			sed -n 's/^ *Depends: linux-image-\([0-9][^ ]*-amd64\)$/\1/p' |
			head -n 1)
	fi
	[ -n "$v" ] || return 1
	echo "$v"
}
