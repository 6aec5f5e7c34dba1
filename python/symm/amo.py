# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The symm authors
"""Atomic memory operations on one symmetric element of another PE (or this one).

    old = symm.fetch_add(counter[0:1], 1, pe)   # counter: symm.array(n, "int64")
    symm.cswap(lock[0:1], 0, me + 1, 0)

The element is an array or tensor of one element (a[i:i+1], a[i, ...], t[i]) in the symmetric
host heap, of a dtype that has the operation: fetch_add, add, fetch_inc, inc and cswap on
int32, int64, uint32, uint64; fetch, set and swap on those and float32, float64; the bitwise
ones (fetch_and, atomic_and, ...) on int32, int64, uint32, uint64. Each is its typed shmem_
routine (shmem_int64_atomic_fetch_add, ...), host-blocking, reaching PEs of other nodes too.
The C library has no host atomics on device memory (kernels do them), so a device element
raises InvalidArgument, as does stream=."""

from typing import Any, Optional

from . import _core, _lib
from ._core import InvalidArgument, InvalidDtype, check_pe, describe, one_element, symmetric

__all__ = ["fetch_add", "add", "fetch_inc", "inc", "cswap", "compare_swap", "swap", "fetch",
           "fetch_and", "fetch_or", "fetch_xor", "atomic_set", "atomic_and", "atomic_or",
           "atomic_xor"]

# family -> (which column of the type table allows it, dtypes named in messages)
_FAMILY = {"amo": lambda r: r.amo, "ext": lambda r: r.ext, "bit": lambda r: r.bit}


def _target(call: str, family: str, dest: Any, stream: Any):
    b = describe(call, "dest", dest)
    if not _FAMILY[family](b.dtype):
        raise InvalidDtype("%s(dest dtype=%s): no atomic %s on %s (dtypes: %s)"
                           % (call, b.dtype, call.split(".")[-1], b.dtype,
                              _core.dtype_names(_FAMILY[family])))
    one_element(call, "dest", b)
    symmetric(call, "dest", b)
    if b.device:
        raise InvalidArgument("%s(dest=%#x on the device): symm's C API has no host atomics "
                              "on device memory (use an element of symm.array, or the device "
                              "API in a kernel)" % (call, b.addr))
    if stream is not None:
        raise InvalidArgument("%s(stream=%r): atomics are host-blocking calls on host memory"
                              % (call, stream))
    return b


def _call(call: str, family: str, op: str, dest: Any, pe: Any, values: tuple,
          fetches: bool, stream: Any) -> Optional[Any]:
    b = _target(call, family, dest, stream)
    pe = check_pe(call, "pe", pe)
    ct = b.dtype.ctype
    fn = _lib.typed("shmem_%s_atomic_%s" % (b.dtype.c, op), ct if fetches else None,
                    [_lib._P] + [ct] * len(values) + [_lib._c.c_int])
    return fn(b.addr, *values, pe)


def fetch_add(dest: Any, value: Any, pe: int, stream: Any = None) -> Any:
    """Adds value to dest on pe; returns the old value (shmem_TYPE_atomic_fetch_add)."""
    return _call("symm.fetch_add", "amo", "fetch_add", dest, pe, (value,), True, stream)


def add(dest: Any, value: Any, pe: int, stream: Any = None) -> None:
    """Adds value to dest on pe (shmem_TYPE_atomic_add); complete at quiet()."""
    _call("symm.add", "amo", "add", dest, pe, (value,), False, stream)


def fetch_inc(dest: Any, pe: int, stream: Any = None) -> Any:
    """Adds 1 to dest on pe; returns the old value (shmem_TYPE_atomic_fetch_inc)."""
    return _call("symm.fetch_inc", "amo", "fetch_inc", dest, pe, (), True, stream)


def inc(dest: Any, pe: int, stream: Any = None) -> None:
    """Adds 1 to dest on pe (shmem_TYPE_atomic_inc); complete at quiet()."""
    _call("symm.inc", "amo", "inc", dest, pe, (), False, stream)


def cswap(dest: Any, cond: Any, value: Any, pe: int, stream: Any = None) -> Any:
    """Sets dest on pe to value if it equals cond; returns the old value
    (shmem_TYPE_atomic_compare_swap)."""
    return _call("symm.cswap", "amo", "compare_swap", dest, pe, (cond, value), True, stream)


compare_swap = cswap


def swap(dest: Any, value: Any, pe: int, stream: Any = None) -> Any:
    """Sets dest on pe to value; returns the old value (shmem_TYPE_atomic_swap)."""
    return _call("symm.swap", "ext", "swap", dest, pe, (value,), True, stream)


def fetch(source: Any, pe: int, stream: Any = None) -> Any:
    """The value of source on pe, read atomically (shmem_TYPE_atomic_fetch)."""
    return _call("symm.fetch", "ext", "fetch", source, pe, (), True, stream)


def atomic_set(dest: Any, value: Any, pe: int, stream: Any = None) -> None:
    """Sets dest on pe to value atomically (shmem_TYPE_atomic_set); complete at quiet().
    Also symm.set."""
    _call("symm.set", "ext", "set", dest, pe, (value,), False, stream)


def fetch_and(dest: Any, value: Any, pe: int, stream: Any = None) -> Any:
    """dest &= value on pe; returns the old value (shmem_TYPE_atomic_fetch_and)."""
    return _call("symm.fetch_and", "bit", "fetch_and", dest, pe, (value,), True, stream)


def fetch_or(dest: Any, value: Any, pe: int, stream: Any = None) -> Any:
    """dest |= value on pe; returns the old value (shmem_TYPE_atomic_fetch_or)."""
    return _call("symm.fetch_or", "bit", "fetch_or", dest, pe, (value,), True, stream)


def fetch_xor(dest: Any, value: Any, pe: int, stream: Any = None) -> Any:
    """dest ^= value on pe; returns the old value (shmem_TYPE_atomic_fetch_xor)."""
    return _call("symm.fetch_xor", "bit", "fetch_xor", dest, pe, (value,), True, stream)


def atomic_and(dest: Any, value: Any, pe: int, stream: Any = None) -> None:
    """dest &= value on pe (shmem_TYPE_atomic_and); complete at quiet()."""
    _call("symm.atomic_and", "bit", "and", dest, pe, (value,), False, stream)


def atomic_or(dest: Any, value: Any, pe: int, stream: Any = None) -> None:
    """dest |= value on pe (shmem_TYPE_atomic_or); complete at quiet()."""
    _call("symm.atomic_or", "bit", "or", dest, pe, (value,), False, stream)


def atomic_xor(dest: Any, value: Any, pe: int, stream: Any = None) -> None:
    """dest ^= value on pe (shmem_TYPE_atomic_xor); complete at quiet()."""
    _call("symm.atomic_xor", "bit", "xor", dest, pe, (value,), False, stream)
