# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The symm authors
"""Atomics on elements of the symmetric host heap, from every PE to one PE and around the
ring, for every dtype that has each family; and the refusal of device elements."""

import pytest

import symm

AMO = ["int32", "uint32", "int64", "uint64"]
EXT = AMO + ["float32", "float64"]


def test_counters(me, npes):
    """fetch_add, add, fetch_inc, inc: every PE counts into PE 0's counters."""
    cs = {dt: symm.array(4, dt, device="cpu") for dt in AMO}
    for c in cs.values():
        c[:] = 0
    symm.barrier()
    olds = {}
    for dt, c in cs.items():
        olds[dt] = (symm.fetch_add(c[0:1], me + 1, 0), symm.fetch_inc(c[1:2], 0))
        symm.add(c[2:3], 2 * (me + 1), 0)
        symm.inc(c[3:4], 0)
    symm.quiet()
    symm.barrier()
    final = {dt: c.copy() for dt, c in cs.items()}
    for c in cs.values():
        symm.free(c)
    total = npes * (npes + 1) // 2
    for dt in AMO:
        a, b = olds[dt]
        assert 0 <= a <= total - (me + 1) and 0 <= b < npes
        if me == 0:
            assert list(final[dt]) == [total, npes, 2 * total, npes], dt


def test_swap_cswap_fetch_set(me, npes):
    """Each PE owns slot me of the next PE's array: set, fetch, swap, cswap there."""
    nxt, prv = (me + 1) % npes, (me - 1) % npes
    xs = {dt: symm.array(npes, dt, device="cpu") for dt in EXT}
    for x in xs.values():
        x[:] = 0
    symm.barrier()
    seen = {}
    for dt, x in xs.items():
        slot = x[me:me + 1]
        symm.atomic_set(slot, 5, nxt)
        symm.quiet()
        f = symm.fetch(slot, nxt)
        s = symm.swap(slot, 7, nxt)
        c1 = c2 = None
        if dt in AMO:
            c1 = symm.cswap(slot, 7, 9, nxt)     # succeeds: 7 -> 9
            c2 = symm.compare_swap(slot, 7, 11, nxt)  # fails: stays 9
        seen[dt] = (f, s, c1, c2)
    symm.set(xs["int32"][me:me + 1], 9, nxt)  # symm.set is atomic_set
    symm.barrier()
    final = {dt: x.copy() for dt, x in xs.items()}
    for x in xs.values():
        symm.free(x)
    for dt in EXT:
        f, s, c1, c2 = seen[dt]
        assert f == 5 and s == 5, dt
        want = 9 if dt in AMO else 7
        if dt in AMO:
            assert (c1, c2) == (7, 9), dt
        assert final[dt][prv] == want and final[dt].sum() == want, dt


def test_bitwise(me, npes):
    """fetch_or, atomic_or, fetch_and, atomic_and, fetch_xor, atomic_xor: bit me of PE 0's
    words."""
    ws = {dt: symm.array(6, dt, device="cpu") for dt in AMO}
    for w in ws.values():
        w[:] = 0
        w[2:4] = (1 << npes) - 1
    symm.barrier()
    bit = 1 << me
    olds = {}
    for dt, w in ws.items():
        olds[dt] = symm.fetch_or(w[0:1], bit, 0)
        symm.atomic_or(w[1:2], bit, 0)
        symm.fetch_and(w[2:3], ~bit & 0xFFFF, 0)
        symm.atomic_and(w[3:4], ~bit & 0xFFFF, 0)
        symm.fetch_xor(w[4:5], bit | 1 << 8, 0)
        symm.atomic_xor(w[5:6], 1, 0)
    symm.quiet()
    symm.barrier()
    final = {dt: [int(v) for v in w] for dt, w in ws.items()}
    for w in ws.values():
        symm.free(w)
    full = (1 << npes) - 1
    for dt in AMO:
        assert olds[dt] & bit == 0
        if me == 0:
            assert final[dt] == [full, full, 0, 0, full | (npes % 2) << 8, npes % 2], dt


def test_device_elements_refused(kit, me):
    """Host atomics on device memory are not in the C API: refused, nothing sent."""
    if not kit.device:
        pytest.skip("device memory only")
    x = kit.sym(1, "int64")
    with pytest.raises(symm.InvalidArgument, match=r"symm\.fetch_add\(dest=0x[0-9a-f]+ on the "
                                                   r"device\)"):
        symm.fetch_add(x, 1, me)
    symm.free(x)
