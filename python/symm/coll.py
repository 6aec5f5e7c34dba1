# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The symm authors
"""Teams and collectives.

    row, col = symm.TEAM_WORLD.split_2d(2)       # collective over the world
    symm.reduce(row, dst, src, "sum")            # dst on every member: src summed over row
    symm.alltoall(symm.TEAM_WORLD, dst, src)
    row.destroy()

A Team is an ordered set of PEs: TEAM_WORLD (all), TEAM_SHARED and TEAM_NODE (the PEs of this
node: in symm those that share memory), TEAM_SAME_MYPE_NODE (the PEs at this PE's place in
their nodes), and the teams that split_strided and split_2d make. Wherever a team is taken, an
NVSHMEM team index (0 world, 1 shared, 2 node, 3 same place in the node, a split team's
index()) or None (the world) is taken too.

Collectives are called by every member, in the same order, with buffers of the same shapes:
symmetric arrays or tensors, contiguous, of one dtype. On host memory each is host-blocking
(shmem_broadcastmem, shmem_TYPE_OP_reduce, ...); on device memory it is enqueued on `stream`
(shmemx_*_on_stream; default: the current stream of the buffer's library). The team comes
first, as in NVSHMEM4Py. Sizes, dtypes and operators are checked before anything is sent;
every member finds the same fault in the same call, so all raise alike."""

import ctypes
from typing import Any, Dict, Optional, Tuple, Union

from . import _core, _lib
from ._core import (S, Buf, InvalidArgument, InvalidDtype, SymmError, check_pe, contiguous,
                    describe, need_init, stream_of, symmetric)

__all__ = ["Team", "Teams", "TEAM_WORLD", "TEAM_SHARED", "TEAM_NODE", "TEAM_SAME_MYPE_NODE",
           "team_my_pe", "team_n_pes", "team_translate_pe", "team_split_strided",
           "team_split_2d", "team_destroy", "get_team_unique_id", "team_init", "barrier",
           "barrier_all", "sync", "sync_all", "broadcast", "fcollect", "collect", "alltoall",
           "reduce", "reducescatter"]

_P = ctypes.c_void_p


class Team:
    """A team of PEs, as shmem_team_t. Members are numbered 0..n_pes()-1 in the team."""

    __slots__ = ("_h", "_index", "name", "_alive", "_n")

    def __init__(self, handle: int, name: str, index: Optional[int] = None) -> None:
        self._h = handle        # 0 for a predefined team until the library is loaded
        self._index = index
        self.name = name
        self._alive = True
        self._n = 0             # the team's size, read once (a team's size never changes)

    def __repr__(self) -> str:
        return "symm.Team(%s)" % self.name

    def handle(self, call: str = "symm.Team") -> int:
        """The shmem_team_t of this team, as an integer."""
        need_init(call)
        if not self._alive:
            raise InvalidArgument("%s(team=%s): the team was destroyed" % (call, self.name))
        if not self._h:
            self._h = _predefined_handle(self._index)
        return self._h

    def my_pe(self) -> int:
        """This PE's number in the team (shmem_team_my_pe)."""
        return _lib.lib().shmem_team_my_pe(self.handle("symm.Team.my_pe"))

    def n_pes(self) -> int:
        """The number of PEs of the team (shmem_team_n_pes)."""
        h = self.handle("symm.Team.n_pes")
        if not self._n:
            self._n = _lib.lib().shmem_team_n_pes(h)
        return self._n

    def index(self) -> int:
        """The team's NVSHMEM index (shmemx_team_index): 0 world, 1 shared, 2 node, 3 same
        place in the node, 6 and up split teams."""
        if self._index is None:
            self._index = _lib.lib().shmemx_team_index(self.handle("symm.Team.index"))
        return self._index

    def translate_pe(self, pe: int, dest_team: "TeamLike" = None) -> int:
        """The number in dest_team (default: the world) of this team's PE pe, or -1 when it is
        not a member there (shmem_team_translate_pe)."""
        call = "symm.team_translate_pe"
        pe = check_pe(call, "src_pe", pe, self.n_pes())
        return _lib.lib().shmem_team_translate_pe(self.handle(call), pe,
                                                  team_of(call, dest_team).handle(call))

    def split_strided(self, start: int, stride: int, size: int, config: Any = None,
                      config_mask: int = 0) -> Optional["Team"]:
        """A new team of this team's PEs start, start + stride, ... (size of them):
        collective over this team (shmem_team_split_strided). PEs outside it get None."""
        return team_split_strided(self, start, stride, size, config, config_mask)

    def split_2d(self, xrange: int, xaxis_config: Any = None, xaxis_mask: int = 0,
                 yaxis_config: Any = None, yaxis_mask: int = 0) -> Tuple["Team", "Team"]:
        """This team as a grid of rows of xrange PEs: (this PE's row, this PE's column),
        collective over this team (shmem_team_split_2d)."""
        return team_split_2d(self, xrange, xaxis_config, xaxis_mask, yaxis_config, yaxis_mask)

    def destroy(self) -> None:
        """Ends the team (collective over its members; shmem_team_destroy). The predefined
        teams cannot be destroyed."""
        team_destroy(self)

    def sync(self, stream: Any = None) -> None:
        """Waits until every member has called sync (shmem_team_sync); see symm.sync."""
        sync(self, stream)

    def barrier(self, stream: Any = None) -> None:
        """quiet, then sync: see symm.barrier."""
        barrier(self, stream)


TeamLike = Union[Team, int, None]

TEAM_WORLD = Team(0, "TEAM_WORLD", 0)
TEAM_SHARED = Team(0, "TEAM_SHARED", 1)
TEAM_NODE = Team(0, "TEAM_NODE", 2)
TEAM_SAME_MYPE_NODE = Team(0, "TEAM_SAME_MYPE_NODE", 3)
_PREDEFINED = (TEAM_WORLD, TEAM_SHARED, TEAM_NODE, TEAM_SAME_MYPE_NODE)
_splits: Dict[int, Team] = {}  # index -> live split team


class Teams:
    """NVSHMEM4Py's names of the predefined teams (nvshmem.core.Teams)."""
    TEAM_WORLD = TEAM_WORLD
    TEAM_SHARED = TEAM_SHARED
    TEAM_NODE = TEAM_NODE
    TEAM_SAME_MYPE_NODE = TEAM_SAME_MYPE_NODE
    TEAM_INVALID = None


def _predefined_handle(index: int) -> int:
    lib = _lib.lib()
    if index == 0:
        return ctypes.addressof(ctypes.c_char.in_dll(lib, "symm_team_world"))
    if index in (1, 2):
        return ctypes.addressof(ctypes.c_char.in_dll(lib, "symm_team_shared"))
    return index + 1  # SHMEMX_TEAM_OF_INDEX(index)


def team_of(call: str, team: TeamLike) -> Team:
    """The Team of a Team, an NVSHMEM team index or None (the world)."""
    if team is None:
        return TEAM_WORLD
    if isinstance(team, Team):
        return team
    if isinstance(team, int) and not isinstance(team, bool):
        if 0 <= team < len(_PREDEFINED):
            return _PREDEFINED[team]
        t = _splits.get(team)
        if t is not None:
            return t
    raise InvalidArgument("%s(team=%r): not a team of this PE (a symm.Team, an NVSHMEM team "
                          "index, or None for the world)" % (call, team))


def _ended() -> None:
    """At finalize: split teams end with the job; the predefined ones forget their size."""
    for t in _splits.values():
        t._alive = False
    _splits.clear()
    for t in _PREDEFINED:
        t._n = 0


def team_my_pe(team: TeamLike) -> int:
    """This PE's number in team (shmem_team_my_pe)."""
    return team_of("symm.team_my_pe", team).my_pe()


def team_n_pes(team: TeamLike) -> int:
    """The number of PEs of team (shmem_team_n_pes)."""
    return team_of("symm.team_n_pes", team).n_pes()


def team_translate_pe(src_team: TeamLike, src_pe: int, dest_team: TeamLike) -> int:
    """src_team's PE src_pe numbered in dest_team, or -1 (shmem_team_translate_pe)."""
    return team_of("symm.team_translate_pe", src_team).translate_pe(src_pe, dest_team)


def _config(call: str, config: Any, mask: int):
    if config is None or not mask:
        return None
    n = config if isinstance(config, int) else getattr(config, "num_contexts", None)
    if n is None and isinstance(config, dict):
        n = config.get("num_contexts")
    if n is None:
        raise InvalidArgument("%s(config=%r): a config gives num_contexts (an int, a dict or "
                              "an object with that attribute)" % (call, config))
    return ctypes.byref(ctypes.c_int(int(n)))


def _new_team(call: str, h: int) -> Optional[Team]:
    if not h:
        return None
    t = Team(h, "")
    t.name = "team %d" % t.index()
    _splits[t._index] = t
    return t


def team_split_strided(parent: TeamLike, start: int, stride: int, size: int,
                       config: Any = None, config_mask: int = 0) -> Optional[Team]:
    """A new team of parent's PEs start, start + stride, ... (size of them): collective over
    parent (shmem_team_split_strided). Returns None on PEs outside the new team."""
    call = "symm.team_split_strided"
    p = team_of(call, parent)
    ph = p.handle(call)
    n = p.n_pes()
    start, stride, size = int(start), int(stride), int(size)
    if size < 1 or not 0 <= start < n or (size > 1 and stride < 1) or \
            start + (size - 1) * (stride if size > 1 else 0) >= n:
        raise InvalidArgument("%s(start=%d, stride=%d, size=%d): outside the parent team of %d "
                              "PEs" % (call, start, stride, size, n))
    out = _P(0)
    rc = _lib.lib().shmem_team_split_strided(ph, start, stride, size,
                                             _config(call, config, config_mask),
                                             config_mask if config is not None else 0,
                                             ctypes.byref(out))
    if rc != 0:
        raise SymmError("%s(start=%d, stride=%d, size=%d): no free team slot (symm holds 64 "
                        "teams at once; destroy some)" % (call, start, stride, size))
    return _new_team(call, out.value or 0)


def team_split_2d(parent: TeamLike, xrange: int, xaxis_config: Any = None,
                  xaxis_mask: int = 0, yaxis_config: Any = None,
                  yaxis_mask: int = 0) -> Tuple[Team, Team]:
    """parent as a grid of rows of xrange PEs: (this PE's row team, its column team),
    collective over parent (shmem_team_split_2d)."""
    call = "symm.team_split_2d"
    p = team_of(call, parent)
    ph = p.handle(call)
    xrange = int(xrange)
    if xrange < 1:
        raise InvalidArgument("%s(xrange=%d): at least 1" % (call, xrange))
    x, y = _P(0), _P(0)
    rc = _lib.lib().shmem_team_split_2d(ph, xrange, _config(call, xaxis_config, xaxis_mask),
                                        xaxis_mask if xaxis_config is not None else 0,
                                        ctypes.byref(x),
                                        _config(call, yaxis_config, yaxis_mask),
                                        yaxis_mask if yaxis_config is not None else 0,
                                        ctypes.byref(y))
    if rc != 0:
        raise SymmError("%s(xrange=%d): no free team slots (symm holds 64 teams at once; "
                        "destroy some)" % (call, xrange))
    return _new_team(call, x.value or 0), _new_team(call, y.value or 0)


def get_team_unique_id() -> int:
    """A fresh id for a team whose members know only it (shmemx_team_get_uniqueid); any PE,
    not collective. The program hands it to the members."""
    need_init("symm.get_team_unique_id")
    uid = ctypes.c_uint64(0)
    _lib.typed("shmemx_team_get_uniqueid", ctypes.c_int,
               [ctypes.POINTER(ctypes.c_uint64)])(ctypes.byref(uid))
    return uid.value


def team_init(uniqueid: int, npes: int, pe_idx_in_team: int, config: Any = None,
              config_mask: int = 0) -> Team:
    """The team of npes members that pass the same id, this PE member pe_idx_in_team
    (shmemx_team_init; collective over the members, which must be world PEs start + i * stride,
    as every symm team is)."""
    call = "symm.team_init"
    need_init(call)
    npes, idx = int(npes), int(pe_idx_in_team)
    if not 1 <= npes <= S.npes:
        raise InvalidArgument("%s(npes=%d): 1..%d" % (call, npes, S.npes))
    check_pe(call, "pe_idx_in_team", idx, npes)
    out = _P(0)
    rc = _lib.typed("shmemx_team_init", ctypes.c_int,
                    [ctypes.c_uint64, ctypes.c_int, ctypes.c_int, _P, ctypes.c_long,
                     ctypes.POINTER(_P)])(int(uniqueid), npes, idx,
                                          _config(call, config, config_mask),
                                          config_mask if config is not None else 0,
                                          ctypes.byref(out))
    if rc != 0 or not out.value:
        raise SymmError("%s(npes=%d): no free team slot on some member (symm holds 64 teams "
                        "at once; destroy some)" % (call, npes))
    return _new_team(call, out.value)


def team_destroy(team: TeamLike) -> None:
    """Ends team, a split team (collective over its members; shmem_team_destroy)."""
    call = "symm.team_destroy"
    t = team_of(call, team)
    if t in _PREDEFINED:
        raise InvalidArgument("%s(team=%s): a predefined team cannot be destroyed"
                              % (call, t.name))
    h = t.handle(call)
    _splits.pop(t._index, None)
    t._alive = False
    _lib.lib().shmem_team_destroy(h)


# ---- Synchronisation ---------------------------------------------------------------------------
def _stream_only(call: str, stream: Any) -> Optional[int]:
    if stream is None:
        return None
    return _core.stream_handle(call, stream, _NOBUF)


_NOBUF = Buf(None, 0, 0, 0, (), None, None, True, "")


def barrier(team: Any = None, stream: Any = None) -> None:
    """Completes this PE's puts and waits until every member of team (default: the world) has
    arrived: shmem_barrier_all for the world, else shmem_quiet and shmem_team_sync. With a
    stream the barrier is enqueued on it (shmemx_barrier_all_on_stream,
    shmemx_barrier_on_stream): every member's stream reaches it before any goes past."""
    if team is None and stream is None and S.initialized:
        _lib.lib().shmem_barrier_all()
        return
    if stream is None and team is not None and _core.is_stream(team):
        team, stream = None, team  # barrier(stream), as this package's first release took it
    call = "symm.barrier"
    t = team_of(call, team)
    h = t.handle(call)
    s = _stream_only(call, stream)
    lib = _lib.lib()
    if t is TEAM_WORLD:
        if s is None:
            lib.shmem_barrier_all()
        else:
            lib.shmemx_barrier_all_on_stream(s)
    elif s is None:
        lib.shmem_quiet()
        lib.shmem_team_sync(h)
    else:
        lib.shmemx_barrier_on_stream(h, s)


def barrier_all(stream: Any = None) -> None:
    """barrier over the world (shmem_barrier_all; shmemx_barrier_all_on_stream)."""
    barrier(None, stream)


def sync(team: Any = None, stream: Any = None) -> None:
    """Waits until every member of team (default: the world) has arrived, without completing
    puts (shmem_team_sync, shmem_sync_all; with a stream shmemx_team_sync_on_stream,
    shmemx_sync_all_on_stream)."""
    call = "symm.sync"
    t = team_of(call, team)
    h = t.handle(call)
    s = _stream_only(call, stream)
    lib = _lib.lib()
    if t is TEAM_WORLD:
        if s is None:
            lib.shmem_sync_all()
        else:
            lib.shmemx_sync_all_on_stream(s)
    elif s is None:
        lib.shmem_team_sync(h)
    else:
        lib.shmemx_team_sync_on_stream(h, s)


def sync_all(stream: Any = None) -> None:
    """sync over the world (shmem_sync_all; shmemx_sync_all_on_stream)."""
    sync(None, stream)


# ---- Collectives -------------------------------------------------------------------------------
def _pair(call: str, team: TeamLike, dst: Any, src: Any, dst_local: bool = False):
    """team, its handle and size, the two buffers described and checked: contiguous, one
    dtype, both host or both device memory, symmetric (dst need not be where dst_local)."""
    t = team_of(call, team)
    h = t.handle(call)
    d = describe(call, "dst", dst)
    s = describe(call, "src", src)
    if d.dtype is not s.dtype:
        raise InvalidDtype("%s(dst dtype=%s, src dtype=%s): the dtypes differ"
                           % (call, d.dtype, s.dtype))
    contiguous(call, "dst", d)
    contiguous(call, "src", s)
    if d.device != s.device:
        raise InvalidArgument("%s(dst on the %s, src on the %s): both host memory or both "
                              "device memory" % (call, "device" if d.device else "host",
                                                 "device" if s.device else "host"))
    symmetric(call, "src", s)
    if not dst_local:
        symmetric(call, "dst", d)
    return t, h, d, s


def _fast(call: str, team: TeamLike, dst: Any, src: Any, stream: Any):
    """The stream collectives' fast path: two torch tensors of one dtype, contiguous, in this
    PE's device heap, and a torch stream or a raw handle: (team, its handle, dst, src, the
    stream's handle), each buffer as (address, elements, row). None sends the call the
    general way (_pair), which checks everything and names what is wrong."""
    p = _core.torch_pair(dst, src, stream)
    if p is None:
        return None
    d, s, st = p
    if not _core.in_device_heap(d[0], d[1] * d[2].size) or \
            not _core.in_device_heap(s[0], s[1] * s[2].size):
        return None
    t = team_of(call, team)
    return t, t.handle(call), d, s, st


def _sizes(call: str, what: str, got: int, want: int, unit: str = "elements") -> None:
    if got != want:
        raise InvalidArgument("%s(%s): %d %s, the call needs %d" % (call, what, got, unit, want))


def broadcast(team: TeamLike, dst: Any, src: Any, root: int = 0, stream: Any = None) -> None:
    """Copies src of team member root into dst on every member (root's too), dst and src of
    the same size (shmem_broadcastmem; device: shmemx_broadcastmem_on_stream)."""
    call = "symm.broadcast"
    f = _fast(call, team, dst, src, stream)
    if f is not None and f[2][1] == f[3][1] and type(root) is int and \
            0 <= root < f[0].n_pes():
        _lib.lib().shmemx_broadcastmem_on_stream(f[1], f[2][0], f[3][0],
                                                 f[3][1] * f[3][2].size, root, f[4])
        return
    t, h, d, s = _pair(call, team, dst, src)
    n = t.n_pes()
    root = check_pe(call, "root", root, n)
    _sizes(call, "dst size", d.count, s.count)
    st = stream_of(call, stream, d, "dst")
    if st is None:
        _lib.lib().shmem_broadcastmem(h, d.addr, s.addr, s.nbytes, root)
    else:
        _lib.lib().shmemx_broadcastmem_on_stream(h, d.addr, s.addr, s.nbytes, root, st)


def fcollect(team: TeamLike, dst: Any, src: Any, stream: Any = None) -> None:
    """Concatenates every member's src into dst in team order: dst holds n_pes(team) times
    src's elements (shmem_fcollectmem; device: shmemx_fcollectmem_on_stream)."""
    call = "symm.fcollect"
    f = _fast(call, team, dst, src, stream)
    if f is not None and f[2][1] == f[3][1] * f[0].n_pes():
        _lib.lib().shmemx_fcollectmem_on_stream(f[1], f[2][0], f[3][0], f[3][1] * f[3][2].size,
                                                f[4])
        return
    t, h, d, s = _pair(call, team, dst, src)
    _sizes(call, "dst size", d.count, s.count * t.n_pes())
    st = stream_of(call, stream, d, "dst")
    if st is None:
        _lib.lib().shmem_fcollectmem(h, d.addr, s.addr, s.nbytes)
    else:
        _lib.lib().shmemx_fcollectmem_on_stream(h, d.addr, s.addr, s.nbytes, st)


def collect(team: TeamLike, dst: Any, src: Any, nelems: Optional[int] = None,
            stream: Any = None) -> None:
    """Concatenates every member's first nelems elements of src (default: all of src; the
    counts may differ across members) into dst in team order (shmem_collectmem). dst must
    hold the sum of the counts, which the C call does not check: a short dst is overrun.
    Host memory only (the C API has no collect on device memory)."""
    call = "symm.collect"
    t, h, d, s = _pair(call, team, dst, src)
    count = s.count if nelems is None else int(nelems)
    if not 0 <= count <= s.count:
        raise InvalidArgument("%s(nelems=%d): src has %d elements" % (call, count, s.count))
    if count > d.count:
        raise InvalidArgument("%s(nelems=%d): dst has %d elements" % (call, count, d.count))
    if d.device:
        raise InvalidArgument("%s(dst on the device): symm's C API has collect on host memory "
                              "only (fcollect has a stream form)" % call)
    _core.host_only(call, stream, d, "dst")
    _lib.lib().shmem_collectmem(h, d.addr, s.addr, count * s.dtype.size)


def alltoall(team: TeamLike, dst: Any, src: Any, stream: Any = None) -> None:
    """Block j of src goes to member j, into block i of its dst (i this PE's number): src
    and dst of the same size, n_pes(team) blocks each (shmem_alltoallmem; device:
    shmemx_alltoallmem_on_stream)."""
    call = "symm.alltoall"
    f = _fast(call, team, dst, src, stream)
    if f is not None and f[2][1] == f[3][1] and f[3][1] % (n := f[0].n_pes()) == 0:
        _lib.lib().shmemx_alltoallmem_on_stream(f[1], f[2][0], f[3][0],
                                                f[3][1] * f[3][2].size // n, f[4])
        return
    t, h, d, s = _pair(call, team, dst, src)
    n = t.n_pes()
    _sizes(call, "dst size", d.count, s.count)
    if s.count % n:
        raise InvalidArgument("%s(src size=%d): not a multiple of the team's %d PEs"
                              % (call, s.count, n))
    block = s.nbytes // n
    st = stream_of(call, stream, d, "dst")
    if st is None:
        _lib.lib().shmem_alltoallmem(h, d.addr, s.addr, block)
    else:
        _lib.lib().shmemx_alltoallmem_on_stream(h, d.addr, s.addr, block, st)


_OPS = ("sum", "min", "max", "prod", "and", "or", "xor")


_reduce_fns: dict = {}  # (row, op, scatter, on_stream) -> the C routine


def _reduce_fn(call: str, row: _core.DType, op: Any, scatter: bool, on_stream: bool):
    if not isinstance(op, str):
        return _reduce_lookup(call, row, op, scatter, on_stream)  # raises
    key = (row, op, scatter, on_stream)
    fn = _reduce_fns.get(key)
    if fn is None:
        fn = _reduce_fns[key] = _reduce_lookup(call, row, op, scatter, on_stream)
    return fn


def _reduce_lookup(call: str, row: _core.DType, op: Any, scatter: bool, on_stream: bool):
    if not isinstance(op, str) or op.lower() not in _OPS:
        raise InvalidArgument("%s(op=%r): one of %s" % (call, op, ", ".join(_OPS)))
    op = op.lower()
    if op not in row.ops:
        raise InvalidDtype("%s(op=%r): no %s reduction on %s (its operators: %s)"
                           % (call, op, op, row, ", ".join(row.ops)))
    if on_stream and not row.dev:
        raise InvalidDtype("%s(dtype=%s): no reductions of %s on the GPU (%s)"
                           % (call, row, row, _core.dtype_names(lambda r: r.dev)))
    x = "x" if scatter or on_stream or row.c in ("half", "bfloat16") else ""
    name = "shmem%s_%s_%s_%s%s" % (x, row.c, op, "reducescatter" if scatter else "reduce",
                                   "_on_stream" if on_stream else "")
    args = [_P, _P, _P, ctypes.c_size_t] + ([_P] if on_stream else [])
    fn = _lib.typed(name, ctypes.c_int, args)
    if fn is None:
        raise InvalidDtype("%s(dtype=%s, op=%r): this libsymm has no %s" % (call, row, op, name))
    return fn


def reduce(team: TeamLike, dst: Any, src: Any, op: str, stream: Any = None) -> None:
    """dst on every member: src combined element-wise over the team by op ("sum", "min",
    "max", "prod"; "and", "or", "xor" on integers), in team order, so every member gets the
    same bits; dst and src of the same size, dst may be src (shmem_TYPE_OP_reduce; device:
    shmemx_TYPE_OP_reduce_on_stream)."""
    call = "symm.reduce"
    f = _fast(call, team, dst, src, stream)
    if f is not None and f[2][1] == f[3][1]:
        h, (d_addr, _, _), (s_addr, count, row), st = f[1:]
    else:
        t, h, d, s = _pair(call, team, dst, src)
        _sizes(call, "dst size", d.count, s.count)
        st = stream_of(call, stream, d, "dst")
        d_addr, s_addr, count, row = d.addr, s.addr, s.count, s.dtype
    fn = _reduce_fn(call, row, op, False, st is not None)
    rc = fn(h, d_addr, s_addr, count) if st is None else fn(h, d_addr, s_addr, count, st)
    if rc:
        raise SymmError("%s: the C call returned %d" % (call, rc))


def reducescatter(team: TeamLike, dst: Any, src: Any, op: str, stream: Any = None) -> None:
    """src holds one block of dst's size per member; dst on member i: block i of every
    member's src combined by op, in team order (shmemx_TYPE_OP_reducescatter; device:
    shmemx_TYPE_OP_reducescatter_on_stream)."""
    call = "symm.reducescatter"
    t, h, d, s = _pair(call, team, dst, src, dst_local=True)
    _sizes(call, "src size", s.count, d.count * t.n_pes())
    st = stream_of(call, stream, d, "dst")
    fn = _reduce_fn(call, s.dtype, op, True, st is not None)
    rc = fn(h, d.addr, s.addr, d.count) if st is None else fn(h, d.addr, s.addr, d.count, st)
    if rc:
        raise SymmError("%s: the C call returned %d" % (call, rc))
