# SPDX-License-Identifier: GPL-3.0-or-later
# diff-backend.sh -- sourced by tests/gnu/diff-BACKEND.test: runs the GNU
# differential test (difftest.py) with LSPLUS_BACKEND=BACKEND for ours.
# make check runs the tests from the top build directory with $srcdir set;
# the fixture goes to a fresh directory under ${TMPDIR:-/tmp}.

backend=$(basename "$0" .test)
backend=${backend#diff-}
. "${srcdir:-.}/tests/gnu/python-env.sh"
exec "$PYTHON" "${srcdir:-.}/tests/gnu/difftest.py" \
  --ls "$ls_under_test" --backends "$backend" --require-locales
