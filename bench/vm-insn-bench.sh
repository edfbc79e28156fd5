#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/vm-insn-bench.sh: the in-VM half of bench/run-insn (busybox sh,
# run by tests/kmod/qemu/init in its "demo" slot, getdentsplus.ko
# loaded, the VM booted with the instruction counter: boot's
# LSPLUS_VM_INSN).
#
# Every measurement is a window of tests/kmod/vm/insn-mark: `insn-mark
# run LABEL CMD...` opens it, runs CMD (fork, exec, wait) and closes it;
# the plugin on the host appends "LABEL USER KERNEL" to its file.  Runs,
# all warm (one unmeasured run of each first), REPS alternating rounds:
#   base-R            the empty command (/bin/true): fork, exec, exit, wait
#   VARIANT-tree-R    ls -lR of the rig's ext4 fixture tree (/mnt/ext4/tree)
#   VARIANT-empty-R   the same ls -lR of an empty directory (its startup)
# VARIANT: GNU (/bin/ls, coreutils 9.1) and lsplus with LSPLUS_BACKEND
# sync, getdentsplus and uring (LSPLUS_THREADS=0: one thread, as
# bench/vm-bench.sh), each only if the backend works here.  Plus the
# calibration windows (insn-mark loop and getpid, as vm/vm-tests.sh).
# Prints "INSN-ENTRIES N" (the tree's entries, find -mindepth 1) and
# "INSN-VARIANTS V..." for the host.  lsplus.reps= on the kernel
# command line (default 5).
LS=/opt/lsplus/ls
M=/usr/bin/insn-mark
TREE=/mnt/ext4/tree
EMPTY=/mnt/ext4/insn-empty
export LC_ALL=C TZ=UTC
reps=5
for a in $(cat /proc/cmdline); do
	case $a in lsplus.reps=[1-9]*) reps=${a#*=} ;; esac
done
[ -x $M ] || { echo "INSN-ERROR no $M" ; exit 1; }

mkdir -p $EMPTY
sync
echo "INSN-ENTRIES $(find $TREE -mindepth 1 | wc -l)"

variants=GNU
for b in sync getdentsplus uring; do
	if [ -x $LS ] && LSPLUS_BACKEND=$b $LS -d / >/dev/null 2>&1; then
		variants="$variants $b"
	else
		echo "insn-bench: backend $b unavailable" >&2
	fi
done
echo "INSN-VARIANTS $variants"

# one LABEL VARIANT DIR: a window around VARIANT's ls -lR DIR.
one() {
	case $2 in
	GNU) $M run "$1" /bin/ls -lR "$3" >/dev/null 2>&1 ;;
	*) LSPLUS_BACKEND=$2 LSPLUS_THREADS=0 $M run "$1" $LS -lR "$3" >/dev/null 2>&1 ;;
	esac
	[ $? -eq 0 ] || echo "INSN-ERROR $1 exited non-zero"
}

for v in $variants; do
	one "warmup-$v" "$v" $TREE
	one "warmup-$v-empty" "$v" $EMPTY
done
$M run warmup-base /bin/true
r=1
while [ $r -le "$reps" ]; do
	$M run "base-$r" /bin/true
	for v in $variants; do
		one "$v-tree-$r" "$v" $TREE
		one "$v-empty-$r" "$v" $EMPTY
	done
	r=$((r + 1))
done
for n in 1000000 2000000 4000000; do $M loop $n cal-loop-$n-a; done
for n in 20000 40000 80000; do $M getpid $n cal-getpid-$n-a; done
echo "INSN-DONE"
