#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/kmod/vm/vm-tests.sh: the in-VM test driver, run by /init (busybox sh).
#
# Prints TAP lines without numbers ("ok - ...", "not ok - ...") and "# "
# diagnostics; the host (run-vm.test) numbers them and adds the plan.
# busybox sh runs its own applets before PATH: real binaries (GNU ls,
# strace, src/ls) are called by full path.
T=/usr/bin/gdp-test
E=/mnt/ext4/tree
M=/mnt/tmp/tree
LS=/opt/lsplus/ls
export LC_ALL=C TZ=UTC

# Sections to run: lsplus.tests=core,rmmod,review,gnudiff,ls32,abi3,fposlock,
# nokprobes,realcall,fs,e2e on the kernel command line (LSPLUS_VM_APPEND on
# the host); default all of these.  More run only when named:
# rmmod-cycles (vm-rmmod.test) unloads and reloads the module under
# syscall load; it needs QEMU with one TCG thread.  fuzz (gdp-fuzz:
# random calls against churn, mounts, signals, then against an
# rmmod/insmod loop; lsplus.fuzz=SECS and lsplus.fuzz-rmmod=SECS for the
# two phases, default 45 and 15, lsplus.fuzz-seed=N to replay) and fault
# (vm-fault-tests.sh: debugfs fault injection, kmemleak, rmmod; needs the
# debug kernel, skips per missing knob); kselftest (vm-kselftest.sh: the
# kselftest of upstream/'s series; needs the patched debug kernel).
# lsplus.timescale=N multiplies every time limit below (a debug kernel
# under TCG runs several times slower: vm-debug.test); lsplus.resume-n=N
# the entries of the big tmpfs resume check (default 100000; the debug
# kernel's run takes 20000: KASAN makes each create ~5 times slower, and
# the Debian kernels keep the 100,000).
sections=core,rmmod,review,gnudiff,ls32,abi3,fposlock,nokprobes,realcall,fs,e2e
fuzz_secs=45
fuzz_rmmod_secs=15
fuzz_seed=
timescale=1
resume_n=100000
cpus=
for a in $(cat /proc/cmdline); do
	case $a in
	lsplus.tests=*) sections=${a#*=} ;;
	lsplus.timescale=[1-9]*) timescale=${a#*=} ;;
	lsplus.resume-n=[1-9]*) resume_n=${a#*=} ;;
	lsplus.cpus=[1-9]*) cpus=${a#*=} ;;
	lsplus.fuzz=*) fuzz_secs=${a#*=} ;;
	lsplus.fuzz-rmmod=*) fuzz_rmmod_secs=${a#*=} ;;
	lsplus.fuzz-seed=*) fuzz_seed=${a#*=} ;;
	esac
done
export timescale
want() { case ",$sections," in *,$1,*) return 0 ;; esac; return 1; }

ok() { echo "ok - $*"; }
notok() { echo "not ok - $*"; }
check() { # COND-EXIT-STATUS DESCRIPTION
	if [ "$1" -eq 0 ]; then ok "$2"; else notok "$2"; fi
}

# The races and concurrency checks below need the CPUs QEMU was given
# (boot: lsplus.cpus): a kernel that brings up fewer (the debug kernel
# built without ACPI found one in SeaBIOS's MP table) must not pass them
# on one CPU unnoticed.
if [ -n "$cpus" ]; then
	have=$(grep -c '^processor' /proc/cpuinfo)
	check $([ "$have" = "$cpus" ] && echo 0 || echo 1) \
		"the kernel runs on the VM's $cpus CPUs ($have online)"
fi

# run TIMEOUT NAME CMD...: a gdp-test subcommand; a crash or a timeout is
# a failure of its own (its TAP lines so far stand).
run() {
	t=$(($1 * timescale)) name=$2
	shift 2
	echo "# --- $name"
	s=$(date +%s)
	timeout "$t" "$@"
	rc=$?
	if [ $rc -gt 1 ]; then
		notok "$name: exited with status $rc (crash, signal or ${t}s timeout)"
	fi
	echo "# --- $name: $(($(date +%s) - s)) s"
}

module_loaded() { [ -d /sys/module/getdentsplus ]; }

# ---- module present ------------------------------------------------
if ! module_loaded; then
	notok "getdentsplus.ko loaded"
	echo "# skipping every in-VM test: no module"
	exit 1
fi
ok "getdentsplus.ko loaded"
nr=$(cat /sys/module/getdentsplus/parameters/nr 2>/dev/null)
case $nr in
'' | *[!0-9]*) notok "syscall number published in /sys/module/getdentsplus/parameters/nr ('$nr')" ;;
*)
	inrange=1
	[ "$nr" -ge 337 ] && [ "$nr" -le 423 ] && inrange=0
	check $inrange "syscall number $nr published, in the free range 337-423"
	;;
esac
check $([ -c /dev/getdentsplus ] && echo 0 || echo 1) "/dev/getdentsplus is a character device"
# ABI discovery (the uapi header's GETDENTSPLUS_ABI/FLAGS/MASK_PATH).
P=/sys/module/getdentsplus/parameters
abi=$(cat $P/abi 2>/dev/null) flags=$(cat $P/flags 2>/dev/null) mask=$(cat $P/statx_mask 2>/dev/null)
check $([ "$abi" = 5 ] && [ $((flags)) -eq $((0x80006c7f)) ] && [ $((mask)) -eq $((0xfff)) ] && echo 0 || echo 1) \
	"ABI published in sysfs: abi $abi, flags $flags, statx_mask $mask"
echo x 2>/dev/null >$P/abi && notok "sysfs abi is read-only" || ok "sysfs abi is read-only"

# ---- the instruction counter (boot's LSPLUS_VM_INSN: lsplus.insn=1),
# whatever lsplus.tests says: windows of a known count (a user loop of 3
# instructions per iteration, getpid() calls), 3 sizes, 2 rounds, early
# while the VM is idle; the host checks them (qemu/insn-check) ---------
if grep -q 'lsplus\.insn=1' /proc/cmdline && [ -x /usr/bin/insn-mark ]; then
	echo "# --- insn calibration"
	for r in a b; do
		for n in 1000000 2000000 4000000; do
			/usr/bin/insn-mark loop $n cal-loop-$n-$r
		done
		for n in 20000 40000 80000; do
			/usr/bin/insn-mark getpid $n cal-getpid-$n-$r
		done
	done
fi

# ---- correctness ---------------------------------------------------
if want core; then
run 300 compare $T compare $E $M
run 200 unpriv $T unpriv $E/noexec $M/noexec $E/nested $M
run 60 badinput $T badinput $E $E/small
run 120 skipdots-ext4 $T skipdots /mnt/ext4/skipdots
rm -rf /mnt/ext4/skipdots
run 200 selfend-ext4 $T selfend /mnt/ext4/selfend
run 200 selfend-tmpfs $T selfend /mnt/tmp/selfend
rm -rf /mnt/ext4/selfend /mnt/tmp/selfend
run 30 padding $T padding $E
run 30 padding-tmpfs $T padding $M
run 30 padding-mnt $T padding $E/mnt-inner
run 60 resume-ext4 $T resume $E/many
run 400 resume-tmpfs-$resume_n $T resume /mnt/tmp/big $resume_n
run 120 edges $T edges $E /mnt/tmp/big
rm -rf /mnt/tmp/big
run 120 pseudo-fs $T compare /dev /proc/sys/fs /sys/module/getdentsplus /sys/kernel/mm
run 60 concurrent-tmpfs $T concurrent /mnt/tmp/conc 5
run 60 concurrent-ext4 $T concurrent /mnt/ext4/conc 5
rm -rf /mnt/tmp/conc /mnt/ext4/conc
fi

# ---- rmmod under load ----------------------------------------------
if want rmmod; then
echo "# --- rmmod"
$T hammer $E 6 syscall &
a1=$!
$T hammer $M 6 syscall &
a2=$!
sleep 2
if rmmod getdentsplus 2>/tmp/rmmod.err; then
	during="unloaded during the calls"
else
	during="refused: $(cat /tmp/rmmod.err)"
fi
wait $a1
r1=$?
wait $a2
r2=$?
check $((r1 + r2)) "rmmod under syscall load ($during): callers see results or ENOSYS only"
if module_loaded; then
	rmmod getdentsplus
	check $? "rmmod succeeds once the syscall callers are gone"
fi
check $(module_loaded && echo 1 || echo 0) "module gone after rmmod"
run 10 enosys $T enosys "$nr"
insmod /getdentsplus.ko
check $? "insmod again after rmmod"
run 30 sanity-reload $T sanity $E

$T hammer $E 6 ioctl &
b=$!
sleep 2
if rmmod getdentsplus 2>/tmp/rmmod.err; then
	notok "rmmod refused while /dev/getdentsplus is open and in use (it unloaded)"
else
	ok "rmmod refused while /dev/getdentsplus is open and in use ($(cat /tmp/rmmod.err))"
fi
wait $b
check $? "ioctl caller saw no errors during the rmmod attempt"
if module_loaded; then
	rmmod getdentsplus
	check $? "rmmod succeeds once the device is closed"
fi
insmod /getdentsplus.ko
check $? "insmod a third time"
run 30 sanity-reload2 $T sanity $M
fi

# ---- rmmod/insmod cycles under syscall load (issue 12) -------------
# Only when named (lsplus.tests=rmmod-cycles, tests/kmod/vm-rmmod.test):
# under QEMU's multi-threaded TCG any kprobe removed from ni_syscall under
# load can leave both vCPUs spinning on its int3 (an emulator bug:
# tests/kmod/FINDINGS.md), so this runs in a VM with one TCG thread.
# Three loops run `hammer DIR 1 syscall-only` back to back (syscall
# callers only, the device closed), a fourth unloads and reloads the
# module, until it has done $cyc_want cycles or $cyc_secs seconds have
# passed.  A soft lockup panics the VM (softlockup_panic; panic=-1 and QEMU's
# -no-reboot end the run at once, the trace in the serial log), and loops
# that do not stop in time are a failure of their own.
# lsplus.cycles=N,SECS on the kernel command line changes the bounds;
# lsplus.cycles-load=spin makes the three loops `gdp-test spin NR 1`
# (the syscall with no buffer as fast as it goes: references held for an
# instant, so rmmod nearly always succeeds, under a much hotter probe).
cyc_want=5 cyc_secs=40 cyc_load=hammer
for a in $(cat /proc/cmdline); do
	case $a in
	lsplus.cycles=*,*) a=${a#*=}; cyc_want=${a%,*} cyc_secs=${a#*,} ;;
	lsplus.cycles-load=*) cyc_load=${a#*=} ;;
	esac
done
if want rmmod-cycles; then
echo "# --- rmmod cycles"
module_loaded || insmod /getdentsplus.ko
slp=$(cat /proc/sys/kernel/softlockup_panic)
echo 1 >/proc/sys/kernel/softlockup_panic
rm -rf /tmp/cyc
mkdir /tmp/cyc
pids=
for i in 1 2 3; do
	d=$E
	[ $i = 2 ] && d=$M
	(
		while [ ! -e /tmp/cyc/stop ]; do
			if [ "$cyc_load" = spin ]; then
				$T spin "$nr" 1 >>/tmp/cyc/h$i 2>&1
			else
				$T hammer $d 1 syscall-only >>/tmp/cyc/h$i 2>&1 || sleep 0.1
			fi
		done
	) &
	pids="$pids $!"
done
(
	ok=0 busy=0 bad=0
	while [ ! -e /tmp/cyc/stop ]; do
		if rmmod getdentsplus 2>>/tmp/cyc/rmmod.err; then
			ok=$((ok + 1))
			insmod /getdentsplus.ko 2>>/tmp/cyc/insmod.err || bad=$((bad + 1))
			[ $ok -ge "$cyc_want" ] && touch /tmp/cyc/stop
		else
			busy=$((busy + 1))
		fi
		sleep 0.05
	done
	echo "$ok $busy $bad" >/tmp/cyc/count
) &
pids="$pids $!"
el=0
while [ $el -lt "$cyc_secs" ] && [ ! -e /tmp/cyc/stop ]; do
	sleep 1
	el=$((el + 1))
done
touch /tmp/cyc/stop
i=0
while [ $i -lt 60 ]; do
	alive=
	for p in $pids; do
		kill -0 $p 2>/dev/null && alive="$alive $p"
	done
	[ -z "$alive" ] && break
	sleep 1
	i=$((i + 1))
done
echo "$slp" >/proc/sys/kernel/softlockup_panic
if [ -n "$alive" ]; then
	notok "rmmod/insmod cycles under syscall load: loops still running 60 s after the stop ($alive)"
	for p in $alive; do
		for c in $(cat /proc/$p/task/*/children 2>/dev/null); do
			echo "# $c $(cat /proc/$c/comm 2>/dev/null): $(tr '\n' ' ' </proc/$c/stack 2>/dev/null)"
		done
	done
else
	read -r cok cbusy cbad </tmp/cyc/count
	echo "# $el s: $cok rmmod+insmod cycles, $cbusy rmmod refused (busy), $cbad insmod failures"
	sort /tmp/cyc/rmmod.err 2>/dev/null | uniq -c | head -n 3 | sed 's/^/# rmmod: /'
	cat /tmp/cyc/insmod.err 2>/dev/null | head -n 3 | sed 's/^/# insmod: /'
	check $([ "$cok" -ge 2 ] && [ "$cbad" -eq 0 ] && echo 0 || echo 1) \
		"rmmod/insmod cycles under syscall load: $cok cycles in $el s (>= 2), every insmod worked"
	# hammer's summary: "# hammer syscall PID: N listings, N ENOSYS, N other errors"
	cat /tmp/cyc/h1 /tmp/cyc/h2 /tmp/cyc/h3 >/tmp/cyc/all
	runs=$(grep -E -c '^# (hammer syscall-only|spin [0-9]+) [0-9]+:' /tmp/cyc/all)
	lists=$(awk '/^# (hammer syscall-only|spin [0-9]+) [0-9]+:/ { n += $5 } END { print n + 0 }' /tmp/cyc/all)
	enos=$(awk '/^# (hammer syscall-only|spin [0-9]+) [0-9]+:/ { n += $7 } END { print n + 0 }' /tmp/cyc/all)
	others=$(awk '/^# (hammer syscall-only|spin [0-9]+) [0-9]+:/ { n += $9 } END { print n + 0 }' /tmp/cyc/all)
	echo "# callers ($cyc_load): $runs runs, $lists answers from the module, $enos ENOSYS, $others other errors"
	grep -E '^# (hammer syscall-only|spin [0-9]+): ' /tmp/cyc/all | sort | uniq -c | head -n 5 | sed 's/^/# /'
	check $([ "$others" -eq 0 ] && [ "$lists" -gt 0 ] && echo 0 || echo 1) \
		"rmmod/insmod cycles: syscall callers saw only results or ENOSYS ($lists answers, $enos ENOSYS, $others other)"
fi
module_loaded || insmod /getdentsplus.ko
check $? "module loaded after the rmmod/insmod cycles"
run 30 sanity-cycles $T sanity $E
fi

# ---- review checks: 32-bit callers, syscall-number bits, automount,
# idmapped mounts, chroot, /proc, EFAULT races, lseek, nr= range ------
if want review; then
	sh /vm-review-tests.sh
	module_loaded || { insmod /getdentsplus.ko; check $? "insmod after the review checks"; }
fi

# ---- randomized fuzz: random fds, buffers, flags and masks against
# renames, mounts, signals and lseek; then against rmmod/insmod -----------
if want fuzz; then
	module_loaded || { insmod /getdentsplus.ko; check $? "insmod before the fuzz pass"; }
	Z="/mnt/tmp/fuzz /mnt/ext4/fuzz -- $E $M $E/many /proc /proc/self/fd /sys/module /sys/kernel/mm /dev /"
	run $((fuzz_secs + 60)) fuzz /usr/bin/gdp-fuzz -t "$fuzz_secs" -j 3 -m \
		${fuzz_seed:+-s $fuzz_seed} $Z
	run $((fuzz_rmmod_secs + 60)) fuzz-rmmod /usr/bin/gdp-fuzz -t "$fuzz_rmmod_secs" -j 3 \
		-r /getdentsplus.ko \
		${fuzz_seed:+-s $fuzz_seed} $Z
	rm -rf /mnt/tmp/fuzz /mnt/ext4/fuzz
	module_loaded || { insmod /getdentsplus.ko; check $? "insmod after the fuzz pass"; }
	run 30 sanity-after-fuzz $T sanity $E
fi

# ---- fault injection (debug kernel): allocation, user copy and the
# module's gdp_entry_fault fail at random in the test's own tasks;
# kmemleak; nothing of the module left after rmmod ----------------------
if want fault; then
	module_loaded || { insmod /getdentsplus.ko; check $? "insmod before the fault pass"; }
	sh /vm-fault-tests.sh
	module_loaded || { insmod /getdentsplus.ko; check $? "insmod after the fault pass"; }
fi

# ---- the GNU differential suite with LSPLUS_BACKEND=getdentsplus ---
if want gnudiff; then
	module_loaded || { insmod /getdentsplus.ko; check $? "insmod before the GNU differential suite"; }
	sh /vm-gnudiff.sh
fi

# ---- issue 13: the kselftest of upstream/'s series (patched kernel) -
if want kselftest; then
	sh /vm-kselftest.sh
fi

# ---- issue 12: an i386 src/ls, the position lock over a stalled FUSE
# server, kprobes disabled (vm-compat-tests.sh) ----------------------
for s in ls32 abi3 fposlock nokprobes; do
	want $s || continue
	module_loaded || { insmod /getdentsplus.ko; check $? "insmod before $s"; }
	sh /vm-compat-tests.sh $s
done
module_loaded || { insmod /getdentsplus.ko; check $? "insmod after the issue 12 checks"; }

# ---- issue 13: src/ls over the in-tree getdentsplus(2) call, on a
# kernel with upstream/'s series (vm-realcall-tests.sh; skips elsewhere)
if want realcall; then
	module_loaded || { insmod /getdentsplus.ko; check $? "insmod before realcall"; }
	sh /vm-realcall-tests.sh
	module_loaded || { insmod /getdentsplus.ko; check $? "insmod after realcall"; }
fi

# ---- issue 20: src/ls over statx's ACL/label attributes and io_uring's
# inline statx, on a kernel with those series (vm-statxattr-tests.sh;
# skips elsewhere).  Only when named (lsplus.tests=...,statxattr: the
# debug kernel, vm-debug.test); it unloads the module for auto's choice
# and loads it again.
if want statxattr; then
	sh /vm-statxattr-tests.sh
	module_loaded || { insmod /getdentsplus.ko; check $? "insmod after statxattr"; }
fi

# ---- issue 21: the module on xfs, btrfs (subvolume, snapshots), erofs,
# squashfs, overlay, vfat, exfat, ext4 with casefold and f2fs: images
# from the host (qemu/mkfsimgs) on more virtio disks (vm-fs-tests.sh;
# skips without them or per filesystem the kernel lacks)
if want fs; then
	module_loaded || { insmod /getdentsplus.ko; check $? "insmod before fs"; }
	sh /vm-fs-tests.sh
	module_loaded || { insmod /getdentsplus.ko; check $? "insmod after fs"; }
fi
want e2e || exit 0

# ---- end to end with src/ls ----------------------------------------
# An initramfs without them says why (arm64: no arm64 GNU ls, strace, src/ls).
if [ -f /etc/lsplus-no-e2e ]; then
	why=$(cat /etc/lsplus-no-e2e)
	ok "end to end: src/ls -lR equals GNU ls # SKIP $why"
	ok "end to end: strace counts # SKIP $why"
	exit 0
fi
if [ ! -x $LS ]; then
	ok "end to end: src/ls -lR equals GNU ls # SKIP no src/ls was given to the rig"
	ok "end to end: strace counts # SKIP no src/ls was given to the rig"
	exit 0
fi
echo "# --- end to end"
cd /mnt/ext4
/bin/ls -lR tree >/tmp/gnu.out 2>/tmp/gnu.err
gs=$?
for b in sync auto; do
	LSPLUS_BACKEND=$b $LS -lR tree >/tmp/ours.out 2>/tmp/ours.err
	os=$?
	if cmp -s /tmp/gnu.out /tmp/ours.out && cmp -s /tmp/gnu.err /tmp/ours.err && [ $gs = $os ]; then
		ok "end to end: LSPLUS_BACKEND=$b src/ls -lR byte-identical to /bin/ls -lR (status $os)"
	else
		notok "end to end: LSPLUS_BACKEND=$b src/ls -lR byte-identical to /bin/ls -lR (status $os, GNU $gs)"
		diff /tmp/gnu.out /tmp/ours.out | head -20 | sed 's/^/# /'
		diff /tmp/gnu.err /tmp/ours.err | head -10 | sed 's/^/# /'
	fi
done

if ! LSPLUS_BACKEND=getdentsplus $LS -d /mnt/ext4 >/dev/null 2>/tmp/be.err; then
	sed 's/^/# /' /tmp/be.err
	ok "end to end: LSPLUS_BACKEND=getdentsplus src/ls -lR equals GNU ls # SKIP userspace backend not built"
	ok "end to end: strace counts with the getdentsplus backend # SKIP userspace backend not built"
	exit 0
fi
LSPLUS_BACKEND=getdentsplus $LS -lR tree >/tmp/ours.out 2>/tmp/ours.err
os=$?
if cmp -s /tmp/gnu.out /tmp/ours.out && cmp -s /tmp/gnu.err /tmp/ours.err && [ $gs = $os ]; then
	ok "end to end: LSPLUS_BACKEND=getdentsplus src/ls -lR byte-identical to /bin/ls -lR"
else
	notok "end to end: LSPLUS_BACKEND=getdentsplus src/ls -lR byte-identical to /bin/ls -lR (status $os, GNU $gs)"
	diff /tmp/gnu.out /tmp/ours.out | head -20 | sed 's/^/# /'
	diff /tmp/gnu.err /tmp/ours.err | head -10 | sed 's/^/# /'
fi

# Syscall counts ("name calls" lines) from a full `strace -f` trace:
# strace 6.1's -c mode segfaults when the tracee makes an unknown syscall
# (ours: syscall_0x1a7), so we count the trace ourselves.
counts() {
	awk '{ sub(/^[0-9]+ +/, "") } /^<\.\.\./ || /^\+\+\+/ || /^---/ { next }
	     match($0, /^[a-zA-Z0-9_]+\(/) { n[substr($0, 1, RLENGTH - 1)]++ }
	     END { for (k in n) print k, n[k] }' "$1"
}
# LeakSanitizer refuses to run under ptrace: a sanitizer build of src/ls
# would exit non-zero under strace for that reason alone.
asan_opts=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
perfile="statx newfstatat fstatat64 lstat stat fstat getxattr lgetxattr fgetxattr listxattr llistxattr flistxattr getxattrat listxattrat"
files=$(find tree/wide | wc -l)
/usr/bin/strace -f -qq -o /tmp/gnu.trace /bin/ls -lR tree/wide >/dev/null 2>/tmp/gnu.strace.err
ASAN_OPTIONS=$asan_opts LSPLUS_BACKEND=getdentsplus /usr/bin/strace -f -qq -o /tmp/ours.trace $LS -lR tree/wide >/dev/null 2>/tmp/ours.strace.err
st=$?
sed 's/^/# strace: /' /tmp/ours.strace.err | head -n 20
# Baseline: the same command on an empty directory (startup, operand).
ASAN_OPTIONS=$asan_opts LSPLUS_BACKEND=getdentsplus /usr/bin/strace -f -qq -o /tmp/base.trace $LS -lR tree/dir-empty >/dev/null 2>&1
counts /tmp/gnu.trace >/tmp/gnu.counts
counts /tmp/ours.trace >/tmp/ours.counts
counts /tmp/base.trace >/tmp/base.counts
n_ours=0 n_base=0
for f in $perfile; do
	g=$(awk -v f=$f '$1 == f { print $2 }' /tmp/gnu.counts)
	o=$(awk -v f=$f '$1 == f { print $2 }' /tmp/ours.counts)
	z=$(awk -v f=$f '$1 == f { print $2 }' /tmp/base.counts)
	[ -n "$g$o" ] && echo "# $f: GNU ${g:-0}, ours ${o:-0} (empty-dir baseline ${z:-0})"
	n_ours=$((n_ours + ${o:-0}))
	n_base=$((n_base + ${z:-0}))
done
t_g=$(awk '{ t += $2 } END { print t + 0 }' /tmp/gnu.counts)
t_o=$(awk '{ t += $2 } END { print t + 0 }' /tmp/ours.counts)
t_z=$(awk '{ t += $2 } END { print t + 0 }' /tmp/base.counts)
echo "# all syscalls for $files entries: GNU $t_g, ours $t_o (empty-dir baseline $t_z)" \
	"-> $(awk -v a=$t_o -v b=$t_z -v n=$files 'BEGIN { printf "%.3f", (a - b) / n }') per entry net of startup"
sort -k2 -n -r /tmp/ours.counts | head -n 8 | sed 's/^/# ours: /'
net=$((n_ours - n_base))
check $([ $st -eq 0 ] && [ "${t_o:-0}" -gt 0 ] && [ $((net * 50)) -le "$files" ] && echo 0 || echo 1) \
	"end to end: stat/xattr syscalls of src/ls -lR with getdentsplus: $net beyond startup for $files entries (<= 0.02 per entry)"

# Every system call of ls -lR with the module, at 100 files per directory
# (issue 14): ABI 3 spares the fstat (the directory's own record) and the
# call that only learns the end (the end mark), and closes go in batches.
# Per directory exactly one getdentsplus call and no fstat or getdents64;
# in all at most 0.02 calls per entry net of startup (output included).
mkdir -p /mnt/ext4/h100
d=0
while [ $d -lt 40 ]; do
	mkdir -p /mnt/ext4/h100/d$d
	i=0
	while [ $i -lt 100 ]; do : >/mnt/ext4/h100/d$d/file-$i; i=$((i + 1)); done
	d=$((d + 1))
done
hdirs=41 hents=$(($(find /mnt/ext4/h100 -mindepth 1 | wc -l) - 1))
LSPLUS_BACKEND=getdentsplus ASAN_OPTIONS=$asan_opts /usr/bin/strace -f -qq -o /tmp/h100.trace $LS -lR /mnt/ext4/h100 >/dev/null 2>&1
st=$?
# The baseline lists one file (startup, and the time zone that a long
# listing's first date loads).
mkdir -p /mnt/ext4/h100-empty
: >/mnt/ext4/h100-empty/file
LSPLUS_BACKEND=getdentsplus ASAN_OPTIONS=$asan_opts /usr/bin/strace -f -qq -o /tmp/h0.trace $LS -lR /mnt/ext4/h100-empty >/dev/null 2>&1
counts /tmp/h100.trace >/tmp/h100.counts
counts /tmp/h0.trace >/tmp/h0.counts
c() { awk -v f=$2 '$1 == f { n = $2 } END { print n + 0 }' $1; }
g100=$(c /tmp/h100.counts syscall_0x$(printf %x "$nr")) g0=$(c /tmp/h0.counts syscall_0x$(printf %x "$nr"))
[ "$g100" = 0 ] && g100=$(c /tmp/h100.counts ioctl) g0=$(c /tmp/h0.counts ioctl)
t100=$(awk '{ t += $2 } END { print t + 0 }' /tmp/h100.counts)
t0=$(awk '{ t += $2 } END { print t + 0 }' /tmp/h0.counts)
# What the 40 directories of 100 files cost beyond one file.
awk 'NR == FNR { z[$1] = $2; next } { d = $2 - z[$1]; if (d) print "# h100 beyond one file: " $1, d }' \
	/tmp/h0.counts /tmp/h100.counts
extra=0
for f in fstat newfstatat statx getdents64; do
	extra=$((extra + $(c /tmp/h100.counts $f) - $(c /tmp/h0.counts $f)))
done
check $([ $st -eq 0 ] && [ $((g100 - g0)) -eq $((hdirs - 1)) ] && [ $extra -le 0 ] && echo 0 || echo 1) \
	"end to end: ls -lR with getdentsplus: one call per directory ($((g100 - g0)) for $((hdirs - 1)) more directories), no fstat, statx or getdents64 ($extra more than for one file)"
per=$(awk -v a=$((t100 - t0)) -v n=$hents 'BEGIN { printf "%.4f", a / n }')
if grep -q __asan_init "$LS"; then
	# AddressSanitizer's allocator maps each directory's buffer with mmap.
	ok "end to end: ls -lR with getdentsplus at 100 files per directory: $((t100 - t0)) system calls for $hents entries ($per per entry) # SKIP AddressSanitizer build: its allocator adds an mmap per buffer; the count holds for the normal build"
else
	check $([ $st -eq 0 ] && [ $(((t100 - t0) * 50)) -le $hents ] && echo 0 || echo 1) \
		"end to end: ls -lR with getdentsplus at 100 files per directory: $((t100 - t0)) system calls for $hents entries net of startup ($per per entry, <= 0.02)"
fi
rm -rf /mnt/ext4/h100 /mnt/ext4/h100-empty
exit 0
