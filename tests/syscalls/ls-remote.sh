#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/syscalls/ls-remote.sh -- on a filesystem taken as remote, lsplus
# makes no more per-file calls than GNU ls 9.1 (issue 7).
#
# On a network filesystem (LSPLUS_REMOTE=net forces the kind on this
# local disk) every statx, getxattr and listxattr of an entry may be a
# round trip: each backend must make at most GNU's number of stat-like and
# xattr calls (exactly GNU's probes: label, access ACL, default ACL of a
# directory without an access ACL), with the same output.  As FUSE
# (LSPLUS_REMOTE=fuse) one listxattr per entry (plus the size of a label
# that is there) replaces GNU's two or three getxattr requests.  Also: the read-ahead of -R and the remote pool do
# not open, read or stat anything twice (getdents64 and openat counts
# equal the local ones), at the default depth and at LSPLUS_AHEAD=1, 2
# and 64.  The auto backend (sync without the kernel module) reads a
# network filesystem's directories through io_uring when it works (issue
# 21): the same bounds, fewer calls.  Prints GNU's counts beside ours.

. "$(dirname "$0")/lib.sh"

need_strace
find_ls
GNU_LS=${GNU_LS:-/bin/ls}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/syscalls-remote.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
# 6 directories of 40 files and 2 subdirectories each.
for d in 1 2 3 4 5 6; do
  mkdir -p "$tmp/t/d$d/sub1" "$tmp/t/d$d/sub2" || exit 99
  seq -f "$tmp/t/d$d/f%02g" 1 40 | xargs touch || exit 99
done
# Entries listed plus the operand itself.
N=$(find "$tmp/t" | wc -l)
setfacl -m u:65534:r "$tmp/t/d1/f01" "$tmp/t/d2" 2>/dev/null
setfacl -d -m u:65534:rx "$tmp/t/d3" "$tmp/t/d4/sub1" 2>/dev/null
setfattr -n security.selinux -v system_u:object_r:tmp_t:s0 \
  "$tmp/t/d5/f07" 2>/dev/null

export LC_ALL=C TZ=UTC
unset LS_COLORS COLUMNS LSPLUS_BACKEND LSPLUS_REMOTE_THREADS LSPLUS_AHEAD

trace_counts "$tmp/gnu" "$GNU_LS" -lR "$tmp/t"
"$GNU_LS" -lR "$tmp/t" >"$tmp/out.gnu" 2>&1

STATS="statx newfstatat fstatat64 lstat stat"
XATTRS="getxattr lgetxattr fgetxattr getxattrat listxattr llistxattr flistxattr listxattrat"
gnu_stat=$(count "$tmp/gnu" $STATS)
gnu_xattr=$(count "$tmp/gnu" $XATTRS)

for backend in sync uring auto; do
  if ! LSPLUS_BACKEND=$backend "$LS" -d / >/dev/null 2>&1; then
    echo "note: backend $backend is not available here"
    continue
  fi
  trace_counts "$tmp/local-$backend" env LSPLUS_BACKEND=$backend \
    LSPLUS_REMOTE=local "$LS" -lR "$tmp/t"
  for kind in net fuse; do
    o=$tmp/$kind-$backend
    trace_counts "$o" env LSPLUS_BACKEND=$backend LSPLUS_REMOTE=$kind \
      "$LS" -lR "$tmp/t" ||
      fail "$backend/$kind: ls -lR exited with status $?: $(cat "$o.stderr")"
    LSPLUS_BACKEND=$backend LSPLUS_REMOTE=$kind "$LS" -lR "$tmp/t" \
      >"$tmp/out" 2>&1
    cmp -s "$tmp/out" "$tmp/out.gnu" ||
      fail "$backend/$kind: ls -lR output differs from GNU's"
    echo "ls -lR, $N entries, LSPLUS_BACKEND=$backend LSPLUS_REMOTE=$kind:"
    side_by_side "$N" ours "$o" gnu "$tmp/gnu" |
      grep -E 'syscall|stat|xattr|getdents|openat|TOTAL'
    st=$(count "$o" $STATS)
    xa=$(count "$o" $XATTRS)
    test "$st" -le "$gnu_stat" ||
      fail "$backend/$kind: $st stat calls, GNU $gnu_stat"
    case $kind in
    net)
      test "$xa" -le "$gnu_xattr" ||
        fail "$backend/$kind: $xa xattr calls, GNU $gnu_xattr"
      test "$(count "$o" listxattr llistxattr listxattrat)" -eq 0 ||
        fail "$backend/$kind: listxattr on a network filesystem" ;;
    fuse)
      # One listxattr per entry (and a label's size for a labelled file).
      test "$xa" -le "$gnu_xattr" ||
        fail "$backend/$kind: $xa xattr calls, GNU $gnu_xattr"
      lx=$(count "$o" listxattr llistxattr listxattrat)
      test "$lx" -le "$N" ||
        fail "$backend/$kind: $lx listxattr calls for $N entries" ;;
    esac
    for c in openat getdents64; do
      a=$(count "$o" $c) b=$(count "$tmp/local-$backend" $c)
      # The remote path reads /proc/self/mountinfo once, locally too.
      test "$a" -le "$b" ||
        fail "$backend/$kind: $a $c calls, $b when local"
    done
  done
  # The read-ahead at fixed depths (LSPLUS_AHEAD): 1 (every read waits
  # for the one before), 2, and 64 (deeper than the tree is wide): the
  # same output, no call repeated.
  for n in 1 2 64; do
    o=$tmp/ahead$n-$backend
    trace_counts "$o" env LSPLUS_BACKEND=$backend LSPLUS_REMOTE=net \
      LSPLUS_AHEAD=$n "$LS" -lR "$tmp/t" ||
      fail "$backend/LSPLUS_AHEAD=$n: exit status $?: $(cat "$o.stderr")"
    LSPLUS_BACKEND=$backend LSPLUS_REMOTE=net LSPLUS_AHEAD=$n \
      "$LS" -lR "$tmp/t" >"$tmp/out" 2>&1
    cmp -s "$tmp/out" "$tmp/out.gnu" ||
      fail "$backend/LSPLUS_AHEAD=$n: ls -lR output differs from GNU's"
    st=$(count "$o" $STATS)
    test "$st" -le "$gnu_stat" ||
      fail "$backend/LSPLUS_AHEAD=$n: $st stat calls, GNU $gnu_stat"
    for c in openat getdents64; do
      a=$(count "$o" $c) b=$(count "$tmp/local-$backend" $c)
      test "$a" -le "$b" ||
        fail "$backend/LSPLUS_AHEAD=$n: $a $c calls, $b when local"
    done
  done
done
# An invalid depth is an error (exit status 2), as for the other knobs.
for v in 0 257 x; do
  LSPLUS_AHEAD=$v "$LS" -d / >/dev/null 2>&1
  rc=$?
  test $rc -eq 2 || fail "LSPLUS_AHEAD=$v: exit status $rc, not 2"
done
exit $status
