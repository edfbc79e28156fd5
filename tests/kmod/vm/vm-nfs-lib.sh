# SPDX-License-Identifier: GPL-3.0-or-later
# tests/kmod/vm/vm-nfs-lib.sh: shell functions of the NFS rig inside the VM
# (sourced by vm-nfs-setup.sh, vm-nfs-tests.sh and bench/vm-nfs-bench.sh;
# busybox sh, so real binaries are called by full path).
#
#   nfs_mnt VER              the mount point of NFS version VER (3 or 4.2)
#   nfs_mount VER [OPTS]     mount 127.0.0.1:/mnt/ext4 there (retries while
#                            the server comes up); nfs_umount VER
#   nfs_cold VER [OPTS]      umount, drop every cache, mount again: the
#                            next ls starts cold
#   nfs_snap VER FILE        the mount's counters from /proc/self/mountstats
#   nfs_delta BEFORE AFTER   what changed, one "key value" per line
#   nfs_now                  seconds since boot, 1/100 s resolution
#
# Functions' own variables start with _n (busybox sh has no "local").
# Counters (nfs_snap): "sends N" (every RPC the transport sent, NFSACL's
# GETACL included), "req_u N" (the sum, over sends, of the requests then
# outstanding: req_u / sends is the average number in flight as each
# request goes out), "op:NAME N" (transmissions per NFS procedure) and
# "ms:NAME N" (their summed execute time, queueing included: the sum over
# all ops divided by the wall time is the average number in flight).
# NFSv3's GETACL has no per-op line (another RPC program on the same
# transport): GETACL = sends - the sum of the op: counts.

NFS_EXPORT=/mnt/ext4

nfs_mnt() {
	case $1 in
	3) echo /mnt/nfs3 ;;
	*) echo /mnt/nfs4 ;;
	esac
}

nfs_mount() { # VER [OPTS]
	_nm=$(nfs_mnt "$1")
	mkdir -p "$_nm"
	_ni=0
	while ! /usr/sbin/mount.nfs 127.0.0.1:$NFS_EXPORT "$_nm" -o "vers=$1${2:+,$2}" \
		2>/tmp/nfs-mount.err; do
		_ni=$((_ni + 1))
		if [ $_ni -ge 60 ]; then
			cat /tmp/nfs-mount.err
			return 1
		fi
		sleep 1
	done
}

nfs_umount() { # VER
	umount "$(nfs_mnt "$1")"
}

nfs_cold() { # VER [OPTS]
	nfs_umount "$1" || return 1
	sync
	echo 3 >/proc/sys/vm/drop_caches
	nfs_mount "$@"
}

nfs_snap() { # VER FILE
	awk -v mnt="$(nfs_mnt "$1")" '
		/^device / { on = ($5 == mnt) ; ops = 0; next }
		!on { next }
		$1 == "xprt:" && $2 == "tcp" { sends += $8; req += $11 }
		$1 == "per-op" { ops = 1; next }
		ops && NF == 10 && $1 ~ /:$/ {
			n = substr($1, 1, length($1) - 1)
			print "op:" n, $3
			print "ms:" n, $9
		}
		END { print "sends", sends + 0; print "req_u", req + 0 }
	' /proc/self/mountstats >"$2"
}

nfs_delta() { # BEFORE AFTER
	awk 'NR == FNR { b[$1] = $2; next } { d = $2 - b[$1]; if (d) print $1, d }' "$1" "$2"
}

nfs_now() {
	read -r up _ </proc/uptime
	echo "$up"
}
