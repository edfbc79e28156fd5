# SPDX-License-Identifier: GPL-3.0-or-later
# tests/kmod/qemu/vm-lib.sh: shared shell functions of the QEMU VM rig (sourced).
#
# Paths, target, kernel version, logging; vm-apt.sh (sourced at the end)
# the private apt state per suite/arch.  The rig is tests/kmod/qemu/ (this
# directory: its README.md maps every file and says how a boot goes),
# what runs inside the VM is in tests/kmod/vm/, the host-side tests
# (*.test) in tests/kmod/ (tests/kmod/README.md: the three places).
#
# Environment:
#   LSPLUS_VM_CACHE   download cache (default tests/kmod/cache in the source)
#   LSPLUS_VM_WORK    build products (default tests/kmod/work in the build dir,
#                     work-ARCH-SUITE for targets other than the default)
#   LSPLUS_VM_TARGET  ARCH:SUITE, ARCH amd64|arm64, SUITE a Debian suite
#                     (bookworm, bookworm-backports, trixie, sid, ...);
#                     default amd64:bookworm: the host's own apt and
#                     installed headers.  Other targets use a private apt
#                     state under the cache (vm-apt.sh) and never touch
#                     the host's packages.  amd64:debug: no Debian kernel
#                     but the rig's debug kernel (build-kernel: sid's
#                     linux-source, else trixie's; KASAN, lockdep,
#                     kmemleak, UBSAN, fault injection, gcov; built once
#                     into the cache, ~20 min on 2 cores).  amd64:prod:
#                     the same tree and series, production configuration
#                     (build-kernel: no debug option; issue 20 point 4).
#   LSPLUS_VM_KVER    kernel version (default: what linux-image-ARCH pulls)
#   LSPLUS_VM_MIRROR  Debian mirror of the private apt states (default:
#                     the first .../debian URI of the host's apt sources)
#   LSPLUS_LS         src/ls binary to test end to end (optional)
#
# Serial ports (amd64, boot): ttyS0 is the kernel's console (with
# ignore_loglevel: every kernel message) and goes to LOG.console.log;
# init writes its markers and the TAP lines to ttyS1 (lsplus.out=), which
# goes to LOG, so no kernel message can split them.  arm64 has one port:
# markers and kernel share it, init lowers the console log level there,
# and the dmesg dump at the end is the kernel log.

# The rig's directory (tests/kmod/qemu): the sourcing script's, unless a
# script elsewhere (the *.test in tests/kmod, tests/debian/packages.sh)
# names it before sourcing this file.  vm_kmoddir (tests/kmod) holds the
# download cache and the default work dirs, vm_testdir (tests/kmod/vm)
# the programs and shell sections that mkinitrd puts in the initramfs.
vm_srcdir=${vm_srcdir:-$(cd "$(dirname "$0")" && pwd)}
[ -f "$vm_srcdir/vm-lib.sh" ] || {
	printf '%s: error: no vm-lib.sh in vm_srcdir=%s (want tests/kmod/qemu)\n' "${0##*/}" "$vm_srcdir" >&2
	exit 99
}
vm_kmoddir=$(cd "$vm_srcdir/.." && pwd)
vm_testdir=$vm_kmoddir/vm
vm_topsrc=$(cd "$vm_kmoddir/../.." && pwd)

vm_log() { printf '%s: %s\n' "${0##*/}" "$*" >&2; }
vm_die() { vm_log "error: $*"; exit 99; }

vm_cache_dir() {
	d=${LSPLUS_VM_CACHE:-$vm_kmoddir/cache}
	mkdir -p "$d" && (cd "$d" && pwd)
}

# The target: ARCH:SUITE (default amd64:bookworm, the host's own kernel).
vm_target() { echo "${LSPLUS_VM_TARGET:-amd64:bookworm}"; }
vm_arch() { t=$(vm_target); echo "${t%%:*}"; }
vm_suite() { t=$(vm_target); echo "${t#*:}"; }
vm_default_target() { [ "$(vm_target)" = amd64:bookworm ]; }
vm_debug_target() { [ "$(vm_target)" = amd64:debug ]; }
# amd64:prod: the same tree and series as amd64:debug in a production
# configuration (build-kernel, issue 20 point 4: the side-by-side
# measurement of bench/run-insn).
vm_prod_target() { [ "$(vm_target)" = amd64:prod ]; }
# A kernel the rig builds itself (build-kernel): amd64:debug or amd64:prod.
vm_built_target() { vm_debug_target || vm_prod_target; }
# The kernel console's log next to the marker log LOG (see above).
vm_console_log() { echo "${1%.log}.console.log"; }
vm_check_target() {
	case $(vm_target) in
	amd64:?* | arm64:?*) ;;
	*) vm_die "LSPLUS_VM_TARGET=$(vm_target): want ARCH:SUITE, ARCH amd64 or arm64" ;;
	esac
	case $(vm_suite) in
	*[!a-z0-9-]*) vm_die "LSPLUS_VM_TARGET: bad suite name '$(vm_suite)'" ;;
	esac
}

# Default target: tests/kmod/work; others: tests/kmod/work-ARCH-SUITE (the
# matrix runs in parallel under make -j).
vm_work_dir() {
	sfx=
	vm_default_target || sfx=-$(vm_arch)-$(vm_suite)
	if [ -n "${LSPLUS_VM_WORK-}" ]; then
		d=$LSPLUS_VM_WORK
	elif [ -d "$PWD/tests/kmod" ]; then
		d=$PWD/tests/kmod/work$sfx
	else
		d=$vm_kmoddir/work$sfx
	fi
	mkdir -p "$d" && (cd "$d" && pwd)
}

# The kernel ABI name (e.g. 6.1.0-56-amd64) that linux-image-ARCH depends
# on, resolved from apt's lists (the host's for the default target, the
# private state's for others), never hard-coded.
vm_kver() {
	if [ -n "${LSPLUS_VM_KVER-}" ]; then
		echo "$LSPLUS_VM_KVER"
		return
	fi
	if vm_built_target; then
		"$vm_srcdir/build-kernel"
		return
	fi
	if ! vm_default_target; then
		vm_apt_kver
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

# The kernel tree extracted from the image packages, and what is in it:
# the image (boot/vmlinuz-K up to 6.x, usr/lib/modules/K/vmlinuz in 7.x's
# linux-binary-K) and the modules (lib/modules/K or usr/lib/modules/K).
vm_kroot() { echo "$(vm_cache_dir)/$1/root"; }
vm_kimage() { # KVER
	r=$(vm_kroot "$1")
	for f in "$r/boot/vmlinuz-$1" "$r/usr/lib/modules/$1/vmlinuz" \
		"$r/lib/modules/$1/vmlinuz"; do
		[ -f "$f" ] && { echo "$f"; return 0; }
	done
	return 1
}

# Plain text of a serial log: no CRs, no terminal escapes (SeaBIOS clears
# the screen).  A carriage return that does not end a line starts one
# (the first line of init can follow SeaBIOS's output after a bare CR).
vm_plain() { # LOG (stdout: the text)
	sed 's/\r$//; s/\r/\n/g; s/\x1b\[[0-9;?]*[A-Za-z]//g; s/\x1bc//g' <"$1"
}

# Kernel trouble: the lines of the kernel log that report a bug, a
# warning, a sanitizer's or lockdep's finding or a lockup.  Read from the
# marker log LOG (plain text: its dmesg dump, and anything outside the
# TAP section, where a one-port VM prints kernel messages) and from the
# kernel console's log next to it when there is one (vm_console_log:
# every kernel message, with ignore_loglevel).  kmemleak's report is a
# check of its own (run-vm.test).  The kernel's echo of its command line
# is not trouble (it may name hung_task_* or similar parameters); a hung
# task report says "blocked for more than".
vm_kernel_trouble() { # LOG (stdout: the lines)
	{
		awk '/^LSPLUS-VM: tap-begin/ { on = 1 } /^LSPLUS-VM: tap-end/ { on = 0 }
		     /^LSPLUS-VM: dmesg-begin/ { on = 0 }
		     /^LSPLUS-VM: kmemleak-begin/ { km = 1 } /^LSPLUS-VM: kmemleak-end/ { km = 0; next }
		     !km && (!on || /^\[ *[0-9]+\.[0-9]+\]/)' "$1"
		c=$(vm_console_log "${1%.txt}")
		[ ! -f "$c" ] || vm_plain "$c"
	} | grep -v 'ommand line' | grep -E 'BUG:|WARNING:|Oops|KASAN|UBSAN|general protection|kernel BUG|Kernel panic|soft lockup|hard LOCKUP|blocked for more than|RIP: |Call Trace:|list_add corruption|list_del corruption|refcount_t:|INFO: task|possible circular locking|inconsistent lock state|suspicious RCU usage|sleeping function called from invalid context|possible recursive locking|lock held when returning|kmemleak: .*new suspected'
}

# After a missing 'LSPLUS-VM: booted' marker: the console up to the in-VM
# tests (where the marker should be), or its end when the VM never got
# there; the caller's later checks say what else ran.
vm_boot_failed() { # LOG
	if grep -q '^LSPLUS-VM: tap-begin' "$1"; then
		sed -n '1,/^LSPLUS-VM: tap-begin/p' "$1" | tail -n 40 | sed 's/^/# console: /'
	else
		tail -n 40 "$1" | sed 's/^/# console: /'
	fi
}

. "$vm_srcdir/vm-apt.sh"
