# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The symm authors
"""Bad arguments raise a Python exception naming the call and the value, before anything is
sent: every PE makes the same mistake and the job goes on (the target buffers are unchanged
afterwards). Also: a call before init, and the fatal path of what Python cannot check
(fatal.py, run by its own test)."""

import os
import subprocess
import sys

import numpy as np
import pytest

import symm


def test_rma_errors(kit, me, npes):
    nxt = (me + 1) % npes
    a = kit.sym(8, "int32")
    f = kit.sym(8, "float32")
    sig = kit.sym(1, "int64")
    kit.fill(a, np.full(8, 7))
    kit.done()
    src = kit.loc(np.arange(8), "int32")
    s = kit.stream
    cases = [
        (lambda: symm.put(a, src, npes, stream=s), symm.InvalidArgument,
         r"^symm\.put\(remote_pe=%d\): pe %d is out of range \(the job has %d PEs, 0\.\.%d\)"
         % (npes, npes, npes, npes - 1)),
        (lambda: symm.get(kit.empty_loc(8, "int32"), a, -1, stream=s), symm.InvalidArgument,
         r"^symm\.get\(remote_pe=-1\): pe -1 is out of range"),
        (lambda: symm.put(a, kit.loc(np.arange(8), "float32"), nxt, stream=s), symm.InvalidDtype,
         r"^symm\.put\(dst dtype=int32, src dtype=float32\): the dtypes differ"),
        (lambda: symm.put(a, kit.loc(np.arange(5), "int32"), nxt, stream=s),
         symm.InvalidArgument, r"^symm\.put\(dst shape=\(8,\), src shape=\(5,\)\): the shapes "
                               r"differ"),
        (lambda: symm.put(kit.loc(np.arange(8), "int32"), src, nxt, stream=s),
         symm.InvalidArgument, r"^symm\.put\(dst=0x[0-9a-f]+, 32 bytes\): not symmetric memory"),
        (lambda: symm.get(kit.empty_loc(8, "int32"), src, nxt, stream=s), symm.InvalidArgument,
         r"^symm\.get\(src=0x[0-9a-f]+, 32 bytes\): not symmetric memory"),
        (lambda: symm.put_signal(a, src, f[0:1], 1, symm.SIGNAL_SET, nxt, stream=s),
         symm.InvalidDtype, r"^symm\.put_signal\(signal_var dtype=float32\): a signal is a "
                            r"64-bit word"),
        (lambda: symm.put_signal(a, src, sig, 1, "max", nxt, stream=s), symm.InvalidArgument,
         r"^symm\.put_signal\(signal_op='max'\)"),
        (lambda: symm.signal_wait(sig, 1, "almost", stream=s), symm.InvalidArgument,
         r"^symm\.signal_wait\(cmp='almost'\)"),
        (lambda: symm.wait_until(f[0:1], "eq", 1, stream=s), symm.InvalidDtype,
         r"^symm\.wait_until\(ivar dtype=float32\): no wait routines on float32"),
        (lambda: symm.wait_until(a, "eq", 1, stream=s), symm.InvalidArgument,
         r"^symm\.wait_until\(ivar shape=\(8,\)\): names 8 elements"),
        (lambda: symm.put(a, src, "one", stream=s), symm.InvalidArgument,
         r"^symm\.put\(remote_pe='one'\): a PE is an integer"),
        (lambda: symm.put(a, [1, 2], nxt), symm.InvalidArgument,
         r"^symm\.put\(src=list\): not an array or tensor"),
    ]
    if not kit.device:
        cases.append((lambda: symm.put(a, src, nxt, stream=1234), symm.InvalidArgument,
                      r"^symm\.put\(stream=1234\): dst is host memory"))
    if kit.kind == "numpy":  # torch has no negative steps
        cases += [
            (lambda: symm.put(a[::-1], src, nxt), symm.InvalidArgument,
             r"^symm\.put\(strides=\(-1,\)\): a negative or zero stride"),
            (lambda: symm.put(a, np.broadcast_to(np.int32(3), (8,)), nxt), symm.InvalidArgument,
             r"^symm\.put\(strides=\(0,\)\): a negative or zero stride"),
        ]
    for fn, exc, pattern in cases:
        with pytest.raises(exc, match=pattern):
            fn()
    kit.done()
    after = kit.host(a)
    for x in (a, f, sig):
        symm.free(x)
    assert list(after) == [7] * 8


def test_amo_errors(me, npes):
    c = symm.array(4, "int64", device="cpu")
    fl = symm.array(1, "float32", device="cpu")
    h = symm.array(1, "float16", device="cpu")
    c[:] = 3
    symm.barrier()
    cases = [
        (lambda: symm.fetch_add(fl, 1, 0), symm.InvalidDtype,
         r"^symm\.fetch_add\(dest dtype=float32\): no atomic fetch_add on float32 \(dtypes: "
         r"int32, uint32, int64, uint64\)"),
        (lambda: symm.swap(h, 1, 0), symm.InvalidDtype,
         r"^symm\.swap\(dest dtype=float16\): no atomic swap on float16"),
        (lambda: symm.fetch_xor(fl, 1, 0), symm.InvalidDtype, r"^symm\.fetch_xor\(dest dtype="),
        (lambda: symm.fetch_add(c, 1, 0), symm.InvalidArgument,
         r"^symm\.fetch_add\(dest shape=\(4,\)\): names 4 elements"),
        (lambda: symm.cswap(c[0:1], 3, 4, npes + 2), symm.InvalidArgument,
         r"^symm\.cswap\(pe=%d\): pe %d is out of range" % (npes + 2, npes + 2)),
        (lambda: symm.inc(np.zeros(1, np.int64), 0), symm.InvalidArgument,
         r"^symm\.inc\(dest=0x[0-9a-f]+, 8 bytes\): not symmetric memory"),
        (lambda: symm.fetch(c[0:1], 0, stream=5), symm.InvalidArgument,
         r"^symm\.fetch\(stream=5\): atomics are host-blocking"),
    ]
    for fn, exc, pattern in cases:
        with pytest.raises(exc, match=pattern):
            fn()
    symm.barrier()
    after = list(c)
    for x in (c, fl, h):
        symm.free(x)
    assert after == [3] * 4


def test_coll_errors(kit, me, npes):
    a = kit.sym(4 * npes, "int32")
    b = kit.sym(4 * npes, "int32")
    f = kit.sym(4 * npes, "float32")
    kit.fill(a, np.full(4 * npes, 5))
    kit.fill(b, np.full(4 * npes, 6))
    kit.done()
    s = kit.stream
    world = symm.TEAM_WORLD
    evens = symm.team_split_strided(world, 0, 2, (npes + 1) // 2)
    dead = symm.team_split_strided(world, 0, 1, npes)
    dead.destroy()
    cases = [
        (lambda: symm.broadcast(world, b, a, npes, stream=s), symm.InvalidArgument,
         r"^symm\.broadcast\(root=%d\): pe %d is out of range \(the team has %d PEs"
         % (npes, npes, npes)),
        (lambda: symm.fcollect(world, b, a[0:3], stream=s), symm.InvalidArgument,
         r"^symm\.fcollect\(dst size\): %d elements, the call needs %d" % (4 * npes, 3 * npes)),
        (lambda: symm.alltoall(world, b[0:3], a, stream=s), symm.InvalidArgument,
         r"^symm\.alltoall\(dst size\): 3 elements, the call needs %d" % (4 * npes)),
        (lambda: symm.reduce(world, f, a, "sum", stream=s), symm.InvalidDtype,
         r"^symm\.reduce\(dst dtype=float32, src dtype=int32\): the dtypes differ"),
        (lambda: symm.reduce(world, f, f, "xor", stream=s), symm.InvalidDtype,
         r"^symm\.reduce\(op='xor'\): no xor reduction on float32 \(its operators: max, min, "
         r"sum, prod\)"),
        (lambda: symm.reduce(world, b, a, "mean", stream=s), symm.InvalidArgument,
         r"^symm\.reduce\(op='mean'\): one of sum, min, max, prod, and, or, xor"),
        (lambda: symm.reduce(world, b, kit.loc(np.zeros(4 * npes), "int32"), "sum", stream=s),
         symm.InvalidArgument, r"^symm\.reduce\(src=0x[0-9a-f]+, %d bytes\): not symmetric "
                               r"memory" % (16 * npes)),
        (lambda: symm.reducescatter(world, b[0:3], a, "sum", stream=s), symm.InvalidArgument,
         r"^symm\.reducescatter\(src size\): %d elements, the call needs %d"
         % (4 * npes, 3 * npes)),
        (lambda: symm.reduce(world, b[::2], a[::2], "sum", stream=s), symm.InvalidArgument,
         r"^symm\.reduce\(dst strides=\(2,\)\): a collective takes contiguous buffers"),
        (lambda: symm.team_split_strided(world, 0, 1, npes + 1), symm.InvalidArgument,
         r"^symm\.team_split_strided\(start=0, stride=1, size=%d\): outside the parent team of "
         r"%d PEs" % (npes + 1, npes)),
        (lambda: symm.reduce(dead, b, a, "sum", stream=s), symm.InvalidArgument,
         r"^symm\.reduce\(team=team \d+\): the team was destroyed"),
        (lambda: symm.barrier(99, stream=s), symm.InvalidArgument,
         r"^symm\.barrier\(team=99\): not a team of this PE"),
        (lambda: symm.team_destroy(symm.TEAM_WORLD), symm.InvalidArgument,
         r"^symm\.team_destroy\(team=TEAM_WORLD\): a predefined team cannot be destroyed"),
    ]
    for fn, exc, pattern in cases:
        with pytest.raises(exc, match=pattern):
            fn()
    kit.done()
    after = (kit.host(a), kit.host(b))
    if evens is not None:
        evens.destroy()
    for x in (a, b, f):
        symm.free(x)
    assert list(after[0]) == [5] * 4 * npes and list(after[1]) == [6] * 4 * npes


def test_before_init():
    """A call before symm.init raises instead of ending the process (run in a fresh Python,
    not part of the job)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SYMM_BOOT", "PMIX",
                                                                    "OMPI_", "RANK"))}
    code = ("import numpy as np, symm\n"
            "try:\n"
            "    symm.put(np.zeros(1), np.zeros(1), 0)\n"
            "except symm.SymmError as e:\n"
            "    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=60)
    assert out.stdout.strip() == "symm.put: called before symm.init (or after symm.finalize)"
