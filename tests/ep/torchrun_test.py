# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The symm authors
"""symm started by torchrun: torch.distributed first (gloo), then symm.init(), which makes
the job through a unique id broadcast over torch.distributed; the group's ranks are the PEs.
Each PE writes its rank into the next PE's symmetric GPU tensor and checks what it got.

    torchrun --nproc_per_node 2 tests/ep/torchrun_test.py"""

import sys

import torch
import torch.distributed as dist

dist.init_process_group("gloo")
import symm  # noqa: E402

symm.init()
rank, size = dist.get_rank(), dist.get_world_size()
if symm.my_pe() != rank or symm.n_pes() != size:
    print("torchrun_test: pe %d of %d, expected %d of %d"
          % (symm.my_pe(), symm.n_pes(), rank, size), file=sys.stderr)
    sys.exit(1)
t = symm.tensor((1024,), torch.int32)
t.fill_(-1)
symm.barrier()
far = symm.peer(t, (rank + 1) % size)
far.fill_(rank)
torch.cuda.synchronize()
symm.barrier()
if not bool((t == (rank + size - 1) % size).all()):
    print("torchrun_test: pe %d holds %s" % (rank, t[:4].tolist()), file=sys.stderr)
    sys.exit(1)
symm.barrier()
if rank == 0:
    print("torchrun_test: %d PEs ok" % size)
symm.free(t)
symm.finalize()
dist.destroy_process_group()
