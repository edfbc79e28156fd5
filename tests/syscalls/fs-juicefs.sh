#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/syscalls/fs-juicefs.sh -- ls -lR on JuiceFS (FUSE, metadata in a
# private redis-server on a loopback port, POSIX ACLs on) makes no more
# system calls and no more daemon requests than GNU ls 9.1 (issue 21).
# Unlike the local FUSE daemons of fs-fuse2fs.sh and friends, every
# request waits for a server here, so the remote pool and the read-ahead
# do start: their own calls must stay within what they save.  Then
# again taken as a network filesystem (LSPLUS_REMOTE=net: GNU's probes,
# through io_uring under auto).  See fs-lib.sh.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fs-lib.sh"
FS_NAME=juicefs
JUICEFS=${JUICEFS:-juicefs}
fs_need_kernel fuse
fs_need_root
fs_need_prog "$JUICEFS" redis-server python3
FS_ALSO_NET=1
fs_mount ()
{
  port=$(python3 -c 'import socket; s = socket.socket()
s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])') || return 1
  mkdir "$tmp/redis" "$tmp/bucket" "$tmp/cache" || return 1
  redis-server --port "$port" --bind 127.0.0.1 --dir "$tmp/redis" \
    --save '' --appendonly no --daemonize yes \
    --pidfile "$tmp/redis.pid" >/dev/null || return 1
  meta=redis://127.0.0.1:$port/1
  # redis-server answers a moment after it daemonizes.
  for _i in 1 2 3 4 5 6 7 8 9 10; do
    "$JUICEFS" format --storage file --bucket "$tmp/bucket/" --enable-acl \
      --no-update "$meta" lsplus >"$tmp/format.log" 2>&1 && break
    sleep 0.5
  done || { cat "$tmp/format.log"; return 1; }
  # Attributes and entries cached for a minute, not JuiceFS's default
  # second: a run that takes longer under load would otherwise pay
  # revalidations another run did not (CI once saw 1,134 requests
  # against GNU's 1,133).  Every run starts from a dropped kernel cache
  # all the same, so each asks the daemon for what it needs once.
  "$JUICEFS" mount -d --no-usage-report --log "$tmp/juicefs.log" \
    --attr-cache 60 --entry-cache 60 --dir-entry-cache 60 \
    --cache-dir "$tmp/cache" "$meta" "$mnt" >"$tmp/mount.log" 2>&1 ||
    { cat "$tmp/mount.log"; return 1; }
  fs_trees "$mnt"
}
# requests TAG CMD...: the FUSE requests CMD makes (the daemon's counters
# in the .stats file at the mount root, which is no request itself), from
# a cold kernel cache; by kind in $tmp/req.TAG.
requests ()
{
  _tag=$1
  shift
  sync
  echo 3 >/proc/sys/vm/drop_caches
  grep '^juicefs_fuse_ops_total_' "$mnt/.stats" | sort >"$tmp/req0"
  "$@" >/dev/null 2>&1
  grep '^juicefs_fuse_ops_total_' "$mnt/.stats" | sort >"$tmp/req1"
  join "$tmp/req0" "$tmp/req1" |
    awk '$3 != $2 { print $1, $3 - $2 }' >"$tmp/req.$_tag"
  awk '{ s += $2 } END { print s + 0 }' "$tmp/req.$_tag"
}
# Round trips: ls -lR of the medium tree, GNU against every backend
# with the filesystem taken as a network one (the ring's probes are no
# system calls of ours: the daemon counts them).
fs_after ()
{
  _g=$(requests gnu "$GNU_LS" -lR "$mnt/medium")
  for _b in $FS_BACKENDS; do
    _r=$(LSPLUS_BACKEND=$_b LSPLUS_REMOTE=net requests "$_b" "$LS" -lR "$mnt/medium")
    echo "juicefs medium, LSPLUS_REMOTE=net $_b: $_r FUSE requests, GNU $_g"
    test "$_r" -le "$_g" || {
      echo "requests by kind, GNU then $_b:"
      cat "$tmp/req.gnu" "$tmp/req.$_b"
      fail "juicefs medium LSPLUS_REMOTE=net $_b: $_r FUSE requests, GNU $_g"
    }
  done
}
fs_cleanup ()
{
  test -f "$tmp/redis.pid" && kill "$(cat "$tmp/redis.pid")" 2>/dev/null
  return 0
}
fs_run
