# SPDX-License-Identifier: GPL-3.0-or-later
# tests/syscalls/lib.sh -- shared by the syscall-count tests (sourced).
#
# Counting: strace -f writes the full trace and we tally it ourselves,
# because strace 6.1's -c summary silently drops syscalls it has no name
# for (listxattrat/getxattrat, Linux 6.13+, appear as syscall_0x1d1/0x1d0
# in the trace and are counted here under their real names).

status=0

# skip REASON: exit 77.
skip () { echo "SKIP: $*"; exit 77; }

# fail MESSAGE: record a failure and go on.
fail () { echo "FAIL: $*"; status=1; }

# need_strace: skip unless strace works here (ptrace may be forbidden).
need_strace ()
{
  command -v strace >/dev/null 2>&1 || skip "strace is not installed"
  strace -f -o /dev/null true 2>/dev/null ||
    skip "strace cannot trace here (ptrace not allowed?)"
}

# find_ls: set LS to our ls (src/ls of the build tree) or skip.
find_ls ()
{
  LS=${LS:-$PWD/src/ls}
  test -x "$LS" || skip "$LS is not built"
}

# trace_counts OUT CMD...: run CMD (stdout to /dev/null) under strace -f;
# write "syscall count" lines to OUT.  Returns CMD's status.
trace_counts ()
{
  _out=$1; shift
  # LeakSanitizer cannot run under ptrace (sanitizer builds).
  ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
    strace -f -qq -o "$_out.raw" "$@" >/dev/null 2>"$_out.stderr"
  _rc=$?
  # The module's syscall has no name in strace: it shows as syscall_0xNNN.
  _gdp_nr=$(cat /sys/module/getdentsplus/parameters/nr 2>/dev/null || echo 0)
  awk -v gdp="$(printf 'syscall_0x%x' "$_gdp_nr")" '
    { line = $0; sub(/^[0-9]+ +/, "", line) }
    line ~ /^<\.\.\. / || line ~ /^(\+\+\+|---) / { next }
    match(line, /^[a-z_0-9]+\(/) {
      n = substr(line, 1, RLENGTH - 1)
      if (n == "syscall_0x1d0") n = "getxattrat"
      else if (n == "syscall_0x1d1") n = "listxattrat"
      else if (n == gdp) n = "getdentsplus"
      # glibc reads the CPU list for malloc arenas when threads first
      # allocate, once or twice depending on their timing: not ours.
      if (n == "openat" && line ~ /"\/sys\/devices\/system\/cpu\/online"/)
        n = "openat_glibc_cpus"
      c[n]++
    }
    END { for (n in c) print n, c[n] }' "$_out.raw" | sort >"$_out"
  rm -f "$_out.raw"
  return $_rc
}

# count FILE NAME...: the sum of the counts of the NAMEd syscalls.
count ()
{
  _f=$1; shift
  awk -v names=" $* " '
    index(names, " " $1 " ") { s += $2 }
    END { print s + 0 }' "$_f"
}

# total FILE: all syscalls.
total () { awk '{ s += $2 } END { print s + 0 }' "$1"; }

# side_by_side NFILES LABEL1 FILE1 LABEL2 FILE2...: a table of counts,
# absolute and per file.
side_by_side ()
{
  _n=$1; shift
  awk -v n="$_n" '
    FNR == 1 { col++; label[col] = $1; next }
    { c[$1, col] = $2; names[$1] = 1; t[col] += $2 }
    END {
      printf "%-20s", "syscall"
      for (i = 1; i <= col; i++) printf " %14s %7s", label[i], "/file"
      printf "\n"
      for (s in names) {
        row = sprintf("%-20s", s)
        for (i = 1; i <= col; i++)
          row = row sprintf(" %14d %7.3f", c[s, i], c[s, i] / n)
        print row | "sort"
      }
      close("sort")
      printf "%-20s", "TOTAL"
      for (i = 1; i <= col; i++) printf " %14d %7.3f", t[i], t[i] / n
      printf "\n"
    }' $(_sbs_files "$@")
}

# _sbs_files LABEL FILE...: turn label/file pairs into files whose first
# line is the label (for side_by_side).
_sbs_files ()
{
  while test $# -ge 2; do
    { echo "$1"; cat "$2"; } >"$2.lbl"
    echo "$2.lbl"
    shift 2
  done
}
