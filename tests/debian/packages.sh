#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/debian/packages.sh: the Debian packages, end to end.
#
# From a copy of the source tree: dpkg-buildpackage -us -uc -b builds
# lsplus and getdentsplus-dkms; lintian finds no error in them; their
# contents are what debian/ promises (lsplus-ls, never ls; the man page;
# NEWS and copyright; the module source with dkms.conf and the uapi
# header); then both are installed, `lsplus-ls --version` and
# `man -w lsplus-ls` work, DKMS builds the module for the VM rig's kernel
# headers (tests/kmod: linux-headers-<ver>-amd64), and purging both leaves
# no file behind (/usr/src, /var/lib/dkms, /lib/modules).
#
# Run as root by tools/run-tests (once, not in make check: ~5 minutes on
# 2 cores, mostly the package build; 18 min wall, 2.5 min CPU while
# five engineers shared the machine).  Exit 0 pass, 1 fail, 77 skip
# (not root, not Debian, or the tools cannot be installed).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
say() { echo "packages: $*"; }
fail() { echo "packages: FAIL: $*"; exit 1; }
skip() { echo "packages: SKIP: $*"; exit 77; }

[ "$(id -u)" -eq 0 ] || skip "needs root (apt-get, dpkg, dkms)"
command -v apt-get >/dev/null 2>&1 || skip "not a Debian system"
[ -d "$top/debian" ] || fail "no debian/ in $top"

apt_get() { apt-get -y -q -o DPkg::Lock::Timeout=600 "$@"; }
export DEBIAN_FRONTEND=noninteractive
need=
for t in dpkg-buildpackage:dpkg-dev dh:debhelper dh_dkms:dh-dkms \
	lintian:lintian dkms:dkms help2man:help2man gnulib-tool:gnulib; do
	command -v "${t%%:*}" >/dev/null 2>&1 || need="$need ${t#*:}"
done
if [ -n "$need" ]; then
	say "installing$need"
	# shellcheck disable=SC2086
	apt_get install --no-install-recommends $need >/dev/null 2>&1 ||
		skip "cannot install$need"
fi

# The kernel the VM rig boots, resolved like tests/kmod/qemu does.
vm_srcdir=$top/tests/kmod/qemu
. "$vm_srcdir/vm-lib.sh"
kver=$(vm_kver) || skip "cannot resolve the rig's kernel version (apt lists)"
if [ ! -f "/usr/src/linux-headers-$kver/Makefile" ]; then
	say "installing linux-headers-$kver"
	apt_get install --no-install-recommends "linux-headers-$kver" >/dev/null 2>&1 ||
		skip "cannot install linux-headers-$kver"
fi

ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$top/kernel-module/dkms.conf")
[ -n "$ver" ] || fail "no PACKAGE_VERSION in kernel-module/dkms.conf"
debver=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
[ "$debver" = "$ver" ] ||
	fail "debian/changelog says $debver, kernel-module/dkms.conf $ver"

work=$(mktemp -d /tmp/lsplus-packages.XXXXXX)
installed=
cleanup() {
	if [ -n "$installed" ]; then
		apt_get purge lsplus getdentsplus-dkms >/dev/null 2>&1 || true
	fi
	rm -rf "$work"
}
trap cleanup EXIT

# A clean copy of the sources: the tracked files of a checkout, else (a
# release tarball) everything but build products.
src=$work/lsplus-$ver
mkdir -p "$src"
if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
	git -C "$top" ls-files -z | (cd "$top" && cpio -pdm0 --quiet "$src")
else
	(cd "$top" && find . \( -name _build -o -name '_*' -o -name work -o \
		-name cache -o -name '*.o' -o -name '*.a' \) -prune -o \
		-type f -print | cpio -pdm --quiet "$src")
fi

say "dpkg-buildpackage -us -uc -b (log: $work/build.log)..."
if ! (cd "$src" && dpkg-buildpackage -us -uc -b) >"$work/build.log" 2>&1; then
	tail -n 60 "$work/build.log"
	fail "dpkg-buildpackage failed"
fi
arch=$(dpkg --print-architecture)
deb=$work/lsplus_${ver}_$arch.deb
dkmsdeb=$work/getdentsplus-dkms_${ver}_all.deb
[ -f "$deb" ] || fail "no $deb"
[ -f "$dkmsdeb" ] || fail "no $dkmsdeb"

say "lintian..."
lintian --fail-on error --suppress-tags-from-file /dev/null \
	"$work/lsplus_${ver}_$arch.changes" >"$work/lintian.log" 2>&1 || {
	cat "$work/lintian.log"
	fail "lintian reports errors"
}
grep -v 'running with root privileges' "$work/lintian.log" |
	sed 's/^/packages:   lintian: /' || true

# Contents.
dpkg-deb -c "$deb" | awk '{ print $6 }' >"$work/lsplus.list"
dpkg-deb -c "$dkmsdeb" | awk '{ print $6 }' >"$work/dkms.list"
for f in ./usr/bin/lsplus-ls ./usr/share/man/man1/lsplus-ls.1.gz \
	./usr/share/doc/lsplus/copyright ./usr/share/doc/lsplus/NEWS; do
	grep -qx "$f\(.gz\)\{0,1\}" "$work/lsplus.list" || fail "lsplus lacks $f"
done
! grep -Eq '^\./(usr/)?bin/ls$' "$work/lsplus.list" || fail "lsplus ships bin/ls"
! grep -q '^\./usr/src/.' "$work/lsplus.list" || fail "lsplus ships module source"
s=./usr/src/getdentsplus-$ver
for f in $s/dkms.conf $s/Kbuild $s/Makefile $s/getdentsplus-main.c \
	$s/compat/gen-compat.sh $s/include/uapi/linux/getdentsplus.h \
	./usr/include/linux/getdentsplus.h; do
	grep -qx "$f" "$work/dkms.list" || fail "getdentsplus-dkms lacks $f"
done

say "installing both packages..."
installed=yes
apt_get install --no-install-recommends "$deb" "$dkmsdeb" >"$work/install.log" 2>&1 || {
	cat "$work/install.log"
	fail "installing the packages failed"
}
lsplus-ls --version | head -n 1 | grep -qx "ls (lsplus) $ver" ||
	fail "lsplus-ls --version: $(lsplus-ls --version | head -n 1)"
man -w lsplus-ls >/dev/null 2>&1 || fail "man -w lsplus-ls finds no page"
[ "$(lsplus-ls -d /)" = / ] || fail "lsplus-ls -d / does not print /"

say "dkms build for $kver..."
ko=/var/lib/dkms/getdentsplus/$ver/$kver/$(uname -m)/module/getdentsplus.ko
if [ ! -f "$ko" ]; then
	dkms build "getdentsplus/$ver" -k "$kver" >"$work/dkms.log" 2>&1 || {
		cat "$work/dkms.log"
		find /var/lib/dkms/getdentsplus -name make.log -exec cat {} + 2>/dev/null
		fail "dkms build failed"
	}
fi
[ -f "$ko" ] || ko=$(find /var/lib/dkms/getdentsplus/"$ver"/"$kver" -name 'getdentsplus.ko*' | head -n 1)
[ -n "$ko" ] && [ -f "$ko" ] || fail "dkms built no getdentsplus.ko for $kver"
[ "$(modinfo -F version "$ko")" = "$ver" ] || fail "module version $(modinfo -F version "$ko"), want $ver"
[ "$(modinfo -F vermagic "$ko" | cut -d' ' -f1)" = "$kver" ] || fail "module vermagic: $(modinfo -F vermagic "$ko")"
say "built $ko"

say "purging both packages..."
apt_get purge lsplus getdentsplus-dkms >"$work/purge.log" 2>&1 || {
	cat "$work/purge.log"
	fail "purging failed"
}
installed=
left=
for f in "/usr/src/getdentsplus-$ver" /var/lib/dkms/getdentsplus \
	/usr/include/linux/getdentsplus.h /usr/bin/lsplus-ls \
	/usr/share/man/man1/lsplus-ls.1.gz /lib/modules/*/updates/dkms/getdentsplus.ko*; do
	if [ -e "$f" ]; then
		left="$left $f"
	fi
done
[ -z "$left" ] || fail "left behind after purge:$left"
say "PASS: built, lintian clean, installed, module built for $kver, purged"
