# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The symm authors
"""The tests of the Python interface, run by pytest inside every PE of a job:

    symmrun -n 4 python3 -m pytest -q tests/python

Every PE runs the same tests in the same order, so the collective calls in them meet. A test
does its communication first and its assertions after its last collective call, so a failing
check on one PE does not leave the others waiting; the job's timeout ends a run that hangs
anyway.

How the job starts (SYMM_PY_INIT): "symm" (symmrun, mpirun or alone: symm.init()), "mpi4py"
(symm.init(mpi_comm=MPI.COMM_WORLD) under mpirun), "uid" (processes started by
tests/boot/uid_run.sh, the unique id passed in the file SYMM_TEST_ID_FILE), "torchrun"
(torch.distributed first, then symm.init()). Which buffers (SYMM_PY_KINDS, comma-separated):
"numpy" (symm.array on the host heap; the default, with "torch-cpu" where torch is installed),
"torch" (symm.tensor on this PE's GPU) and "cupy" (symm.array on the device heap); the GPU
kinds make this a GPU PE (symm.init(device="cuda"))."""

import os
import time

import numpy as np
import pytest

import symm

INIT = os.environ.get("SYMM_PY_INIT", "symm")


def _have(mod: str) -> bool:
    try:
        __import__(mod)
        return True
    except ImportError:
        return False


def kinds():
    env = os.environ.get("SYMM_PY_KINDS")
    if env:
        return [k for k in env.split(",") if k]
    return ["numpy"] + (["torch-cpu"] if _have("torch") else [])


GPU = any(k in ("torch", "cupy") for k in kinds())


def _start():
    if INIT == "mpi4py":
        from mpi4py import MPI
        symm.init(mpi_comm=MPI.COMM_WORLD, device="cuda" if GPU else None)
    elif INIT == "uid":
        rank, size = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
        path = os.environ["SYMM_TEST_ID_FILE"]
        if rank == 0:
            with open(path + ".tmp", "wb") as f:
                f.write(symm.get_unique_id())
            os.rename(path + ".tmp", path)
        else:
            for _ in range(6000):
                if os.path.exists(path):
                    break
                time.sleep(0.01)
        with open(path, "rb") as f:
            uid = f.read()
        symm.init(uid, rank, size, device="cuda" if GPU else None)
    elif INIT == "torchrun":
        import torch.distributed as dist
        dist.init_process_group("gloo")
        symm.init(device="cuda" if GPU else None)
    else:
        symm.init(device="cuda" if GPU else None)


def pytest_configure(config):
    _start()


def pytest_unconfigure(config):
    if symm.initialized():
        symm.finalize()
    if INIT == "torchrun":
        import torch.distributed as dist
        if dist.is_initialized():
            dist.destroy_process_group()


def pytest_report_header(config):
    return "symm: pe %d of %d, init %s, kinds %s" % (symm.my_pe(), symm.n_pes(), INIT,
                                                    ",".join(kinds()))


# ---- Buffers of one kind -----------------------------------------------------------------------
class Kit:
    """How a test makes and reads buffers of one kind: symmetric ones (sym), local ones from
    NumPy values (loc), their values as NumPy (host), and how a step of communication ends
    (done: every PE's operations complete and visible, every PE past it)."""

    def __init__(self, kind):
        self.kind = kind
        self.device = kind in ("torch", "cupy")
        self.torch = None
        if kind.startswith("torch"):
            import torch
            self.torch = torch
        if kind == "cupy":
            import cupy
            self.cupy = cupy

    def __repr__(self):
        return self.kind

    # dtypes this kind can hold
    def dtypes(self):
        if self.kind == "numpy":
            return [n for n in ("bool", "int8", "uint8", "int16", "uint16", "int32", "uint32",
                                "int64", "uint64", "float16", "float32", "float64",
                                "longdouble", "complex64", "complex128")]
        if self.kind == "cupy":
            return ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64",
                    "uint64", "float16", "float32", "float64", "complex64", "complex128"]
        names = ["bool", "int8", "uint8", "int16", "int32", "int64", "float16", "bfloat16",
                 "float32", "float64", "complex64", "complex128"]
        return [n for n in names if hasattr(self.torch, n)]

    def _tdtype(self, name):
        return getattr(self.torch, name)

    def sym(self, shape, dtype):
        if self.kind == "numpy":
            return symm.array(shape, dtype, device="cpu")
        if self.kind == "cupy":
            return symm.array(shape, dtype, device="cuda")
        return symm.tensor(shape, self._tdtype(dtype),
                           device="cpu" if self.kind == "torch-cpu" else "cuda")

    def loc(self, values, dtype):
        """A local (not symmetric) buffer holding values."""
        v = np.asarray(values)
        if self.kind == "numpy":
            return np.ascontiguousarray(v.astype(dtype))
        if self.kind == "cupy":
            return self.cupy.asarray(v.astype(dtype))
        t = self.torch
        if dtype == "bfloat16":
            x = t.from_numpy(np.ascontiguousarray(v.astype("float32"))).to(t.bfloat16)
        else:
            x = t.from_numpy(np.ascontiguousarray(v.astype(dtype)))
        return x.to("cuda") if self.kind == "torch" else x

    def empty_loc(self, shape, dtype):
        return self.loc(np.zeros(shape), dtype)

    def fill(self, x, values):
        v = np.asarray(values)
        if self.kind == "numpy":
            x[...] = v
        elif self.kind == "cupy":
            x[...] = self.cupy.asarray(v.astype(x.dtype))
        else:
            x.copy_(self.torch.from_numpy(np.ascontiguousarray(v.astype(
                "float32" if x.dtype == self.torch.bfloat16 else
                str(x.dtype).rsplit(".", 1)[-1]))).to(x.device))
        self.sync()

    def host(self, x):
        if self.kind == "numpy":
            return np.array(x)
        if self.kind == "cupy":
            return self.cupy.asnumpy(x)
        y = x.detach().cpu()
        if y.dtype == self.torch.bfloat16:
            y = y.float()
        return y.numpy().copy()

    @property
    def stream(self):
        """The stream the calls of this kind go on (None: host-blocking)."""
        if self.kind == "torch":
            return self.torch.cuda.current_stream()
        if self.kind == "cupy":
            return self.cupy.cuda.get_current_stream()
        return None

    def sync(self):
        if self.kind == "torch":
            self.torch.cuda.synchronize()
        elif self.kind == "cupy":
            self.cupy.cuda.get_current_stream().synchronize()

    def done(self, team=None):
        """Every PE's (every member's of team) operations so far complete and visible, all
        past this point."""
        if self.device:
            symm.barrier(team, stream=self.stream)
            self.sync()
        symm.barrier(team)


@pytest.fixture(params=kinds(), scope="session")
def kit(request):
    return Kit(request.param)


@pytest.fixture(scope="session")
def me():
    return symm.my_pe()


@pytest.fixture(scope="session")
def npes():
    return symm.n_pes()


def pattern(dtype, pe, n, salt=0):
    """Values a PE writes: distinct per PE and index, exact in every dtype."""
    i = np.arange(n)
    v = (pe * 13 + i * 3 + salt) % 61
    if dtype == "bool":
        return ((pe + i + salt) % 2).astype(bool)
    if dtype.startswith("complex"):
        return (v + 1j * (pe + 1)).astype(dtype)
    if dtype == "bfloat16":
        return v.astype("float32")
    return v.astype(dtype)


def as_host_dtype(dtype):
    return "float32" if dtype == "bfloat16" else dtype
