#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/kmod/vm/vm-gnudiff.sh: the GNU differential suite (tests/gnu/difftest.py:
# /bin/ls vs src/ls, byte for byte) inside the VM with
# LSPLUS_BACKEND=getdentsplus -- the one backend the host cannot test.
# Run by vm-tests.sh (section gnudiff); prints one TAP line ("ok - ...
# N/M identical") and the diffs of failing cases as "# " lines.
#
# The fixture is built on the ext4 disk (/mnt/ext4, mounted -o acl: ACL
# '+', label '.', capabilities) and its tmpfs part on /dev/shm (init
# mounts a tmpfs there).  Kernel command line (LSPLUS_VM_APPEND):
#   lsplus.gnudiff=all|subset|none   every case (default), the subset
#                               below, or none (a short CI pass)
#   lsplus.gnudiff_j=N          parallel cases (default 4)
LS=/opt/lsplus/ls
PY=/usr/bin/python3
DT=/gnu/difftest.py
name="GNU differential suite with LSPLUS_BACKEND=getdentsplus"

scope=all
jobs=4
for a in $(cat /proc/cmdline); do
	case $a in
	lsplus.gnudiff=*) scope=${a#*=} ;;
	lsplus.gnudiff_j=*) jobs=${a#*=} ;;
	esac
done

if [ "$scope" = none ]; then
	echo "ok - $name # SKIP lsplus.gnudiff=none (LSPLUS_CHECK_SCOPE=short: the normal build's run has the suite)"
	exit 0
fi
if [ ! -x $LS ]; then
	echo "ok - $name # SKIP no src/ls was given to the rig"
	exit 0
fi
if [ ! -x $PY ] || [ ! -f $DT ]; then
	echo "ok - $name # SKIP no python3 or tests/gnu in the initramfs (see mkinitrd)"
	exit 0
fi

# By default every case runs (about 6,000 ls pairs plus the 10,000-level
# -R chain: ~250 s under TCG on 2 cores, ~30x the host's time).
# lsplus.gnudiff=subset is for quicker iterations (about half of the cases).
# It keeps every group that reads directories in a way a backend can get
# wrong and thins out the groups that only exercise output formatting on
# top of the same directory data (the host runs those with the sync and
# uring backends, whose entries the formatting code cannot tell apart
# from getdentsplus's):
#   kept: long format and attributes (acl: -l with ACL '+' and label '.',
#     context: -Z, owners, format in the C locale), recursion
#     (recursive, recursive-all, cwd, chain, chain-lowfd under
#     'ulimit -n 20'), big directories (big, big-unpriv, big-tty: more
#     than one batch), unprivileged listing (unpriv, unpriv-tty,
#     combo-unpriv: per-entry EACCES), operands (symlinks, -L/-H,
#     dangling, loops), errors and failed operands, tmpfs (@SHM@),
#     mounts and no-birth ('/', /proc, /sys, /dev), io (full, EPIPE,
#     closed fds), rmcwd, sorting (sort, sort-operands), select,
#     indicator, dired, colour with the full LS_COLORS and without it,
#     tty-win and tty-env;
#   left out: format-utf8, quoting, time, size, layout, columns/tabsize
#     env, the 21 small LS_COLORS variants, color-term, tty, locale-mix,
#     posix, the seeded random combo and combo-tty groups, and (as with
#     any -k) the 10,000-level -R chain (~100 MB of output).
if [ "$scope" = subset ]; then
	set -- -k '^acl:' -k '^context:' -k '^owners:' -k '^format:' \
		-k '^recursive' -k '^cwd:' -k '^chain' \
		-k '^big' -k '^unpriv' -k '^combo-unpriv:' \
		-k '^operands' -k '^errors:' -k '^failed-operands:' \
		-k '^tmpfs:' -k '^mounts:' -k '^no-birth:' -k '^io:' -k '^rmcwd:' \
		-k '^sort' -k '^select:' -k '^indicator:' -k '^dired:' \
		-k '^color-full:' -k '^color-unset:' -k '^color-ops:' \
		-k '^tty-win:' -k '^tty-env:'
else
	set --
fi

echo "# --- gnudiff ($scope, -j $jobs)"
mkdir -p /mnt/ext4/gnudiff
chmod 755 /mnt/ext4/gnudiff
s=$(date +%s)
TMPDIR=/mnt/ext4/gnudiff PYTHONDONTWRITEBYTECODE=1 \
	timeout 1200 $PY -S $DT --ls $LS --gnu /bin/ls --backends getdentsplus \
	-j "$jobs" --show 15 --keep "$@" \
	>/tmp/gnudiff.out 2>&1
rc=$?
dt=$(($(date +%s) - s))
echo "# --- gnudiff: $dt s, exit status $rc"
res=$(grep -E '^[0-9]+/[0-9]+ identical' /tmp/gnudiff.out | tail -n 1)
res=${res%% (*}
case $rc in
0) echo "ok - $name: $res ($scope, $dt s)" ;;
77)
	echo "ok - $name # SKIP $(grep -m1 'SKIP\|unavailable' /tmp/gnudiff.out)"
	;;
*)
	echo "not ok - $name: ${res:-no result} ($scope, $dt s, exit status $rc)"
	# The first diffs in full, then the end: the remaining failing ids
	# (cut), the count by group and the N/M line.
	n=$(wc -l </tmp/gnudiff.out)
	if [ "$n" -le 500 ]; then
		sed 's/^/# /' /tmp/gnudiff.out
	else
		head -n 420 /tmp/gnudiff.out | sed 's/^/# /'
		echo "# ... ($((n - 440)) lines cut)"
		tail -n 20 /tmp/gnudiff.out | sed 's/^/# /'
	fi
	;;
esac

# The suite would pass just as well if neither ls saw an ACL or a label:
# check that the fixture really has them (GNU ls -l: '+' and '.').
kept=$(sed -n 's/^fixture kept in //p' /tmp/gnudiff.out)
if [ -d "$kept/fx/attrs" ]; then
	/bin/ls -l "$kept/fx/attrs" >/tmp/gnudiff.attrs 2>&1
	if grep -q '^-.........+ ' /tmp/gnudiff.attrs && grep -q '^-.........\. ' /tmp/gnudiff.attrs &&
		grep -q '^d.........+ ' /tmp/gnudiff.attrs; then
		echo "ok - $name: its ext4 fixture has ACLs ('+') and labels ('.')"
	else
		echo "not ok - $name: its ext4 fixture has ACLs ('+') and labels ('.')"
		sed 's/^/# /' /tmp/gnudiff.attrs
	fi
fi
rm -rf /mnt/ext4/gnudiff
exit 0
