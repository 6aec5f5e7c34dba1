# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The symm authors
"""symm's stream collectives from Python against torch.distributed with NCCL, on torch tensors:
reduce (sum; NCCL all_reduce) and alltoall (NCCL all_to_all_single) of float32 tensors from
1 KiB to 256 MiB, each call enqueued on torch's current stream. Two figures per call:
  enqueue  host time from the call to its return (the Python layer, ctypes and the library's
           enqueue): bursts of 8 calls behind a long kernel on the stream, so that nothing waits
           for the GPU; the median over 100 bursts of the mean call;
  gpu      stream time per call over ITERS calls back to back (CUDA events), median of 5.
Also the enqueue time of the stream forms of put (8 bytes, to this PE), quiet and barrier. At
1 PE (alone, or torchrun --nproc_per_node 1) the figures are the calls' own shapes and
overheads; torchrun --nproc_per_node 2 on two GPUs gives the two-GPU figures. PE 0 prints a
Markdown table.

    python3 bench/python/gpu_coll.py [--max-mib 256] [--iters 20]
    torchrun --nproc_per_node 2 bench/python/gpu_coll.py"""

import argparse
import os
import statistics
import time

import torch
import torch.distributed as dist

import symm


BURST = 8
TRIALS = 100


def enqueue_us(fn, iters):
    """Host time of one call, the stream kept busy so that no call waits: each trial queues a
    long kernel, then times BURST calls back to back behind it; the median over trials of
    their mean."""
    out = []
    busy = torch.empty(1 << 26, device="cuda")
    for _ in range(iters):
        torch.cuda.synchronize()
        busy.mul_(1.0)  # about 0.2 ms of work ahead on the stream
        t0 = time.perf_counter_ns()
        for _ in range(BURST):
            fn()
        out.append((time.perf_counter_ns() - t0) / 1e3 / BURST)
    torch.cuda.synchronize()
    return statistics.median(out)


def gpu_us(fn, iters):
    """Median over 5 batches of the stream time per call."""
    out = []
    for _ in range(5):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        for _ in range(iters):
            fn()
        b.record()
        b.synchronize()
        out.append(a.elapsed_time(b) * 1e3 / iters)
    return statistics.median(out)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-mib", type=int, default=256)
    ap.add_argument("--iters", type=int, default=20)
    args = ap.parse_args()
    if "RANK" not in os.environ:  # alone: a torch.distributed group of one
        os.environ.update(RANK="0", WORLD_SIZE="1", MASTER_ADDR="127.0.0.1",
                          MASTER_PORT=os.environ.get("MASTER_PORT", "29517"))
    torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", "0")))
    dist.init_process_group("nccl")
    symm.init(device="cuda")
    me, n = symm.my_pe(), symm.n_pes()
    s = torch.cuda.current_stream()
    rows = []
    size = 1024
    while size <= args.max_mib << 20:
        count = size // 4
        count -= count % n
        src = symm.tensor(count, torch.float32)
        dst = symm.tensor(count, torch.float32)
        src.fill_(1.0)
        t_src = torch.ones(count, device="cuda")
        t_dst = torch.empty(count, device="cuda")
        symm.barrier(stream=s)
        calls = {
            "symm.reduce": lambda: symm.reduce(symm.TEAM_WORLD, dst, src, "sum", stream=s),
            "nccl all_reduce": lambda: dist.all_reduce(t_src),
            "symm.alltoall": lambda: symm.alltoall(symm.TEAM_WORLD, dst, src, stream=s),
            "nccl all_to_all_single": lambda: dist.all_to_all_single(t_dst, t_src),
        }
        for name, fn in calls.items():
            fn()  # warm-up
            torch.cuda.synchronize()
            rows.append((name, size, enqueue_us(fn, TRIALS), gpu_us(fn, args.iters)))
        symm.barrier(stream=s)
        torch.cuda.synchronize()
        symm.free(dst)
        symm.free(src)
        del t_src, t_dst
        size *= 4
    word = symm.tensor(1, torch.int64)
    one = torch.zeros(1, dtype=torch.int64, device="cuda")
    small_src = symm.tensor(256 * n, torch.float32)
    small_dst = symm.tensor(256 * n, torch.float32)
    h = symm.TEAM_WORLD.handle()
    a2a_c = symm._lib.lib().shmemx_alltoallmem_on_stream
    d_addr, s_addr, st = small_dst.data_ptr(), small_src.data_ptr(), s.cuda_stream
    small = [("symm.put 8 B", lambda: symm.put(word, one, me, stream=s)),
             ("symm.quiet", lambda: symm.quiet(stream=s)),
             ("symm.barrier", lambda: symm.barrier(stream=s)),
             ("symm.reduce 1 KiB", lambda: symm.reduce(symm.TEAM_WORLD, small_dst, small_src,
                                                       "sum", stream=s)),
             ("symm.alltoall 1 KiB", lambda: symm.alltoall(symm.TEAM_WORLD, small_dst,
                                                           small_src, stream=s)),
             # The references: the C call alone through ctypes, and a torch kernel's launch.
             ("C shmemx_alltoallmem_on_stream (ctypes)", lambda: a2a_c(h, d_addr, s_addr, 1024,
                                                                       st)),
             ("torch one.add_(1), a kernel launch", lambda: one.add_(1))]
    small_rows = [(name, enqueue_us(fn, 200)) for name, fn in small]
    torch.cuda.synchronize()
    symm.free(small_dst)
    symm.free(small_src)
    symm.free(word)
    if me == 0:
        print("GPU: %s, %d PE(s)\n" % (torch.cuda.get_device_name(), n))
        print("| call | bytes | enqueue (us) | gpu (us) |")
        print("|---|---|---|---|")
        for name, size, enq, g in rows:
            print("| %s | %d | %.1f | %.1f |" % (name, size, enq, g))
        print("\n| stream call | enqueue (us) |")
        print("|---|---|")
        for name, enq in small_rows:
            print("| %s | %.1f |" % (name, enq))
    symm.finalize()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
