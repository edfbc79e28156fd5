# SPDX-License-Identifier: GPL-3.0-or-later
# fs-matrix.sh -- sourced by tests/gnu/fs-FS.test: the GNU differential
# suite's "fs" cases on filesystem FS (fsmatrix.py: loop images, memory
# filesystems, FUSE), every backend, as root and as uid 65534.  Exit 77
# only when the running kernel lacks FS (or not root).
fs=$(basename "$0" .test)
fs=${fs#fs-}
. "${srcdir:-.}/tests/gnu/python-env.sh"
exec "$PYTHON" "${srcdir:-.}/tests/gnu/fsmatrix.py" --ls "$ls_under_test" "$fs"
