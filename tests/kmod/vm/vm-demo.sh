#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/kmod/vm/vm-demo.sh: in-VM part of tools/vm-demo (busybox sh).
#
# Builds a tree of $DIRS x $FILES files on the ext4 disk, then times
# `ls -lR` with GNU ls and with src/ls (sync backend, getdentsplus backend)
# and shows `strace -c` summaries.  Parameters come from the kernel
# command line: lsplus.dirs=N lsplus.files=N.
LS=/opt/lsplus/ls
export LC_ALL=C TZ=UTC
dirs=100 files=100
for a in $(cat /proc/cmdline); do
	case $a in
	lsplus.dirs=*) dirs=${a#*=} ;;
	lsplus.files=*) files=${a#*=} ;;
	esac
done

up() { cut -d' ' -f1 /proc/uptime; }
timed() { # LABEL CMD...: run twice (warm cache), print the second time
	label=$1
	shift
	"$@" >/dev/null 2>&1
	t0=$(up)
	"$@" >/dev/null 2>/tmp/err
	rc=$?
	t1=$(up)
	echo "$t0 $t1" | awk -v l="$label" -v rc=$rc '{ printf "  %-42s %6.2f s (exit %d)\n", l, $2 - $1, rc }'
}

echo "== creating $dirs dirs x $files files in /mnt/ext4/demo"
mkdir -p /mnt/ext4/demo
i=0
while [ $i -lt "$dirs" ]; do
	mkdir -p /mnt/ext4/demo/d$i
	(cd /mnt/ext4/demo/d$i && j=0 && while [ $j -lt "$files" ]; do : >f$j; j=$((j + 1)); done)
	i=$((i + 1))
done
entries=$(find /mnt/ext4/demo | wc -l)
echo "   $entries entries; module: syscall $(cat /sys/module/getdentsplus/parameters/nr 2>/dev/null || echo none)"
echo
echo "== wall time of ls -lR (TCG emulation: compare ratios, not seconds)"
timed "GNU ls -lR" /bin/ls -lR /mnt/ext4/demo
have_ls=0
if [ -x $LS ]; then
	have_ls=1
	timed "src/ls -lR, LSPLUS_BACKEND=sync" env LSPLUS_BACKEND=sync $LS -lR /mnt/ext4/demo
	if LSPLUS_BACKEND=getdentsplus $LS -d / >/dev/null 2>/tmp/be.err; then
		timed "src/ls -lR, LSPLUS_BACKEND=getdentsplus" env LSPLUS_BACKEND=getdentsplus $LS -lR /mnt/ext4/demo
	else
		echo "  src/ls getdentsplus backend unavailable: $(cat /tmp/be.err)"
	fi
else
	echo "  (no src/ls in the image: pass one with tools/vm-demo --ls PATH)"
fi
echo
# Counted from a full trace: strace 6.1's -c mode segfaults on unknown
# syscall numbers (the module's).
summary() { # LABEL BACKEND CMD...
	echo "== syscalls (strace -f): $1"
	b=$2
	shift 2
	LSPLUS_BACKEND=$b /usr/bin/strace -f -qq -o /tmp/st "$@" >/dev/null 2>&1
	awk '{ sub(/^[0-9]+ +/, "") } /^<\.\.\./ || /^\+\+\+/ || /^---/ { next }
	     match($0, /^[a-zA-Z0-9_]+\(/) { n[substr($0, 1, RLENGTH - 1)]++ }
	     END { for (k in n) print n[k], k }' /tmp/st | sort -n -r >/tmp/st.counts
	head -n 8 /tmp/st.counts | awk '{ printf "  %8d %s\n", $1, $2 }'
	awk -v n="$entries" '{ t += $1 } END { printf "  %8d total -> %.3f syscalls per entry\n", t, t / n }' /tmp/st.counts
	echo
}
summary "GNU ls -lR" sync /bin/ls -lR /mnt/ext4/demo
if [ $have_ls = 1 ]; then
	summary "src/ls -lR (LSPLUS_BACKEND=sync)" sync $LS -lR /mnt/ext4/demo
	summary "src/ls -lR (LSPLUS_BACKEND=getdentsplus)" getdentsplus $LS -lR /mnt/ext4/demo
fi
