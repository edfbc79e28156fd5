#!/bin/busybox sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/vm-nfs-bench.sh: the in-VM half of bench/run-nfs (busybox sh, run by
# tests/kmod/qemu/init in its "demo" slot with lsplus.nfs=1: the NFS server is
# up, /mnt/ext4 is mounted NFSv3 on /mnt/nfs3 and NFSv4.2 on /mnt/nfs4,
# getdentsplus.ko is loaded).
#
# Builds DIRS x FILES files on the ext4 disk (every 97th file with an ACL,
# every 89th with a security label, as bench/vm-bench.sh), then for each
# netem delay on lo (each packet waits DELAY ms, so a round trip 2 x
# DELAY), REPS rounds of: for each NFS version, for each variant in turn
# (alternating), umount + drop_caches + mount (cold), `ls -lR` of the tree
# to /dev/null, timed with vm-timer, the mount's counters read before and
# after from /proc/self/mountstats (tests/kmod/vm/vm-nfs-lib.sh).  Prints
# machine-readable lines for the host:
#   BENCH-ENTRIES N
#   BENCH-NFS DELAY_MS VERSION VARIANT SECONDS STATUS SENDS REQ_U EXEC_MS OPS CPU
# SENDS: RPCs sent; REQ_U: the sum of requests outstanding at each send;
# EXEC_MS: the summed execute time of the per-op lines (NFSv3's GETACL has
# none); OPS: NAME=COUNT,... per NFS procedure; CPU: the VM's CPUs busy
# during the run, in CPUs (from /proc/stat: 2.0 = both vCPUs saturated).
# A variant VAR/NAME=VALUE runs backend VAR with NAME=VALUE in its
# environment (for instance auto/LSPLUS_AHEAD=64).
# Kernel command line: lsplus.dirs= lsplus.files= lsplus.reps=
# lsplus.delays=0,1,5,20 lsplus.vers=3,4.2
# lsplus.variants=GNU,sync,uring,getdentsplus,auto.
. /vm-nfs-lib.sh
LS=/opt/lsplus/ls
T=/usr/bin/vm-timer
export LC_ALL=C TZ=UTC
dirs=100 files=100 reps=3 delays=0,1,5,20 vers=3,4.2
variants=GNU,sync,uring,getdentsplus,auto
for a in $(cat /proc/cmdline); do
	case $a in
	lsplus.dirs=*) dirs=${a#*=} ;;
	lsplus.files=*) files=${a#*=} ;;
	lsplus.reps=*) reps=${a#*=} ;;
	lsplus.delays=*) delays=${a#*=} ;;
	lsplus.vers=*) vers=${a#*=} ;;
	lsplus.variants=*) variants=${a#*=} ;;
	esac
done
delays=$(echo "$delays" | tr , ' ')
vers=$(echo "$vers" | tr , ' ')
variants=$(echo "$variants" | tr , ' ')

root=bench
echo "bench: creating $dirs dirs x $files files in /mnt/ext4/$root" >&2
n=0 d=0
: >/tmp/acl.list
while [ $d -lt "$dirs" ]; do
	sub=$(printf '/mnt/ext4/%s/g%03d/d%05d' $root $((d / 100)) $d)
	mkdir -p "$sub"
	cd "$sub" || exit 1
	i=0
	while [ $i -lt "$files" ]; do
		f=file-$i.dat
		: >"$f"
		n=$((n + 1))
		[ $((n % 97)) -eq 0 ] && echo "$sub/$f" >>/tmp/acl.list
		[ $((n % 89)) -eq 0 ] &&
			setfattr -n security.selinux -v 'system_u:object_r:bench_t:s0' "$f"
		i=$((i + 1))
	done
	d=$((d + 1))
done
cd /
xargs setfacl -m u:65534:r </tmp/acl.list
sync
echo "BENCH-ENTRIES $(find /mnt/ext4/$root -mindepth 1 | wc -l)"

# Only the variants this src/ls and kernel offer.
avail=
for v in $variants; do
	if [ "$v" = GNU ] || LSPLUS_BACKEND=${v%%/*} $LS -d / >/dev/null 2>&1; then
		avail="$avail $v"
	else
		echo "bench: backend $v unavailable" >&2
	fi
done

cpu_snap() { # FILE: the aggregate "cpu" line of /proc/stat
	head -n 1 /proc/stat >"$1"
}

run() { # DELAY VER VARIANT (its own variables: b_*)
	b_m=$(nfs_mnt "$2")
	nfs_cold "$2" || { echo "bench: remount of NFSv$2 failed" >&2; return; }
	nfs_snap "$2" /tmp/b.a
	b_env=LSPLUS_BENCH=1
	case $3 in */*) b_env=${3#*/} ;; esac
	cpu_snap /tmp/c.a
	if [ "$3" = GNU ]; then
		b_res=$(cd "$b_m" && $T /bin/ls -lR $root)
	else
		b_res=$(cd "$b_m" && env "$b_env" LSPLUS_BACKEND="${3%%/*}" $T $LS -lR $root)
	fi
	cpu_snap /tmp/c.b
	nfs_snap "$2" /tmp/b.b
	# CPUs busy: (all jiffies but idle and iowait) / wall jiffies (USER_HZ).
	b_cpu=$(cat /tmp/c.a /tmp/c.b | awk -v secs="${b_res%% *}" '
		{ t = 0; for (i = 2; i <= NF; i++) if (i != 5 && i != 6) t += $i
		  if (NR == 1) a = t; else b = t }
		END { x = 0; if (secs > 0) x = (b - a) / 100 / secs
		      printf "%.2f\n", x }')
	set -- "$@" $b_res
	nfs_delta /tmp/b.a /tmp/b.b | awk -v pre="BENCH-NFS $1 $2 $3 $4 $6" -v cpu="$b_cpu" '
		$1 == "sends" { s = $2 } $1 == "req_u" { r = $2 }
		$1 ~ /^ms:/ { ms += $2 }
		$1 ~ /^op:/ { ops = ops (ops == "" ? "" : ",") substr($1, 4) "=" $2 }
		END { print pre, s + 0, r + 0, ms + 0, (ops == "" ? "-" : ops), cpu }'
}

for delay in $delays; do
	/usr/sbin/tc qdisc del dev lo root 2>/dev/null
	if [ "$delay" != 0 ]; then
		/usr/sbin/tc qdisc add dev lo root netem delay "${delay}ms" ||
			{ echo "bench: tc netem failed" >&2; continue; }
	fi
	echo "bench: netem delay $delay ms" >&2
	r=0
	while [ $r -lt "$reps" ]; do
		for v in $vers; do
			for var in $avail; do run "$delay" "$v" "$var"; done
		done
		r=$((r + 1))
	done
done
/usr/sbin/tc qdisc del dev lo root 2>/dev/null
rm -rf /mnt/ext4/$root
