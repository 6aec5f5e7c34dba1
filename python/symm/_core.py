# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The symm authors
"""What every call of the Python layer shares: the job's state as Python keeps it, the
exceptions, the type table (which C routines a dtype has), and the description of an array or
tensor as the C library sees it (address, bytes, element strides, host or device memory).

Every argument is checked here, before the C call, so that a bad one raises a Python exception
naming the call and the value instead of ending the job (the C library's answer to a bad
argument). The checks read only this process's state: the heap ranges and the job's size are
fixed at init."""

import ctypes
import operator
import sys
from typing import Any, Dict, Optional, Tuple

from . import _lib


class SymmError(Exception):
    """Base of the exceptions symm raises."""


class InvalidArgument(SymmError, ValueError):
    """A bad argument, found before anything was sent: a PE out of range, memory that is not
    symmetric, shapes or sizes that do not fit, a team that is gone."""


class InvalidDtype(SymmError, TypeError):
    """A dtype the C routine does not have (an atomic on float32, a bitwise reduction on
    float64), or two buffers of different dtypes."""


class _State:
    """The job as this process knows it after init: its size, this PE, the symmetric heap's
    user part, and the device heap's (read when the GPU part has started)."""

    __slots__ = ("initialized", "me", "npes", "lo", "hi", "dev_lo", "dev_hi", "device",
                 "on_start")

    def __init__(self) -> None:
        self.initialized = False
        self.me = -1
        self.npes = 0
        self.lo = self.hi = 0
        self.dev_lo = self.dev_hi = 0
        self.device: Optional[str] = None  # "cpu", "cuda", or None: not said at init
        self.on_start = getattr(self, "on_start", [])  # called at init (lib) and end (None)

    def started(self) -> None:
        lib = _lib.lib()
        self.initialized = True
        self.me = lib.shmem_my_pe()
        self.npes = lib.shmem_n_pes()
        self.lo = lib.shmemx_heap_base(self.me) or 0
        self.hi = self.lo + lib.shmemx_heap_size()
        self.dev_lo = self.dev_hi = 0
        for fn in self.on_start:
            fn(lib)

    def ended(self) -> None:
        self.__init__()
        for fn in self.on_start:
            fn(None)

    def device_heap(self) -> Tuple[int, int]:
        """The device heap's range here, (0, 0) before the GPU part starts."""
        if not self.dev_lo and _lib.has("shmemx_device_heap_base"):
            lib = _lib.lib()
            base = lib.shmemx_device_heap_base(self.me) or 0
            if base:
                self.dev_lo, self.dev_hi = base, base + lib.shmemx_device_heap_size()
        return self.dev_lo, self.dev_hi


S = _State()


def need_init(call: str) -> None:
    if not S.initialized:
        raise SymmError("%s: called before symm.init (or after symm.finalize)" % call)


def check_pe(call: str, name: str, pe: Any, npes: Optional[int] = None) -> int:
    """pe as an int in 0..npes-1 (the job's size by default), else InvalidArgument."""
    need_init(call)
    try:
        p = operator.index(pe)
    except TypeError:
        raise InvalidArgument("%s(%s=%r): a PE is an integer" % (call, name, pe)) from None
    n = S.npes if npes is None else npes
    if not 0 <= p < n:
        raise InvalidArgument("%s(%s=%d): pe %d is out of range (%s has %d PEs, 0..%d)"
                              % (call, name, p, p, "the job" if npes is None else "the team",
                                 n, n - 1))
    return p


# ---- The type table ----------------------------------------------------------------------------
# What libsymm has for each dtype, from include/symm/types.def: the C name of its typed
# routines (shmem_NAME_OP_reduce, ...), its ctypes type, whether it has the standard atomics
# (AMO: fetch_add, compare_swap, inc), the extended ones (EXT: fetch, set, swap) and the bitwise
# ones (BIT), the C name of its wait routines (short for int16: the wait rows are the standard
# types), its reduction operators, and whether the GPU reduces it (DEV). bool reduces as uint8.
_BITOPS = ("and", "or", "xor")
_ARITH = ("max", "min", "sum", "prod")
_ALL = _BITOPS + _ARITH
_BOOLOPS = _BITOPS + ("max", "min")


class DType:
    """One row of the table."""

    __slots__ = ("name", "c", "ctype", "size", "amo", "ext", "bit", "wait", "ops", "dev")

    def __init__(self, name, c, ctype, size, amo, ext, bit, wait, ops, dev):
        self.name, self.c, self.ctype, self.size = name, c, ctype, size
        self.amo, self.ext, self.bit, self.wait = amo, ext, bit, wait
        self.ops, self.dev = ops, dev

    def __repr__(self) -> str:
        return self.name


_c = ctypes
_ROWS = [
    # name        C row         ctype            size AMO EXT BIT WAIT      ops      DEV
    ("bool",       "uint8",      _c.c_uint8,       1, 0, 0, 0, None,     _BOOLOPS, 1),
    ("int8",       "int8",       _c.c_int8,        1, 0, 0, 0, None,     _ALL,    1),
    ("uint8",      "uint8",      _c.c_uint8,       1, 0, 0, 0, None,     _ALL,    1),
    ("int16",      "int16",      _c.c_int16,       2, 0, 0, 0, "short",  _ALL,    1),
    ("uint16",     "uint16",     _c.c_uint16,      2, 0, 0, 0, "ushort", _ALL,    1),
    ("int32",      "int32",      _c.c_int32,       4, 1, 1, 1, "int32",  _ALL,    1),
    ("uint32",     "uint32",     _c.c_uint32,      4, 1, 1, 1, "uint32", _ALL,    1),
    ("int64",      "int64",      _c.c_int64,       8, 1, 1, 1, "int64",  _ALL,    1),
    ("uint64",     "uint64",     _c.c_uint64,      8, 1, 1, 1, "uint64", _ALL,    1),
    ("float16",    "half",       _c.c_uint16,      2, 0, 0, 0, None,     _ARITH,  1),
    ("bfloat16",   "bfloat16",   _c.c_uint16,      2, 0, 0, 0, None,     _ARITH,  1),
    ("float32",    "float",      _c.c_float,       4, 0, 1, 0, None,     _ARITH,  1),
    ("float64",    "double",     _c.c_double,      8, 0, 1, 0, None,     _ARITH,  1),
    ("longdouble", "longdouble", _c.c_longdouble,  _c.sizeof(_c.c_longdouble), 0, 0, 0, None,
     _ARITH, 0),
    ("complex64",  "complexf",   None,             8, 0, 0, 0, None,     ("sum", "prod"), 0),
    ("complex128", "complexd",   None,            16, 0, 0, 0, None,     ("sum", "prod"), 0),
]
DTYPES: Dict[str, DType] = {r[0]: DType(*r) for r in _ROWS}
# Other spellings of the same rows.
for _alias, _name in (("float128", "longdouble"), ("half", "float16"), ("float", "float32"),
                      ("double", "float64"), ("cfloat", "complex64"), ("cdouble", "complex128")):
    if _name == "longdouble" and _c.sizeof(_c.c_longdouble) != 16:
        continue
    DTYPES[_alias] = DTYPES[_name]

# NumPy's type characters (native byte order), the fast way to name a NumPy dtype.
_NP_CHARS = {"?": "bool", "b": "int8", "B": "uint8", "h": "int16", "H": "uint16", "e": "float16",
             "f": "float32", "d": "float64", "g": "longdouble", "F": "complex64",
             "D": "complex128"}
for _ch, _ty in (("i", _c.c_int), ("I", _c.c_uint), ("l", _c.c_long), ("L", _c.c_ulong),
                 ("q", _c.c_longlong), ("Q", _c.c_ulonglong)):
    _NP_CHARS[_ch] = "%sint%d" % ("u" if _ch.isupper() else "", 8 * _c.sizeof(_ty))


def dtype_names(pred) -> str:
    """The dtypes of the table that pred accepts, for messages."""
    return ", ".join(r[0] for r in _ROWS if pred(DTYPES[r[0]]))


# ---- Buffers -----------------------------------------------------------------------------------
class Buf:
    """An array or tensor as the C library sees it: the address of its first element, its
    bytes, dtype (a row of the table), shape and strides in elements (None: C-contiguous),
    whether it is device memory, and which library made it ("numpy", "torch", "cupy", or
    "array"/"cuda_array" for other objects with the array interfaces)."""

    __slots__ = ("obj", "addr", "nbytes", "count", "shape", "strides", "dtype", "device", "kind")

    def __init__(self, obj, addr, nbytes, count, shape, strides, dtype, device, kind):
        self.obj, self.addr, self.nbytes, self.count = obj, addr, nbytes, count
        self.shape, self.strides, self.dtype = shape, strides, dtype
        self.device, self.kind = device, kind


_ndarray = None       # numpy.ndarray, once NumPy is imported
_NP_DATA_AT = -1      # offset of the data pointer in a NumPy array object (PyArray_DATA)
_torch_names: Dict[Any, str] = {}


def _numpy_setup():
    """Imports NumPy and learns where an array object keeps its data pointer: the
    PyArrayObject's field after the object header, read straight from the object, which costs
    a tenth of __array_interface__ (checked here against it; the interface is the fallback)."""
    global _ndarray, _NP_DATA_AT
    import numpy
    _ndarray = numpy.ndarray
    probe = numpy.zeros(3)
    want = probe.__array_interface__["data"][0]
    at = 2 * ctypes.sizeof(ctypes.c_void_p)
    if not hasattr(sys, "gettotalrefcount") and \
            ctypes.c_void_p.from_address(id(probe) + at).value == want:
        _NP_DATA_AT = at
    return numpy


def np_data(a) -> int:
    """The address of a NumPy array's first element."""
    if _NP_DATA_AT >= 0:
        return ctypes.c_void_p.from_address(id(a) + _NP_DATA_AT).value or 0
    return a.__array_interface__["data"][0]


def ndarray_type():
    if _ndarray is None:
        _numpy_setup()
    return _ndarray


def _np_dtype(call, what, dt) -> DType:
    name = _NP_CHARS.get(dt.char) if dt.isnative else None
    if name is None:
        name = dt.name if dt.isnative or dt.itemsize == 1 else None
    row = DTYPES.get(name) if name else None
    if row is None:
        raise InvalidDtype("%s(%s dtype=%s): not a dtype of symm's C API (%s)"
                           % (call, what, dt, dtype_names(lambda r: True)))
    return row


def _elem_strides(call, what, byte_strides, size, shape):
    out = []
    for s in byte_strides:
        if s % size:
            raise InvalidArgument("%s(%s strides=%s): a stride is not a whole number of "
                                  "elements" % (call, what, tuple(byte_strides)))
        out.append(s // size)
    return _contig_or(tuple(out), shape)


def _contig_or(strides, shape):
    """None when strides are those of a C-contiguous array of shape, else strides."""
    want = 1
    for n, s in zip(reversed(shape), reversed(strides)):
        if n != 1 and s != want:
            return strides
        want *= n
    return None


def torch_dtype_name(dt) -> str:
    name = _torch_names.get(dt)
    if name is None:
        name = str(dt).rsplit(".", 1)[-1]
        _torch_names[dt] = name
    return name


_torch_tensor: Any = None  # torch.Tensor, once a tensor has been described
_torch_rows: dict = {}     # torch dtype -> its row of DTYPES


def _torch_buf(call: str, what: str, x: Any) -> Buf:
    global _torch_tensor
    row = _torch_rows.get(x.dtype)
    if row is None:
        row = DTYPES.get(torch_dtype_name(x.dtype))
        if row is None:
            raise InvalidDtype("%s(%s dtype=%s): not a dtype of symm's C API (%s)"
                               % (call, what, x.dtype, dtype_names(lambda r: True)))
        _torch_rows[x.dtype] = row
        if type(x).__name__ == "Tensor":
            _torch_tensor = type(x)
    shape = tuple(x.shape)
    strides = None if x.is_contiguous() else _contig_or(tuple(x.stride()), shape)
    count = x.numel()
    return Buf(x, x.data_ptr(), count * row.size, count, shape, strides, row, x.is_cuda, "torch")


Flat = Tuple[int, int, DType]  # a tensor of the fast path: (address, elements, row)


def torch_flat(x: Any) -> Optional[Flat]:
    """(address, elements, row) of a C-contiguous torch tensor on a GPU, of a dtype symm has,
    else None: the stream calls' fast path, which leaves every other case, and every error, to
    the general one (describe and the checks)."""
    if type(x) is not _torch_tensor or not x.is_cuda or not x.is_contiguous():
        return None
    row = _torch_rows.get(x.dtype)
    return None if row is None else (x.data_ptr(), x.numel(), row)


def torch_pair(dst: Any, src: Any, stream: Any) -> Optional[Tuple[Flat, Flat, int]]:
    """(dst, src, stream handle) of the stream calls' fast path, each tensor as torch_flat
    gives it: two such tensors of one dtype, and a torch stream or a raw handle; else None."""
    d = torch_flat(dst)
    s = torch_flat(src)
    st = raw_stream(stream)
    if d is None or s is None or st is None or d[2] is not s[2]:
        return None
    return d, s, st


def in_device_heap(addr: int, nbytes: int) -> bool:
    """[addr, addr + nbytes), not empty, lies in this PE's device heap as last read (False
    before it is known and after finalize)."""
    lo = S.dev_lo
    return bool(lo) and nbytes > 0 and lo <= addr and addr + nbytes <= S.dev_hi


def raw_stream(stream: Any) -> Optional[int]:
    """The handle of a torch stream or a raw handle, else None (stream_handle reads the
    others, and the current stream where none is given)."""
    if type(stream) is int:
        return stream
    h = getattr(stream, "cuda_stream", None)
    return h if type(h) is int else None


def describe(call: str, what: str, x: Any) -> Buf:
    """The Buf of x: a NumPy array, a torch tensor, a CuPy array, or an object with
    __cuda_array_interface__ or __array_interface__."""
    if type(x) is _torch_tensor:  # the common case first: no module or dtype name looked up
        return _torch_buf(call, what, x)
    if _ndarray is None:
        _numpy_setup()
    if isinstance(x, _ndarray):
        row = _np_dtype(call, what, x.dtype)
        shape = x.shape
        strides = None if x.flags.c_contiguous else \
            _elem_strides(call, what, x.strides, x.itemsize, shape)
        return Buf(x, np_data(x), x.nbytes, x.size, shape, strides, row, False, "numpy")
    mod = type(x).__module__
    if mod.startswith("torch"):
        return _torch_buf(call, what, x)
    if mod.startswith("cupy"):
        row = _np_dtype(call, what, x.dtype)
        shape = x.shape
        strides = None if x.flags.c_contiguous else \
            _elem_strides(call, what, x.strides, x.itemsize, shape)
        return Buf(x, x.data.ptr, x.nbytes, x.size, shape, strides, row, True, "cupy")
    for attr, device in (("__cuda_array_interface__", True), ("__array_interface__", False)):
        iface = getattr(x, attr, None)
        if iface is not None:
            import numpy
            dt = numpy.dtype(iface["typestr"])
            row = _np_dtype(call, what, dt)
            shape = tuple(iface["shape"])
            count = 1
            for n in shape:
                count *= n
            st = iface.get("strides")
            strides = None if st is None else _elem_strides(call, what, st, dt.itemsize, shape)
            return Buf(x, iface["data"][0], count * dt.itemsize, count, shape, strides, row,
                       device, "cuda_array" if device else "array")
    raise InvalidArgument("%s(%s=%s): not an array or tensor (NumPy, torch, CuPy, or an "
                          "object with __array_interface__ or __cuda_array_interface__)"
                          % (call, what, type(x).__name__))


def symmetric(call: str, what: str, b: Buf) -> None:
    """b lies in this PE's symmetric heap (host) or device heap, else InvalidArgument."""
    need_init(call)
    if b.nbytes == 0:
        return
    first, end = extent(b)
    if b.device:
        lo, hi = S.device_heap()
        if lo <= first and end <= hi:
            return
        lib = _lib.lib()
        if lib.shmem_addr_accessible(first, S.me) and lib.shmem_addr_accessible(end - 1, S.me):
            return  # a buffer registered as symmetric
        heap = "device heap %#x..%#x" % (lo, hi) if lo else "no device heap yet"
    else:
        if S.lo <= first and end <= S.hi:
            return
        heap = "heap %#x..%#x" % (S.lo, S.hi)
    raise InvalidArgument("%s(%s=%#x, %d bytes): not symmetric memory (%s; make it with "
                          "symm.array or symm.tensor)" % (call, what, b.addr, b.nbytes, heap))


def extent(b: Buf) -> Tuple[int, int]:
    """The bytes b's elements span: [first, end)."""
    if b.strides is None:
        return b.addr, b.addr + b.nbytes
    lo = hi = 0
    for n, s in zip(b.shape, b.strides):
        if n == 0:
            return b.addr, b.addr
        if s < 0:
            lo += (n - 1) * s
        else:
            hi += (n - 1) * s
    return b.addr + lo * b.dtype.size, b.addr + (hi + 1) * b.dtype.size


def same_kind(call: str, sym: Buf, sym_what: str, loc: Buf, loc_what: str) -> None:
    """A host-heap operation takes host memory on both sides."""
    if not sym.device and loc.device:
        raise InvalidArgument("%s(%s on the device, %s in host memory): a host-heap call takes "
                              "host memory on both sides (copy it to the host first)"
                              % (call, loc_what, sym_what))


def same_shape(call: str, dst: Buf, src: Buf) -> None:
    if dst.dtype is not src.dtype:
        raise InvalidDtype("%s(dst dtype=%s, src dtype=%s): the dtypes differ"
                           % (call, dst.dtype, src.dtype))
    if dst.shape != src.shape:
        raise InvalidArgument("%s(dst shape=%s, src shape=%s): the shapes differ"
                              % (call, dst.shape, src.shape))


def one_element(call: str, what: str, b: Buf) -> None:
    if b.count != 1:
        raise InvalidArgument("%s(%s shape=%s): names %d elements; pass one element "
                              "(a[i:i+1], t[i])" % (call, what, b.shape, b.count))
    if b.addr % b.dtype.size:
        raise InvalidArgument("%s(%s=%#x): not aligned to its %d-byte element"
                              % (call, what, b.addr, b.dtype.size))


def contiguous(call: str, what: str, b: Buf) -> None:
    if b.strides is not None:
        raise InvalidArgument("%s(%s strides=%s): a collective takes contiguous buffers"
                              % (call, what, b.strides))


# ---- Streams -----------------------------------------------------------------------------------
def stream_handle(call: str, stream: Any, b: Buf) -> int:
    """The CUstream of `stream` (a torch or CuPy stream, an object with __cuda_stream__, or a
    raw handle; None: the current stream of b's library, torch's or CuPy's)."""
    if stream is None:
        if b.kind == "torch":
            import torch
            return torch.cuda.current_stream(b.obj.device).cuda_stream
        if b.kind == "cupy":
            import cupy
            return cupy.cuda.get_current_stream().ptr
        return 0  # the legacy default stream
    if isinstance(stream, int):
        return stream
    h = getattr(stream, "cuda_stream", None)  # torch.cuda.Stream
    if h is None:
        h = getattr(stream, "ptr", None)      # cupy.cuda.Stream
    if h is None and hasattr(stream, "__cuda_stream__"):
        h = stream.__cuda_stream__()[1]        # cuda.core and the stream protocol
    if h is None:
        h = getattr(stream, "handle", None)
    if not isinstance(h, int):
        raise InvalidArgument("%s(stream=%r): not a CUDA stream (a torch or CuPy stream, an "
                              "object with __cuda_stream__, or a handle)" % (call, stream))
    return h


def host_only(call: str, stream: Any, b: Buf, what: str) -> None:
    """A call on host memory is host-blocking: no stream."""
    if stream is not None:
        raise InvalidArgument("%s(stream=%r): %s is host memory, where calls are "
                              "host-blocking; stream= is for device buffers" % (call, stream, what))


def stream_of(call: str, stream: Any, b: Buf, what: str) -> Optional[int]:
    """The stream handle for device memory, None (host-blocking) for host memory."""
    if b.device:
        return stream_handle(call, stream, b)
    host_only(call, stream, b, what)
    return None


def is_stream(x: Any) -> bool:
    return hasattr(x, "cuda_stream") or hasattr(x, "__cuda_stream__") or \
        type(x).__module__.startswith("cupy.cuda")
