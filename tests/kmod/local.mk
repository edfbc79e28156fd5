## SPDX-License-Identifier: GPL-3.0-or-later
## tests/kmod/local.mk: the QEMU VM tests of getdentsplus.ko.
## The host-side tests are here, the rig (fetch, build, boot) in
## tests/kmod/qemu/, what runs inside the VM in tests/kmod/vm/
## (tests/kmod/README.md).
##
## tests/kmod/run-vm.test boots Debian 12's kernel under QEMU (TCG) with
## the module built from kernel-module/ and runs the in-VM checks; with
## src/ls built it also compares src/ls -lR with GNU ls inside the VM and
## runs the whole GNU differential suite (tests/gnu/difftest.py, with
## python3 in the initramfs) with LSPLUS_BACKEND=getdentsplus, the backend
## tests/gnu/diff-getdentsplus.test cannot test on the host
## (tests/kmod/vm/vm-gnudiff.sh; ~4 more minutes under TCG).
## The issue 12 checks (vm/vm-compat-tests.sh): an i386 build of src/ls
## (qemu/build-ls32: gcc -m32, static, cached in tests/kmod/work-ls32) with the
## getdentsplus backend, a FUSE server of our own that stalls a LOOKUP
## (gdp-fuse-test: the position lock), and src/ls with kprobes disabled.
## The issue 13 section (vm/vm-realcall-tests.sh, lsplus.tests=realcall): on a
## kernel with upstream/'s series, src/ls built against its headers
## (qemu/build-lsrc, cached in tests/kmod/work-lsrc) over the in-tree call, the
## fallback order, calls per entry, and gdp-eq (the in-tree call's records
## against the module's); it skips on kernels without the series.
## tests/kmod/dkms.test installs the module with DKMS into private trees.
## tests/kmod/nfs-vm.test boots the VM with the kernel NFS server and client
## (ext4 fixture exported, mounted NFSv3 and NFSv4.2): exact RPC counts per
## backend vs GNU ls, and a subset of the GNU differential suite through
## both mounts for every backend (~7 min under TCG; issue 7).
## The kernel matrix (issue 8): vm-trixie.test (Debian 13's 6.12),
## vm-sid.test (the newest kernel in sid, 7.x: built in a sid chroot) and
## vm-arm64.test (Debian 12's 6.1 on arm64, cross-built, no end-to-end
## checks: GNU ls and src/ls in the VM would have to be arm64 builds) run
## run-vm.test's module checks (W=1 build, load, core, rmmod, review,
## end to end, dmesg; no GNU suite) on another Debian kernel through
## vm-target.sh (LSPLUS_VM_TARGET; private apt state, headers by dpkg -x
## or a chroot of the suite, cached).  Skipped with LSPLUS_CHECK_SCOPE=short.
## Two in-VM sections run only when named (lsplus.tests=fuzz,fault in
## LSPLUS_VM_APPEND; the debug kernel target runs them): fuzz, the
## module's own randomized fuzzer (vm/gdp-fuzz.c) against churn, mounts,
## signals and an rmmod/insmod loop, and fault (vm/vm-fault-tests.sh): the
## debug kernel's fault injection, kmemleak and a clean rmmod.
## The issue 21 section (vm/vm-fs-tests.sh, lsplus.tests=fs; in run-vm.test
## only): xfs, btrfs, erofs, squashfs, f2fs, vfat, exfat and casefold ext4
## images made on the host (qemu/mkfsimgs) as more virtio disks of the
## same boot, and overlayfs over the erofs one: ls with the module against
## GNU ls, gdp-test compare and the strace counts on each.
## run-vm.test prints TAP into its .log and exits 0/1 (77 only when not root, not
## x86-64 or not Debian; 99 when tools/install-deps was not run).  Downloads
## (the kernel package) are cached in $(srcdir)/tests/kmod/cache, or
## $LSPLUS_VM_CACHE; build products go to tests/kmod/work.
##
## To have automake's tap-driver.sh count the individual checks instead,
## rename the test to a .tap extension and set TAP_LOG_DRIVER with
## LSPLUS_VM_TAP=1 in its environment (a skip is then "1..0 # SKIP").

## tests/kmod/vm-debug.test (issue 12) runs the same module checks under
## the rig's own debug kernel (tests/kmod/qemu/build-kernel, from Debian's
## linux-source, qemu/debug-kernel.config: KASAN, lockdep, kmemleak, UBSAN,
## fault injection, gcov; with upstream/'s series applied, so it also
## runs that series' kselftest) and reports the module's line coverage;
## it is the first of TESTS (Makefile.am) so that its kernel build starts
## early under make -j2.  Skipped with LSPLUS_CHECK_SCOPE=short (the
## sanitizer and distcheck passes of tools/run-tests).
TESTS += tests/kmod/run-vm.test tests/kmod/dkms.test tests/kmod/nfs-vm.test
TESTS += tests/kmod/vm-trixie.test tests/kmod/vm-sid.test tests/kmod/vm-arm64.test
TESTS += tests/kmod/vm-rmmod.test

## The host-side tests and what they share.
EXTRA_DIST += \
	tests/kmod/FINDINGS.md \
	tests/kmod/README.md \
	tests/kmod/dkms.test \
	tests/kmod/nfs-vm.test \
	tests/kmod/run-vm.test \
	tests/kmod/vm-arm64.test \
	tests/kmod/vm-debug.test \
	tests/kmod/vm-rmmod.test \
	tests/kmod/vm-sid.test \
	tests/kmod/vm-target.sh \
	tests/kmod/vm-trixie.test \
	tools/vm-demo

## The rig (tests/kmod/qemu/README.md): fetch, build, boot.
EXTRA_DIST += \
	tests/kmod/qemu/arm64-initrd.sh \
	tests/kmod/qemu/boot \
	tests/kmod/qemu/build-abi3 \
	tests/kmod/qemu/build-insn \
	tests/kmod/qemu/build-kernel \
	tests/kmod/qemu/build-ls32 \
	tests/kmod/qemu/build-lsrc \
	tests/kmod/qemu/build-module \
	tests/kmod/qemu/build-srcdir.sh \
	tests/kmod/qemu/debug-kernel.config \
	tests/kmod/qemu/prod-kernel.config \
	tests/kmod/qemu/fetch-headers \
	tests/kmod/qemu/fetch-kernel \
	tests/kmod/qemu/init \
	tests/kmod/qemu/insn-check \
	tests/kmod/qemu/insn-count.c \
	tests/kmod/qemu/mkdisk \
	tests/kmod/qemu/mkfsimgs \
	tests/kmod/qemu/mkinitrd \
	tests/kmod/qemu/nfs-initrd.sh \
	tests/kmod/qemu/qemu-kprobe/Kbuild \
	tests/kmod/qemu/qemu-kprobe/kpstress.c \
	tests/kmod/qemu/qemu-kprobe/nicall.c \
	tests/kmod/qemu/vm-apt.sh \
	tests/kmod/qemu/vm-gcov.sh \
	tests/kmod/qemu/vm-lib.sh \
	tests/kmod/qemu/Makefile \
	tests/kmod/qemu/README.md

## What runs inside the VM: the C programs and the shell sections.
EXTRA_DIST += \
	tests/kmod/vm/gdp-cg.h \
	tests/kmod/vm/gdp-compat-arm.c \
	tests/kmod/vm/gdp-eq-mod.c \
	tests/kmod/vm/gdp-eq-sys.c \
	tests/kmod/vm/gdp-eq.c \
	tests/kmod/vm/gdp-eq.h \
	tests/kmod/vm/gdp-fuse-test.c \
	tests/kmod/vm/gdp-fuzz.c \
	tests/kmod/vm/gdp-review-test.c \
	tests/kmod/vm/gdp-test.c \
	tests/kmod/vm/gdp-v4-test.c \
	tests/kmod/vm/gdp-vmtest.h \
	tests/kmod/vm/insn-mark.c \
	tests/kmod/vm/vm-compat-tests.sh \
	tests/kmod/vm/vm-demo.sh \
	tests/kmod/vm/vm-fault-tests.sh \
	tests/kmod/vm/vm-fs-tests.sh \
	tests/kmod/vm/vm-gnudiff.sh \
	tests/kmod/vm/vm-kselftest.sh \
	tests/kmod/vm/vm-nfs-lib.sh \
	tests/kmod/vm/vm-nfs-setup.sh \
	tests/kmod/vm/vm-nfs-tests.sh \
	tests/kmod/vm/vm-realcall-tests.sh \
	tests/kmod/vm/vm-statxattr-tests.sh \
	tests/kmod/vm/vm-review-tests.sh \
	tests/kmod/vm/vm-tests.sh

## bench/run-nfs (ls -lR over NFS in this rig's VM; a benchmark, not a test).
EXTRA_DIST += bench/run-nfs bench/vm-nfs-bench.sh bench/nfs-table.py

## bench/run-insn (guest instructions per entry of ls -lR, counted by
## tests/kmod/qemu/insn-count.c in this rig's VM; a benchmark, not a test).
EXTRA_DIST += bench/run-insn bench/vm-insn-bench.sh bench/insn-table.py \
	bench/results-insn.md

## The rig's build products (module build, fixture, initramfs, disk image,
## serial log) live in tests/kmod/work of the build tree (work-ARCH-SUITE
## for the matrix targets); the download
## cache is not a build product and stays.
clean-local: clean-local-kmod
clean-local-kmod:
	-rm -rf tests/kmod/work tests/kmod/work-*
.PHONY: clean-local-kmod
