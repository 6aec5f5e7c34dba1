# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The symm authors
"""Start and queries, memory (array, tensor, peer, free), and the type table against the
library's routines."""

import numpy as np

import symm
from symm import _core, _lib

from conftest import GPU, INIT


def test_queries(me, npes):
    ids = symm.array(npes, "int32", device="cpu")
    mine = symm.array(1, "int32", device="cpu")
    mine[0] = me
    symm.fcollect(symm.TEAM_WORLD, ids, mine)
    got = ids.copy()
    symm.free(mine)
    symm.free(ids)
    v = symm.get_version()
    assert symm.initialized()
    assert 0 <= me < npes
    assert list(got) == list(range(npes))
    assert symm.team_my_pe(symm.TEAM_WORLD) == me and symm.team_n_pes(symm.TEAM_WORLD) == npes
    assert symm.TEAM_WORLD.my_pe() == me and symm.team_n_pes(0) == npes
    assert v.openshmem_spec_version == "1.5" and v.libsymm_version.startswith("symm ")
    assert (symm.gpu_device() >= 0) == GPU or INIT == "torchrun"


def _node_pes(me):
    """The world PEs of this PE's node, from TEAM_NODE."""
    node = symm.TEAM_NODE
    return [node.translate_pe(i, symm.TEAM_WORLD) for i in range(node.n_pes())]


def test_peer_views(kit, me, npes):
    """peer() reaches exactly the PEs of this node (None across nodes), and what a PE
    stores through a view is what the owner reads."""
    a = kit.sym(8, "int64")
    kit.fill(a, np.full(8, -1))
    kit.done()
    mates = _node_pes(me)
    seen = {}
    for pe in range(npes):
        v = symm.peer(a, pe)
        seen[pe] = v is not None
        if v is not None and pe == (me + 1) % npes:
            kit.fill(v, np.full(8, me))
    kit.done()
    got = kit.host(a)
    same = symm.get_peer_array(a, me) is not None
    symm.free(a)
    prev = (me - 1) % npes
    assert sorted(pe for pe, ok in seen.items() if ok) == sorted(mates)
    assert same and me in mates
    if me in _node_pes(prev) and prev in mates:
        assert list(got) == [prev] * 8
    else:
        assert list(got) == [-1] * 8


def test_alloc_shapes(kit):
    """Shapes, dtypes, empty blocks, and free of each."""
    xs = [kit.sym((), "float32"), kit.sym(0, "int32"), kit.sym((3, 4, 5), "int16"),
          kit.sym(1000, "float64")]
    shapes = [tuple(x.shape) for x in xs]
    for x in xs:
        symm.free(x)
    assert shapes == [(), (0,), (3, 4, 5), (1000,)]


def test_type_table_routines():
    """Every typed routine the Python layer may call exists in libsymm."""
    lib = _lib.lib()
    missing = []
    for name, row in _core.DTYPES.items():
        if name != row.name:
            continue
        for op in row.ops:
            x = "x" if row.c in ("half", "bfloat16") else ""
            missing += [n for n in ("shmem%s_%s_%s_reduce" % (x, row.c, op),
                                    "shmemx_%s_%s_reducescatter" % (row.c, op))
                        if not hasattr(lib, n)]
            if row.dev and _lib.has("shmemx_malloc_device"):
                missing += [n for n in ("shmemx_%s_%s_reduce_on_stream" % (row.c, op),)
                            if not hasattr(lib, n)]
        fams = [("amo", ("fetch_add", "add", "fetch_inc", "inc", "compare_swap")),
                ("ext", ("fetch", "set", "swap")),
                ("bit", ("fetch_and", "fetch_or", "fetch_xor", "and", "or", "xor"))]
        for fam, ops in fams:
            if getattr(row, fam):
                missing += ["shmem_%s_atomic_%s" % (row.c, o) for o in ops
                            if not hasattr(lib, "shmem_%s_atomic_%s" % (row.c, o))]
        if row.wait:
            missing += [n for n in ("shmem_%s_wait_until" % row.wait, "shmem_%s_test" % row.wait)
                        if not hasattr(lib, n)]
    for bits in (8, 16, 32, 64, 128):
        missing += [n for n in ("shmem_iput%d" % bits, "shmem_iget%d" % bits)
                    if not hasattr(lib, n)]
    assert missing == []


def test_free_and_registration_errors(kit):
    """free takes only blocks made here; register_buffer is a GPU PE's call."""
    a = kit.sym(4, "float32")
    view = a[1:]
    errors = []
    for bad in (np.zeros(4, np.float32), view):
        try:
            symm.free(bad)
        except symm.InvalidArgument as e:
            errors.append(str(e))
    symm.free(a)
    assert len(errors) == 2 and all(e.startswith("symm.free(0x") for e in errors)
    if not GPU and symm.gpu_device() < 0:
        try:
            symm.register_buffer(np.zeros(16))
            raised = False
        except symm.SymmError as e:
            raised = "no GPU part" in str(e) or "without CUDA" in str(e)
        assert raised
