# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The symm authors
"""A ring of puts with signals: each PE sends a block to the next PE with put_signal, waits for
the block of the previous PE on its own signal, adds its number to it and passes it on. After
n_pes() steps every block has been round the ring and holds the sum of all PE numbers plus its
starting value. Symmetric NumPy arrays on CPU PEs; with --device cuda, torch tensors on each
PE's GPU and every call on torch's current stream.

    build/tools/symmrun -n 4 python3 examples/python/ring.py
    build/tools/symmrun -n 2 --nodes 2 python3 examples/python/ring.py    # over UCX
    build/tools/symmrun -n 2 python3 examples/python/ring.py --device cuda"""

import sys

import numpy as np

import symm

N = 1 << 12  # elements per block


def main() -> int:
    on_gpu = "--device" in sys.argv and sys.argv[sys.argv.index("--device") + 1] == "cuda"
    symm.init(device="cuda" if on_gpu else None)
    me, n = symm.my_pe(), symm.n_pes()
    nxt = (me + 1) % n
    if on_gpu:
        import torch
        box = symm.tensor((2, N), torch.int64)       # two slots: steps alternate between them
        sig = symm.tensor(2, torch.int64)
        box.zero_()
        sig.zero_()
        work = torch.full((N,), me, dtype=torch.int64, device=box.device)
        stream = torch.cuda.current_stream()
    else:
        box = symm.array((2, N), "int64")
        sig = symm.array(2, "uint64")
        box[...] = 0
        sig[...] = 0
        work = np.full(N, me, dtype=np.int64)        # the block this PE starts with
        stream = None
    symm.barrier(stream=stream)
    for step in range(n):
        slot = step % 2
        # the block goes to the next PE's slot; the signal counts the steps there
        symm.put_signal(box[slot], work, sig[slot:slot + 1], step // 2 + 1, symm.SIGNAL_SET,
                        nxt, stream=stream)
        symm.signal_wait(sig[slot:slot + 1], step // 2 + 1, symm.CMP_GE, stream=stream)
        work = box[slot] + me                        # this PE's part of the block
        # the slot is written again two steps later: everyone has read it by then
        symm.barrier(stream=stream)
    if on_gpu:
        torch.cuda.synchronize()
        work = work.cpu().numpy()
    start = (me - n) % n                             # the PE whose block ends here
    want = start + n * (n - 1) // 2
    ok = bool(np.all(work == want))
    print("ring: pe %d of %d: block of pe %d holds %d, %s" % (me, n, start, int(work[0]),
                                                               "ok" if ok else "WRONG"))
    symm.free(sig)
    symm.free(box)
    symm.finalize()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
