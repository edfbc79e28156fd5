#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/kmod/vm/vm-fs-tests.sh: the module on filesystems other than the
# fixture's ext4 and tmpfs (issue 21), run by vm-tests.sh (section fs;
# busybox sh; TAP lines without numbers, like it).
#
# run-vm.test attaches the images that qemu/mkfsimgs made on the host as
# virtio disks with the serial NAME (boot's LSPLUS_VM_DISKS), and mkinitrd
# puts its manifest in /etc/lsplus-fsimgs ("NAME ok" or "NAME skip
# REASON").  Mounted under /fs/NAME (not /mnt: gdp-test's positive
# controls for the ext4 fixture do not apply): erofs and squashfs (the
# tree as the host made it), btrfs (that tree, plus a subvolume, a
# snapshot and a read-only snapshot of it: their own st_dev), ext4 with
# casefold (that tree, plus a directory made casefolded with chattr +F),
# xfs, f2fs, vfat and exfat (made empty; the erofs tree copied in with
# GNU cp -a: xattrs, ACLs, hard links where the filesystem holds them),
# and overlay (the erofs mount as its lower layer, an upper directory on
# the ext4 disk; a file copied up, one metadata-only copy-up, a
# whiteout, an opaque directory, a new file).  On each:
#   (a) src/ls with LSPLUS_BACKEND=getdentsplus byte-identical to GNU
#       /bin/ls (stdout, stderr, status) for -lR, -la, -lRa
#       --time-style=full-iso, -1RU and -lRL;
#   (b) gdp-test compare: every record of every directory equals
#       getdents64 + statx/fstatat + the xattr probes, every way of
#       calling;
#   (c) strace -f: src/ls -lR makes no more system calls than GNU ls -lR,
#       and at least one module call per directory.
# A filesystem the kernel lacks (not in /proc/filesystems after modprobe)
# or an image the host could not make is a skip with the reason.
T=/usr/bin/gdp-test
LS=/opt/lsplus/ls
CP=/usr/bin/gnu-cp
MF=/etc/lsplus-fsimgs
R=/fs
# src/ls with the module, always (GNU ls ignores the variable).
export LC_ALL=C TZ=UTC LSPLUS_BACKEND=getdentsplus
# LeakSanitizer refuses to run under ptrace (a sanitizer build of src/ls).
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
export ASAN_OPTIONS
timescale=${timescale:-1}

ok() { echo "ok - $*"; }
notok() { echo "not ok - $*"; }
check() { # COND-EXIT-STATUS DESCRIPTION
	if [ "$1" -eq 0 ]; then ok "$2"; else notok "$2"; fi
}
skip() { ok "fs $1 # SKIP $2"; }

if [ ! -f $MF ]; then
	ok "fs: the module on other filesystems # SKIP no filesystem images (run-vm.test makes them with qemu/mkfsimgs)"
	exit 0
fi
nr=$(cat /sys/module/getdentsplus/parameters/nr 2>/dev/null)
e2e=1
[ -x $LS ] && [ -x /bin/bash ] && [ ! -f /etc/lsplus-no-e2e ] || e2e=0

# The disk with serial NAME (boot: -device virtio-blk-pci,...,serial=NAME).
disk_of() {
	for b in /sys/block/vd*; do
		[ "$(cat "$b/serial" 2>/dev/null)" = "$1" ] && { echo "/dev/${b##*/}"; return 0; }
	done
	return 1
}
# have_fs TYPE [MODULE...]: the kernel has TYPE, after loading the modules.
have_fs() {
	t=$1
	shift
	for m in "$@"; do modprobe "$m" 2>/dev/null; done
	grep -q "[[:space:]]$t\$" /proc/filesystems
}

# Syscall counts ("name calls" lines) of a full strace -f trace (strace
# 6.1's -c mode crashes on the module's number), and their total.
counts() {
	awk '{ sub(/^[0-9]+ +/, "") } /^<\.\.\./ || /^\+\+\+/ || /^---/ { next }
	     match($0, /^[a-zA-Z0-9_]+\(/) { n[substr($0, 1, RLENGTH - 1)]++ }
	     END { for (k in n) print k, n[k] }' "$1"
}
total() { awk '{ t += $2 } END { print t + 0 }' "$1"; }
# The per-file calls of a listing (stat and xattr families), for a
# sanitizer build of src/ls, whose runtime makes calls of its own as the
# program allocates (mmap, munmap, /proc/self/maps: 58 over GNU's 426 on
# vfat's 238 entries in the CI rehearsal's ASan pass): only these are
# compared there, as tests/syscalls/fs-lib.sh does on the host.
perfile_total() {
	awk '$1 ~ /^(statx|newfstatat|fstatat64|lstat|stat|fstat|getxattr|lgetxattr|fgetxattr|listxattr|llistxattr|flistxattr|getxattrat|listxattrat)$/ { t += $2 }
	     END { print t + 0 }' "$1"
}
sanitized=0
grep -q -e __asan_init -e __ubsan_handle "$LS" 2>/dev/null && sanitized=1
count_of() { awk -v f="$2" '$1 == f { n = $2 } END { print n + 0 }' "$1"; }

# as_ls PROG ARG...: PROG run with argv[0] "ls" (bash's exec -a), so
# that both programs' diagnostics start "ls: ".
as_ls() { /bin/bash -c 'p=$1; shift; exec -a ls "$p" "$@"' as-ls "$@"; }

# check_fs NAME MNT: (a), (b) and (c) on the mounted MNT.
check_fs() {
	name=$1 m=$2
	s=$(date +%s)
	ents=$(find "$m" | wc -l)
	dirs=$(find "$m" -type d | wc -l)
	echo "# fs $name: $ents entries, $dirs directories ($(grep " $m " /proc/mounts | cut -d' ' -f3,4))"
	if [ $e2e = 1 ]; then
		for o in "-lR" "-la" "-lRa --time-style=full-iso" "-1RU" "-lRL"; do
			# shellcheck disable=SC2086 # the option words
			as_ls /bin/ls $o "$m" >/tmp/fs.gnu.out 2>/tmp/fs.gnu.err
			gs=$?
			# shellcheck disable=SC2086
			as_ls $LS $o "$m" >/tmp/fs.ours.out 2>/tmp/fs.ours.err
			os=$?
			if cmp -s /tmp/fs.gnu.out /tmp/fs.ours.out && cmp -s /tmp/fs.gnu.err /tmp/fs.ours.err &&
				[ $gs = $os ]; then
				ok "fs $name: ls $o with the module byte-identical to /bin/ls (status $os, $(wc -l </tmp/fs.gnu.out) lines)"
			else
				notok "fs $name: ls $o with the module byte-identical to /bin/ls (status $os, GNU $gs)"
				diff /tmp/fs.gnu.out /tmp/fs.ours.out | head -n 20 | sed 's/^/# /'
				diff /tmp/fs.gnu.err /tmp/fs.ours.err | head -n 10 | sed 's/^/# /'
			fi
		done
	else
		skip "$name: ls with the module" "no src/ls in the initramfs"
	fi
	timeout $((300 * timescale)) $T compare "$m" >/tmp/fs.cmp
	rc=$?
	cat /tmp/fs.cmp
	[ $rc -le 1 ] || notok "fs $name: gdp-test compare exited with status $rc (crash, signal or timeout)"
	# Positive controls: the attribute bits the filesystem can hold
	# were seen (squashfs keeps no POSIX ACL; vfat and exfat no xattr).
	seen=$(sed -n "s|^# $m: entries with ACL \([0-9]*\), default ACL \([0-9]*\), label \([0-9]*\), capability \([0-9]*\);.*|\1 \2 \3 \4|p" /tmp/fs.cmp)
	case $name in
	vfat | exfat) ;;
	squashfs) set -- $seen
		check $([ "${3:-0}" -gt 0 ] && [ "${4:-0}" -gt 0 ] && echo 0 || echo 1) \
			"fs $name: the module saw labels and capabilities (${seen:-none})" ;;
	*) set -- $seen
		check $([ "${1:-0}" -gt 0 ] && [ "${2:-0}" -gt 0 ] && [ "${3:-0}" -gt 0 ] && [ "${4:-0}" -gt 0 ] &&
			echo 0 || echo 1) \
			"fs $name: the module saw ACLs, default ACLs, labels and capabilities (${seen:-none})" ;;
	esac
	if [ $e2e = 1 ]; then
		/usr/bin/strace -f -qq -o /tmp/fs.gnu.trace /bin/ls -lR "$m" >/dev/null 2>&1
		/usr/bin/strace -f -qq -o /tmp/fs.ours.trace $LS -lR "$m" >/dev/null 2>&1
		st=$?
		counts /tmp/fs.gnu.trace >/tmp/fs.gnu.counts
		counts /tmp/fs.ours.trace >/tmp/fs.ours.counts
		tg=$(total /tmp/fs.gnu.counts) to=$(total /tmp/fs.ours.counts)
		what="system calls"
		if [ $sanitized = 1 ]; then
			echo "# fs $name: all calls GNU $tg, ours $to (sanitizer build: the stat and xattr calls are compared)"
			tg=$(perfile_total /tmp/fs.gnu.counts) to=$(perfile_total /tmp/fs.ours.counts)
			what="stat and xattr calls"
		fi
		calls=$(count_of /tmp/fs.ours.counts "syscall_0x$(printf %x "$nr")")
		[ "$calls" = 0 ] && calls=$(count_of /tmp/fs.ours.counts ioctl)
		sort -k2 -n -r /tmp/fs.ours.counts | head -n 5 | tr '\n' ' ' | sed 's/^/# ours: /; s/$/\n/'
		sort -k2 -n -r /tmp/fs.gnu.counts | head -n 5 | tr '\n' ' ' | sed 's/^/# GNU: /; s/$/\n/'
		check $([ $st -le 1 ] && [ "$to" -gt 0 ] && [ "$to" -le "$tg" ] && [ "$calls" -ge "$dirs" ] &&
			echo 0 || echo 1) \
			"fs $name: ls -lR with the module: $to $what, GNU $tg ($ents entries; $calls module calls for $dirs directories)"
	fi
	echo "# --- fs $name: $(($(date +%s) - s)) s"
}

# mount_fs NAME TYPE OPTS MODULE...: NAME's disk on /fs/NAME; 0 mounted,
# 1 skipped (said why).
mount_fs() {
	name=$1 type=$2 opts=$3
	shift 3
	why=$(sed -n "s/^$name skip //p" $MF)
	if [ -n "$why" ]; then
		skip "$name" "$why"
		return 1
	fi
	if ! grep -q "^$name ok" $MF; then
		skip "$name" "no image in the manifest"
		return 1
	fi
	if ! have_fs "$type" "$@"; then
		skip "$name" "the kernel $(uname -r) has no $type filesystem (modprobe $*)"
		return 1
	fi
	dev=$(disk_of "$name") || {
		notok "fs $name: its disk (serial $name) is attached"
		return 1
	}
	mkdir -p "$R/$name"
	if mount -t "$type" ${opts:+-o "$opts"} "$dev" "$R/$name" 2>/tmp/fs.mount.err; then
		ok "fs $name: $dev mounted ($type${opts:+ -o $opts})"
		return 0
	fi
	notok "fs $name: $dev mounted ($type${opts:+ -o $opts}): $(cat /tmp/fs.mount.err)"
	return 1
}

# fill MNT: the erofs tree (else squashfs's) copied in; cp's complaints
# about what the filesystem cannot hold (vfat: owners, symlinks, special
# files, some names) are diagnostics.
src=
fill() {
	if [ -z "$src" ]; then
		echo "# no erofs or squashfs tree to copy into $1"
		return
	fi
	$CP -a "$src/." "$1/" 2>/tmp/fs.cp.err
	n=$(wc -l </tmp/fs.cp.err)
	[ "$n" -eq 0 ] || echo "# cp -a into $1: $n complaints, e.g. $(head -n 1 /tmp/fs.cp.err)"
	sync
}

mounted= umounts=
t0=$(date +%s)
echo "# --- fs: $(tr '\n' ';' <$MF)"
for name in erofs squashfs btrfs ext4cf xfs f2fs vfat exfat; do
	case $name in
	erofs) mount_fs erofs erofs ro erofs || continue ;;
	squashfs) mount_fs squashfs squashfs ro squashfs || continue ;;
	btrfs) mount_fs btrfs btrfs "" btrfs || continue ;;
	ext4cf) mount_fs ext4cf ext4 acl ext4 || continue ;;
	xfs) mount_fs xfs xfs "" xfs || continue ;;
	f2fs) mount_fs f2fs f2fs "" f2fs || continue ;;
	vfat) mount_fs vfat vfat utf8 nls_cp437 nls_ascii nls_utf8 vfat || continue ;;
	exfat) mount_fs exfat exfat "" nls_utf8 exfat || continue ;;
	esac
	m=$R/$name
	mounted="$mounted $m" umounts="$m $umounts"
	case $name in
	erofs) src=$m ;;
	squashfs) [ -n "$src" ] || src=$m ;;
	btrfs)
		# A subvolume with part of the tree, a snapshot of it (then
		# changed) and a read-only one: each its own st_dev.
		if [ -x /usr/bin/btrfs ]; then
			/usr/bin/btrfs -q subvolume create "$m/subvol" >/dev/null &&
				$CP -a "$m/nested" "$m/hardlink-a" "$m/hardlink-b" "$m/file-all" \
					"$m/link-file" "$m/dir-defacl" "$m/subvol/" &&
				/usr/bin/btrfs -q subvolume snapshot "$m/subvol" "$m/snap" >/dev/null &&
				/usr/bin/btrfs -q subvolume snapshot -r "$m/subvol" "$m/snap-ro" >/dev/null &&
				echo changed >"$m/snap/file-all" && rm "$m/snap/hardlink-b"
			d0=$(stat -c %d "$m") d1=$(stat -c %d "$m/subvol") d2=$(stat -c %d "$m/snap") d3=$(stat -c %d "$m/snap-ro")
			check $([ "$d0" != "$d1" ] && [ "$d1" != "$d2" ] && [ "$d2" != "$d3" ] && [ "$d0" != "$d2" ] && echo 0 || echo 1) \
				"fs btrfs: a subvolume, a snapshot and a read-only snapshot, each its own st_dev ($d0 $d1 $d2 $d3)"
		else
			notok "fs btrfs: a subvolume and snapshots (no btrfs program in the initramfs)"
		fi
		sync
		;;
	ext4cf)
		mkdir "$m/fold" && /usr/bin/chattr +F "$m/fold" &&
			for f in Mixed-Case UPPER lower "$(printf 'Caf\303\251')" 'with space'; do
				echo "$f" >"$m/fold/$f"
			done && mkdir "$m/fold/Sub-Dir" && echo in >"$m/fold/Sub-Dir/Inner" &&
			ln -s Mixed-Case "$m/fold/Link"
		check $([ -f "$m/fold/mixed-case" ] && [ -f "$m/fold/sub-dir/INNER" ] &&
			[ "$(ls "$m/fold" | wc -l)" = 7 ] && echo 0 || echo 1) \
			"fs ext4cf: chattr +F: fold/ looks names up without case (mixed-case finds Mixed-Case)"
		sync
		;;
	*) fill "$m" ;;
	esac
done

# Overlay: the erofs tree below an upper directory on the ext4 disk.
if [ -z "$src" ]; then
	skip overlay "no erofs or squashfs mount for its lower layer"
elif ! have_fs overlay overlay; then
	skip overlay "the kernel $(uname -r) has no overlay filesystem"
else
	o=/mnt/ext4/fs-overlay
	rm -rf $o
	mkdir -p $o/upper $o/work $R/overlay
	if mount -t overlay overlay -o "lowerdir=$src,upperdir=$o/upper,workdir=$o/work" $R/overlay \
		2>/tmp/fs.mount.err; then
		ok "fs overlay: mounted (lower $src, upper and work on ext4)"
		m=$R/overlay
		mounted="$mounted $m" umounts="$m $umounts"
		echo more >>"$m/small"                  # copied up
		chmod 600 "$m/medium"                   # copied up for a mode
		setfattr -n user.lsplus -v upper "$m/old-file"
		rm "$m/empty"                           # a whiteout
		rm -r "$m/dir-empty" && mkdir "$m/dir-empty" && echo o >"$m/dir-empty/opaque"
		rm -r "$m/nested/a/b" && mkdir "$m/nested/a/b"   # an opaque dir below
		echo new >"$m/new-upper"
		ln "$m/hardlink-a" "$m/hardlink-upper"  # a link to a lower file
		sync
	else
		notok "fs overlay: mounted: $(cat /tmp/fs.mount.err)"
	fi
fi

for m in $mounted; do
	check_fs "${m##*/}" "$m"
done
for m in $umounts; do
	umount "$m" || notok "fs: umount $m"
done
rm -rf /mnt/ext4/fs-overlay
echo "# --- fs: $(($(date +%s) - t0)) s in all"
exit 0
