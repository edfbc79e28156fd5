#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/vm-bench.sh: the in-VM half of bench/run-vm (busybox sh, run by
# tests/kmod/qemu/init in its "demo" slot, with getdentsplus.ko loaded).
#
# Builds DIRS x FILES files on the VM's ext4 disk (every 97th file with an
# ACL, every 89th with a security label, like bench/run), then times
# `ls -lR` to /dev/null for GNU ls and src/ls per available backend
# (getdentsplus, sync, uring): warm cache (one unmeasured run each, then
# REPS alternating rounds) and cold cache (drop_caches before each run),
# and counts syscalls once per variant from a full strace trace.  Prints
# machine-readable lines for the host:
#   BENCH-ENTRIES N
#   BENCH-RUN CACHE VARIANT SECONDS MAXRSS_KIB STATUS USER_S SYSTEM_S
#   BENCH-COST WAY SECONDS USER_S SYSTEM_S CALLS ENTRIES  (bench/vm-cost)
#   BENCH-SYSCALLS VARIANT TOTAL NAME=COUNT...
# Parameters from the kernel command line: lsplus.dirs= lsplus.files=
# lsplus.reps= lsplus.cold=0|1.
LS=/opt/lsplus/ls
T=/usr/bin/vm-timer
export LC_ALL=C TZ=UTC
dirs=100 files=100 reps=5 cold=1
for a in $(cat /proc/cmdline); do
	case $a in
	lsplus.dirs=*) dirs=${a#*=} ;;
	lsplus.files=*) files=${a#*=} ;;
	lsplus.reps=*) reps=${a#*=} ;;
	lsplus.cold=*) cold=${a#*=} ;;
	esac
done

root=/mnt/ext4/bench
echo "bench: creating $dirs dirs x $files files in $root" >&2
n=0 d=0
acl_list=/tmp/acl.list
: >$acl_list
while [ $d -lt "$dirs" ]; do
	sub=$(printf '%s/g%03d/d%05d' $root $((d / 100)) $d)
	mkdir -p "$sub"
	cd "$sub" || exit 1
	i=0
	while [ $i -lt "$files" ]; do
		f=file-$i.dat
		: >"$f"
		n=$((n + 1))
		[ $((n % 97)) -eq 0 ] && echo "$sub/$f" >>$acl_list
		[ $((n % 89)) -eq 0 ] &&
			setfattr -n security.selinux -v 'system_u:object_r:bench_t:s0' "$f"
		i=$((i + 1))
	done
	d=$((d + 1))
done
cd /
xargs setfacl -m u:65534:r <$acl_list
sync
entries=$(find $root -mindepth 1 | wc -l)
echo "BENCH-ENTRIES $entries"

# The variants: label, backend ("-" for GNU ls).
variants="GNU:-"
if [ -x $LS ]; then
	for b in getdentsplus sync uring; do
		if LSPLUS_BACKEND=$b $LS -d / >/dev/null 2>&1; then
			variants="$variants lsplus-$b:$b"
			[ $b = sync ] && variants="$variants lsplus-sync+thread:sync+thread"
		else
			echo "bench: backend $b unavailable" >&2
		fi
	done
fi

run() { # CACHE LABEL BACKEND
	case $3 in
	-) set -- "$1" "$2" /bin/ls -lR $root ;;
	sync+thread) set -- "$1" "$2" env LSPLUS_BACKEND=sync LSPLUS_THREADS=1 $LS -lR $root ;;
	*) set -- "$1" "$2" env LSPLUS_BACKEND=$3 LSPLUS_THREADS=0 $LS -lR $root ;;
	esac
	cache=$1 label=$2
	shift 2
	[ "$cache" = cold ] && sync && echo 3 >/proc/sys/vm/drop_caches
	echo "BENCH-RUN $cache $label $($T "$@")"
}

for v in $variants; do
	run warmup "${v%%:*}" "${v#*:}" >/dev/null
done
r=0
while [ $r -lt "$reps" ]; do
	for v in $variants; do run warm "${v%%:*}" "${v#*:}"; done
	r=$((r + 1))
done
if [ "$cold" = 1 ]; then
	r=0
	while [ $r -lt "$reps" ]; do
		for v in $variants; do run cold "${v%%:*}" "${v#*:}"; done
		r=$((r + 1))
	done
fi

# Where the kernel time goes: the tree read without ls, each way in
# turn, 3 passes per round, once per round (warm).
if [ -x /usr/bin/vm-cost ] && [ -e /sys/module/getdentsplus/parameters/nr ]; then
	r=0
	while [ $r -lt "$reps" ]; do
		/usr/bin/vm-cost $root 3 || echo "bench: vm-cost failed" >&2
		r=$((r + 1))
	done
fi

# Syscalls from a full trace (strace 6.1's -c drops unknown numbers, such
# as the module's own syscall and listxattrat).
nr=$(cat /sys/module/getdentsplus/parameters/nr 2>/dev/null || echo none)
for v in $variants; do
	label=${v%%:*} b=${v#*:}
	case $b in
	-) /usr/bin/strace -f -qq -o /tmp/st /bin/ls -lR $root >/dev/null 2>&1 ;;
	sync+thread) LSPLUS_BACKEND=sync LSPLUS_THREADS=1 \
		/usr/bin/strace -f -qq -o /tmp/st $LS -lR $root >/dev/null 2>&1 ;;
	*) LSPLUS_BACKEND=$b LSPLUS_THREADS=0 \
		/usr/bin/strace -f -qq -o /tmp/st $LS -lR $root >/dev/null 2>&1 ;;
	esac
	awk -v nr="$nr" -v label="$label" '
		{ sub(/^[0-9]+ +/, "") }
		/^<\.\.\./ || /^\+\+\+/ || /^---/ { next }
		match($0, /^[a-zA-Z0-9_]+\(/) {
			s = substr($0, 1, RLENGTH - 1)
			if (nr != "none" && s == sprintf("syscall_0x%x", nr)) s = "getdentsplus"
			else if (s == "syscall_0x1d1") s = "listxattrat"
			else if (s == "syscall_0x1d0") s = "getxattrat"
			c[s]++; t++
		}
		END {
			line = "BENCH-SYSCALLS " label " " t
			for (s in c) line = line " " s "=" c[s]
			print line
		}' /tmp/st
done
