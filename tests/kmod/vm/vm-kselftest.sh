#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/kmod/vm/vm-kselftest.sh: in-VM section kselftest (issue 13): the
# kselftest of upstream/'s series, tools/testing/selftests/filesystems/
# getdentsplus/getdentsplus_test (built by mkinitrd from the kernel's own
# tree), run as root on the patched kernel (the debug kernel of
# vm-debug.test) with GETDENTSPLUS_TEST_DIR on the ext4 disk (it mounts
# its own tmpfs besides).
#
# Its TAP is passed on as the rig's lines ("ok - kselftest: NAME"), its
# "# ..." lines as they are; then one line each for its exit status, its
# totals (every test passed, none failed) and the kernel having the call.
# A kernel without the call (no getdentsplus_test in the initramfs: the
# Debian kernels) skips; a kselftest that did not build fails.

ok() { echo "ok - $*"; }
notok() { echo "not ok - $*"; }

T=/usr/bin/getdentsplus_test
if [ -f /etc/lsplus-no-kselftest ]; then
	notok "kselftest: built ($(cat /etc/lsplus-no-kselftest))"
	exit 0
fi
if [ ! -x $T ]; then
	ok "kselftest # SKIP this kernel's source has no getdentsplus() series (only the debug kernel has)"
	exit 0
fi
echo "# --- kselftest"
d=/mnt/ext4/ksft
rm -rf $d
mkdir -p $d
s=$(date +%s)
GETDENTSPLUS_TEST_DIR=$d timeout $((600 * ${timescale:-1})) $T >/tmp/ksft.out 2>&1
rc=$?
# "ok 3 global.name", "not ok 4 fixture.name # reason", "ok 5 x # SKIP why"
sed -n 's/^\(not \)\{0,1\}ok [0-9][0-9]* \(.*\)$/\1ok - kselftest: \2/p
	s/^\(#.*\)$/\1/p' /tmp/ksft.out
pass=$(sed -n 's/^# Totals: pass:\([0-9]*\) .*/\1/p' /tmp/ksft.out)
fail=$(sed -n 's/^# Totals: .* fail:\([0-9]*\) .*/\1/p' /tmp/ksft.out)
if [ "$rc" -eq 0 ]; then ok "kselftest: exit status 0"; else notok "kselftest: exit status $rc"; fi
if [ -n "$pass" ] && [ "$pass" -gt 0 ] && [ "$fail" = 0 ]; then
	ok "kselftest: totals: $pass passed, 0 failed"
else
	notok "kselftest: totals: passed ${pass:-?}, failed ${fail:-?}"
fi
echo "# --- kselftest: $(($(date +%s) - s)) s"
rm -rf $d
