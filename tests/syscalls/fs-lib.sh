# SPDX-License-Identifier: GPL-3.0-or-later
# tests/syscalls/fs-lib.sh -- shared by the per-filesystem syscall-count
# tests (issue 21), sourced after lib.sh: on one filesystem, `ls -lR` of
# a small tree (6 directories of 12 files, 85 entries) and a medium one
# (20 directories of 50, 1,021), and `ls -l` of the medium tree's top
# and of three of its directories (the ACL, default-ACL, label and
# user-xattr entries, labelled files and symlinks among them), with
# every backend that works here,
# makes no more system calls than GNU ls 9.1 (every line of a full
# `strace -f`, threads included), no more stat and xattr calls (each a
# request to a FUSE daemon), and the same output and status.  The calls
# are counted net of each program's own `ls -lR` of an empty directory
# on the same filesystem (startup: the dynamic loader, the locale, a
# sanitizer's runtime), and that fixed cost may exceed GNU's by at most
# FS_STARTUP_SLACK calls.  In a build with sanitizers (their runtime
# maps, reads /proc/self/maps and closes as the program allocates) only
# the stat and xattr calls and the output are compared, the stat calls
# with which the runtime opens its own libraries (those over GNU's in the
# empty directory's listing) taken off: the normal build of the same
# suite compares the totals and every stat call.  "auto" is
# run too where it differs from the backends named (the sync backend
# with io_uring for network filesystems).
#
# A test sets FS_NAME, defines fs_mount (mount the filesystem on $mnt,
# with the trees in $src when it serves an image or another directory,
# or make them itself with fs_trees $mnt; fs_image and fs_loop make and
# mount loop images) and calls fs_run.

GNU_LS=${GNU_LS:-/bin/ls}

# fs_need_kernel FSTYPE: skip unless the kernel has FSTYPE (loading its
# module if it is one).
fs_need_kernel ()
{
  grep -qw "$1" /proc/filesystems 2>/dev/null ||
    modprobe "$1" >/dev/null 2>&1
  grep -qw "$1" /proc/filesystems 2>/dev/null ||
    skip "the running kernel has no $1 filesystem"
}

# fs_need_root: mounting needs root (CI runs the suite as root).
fs_need_root ()
{
  test "$(id -u)" -eq 0 || skip "mounting $FS_NAME needs root"
}

# fs_need_prog PROG...: a missing program is a failure (tools/install-deps
# installs them), not a skip.
fs_need_prog ()
{
  for _p; do
    command -v "$_p" >/dev/null 2>&1 && continue
    echo "FAIL: $_p is not installed (tools/install-deps installs it)"
    exit 1
  done
}

# fs_tree DIR NDIRS NFILES: NDIRS directories (at least 5) of NFILES files,
# symlinks, and where the filesystem takes them an access ACL, a default ACL, a
# security label and a user xattr (silently absent where it does not).
fs_tree ()
{
  mkdir -p "$1" || exit 99
  for _d in $(seq 1 "$2"); do
    mkdir "$1/d$_d" || exit 99
    (cd "$1/d$_d" && seq -f "f%02g" 1 "$3" | xargs touch) || exit 99
  done
  ln -s d1/f01 "$1/link"
  setfacl -m u:65534:r "$1/d1/f01" 2>/dev/null
  setfacl -d -m u:65534:rx "$1/d2" 2>/dev/null
  setfattr -n security.selinux -v system_u:object_r:tmp_t:s0 \
    "$1/d2/f03" 2>/dev/null
  setfattr -n security.selinux -v system_u:object_r:tmp_t:s0 \
    "$1/d3" 2>/dev/null
  setfattr -n user.note -v x "$1/d3/f02" 2>/dev/null
  # d4 and d5 as on an SELinux system: every file labelled, and labelled
  # symlinks in d5 (GNU asks for a label once per file; a list naming
  # the label costs the list and the label's size).
  (cd "$1/d5" && for _i in 1 2 3 4 5; do ln -s "f0$_i" "l$_i"; done) || exit 99
  (cd "$1" && setfattr -h -n security.selinux -v system_u:object_r:usr_t:s0 \
    d4/* d5/*) 2>/dev/null
  return 0
}

# fs_trees DIR: the small and the medium tree under DIR, and an empty
# directory (the baseline).
fs_trees ()
{
  mkdir -p "$1/empty" || exit 99
  fs_tree "$1/small" 6 12
  fs_tree "$1/medium" 20 50
}

# fs_check TREE: `ls -lR TREE` with GNU and every backend.
fs_check ()
{
  fs_compare "$1" "$(find "$mnt/$1" | wc -l)" -lR "$mnt/$1"
}

# fs_check_l TREE: `ls -l` of TREE and of TREE/d1, d3 and d5 (an access
# ACL, a default ACL, labels, a user xattr, labelled files and symlinks)
# with GNU and every backend.
fs_check_l ()
{
  _t=$mnt/$1
  fs_compare "$1 ls -l" \
    $(($(ls -A "$_t" "$_t/d1" "$_t/d3" "$_t/d5" | grep -c -v -e '^$' -e ':$') + 4)) \
    -l "$_t" "$_t/d1" "$_t/d3" "$_t/d5"
}

# fs_compare LABEL NENTRIES ARG...: GNU and every backend run as `ls ARG...`:
# the same output and status, no more calls in all (net of the empty
# directory's listing) and no more stat and xattr calls.
fs_compare ()
{
  _tree=$1 _n=$2
  shift 2
  _key=$(echo "$_tree" | tr -c 'a-z0-9\n' _)
  trace_counts "$tmp/gnu.$_key" "$GNU_LS" "$@"
  "$GNU_LS" "$@" >"$tmp/out.gnu" 2>&1
  _gt=$(($(total "$tmp/gnu.$_key") - FS_BASE_gnu))
  _gio=$(count "$tmp/gnu.$_key" $FS_STATS $FS_XATTRS)
  _sbs="gnu $tmp/gnu.$_key"
  for _b in $FS_BACKENDS; do
    _o=$tmp/$_b.$_key
    LSPLUS_BACKEND=$_b trace_counts "$_o" "$LS" "$@"
    LSPLUS_BACKEND=$_b "$LS" "$@" 2>&1 |
      sed "s|^$LS:|$GNU_LS:|" >"$tmp/out.$_b"
    cmp -s "$tmp/out.gnu" "$tmp/out.$_b" || {
      fail "$FS_NAME $_tree $_b: ls $1 output differs from GNU's:"
      diff "$tmp/out.gnu" "$tmp/out.$_b" | head -20
    }
    eval "_base=\$FS_BASE_$_b"
    _t2=$(($(total "$_o") - _base))
    _io=$(count "$_o" $FS_STATS $FS_XATTRS)
    # A sanitizer's runtime fstats its own libraries at startup: its
    # stat calls over GNU's in the empty directory's listing are not ours.
    if test -n "$FS_SAN"; then
      eval "_bio=\$FS_BIO_$_b"
      test "$_bio" -le "$FS_BIO_gnu" || _io=$((_io - (_bio - FS_BIO_gnu)))
    fi
    echo "$FS_NAME $_tree ($_n entries) $_b: $_t2 calls, GNU $_gt" \
         "(net of an empty directory's listing);" \
         "stat+xattr $_io, GNU $_gio"
    test -n "$FS_SAN" || test "$_t2" -le "$_gt" ||
      fail "$FS_NAME $_tree $_b: $_t2 system calls, GNU $_gt"
    test "$_io" -le "$_gio" ||
      fail "$FS_NAME $_tree $_b: $_io stat and xattr calls, GNU $_gio"
    _sbs="$_sbs $_b $_o"
  done
  # shellcheck disable=SC2086 # labels and temporary paths: no blanks
  side_by_side "$_n" $_sbs
}

# fs_image IMG SIZE MKFS...: a sparse file IMG of SIZE (truncate's
# suffixes) formatted by MKFS... IMG; its output only if it fails.
fs_image ()
{
  _img=$1 _size=$2
  shift 2
  truncate -s "$_size" "$_img" &&
  "$@" "$_img" >"$tmp/mkfs.log" 2>&1 || { cat "$tmp/mkfs.log"; return 1; }
}

# fs_loop IMG DIR [OPTION...]: mount the image IMG on DIR through a loop
# device (released at unmount), with mount's OPTIONs (e.g. -t erofs -o ro).
fs_loop ()
{
  _img=$1 _dir=$2
  shift 2
  mount -o loop "$@" "$_img" "$_dir"
}

FS_STATS="statx newfstatat fstatat64 lstat stat"
FS_XATTRS="getxattr lgetxattr fgetxattr getxattrat listxattr llistxattr flistxattr listxattrat"

# A build with sanitizers: their runtimes' calls are no startup of ours.
FS_STARTUP_SLACK=20

# fs_baseline: FS_BASE_gnu and FS_BASE_<backend>, the calls of ls -lR of
# the empty directory; our startup no more than FS_STARTUP_SLACK over
# GNU's unless a sanitizer runtime is linked in.
fs_baseline ()
{
  trace_counts "$tmp/base.gnu" "$GNU_LS" -lR "$mnt/empty"
  FS_BASE_gnu=$(total "$tmp/base.gnu")
  FS_BIO_gnu=$(count "$tmp/base.gnu" $FS_STATS $FS_XATTRS)
  FS_SAN=
  ldd "$LS" 2>/dev/null | grep -Eq 'lib(a|ub|t|l)san' && FS_SAN=1
  for _b in $FS_BACKENDS; do
    LSPLUS_BACKEND=$_b trace_counts "$tmp/base.$_b" "$LS" -lR "$mnt/empty"
    eval "FS_BASE_$_b=$(total "$tmp/base.$_b")"
    eval "FS_BIO_$_b=$(count "$tmp/base.$_b" $FS_STATS $FS_XATTRS)"
    eval "_base=\$FS_BASE_$_b"
    echo "$FS_NAME empty directory $_b: $_base calls, GNU $FS_BASE_gnu" \
         "${FS_SAN:+(sanitizer runtime linked in: totals not compared)}"
    test -n "$FS_SAN" || test "$_base" -le $((FS_BASE_gnu + FS_STARTUP_SLACK)) ||
      fail "$FS_NAME empty directory $_b: $_base calls, GNU $FS_BASE_gnu" \
           "(more than $FS_STARTUP_SLACK over)"
  done
}

# fs_cleanup: what a test stops after unmounting (its daemons).
fs_cleanup () { :; }
# fs_after: more checks of a test, on the mounted trees.
fs_after () { :; }

# fs_run: mount, check both trees with every backend, unmount.
fs_run ()
{
  need_strace
  find_ls
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/syscalls-fs.XXXXXX") || exit 99
  mnt=$tmp/mnt src=$tmp/src
  mkdir "$mnt" "$src" || exit 99
  trap 'umount "$mnt" 2>/dev/null || umount -l "$mnt" 2>/dev/null;
        umount "$src" 2>/dev/null; fs_cleanup; rm -rf "$tmp"' EXIT
  export LC_ALL=C TZ=UTC
  unset LS_COLORS COLUMNS LSPLUS_BACKEND LSPLUS_REMOTE \
    LSPLUS_REMOTE_THREADS LSPLUS_AHEAD LSPLUS_THREADS LSPLUS_COLD_THREADS \
    LSPLUS_COLD_USEC
  FS_BACKENDS=
  for _b in getdentsplus uring sync auto; do
    if LSPLUS_BACKEND=$_b "$LS" -d / >/dev/null 2>&1; then
      FS_BACKENDS="$FS_BACKENDS $_b"
    else
      echo "note: backend $_b is not available here"
    fi
  done
  fs_mount || { fail "cannot mount $FS_NAME"; exit 1; }
  fs_baseline
  fs_check small
  fs_check medium
  fs_check_l medium
  # FS_ALSO_NET=1: again with the filesystem taken as a network one
  # (GNU's probes; under auto through io_uring, issue 21).
  if test -n "${FS_ALSO_NET-}"; then
    export LSPLUS_REMOTE=net
    FS_NAME="$FS_NAME (LSPLUS_REMOTE=net)"
    fs_baseline
    fs_check small
    fs_check medium
    fs_check_l medium
  fi
  fs_after
  exit $status
}
