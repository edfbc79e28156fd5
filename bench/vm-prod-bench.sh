#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/vm-prod-bench.sh: the in-VM half of `bench/run-insn --prod` (issue
# 20 point 4: the side-by-side table on the production-configuration
# kernel, target amd64:prod, booted with the instruction counter; busybox
# sh, run by tests/kmod/qemu/init in its "demo" slot, getdentsplus.ko
# loaded).
#
# Variants (each only if it works here; lsplus with LSPLUS_THREADS=0):
#   GNU          /bin/ls (coreutils 9.1)
#   sync         LSPLUS_BACKEND=sync: statx + listxattr per entry
#   statx        LSPLUS_BACKEND=statx: one statx per entry, the ACL and
#                label from the statx attributes (upstream/statx-xattr-info)
#   uring-stock  LSPLUS_BACKEND=uring LSPLUS_URING_STOCK=1: the ring as on
#                a kernel without the two statx series (IOSQE_ASYNC on
#                every statx and xattr SQE: the io-wq hand-off; xattr
#                probes instead of the statx attributes)
#   uring        LSPLUS_BACKEND=uring: statx inline (upstream/io_uring-statx)
#   getdentsplus LSPLUS_BACKEND=getdentsplus: the module
#   intree       LSPLUS_BACKEND=intree: getdentsplus(2) of upstream/
# Filesystems: ext4 (the fixture, /mnt/ext4/tree, -o acl) and tmpfs (a
# copy of it, with the same ACLs, labels and capabilities set again);
# with lsplus.fsx=1 also xfs and btrfs (empty images on the disks with
# the serials xfs and btrfs, boot's LSPLUS_VM_DISKS; the tree copied in).
# With lsplus.nfsdelay=MS instead: NFSv3 and NFSv4.2 over loopback
# (init's lsplus.nfs=1: the fixture's /mnt/ext4 exported and mounted on
# /mnt/nfs3 and /mnt/nfs4), netem delaying each packet by MS ms, and the
# RPCs of each traced run ("PROD-RPC LABEL N", from /proc/self/mountstats).
# With lsplus.fuse=1 (not with NFS) also FUSE: bindfs (Debian 12's, the
# host's binary with libfuse 2) serving the fixture's /mnt/ext4/tree on
# /mnt/bench-fuse, one daemon thread (bindfs's default), the kernel's
# attribute, entry and negative caches kept 3600 s (FUSEOPT: a run of
# this tree under TCG takes seconds, on hardware well under libfuse's
# default 1 s, so the warm rows see what a machine sees with the default
# and no count depends on the host's speed); lsplus.fuse=only: the FUSE
# rows alone (no other filesystem, no Zadok experiment).  The traced run
# of each row also counts the FUSE requests the kernel queued for the
# daemon, from the tracepoint fuse:fuse_request_send (tracefs; every
# request that waits for a reply; FORGETs, which the daemon reads and
# never answers, do not pass it): "PROD-FUSEREQ LABEL N" and
# "PROD-FUSEOPS LABEL OP=N ...".
#
# Per variant, filesystem and cache state (warm: one unmeasured run
# first; cold: sync and drop_caches before each run), REPS runs of
#   vm-timer insn-mark run LABEL ls -lR DIR
# (the window: instructions; vm-timer: wall, user and system time, lines
# "PROD-TIME LABEL SECONDS USER SYS"), then one run under strace -f -o
# (not in a window): "PROD-STRACE LABEL LINES" (every line, the project's
# count: a call another thread's call interrupts is two lines), and
# "PROD-TASKS LABEL TASKS FUTEX" (the threads and processes in the trace,
# its futex calls).  Plus the empty command
# (base-R), each variant's ls -lR of an empty directory (VARIANT-empty-R,
# its startup; also under strace), and with lsplus.zadok=N the Zadok
# experiment (vm-zadok stat|plus over directories of 10 ... N files, on
# tmpfs and on the empty ext4 image of the disk with the serial zadok
# when there is one).
# Each variant's ls -lR output is compared with GNU's once per filesystem
# ("PROD-SAME FS VARIANT", else a PROD-ERROR and the diff's head).
# Prints "PROD-ENTRIES FS N", "PROD-VARIANTS V...", "PROD-FS F..." and
# the seconds each filesystem's rows took, "PROD-FSTIME FS S", for the
# host (bench/prod-table.py).
LS=/opt/lsplus/ls
M=/usr/bin/insn-mark
T=/usr/bin/vm-timer
Z=/usr/bin/vm-zadok
EMPTY=/mnt/tmp/insn-empty
FUSEMNT=/mnt/bench-fuse
FUSEOPT=attr_timeout=3600,entry_timeout=3600,negative_timeout=3600
TR=/sys/kernel/tracing
export LC_ALL=C TZ=UTC
reps=5 fsx=0 zadok=0 cold=1 nfsdelay= fuse=0
for a in $(cat /proc/cmdline); do
	case $a in
	lsplus.nfsdelay=*) nfsdelay=${a#*=} ;;
	lsplus.reps=[1-9]*) reps=${a#*=} ;;
	lsplus.fsx=*) fsx=${a#*=} ;;
	lsplus.zadok=*) zadok=${a#*=} ;;
	lsplus.cold=*) cold=${a#*=} ;;
	lsplus.fuse=*) fuse=${a#*=} ;;
	esac
done
for p in $M $T $LS; do
	[ -x $p ] || { echo "PROD-ERROR no $p"; exit 1; }
done
echo "PROD-KERNEL $(uname -r)"

# setup_tree DIR: what init sets on the fixture and the image cannot
# carry (tests/kmod/qemu/init's setup_tree).
setup_tree() {
	t=$1
	setfacl -m u:1000:rw "$t/file-acl"
	setfacl -m u:1000:rw "$t/file-all"
	setfacl -d -m u:1000:rwx "$t/dir-defacl"
	setfacl -m g:1000:rx "$t/nested"
	setfattr -n security.selinux -v 'system_u:object_r:etc_t:s0' "$t/file-label"
	setfattr -n security.selinux -v 'system_u:object_r:etc_t:s0' "$t/file-all"
	setfattr -n security.selinux -v 'system_u:object_r:bin_t:s0' "$t/nested"
	setcap cap_net_raw+ep "$t/file-cap"
	setcap cap_net_raw+ep "$t/file-all"
	setfattr -n user.lsplus -v hello "$t/file-user-xattr" 2>/dev/null
	setfattr -h -n security.selinux -v 'system_u:object_r:etc_t:s0' "$t/link-file"
}

# disk NAME: the device of the disk with the serial NAME.
disk() {
	for b in /sys/block/vd*; do
		[ "$(cat "$b/serial" 2>/dev/null)" = "$1" ] && { echo "/dev/${b##*/}"; return 0; }
	done
	return 1
}

# rpcs MNT: the RPCs the NFS mount on MNT has sent so far (GETACL
# included: vm-nfs-lib.sh's nfs_snap).
rpcs() {
	awk -v mnt="$1" '
		/^device / { on = ($5 == mnt); next }
		on && $1 == "xprt:" && $2 == "tcp" { sends += $8 }
		END { print sends + 0 }' /proc/self/mountstats
}

# The trees: ext4 is the fixture; the others get a copy of it (without
# the tmpfs mounted inside it: a plain directory there).
mkdir -p $EMPTY
fslist="ext4:/mnt/ext4/tree"
mkdir -p /mnt/bench-tmpfs
if [ -n "$nfsdelay" ]; then
	# lsplus.nfsdelay=MS (an initramfs with the NFS server, init's
	# lsplus.nfs=1 mounted the fixture's /mnt/ext4 over loopback): the
	# NFS rows alone, netem delaying every packet on lo by MS ms.
	fslist=
	for f in nfs3:/mnt/nfs3/tree nfs4:/mnt/nfs4/tree; do
		if grep -q " $(dirname "${f#*:}") nfs" /proc/mounts; then
			fslist="$fslist $f"
		else
			echo "PROD-ERROR ${f%%:*} not mounted"
		fi
	done
	if [ "$nfsdelay" != 0 ]; then
		/usr/sbin/tc qdisc add dev lo root netem delay "${nfsdelay}ms" ||
			echo "PROD-ERROR netem delay failed"
	fi
	echo "PROD-NFSDELAY $nfsdelay"
	fuse=0
elif [ "$fuse" = only ]; then
	fslist= fsx=0 zadok=0
elif mount -t tmpfs -o size=256m,nr_inodes=0 tmpfs /mnt/bench-tmpfs &&
	cp -a /mnt/ext4/tree /mnt/bench-tmpfs/tree; then
	setup_tree /mnt/bench-tmpfs/tree >/dev/null 2>&1
	fslist="$fslist tmpfs:/mnt/bench-tmpfs/tree"
else
	echo "PROD-ERROR tmpfs copy failed"
fi
if [ "$fsx" = 1 ]; then
	for n in xfs btrfs; do
		dev=$(disk $n) || dev=/dev/null
		mkdir -p /mnt/bench-$n
		if [ -b $dev ] && mount -t $n $dev /mnt/bench-$n &&
			cp -a /mnt/ext4/tree /mnt/bench-$n/tree; then
			setup_tree /mnt/bench-$n/tree >/dev/null 2>&1
			fslist="$fslist $n:/mnt/bench-$n/tree"
		else
			echo "PROD-ERROR $n on $dev: not mounted or not copied"
		fi
	done
fi
# FUSE (lsplus.fuse=1 or only): bindfs over the fixture; tracefs with a
# bigger buffer for the tracepoint that counts its requests (enabled
# around the traced runs only: none of its cost in a counted window).
if [ "$fuse" != 0 ]; then
	mkdir -p $FUSEMNT
	if [ -x /usr/bin/bindfs ] && /usr/bin/bindfs -o $FUSEOPT /mnt/ext4/tree $FUSEMNT &&
		grep -q " $FUSEMNT fuse" /proc/mounts; then
		fslist="$fslist fuse:$FUSEMNT"
		# (etc/lsplus-bindfs: the packages, written by bench/run-insn-prod)
		echo "PROD-FUSE-DAEMON $(cat /etc/lsplus-bindfs 2>/dev/null ||
			/usr/bin/bindfs --version), -o $FUSEOPT"
	else
		echo "PROD-ERROR bindfs: no FUSE mount on $FUSEMNT"
	fi
	grep -q " $TR tracefs" /proc/mounts || mount -t tracefs nodev $TR 2>/dev/null
	if [ -f $TR/events/fuse/fuse_request_send/enable ]; then
		echo 4096 >$TR/buffer_size_kb
	else
		echo "PROD-ERROR no tracepoint fuse:fuse_request_send (tracefs): no FUSE request counts"
	fi
fi
sync
for f in $fslist; do
	echo "PROD-ENTRIES ${f%%:*} $(find "${f#*:}" -mindepth 1 | wc -l)"
done
echo "PROD-FS $(for f in $fslist; do printf '%s ' "${f%%:*}"; done)"

variants=GNU
for v in sync statx uring-stock uring getdentsplus intree; do
	b=${v%-stock}
	if LSPLUS_BACKEND=$b $LS -d / >/dev/null 2>&1; then
		variants="$variants $v"
	else
		echo "PROD-ERROR backend $b unavailable" >&2
	fi
done
echo "PROD-VARIANTS $variants"

# run VARIANT CMD...: CMD with VARIANT's environment.
run() {
	local rv=$1
	shift
	case $rv in
	GNU) "$@" ;;
	uring-stock) LSPLUS_BACKEND=uring LSPLUS_URING_STOCK=1 LSPLUS_THREADS=0 "$@" ;;
	*) LSPLUS_BACKEND=$rv LSPLUS_THREADS=0 "$@" ;;
	esac
}
lsof() { [ "$1" = GNU ] && echo /bin/ls || echo $LS; }

# one LABEL VARIANT DIR: the counted, timed run.
one() {
	local o
	o=$(run "$2" $T $M run "$1" "$(lsof "$2")" -lR "$3")
	set -- "$1" $o
	[ "$4" = 0 ] || echo "PROD-ERROR $1 exited $4"
	echo "PROD-TIME $1 $2 $5 $6"
}
# fusereq LABEL: the FUSE requests since the trace buffer was cleared,
# by opcode ("PROD-FUSEREQ LABEL N", "PROD-FUSEOPS LABEL OP=N ...");
# an error if the buffer overran.
fusereq() {
	echo 0 >$TR/events/fuse/fuse_request_send/enable
	lost=$(cat $TR/per_cpu/cpu*/stats | awk '/^overrun:/ { n += $2 } END { print n + 0 }')
	[ "$lost" = 0 ] || echo "PROD-ERROR $1: the trace buffer lost $lost FUSE requests"
	awk -v label="$1" '
		/ fuse_request_send: / && match($0, /\(FUSE_[A-Z_0-9]*\)/) {
			op = substr($0, RSTART + 6, RLENGTH - 7); n[op]++; total++ }
		END { printf "PROD-FUSEREQ %s %d\nPROD-FUSEOPS %s", label, total, label
			for (op in n) printf " %s=%d", op, n[op]; printf "\n" }' $TR/trace
	echo >$TR/trace
}
# trace LABEL VARIANT DIR: the system calls of one run (and on NFS its
# RPCs: "PROD-RPC LABEL N"; on FUSE its requests: fusereq).
trace() {
	rpc0= freq=
	case $3 in
	/mnt/nfs*) rpc0=$(rpcs "${3%/tree}") ;;
	$FUSEMNT*) [ -f $TR/events/fuse/fuse_request_send/enable ] && freq=1 ;;
	esac
	if [ -n "$freq" ]; then echo >$TR/trace; echo 1 >$TR/events/fuse/fuse_request_send/enable; fi
	run "$2" strace -f -o /tmp/trace.txt "$(lsof "$2")" -lR "$3" >/dev/null 2>&1 ||
		echo "PROD-ERROR strace $1 failed"
	[ -z "$freq" ] || fusereq "$1"
	echo "PROD-STRACE $1 $(wc -l </tmp/trace.txt)"
	echo "PROD-TASKS $1 $(awk '{ print $1 }' /tmp/trace.txt | sort -u | wc -l)" \
		"$(grep -Ec '^([0-9]+ +)?futex\(' /tmp/trace.txt)"
	rm -f /tmp/trace.txt
	[ -z "$rpc0" ] || echo "PROD-RPC $1 $(($(rpcs "${3%/tree}") - rpc0))"
}
drop() { sync; echo 3 >/proc/sys/vm/drop_caches; }

# Startup: the empty command and each variant's empty listing (warm).
for v in $variants; do one "warmup-$v" "$v" $EMPTY >/dev/null; done
$M run warmup-base /bin/true
r=1
while [ $r -le "$reps" ]; do
	$M run "base-$r" /bin/true
	for v in $variants; do one "$v-empty-$r" "$v" $EMPTY; done
	r=$((r + 1))
done
for v in $variants; do trace "$v-empty" "$v" $EMPTY; done

now() { cut -d' ' -f1 /proc/uptime; }
for f in $fslist; do
	fs=${f%%:*} dir=${f#*:}
	t0=$(now)
	echo "PROD-PROGRESS $fs warm"
	for v in $variants; do one "warmup-$v-$fs" "$v" "$dir" >/dev/null; done
	# Each variant's output against GNU's, byte for byte (not timed).
	/bin/ls -lR "$dir" >/tmp/gnu.out 2>&1
	for v in $variants; do
		[ "$v" = GNU ] && continue
		run "$v" $LS -lR "$dir" >/tmp/v.out 2>&1
		if cmp -s /tmp/gnu.out /tmp/v.out; then
			echo "PROD-SAME $fs $v"
		else
			echo "PROD-ERROR $fs $v: ls -lR differs from GNU's"
			diff /tmp/gnu.out /tmp/v.out | head -n 6 | sed 's/^/PROD-DIFF /'
		fi
	done
	r=1
	while [ $r -le "$reps" ]; do
		for v in $variants; do one "$v-$fs-warm-$r" "$v" "$dir"; done
		r=$((r + 1))
	done
	for v in $variants; do trace "$v-$fs-warm" "$v" "$dir"; done
	if [ "$cold" = 1 ]; then
		echo "PROD-PROGRESS $fs cold"
		r=1
		while [ $r -le "$reps" ]; do
			for v in $variants; do drop; one "$v-$fs-cold-$r" "$v" "$dir"; done
			r=$((r + 1))
		done
		for v in $variants; do drop; trace "$v-$fs-cold" "$v" "$dir"; done
	fi
	echo "PROD-FSTIME $fs $(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.0f", b - a }')"
done
if grep -q " $FUSEMNT fuse" /proc/mounts; then
	umount $FUSEMNT || echo "PROD-ERROR umount $FUSEMNT failed"
fi

# zk LABEL MODE DIR: a counted, timed vm-zadok run.
zk() {
	local o
	o=$($T $M run "$1" $Z "$2" "$3")
	set -- "$1" $o
	[ "$4" = 0 ] || echo "PROD-ERROR $1 exited $4"
	echo "PROD-TIME $1 $2 $5 $6"
}
if [ "$zadok" -ge 10 ] 2>/dev/null && [ -x $Z ]; then
	zfs="tmpfs:/mnt/bench-tmpfs/zadok"
	mkdir -p /mnt/zadok-ext4
	dev=$(disk zadok) || dev=/dev/null
	if [ -b $dev ] && mount -t ext4 $dev /mnt/zadok-ext4; then
		zfs="$zfs ext4:/mnt/zadok-ext4"
	fi
	sizes=
	n=10
	while [ $n -le "$zadok" ]; do sizes="$sizes $n"; n=$((n * 10)); done
	echo "PROD-ZADOK-SIZES$sizes"
	echo "PROD-ZADOK-FS $(for f in $zfs; do printf '%s ' "${f%%:*}"; done)"
	for f in $zfs; do
		fs=${f%%:*} top=${f#*:}
		mkdir -p "$top"
		for n in $sizes; do
			echo "PROD-PROGRESS zadok $fs $n"
			$Z mk "$top/d$n" "$n" || echo "PROD-ERROR zadok mk $fs $n"
			sync
			a=$($Z stat "$top/d$n") b=$($Z plus "$top/d$n")
			[ "$a" = "$b" ] || echo "PROD-ERROR zadok $fs $n: stat says $a, plus $b"
			r=1
			while [ $r -le "$reps" ]; do
				for m in stat plus; do zk "zk-$fs-$n-$m-$r" $m "$top/d$n"; done
				r=$((r + 1))
			done
			for m in stat plus; do
				strace -f -o /tmp/trace.txt $Z $m "$top/d$n" >/dev/null 2>&1
				echo "PROD-STRACE zk-$fs-$n-$m $(wc -l </tmp/trace.txt)"
			done
		done
	done
	r=1
	while [ $r -le "$reps" ]; do zk "zk-base-$r" stat $EMPTY; r=$((r + 1)); done
	strace -f -o /tmp/trace.txt $Z stat $EMPTY >/dev/null 2>&1
	echo "PROD-STRACE zk-base $(wc -l </tmp/trace.txt)"
fi
for n in 1000000 2000000 4000000; do $M loop $n cal-loop-$n-a; done
for n in 20000 40000 80000; do $M getpid $n cal-getpid-$n-a; done
echo "PROD-DONE"
