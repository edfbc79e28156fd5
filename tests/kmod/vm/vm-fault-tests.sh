#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/kmod/vm/vm-fault-tests.sh: the fault-injection pass (section fault of
# vm-tests.sh; busybox sh in the VM, needs /usr/bin/gdp-fuzz and
# /getdentsplus.ko).
#
# With the debug kernel's debugfs knobs, each in turn, restricted to the
# test's own tasks (task-filter=Y; gdp-fuzz -F sets its threads'
# /proc/thread-self/make-it-fail around each call only): slab allocations
# (failslab), page allocations (fail_page_alloc), user copies
# (fail_usercopy) and the module's per-entry error-injection point
# (fail_function on gdp_entry_fault) fail at random while gdp-fuzz calls
# the module from several tasks.  Every call must return a documented
# result: a failed allocation ENOMEM for the call or the entry, a failed
# copy EFAULT or a shorter batch; the records stay well formed.  Then
# after rmmod nothing of the module remains (sysfs, /proc/modules, the
# device, its symbols, its kprobe, its injectable function), and kmemleak
# reports nothing new.  lsplus.fault=SECS: seconds per knob (default 10).
# A kernel without a knob: that check says "SKIP: no fault injection in
# this kernel".  Leaves the module loaded.
# Prints TAP lines without numbers, like vm-tests.sh.
F=/usr/bin/gdp-fuzz
D=/sys/kernel/debug
E=/mnt/ext4/tree
secs=10
for a in $(cat /proc/cmdline); do
	case $a in lsplus.fault=*) secs=${a#*=} ;; esac
done
export LC_ALL=C

ok() { echo "ok - fault: $*"; }
notok() { echo "not ok - fault: $*"; }
skip() { # CHECK WHY [WHAT]: WHAT defaults to "fault injection"
	echo "ok - fault: $1 # SKIP: no ${3:-fault injection} in this kernel ($2)"
}
grep -q " $D debugfs " /proc/mounts || mount -t debugfs debugfs $D 2>/dev/null

# arm KNOB PERCENT: fail at random, only in tasks with make-it-fail set.
arm() {
	echo Y >$D/$1/task-filter
	echo "$2" >$D/$1/probability
	echo 1 >$D/$1/interval
	echo -1 >$D/$1/times
	echo 0 >$D/$1/space
	echo 0 >$D/$1/verbose
	# Sleeping allocations (GFP_KERNEL) fail too, not only atomic ones.
	[ -e $D/$1/ignore-gfp-wait ] && echo N >$D/$1/ignore-gfp-wait
	[ -e $D/$1/ignore-gfp-highmem ] && echo N >$D/$1/ignore-gfp-highmem
	[ -e $D/$1/min-order ] && echo 0 >$D/$1/min-order
	return 0
}
disarm() { echo 0 >$D/$1/probability; echo 0 >$D/$1/times; }

# fuzz NAME: gdp-fuzz in fault mode; its TAP lines are renamed, its
# totals kept in /tmp/fault-NAME.totals.
fuzz() {
	s=$(date +%s)
	timeout $((secs + 60)) $F -F -t "$secs" -j 2 /mnt/tmp/fault -- $E $E/many /proc /mnt/tmp/tree \
		>/tmp/fault-$1.out 2>&1
	rc=$?
	sed -n -e "s/^ok - fuzz[^:]*: /ok - fault: $1: /p" \
		-e "s/^not ok - fuzz[^:]*: /not ok - fault: $1: /p" -e '/^#/p' /tmp/fault-$1.out
	[ $rc -gt 1 ] && notok "$1: gdp-fuzz exited with status $rc (crash, signal or timeout)"
	sed -n 's/^# fuzz-totals: //p' /tmp/fault-$1.out >/tmp/fault-$1.totals
	echo "# --- fault $1: $(($(date +%s) - s)) s"
}
total() { # NAME KEY: a number from gdp-fuzz's totals line
	tr ' ' '\n' </tmp/fault-$1.totals | sed -n "s/^$2=//p"
}

# ---- kmemleak: what it already reports (not this pass's; the list is
# not cleared, the end of the run reports those) -------------------------
K=$D/kmemleak
suspects() { sed -n 's/^unreferenced object \(0x[0-9a-f]*\).*/\1/p' $K | sort; }
: >/tmp/kmemleak.before
if [ -w $K ]; then
	echo scan >$K
	suspects >/tmp/kmemleak.before
	[ -s /tmp/kmemleak.before ] &&
		echo "# kmemleak: $(wc -l </tmp/kmemleak.before) suspects from before the fault pass (not counted here)"
fi
slab0=$(sed -n 's/^Slab: *\([0-9]*\).*/\1/p' /proc/meminfo)

# ---- allocation and user-copy failures ----------------------------------
for knob in failslab fail_page_alloc fail_usercopy; do
	if [ ! -d $D/$knob ]; then
		skip "$knob" "no $D/$knob"
		continue
	fi
	case $knob in
	failslab) pct=10 ;;
	fail_page_alloc) pct=20 ;;	# big calls only allocate pages
	*) pct=10 ;;
	esac
	arm $knob $pct
	fuzz $knob
	disarm $knob
	case $knob in
	fail_usercopy) n=$(total $knob EFAULT) what="EFAULT results" ;;
	*) n=$(($(total $knob ENOMEM) + $(total $knob unresolved))) what="ENOMEM results or entries left to the caller" ;;
	esac
	if [ "${n:-0}" -gt 0 ]; then
		ok "$knob at $pct %: the injected failures reached the callers ($n $what in $(total $knob calls) calls)"
	else
		notok "$knob at $pct %: the injected failures reached the callers (no $what in $(total $knob calls) calls)"
	fi
done

# ---- the module's error-injection point ----------------------------------
FF=$D/fail_function
if [ ! -d $FF ]; then
	skip fail_function "no $FF"
elif ! echo gdp_entry_fault >$FF/inject 2>/dev/null; then
	notok "fail_function: gdp_entry_fault is injectable ($(grep -c gdp_ $FF/injectable 2>/dev/null) gdp_ entries in injectable)"
else
	arm fail_function 20
	# With task-filter=Y fail_function injected nothing (its kprobe
	# handler apparently does not run in task context): filter off.  Only
	# the test's tasks call the module here, so only they fail.
	echo N >$FF/task-filter
	printf '%#x' -12 >$FF/gdp_entry_fault/retval
	fuzz fail_function
	echo >$FF/inject
	disarm fail_function
	# ABI 4: a failed entry is left to the caller (GDP_REC_UNRESOLVED),
	# never an ENOMEM in the record (gdp-fuzz fails on one).
	n=$(total fail_function unresolved)
	e=$(total fail_function entry-ENOMEM)
	if [ "${n:-0}" -gt 0 ] && [ "${e:-0}" -eq 0 ]; then
		ok "fail_function gdp_entry_fault=-ENOMEM at 20 %: entries left to the caller ($n in $(total fail_function calls) calls), no ENOMEM in a record"
	else
		notok "fail_function gdp_entry_fault=-ENOMEM at 20 %: entries left to the caller (${n:-0} unresolved, ${e:-0} ENOMEM records in $(total fail_function calls) calls)"
	fi
fi
rm -rf /mnt/tmp/fault

# ---- rmmod: nothing of the module remains ----------------------------------
# (its kprobe is on the kernel's ni_syscall: no module name in the list)
[ -r $D/kprobes/list ] &&
	echo "# kprobes on ni_syscall before rmmod: $(grep -c ni_syscall $D/kprobes/list)"
if rmmod getdentsplus; then
	ok "rmmod getdentsplus after the fault passes"
	left=
	[ -e /sys/module/getdentsplus ] && left="$left /sys/module/getdentsplus"
	grep -q '^getdentsplus ' /proc/modules && left="$left /proc/modules"
	[ -e /dev/getdentsplus ] && left="$left /dev/getdentsplus"
	grep -q '\[getdentsplus\]' /proc/kallsyms && left="$left kallsyms"
	[ -r $D/kprobes/list ] && grep -q 'ni_syscall' $D/kprobes/list && left="$left kprobe"
	[ -r $FF/injectable ] && grep -q gdp_entry_fault $FF/injectable && left="$left injectable"
	grep -q getdentsplus /proc/slabinfo 2>/dev/null && left="$left slab-cache"
	if [ -z "$left" ]; then
		ok "nothing of the module remains after rmmod (sysfs, /proc/modules, device, symbols, kprobe, injectable, slab)"
	else
		notok "nothing of the module remains after rmmod (left:$left)"
	fi
	slab1=$(sed -n 's/^Slab: *\([0-9]*\).*/\1/p' /proc/meminfo)
	echo "# Slab: ${slab0} kB before the fault passes, ${slab1} kB after rmmod"
	rmmod_ok=1
else
	notok "rmmod getdentsplus after the fault passes"
	rmmod_ok=0
fi

# ---- kmemleak: two scans (an object must be older than 5 s to be
# reported), nothing on the list that was not there before this pass ------
if [ -w $K ]; then
	s=$(date +%s)
	echo scan >$K
	sleep 6
	echo scan >$K
	if [ -s /tmp/kmemleak.before ]; then
		suspects | grep -vxF -f /tmp/kmemleak.before >/tmp/kmemleak.new
	else	# busybox grep -v -f EMPTY prints nothing
		suspects >/tmp/kmemleak.new
	fi
	what="after the fault passes and rmmod"
	if [ -s /tmp/kmemleak.new ]; then
		notok "kmemleak reports nothing new $what ($(wc -l </tmp/kmemleak.new) objects)"
		cat $K >/tmp/kmemleak.txt
		for o in $(head -n 3 /tmp/kmemleak.new); do
			sed -n "/^unreferenced object $o /,/^unreferenced object/p" /tmp/kmemleak.txt |
				head -n 25 | sed 's/^/# kmemleak: /'
		done
	else
		ok "kmemleak reports nothing new $what"
	fi
	echo "# --- kmemleak scans: $(($(date +%s) - s)) s"
else
	skip kmemleak "no $K" kmemleak
fi
[ $rmmod_ok = 1 ] && { insmod /getdentsplus.ko || notok "insmod after the fault pass"; }
exit 0
