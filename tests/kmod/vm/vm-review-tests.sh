#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/kmod/vm/vm-review-tests.sh: in-VM checks from the kernel-module review
# (run by vm-tests.sh with busybox sh, after the core section; needs
# /usr/bin/gdp-review-test and /getdentsplus.ko in the initramfs).
#
# Prints TAP lines without numbers, like vm-tests.sh.  Covers what the
# core tests do not: the ioctl from a 32-bit caller (int $0x80 ->
# compat_ioctl; on arm64 an AArch32 program, gdp-compat-arm), a 32-bit
# caller with our number (ENOSYS), the x32 bit with our number, upper
# bits of the number, automount (debugfs's "tracing") with and without
# AT_NO_AUTOMOUNT, an idmapped mount (records and search permission
# through the mapping), ".." at a chroot's root, /proc (magic links with
# AT_SYMLINK_FOLLOW, other users' /proc/1 as uid 65534), EFAULT while a tmpfs
# directory changes, lseek to every d_off, the nr= range, GDP_ATTR_CACHED,
# the four fixes of issue 8 (races on names and the fd, memory while
# queued, error mapping) and device=0.  Leaves the module loaded with its
# defaults.
T=/usr/bin/gdp-review-test
E=/mnt/ext4/tree
export LC_ALL=C TZ=UTC

r() {
	echo "# --- review: $*"
	timeout $((120 * ${timescale:-1})) "$@"
	[ $? -gt 1 ] && echo "not ok - review: $*: crashed or timed out"
}

# A root-owned 0700 directory: searchable by uid 1000 only through an
# idmapped mount that maps on-disk 0 to 1000.
mkdir -p /mnt/ext4/review-idm/d && echo a >/mnt/ext4/review-idm/f1 &&
	chmod 700 /mnt/ext4/review-idm
mountpoint -q /sys/kernel/debug || mount -t debugfs debugfs /sys/kernel/debug

# arm64: the 32-bit (AArch32) caller is its own program (gdp-compat-arm).
C=/usr/bin/gdp-compat-arm
if [ -x $C ]; then
	r $C ioctl $E
else
	r $T compat32 $E
fi
r $T nrbits $E
r $T automount /sys/kernel/debug tracing
r $T idmap /mnt/ext4 review-idm
r $T chroot /mnt/tmp/tree
r $T oracle /proc/self/fd 1
r $T oracle /proc/self 1
r $T oracle /proc/self 0
r $T oracle $E 1
r $T oracle $E/mnt-inner 0
r $T oracle $E/noexec 0 65534
r $T oracle $E 1 65534
r $T oracle /proc/1 1 65534
r $T oracle /proc/1 0 65534
r $T efault-race /mnt/tmp/efault-race 10
rm -rf /mnt/tmp/efault-race
# Issue 23 (ABI 4): getdents64's position rule with two users of one open
# file and short deliveries, on tmpfs (ordinal positions) and ext4 (hash
# positions); mounts of and over symlinks resolved as fstatat does.
V=/usr/bin/gdp-v4-test
for d in /mnt/tmp/v4-shared /mnt/ext4/v4-shared; do
	for mode in plus mixed churn; do
		r $V shared $d 4 $mode
	done
	rm -rf $d
done
r $V mntlink /mnt/tmp/v4-mntlink
rm -rf /mnt/tmp/v4-mntlink
r $V audit /mnt/tmp/v4-audit
rm -rf /mnt/tmp/v4-audit
r $T seek $E
r $T seek /mnt/tmp/tree
r $T seek $E/many

# Issue 12: no private fs_struct (pivot_root while AT_SYMLINK_FOLLOW lists the
# pivoting task's root), cached ACL bits through the LSM hook (a BPF LSM).
r $T pivot-race /mnt/tmp/pivot-race 8
rmdir /mnt/tmp/pivot-race 2>/dev/null
mountpoint -q /sys/kernel/security || mount -t securityfs securityfs /sys/kernel/security
r $T lsm-cached $E file-acl
# Issue 7: GDP_ATTR_CACHED (ACL bits from the inode's ACL cache only).
r $T acl-cached $E file-acl dir-defacl
# Issue 8's four fixes: names from kernel copies, no second fd lookup,
# nothing allocated while queued on the position lock (killable), and
# kernel-internal errors mapped (through fault injection: fail_function).
r $T name-race /mnt/tmp/name-race 3000
rm -rf /mnt/tmp/name-race
r $T dup2-race /mnt/tmp/dup2-race 2000
rm -rf /mnt/tmp/dup2-race
r $T lockwait $E 64
# The error path is driven by the kernel's fault injection (fail_function
# on the module's gdp_entry_fault; CONFIG_FAIL_FUNCTION, which the debug
# kernel target has and Debian's kernels do not).  The module has no
# runtime test knob of its own.
if [ -e /sys/module/getdentsplus/parameters/test_entry_errno ]; then
	echo "not ok - review: the module has no test_entry_errno parameter (fault injection goes through fail_function)"
else
	echo "ok - review: the module has no test_entry_errno parameter (fault injection goes through fail_function)"
fi
F=/sys/kernel/debug/fail_function
if [ -w $F/inject ] && echo gdp_entry_fault >$F/inject 2>/dev/null; then
	echo N >$F/task-filter
	echo 100 >$F/probability
	echo 0 >$F/interval
	echo -1 >$F/times
	echo 0 >$F/space
	echo 0 >$F/verbose
	# ABI 4: ENOENT and EACCES go into the record; anything else
	# (ERESTARTSYS, NFS's ENOTSUPP and EJUKEBOX, EBADHANDLE, EIO, ENOMEM)
	# leaves the entry to the caller (-1: GDP_REC_UNRESOLVED), untranslated.
	for m in 2:2 13:13 512:-1 524:-1 528:-1 521:-1 5:-1 12:-1; do
		printf '%#x' "-${m%:*}" >$F/gdp_entry_fault/retval &&
			r $T errmap $E ${m%:*} ${m#*:}
	done
	echo >$F/inject
else
	echo "ok - review: errmap # SKIP no fail_function in this kernel (CONFIG_FAIL_FUNCTION): the debug kernel target runs it"
fi

# nr= outside 387..423 is refused; an i386 hole as nr stays ENOSYS for
# int $0x80 callers (the ia32 ni_syscall shares the probed address).
if rmmod getdentsplus; then
	for n in 336 337 386 424; do
		if insmod /getdentsplus.ko nr=$n 2>/dev/null; then
			echo "not ok - review: insmod nr=$n refused (outside 387..423): it loaded"
			rmmod getdentsplus
		else
			echo "ok - review: insmod nr=$n refused (outside 387..423)"
		fi
	done
	# arm64: 402 is a hole of both the AArch32 and the native table.
	if [ -x $C ] && insmod /getdentsplus.ko nr=402; then
		r $C nr $E
		r /usr/bin/gdp-test sanity $E
		rmmod getdentsplus
	elif [ -x $C ]; then
		echo "not ok - review: insmod nr=402"
	elif insmod /getdentsplus.ko nr=388; then
		r $T ia32nr $E
		rmmod getdentsplus
	else
		echo "not ok - review: insmod nr=388"
	fi
	# device=0: no /dev/getdentsplus (seccomp filters see syscall numbers
	# only), the syscall alone; with syscall=0 too there is nothing left.
	if insmod /getdentsplus.ko device=0; then
		r $T nodevice $E
		rmmod getdentsplus
	else
		echo "not ok - review: insmod device=0"
	fi
	if insmod /getdentsplus.ko device=0 syscall=0 2>/dev/null; then
		echo "not ok - review: insmod device=0 syscall=0 refused: it loaded"
		rmmod getdentsplus
	else
		echo "ok - review: insmod device=0 syscall=0 refused (nothing to provide)"
	fi
	insmod /getdentsplus.ko || echo "not ok - review: insmod again with defaults"
else
	echo "not ok - review: rmmod before the nr= checks"
fi
rm -rf /mnt/ext4/review-idm
