# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The symm authors
"""An allreduce and an alltoall on torch tensors in symmetric memory, as a PyTorch program
writes them with torch.distributed, here with symm: the gradient-style sum of a bfloat16
tensor over all PEs (symm.reduce, "sum"), and the token exchange of expert parallelism (each
PE sends block j of its tensor to PE j: symm.alltoall). On GPU PEs the tensors live in the
device heap and both calls are enqueued on torch's current stream; with --device cpu the same
code runs on the host heap, host-blocking.

    build/tools/symmrun -n 2 python3 examples/python/torch_collectives.py            # GPUs
    build/tools/symmrun -n 4 python3 examples/python/torch_collectives.py --device cpu
    torchrun --nproc_per_node 2 examples/python/torch_collectives.py"""

import os
import sys

import torch

import symm

HIDDEN = 1024   # elements a PE reduces
TOKENS = 64     # rows a PE sends to each PE in the alltoall


def main() -> int:
    want = "cuda" if torch.cuda.is_available() else "cpu"
    if "--device" in sys.argv:
        want = sys.argv[sys.argv.index("--device") + 1]
    if "LOCAL_RANK" in os.environ and "SYMM_BOOT" not in os.environ:
        import torch.distributed as dist   # started by torchrun: symm joins its group
        dist.init_process_group("gloo")
    symm.init(device=want)
    me, n = symm.my_pe(), symm.n_pes()
    stream = torch.cuda.current_stream() if want == "cuda" else None

    # allreduce: every PE's grad is (me + 1) * ones; the sum is n (n + 1) / 2 everywhere
    grad = symm.tensor((HIDDEN,), torch.bfloat16, device=want)
    grad.fill_(me + 1)
    symm.reduce(symm.TEAM_WORLD, grad, grad, "sum", stream=stream)

    # alltoall: block j (TOKENS rows of 8) goes to PE j; block i here came from PE i
    send = symm.tensor((n * TOKENS, 8), torch.float32, device=want)
    recv = symm.tensor((n * TOKENS, 8), torch.float32, device=want)
    for j in range(n):
        send[j * TOKENS:(j + 1) * TOKENS] = 100 * me + j
    symm.alltoall(symm.TEAM_WORLD, recv, send, stream=stream)

    if stream is not None:
        stream.synchronize()
    ok = bool((grad.float() == n * (n + 1) // 2).all())
    for i in range(n):
        ok = ok and bool((recv[i * TOKENS:(i + 1) * TOKENS] == 100 * i + me).all())
    symm.barrier(stream=stream)
    if stream is not None:
        stream.synchronize()
    if not ok:
        print("torch_collectives: pe %d: WRONG (grad %s, recv %s)"
              % (me, grad[:2].tolist(), recv[::TOKENS, 0].tolist()))
    elif me == 0:
        print("torch_collectives: %d PEs ok" % n)
    for t in (recv, send, grad):
        symm.free(t)
    symm.finalize()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
