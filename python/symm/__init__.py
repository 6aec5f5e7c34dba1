# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The symm authors
"""symm from Python: pure Python over libsymm (ctypes), no compile step.

    import symm
    symm.init()
    a = symm.array((4, 1024), "float32")   # NumPy array on the symmetric host heap
    t = symm.tensor((4, 1024), torch.bfloat16)   # torch tensor on the symmetric GPU heap
    symm.barrier()

Started as any symm program: `symmrun -n 2 python3 prog.py`; or by torchrun or mp.spawn,
whose processes join through a unique id (symm.init after torch.distributed's, or with the id
passed by hand: symm.get_unique_id, symm.init(unique_id, rank, world_size)). Symmetric memory reaches NumPy
(through a ctypes buffer) and PyTorch (through DLPack) without a copy. Allocation is collective
(every PE, same order, same arguments), as shmem_malloc; symm.free and symm.finalize end the
memory's life, whatever Python objects still refer to it. symm.ep has MoE dispatch and combine
(docs/ep.md)."""

import ctypes
import os
import sys

from . import _dlpack, _lib

__all__ = ["init", "get_unique_id", "finalize", "my_pe", "n_pes", "barrier", "array", "tensor", "peer", "free",
           "ep"]

_blocks = {}   # address -> "host" or "device": the allocations made here, until freed


def get_unique_id():
    """A fresh unique id (bytes) for a job of processes that symm's launchers did not start.
    The process that makes it must be one of the job: it serves the others' joining."""
    uid = _lib.UniqueId()
    _lib.lib().shmemx_get_uniqueid(ctypes.byref(uid))
    return ctypes.string_at(ctypes.addressof(uid), ctypes.sizeof(uid))


def _started_by_symm():
    return bool(os.environ.get("SYMM_BOOT") or os.environ.get("PMIX_RANK"))


def init(unique_id=None, rank=None, world_size=None):
    """Starts this PE (collective).

    Under symmrun, mpirun or srun: shmem_init. Processes started otherwise (torchrun,
    mp.spawn) form a job through a unique id: pass the bytes of symm.get_unique_id() from one
    of them, with this process's rank and the job size; or initialise torch.distributed
    first and call symm.init(): rank 0 of its default group makes the id and broadcasts it, and
    the group's ranks become the PEs."""
    lib = _lib.lib()
    if unique_id is None and not _started_by_symm():
        dist = _torch_distributed()
        if dist is not None and dist.get_world_size() > 1:
            rank, world_size = dist.get_rank(), dist.get_world_size()
            box = [get_unique_id() if rank == 0 else None]
            dist.broadcast_object_list(box, src=0)
            unique_id = box[0]
    if unique_id is None:
        lib.shmem_init()
        return
    if rank is None or world_size is None:
        raise ValueError("symm.init: a unique id needs this process's rank and the job size")
    uid = _lib.UniqueId.from_buffer_copy(bytes(unique_id))
    attr = _lib.InitAttr()
    lib.shmemx_set_attr_uniqueid_args(int(rank), int(world_size), ctypes.byref(uid),
                                      ctypes.byref(attr))
    lib.shmemx_init_attr(_lib.SHMEMX_INIT_WITH_UNIQUEID, ctypes.byref(attr))


def _torch_distributed():
    """torch.distributed when it is imported and initialised, else None."""
    torch = sys.modules.get("torch")
    if torch is None:
        return None
    dist = getattr(torch, "distributed", None)
    if dist is None or not dist.is_available() or not dist.is_initialized():
        return None
    return dist


def finalize():
    """Ends this PE (collective). Arrays on symmetric memory must not be used afterwards."""
    _blocks.clear()
    _lib.lib().shmem_finalize()


def my_pe():
    return _lib.lib().shmem_my_pe()


def n_pes():
    return _lib.lib().shmem_n_pes()


def barrier(stream=None):
    """shmem_barrier_all; with a torch CUDA stream, the barrier is enqueued on it instead
    (every PE's stream reaches it before any goes past)."""
    if stream is None:
        _lib.lib().shmem_barrier_all()
    else:
        _lib.lib().shmemx_barrier_all_on_stream(ctypes.c_void_p(stream.cuda_stream))


def _shape(shape):
    shape = (shape,) if isinstance(shape, int) else tuple(int(s) for s in shape)
    if any(s < 0 for s in shape):
        raise ValueError("symm: negative dimension in shape %s" % (shape,))
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


def _alloc(nbytes, device):
    """A new block of the host heap, or of the device heap (collective)."""
    lib = _lib.lib()
    if device and not _lib.has("shmemx_malloc_device"):
        raise RuntimeError("symm: this libsymm was built without CUDA: no GPU heap")
    ptr = (lib.shmemx_malloc_device if device else lib.shmem_malloc)(max(nbytes, 1))
    if not ptr:
        raise MemoryError("symm: the %s heap cannot hold %d more bytes on some PE (%s sets its "
                          "size)" % ("device" if device else "symmetric", nbytes,
                                     "SYMM_DEVICE_HEAP_SIZE" if device
                                     else "SHMEM_SYMMETRIC_SIZE"))
    _blocks[ptr] = "device" if device else "host"
    return ptr


def gpu_device():
    """The CUDA device index of this PE's GPU (-1 before the GPU part starts)."""
    return _lib.lib().shmemx_gpu_device() if _lib.has("shmemx_gpu_device") else -1


def _host_array(ptr, shape, dtype):
    """NumPy's view of host memory: through a ctypes buffer, which NumPy keeps alive and may
    write (its DLPack import gives read-only arrays)."""
    np = _numpy()
    dtype = np.dtype(dtype)
    _, count = _shape(shape)
    raw = (ctypes.c_char * max(count * dtype.itemsize, 1)).from_address(ptr)
    return np.frombuffer(raw, dtype=dtype, count=count).reshape(shape)


def _device_tensor(ptr, shape, dtype):
    torch = _torch()
    code, bits = _dlpack.torch_code(torch, dtype)
    dev = gpu_device()
    cap = _dlpack.capsule(ptr, shape, code, bits, _dlpack.KDL_CUDA, dev)
    return torch.utils.dlpack.from_dlpack(cap)


def array(shape, dtype="float32"):
    """A NumPy array of `shape` and `dtype` in a new block of the symmetric host heap
    (collective). Its contents are undefined, as shmem_malloc's."""
    np = _numpy()
    shape, count = _shape(shape)
    dtype = np.dtype(dtype)
    return _host_array(_alloc(count * dtype.itemsize, False), shape, dtype)


def tensor(shape, dtype=None):
    """A torch tensor of `shape` and `dtype` (default torch.float32) in a new block of the
    symmetric GPU heap (collective), on this PE's GPU, which becomes torch's current device.
    Its contents are undefined."""
    torch = _torch()
    dtype = torch.float32 if dtype is None else dtype
    shape, count = _shape(shape)
    ptr = _alloc(count * torch.empty((), dtype=dtype).element_size(), True)
    torch.cuda.set_device(gpu_device())
    return _device_tensor(ptr, shape, dtype)


def _address(x):
    if hasattr(x, "data_ptr"):
        return x.data_ptr()
    return x.__array_interface__["data"][0]


def peer(x, pe):
    """The same array (or tensor) on PE pe, as this process reaches it by load and store
    (shmem_ptr), or None when pe is on another node. x must be symmetric and contiguous."""
    ptr = _lib.lib().shmem_ptr(ctypes.c_void_p(_address(x)), pe)
    if not ptr:
        return None
    if hasattr(x, "data_ptr"):
        if x.is_cuda:
            return _device_tensor(ptr, tuple(x.shape), x.dtype)
        torch = _torch()
        code, bits = _dlpack.torch_code(torch, x.dtype)
        return torch.utils.dlpack.from_dlpack(_dlpack.capsule(ptr, tuple(x.shape), code, bits,
                                                              _dlpack.KDL_CPU, 0))
    return _host_array(ptr, x.shape, x.dtype)


def free(x):
    """Frees the block of an array or tensor made by array() or tensor() (collective)."""
    ptr = _address(x)
    kind = _blocks.pop(ptr, None)
    if kind is None:
        raise ValueError("symm.free: %#x is not the start of a block made by symm.array or "
                         "symm.tensor" % ptr)
    if kind == "device":
        _lib.lib().shmemx_free_device(ctypes.c_void_p(ptr))
    else:
        _lib.lib().shmem_free(ctypes.c_void_p(ptr))


from . import ep  # noqa: E402  (ep uses the helpers above)
