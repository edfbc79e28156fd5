#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/kmod/qemu/vm-gcov.sh WORK: the line coverage of kernel-module/*.c reached
# in the VM (run-vm.test with LSPLUS_VM_GCOV=1, i.e. vm-debug.test).
#
# The module was built in WORK/module with GCOV_PROFILE=y against the
# debug kernel (GCOV_KERNEL).  Before powering off, init copied the .gcda
# files of debugfs's gcov tree onto the ext4 disk (WORK/disk.img, /gcov,
# under the host path of the objects).  The kernel keeps the counts of an
# unloaded module (gcov_persist=1, its default) and adds them to those of
# the next load of the same object, so the files hold every load of the
# module since boot, the suite's rmmod/insmod cycles and refused loads
# included.  Here: debugfs -R rdump gets them off the image, gcov (the
# host gcc's, which built the module) reads them next to the .gcno files,
# and the lines of the .gcov files are counted: executable lines are the
# ones gcov gives a count or '#####' ('=====': reached only by an
# exception path, i.e. never in C: counted as not run).  Prints per file
# "FILE: RUN/LINES lines (P %)", the total as "module line coverage: P %",
# and every line never run ("FILE:LINE: source").
set -eu
work=${1:?usage: vm-gcov.sh WORK}
mod=$work/module
img=$work/disk.img
out=$work/gcov
command -v debugfs >/dev/null || { echo "no debugfs (e2fsprogs)"; exit 1; }
command -v gcov >/dev/null || { echo "no gcov (gcc)"; exit 1; }
ls "$mod"/*.gcno >/dev/null 2>&1 || { echo "no .gcno in $mod: module not built with GCOV_PROFILE=y"; exit 1; }

rm -rf "$out"
mkdir -p "$out/rdump" "$out/report"
debugfs -R "rdump /gcov $out/rdump" "$img" >/dev/null 2>"$out/debugfs.err" || true
n=0
for f in $(find "$out/rdump" -name '*.gcda'); do
	b=${f##*/}
	[ -f "$mod/${b%.gcda}.gcno" ] || continue
	cp "$f" "$mod/$b"
	n=$((n + 1))
done
if [ "$n" -eq 0 ]; then
	echo "no .gcda of the module on $img (init's gcov copy; debugfs said:)"
	cat "$out/debugfs.err"
	find "$out/rdump" | head -n 10
	exit 1
fi

# The module's sources (not kbuild's generated getdentsplus.mod.c).
srcs=$(cd "$mod" && ls ./*.c | sed 's|^\./||' | grep -v '\.mod\.c$')
# gcov writes FILE.c.gcov into the current directory and finds the
# sources by the names kbuild compiled them with (relative to the
# module's directory): run it there, then move the reports.
# shellcheck disable=SC2086 # $srcs: file names without blanks
(cd "$mod" && rm -f ./*.gcov && gcov -o . $srcs >"$out/gcov.log" 2>&1 &&
	mv ./*.gcov "$out/report/") || {
	cat "$out/gcov.log"
	exit 1
}
tot=0 run=0
for c in $srcs; do
	g=$out/report/$c.gcov
	[ -f "$g" ] || continue
	# "COUNT:LINE:SOURCE"; COUNT '-' = not executable.
	set -- $(awk -F: '{ c = $1; gsub(/ /, "", c) }
		c == "-" { next }
		c == "#####" || c == "=====" { t++; next }
		c ~ /^[0-9]+\*?$/ { t++; r++ }
		END { print t + 0, r + 0 }' "$g")
	tot=$((tot + $1)) run=$((run + $2))
	awk -v f="${c##*/}" -v t="$1" -v r="$2" 'BEGIN {
		printf "%s: %d/%d lines (%.1f %%)\n", f, r, t, t ? 100 * r / t : 0 }'
done
awk -v t="$tot" -v r="$run" 'BEGIN {
	printf "module line coverage: %.1f %%\n", t ? 100 * r / t : 0
	printf "(%d of %d executable lines of kernel-module/*.c run)\n", r, t }'
echo "lines never run:"
for c in $srcs; do
	g=$out/report/$c.gcov
	[ -f "$g" ] || continue
	awk -F: -v f="${c##*/}" '{ c = $1; gsub(/ /, "", c) }
		c == "#####" || c == "=====" {
			l = $2; gsub(/ /, "", l)
			s = $0; sub(/^[^:]*:[^:]*:/, "", s); sub(/^[ \t]+/, "", s)
			printf "  %s:%s: %s\n", f, l, s }' "$g"
done
