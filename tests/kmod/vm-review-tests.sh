#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/kmod/vm-review-tests.sh: in-VM checks from the kernel-module review
# (run by vm-tests.sh with busybox sh, after the core section; needs
# /usr/bin/gdp-review-test and /getdentsplus.ko in the initramfs).
#
# Prints TAP lines without numbers, like vm-tests.sh.  Covers what the
# core tests do not: the ioctl from a 32-bit caller (int $0x80 ->
# compat_ioctl), int $0x80 and the x32 bit with our number (ENOSYS), upper
# bits of the number, automount (debugfs's "tracing") with and without
# GDP_NO_AUTOMOUNT, an idmapped mount (records and search permission
# through the mapping), ".." at a chroot's root, /proc (magic links with
# GDP_FOLLOW, other users' /proc/1 as uid 65534), EFAULT while a tmpfs
# directory changes, lseek to every d_off, and the nr= range.  Leaves the
# module loaded with its defaults.
T=/usr/bin/gdp-review-test
E=/mnt/ext4/tree
export LC_ALL=C TZ=UTC

r() {
	echo "# --- review: $*"
	timeout 120 "$@"
	[ $? -gt 1 ] && echo "not ok - review: $*: crashed or timed out"
}

# A root-owned 0700 directory: searchable by uid 1000 only through an
# idmapped mount that maps on-disk 0 to 1000.
mkdir -p /mnt/ext4/review-idm/d && echo a >/mnt/ext4/review-idm/f1 &&
	chmod 700 /mnt/ext4/review-idm
mountpoint -q /sys/kernel/debug || mount -t debugfs debugfs /sys/kernel/debug

r $T compat32 $E
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
r $T seek $E
r $T seek /mnt/tmp/tree
r $T seek $E/many

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
	if insmod /getdentsplus.ko nr=388; then
		r $T ia32nr $E
		rmmod getdentsplus
	else
		echo "not ok - review: insmod nr=388"
	fi
	insmod /getdentsplus.ko || echo "not ok - review: insmod again with defaults"
else
	echo "not ok - review: rmmod before the nr= checks"
fi
rm -rf /mnt/ext4/review-idm
