# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The symm authors
"""libsymm through ctypes: where it is found, and the prototypes of the routines used here.

The library is SYMM_LIB when that is set, else the one an installed wheel carries (symm/lib),
else libsymm.so of a build/ folder at the top of the source tree this package lies in, else
libsymm.so.0 from the loader's search path (an installed Debian package)."""

import ctypes
import os

_lib = None


def _path():
    """SYMM_LIB; else the library an installed wheel carries (symm/lib); else build/ of the
    source tree; else libsymm.so.0 from the loader's search path."""
    env = os.environ.get("SYMM_LIB")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    carried = os.path.join(here, "lib", "libsymm.so.0")
    if os.path.exists(carried):
        return carried
    built = os.path.join(os.path.dirname(os.path.dirname(here)), "build", "libsymm.so")
    return built if os.path.exists(built) else "libsymm.so.0"


_c = ctypes
_P = _c.c_void_p


class UniqueId(ctypes.Structure):
    """shmemx_uniqueid_t (NVSHMEM's layout): 128 bytes made by shmemx_get_uniqueid."""
    _fields_ = [("version", ctypes.c_int), ("internal", ctypes.c_char * 124)]


class _UidArgs(ctypes.Structure):
    _fields_ = [("version", ctypes.c_int), ("id", ctypes.POINTER(UniqueId)),
                ("myrank", ctypes.c_int), ("nranks", ctypes.c_int)]


class _InitArgs(ctypes.Structure):
    _fields_ = [("version", ctypes.c_int), ("uid_args", _UidArgs), ("content", ctypes.c_char * 96)]


class InitAttr(ctypes.Structure):
    """shmemx_init_attr_t."""
    _fields_ = [("version", ctypes.c_int), ("mpi_comm", ctypes.c_void_p), ("args", _InitArgs)]


SHMEMX_INIT_WITH_UNIQUEID = 1 << 3

_PROTOS = {
    "shmem_init": (None, []),
    "shmemx_get_uniqueid": (_c.c_int, [_c.POINTER(UniqueId)]),
    "shmemx_set_attr_uniqueid_args": (_c.c_int, [_c.c_int, _c.c_int, _c.POINTER(UniqueId),
                                                 _c.POINTER(InitAttr)]),
    "shmemx_init_attr": (_c.c_int, [_c.c_uint, _c.POINTER(InitAttr)]),
    "shmem_finalize": (None, []),
    "shmem_my_pe": (_c.c_int, []),
    "shmem_n_pes": (_c.c_int, []),
    "shmem_barrier_all": (None, []),
    "shmem_malloc": (_P, [_c.c_size_t]),
    "shmem_free": (None, [_P]),
    "shmem_ptr": (_P, [_P, _c.c_int]),
    "shmem_quiet": (None, []),
    "shmem_alltoallmem": (_c.c_int, [_P, _P, _P, _c.c_size_t]),
    "shmem_putmem_signal": (None, [_P, _P, _c.c_size_t, _P, _c.c_uint64, _c.c_int, _c.c_int]),
    "shmem_signal_wait_until": (_c.c_uint64, [_P, _c.c_int, _c.c_uint64]),
    "shmemx_ep_malloc": (_P, [_P, _c.c_long]),
    # The host interface of the Python layer (rma.py, amo.py, coll.py); typed routines are
    # given their prototypes on first use (typed()).
    "shmemx_query_initialized": (None, [_c.POINTER(_c.c_int)]),
    "shmem_info_get_version": (None, [_c.POINTER(_c.c_int), _c.POINTER(_c.c_int)]),
    "shmem_info_get_name": (None, [_c.c_char_p]),
    "shmem_addr_accessible": (_c.c_int, [_P, _c.c_int]),
    "shmemx_heap_base": (_P, [_c.c_int]),
    "shmemx_heap_size": (_c.c_size_t, []),
    "shmem_sync_all": (None, []),
    "shmem_fence": (None, []),
    "shmem_putmem": (None, [_P, _P, _c.c_size_t, _c.c_int]),
    "shmem_getmem": (None, [_P, _P, _c.c_size_t, _c.c_int]),
    "shmem_signal_fetch": (_c.c_uint64, [_P]),
    "shmem_signal_add": (None, [_P, _c.c_uint64, _c.c_int]),
    "shmem_signal_set": (None, [_P, _c.c_uint64, _c.c_int]),
    "shmem_team_my_pe": (_c.c_int, [_P]),
    "shmem_team_n_pes": (_c.c_int, [_P]),
    "shmem_team_translate_pe": (_c.c_int, [_P, _c.c_int, _P]),
    "shmem_team_split_strided": (_c.c_int, [_P, _c.c_int, _c.c_int, _c.c_int, _P, _c.c_long,
                                            _c.POINTER(_P)]),
    "shmem_team_split_2d": (_c.c_int, [_P, _c.c_int, _P, _c.c_long, _c.POINTER(_P), _P,
                                       _c.c_long, _c.POINTER(_P)]),
    "shmem_team_destroy": (None, [_P]),
    "shmem_team_sync": (_c.c_int, [_P]),
    "shmemx_team_index": (_c.c_int, [_P]),
    "shmem_broadcastmem": (_c.c_int, [_P, _P, _P, _c.c_size_t, _c.c_int]),
    "shmem_collectmem": (_c.c_int, [_P, _P, _P, _c.c_size_t]),
    "shmem_fcollectmem": (_c.c_int, [_P, _P, _P, _c.c_size_t]),
    "shmemx_device_heap_base": (_P, [_c.c_int]),
    "shmemx_device_heap_size": (_c.c_size_t, []),
    "shmemx_putmem_on_stream": (None, [_P, _P, _c.c_size_t, _c.c_int, _P]),
    "shmemx_getmem_on_stream": (None, [_P, _P, _c.c_size_t, _c.c_int, _P]),
    "shmemx_signal_op_on_stream": (None, [_P, _c.c_uint64, _c.c_int, _c.c_int, _P]),
    "shmemx_quiet_on_stream": (None, [_P]),
    "shmemx_sync_all_on_stream": (None, [_P]),
    "shmemx_barrier_on_stream": (_c.c_int, [_P, _P]),
    "shmemx_team_sync_on_stream": (_c.c_int, [_P, _P]),
    "shmemx_alltoallmem_on_stream": (_c.c_int, [_P, _P, _P, _c.c_size_t, _P]),
    "shmemx_fcollectmem_on_stream": (_c.c_int, [_P, _P, _P, _c.c_size_t, _P]),
    "shmemx_broadcastmem_on_stream": (_c.c_int, [_P, _P, _P, _c.c_size_t, _c.c_int, _P]),
    "shmemx_buffer_register": (_c.c_int, [_P, _c.c_size_t]),
    "shmemx_buffer_unregister": (_c.c_int, [_P]),
    # The GPU part: only in a build with CUDA.
    "shmemx_malloc_device": (_P, [_c.c_size_t]),
    "shmemx_free_device": (None, [_P]),
    "shmemx_gpu_device": (_c.c_int, []),
    "shmemx_barrier_all_on_stream": (None, [_P]),
    "shmemx_putmem_signal_on_stream": (None, [_P, _P, _c.c_size_t, _P, _c.c_uint64, _c.c_int,
                                              _c.c_int, _P]),
    "shmemx_signal_wait_until_on_stream": (None, [_P, _c.c_int, _c.c_uint64, _P]),
}

SHMEM_CMP_GE = 3
SHMEM_SIGNAL_SET = 0
SHMEMX_MALLOC_DEVICE = 1 << 16


def lib():
    """The loaded library, its routines' prototypes set."""
    global _lib
    if _lib is None:
        path = _path()
        try:
            handle = ctypes.CDLL(path)
        except OSError as e:
            raise OSError("symm: cannot load libsymm (%s): %s; set SYMM_LIB to the library's path"
                          % (path, e)) from None
        for name, (res, args) in _PROTOS.items():
            fn = getattr(handle, name, None)
            if fn is not None:
                fn.restype = res
                fn.argtypes = args
        _lib = handle
    return _lib


def has(name):
    """Whether the library has a routine (the GPU part's exist only in a build with CUDA)."""
    return getattr(lib(), name, None) is not None


def team_world():
    """SHMEM_TEAM_WORLD: the address of the library's world team."""
    return ctypes.addressof(ctypes.c_char.in_dll(lib(), "symm_team_world"))


_typed = {}


def typed(name, restype, argtypes):
    """A routine of the library with the prototype given, made once (the typed families:
    shmem_int32_atomic_fetch_add, shmem_float_sum_reduce, ...); None when the library lacks
    it."""
    fn = _typed.get(name)
    if fn is None:
        fn = getattr(lib(), name, None)
        if fn is None:
            return None
        fn.restype = restype
        fn.argtypes = argtypes
        _typed[name] = fn
    return fn
