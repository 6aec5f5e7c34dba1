#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The per-call cost of the Python layer at 2 CPU PEs: the C loops (overhead_c.c, built here with
# the build's symmcc) and the same loops through symm and through bare ctypes (overhead.py),
# ROUNDS times alternately, then one table of medians over the rounds (ns a call, wall-clock
# time and the process's CPU time) with the Python layer's overhead over C.
#   bench/python/overhead.sh [BUILD_DIR] [ROUNDS]     (default build/, 3 rounds)
set -eu
cd "$(dirname "$0")/../.."
build=${1:-build}
rounds=${2:-3}
py=${PYTHON:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$build/symmcc" -O2 bench/python/overhead_c.c -o "$tmp/overhead_c"
export PYTHONPATH=$PWD/python SYMM_LIB=$PWD/$build/libsymm.so PYTHONDONTWRITEBYTECODE=1
for ((r = 0; r < rounds; r++)); do
    "$build/tools/symmrun" -n 2 --timeout 300 "$tmp/overhead_c" 400000 >>"$tmp/out"
    "$build/tools/symmrun" -n 2 --timeout 300 "$py" bench/python/overhead.py 100000 >>"$tmp/out"
done
"$py" - "$tmp/out" <<'PY'
import re, statistics, sys
vals = {}
for line in open(sys.argv[1]):
    m = re.match(r"case=(\S+) lang=(\S+) ns=(\S+) cpu=(\S+)", line)
    if m:
        vals.setdefault((m[1], m[2], "wall"), []).append(float(m[3]))
        vals.setdefault((m[1], m[2], "cpu"), []).append(float(m[4]))
print("| call (2 PEs) | clock | C | ctypes | symm (Python) | symm - C |")
print("|---|---|---|---|---|---|")
for case in ("put8_quiet", "barrier_all"):
    for clock in ("wall", "cpu"):
        c, t, p = (statistics.median(vals[(case, k, clock)]) for k in ("c", "ctypes", "python"))
        print("| %s | %s | %.0f ns | %.0f ns | %.0f ns | %.2f us |"
              % (case, clock, c, t, p, (p - c) / 1000))
PY
