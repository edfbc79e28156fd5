#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/kmod/vm/vm-compat-tests.sh SECTION: in-VM checks of issue 12's
# findings 3 and 6, run by vm-tests.sh (busybox sh; TAP lines without
# numbers, like it).  Sections (lsplus.tests= names):
#   ls32       an i386 build of src/ls (/opt/lsplus/ls32, tests/kmod/
#              qemu/build-ls32) with LSPLUS_BACKEND=getdentsplus: -lR of the
#              fixture byte-identical to GNU ls; strace shows the ioctl on
#              /dev/getdentsplus and never the module's syscall number
#              (another system call for i386: 423 is
#              sched_rr_get_interval_time64)
#   fposlock   a FUSE directory whose LOOKUP of one entry stalls:
#              getdentsplus blocked there does not block lseek + getdents64
#              of the same open file (gdp-fuse-test)
#   nokprobes  kprobes disabled system-wide (the syscall answers ENOSYS,
#              nr stays published): src/ls falls back call by call, to
#              the ioctl, or with the module loaded device=0 to getdents64
#              + statx; its output stays byte-identical to GNU ls, also
#              when kprobes go away in the middle of a listing
T=/usr/bin/gdp-test
LS=/opt/lsplus/ls
LS32=/opt/lsplus/ls32
NR_PATH=/sys/module/getdentsplus/parameters/nr
export LC_ALL=C TZ=UTC
# LeakSanitizer refuses to run under ptrace: a sanitizer build of src/ls
# (tools/run-tests' second pass) would exit non-zero under strace.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
export ASAN_OPTIONS

ok() { echo "ok - $*"; }
notok() { echo "not ok - $*"; }
check() { # COND-EXIT-STATUS DESCRIPTION (returns COND-EXIT-STATUS)
	if [ "$1" -eq 0 ]; then ok "$2"; else notok "$2"; fi
	return "$1"
}
module_loaded() { [ -d /sys/module/getdentsplus ]; }

# same WHAT OUT ERR STATUS [DIRECTIVE]: OUT/ERR/STATUS equal GNU's
# (/tmp/gnu.*); DIRECTIVE (a TAP "# TODO ...") follows the description.
same() {
	if cmp -s /tmp/gnu.out "$2" && cmp -s /tmp/gnu.err "$3" && [ "$gs" = "$4" ]; then
		ok "$1: byte-identical to /bin/ls (stdout, stderr, status $4) ${5-}"
	else
		notok "$1: byte-identical to /bin/ls (status $4, GNU $gs) ${5-}"
		diff /tmp/gnu.out "$2" | head -n 20 | sed 's/^/# /'
		diff /tmp/gnu.err "$3" | head -n 10 | sed 's/^/# /'
	fi
}

# gnu DIR: GNU ls -lR DIR into /tmp/gnu.out, /tmp/gnu.err, $gs.
gnu() {
	/bin/ls -lR "$1" >/tmp/gnu.out 2>/tmp/gnu.err
	gs=$?
}

# The strace -n trace (lines "PID [ NR] name(...) = ..."): calls of
# syscall number $1 (its lines), the ioctls of the module's device.
nr_calls() { awk -v nr="$1" '{ sub(/^[0-9]+ +/, "") } $1 == "[" && $2 == nr "]" { print }' "$2"; }
gdp_ioctls() { grep -c 'ioctl(.*0xd9, 0x1, 0x20)' "$1"; }

# Needs src/ls (and its getdentsplus backend) in the initramfs.
no_e2e() { # NAMES...: skip the named checks when there is no src/ls
	why=
	if [ -f /etc/lsplus-no-e2e ]; then
		why=$(cat /etc/lsplus-no-e2e)
	elif [ ! -x "$LS" ]; then
		why="no src/ls was given to the rig"
	fi
	[ -z "$why" ] && return 1
	for c in "$@"; do ok "$c # SKIP $why"; done
	return 0
}

# ---- ls32 ----------------------------------------------------------
sec_ls32() {
	no_e2e "ls32: i386 src/ls -lR" "ls32: strace" && return 0
	if [ -f /etc/lsplus-ls32-skip ]; then
		ok "ls32: i386 src/ls -lR # SKIP $(cat /etc/lsplus-ls32-skip)"
		return 0
	fi
	if [ ! -x $LS32 ]; then
		# mkinitrd says why (a failed i386 build is a failure: a fresh
		# CI machine has gcc-multilib from tools/install-deps).
		notok "ls32: i386 src/ls in the initramfs ($(cat /etc/lsplus-no-ls32 2>/dev/null || echo 'not built'))"
		return 0
	fi
	echo "# --- ls32"
	nr=$(cat $NR_PATH)
	cd /mnt/ext4 || return 0
	gnu tree
	LSPLUS_BACKEND=getdentsplus $LS32 -lR tree >/tmp/ls32.out 2>/tmp/ls32.err
	same "ls32: LSPLUS_BACKEND=getdentsplus i386 src/ls -lR (module nr=$nr)" \
		/tmp/ls32.out /tmp/ls32.err $?
	LSPLUS_BACKEND=getdentsplus /usr/bin/strace -f -qq -n -o /tmp/ls32.trace \
		$LS32 -lR tree >/dev/null 2>/tmp/ls32.strace.err
	st=$?
	sed 's/^/# strace: /' /tmp/ls32.strace.err | head -n 5
	io=$(gdp_ioctls /tmp/ls32.trace)
	nr_calls "$nr" /tmp/ls32.trace >/tmp/ls32.nr
	dirs=$(find tree -type d | wc -l)
	head -n 3 /tmp/ls32.nr | sed 's/^/# called: /'
	check $([ $st -eq 0 ] && [ "$io" -ge "$dirs" ] && [ ! -s /tmp/ls32.nr ] && echo 0 || echo 1) \
		"ls32: strace: $io getdentsplus ioctls for $dirs directories, $(wc -l </tmp/ls32.nr) calls of i386 syscall $nr (want none)"
	cd /
}

# ---- fposlock ------------------------------------------------------
sec_fposlock() {
	echo "# --- fposlock"
	grep -qw fuse /proc/filesystems || modprobe fuse ||
		{ notok "fposlock: modprobe fuse"; return 0; }
	i=0
	while [ ! -c /dev/fuse ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	timeout 120 /usr/bin/gdp-fuse-test fposlock /mnt/fuse
	rc=$?
	[ $rc -gt 1 ] && notok "fposlock: gdp-fuse-test exited with status $rc (crash, signal or timeout)"
	grep -q ' /mnt/fuse ' /proc/mounts && umount -l /mnt/fuse
	# The same filesystem read in parts of two entries (ABI 3's end mark,
	# and GDP_SKIP_DOTS when a part holds only the dots).
	timeout 120 /usr/bin/gdp-fuse-test chunked /mnt/fuse
	rc=$?
	[ $rc -gt 1 ] && notok "fuse-chunked: gdp-fuse-test exited with status $rc (crash, signal or timeout)"
	grep -q ' /mnt/fuse ' /proc/mounts && umount -l /mnt/fuse
	# Issue 23: ESTALE retried as fstatat retries it; memory held by calls
	# blocked in READDIR (finding 1); a signal ends a slow batch promptly;
	# a listing makes no more READDIRs than getdents64 (kernels that size
	# a FUSE READDIR by the reader's hint).
	for t in estale memhold signal readdirs; do
		n=
		[ $t = memhold ] && n=64
		[ $t = readdirs ] && n=3000
		timeout 180 /usr/bin/gdp-fuse-test $t /mnt/fuse $n
		rc=$?
		[ $rc -gt 1 ] && notok "fuse-$t: gdp-fuse-test exited with status $rc (crash, signal or timeout)"
		grep -q ' /mnt/fuse ' /proc/mounts && umount -l /mnt/fuse
	done
	grep -qw overlay /proc/filesystems || modprobe overlay 2>/dev/null
	timeout 120 /usr/bin/gdp-fuse-test overlay /mnt/fuse /mnt/tmp/gdp-ovl
	rc=$?
	[ $rc -gt 1 ] && notok "fuse-overlay: gdp-fuse-test exited with status $rc (crash, signal or timeout)"
	grep -q ' /mnt/tmp/gdp-ovl ' /proc/mounts && umount -l /mnt/tmp/gdp-ovl
	grep -q ' /mnt/fuse ' /proc/mounts && umount -l /mnt/fuse
}

# ---- nokprobes -----------------------------------------------------
KP=/sys/kernel/debug/kprobes/enabled
kprobes() { # 0|1
	echo "$1" >$KP && [ "$(cat $KP)" = "$1" ]
}

# midrun TAG [DIRECTIVE]: GNU ls -lR of /mnt/ext4/kp, then src/ls with its stdout
# into a pipe nobody reads until src/ls blocks on it (in the middle of
# the listing: the first directory's lines fill the pipe, later ones are
# not read yet); kprobes are disabled there and the rest is read.
midrun() {
	cd /mnt/ext4 || return 1
	gnu kp
	rm -f /tmp/kp.fifo
	mkfifo /tmp/kp.fifo
	kprobes 1
	LSPLUS_BACKEND=getdentsplus /usr/bin/strace -f -qq -n -o /tmp/mid.trace \
		$LS -lR kp >/tmp/kp.fifo 2>/tmp/mid.err &
	sp=$!
	exec 3</tmp/kp.fifo
	# Wait (60 s of wall time at most) for a process blocked in
	# pipe_write (anon_pipe_write since 6.15) whose command is src/ls.
	# The scan reads wchan with the shell's own read: a fork per process
	# and round made 600 rounds last longer than the debug kernel's VM
	# time limit (KASAN, TCG), where src/ls, waiting in anon_pipe_write,
	# was never recognised.
	blocked=
	end=$(($(date +%s) + 60 * timescale))
	while [ -z "$blocked" ] && [ "$(date +%s)" -lt $end ]; do
		for p in /proc/[0-9]*; do
			w=
			read -r w <"$p/wchan" 2>/dev/null
			case $w in *pipe_write) ;; *) continue ;; esac
			tr '\0' ' ' <"$p/cmdline" 2>/dev/null | grep -q "^$LS " && blocked=${p#/proc/}
		done
		[ -n "$blocked" ] || sleep 0.1
	done
	kprobes 0
	cat <&3 >/tmp/mid.out
	exec 3<&-
	wait $sp
	ms=$?
	cd /
	[ -n "$blocked" ] || echo "# $1: src/ls never blocked on the pipe"
	same "nokprobes: $1: kprobes disabled in the middle of src/ls -lR" /tmp/mid.out /tmp/mid.err $ms "${2-}"
}

sec_nokprobes() {
	no_e2e "nokprobes: src/ls" && return 0
	echo "# --- nokprobes"
	module_loaded || insmod /getdentsplus.ko
	grep -q ' /sys/kernel/debug ' /proc/mounts || mount -t debugfs debugfs /sys/kernel/debug
	if ! [ -w $KP ] || ! kprobes 1; then
		notok "nokprobes: $KP writable"
		return 0
	fi
	nr=$(cat $NR_PATH)
	# The fixture's first directory alone fills a pipe (64 KiB + stdio's
	# buffer) before any of the later ones is read.
	mkdir -p /mnt/ext4/kp/a-first /mnt/ext4/kp/b /mnt/ext4/kp/c/d
	i=0
	while [ $i -lt 2000 ]; do : >"/mnt/ext4/kp/a-first/file-with-a-longish-name-$i"; i=$((i + 1)); done
	for d in b c c/d; do
		for f in 1 2 3; do echo "$d$f" >"/mnt/ext4/kp/$d/f$f"; done
		ln -s f1 "/mnt/ext4/kp/$d/link"
	done
	setfacl -m u:1000:r /mnt/ext4/kp/c/f2
	sync

	# 1. Disabled before the run: nr published, the syscall is ENOSYS.
	kprobes 0
	check $([ "$(cat $NR_PATH)" = "$nr" ] && echo 0 || echo 1) \
		"nokprobes: kprobes disabled, nr=$nr still published"
	/usr/bin/gdp-test enosys "$nr" | sed 's/after rmmod/with kprobes disabled/'
	cd /mnt/ext4 || return 0
	gnu tree
	LSPLUS_BACKEND=getdentsplus /usr/bin/strace -f -qq -n -o /tmp/nok.trace \
		$LS -lR tree >/tmp/nok.out 2>/tmp/nok.err
	same "nokprobes: kprobes disabled: src/ls -lR of the fixture" /tmp/nok.out /tmp/nok.err $?
	nr_calls "$nr" /tmp/nok.trace >/tmp/nok.nr
	head -n 2 /tmp/nok.nr | sed 's/^/# called: /'
	first_io=$(grep -n 'ioctl(.*0xd9, 0x1, 0x20)' /tmp/nok.trace | head -n 1 | cut -d: -f1)
	first_nr=$(grep -n -F "[$(printf '%4s' "$nr")]" /tmp/nok.trace | head -n 1 | cut -d: -f1)
	io=$(gdp_ioctls /tmp/nok.trace)
	check $([ -s /tmp/nok.nr ] && ! grep -qv 'ENOSYS' /tmp/nok.nr && [ "$io" -gt 0 ] &&
		[ "${first_nr:-0}" -gt 0 ] && [ "${first_io:-0}" -gt "${first_nr:-0}" ] && echo 0 || echo 1) \
		"nokprobes: strace: syscall $nr answered ENOSYS ($(wc -l </tmp/nok.nr) calls), then $io ioctls"
	cd /

	# 2. Disabled in the middle of a listing: the later batches go to the
	# ioctl.
	midrun "ioctl"
	nr_calls "$nr" /tmp/mid.trace >/tmp/mid.nr
	ok_nr=$(grep -vc 'ENOSYS' /tmp/mid.nr)
	no_nr=$(grep -c 'ENOSYS' /tmp/mid.nr)
	io=$(gdp_ioctls /tmp/mid.trace)
	check $([ "$ok_nr" -gt 0 ] && [ "$no_nr" -gt 0 ] && [ "$io" -gt 0 ] && echo 0 || echo 1) \
		"nokprobes: ioctl: strace: $ok_nr syscalls before, then $no_nr ENOSYS and $io ioctls"

	# 3. No device (device=0): ENOSYS leaves getdents64 + statx.
	kprobes 1
	rmmod getdentsplus && insmod /getdentsplus.ko device=0
	check $? "nokprobes: insmod device=0"
	nr=$(cat $NR_PATH)
	# (Before the fix gdp_call() returned the failed open's ENOENT:
	# the remaining directories were listed empty, status 0.)
	todo=
	midrun "device=0" "$todo"
	nr_calls "$nr" /tmp/mid.trace >/tmp/mid.nr
	ok_nr=$(grep -vc 'ENOSYS' /tmp/mid.nr)
	no_nr=$(grep -c 'ENOSYS' /tmp/mid.nr)
	gd=$(grep -c '] getdents64(' /tmp/mid.trace)
	sx=$(grep -c '] statx(' /tmp/mid.trace)
	check $([ "$ok_nr" -gt 0 ] && [ "$no_nr" -gt 0 ] && [ "$gd" -gt 0 ] && [ "$sx" -gt 0 ] && echo 0 || echo 1) \
		"nokprobes: device=0: strace: $ok_nr syscalls before, then $no_nr ENOSYS, $gd getdents64, $sx statx $todo" ||
		awk -v nr="$nr" '{ l = $0; sub(/^[0-9]+ +/, "") }
			n == 0 && $1 == "[" && $2 == nr "]" && /ENOSYS/ { n = 7 }
			n > 0 { print substr(l, 1, 150); n-- }' /tmp/mid.trace | sed 's/^/# after ENOSYS: /'
	# Disabled from the start with device=0 there is no getdentsplus to
	# force (LSPLUS_BACKEND=getdentsplus says "not available", as when
	# the module is not loaded); the default backend choice falls back.
	kprobes 0
	cd /mnt/ext4 || return 0
	LSPLUS_BACKEND=auto $LS -lR tree >/tmp/nok.out 2>/tmp/nok.err
	ns=$?
	gnu tree
	same "nokprobes: device=0, kprobes disabled: LSPLUS_BACKEND=auto src/ls -lR of the fixture" \
		/tmp/nok.out /tmp/nok.err $ns
	cd /
	kprobes 1
	check $? "nokprobes: kprobes enabled again"
	rmmod getdentsplus && insmod /getdentsplus.ko
	check $? "nokprobes: module reloaded with its device"
	rm -rf /mnt/ext4/kp
}

# ---- abi3 ----------------------------------------------------------
# Issue 23, point 8: the last ABI 3 src/ls (tests/kmod/qemu/build-abi3) on
# this module (ABI 5), and this src/ls on the ABI 3 module: both list the
# fixture byte-identical to GNU ls, -a included (".." is left to the
# caller since ABI 4), and the old library did use the module.
abi3_same() { # WHAT LS ARGS...
	what=$1 lsb=$2
	shift 2
	/bin/ls "$@" tree >/tmp/gnu.out 2>/tmp/gnu.err
	gs=$?
	LSPLUS_BACKEND=getdentsplus $lsb "$@" tree >/tmp/a3.out 2>/tmp/a3.err
	same "abi3: $what ls $*" /tmp/a3.out /tmp/a3.err $?
}
sec_abi3() {
	no_e2e "abi3: the ABI 3 src/ls on the current module" && return 0
	if [ -f /etc/lsplus-abi3-skip ]; then
		ok "abi3: the ABI 3 src/ls on the current module # SKIP $(cat /etc/lsplus-abi3-skip)"
		return 0
	fi
	if [ ! -x /opt/lsplus/ls-abi3 ] || [ ! -f /getdentsplus-abi3.ko ]; then
		notok "abi3: the ABI 3 src/ls and module in the initramfs ($(cat /etc/lsplus-no-abi3 2>/dev/null || echo 'not built'))"
		return 0
	fi
	echo "# --- abi3"
	cd /mnt/ext4 || return 0
	nr=$(cat $NR_PATH)
	abi3_same "the ABI 3 src/ls on the current module:" /opt/lsplus/ls-abi3 -lR
	abi3_same "the ABI 3 src/ls on the current module:" /opt/lsplus/ls-abi3 -laR
	LSPLUS_BACKEND=getdentsplus /usr/bin/strace -f -qq -n -o /tmp/a3.trace \
		/opt/lsplus/ls-abi3 -lR tree >/dev/null 2>&1
	n3=$(nr_calls "$nr" /tmp/a3.trace | grep -vc ENOSYS)
	check $([ "$n3" -gt 0 ] && echo 0 || echo 1) \
		"abi3: the ABI 3 src/ls called the current module ($n3 calls of syscall $nr)"
	rmmod getdentsplus && insmod /getdentsplus-abi3.ko
	check $? "abi3: the ABI 3 module loads in place of the current one (abi $(cat /sys/module/getdentsplus/parameters/abi 2>/dev/null))"
	nr=$(cat $NR_PATH)
	abi3_same "src/ls (ABI 5 library) on the ABI 3 module:" $LS -lR
	abi3_same "src/ls (ABI 5 library) on the ABI 3 module:" $LS -laR
	LSPLUS_BACKEND=getdentsplus /usr/bin/strace -f -qq -n -o /tmp/a3.trace \
		$LS -lR tree >/dev/null 2>&1
	n4=$(nr_calls "$nr" /tmp/a3.trace | grep -vc ENOSYS)
	check $([ "$n4" -gt 0 ] && echo 0 || echo 1) \
		"abi3: src/ls called the ABI 3 module ($n4 calls of syscall $nr)"
	rmmod getdentsplus && insmod /getdentsplus.ko
	check $? "abi3: the current module loaded again"
	cd /
}

case ${1-} in
ls32) sec_ls32 ;;
abi3) sec_abi3 ;;
fposlock) sec_fposlock ;;
nokprobes) sec_nokprobes ;;
*) echo "usage: vm-compat-tests.sh ls32|abi3|fposlock|nokprobes" >&2; exit 2 ;;
esac
exit 0
