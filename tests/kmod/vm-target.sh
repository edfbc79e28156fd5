# SPDX-License-Identifier: GPL-3.0-or-later
# tests/kmod/vm-target.sh: the kernel matrix (issue 8), sourced by the
# vm-*.test wrappers after they set LSPLUS_VM_TARGET=ARCH:SUITE.
#
# Runs run-vm.test's module checks on that target: the module built with
# W=1 (a check that it warns nothing), loaded, the core, rmmod and review
# sections, end to end src/ls -lR against GNU ls where both run in the VM
# (amd64), the kernel log checked for BUG/WARNING/Oops.  No GNU
# differential suite (run-vm.test runs it on the default kernel).  Each
# target has its own work dir (tests/kmod/work-ARCH-SUITE): make -j runs
# the wrappers in parallel.
#
# Skipped (77, reason printed) with LSPLUS_CHECK_SCOPE=short: the
# sanitizer and distcheck passes of tools/run-tests need not repeat the
# matrix.
#
# The VM's time limit (boot's LSPLUS_VM_TIMEOUT, unless set) scales with
# what runs: a budget per section (boot, core, rmmod, review, e2e; about
# the times measured on a 2-core machine running another VM), times 4,
# times 2 for arm64 (TCG emulates another instruction set: it measured
# about the same, the issue saw slower boots), times the host's load per
# core when above 1 (a loaded machine must not cut a healthy VM off).
set -u
vm_t_dir=$(cd "$(dirname "$0")" && pwd)

if [ "${LSPLUS_CHECK_SCOPE-}" = short ]; then
	echo "SKIP: LSPLUS_CHECK_SCOPE=short: the kernel matrix ran in the normal pass"
	exit 77
fi

# Seconds per section (trixie, 2 cores, load ~3: the VM ran 77 s without
# the end-to-end checks, 121 s with them; arm64 108 s without).
vm_t_budget() {
	s=$((20 + 60 + 20 + 40 + 30))	# boot, core, rmmod, review, e2e
	case ${LSPLUS_VM_TARGET%%:*} in arm64) s=$((s * 2)) ;; esac
	load=$(awk -v n="$(nproc)" '{ l = int($1 / n + 0.999); print (l < 1 ? 1 : l) }' /proc/loadavg)
	echo $((s * 4 * load))
}

LSPLUS_VM_TIMEOUT=${LSPLUS_VM_TIMEOUT:-$(vm_t_budget)}
LSPLUS_VM_APPEND="${LSPLUS_VM_APPEND-} lsplus.tests=core,rmmod,review,e2e"
LSPLUS_VM_MAKE_ARGS="${LSPLUS_VM_MAKE_ARGS-} W=1"
export LSPLUS_VM_TARGET LSPLUS_VM_TIMEOUT LSPLUS_VM_APPEND LSPLUS_VM_MAKE_ARGS
echo "# matrix target $LSPLUS_VM_TARGET: module checks, VM time limit ${LSPLUS_VM_TIMEOUT} s"
exec "$vm_t_dir/run-vm.test"
