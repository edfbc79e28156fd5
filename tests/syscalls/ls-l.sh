#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/syscalls/ls-l.sh -- syscall counts of `ls -l` on a 1,000-file
# directory (issue 2): at most one statx per file, no per-file
# getxattr/lgetxattr, at most one listxattr per file.  Prints our counts
# next to GNU ls's (/bin/ls).

. "$(dirname "$0")/lib.sh"

need_strace
find_ls
GNU_LS=${GNU_LS:-/bin/ls}
N=1000
SLACK=30			# per-run constant: ld.so, locale, the dir itself

tmp=$(mktemp -d "${TMPDIR:-/tmp}/syscalls-ls-l.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/dir"
seq -f "$tmp/dir/file%04g" 1 $N | xargs touch || exit 99
# A few files with an ACL and a label: '+' and '.' must cost nothing extra.
for i in 1 2 3; do
  setfacl -m u:65534:r "$tmp/dir/file000$i" 2>/dev/null
  setfattr -n security.selinux -v system_u:object_r:tmp_t:s0 \
    "$tmp/dir/file001$i" 2>/dev/null
done

export LC_ALL=C TZ=UTC
unset LS_COLORS COLUMNS LSPLUS_BACKEND
trace_counts "$tmp/ours" "$LS" -l "$tmp/dir" ||
  fail "our ls -l exited with status $?: $(cat "$tmp/ours.stderr")"
trace_counts "$tmp/gnu" "$GNU_LS" -l "$tmp/dir"

echo "ls -l on $N files (ours: LSPLUS_BACKEND unset):"
side_by_side $N ours "$tmp/ours" gnu "$tmp/gnu"

stats=$(count "$tmp/ours" statx newfstatat fstatat64 lstat stat fstat)
getx=$(count "$tmp/ours" getxattr lgetxattr fgetxattr getxattrat)
listx=$(count "$tmp/ours" listxattr llistxattr flistxattr listxattrat)
echo "ours: stat-like $stats, getxattr-like $getx, listxattr-like $listx"
test "$stats" -le $((N + SLACK)) ||
  fail "$stats stat calls for $N files (limit $((N + SLACK)))"
test "$getx" -le $SLACK || fail "$getx getxattr calls (limit $SLACK)"
test "$listx" -le $((N + SLACK)) ||
  fail "$listx listxattr calls for $N files (limit $((N + SLACK)))"

# The helper thread (LSPLUS_THREADS=1 forces it, budget and load aside)
# needs a second CPU among those the process may run on: pinned to one
# (taskset), no thread.  A regression test: the CPU count was the
# machine's (sysconf), so a pinned ls started a helper that could only
# take turns with it.  With two CPUs allowed, the helper does start (the
# check above can see a thread).
if command -v taskset >/dev/null 2>&1; then
  LSPLUS_THREADS=1 trace_counts "$tmp/pin1" taskset -c 0 "$LS" -l "$tmp/dir" ||
    fail "pinned ls -l exited with status $?: $(cat "$tmp/pin1.stderr")"
  clones=$(count "$tmp/pin1" clone clone3)
  echo "LSPLUS_THREADS=1, taskset -c 0: $clones thread starts"
  test "$clones" -eq 0 || fail "$clones threads started on one CPU"
  if taskset -c 0,1 true 2>/dev/null; then
    LSPLUS_THREADS=1 trace_counts "$tmp/pin2" taskset -c 0,1 "$LS" -l "$tmp/dir"
    clones=$(count "$tmp/pin2" clone clone3)
    echo "LSPLUS_THREADS=1, taskset -c 0,1: $clones thread starts"
    test "$clones" -ge 1 || fail "no helper thread with two CPUs allowed"
  fi
else
  fail "taskset (util-linux) missing"
fi

# Not this test's job, but cheap: the outputs should agree.
"$LS" -l "$tmp/dir" >"$tmp/out.ours" 2>&1
"$GNU_LS" -l "$tmp/dir" >"$tmp/out.gnu" 2>&1
if ! cmp -s "$tmp/out.ours" "$tmp/out.gnu"; then
  echo "note: outputs of ours and GNU's ls -l differ (see tests/gnu)"
fi
exit $status
