# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The symm authors
"""put, get, put_signal, signal_op, signal_wait, signal_fetch, wait_until, test, fence and quiet:
each PE writes into the next one (a ring) and checks what the previous one wrote; on device
memory every call goes on the kit's stream."""

import numpy as np

import symm

from conftest import as_host_dtype, pattern


def test_put_get_every_dtype(kit, me, npes):
    nxt, prv, n = (me + 1) % npes, (me - 1) % npes, 37
    bufs = {dt: kit.sym(n, dt) for dt in kit.dtypes()}
    for dt, a in bufs.items():
        kit.fill(a, np.zeros(n, as_host_dtype(dt)))
    kit.done()
    for dt, a in bufs.items():
        symm.put(a, kit.loc(pattern(dt, me, n), dt), nxt, stream=kit.stream)
    symm.quiet(stream=kit.stream)
    kit.done()
    put_got = {dt: kit.host(a) for dt, a in bufs.items()}
    gets = {dt: kit.empty_loc(n, dt) for dt in bufs}
    for dt, a in bufs.items():
        symm.get(gets[dt], a, nxt, stream=kit.stream)
    kit.done()
    get_got = {dt: kit.host(g) for dt, g in gets.items()}
    for a in bufs.values():
        symm.free(a)
    for dt in bufs:
        assert np.array_equal(put_got[dt], pattern(dt, prv, n)), dt
        assert np.array_equal(get_got[dt], pattern(dt, me, n)), dt


def _grid(pe, salt=0):
    return (np.arange(60).reshape(6, 10) * 7 + pe * 31 + salt) % 250  # exact in bfloat16


def test_put_get_slices(kit, me, npes):
    """Rows, columns, blocks and strided slices, on the symmetric side and the local one."""
    nxt, prv = (me + 1) % npes, (me - 1) % npes
    dts = ["int32", "float16"] + (["bfloat16"] if "bfloat16" in kit.dtypes() else [])
    cases = [(2,), (slice(None), 3), (slice(1, 4), slice(2, 7)),
             (slice(None, None, 2), slice(None, None, 3)), (slice(1, 6, 2), 4), (Ellipsis,)]
    bufs = {dt: kit.sym((6, 10), dt) for dt in dts}
    for dt, a in bufs.items():
        kit.fill(a, np.full((6, 10), -1))
    kit.done()
    for dt, a in bufs.items():
        w = np.zeros((6, 20))
        w[:, ::2] = _grid(me)
        src = kit.loc(w, dt)[:, ::2]  # the source strided as well
        for c in cases[:-1]:
            symm.put(a[c], src[c], nxt, stream=kit.stream)
    kit.done()
    got = {dt: kit.host(a) for dt, a in bufs.items()}
    # get: strided local destinations from strided symmetric sources
    gets = {}
    for dt, a in bufs.items():
        for k, c in enumerate(cases):
            big = kit.empty_loc((6, 20), dt)
            dst = big[:, ::2]
            symm.get(dst[c], a[c], prv, stream=kit.stream)
            gets[(dt, k)] = (big, c)
    kit.done()
    got_get = {key: kit.host(big)[:, ::2][c] for key, (big, c) in gets.items()}
    for a in bufs.values():
        symm.free(a)
    want = np.full((6, 10), -1)
    for c in cases[:-1]:
        want[c] = _grid(prv)[c]
    for dt in dts:
        assert np.array_equal(got[dt], want.astype(as_host_dtype(dt))), dt
    for (dt, k), g in got_get.items():
        c = cases[k]
        # prv's buffer holds what the PE before it wrote, where the cases reached
        before = np.full((6, 10), -1)
        for cc in cases[:-1]:
            before[cc] = _grid((prv - 1) % npes)[cc]
        assert np.array_equal(g, before[c].astype(as_host_dtype(dt))), (dt, c)


def _sig_dtype(kit):
    return "int64" if kit.kind.startswith("torch") else "uint64"


def test_put_signal_ring(kit, me, npes):
    nxt, prv, n = (me + 1) % npes, (me - 1) % npes, 16
    sdt = _sig_dtype(kit)
    data = kit.sym(n, "float32")
    grid = kit.sym((4, 8), "int32")
    sig = kit.sym(2, sdt)
    kit.fill(data, np.zeros(n))
    kit.fill(grid, np.zeros((4, 8)))
    kit.fill(sig, np.zeros(2))
    kit.done()
    s = kit.stream
    # SET: data and signal 1
    symm.put_signal(data, kit.loc(pattern("float32", me, n), "float32"), sig[0:1], 1,
                    symm.SIGNAL_SET, nxt, stream=s)
    first = symm.signal_wait(sig[0:1], 1, symm.CMP_GE, stream=s)
    kit.sync()
    got1 = kit.host(data)
    # ADD through a strided destination (puts, then the signal after them)
    col = kit.loc(np.arange(4) + 10 * me, "int32")
    symm.put_signal(grid[:, 5], col, sig[0:1], 2, "add", nxt, stream=s)
    symm.signal_wait(sig[0:1], 3, symm.CMP_EQ, stream=s)
    kit.sync()
    got2 = kit.host(grid)[:, 5]
    # a signal alone, on the second word
    symm.signal_op(sig[1:2], 40 + me, symm.SIGNAL_SET, nxt, stream=s)
    symm.signal_wait(sig[1:2], 40, "ge", stream=s)
    symm.fence(stream=s)  # the add after the set at the target
    symm.signal_op(sig[1:2], 2, symm.SignalOp.SIGNAL_ADD, nxt, stream=s)
    symm.signal_wait(sig[1:2], 42 + prv, symm.ComparisonType.CMP_EQ, stream=s)
    kit.done()
    fetched = None if kit.device else symm.signal_fetch(sig[1:2])
    words = kit.host(sig)
    for x in (data, grid, sig):
        symm.free(x)
    assert np.array_equal(got1, pattern("float32", prv, n))
    assert list(got2) == list(np.arange(4) + 10 * prv)
    assert list(words) == [3, 42 + prv]
    assert first in ((1, 3) if not kit.device else (None,))  # 3: the previous PE added already
    assert fetched in (None, 42 + prv)


def test_wait_until_test_fence(kit, me, npes):
    """A flag written after a fence: the reader that sees it sees the data before it."""
    nxt, prv = (me + 1) % npes, (me - 1) % npes
    flag = kit.sym(1, "int32")
    data = kit.sym(64, "int64")
    kit.fill(flag, np.zeros(1))
    kit.fill(data, np.zeros(64))
    kit.done()
    s = kit.stream
    symm.put(data, kit.loc(np.arange(64) * (me + 1), "int64"), nxt, stream=s)
    symm.fence(stream=s)
    symm.put(flag, kit.loc([me + 1], "int32"), nxt, stream=s)
    symm.wait_until(flag, symm.CMP_EQ, prv + 1, stream=s)
    kit.sync()
    seen = kit.host(data)
    now = None if kit.device else symm.test(flag, "eq", prv + 1)
    never = None if kit.device else symm.test(flag, symm.CMP_GT, npes + 5)
    symm.quiet(stream=s)
    kit.done()
    for x in (flag, data):
        symm.free(x)
    assert list(seen) == list(np.arange(64) * (prv + 1))
    assert now in (None, True) and never in (None, False)


def test_wait_until_dtypes(me, npes):
    """wait_until and test on every dtype that has them (host memory)."""
    names = [n for n, r in symm._core.DTYPES.items() if r.wait and n == r.name]
    xs = {dt: symm.array(1, dt, device="cpu") for dt in names}
    for x in xs.values():
        x[0] = 0
    symm.barrier()
    nxt, prv = (me + 1) % npes, (me - 1) % npes
    for dt, x in xs.items():
        symm.put(x, np.array([me + 2], dt), nxt)
        symm.wait_until(x, "ge", 2)
    ok = {dt: symm.test(x, "eq", prv + 2) for dt, x in xs.items()}
    symm.barrier()
    for x in xs.values():
        symm.free(x)
    assert sorted(names) == ["int16", "int32", "int64", "uint16", "uint32", "uint64"]
    assert all(ok.values()), ok
