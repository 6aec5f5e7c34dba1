# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The symm authors
"""DLPack, written with ctypes: a capsule that hands memory of the symmetric heaps to PyTorch
without a copy. The memory stays the library's: the consumer's deleter only lets this
module forget the capsule's descriptor."""

import ctypes

KDL_CPU = 1
KDL_CUDA = 2

# DLPack type codes.
_INT, _UINT, _FLOAT, _BFLOAT, _BOOL = 0, 1, 2, 4, 6
UINT = _UINT


class _Device(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _Tensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _Device), ("ndim", ctypes.c_int32),
                ("dtype", _DataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class _Managed(ctypes.Structure):
    pass


_DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(_Managed))
_Managed._fields_ = [("dl_tensor", _Tensor), ("manager_ctx", ctypes.c_void_p),
                     ("deleter", _DELETER)]

_NAME = b"dltensor"   # must outlive every capsule: a module constant
_live = {}            # descriptors handed out and not yet released by their consumer


@_DELETER
def _release(managed):
    _live.pop(ctypes.addressof(managed.contents), None)


_new_capsule = ctypes.pythonapi.PyCapsule_New
_new_capsule.restype = ctypes.py_object
_new_capsule.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]


def capsule(ptr, shape, code, bits, device_type, device_id):
    """A "dltensor" capsule for the C-contiguous array of `shape` at ptr."""
    dims = (ctypes.c_int64 * max(len(shape), 1))(*shape)
    m = _Managed()
    m.dl_tensor.data = ptr
    m.dl_tensor.device = _Device(device_type, device_id)
    m.dl_tensor.ndim = len(shape)
    m.dl_tensor.dtype = _DataType(code, bits, 1)
    m.dl_tensor.shape = dims
    m.dl_tensor.strides = None
    m.dl_tensor.byte_offset = 0
    m.manager_ctx = None
    m.deleter = _release
    _live[ctypes.addressof(m)] = (m, dims)
    return _new_capsule(ctypes.addressof(m), _NAME, None)


def torch_code(torch, dtype):
    """(code, bits) of a torch dtype."""
    table = {torch.float32: (_FLOAT, 32), torch.float64: (_FLOAT, 64),
             torch.float16: (_FLOAT, 16), torch.bfloat16: (_BFLOAT, 16),
             torch.int8: (_INT, 8), torch.int16: (_INT, 16), torch.int32: (_INT, 32),
             torch.int64: (_INT, 64), torch.uint8: (_UINT, 8), torch.bool: (_BOOL, 8)}
    if dtype not in table:
        raise TypeError("symm: no symmetric tensors of dtype %s" % dtype)
    return table[dtype]
