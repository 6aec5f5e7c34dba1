# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The symm authors
"""Teams (world, shared/node, split_strided, split_2d, translate, destroy) and collectives
(barrier, sync, broadcast, fcollect, collect, alltoall, reduce with every operator its dtype
has, reducescatter) on the world and on split teams. Every PE can compute every PE's part, so
each checks its whole result."""

import functools

import numpy as np
import pytest

import symm

from conftest import as_host_dtype, pattern

_NP_OPS = {"sum": np.add, "prod": np.multiply, "min": np.minimum, "max": np.maximum,
           "and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}


def _members(team):
    return [team.translate_pe(i, symm.TEAM_WORLD) for i in range(team.n_pes())]


def _small(dt, pe, n, salt=0):
    """Values whose product over 4 PEs fits every dtype: 1..3 (booleans 0/1)."""
    i = np.arange(n)
    if dt == "bool":
        return ((pe + i + salt) % 3 != 0)
    v = (pe + i + salt) % 3 + 1
    return v.astype("float32" if dt == "bfloat16" else dt) if not dt.startswith("complex") \
        else (v + 1j * ((pe + i) % 2)).astype(dt)


def _reduce_cases(kit):
    on_gpu = kit.device
    out = []
    for dt in kit.dtypes():
        row = symm._core.DTYPES[dt]
        if on_gpu and not row.dev:
            continue
        for op in row.ops:
            out.append((dt, op))
    return out


def _teams(npes):
    """The teams the collectives run on: the world, the even PEs (split_strided) and this
    PE's row and column of a 2-wide grid (split_2d)."""
    evens = symm.team_split_strided(symm.TEAM_WORLD, 0, 2, (npes + 1) // 2)
    row, col = symm.TEAM_WORLD.split_2d(2)
    return [t for t in (symm.TEAM_WORLD, evens, row, col)]


def test_teams(me, npes):
    evens = symm.TEAM_WORLD.split_strided(0, 2, (npes + 1) // 2)
    row, col = symm.team_split_2d(symm.TEAM_WORLD, 2)
    info = {"evens": None if evens is None else (evens.my_pe(), evens.n_pes(), _members(evens),
                                                 evens.index()),
            "row": (row.my_pe(), row.n_pes(), _members(row)),
            "col": (col.my_pe(), col.n_pes(), _members(col)),
            "world_to_row": symm.team_translate_pe(symm.TEAM_WORLD, me, row),
            "node": (symm.TEAM_NODE.n_pes(), symm.TEAM_SHARED.n_pes(), _members(symm.TEAM_NODE)),
            "by_index": symm.team_n_pes(row.index()) == row.n_pes()}
    # TEAM_SAME_MYPE_NODE exists where every node has as many PEs
    sizes = symm.array(npes, "int32", device="cpu")
    mine = symm.array(1, "int32", device="cpu")
    mine[0] = symm.TEAM_NODE.n_pes()
    symm.fcollect(symm.TEAM_WORLD, sizes, mine)
    place = None
    if len(set(sizes.tolist())) == 1:
        same = symm.TEAM_SAME_MYPE_NODE
        place = (same.n_pes(), _members(same), symm.team_n_pes(3))
    # a team from a unique id: PE 0 makes it, a broadcast hands it over, all join
    box = symm.array(1, "uint64", device="cpu")
    box[0] = symm.get_team_unique_id() if me == 0 else 0
    symm.broadcast(symm.TEAM_WORLD, box, box, 0)
    joined = symm.team_init(int(box[0]), npes, me)
    by_id = (joined.my_pe(), joined.n_pes(), _members(joined))
    joined.destroy()
    symm.free(box)
    symm.free(mine)
    symm.free(sizes)
    symm.sync(row)
    row.barrier()
    if evens is not None:
        evens.sync()
        symm.team_destroy(evens)
    row.destroy()
    col.destroy()
    gone = []
    for t in (row, col):
        try:
            t.n_pes()
        except symm.InvalidArgument as e:
            gone.append("destroyed" in str(e))
    if me % 2 == 0:
        assert info["evens"][:3] == (me // 2, (npes + 1) // 2, list(range(0, npes, 2)))
        assert info["evens"][3] >= 6
    else:
        assert info["evens"] is None
    r = me // 2
    assert info["row"] == (me % 2, min(2, npes - 2 * r), list(range(2 * r, min(2 * r + 2, npes))))
    assert info["col"] == (me // 2, len(range(me % 2, npes, 2)), list(range(me % 2, npes, 2)))
    assert info["world_to_row"] == me % 2
    node_n, shared_n, mates = info["node"]
    assert node_n == shared_n == len(mates) and me in mates
    assert mates == list(range(mates[0], mates[0] + node_n))
    assert info["by_index"] and gone == [True, True]
    assert by_id == (me, npes, list(range(npes)))
    if place is not None:
        k = len(mates)
        assert place[0] == npes // k == place[2]
        assert place[1] == list(range(me % k, npes, k))


def test_barrier_sync_streams(kit, me, npes):
    """barrier and sync on the world and a split team, host-blocking or on the kit's stream:
    a put before a barrier is seen after it."""
    nxt, prv = (me + 1) % npes, (me - 1) % npes
    a = kit.sym(4, "int32")
    kit.fill(a, np.zeros(4))
    kit.done()
    s = kit.stream
    row, col = symm.TEAM_WORLD.split_2d(2)
    seen = []
    for step in range(4):
        symm.put(a, kit.loc(np.full(4, me * 10 + step), "int32"), nxt, stream=s)
        if step == 0:
            symm.barrier(symm.TEAM_WORLD, stream=s)
        elif step == 1:
            symm.barrier_all(stream=s)
        elif step == 2:
            symm.quiet(stream=s)
            symm.sync_all(stream=s)
        else:
            symm.quiet(stream=s)
            symm.sync(None, stream=s)
        kit.sync()
        seen.append(kit.host(a)[0])
        symm.barrier(stream=s)  # everyone has read before the next put
        kit.sync()
    symm.barrier(row, stream=s)
    symm.sync(col, stream=s)
    symm.barrier(0, stream=s)
    kit.done()
    row.destroy()
    col.destroy()
    symm.free(a)
    assert seen == [prv * 10 + k for k in range(4)]


def test_broadcast_fcollect_alltoall(kit, me, npes):
    """On the world and on split teams; buffers are allocated on every PE (allocation is
    collective over the world), used by the team's members."""
    teams = _teams(npes)
    dts = ("int64", "float16") + (("bfloat16",) if "bfloat16" in kit.dtypes() else ())
    m = 5
    res = []
    for t in teams:
        for dt in dts:
            whole = (kit.sym(m * npes, dt), kit.sym(m * npes, dt))
            if t is not None:
                n, i = t.n_pes(), t.my_pe()
                src, dst = whole[0][0:m * n], whole[1][0:m * n]
                kit.fill(src, np.concatenate([pattern(dt, me, m, salt=j) for j in range(n)]))
                kit.fill(dst, np.zeros(m * n))
                kit.done(t)
                bsrc, bdst = src[0:m], dst[0:m]
                roots = []
                for root in range(n):
                    symm.broadcast(t, bdst, bsrc, root, stream=kit.stream)
                    kit.done(t)
                    roots.append(kit.host(bdst))
                symm.fcollect(t, dst, bsrc, stream=kit.stream)
                kit.done(t)
                fc = kit.host(dst)
                symm.alltoall(t, dst, src, stream=kit.stream)
                kit.done(t)
                res.append((dt, i, _members(t), roots, fc, kit.host(dst)))
            kit.done()
            for x in whole:
                symm.free(x)
    for t in teams[1:]:
        if t is not None:
            t.destroy()
    for dt, i, members, roots, fc, a2a in res:
        for root, got in enumerate(roots):
            assert np.array_equal(got, pattern(dt, members[root], m)), (dt, root)
        want = np.concatenate([pattern(dt, p, m) for p in members])
        assert np.array_equal(fc, want), dt
        want = np.concatenate([pattern(dt, p, m, salt=i) for p in members])
        assert np.array_equal(a2a, want), dt


def test_collect(kit, me, npes):
    """collect: PE p gives p + 1 elements (host memory; on device memory it is refused)."""
    if kit.device:
        a, b = kit.sym(8, "int32"), kit.sym(8, "int32")
        with pytest.raises(symm.InvalidArgument, match=r"symm\.collect\(dst on the device\)"):
            symm.collect(symm.TEAM_WORLD, b, a)
        symm.free(b)
        symm.free(a)
        return
    total = npes * (npes + 1) // 2
    src = kit.sym(npes, "int32")
    dst = kit.sym(total, "int32")
    kit.fill(src, np.arange(npes) + 100 * me)
    kit.fill(dst, np.zeros(total))
    kit.done()
    symm.collect(symm.TEAM_WORLD, dst, src, me + 1)
    kit.done()
    got = kit.host(dst)
    symm.free(dst)
    symm.free(src)
    want = np.concatenate([np.arange(p + 1) + 100 * p for p in range(npes)])
    assert np.array_equal(got, want)


@pytest.mark.parametrize("team_kind", ["world", "evens", "row"])
def test_reduce_every_op(kit, me, npes, team_kind):
    """reduce with every operator of every dtype (in place for sum), and reducescatter, on
    the world or a split team (buffers allocated on every PE, used by the members)."""
    evens = symm.team_split_strided(symm.TEAM_WORLD, 0, 2, (npes + 1) // 2)
    row, col = symm.team_split_2d(symm.TEAM_WORLD, 2)
    t = {"world": symm.TEAM_WORLD, "evens": evens, "row": row}[team_kind]
    got, scat = {}, {}
    m = 7
    n, i = (t.n_pes(), t.my_pe()) if t is not None else (0, -1)
    members = _members(t) if t is not None else []
    for dt, op in _reduce_cases(kit):
        whole = (kit.sym(m * npes, dt), kit.sym(m * npes, dt))
        if t is not None:
            src, dst = whole[0][0:m * n], whole[1][0:m * n]
            kit.fill(src, _small(dt, me, m * n))
            kit.fill(dst, np.zeros(m * n, as_host_dtype(dt)))
            kit.done(t)
            if op == "sum":
                symm.reduce(t, src, src, op, stream=kit.stream)   # in place
                kit.done(t)
                got[(dt, op)] = kit.host(src)
                kit.fill(src, _small(dt, me, m * n))
                kit.done(t)
            else:
                symm.reduce(t, dst, src, op, stream=kit.stream)
                kit.done(t)
                got[(dt, op)] = kit.host(dst)
            part = dst[0:m]
            symm.reducescatter(t, part, src, op, stream=kit.stream)
            kit.done(t)
            scat[(dt, op)] = kit.host(part)
        kit.done()
        for x in whole:
            symm.free(x)
    for x in (evens, row, col):
        if x is not None:
            x.destroy()
    for (dt, op), g in got.items():
        parts = [_small(dt, p, m * n) for p in members]
        if dt == "bool" and op in ("max", "min"):
            parts = [x.astype("uint8") for x in parts]
        if dt.startswith("complex") and op == "prod":
            want = functools.reduce(lambda a, b: a * b, parts)
        else:
            want = functools.reduce(_NP_OPS[op], parts)
        want = want.astype(as_host_dtype(dt))
        assert np.array_equal(g, want), (dt, op, g, want)
        assert np.array_equal(scat[(dt, op)], want[i * m:(i + 1) * m]), (dt, op)
