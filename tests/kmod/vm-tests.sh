#!/bin/sh
# tests/kmod/vm-tests.sh: the in-VM test driver, run by /init (busybox sh).
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

ok() { echo "ok - $*"; }
notok() { echo "not ok - $*"; }
check() { # COND-EXIT-STATUS DESCRIPTION
	if [ "$1" -eq 0 ]; then ok "$2"; else notok "$2"; fi
}

# run TIMEOUT NAME CMD...: a gdp-test subcommand; a crash or a timeout is
# a failure of its own (its TAP lines so far stand).
run() {
	t=$1 name=$2
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

# ---- correctness ---------------------------------------------------
run 300 compare $T compare $E $M
run 200 unpriv $T unpriv $E/noexec $M/noexec $E/nested $M
run 60 badinput $T badinput $E $E/small
run 30 padding $T padding $E
run 30 padding-tmpfs $T padding $M
run 30 padding-mnt $T padding $E/mnt-inner
run 60 resume-ext4 $T resume $E/many
run 400 resume-tmpfs-100k $T resume /mnt/tmp/big 100000
run 120 edges $T edges $E /mnt/tmp/big
rm -rf /mnt/tmp/big
run 120 pseudo-fs $T compare /dev /proc/sys/fs /sys/module/getdentsplus /sys/kernel/mm
run 60 concurrent-tmpfs $T concurrent /mnt/tmp/conc 5
run 60 concurrent-ext4 $T concurrent /mnt/ext4/conc 5
rm -rf /mnt/tmp/conc /mnt/ext4/conc

# ---- rmmod under load ----------------------------------------------
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

# ---- end to end with src/ls ----------------------------------------
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

# strace -c summary -> "name calls" lines.
counts() { awk '$1 ~ /^[0-9.]+$/ && $NF != "total" { print $NF, $4 }' "$1"; }
perfile="statx newfstatat fstatat64 lstat stat fstat getxattr lgetxattr fgetxattr listxattr llistxattr flistxattr getxattrat listxattrat"
files=$(find tree/wide | wc -l)
/usr/bin/strace -f -c -o /tmp/gnu.strace /bin/ls -lR tree/wide >/dev/null 2>&1
LSPLUS_BACKEND=getdentsplus /usr/bin/strace -f -c -o /tmp/ours.strace $LS -lR tree/wide >/dev/null 2>&1
n_ours=0
for f in $perfile; do
	g=$(counts /tmp/gnu.strace | awk -v f=$f '$1 == f { print $2 }')
	o=$(counts /tmp/ours.strace | awk -v f=$f '$1 == f { print $2 }')
	[ -n "$g$o" ] && echo "# $f: GNU ${g:-0}, ours ${o:-0}"
	n_ours=$((n_ours + ${o:-0}))
done
t_g=$(awk '$NF == "total" { print $4 }' /tmp/gnu.strace)
t_o=$(awk '$NF == "total" { print $4 }' /tmp/ours.strace)
echo "# all syscalls for $files entries: GNU $t_g, ours $t_o"
check $([ $((n_ours * 50)) -le "$files" ] && echo 0 || echo 1) \
	"end to end: stat/xattr syscalls of src/ls -lR with getdentsplus: $n_ours for $files entries (<= 0.02 per entry)"
exit 0
