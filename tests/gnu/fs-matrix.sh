# SPDX-License-Identifier: GPL-3.0-or-later
# fs-matrix.sh -- sourced by tests/gnu/fs-FS.test: the GNU differential
# suite's "fs" cases on filesystem FS (fsmatrix.py: loop images, memory
# filesystems, FUSE), every backend, as root and as uid 65534.  Exit 77
# only when the running kernel lacks FS (or not root).
fs=$(basename "$0" .test)
fs=${fs#fs-}
: "${PYTHON:=python3}"
if ! command -v "$PYTHON" >/dev/null 2>&1; then
  echo "SKIP: $PYTHON not found (tools/install-deps installs python3)"
  exit 77
fi
ls_under_test=${LSPLUS_LS:-$(pwd)/src/ls}
PYTHONDONTWRITEBYTECODE=1
export PYTHONDONTWRITEBYTECODE
exec "$PYTHON" "${srcdir:-.}/tests/gnu/fsmatrix.py" --ls "$ls_under_test" "$fs"
