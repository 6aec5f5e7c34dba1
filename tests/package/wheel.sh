#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The symm authors
#
# usage: wheel.sh PYTHON SOURCE CUDA [configure arguments...]
# The Python package as pip users get it: a fresh virtual environment of PYTHON (with the
# system's site packages, where NumPy comes from), `pip wheel SOURCE/python` (which builds
# libsymm and symmrun through CMake, with the configure arguments given), the wheel installed
# with pip, and then, with no SYMM_LIB, PYTHONPATH or build folder in sight, jobs of 2 and 4 PEs
# started by `python -m symm.run` over NumPy arrays (tests/package/wheel_job.py), each PE on the
# libsymm the wheel carries. CUDA (ON or OFF) says whether the wheel's library must have the
# GPU part. Exit 77 (skipped) where PYTHON cannot make a virtual environment with pip or has
# no NumPy.
set -u
py=$1 src=$2 cuda=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
fail() {
    echo "wheel.sh: FAIL: $*"
    exit 1
}
"$py" -c "import venv, ensurepip, numpy" 2>/dev/null ||
    { echo "wheel.sh: SKIP: $py lacks venv, ensurepip (Debian: python3-venv) or NumPy"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/symm-wheel.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
# Nothing of the source tree's own: no bytecode written into it, no library or package path.
export PYTHONDONTWRITEBYTECODE=1 PIP_DISABLE_PIP_VERSION_CHECK=1
unset SYMM_LIB PYTHONPATH LD_LIBRARY_PATH PIP_REQUIRE_VIRTUALENV

timeout 120 "$py" -m venv --system-site-packages "$tmp/venv" || fail "$py -m venv"
vpy=$tmp/venv/bin/python
[ -x "$vpy" ] || fail "the virtual environment has no python"
SYMM_CMAKE_ARGS="$*" timeout 1500 "$vpy" -m pip wheel --no-deps --no-index -w "$tmp/dist" \
    "$src/python" >"$tmp/wheel.log" 2>&1 || { cat "$tmp/wheel.log"; fail "pip wheel $src/python"; }
set -- "$tmp"/dist/symm-*.whl
[ -f "$1" ] || fail "pip wheel made no symm wheel"
echo "wheel.sh: built $(basename "$1")"
timeout 300 "$vpy" -m pip install --no-index "$1" >"$tmp/install.log" 2>&1 ||
    { cat "$tmp/install.log"; fail "pip install $(basename "$1")"; }

cd "$tmp" || exit 2
pkg=$("$vpy" -c "import os, symm; print(os.path.dirname(symm.__file__))") || fail "import symm"
case $pkg in "$tmp/venv/"*) ;; *) fail "import symm found $pkg, not the virtual environment's" ;; esac
[ -x "$pkg/bin/symmrun" ] || fail "the wheel carries no symm/bin/symmrun"
gpu=$("$vpy" -c "import symm._lib as l; print('ON' if l.has('shmemx_malloc_device') else 'OFF')") ||
    fail "loading the wheel's libsymm"
[ "$gpu" = "$cuda" ] || fail "the wheel's libsymm has the GPU part: $gpu, the build's: $cuda"

for n in 2 4; do
    out=$(timeout 200 "$vpy" -m symm.run -n $n --timeout 120 "$here/wheel_job.py" "$pkg/lib" 2>&1)
    status=$?
    printf '%s\n' "$out"
    [ $status -eq 0 ] || fail "python -m symm.run -n $n exited with status $status"
    ok=$(printf '%s\n' "$out" | grep -c "^wheel job: pe [0-9]* of $n ok$")
    [ "$ok" -eq $n ] || fail "$ok of $n PEs reported ok"
done
echo "wheel.sh: ok"
