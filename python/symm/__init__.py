# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The symm authors
"""symm from Python: the host interface of OpenSHMEM and NVSHMEM on NumPy arrays, torch tensors
and CuPy arrays, pure Python over libsymm (ctypes), no compile step.

    import symm
    symm.init()
    me, n = symm.my_pe(), symm.n_pes()
    a = symm.array(1024, "float32")          # NumPy array on the symmetric host heap
    sig = symm.array(1, "uint64")
    symm.put_signal(a, src, sig, 1, symm.SIGNAL_SET, (me + 1) % n)
    symm.signal_wait(sig, 1, symm.CMP_GE)
    symm.reduce(symm.TEAM_WORLD, a, a, "sum")
    symm.finalize()

Started as any symm program: `symmrun -n 2 python3 prog.py`, `mpirun -np 2 python3 prog.py`
(or with an mpi4py communicator: symm.init(mpi_comm=comm)); by torchrun or mp.spawn, whose
processes join through a unique id (symm.init after torch.distributed's, or with the id passed
by hand: symm.get_unique_id, symm.init(unique_id, rank, world_size)); or alone, a job of one
PE.

Memory: symm.array (NumPy on the host heap; CuPy on the device heap of a GPU PE),
symm.tensor (torch, on this PE's GPU or, with device="cpu", the host heap), symm.free,
symm.peer (the same buffer on a PE this process reaches by load and store, None across
nodes). Allocation is collective (every PE, same order, same arguments), as shmem_malloc;
symm.free and symm.finalize end the memory's life, whatever Python objects still refer to it.

Communication: put, get, put_signal, signal_op, signal_wait, wait_until, fence, quiet
(symm.rma); atomics (symm.amo); teams and collectives (symm.coll): every call reaches PEs of
other nodes too. On device memory every call takes stream= and is stream-ordered, as in
NVSHMEM4Py; on host memory calls are host-blocking. A bad argument (a PE out of range, memory
that is not symmetric, a dtype the call lacks, sizes that do not fit) raises
symm.InvalidArgument or symm.InvalidDtype, naming the call and the value, before anything is
sent. symm.ep has MoE dispatch and combine (docs/ep.md); docs/python.md maps every call to
NVSHMEM4Py's and to the C routine it wraps."""

import ctypes
import os
import sys
import weakref
from collections import namedtuple
from typing import Any, Optional, Sequence, Tuple, Union

from . import _core, _dlpack, _lib, coll
from ._core import S as _S, InvalidArgument, InvalidDtype, SymmError
from .rma import (SignalOp, ComparisonType, SIGNAL_SET, SIGNAL_ADD, CMP_EQ, CMP_NE, CMP_GT,
                  CMP_GE, CMP_LT, CMP_LE, put, get, put_signal, signal_op, signal_wait,
                  signal_fetch, wait_until, test, fence, quiet)
from .amo import (fetch_add, add, fetch_inc, inc, cswap, compare_swap, swap, fetch, fetch_and,
                  fetch_or, fetch_xor, atomic_set, atomic_and, atomic_or, atomic_xor)
from .coll import (Team, Teams, TEAM_WORLD, TEAM_SHARED, TEAM_NODE, TEAM_SAME_MYPE_NODE,
                   team_my_pe, team_n_pes, team_translate_pe, team_split_strided, team_split_2d,
                   team_destroy, get_team_unique_id, team_init, barrier, barrier_all, sync,
                   sync_all, broadcast, fcollect, collect, alltoall, reduce, reducescatter)

set = atomic_set  # symm.set, as the other atomics are named (not exported by `import *`)

__all__ = [
    # start and queries
    "init", "get_unique_id", "finalize", "initialized", "get_version", "Version", "my_pe",
    "n_pes", "gpu_device",
    # memory
    "array", "tensor", "peer", "free", "free_array", "free_tensor", "get_peer_array",
    "get_peer_tensor", "register_buffer", "unregister_buffer", "module_init", "module_finalize",
    "library_init", "library_finalize",
    # RMA, signals, waits, ordering (rma.py)
    "SignalOp", "ComparisonType", "SIGNAL_SET", "SIGNAL_ADD", "CMP_EQ", "CMP_NE", "CMP_GT",
    "CMP_GE", "CMP_LT", "CMP_LE", "put", "get", "put_signal", "signal_op", "signal_wait",
    "signal_fetch", "wait_until", "test", "fence", "quiet",
    # atomics (amo.py; symm.set as well, left out of `import *`)
    "fetch_add", "add", "fetch_inc", "inc", "cswap", "compare_swap", "swap", "fetch",
    "fetch_and", "fetch_or", "fetch_xor", "atomic_set", "atomic_and", "atomic_or", "atomic_xor",
    # teams and collectives (coll.py)
    "Team", "Teams", "TEAM_WORLD", "TEAM_SHARED", "TEAM_NODE", "TEAM_SAME_MYPE_NODE",
    "team_my_pe", "team_n_pes", "team_translate_pe", "team_split_strided", "team_split_2d",
    "team_destroy", "get_team_unique_id", "team_init", "barrier", "barrier_all", "sync",
    "sync_all", "broadcast", "fcollect", "collect", "alltoall", "reduce", "reducescatter",
    # errors, MoE buffers
    "SymmError", "InvalidArgument", "InvalidDtype", "ep"]

_blocks = {}   # address -> "host" or "device": the allocations made here, until freed

Version = namedtuple("Version", "openshmem_spec_version libsymm_version")
Version.__doc__ = """The OpenSHMEM specification libsymm implements ("1.5") and its vendor
string ("symm 0.1.0"): shmem_info_get_version, shmem_info_get_name."""


def get_unique_id() -> bytes:
    """A fresh unique id (bytes) for a job of processes that symm's launchers did not start
    (shmemx_get_uniqueid). The process that makes it must be one of the job: it serves the
    others' joining."""
    uid = _lib.UniqueId()
    _lib.lib().shmemx_get_uniqueid(ctypes.byref(uid))
    return ctypes.string_at(ctypes.addressof(uid), ctypes.sizeof(uid))


def _started_by_symm() -> bool:
    return bool(os.environ.get("SYMM_BOOT") or os.environ.get("PMIX_RANK"))


def _device_setting(device: Any) -> Optional[str]:
    """What init's device says: None (not said), "cpu", or "cuda" (after pointing
    SYMM_GPU_DEVICE at an index given with it)."""
    if device is None:
        return None
    if isinstance(device, str):
        kind, _, index = device.partition(":")
    else:  # torch.device, cuda.core's Device, an index
        kind = getattr(device, "type", "cuda")
        index = getattr(device, "index", getattr(device, "device_id", device))
        index = "" if index is None or isinstance(index, str) else str(int(index))
    if kind not in ("cpu", "cuda"):
        raise InvalidArgument("symm.init(device=%r): \"cpu\", \"cuda\", \"cuda:N\", a "
                              "torch.device or a CUDA device" % (device,))
    if kind == "cuda":
        if index:
            os.environ["SYMM_GPU_DEVICE"] = index
        os.environ.setdefault("SYMM_GPU", "1")
    return kind


def init(unique_id: Optional[bytes] = None, rank: Optional[int] = None,
         world_size: Optional[int] = None, mpi_comm: Any = None, device: Any = None) -> None:
    """Starts this PE (collective).

    Under symmrun, mpirun or srun, or alone: shmem_init. With mpi_comm (an mpi4py
    communicator) its ranks become the PEs (shmemx_init_attr with SHMEMX_INIT_WITH_MPI_COMM),
    as nvshmem.core.init(mpi_comm=...). Processes started otherwise (torchrun, mp.spawn)
    form a job through a unique id: pass the bytes of symm.get_unique_id() from one of them,
    with this process's rank and the job size; or initialise torch.distributed first and call
    symm.init(): rank 0 of its default group makes the id and broadcasts it, and the group's
    ranks become the PEs.

    device: "cuda" (or "cuda:N", a torch.device, a CUDA device object) makes this a GPU PE:
    its GPU part starts here (SYMM_GPU=1; an index sets SYMM_GPU_DEVICE) and symm.array gives
    CuPy arrays on the device heap; "cpu" a CPU PE. By default the GPU part starts when a
    device buffer is first made, and symm.array gives NumPy arrays."""
    lib = _lib.lib()
    kind = _device_setting(device)
    if mpi_comm is not None:
        if unique_id is not None:
            raise InvalidArgument("symm.init: a unique id or an MPI communicator, not both")
        _init_mpi(lib, mpi_comm)
    else:
        if unique_id is None and not _started_by_symm():
            dist = _torch_distributed()
            if dist is not None and dist.get_world_size() > 1:
                rank, world_size = dist.get_rank(), dist.get_world_size()
                box = [get_unique_id() if rank == 0 else None]
                dist.broadcast_object_list(box, src=0)
                unique_id = box[0]
        if unique_id is None:
            lib.shmem_init()
        else:
            if rank is None or world_size is None:
                raise InvalidArgument("symm.init: a unique id needs this process's rank and "
                                      "the job size")
            if not 0 <= int(rank) < int(world_size):
                raise InvalidArgument("symm.init(rank=%d, world_size=%d): rank out of range"
                                      % (rank, world_size))
            uid = _lib.UniqueId.from_buffer_copy(bytes(unique_id))
            attr = _lib.InitAttr()
            lib.shmemx_set_attr_uniqueid_args(int(rank), int(world_size), ctypes.byref(uid),
                                              ctypes.byref(attr))
            lib.shmemx_init_attr(_lib.SHMEMX_INIT_WITH_UNIQUEID, ctypes.byref(attr))
    _S.started()
    _S.device = kind if kind is not None else \
        {"1": "cuda", "0": "cpu"}.get(os.environ.get("SYMM_GPU", ""))


_SHMEMX_INIT_WITH_MPI_COMM = 1 << 1


def _init_mpi(lib, comm: Any) -> None:
    """shmemx_init_attr with the MPI_Comm behind an mpi4py communicator."""
    try:
        from mpi4py import MPI
    except ImportError:
        raise InvalidArgument("symm.init(mpi_comm=...): an mpi4py communicator, and mpi4py "
                              "is not installed") from None
    if not isinstance(comm, MPI.Comm):
        raise InvalidArgument("symm.init(mpi_comm=%r): not an mpi4py communicator" % (comm,))
    attr = _lib.InitAttr()
    attr.version = (1 << 16) + ctypes.sizeof(_lib.InitAttr)
    attr.mpi_comm = MPI._addressof(comm)
    lib.shmemx_init_attr(_SHMEMX_INIT_WITH_MPI_COMM, ctypes.byref(attr))


def _torch_distributed():
    """torch.distributed when it is imported and initialised, else None."""
    torch = sys.modules.get("torch")
    if torch is None:
        return None
    dist = getattr(torch, "distributed", None)
    if dist is None or not dist.is_available() or not dist.is_initialized():
        return None
    return dist


def finalize() -> None:
    """Ends this PE (collective, shmem_finalize). Arrays on symmetric memory and split teams
    must not be used afterwards."""
    _blocks.clear()
    _empty.clear()
    coll._ended()
    _lib.lib().shmem_finalize()
    _S.ended()


def initialized() -> bool:
    """Whether this PE is between init and finalize (shmemx_query_initialized)."""
    flag = ctypes.c_int(0)
    _lib.lib().shmemx_query_initialized(ctypes.byref(flag))
    return bool(flag.value)


def get_version() -> Version:
    """The OpenSHMEM version and the library's name (shmem_info_get_version,
    shmem_info_get_name)."""
    lib = _lib.lib()
    major, minor = ctypes.c_int(0), ctypes.c_int(0)
    lib.shmem_info_get_version(ctypes.byref(major), ctypes.byref(minor))
    name = ctypes.create_string_buffer(256)
    lib.shmem_info_get_name(name)
    return Version("%d.%d" % (major.value, minor.value), name.value.decode())


def my_pe() -> int:
    """This PE's number in the job (shmem_my_pe)."""
    _core.need_init("symm.my_pe")
    return _S.me


def n_pes() -> int:
    """The number of PEs of the job (shmem_n_pes)."""
    _core.need_init("symm.n_pes")
    return _S.npes


def _shape(shape: Union[int, Sequence[int]]) -> Tuple[Tuple[int, ...], int]:
    shape = (shape,) if isinstance(shape, int) else tuple(int(s) for s in shape)
    if any(s < 0 for s in shape):
        raise InvalidArgument("symm: negative dimension in shape %s" % (shape,))
    count = 1
    for s in shape:
        count *= s
    return shape, count


def _numpy():
    import numpy
    return numpy


def _torch():
    try:
        import torch
    except ImportError:
        raise ImportError("symm.tensor needs PyTorch (symm.array gives NumPy arrays)") from None
    return torch


def _cupy():
    try:
        import cupy
    except ImportError:
        raise ImportError("symm.array on the device needs CuPy (symm.tensor gives torch "
                          "tensors)") from None
    return cupy


def _alloc(nbytes: int, device: bool) -> int:
    """A new block of the host heap, or of the device heap (collective)."""
    _core.need_init("symm.array" if not device else "symm.tensor")
    lib = _lib.lib()
    if device and not _lib.has("shmemx_malloc_device"):
        raise SymmError("symm: this libsymm was built without CUDA: no GPU heap")
    ptr = (lib.shmemx_malloc_device if device else lib.shmem_malloc)(max(nbytes, 1))
    if not ptr:
        raise MemoryError("symm: the %s heap cannot hold %d more bytes on some PE (%s sets its "
                          "size)" % ("device" if device else "symmetric", nbytes,
                                     "SYMM_DEVICE_HEAP_SIZE" if device
                                     else "SHMEM_SYMMETRIC_SIZE"))
    _blocks[ptr] = "device" if device else "host"
    return ptr


def gpu_device() -> int:
    """The CUDA device index of this PE's GPU (-1 before the GPU part starts;
    shmemx_gpu_device)."""
    return _lib.lib().shmemx_gpu_device() if _lib.has("shmemx_gpu_device") else -1


def _host_array(ptr: int, shape, dtype):
    """NumPy's view of host memory: through a ctypes buffer, which NumPy keeps alive and may
    write (its DLPack import gives read-only arrays)."""
    np = _numpy()
    dtype = np.dtype(dtype)
    _, count = _shape(shape)
    raw = (ctypes.c_char * max(count * dtype.itemsize, 1)).from_address(ptr)
    return np.frombuffer(raw, dtype=dtype, count=count).reshape(shape)


def _torch_view(ptr: int, shape, dtype, device_type: int, device_id: int):
    """A torch tensor of shape and dtype over memory the library owns: bytes handed over by
    DLPack, viewed as dtype (so every dtype torch has travels, whatever DLPack codes this
    torch version knows)."""
    torch = _torch()
    shape, count = _shape(shape)
    size = torch.empty((), dtype=dtype).element_size()
    cap = _dlpack.capsule(ptr, (count * size,), _dlpack.UINT, 8, device_type, device_id)
    return torch.utils.dlpack.from_dlpack(cap).view(dtype).reshape(shape)


def _device_tensor(ptr: int, shape, dtype):
    return _torch_view(ptr, shape, dtype, _dlpack.KDL_CUDA, gpu_device())


def _host_tensor(ptr: int, shape, dtype):
    return _torch_view(ptr, shape, dtype, _dlpack.KDL_CPU, 0)


def _device_array(ptr: int, shape, dtype, owner: Any = None):
    """A CuPy array over device memory that the library owns."""
    cupy = _cupy()
    np = _numpy()
    dtype = np.dtype(dtype)
    _, count = _shape(shape)
    mem = cupy.cuda.UnownedMemory(ptr, max(count * dtype.itemsize, 1), owner,
                                  device_id=gpu_device())
    return cupy.ndarray(shape, dtype, cupy.cuda.MemoryPointer(mem, 0))


def _array_device(device: Optional[str]) -> str:
    if device is None:  # a GPU PE's arrays are CuPy's where CuPy is installed
        if _S.device != "cuda":
            return "cpu"
        try:
            __import__("cupy")  # installed: the array is CuPy's
        except ImportError:
            return "cpu"
        return "cuda"
    if device not in ("cpu", "cuda"):
        raise InvalidArgument("symm.array(device=%r): \"cpu\" or \"cuda\"" % (device,))
    return device


def array(shape: Union[int, Sequence[int]], dtype: Any = "float32",
          device: Optional[str] = None):
    """An array of `shape` and `dtype` in a new block of a symmetric heap (collective): a
    NumPy array on the host heap, or, with device="cuda" (the default on a GPU PE where CuPy
    is installed, see init), a CuPy array on the device heap of this PE's GPU. Its contents
    are undefined, as shmem_malloc's (shmem_malloc, shmemx_malloc_device)."""
    np = _numpy()
    shape, count = _shape(shape)
    dtype = np.dtype(dtype)
    if _array_device(device) == "cuda":
        _cupy()
        ptr = _alloc(count * dtype.itemsize, True)
        _cupy().cuda.Device(gpu_device()).use()
        return _empty_block(_device_array(ptr, shape, dtype), ptr, count)
    ptr = _alloc(count * dtype.itemsize, False)
    return _empty_block(_host_array(ptr, shape, dtype), ptr, count)


def tensor(shape: Union[int, Sequence[int]], dtype: Any = None, device: Any = None):
    """A torch tensor of `shape` and `dtype` (default torch.float32) in a new block of a
    symmetric heap (collective): on the device heap of this PE's GPU, which becomes torch's
    current device (device "cuda", the default where torch sees a GPU and this PE is not a
    CPU PE), or on the host heap (device "cpu"). Its contents are undefined."""
    torch = _torch()
    dtype = torch.float32 if dtype is None else dtype
    if device is None:
        on_gpu = _S.device != "cpu" and torch.cuda.is_available()
    else:
        kind = device if isinstance(device, str) else getattr(device, "type", None)
        kind = kind.partition(":")[0] if isinstance(kind, str) else kind
        if kind not in ("cpu", "cuda"):
            raise InvalidArgument("symm.tensor(device=%r): \"cpu\" or \"cuda\"" % (device,))
        on_gpu = kind == "cuda"
    if _core.torch_dtype_name(dtype) not in _core.DTYPES:  # before the collective call
        raise InvalidDtype("symm.tensor(dtype=%s): not a dtype of symm's C API (%s)"
                           % (dtype, _core.dtype_names(lambda r: True)))
    shape, count = _shape(shape)
    ptr = _alloc(count * torch.empty((), dtype=dtype).element_size(), on_gpu)
    if not on_gpu:
        return _empty_block(_host_tensor(ptr, shape, dtype), ptr, count)
    torch.cuda.set_device(gpu_device())
    return _empty_block(_device_tensor(ptr, shape, dtype), ptr, count)


_empty = {}   # id -> (weak reference, address): blocks of zero elements, whose arrays or
              # tensors may not show their address


def _empty_block(x: Any, ptr: int, count: int):
    if count == 0:
        try:
            _empty[id(x)] = (weakref.ref(x, lambda _, k=id(x): _empty.pop(k, None)), ptr)
        except TypeError:
            pass
    return x


def _address(x: Any) -> int:
    if hasattr(x, "data_ptr"):
        return x.data_ptr()
    if type(x).__module__.startswith("cupy"):
        return x.data.ptr
    return x.__array_interface__["data"][0]


def peer(x: Any, pe: int):
    """The same array (or tensor) on PE pe, as this process reaches it by load and store
    (shmem_ptr), or None when pe is on another node, as nvshmem_ptr. x must be symmetric and
    contiguous."""
    call = "symm.peer"
    b = _core.describe(call, "x", x)
    pe = _core.check_pe(call, "pe", pe)
    _core.symmetric(call, "x", b)
    _core.contiguous(call, "x", b)
    ptr = _lib.lib().shmem_ptr(ctypes.c_void_p(b.addr), pe)
    if not ptr:
        return None
    if b.kind == "torch":
        if x.is_cuda:
            return _device_tensor(ptr, tuple(x.shape), x.dtype)
        return _host_tensor(ptr, tuple(x.shape), x.dtype)
    if b.kind == "cupy":
        return _device_array(ptr, x.shape, x.dtype, x)
    return _host_array(ptr, x.shape, x.dtype)


get_peer_array = peer
get_peer_tensor = peer


def free(x: Any) -> None:
    """Frees the block of an array or tensor made by array() or tensor() (collective;
    shmem_free, shmemx_free_device)."""
    ptr = _address(x)
    ref, at = _empty.get(id(x), (None, 0))
    if ref is not None and ref() is x:
        ptr = at
        del _empty[id(x)]
    kind = _blocks.pop(ptr, None)
    if kind is None:
        raise InvalidArgument("symm.free(%#x): not the start of a block made by symm.array "
                              "or symm.tensor" % ptr)
    if kind == "device":
        _lib.lib().shmemx_free_device(ctypes.c_void_p(ptr))
    else:
        _lib.lib().shmem_free(ctypes.c_void_p(ptr))


free_array = free
free_tensor = free


def register_buffer(x: Any):
    """Makes memory this PE allocated itself (a NumPy array, a torch tensor) a valid local
    source or destination of stream calls on device memory: host memory is pinned and mapped
    for the GPU (shmemx_buffer_register, as nvshmem.core.register_external_tensor). Not
    collective; a GPU PE's call. Returns x."""
    call = "symm.register_buffer"
    b = _core.describe(call, "x", x)
    _core.need_init(call)
    if not _lib.has("shmemx_buffer_register"):
        raise SymmError("%s: this libsymm was built without CUDA" % call)
    if gpu_device() < 0 and _S.device != "cuda":
        raise InvalidArgument("%s: this PE has no GPU part (symm.init(device=\"cuda\"), or a "
                              "device allocation, starts it)" % call)
    first, end = _core.extent(b)
    rc = _lib.lib().shmemx_buffer_register(first, end - first)
    if rc:
        raise InvalidArgument("%s(x=%#x, %d bytes): refused (%s)"
                              % (call, b.addr, b.nbytes, "empty, or overlaps a registered "
                                 "range" if rc == 1 else "the driver cannot pin it"))
    return x


def unregister_buffer(x: Any) -> None:
    """Undoes register_buffer(x) (shmemx_buffer_unregister)."""
    call = "symm.unregister_buffer"
    b = _core.describe(call, "x", x)
    _core.need_init(call)
    if not _lib.has("shmemx_buffer_unregister") or \
            _lib.lib().shmemx_buffer_unregister(b.addr):
        raise InvalidArgument("%s(x=%#x): not registered" % (call, b.addr))


def _kernels(call: str, fn: str, obj: Any) -> None:
    """shmemx_cumodule_init and its kin on a CUmodule or CUlibrary: an int handle, or an
    object with .handle (cuda.core's, cuda-python's) or that int() takes."""
    _core.need_init(call)
    h = getattr(obj, "handle", obj)
    try:
        h = int(h)
    except (TypeError, ValueError):
        raise InvalidArgument("%s(%r): a CUmodule or CUlibrary handle" % (call, obj)) from None
    routine = _lib.typed(fn, ctypes.c_int, [ctypes.c_void_p])
    if routine is None:
        raise SymmError("%s: this libsymm was built without CUDA" % call)
    if routine(h):
        raise InvalidArgument("%s(%#x): the module does not use the device API (no device "
                              "state in it)" % (call, h))


def module_init(module: Any) -> None:
    """Gives a module loaded with cuModuleLoad (built from a file that includes
    symm/device.cuh or nvshmem.h, no -rdc) its copy of the device state
    (shmemx_cumodule_init)."""
    _kernels("symm.module_init", "shmemx_cumodule_init", module)


def module_finalize(module: Any) -> None:
    """Forgets a module given to module_init (shmemx_cumodule_finalize)."""
    _kernels("symm.module_finalize", "shmemx_cumodule_finalize", module)


def library_init(library: Any) -> None:
    """module_init for a library loaded with cuLibraryLoad (shmemx_culibrary_init)."""
    _kernels("symm.library_init", "shmemx_culibrary_init", library)


def library_finalize(library: Any) -> None:
    """Forgets a library given to library_init (shmemx_culibrary_finalize)."""
    _kernels("symm.library_finalize", "shmemx_culibrary_finalize", library)


from . import ep  # noqa: E402  (ep uses the helpers above)
