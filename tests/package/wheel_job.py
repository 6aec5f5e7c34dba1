# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The symm authors
"""A job of the installed wheel (tests/package/wheel.sh): NumPy arrays on the symmetric heap,
each PE puts its block into the next PE's array, then a sum reduction; every PE checks what it
got and that its libsymm is the one the wheel carries (the directory given)."""

import sys

import numpy as np

import symm

N = 1 << 16


def main() -> int:
    carried = sys.argv[1]
    symm.init()
    me, n = symm.my_pe(), symm.n_pes()
    with open("/proc/self/maps") as f:
        libs = {line.split()[-1] for line in f if "libsymm.so" in line}
    bad = []
    if libs != {carried + "/libsymm.so.0"}:
        bad.append("libsymm loaded from %s, not %s" % (sorted(libs), carried))
    box = symm.array(N, "int64")
    total = symm.array(N, "int64")
    box[...] = -1
    symm.barrier_all()
    symm.put(box, np.arange(N, dtype=np.int64) + me * N, (me + 1) % n)
    symm.barrier_all()
    prev = (me - 1) % n
    if not np.array_equal(box, np.arange(N, dtype=np.int64) + prev * N):
        bad.append("block from pe %d wrong" % prev)
    symm.reduce(symm.TEAM_WORLD, total, box, "sum")
    want = n * np.arange(N, dtype=np.int64) + N * (n * (n - 1) // 2)
    if not np.array_equal(total, want):
        bad.append("sum reduction wrong")
    symm.finalize()
    print("wheel job: pe %d of %d %s" % (me, n, "; ".join(bad) if bad else "ok"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
