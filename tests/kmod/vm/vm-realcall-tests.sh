#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/kmod/vm/vm-realcall-tests.sh: in-VM checks of the in-tree
# getdentsplus(2) call (upstream/'s series) end to end, section
# "realcall" of vm-tests.sh (busybox sh; TAP lines without numbers).
# Needs /opt/lsplus/lsrc, src/ls built against the patched kernel's
# headers, and /usr/bin/gdp-eq (tests/kmod/qemu/build-lsrc, put there by
# mkinitrd for a kernel whose build tree has the series); skips without
# them.  On the patched kernel:
#   a) src/ls -lR of the fixture (ext4 with its tmpfs mount, and the
#      tmpfs tree) byte-identical to /bin/ls (stdout, stderr, status)
#      with LSPLUS_BACKEND=auto and =intree, the module loaded and not;
#   b) from full `strace -f -n` traces: syscall 472 (the in-tree call)
#      is what auto uses, never the module's syscall or its ioctl; the
#      calls per entry of every way of reading, and GNU's, printed
#      ("# calls per entry: ..."), and one wall time of each;
#   c) with the module, the fallback order forced backend by backend:
#      the module's syscall, its ioctl (module loaded with syscall=0),
#      io_uring, sync: each byte-identical;
#   d) gdp-eq: for every directory of the fixture, the in-tree call's
#      records and the module's (ioctl) agree on every field they share.
# Leaves the module loaded as it found it (default parameters).
LS=/opt/lsplus/lsrc
EQ=/usr/bin/gdp-eq
KO=/getdentsplus.ko
NR_IN_TREE=472
export LC_ALL=C TZ=UTC
timescale=${timescale:-1}
# LeakSanitizer refuses to run under ptrace.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
export ASAN_OPTIONS

ok() { echo "ok - $*"; }
notok() { echo "not ok - $*"; }
check() { # COND-EXIT-STATUS DESCRIPTION
	if [ "$1" -eq 0 ]; then ok "$2"; else notok "$2"; fi
	return "$1"
}
module_loaded() { [ -d /sys/module/getdentsplus ]; }
# load [PARAM...]: the module (again) with these parameters.
load() {
	if module_loaded; then rmmod getdentsplus || return 1; fi
	insmod $KO "$@"
}

echo "# --- realcall"
if [ -f /etc/lsplus-no-lsrc ]; then
	notok "realcall: src/ls against the patched kernel's headers: $(cat /etc/lsplus-no-lsrc)"
	exit 0
fi
if [ ! -x $LS ] || [ ! -x $EQ ]; then
	ok "realcall: src/ls over the in-tree getdentsplus(2) # SKIP this kernel's build tree has no getdentsplus series (no /opt/lsplus/lsrc)"
	exit 0
fi
if ! LSPLUS_BACKEND=intree $LS -d / >/dev/null 2>/tmp/rc.err; then
	notok "realcall: LSPLUS_BACKEND=intree usable on the patched kernel: $(cat /tmp/rc.err)"
	exit 0
fi
ok "realcall: LSPLUS_BACKEND=intree usable (the kernel answers the probe)"

cd /mnt || exit 1
TREES="ext4/tree tmp/tree"
/bin/ls -lR $TREES >/tmp/gnu.out 2>/tmp/gnu.err
gs=$?
entries=$(find $TREES | wc -l)

# same WHAT: /tmp/o.out, /tmp/o.err, $os equal GNU's.
same() {
	if cmp -s /tmp/gnu.out /tmp/o.out && cmp -s /tmp/gnu.err /tmp/o.err && [ "$gs" = "$os" ]; then
		ok "realcall: $1: src/ls -lR byte-identical to /bin/ls (stdout, stderr, status $os)"
	else
		notok "realcall: $1: src/ls -lR byte-identical to /bin/ls (status $os, GNU $gs)"
		diff /tmp/gnu.out /tmp/o.out | head -n 20 | sed 's/^/# /'
		diff /tmp/gnu.err /tmp/o.err | head -n 10 | sed 's/^/# /'
	fi
}
# ours BACKEND WHAT: src/ls -lR of the fixture with LSPLUS_BACKEND.
ours() {
	LSPLUS_BACKEND=$1 $LS -lR $TREES >/tmp/o.out 2>/tmp/o.err
	os=$?
	same "$2"
}

# The traces (strace -n: "PID [ NR] name(...)"): calls of number $1;
# every call (resumptions and signals not counted twice).
nr_calls() { awk -v nr="$1" '{ sub(/^[0-9]+ +/, "") } $1 == "[" && $2 == nr "]" { n++ } $1 == "[" nr "]" { n++ } END { print n + 0 }' "$2"; }
all_calls() {
	awk '{ sub(/^[0-9]+ +/, ""); sub(/^\[ *[0-9]+\] /, "") }
	     /^<\.\.\./ || /^\+\+\+/ || /^---/ { next }
	     /^[a-zA-Z0-9_]+\(/ { n++ } END { print n + 0 }' "$1"
}
gdp_ioctls() { grep -c 'ioctl(.*0xd9, 0x1, 0x20)' "$1"; }
# trace NAME CMD...: a full trace of CMD -lR of the fixture in
# /tmp/NAME.trace and of the same on an empty directory in
# /tmp/NAME.base; sets per_NAME to the calls per entry net of startup.
trace() {
	name=$1
	shift
	/usr/bin/strace -f -n -qq -o /tmp/$name.trace "$@" -lR $TREES >/dev/null 2>&1
	/usr/bin/strace -f -n -qq -o /tmp/$name.base "$@" -lR ext4/tree/dir-empty >/dev/null 2>&1
	t=$(all_calls /tmp/$name.trace) z=$(all_calls /tmp/$name.base)
	eval "per_$name=\$(awk -v a=$t -v b=$z -v n=$entries 'BEGIN { printf \"%.3f\", (a - b) / n }')"
	eval "tot_$name=$t"
}

# ---- a) auto and intree, module loaded and not ----------------------
module_loaded || load
nr=$(cat /sys/module/getdentsplus/parameters/nr 2>/dev/null)
ours auto "module loaded, LSPLUS_BACKEND=auto"
ours intree "module loaded, LSPLUS_BACKEND=intree"
# ---- b) what auto calls, with the module loaded ---------------------
trace gnu /bin/ls
trace intree env LSPLUS_BACKEND=auto $LS
n472=$(nr_calls $NR_IN_TREE /tmp/intree.trace)
nmod=$( [ -n "$nr" ] && [ "$nr" != 0 ] && nr_calls "$nr" /tmp/intree.trace || echo 0)
nio=$(gdp_ioctls /tmp/intree.trace)
dirs=$(find $TREES -type d | wc -l)
check $([ "$n472" -ge "$dirs" ] && [ "$nmod" = 0 ] && [ "$nio" = 0 ] && echo 0 || echo 1) \
	"realcall: strace of auto with the module loaded: $n472 calls of syscall $NR_IN_TREE for $dirs directories, $nmod of the module's syscall $nr, $nio module ioctls (want none)"

if rmmod getdentsplus; then
	ours auto "module not loaded, LSPLUS_BACKEND=auto"
	ours intree "module not loaded, LSPLUS_BACKEND=intree"
	trace nomod env LSPLUS_BACKEND=auto $LS
	n=$(nr_calls $NR_IN_TREE /tmp/nomod.trace)
	check $([ "$n" -ge "$dirs" ] && echo 0 || echo 1) \
		"realcall: strace of auto without the module: $n calls of syscall $NR_IN_TREE"
	load
	check $? "realcall: insmod again"
else
	notok "realcall: rmmod getdentsplus (for the checks without the module)"
fi

# ---- c) the fallback order, forced backend by backend ---------------
module_loaded || load
nr=$(cat /sys/module/getdentsplus/parameters/nr 2>/dev/null)
ours getdentsplus "the module's syscall (LSPLUS_BACKEND=getdentsplus)"
trace module env LSPLUS_BACKEND=getdentsplus $LS
n=$(nr_calls "$nr" /tmp/module.trace) n2=$(nr_calls $NR_IN_TREE /tmp/module.trace)
check $([ "$n" -ge "$dirs" ] && [ "$n2" = 0 ] && echo 0 || echo 1) \
	"realcall: LSPLUS_BACKEND=getdentsplus calls the module's syscall $nr ($n calls), not $NR_IN_TREE ($n2)"
if load syscall=0; then
	ours getdentsplus "the module's ioctl (module loaded syscall=0)"
	trace ioctl env LSPLUS_BACKEND=getdentsplus $LS
	n=$(gdp_ioctls /tmp/ioctl.trace)
	check $([ "$n" -ge "$dirs" ] && echo 0 || echo 1) \
		"realcall: module loaded syscall=0: $n ioctls on /dev/getdentsplus"
	ours auto "module loaded syscall=0, LSPLUS_BACKEND=auto (the in-tree call first)"
else
	notok "realcall: insmod $KO syscall=0"
	per_ioctl=-
fi
load
check $? "realcall: module loaded again with its default parameters"
if LSPLUS_BACKEND=uring $LS -d / >/dev/null 2>&1; then
	ours uring "LSPLUS_BACKEND=uring"
	trace uring env LSPLUS_BACKEND=uring $LS
else
	ok "realcall: LSPLUS_BACKEND=uring # SKIP io_uring backend unavailable"
	per_uring=-
fi
ours sync "LSPLUS_BACKEND=sync"
trace sync env LSPLUS_BACKEND=sync $LS

# Wall time of one ls -lR of the fixture each (output to /dev/null), the
# module loaded with its defaults: a debug kernel under TCG, so only the
# order means something.
now() { cut -d' ' -f1 /proc/uptime; }
wall() { # CMD...: seconds of CMD -lR $TREES
	t0=$(now)
	"$@" -lR $TREES >/dev/null 2>&1
	awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'
}
w_gnu=$(wall /bin/ls)
w_intree=$(wall env LSPLUS_BACKEND=intree $LS)
w_module=$(wall env LSPLUS_BACKEND=getdentsplus $LS)
w_uring=$( [ "$per_uring" = - ] && echo - || wall env LSPLUS_BACKEND=uring $LS)
w_sync=$(wall env LSPLUS_BACKEND=sync $LS)

echo "# calls per entry ($entries entries, net of an empty directory's listing): GNU $per_gnu, in-tree call $per_intree, module syscall $per_module, module ioctl $per_ioctl, io_uring $per_uring, sync $per_sync"
echo "# all calls of ls -lR of the fixture: GNU $tot_gnu, in-tree call $tot_intree, module syscall $tot_module, module ioctl ${tot_ioctl:--}, io_uring ${tot_uring:--}, sync $tot_sync"
echo "# wall time of ls -lR of the fixture, s (one run each, warm cache): GNU $w_gnu, in-tree call $w_intree, module syscall $w_module, io_uring $w_uring, sync $w_sync"

# ---- d) the same records from both calls -----------------------------
echo "# --- realcall: gdp-eq"
timeout $((300 * timescale)) $EQ $(find /mnt/ext4/tree /mnt/tmp/tree -type d) >/tmp/eq.out 2>&1
rc=$?
cat /tmp/eq.out
check $rc "realcall: in-tree call and module ioctl give the same records for every directory of the fixture (gdp-eq)"
exit 0
