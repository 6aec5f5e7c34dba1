# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The symm authors
"""What the Python layer adds to a call: the loops of overhead_c.c, timed the same way, through
symm (symm.put of an 8-byte NumPy array + symm.quiet; symm.barrier) and through the bare ctypes
routines (lib.shmem_putmem + lib.shmem_quiet; lib.shmem_barrier_all), which separates what
ctypes costs from what the layer's checks cost. PE 0 prints `case=NAME lang=LAYER ns=V cpu=V`,
the median of 7 trials per iteration of the wall-clock time and of the process's CPU time.

    build/tools/symmrun -n 2 python3 bench/python/overhead.py [ITERS]   (bench/python/overhead.sh
    runs both sides and prints the table)"""

import sys
import time

import numpy as np

import symm
from symm import _lib

TRIALS = 7


def trials(fn, iters, per):
    """(wall, cpu) medians of the time per iteration, `per` iterations a call of fn(iters)."""
    wall, cpu = [], []
    for t in range(-1, TRIALS):
        t0, c0 = time.perf_counter_ns(), time.process_time_ns()
        fn(iters)
        if t >= 0:
            wall.append((time.perf_counter_ns() - t0) / per)
            cpu.append((time.process_time_ns() - c0) / per)
        symm.barrier()
    return sorted(wall)[TRIALS // 2], sorted(cpu)[TRIALS // 2]


def main() -> int:
    iters = int(sys.argv[1]) if len(sys.argv) > 1 else 100000
    symm.init()
    me, n = symm.my_pe(), symm.n_pes()
    word = symm.array(1, "int64")
    src = np.zeros(1, np.int64)
    lib = _lib.lib()
    putmem, quiet, barrier_all = lib.shmem_putmem, lib.shmem_quiet, lib.shmem_barrier_all
    dst_addr, src_addr = word.ctypes.data, src.ctypes.data
    active = me == 0 and n > 1

    def put_symm(k):
        if active:
            put, q = symm.put, symm.quiet
            for _ in range(k):
                put(word, src, 1)
                q()

    def put_ctypes(k):
        if active:
            for _ in range(k):
                putmem(dst_addr, src_addr, 8, 1)
                quiet()

    def bar_symm(k):
        b = symm.barrier
        for _ in range(k // 4):
            b()

    def bar_ctypes(k):
        for _ in range(k // 4):
            barrier_all()

    symm.barrier()
    rows = [("put8_quiet", "python", trials(put_symm, iters, iters)),
            ("put8_quiet", "ctypes", trials(put_ctypes, iters, iters)),
            ("barrier_all", "python", trials(bar_symm, iters, iters // 4)),
            ("barrier_all", "ctypes", trials(bar_ctypes, iters, iters // 4))]
    if me == 0:
        for name, layer, (ns, cpu) in rows:
            print("case=%s lang=%s ns=%.1f cpu=%.1f" % (name, layer, ns, cpu))
    symm.free(word)
    symm.finalize()
    return 0


if __name__ == "__main__":
    sys.exit(main())
