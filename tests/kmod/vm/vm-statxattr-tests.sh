#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/kmod/vm/vm-statxattr-tests.sh: in-VM section "statxattr" of
# vm-tests.sh (issue 20, point 3; busybox sh; TAP lines without numbers):
# src/ls over the two smaller kernel series, on a kernel that has them
# (the debug kernel of vm-debug.test):
#   A  upstream/statx-xattr-info/: statx's STATX_XATTR_INFO, STATX_ATTR_ACL,
#      STATX_ATTR_SECLABEL (the library's "statx" backend:
#      lib/dirplus-statxattr.c);
#   B  upstream/io_uring-statx/: IORING_OP_STATX inline where it would
#      not block (IORING_FEAT_STATX_INLINE; the uring backend).
# Each part runs where the initramfs has its series' kselftest
# (statx_xattr_info_test, statx_inline_test: mkinitrd builds them from
# the kernel's own tree, so the kernel has the series), else it skips.
# /opt/lsplus/ls (src/ls built without the in-tree call, so that auto's
# choice below intree shows) with the module unloaded (reloaded after).
#   a) src/ls -lR, -lRZ of the rig's fixture (ext4 and tmpfs) and of this
#      section's trees byte-identical to /bin/ls (stdout, stderr,
#      status) with LSPLUS_BACKEND=statx, =uring, =auto, =sync;
#   b) A, from full `strace -f -o` traces (Debian 12's strace prints
#      listxattrat/getxattrat as syscall_0x1d1/0x1d0; calls on an entry
#      are those relative to a directory fd, the operand's use AT_FDCWD):
#      on ext4 and tmpfs, ls -l and ls -lR with LSPLUS_BACKEND=statx and
#      with auto make exactly one statx per entry, each asking
#      STATX_XATTR_INFO (0x40000), and no xattr call, on a tree of files
#      (some with an access ACL, some labelled, symlinks, directories
#      without ACLs); a directory with an ACL costs exactly one
#      listxattr (its access and default ACL are kept apart); -lZ one
#      getxattr per labelled entry (the value), none for the others;
#      LSPLUS_BACKEND=sync still makes its one listxattr per entry;
#   c) B, from the kernel's io_uring tracepoints (io_uring_submit_req,
#      io_uring_queue_async_work): with LSPLUS_BACKEND=uring on a warm
#      tree without xattrs every STATX SQE completes inline (none queued
#      to io-wq), on ext4 and tmpfs; with ACLs and labels at most the
#      entries that store an xattr are queued (ext4 tells statx only
#      that an inode stores none: a stored label's presence is an xattr
#      read, which the inline path leaves to io-wq; tmpfs queues none);
#      no GETXATTR SQE is sent where A answers; a cold ext4 tree
#      (drop_caches) does punt some (the count is real);
#   d) the calls per entry of GNU, sync, statx and uring side by side
#      ("# calls per entry: ...").
# Fails on a difference or a count; prints GNU's counts beside ours.
# On the host, tests/unit/statxattr-ls.test runs part A of it over an
# emulation of the series (tests/unit/statxattr-shim.c, LD_PRELOAD):
# LSPLUS_SXA_LS (the ls), LSPLUS_SXA_FSES (the directories to build the
# trees in) and LSPLUS_SXA_PARTS (A, B or AB: the parts to run, whatever
# the initramfs has) replace the VM's defaults.
LS=${LSPLUS_SXA_LS:-/opt/lsplus/ls}
KO=/getdentsplus.ko
export LC_ALL=C TZ=UTC
timescale=${timescale:-1}
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
export ASAN_OPTIONS

ok() { echo "ok - $*"; }
notok() { echo "not ok - $*"; }
check() { # COND-EXIT-STATUS DESCRIPTION
	if [ "$1" -eq 0 ]; then ok "$2"; else notok "$2"; fi
	return "$1"
}
module_loaded() { [ -d /sys/module/getdentsplus ]; }

echo "# --- statxattr"
have_a=0 have_b=0
[ -x /usr/bin/statx_xattr_info_test ] && have_a=1
[ -x /usr/bin/statx_inline_test ] && have_b=1
if [ -n "${LSPLUS_SXA_PARTS-}" ]; then
	have_a=0 have_b=0
	case $LSPLUS_SXA_PARTS in *A*) have_a=1 ;; esac
	case $LSPLUS_SXA_PARTS in *B*) have_b=1 ;; esac
fi
if [ $have_a = 0 ] && [ $have_b = 0 ]; then
	ok "statxattr: src/ls over statx attributes and inline io_uring statx # SKIP this kernel's source has neither series"
	exit 0
fi
if [ ! -x $LS ]; then
	ok "statxattr # SKIP no src/ls was given to the rig"
	exit 0
fi
had_module=0
if module_loaded; then
	had_module=1
	rmmod getdentsplus || notok "statxattr: rmmod getdentsplus (auto would take it)"
fi

# ---- the trees: T/flat (files only), T/tree (3 levels), T/acl (with
# directories that have ACLs), on ext4 and tmpfs ---------------------
LABEL=system_u:object_r:tmp_t:s0
mk_tree() { # DIR
	rm -rf "$1"
	mkdir -p "$1/flat" "$1/acl"
	i=0
	while [ $i -lt 30 ]; do
		: >"$1/flat/f$i"
		[ $((i % 7)) = 1 ] && setfacl -m u:65534:r "$1/flat/f$i"
		[ $((i % 5)) = 2 ] && setfattr -n security.selinux -v $LABEL "$1/flat/f$i"
		i=$((i + 1))
	done
	ln -s f1 "$1/flat/link"
	ln -s nowhere "$1/flat/dangling"
	setfattr -h -n security.selinux -v $LABEL "$1/flat/link" 2>/dev/null
	mkdir "$1/flat/sub" "$1/flat/sub2"
	setfattr -n security.selinux -v $LABEL "$1/flat/sub2"
	for d in a b c; do
		mkdir -p "$1/tree/$d/x" "$1/tree/$d/y"
		for f in 1 2 3 4 5 6; do
			: >"$1/tree/$d/x/g$f"
			: >"$1/tree/$d/g$f"
		done
		setfacl -m u:65534:r "$1/tree/$d/g2"
		setfattr -n security.selinux -v $LABEL "$1/tree/$d/x/g3"
	done
	: >"$1/acl/plain"
	mkdir "$1/acl/dflt" "$1/acl/access" "$1/acl/none"
	setfacl -d -m u:65534:r "$1/acl/dflt"
	setfacl -m u:65534:r "$1/acl/access"
	: >"$1/acl/dflt/inner"
	mkdir -p "$1/empty"
	for d in p q r; do
		mkdir -p "$1/noxattr/$d"
		for f in 1 2 3 4 5 6 7 8; do : >"$1/noxattr/$d/h$f"; done
	done
}
FSES=${LSPLUS_SXA_FSES:-/mnt/ext4 /mnt/tmp}
for fs in $FSES; do mk_tree "$fs/sxa"; done

# same WHAT: /tmp/o.* equal /tmp/g.*.
same() {
	if cmp -s /tmp/g.out /tmp/o.out && cmp -s /tmp/g.err /tmp/o.err && [ "$gs" = "$os" ]; then
		ok "statxattr: $1: byte-identical to /bin/ls (stdout, stderr, status $os)"
	else
		notok "statxattr: $1: byte-identical to /bin/ls (status $os, GNU $gs)"
		diff /tmp/g.out /tmp/o.out | head -n 20 | sed 's/^/# /'
		diff /tmp/g.err /tmp/o.err | head -n 10 | sed 's/^/# /'
	fi
}
# compare OPTS DIRS BACKEND...: src/ls OPTS DIRS with each backend.
compare() {
	opts=$1 dirs=$2
	shift 2
	/bin/ls $opts $dirs >/tmp/g.out 2>/tmp/g.err
	gs=$?
	for b in "$@"; do
		LSPLUS_BACKEND=$b $LS $opts $dirs >/tmp/o.out 2>/tmp/o.err
		os=$?
		same "ls $opts $dirs, LSPLUS_BACKEND=$b"
	done
}

# The calls of a trace: statx on an entry (relative to a directory fd),
# those asking STATX_XATTR_INFO, xattr calls on an entry (getxattrat =
# 0x1d0, listxattrat = 0x1d1 to this strace; a path through
# /proc/self/fd where the kernel lacks them), every call.
e_statx() { grep -c '^[0-9]* *statx([0-9]' "$1"; }
e_statx_xinfo() { grep '^[0-9]* *statx([0-9]' "$1" | grep -c '0x40000'; }
e_xattr() {
	grep -E '^[0-9]+ +(syscall_0x1d[01]\((0x)?[0-9a-f]+,|l?(get|list)xattr(at)?\([0-9]|l?(get|list)xattr\("/proc/self/fd/)' "$1" |
		grep -vc '0xffffff9c'
}
e_getx() {
	grep -E '^[0-9]+ +(syscall_0x1d0\((0x)?[0-9a-f]+,|l?getxattr(at)?\([0-9]|l?getxattr\("/proc/self/fd/)' "$1" |
		grep -vc '0xffffff9c'
}
# Every statx and xattr call (GNU's are by path).
a_statx() { grep -c '^[0-9]* *statx(' "$1"; }
a_xattr() { grep -cE '^[0-9]+ +(syscall_0x1d[01]\(|l?(get|list)xattr(at)?\()' "$1"; }
all_calls() {
	awk '{ sub(/^[0-9]+ +/, "") } /^<\.\.\./ || /^\+\+\+/ || /^---/ { next }
	     /^[a-zA-Z0-9_]+\(/ { n++ } END { print n + 0 }' "$1"
}
# trace NAME CMD...: strace -f of CMD into /tmp/NAME.tr (warm: run once
# before).
trace() {
	tn=$1
	shift
	"$@" >/dev/null 2>&1
	/usr/bin/strace -f -qq -o /tmp/$tn.tr "$@" >/dev/null 2>&1
}
# entries DIR [-R]: the entries ls -l lists (no dot files here).
entries() {
	if [ "${2-}" = -R ]; then find "$1" -mindepth 1 | wc -l
	else find "$1" -mindepth 1 -maxdepth 1 | wc -l; fi
}
nxattrs() { # DIR: the entries under DIR with any xattr stored (ACLs too)
	n=0
	for f in $(find "$1" -mindepth 1); do
		[ -n "$(getfattr -h -d -m - "$f" 2>/dev/null)" ] && n=$((n + 1))
	done
	echo $n
}
nlabelled() { # DIR [-R]: entries with a security.selinux (not the links')
	depth=
	[ "${2-}" = -R ] || depth="-maxdepth 1"
	n=0
	for f in $(find "$1" -mindepth 1 $depth ! -type l); do
		getfattr -n security.selinux "$f" >/dev/null 2>&1 && n=$((n + 1))
	done
	for f in $(find "$1" -mindepth 1 $depth -type l); do
		getfattr -h -n security.selinux "$f" >/dev/null 2>&1 && n=$((n + 1))
	done
	echo $n
}

# ---- a) byte-identical, every backend -------------------------------
backends="sync auto"
[ $have_a = 1 ] && backends="$backends statx"
LSPLUS_BACKEND=uring $LS -d / >/dev/null 2>&1 && backends="$backends uring"
for fs in $FSES; do
	compare -lR "$fs/sxa" $backends
	compare -lRZ "$fs/sxa" $backends
	[ -d "$fs/tree" ] && compare -lR "$fs/tree" $backends
done

# ---- b) feature A: one statx per entry, no xattr call ---------------
if [ $have_a = 1 ]; then
	if LSPLUS_BACKEND=statx $LS -d / >/tmp/o.out 2>/tmp/o.err; then
		ok "statxattr: LSPLUS_BACKEND=statx available (the kernel reports STATX_ATTR_ACL/SECLABEL)"
	else
		notok "statxattr: LSPLUS_BACKEND=statx available: $(cat /tmp/o.err)"
	fi
	for fs in $FSES; do
		t=$fs/sxa
		for b in statx auto; do
			for what in "-l flat" "-lR flat" "-lR tree"; do
				opt=${what% *} dir=$t/${what#* }
				trace a env LSPLUS_BACKEND=$b $LS $opt "$dir"
				r=
				[ "$opt" = -lR ] && r=-R
				n=$(entries "$dir" $r) s=$(e_statx /tmp/a.tr)
				x=$(e_statx_xinfo /tmp/a.tr) c=$(e_xattr /tmp/a.tr)
				check $([ "$s" = "$n" ] && [ "$x" = "$n" ] && [ "$c" = 0 ] && echo 0 || echo 1) \
					"statxattr: $fs, LSPLUS_BACKEND=$b ls $opt ${what#* }: $s statx on $n entries ($x with STATX_XATTR_INFO), $c xattr calls (want $n, $n, 0)"
			done
		done
		# Directories with an ACL: one listxattr each (access and
		# default ACL kept apart), nothing for the rest.
		trace a env LSPLUS_BACKEND=statx $LS -l "$t/acl"
		n=$(entries "$t/acl") s=$(e_statx /tmp/a.tr) c=$(e_xattr /tmp/a.tr)
		check $([ "$s" = "$n" ] && [ "$c" = 2 ] && echo 0 || echo 1) \
			"statxattr: $fs, statx backend, ls -l acl: $s statx on $n entries, $c xattr calls (want $n, and 2: the two directories with an ACL)"
		# -Z: the label's value, for the labelled entries only.
		trace a env LSPLUS_BACKEND=statx $LS -lZ "$t/flat"
		n=$(entries "$t/flat") l=$(nlabelled "$t/flat")
		s=$(e_statx /tmp/a.tr) c=$(e_xattr /tmp/a.tr) g=$(e_getx /tmp/a.tr)
		check $([ "$s" = "$n" ] && [ "$c" = "$l" ] && [ "$g" = "$l" ] && echo 0 || echo 1) \
			"statxattr: $fs, statx backend, ls -lZ flat: $s statx on $n entries, $c xattr calls, $g getxattr (want $n, $l, $l: one per labelled entry)"
		# The portable floor is unchanged: one listxattr per entry.
		trace a env LSPLUS_BACKEND=sync $LS -l "$t/flat"
		s=$(e_statx /tmp/a.tr) c=$(e_xattr /tmp/a.tr) x=$(e_statx_xinfo /tmp/a.tr)
		check $([ "$s" = "$n" ] && [ "$x" = 0 ] && [ "$c" -ge "$n" ] && echo 0 || echo 1) \
			"statxattr: $fs, LSPLUS_BACKEND=sync ls -l flat: $s statx ($x with STATX_XATTR_INFO), $c xattr calls (want $n, 0, at least $n)"
		trace a /bin/ls -l "$t/flat"
		g="GNU $(a_statx /tmp/a.tr) statx, $(a_xattr /tmp/a.tr) xattr calls"
		trace a env LSPLUS_BACKEND=statx $LS -l "$t/flat"
		echo "# $fs: ls -l flat ($n entries), all calls: $g; statx backend $(a_statx /tmp/a.tr) statx, $(a_xattr /tmp/a.tr) xattr calls"
	done
else
	ok "statxattr: statx attributes # SKIP this kernel's source has no statx-xattr-info series"
fi

# ---- c) feature B: STATX SQEs inline on a warm tree -----------------
# (tracefs mounted by the part's own check below, never in part A alone:
# tests/unit/statxattr-ls.test runs that on the build host.)
T=/sys/kernel/tracing
tracefs() {
	[ -d $T/events ] || mount -t tracefs nodev $T 2>/dev/null
	[ -d $T/events ] || T=/sys/kernel/debug/tracing
	tracing_was=$(cat $T/tracing_on 2>/dev/null)
	[ -d $T/events ]
}
# uring_trace OUT CMD...: the io_uring events of CMD in OUT.  The
# trace records no command names (options/record-cmd off): recording them
# hooks sched_switch, and turning that on and off rewrites a jump in
# __schedule, which every vCPU runs all the time; QEMU 7.2's
# multi-threaded TCG can go on executing the int3 of that rewrite after
# it is gone (tests/kmod/FINDINGS.md), which panicked the debug kernel's
# idle task once, right after this part.
uring_trace() {
	out=$1
	shift
	echo 0 >$T/tracing_on
	record_cmd_was=$(cat $T/options/record-cmd 2>/dev/null)
	echo 0 >$T/options/record-cmd 2>/dev/null
	echo 8192 >$T/buffer_size_kb
	echo >$T/trace
	echo 1 >$T/events/io_uring/io_uring_submit_req/enable
	echo 1 >$T/events/io_uring/io_uring_queue_async_work/enable
	echo 1 >$T/tracing_on
	"$@" >/dev/null 2>&1
	echo 0 >$T/tracing_on
	echo 0 >$T/events/io_uring/io_uring_submit_req/enable
	echo 0 >$T/events/io_uring/io_uring_queue_async_work/enable
	cat $T/trace >"$out"
	echo >$T/trace
	[ -z "$record_cmd_was" ] || echo "$record_cmd_was" >$T/options/record-cmd
	echo "${tracing_was:-1}" >$T/tracing_on
}
n_sub() { grep 'io_uring_submit_req:' "$1" | grep -c "opcode $2"; }
n_async() { grep 'io_uring_queue_async_work:' "$1" | grep -c "opcode $2"; }
if [ $have_b = 0 ]; then
	ok "statxattr: inline io_uring statx # SKIP this kernel's source has no io_uring-statx series"
elif ! LSPLUS_BACKEND=uring $LS -d / >/dev/null 2>&1; then
	notok "statxattr: LSPLUS_BACKEND=uring usable"
elif ! tracefs || [ ! -d $T/events/io_uring/io_uring_submit_req ] ||
	[ ! -d $T/events/io_uring/io_uring_queue_async_work ]; then
	notok "statxattr: io_uring tracepoints in $T (io_uring_submit_req, io_uring_queue_async_work)"
else
	for fs in $FSES; do
		# A tree without xattrs: every answer is in memory once warm.
		t=$fs/sxa/noxattr
		LSPLUS_BACKEND=uring $LS -lR $t >/dev/null 2>&1
		uring_trace /tmp/u.tr env LSPLUS_BACKEND=uring $LS -lR $t
		n=$(entries $t -R) s=$(n_sub /tmp/u.tr STATX) a=$(n_async /tmp/u.tr STATX)
		check $([ "$s" -ge "$n" ] && [ "$a" = 0 ] && echo 0 || echo 1) \
			"statxattr: $fs warm, no xattrs, LSPLUS_BACKEND=uring ls -lR: $s STATX SQEs for $n entries, $a queued to io-wq (want at least $n, 0)"
		# The whole tree: where a filesystem tells statx only that an
		# inode stores no xattr (ext4: the series' "no label stored"),
		# an inode that stores one (an ACL, a label) needs the xattr read
		# for its label, which the inline path leaves to io-wq: at most
		# those entries are queued (tmpfs knows both: none).
		t=$fs/sxa
		LSPLUS_BACKEND=uring $LS -lR $t >/dev/null 2>&1
		uring_trace /tmp/u.tr env LSPLUS_BACKEND=uring $LS -lR $t
		n=$(entries $t -R) s=$(n_sub /tmp/u.tr STATX) a=$(n_async /tmp/u.tr STATX)
		x=$(nxattrs $t) gx=$(n_sub /tmp/u.tr GETXATTR)
		check $([ "$s" -ge "$n" ] && [ "$a" -le "$x" ] && echo 0 || echo 1) \
			"statxattr: $fs warm, LSPLUS_BACKEND=uring ls -lR: $s STATX SQEs for $n entries, $a queued to io-wq (want at least $n, at most $x: the entries that store an xattr)"
		if [ $have_a = 1 ]; then
			# GETXATTR only for the ACLs of the two directories with one
			# (access and default: two probes each).
			check $([ "$gx" -le 4 ] && echo 0 || echo 1) \
				"statxattr: $fs warm, LSPLUS_BACKEND=uring ls -lR: $gx GETXATTR SQEs (want at most 4: the statx attributes answer the rest)"
		else
			echo "# $fs: $gx GETXATTR SQEs (no statx attributes on this kernel)"
		fi
	done
	# Cold: the tracepoint counts, and a lookup that would block is punted.
	cold=${FSES%% *}/sxa/noxattr
	sync
	echo 3 >/proc/sys/vm/drop_caches
	uring_trace /tmp/u.tr env LSPLUS_BACKEND=uring $LS -lR $cold
	s=$(n_sub /tmp/u.tr STATX) a=$(n_async /tmp/u.tr STATX)
	check $([ "$a" -gt 0 ] && echo 0 || echo 1) \
		"statxattr: $cold cold, LSPLUS_BACKEND=uring ls -lR: $a of $s STATX SQEs queued to io-wq (want some: it punts what would block)"
fi

# ---- d) calls per entry, side by side -------------------------------
t=${FSES%% *}/sxa
n=$(entries $t -R)
per() { # CMD...: all calls of CMD -lR $t net of the same on $t/empty, per entry
	trace p "$@" -lR $t
	trace q "$@" -lR $t/empty
	awk -v a="$(all_calls /tmp/p.tr)" -v b="$(all_calls /tmp/q.tr)" -v n="$n" \
		'BEGIN { printf "%.3f", (a - b) / n }'
}
line="GNU $(per /bin/ls), sync $(per env LSPLUS_BACKEND=sync $LS)"
[ $have_a = 1 ] && line="$line, statx $(per env LSPLUS_BACKEND=statx $LS)"
LSPLUS_BACKEND=uring $LS -d / >/dev/null 2>&1 && line="$line, uring $(per env LSPLUS_BACKEND=uring $LS)"
line="$line, auto $(per $LS)"
echo "# calls per entry (ls -lR of $t, $n entries, net of an empty directory): $line"

for fs in $FSES; do rm -rf "$fs/sxa"; done
if [ $had_module = 1 ] && ! module_loaded; then
	insmod $KO
	check $? "statxattr: insmod again"
fi
exit 0
