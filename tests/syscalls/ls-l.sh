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

# Not this test's job, but cheap: the outputs should agree.
"$LS" -l "$tmp/dir" >"$tmp/out.ours" 2>&1
"$GNU_LS" -l "$tmp/dir" >"$tmp/out.gnu" 2>&1
if ! cmp -s "$tmp/out.ours" "$tmp/out.gnu"; then
  echo "note: outputs of ours and GNU's ls -l differ (see tests/gnu)"
fi
exit $status
