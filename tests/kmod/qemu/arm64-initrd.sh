# SPDX-License-Identifier: GPL-3.0-or-later
# tests/kmod/qemu/arm64-initrd.sh: the arm64 userland of the VM's initramfs
# (sourced by mkinitrd, cwd = the initramfs root, for LSPLUS_VM_TARGET
# arm64:*).
#
# Packages come from bookworm's arm64 archive through the private apt
# state (vm-apt.sh), whatever the target's suite: busybox-static (sid's
# has no binary), and what init's setup_tree runs (setfacl, setfattr,
# setcap: acl, attr, libcap2-bin with libacl1, libattr1, libcap2, libc6),
# each extracted with dpkg -x.  Every NEEDED library of those binaries
# must then be in the initramfs (checked with aarch64-linux-gnu-readelf).
# gdp-compat-arm.c is built static for AArch32 (arm-linux-gnueabihf-gcc):
# the 32-bit caller checks.
# GNU ls, strace, bash, python3 and src/ls (an amd64 build) are not put
# there: etc/lsplus-no-e2e tells vm-tests.sh why the end-to-end checks
# skip.

arm64_suite=bookworm
arm64_debs() { echo "$(vm_cache_dir)/arm64-userland/debs"; }

# arm64_extract PKG DIR: dpkg -x of bookworm's arm64 PKG into DIR.
arm64_extract() {
	f=$(vm_apt_deb "$arm64_suite" arm64 "$(arm64_debs)" "$1") ||
		vm_die "cannot download $1 ($arm64_suite arm64)"
	dpkg -x "$f" "$2"
}

arm64_busybox() { # DEST
	t=$(vm_work_dir)/busybox-arm64
	rm -rf "$t"
	arm64_extract busybox-static "$t"
	file -L "$t/bin/busybox" | grep -q 'aarch64.*statically linked' ||
		vm_die "busybox-static (arm64) is not a static aarch64 binary"
	cp "$t/bin/busybox" "$1"
	rm -rf "$t"
}

# The NEEDED libraries of the aarch64 ELF files given, missing from the
# initramfs (cwd).
arm64_missing_libs() {
	for b; do
		aarch64-linux-gnu-readelf -d "$b" 2>/dev/null |
			sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'
	done | sort -u | while read -r l; do
		[ -n "$(find lib usr/lib -name "$l" 2>/dev/null | head -n 1)" ] || echo "$l"
	done
}

# Where the packages put NAME (bin, sbin, usr/bin or usr/sbin): init
# finds it through PATH.
arm64_find() { # NAME
	for d in bin sbin usr/bin usr/sbin; do
		if [ -f "$d/$1" ] && [ ! -L "$d/$1" ]; then
			echo "$d/$1"
			return 0
		fi
	done
	return 1
}

arm64_compat_test() {
	arm-linux-gnueabihf-gcc -O2 -static -Wall -Wextra -Wno-sign-compare \
		-I"$vm_topsrc/kernel-module/include/uapi" \
		-o usr/bin/gdp-compat-arm "$vm_testdir/gdp-compat-arm.c" ||
		vm_die "cannot compile gdp-compat-arm.c (arm-linux-gnueabihf-gcc)"
}

arm64_tools() {
	for p in acl attr libcap2-bin libacl1 libattr1 libcap2 libc6; do
		arm64_extract "$p" .
	done
	rm -rf usr/share/doc usr/share/man usr/share/locale usr/share/lintian \
		usr/lib/aarch64-linux-gnu/gconv
	bins=
	for t in setfacl getfacl setfattr getfattr setcap getcap; do
		b=$(arm64_find "$t") || vm_die "arm64 tools: no $t in the packages"
		bins="$bins $b"
	done
	# shellcheck disable=SC2086
	m=$(arm64_missing_libs $bins)
	[ -z "$m" ] || vm_die "arm64 tools: libraries missing: $m"
	echo "arm64 target: GNU ls, strace and src/ls in the VM would be arm64 builds (not made by this rig)" \
		>etc/lsplus-no-e2e
}
