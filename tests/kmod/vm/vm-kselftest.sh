#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/kmod/vm/vm-kselftest.sh: in-VM section kselftest (issues 13 and
# 20): the kselftests of upstream/'s series (built by mkinitrd from the
# kernel's own tree), run as root on the patched kernel (the debug kernel
# of vm-debug.test), each with its test directory on the ext4 disk (they
# mount their own tmpfs besides):
#   getdentsplus_test       tools/testing/selftests/filesystems/getdentsplus
#   statx_xattr_info_test   .../filesystems/statx_xattr_info
#   statx_inline_test       tools/testing/selftests/io_uring
#
# getdentsplus_test runs a second time, its testdir variant only, on the
# btrfs disk run-vm.test attaches (serial ksftbtrfs; where the kernel has
# btrfs): btrfs moves a directory's position on the read that finds the
# end, which mark_end checks ("ok - kselftest btrfs: NAME").
#
# Each one's TAP is passed on as the rig's lines ("ok - kselftest: NAME"
# for getdentsplus_test, "ok - kselftest statx_inline_test: NAME" for the
# others), its "# ..." lines as they are; then one line each for its exit
# status, its totals (every test passed, none failed, none skipped but
# the ones named in SKIPS) and the kernel having the call.  A kernel
# without the series (no test in the initramfs: the Debian kernels)
# skips; a kselftest that did not build fails.

ok() { echo "ok - $*"; }
notok() { echo "not ok - $*"; }

if [ -f /etc/lsplus-no-kselftest ]; then
	while read -r line; do notok "kselftest: built ($line)"; done </etc/lsplus-no-kselftest
fi
if [ ! -x /usr/bin/getdentsplus_test ]; then
	ok "kselftest # SKIP this kernel's source has no getdentsplus() series (only the debug kernel has)"
	exit 0
fi

# run_ksft PROG ENVVAR LABEL SKIPS [BASE [ARG...]]: PROG [ARG...] with
# ENVVAR set to a fresh directory under BASE (default: the ext4 disk);
# SKIPS: how many skipped tests are expected (tests that need what this
# kernel or disk does not have, named in the test's own SKIP reason,
# which is printed).
run_ksft() {
	T=/usr/bin/$1 var=$2 label=$3 skips=$4 base=${5:-/mnt/ext4}
	shift 4
	[ $# -gt 0 ] && shift
	if [ ! -x "$T" ]; then
		notok "$label: ${T##*/} is not in the initramfs"
		return
	fi
	echo "# --- $label"
	d=$base/ksft
	rm -rf $d
	mkdir -p $d
	s=$(date +%s)
	env "$var=$d" timeout $((600 * ${timescale:-1})) "$T" "$@" >/tmp/ksft.out 2>&1
	rc=$?
	# "ok 3 global.name", "not ok 4 fixture.name # reason", "ok 5 x # SKIP why"
	sed -n "s/^\(not \)\{0,1\}ok [0-9][0-9]* \(.*\)\$/\1ok - $label: \2/p
		s/^\(#.*\)\$/\1/p" /tmp/ksft.out
	pass=$(sed -n 's/^# Totals: pass:\([0-9]*\) .*/\1/p' /tmp/ksft.out)
	fail=$(sed -n 's/^# Totals: .* fail:\([0-9]*\) .*/\1/p' /tmp/ksft.out)
	skip=$(sed -n 's/^# Totals: .* skip:\([0-9]*\) .*/\1/p' /tmp/ksft.out)
	if [ "$rc" -eq 0 ]; then ok "$label: exit status 0"; else notok "$label: exit status $rc"; fi
	if [ -n "$pass" ] && [ "$pass" -gt 0 ] && [ "$fail" = 0 ] && [ "${skip:-0}" -le "$skips" ]; then
		ok "$label: totals: $pass passed, 0 failed, $skip skipped (at most $skips expected)"
	else
		notok "$label: totals: passed ${pass:-?}, failed ${fail:-?}, skipped ${skip:-?} (at most $skips expected)"
	fi
	echo "# --- $label: $(($(date +%s) - s)) s"
	rm -rf $d
}

run_ksft getdentsplus_test GETDENTSPLUS_TEST_DIR kselftest 0

# The btrfs disk: its testdir variant there.
bdev=
for f in /sys/block/vd*/serial; do
	[ -f "$f" ] && [ "$(cat "$f")" = ksftbtrfs ] && bdev=/dev/${f#/sys/block/} bdev=${bdev%/serial}
done
if [ -z "$bdev" ]; then
	ok "kselftest btrfs # SKIP no btrfs disk attached (run-vm.test attaches one where the sections name kselftest)"
elif ! grep -qw btrfs /proc/filesystems; then
	ok "kselftest btrfs # SKIP this kernel has no btrfs"
elif mkdir -p /mnt/ksft-btrfs && mount -t btrfs "$bdev" /mnt/ksft-btrfs; then
	run_ksft getdentsplus_test GETDENTSPLUS_TEST_DIR "kselftest btrfs" 0 /mnt/ksft-btrfs -v testdir
	umount /mnt/ksft-btrfs
else
	notok "kselftest btrfs: mount $bdev"
fi
# statx_xattr_info_test: tmpfs.empty_label skips where an LSM refuses an
# empty security.selinux (none is active in the rig: 0 expected).
run_ksft statx_xattr_info_test STATX_XATTR_INFO_TEST_DIR "kselftest statx_xattr_info_test" 0
run_ksft statx_inline_test STATX_INLINE_TEST_DIR "kselftest statx_inline_test" 0
