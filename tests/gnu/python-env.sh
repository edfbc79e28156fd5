# SPDX-License-Identifier: GPL-3.0-or-later
# python-env.sh -- sourced by diff-backend.sh and fs-matrix.sh: the
# Python the suite's scripts run under ($PYTHON, default python3; exit 77
# when it is missing), the ls under test ($LSPLUS_LS, default the build's
# src/ls) in ls_under_test, and no bytecode written into the source tree.
: "${PYTHON:=python3}"
if ! command -v "$PYTHON" >/dev/null 2>&1; then
  echo "SKIP: $PYTHON not found (tools/install-deps installs python3)"
  exit 77
fi
ls_under_test=${LSPLUS_LS:-$(pwd)/src/ls}
PYTHONDONTWRITEBYTECODE=1
export PYTHONDONTWRITEBYTECODE
