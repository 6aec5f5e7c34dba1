# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The symm authors
"""symm.init with a unique id, as processes that torchrun or mp.spawn start join a job: rank 0
makes the id (symm.get_unique_id) and hands it over in a file (SYMM_TEST_ID_FILE), as a
program would through torch.distributed; every process passes it with RANK and WORLD_SIZE.
Then each PE writes its rank into the next PE's symmetric array where the node lets it store
(symm.peer), and checks what it got.

    tests/boot/uid_run.sh 3 python3 tests/ep/uid_test.py"""

import os
import sys
import time

import numpy as np

import symm

rank, size = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
path = os.environ["SYMM_TEST_ID_FILE"]
if rank == 0:
    uid = symm.get_unique_id()
    with open(path + ".tmp", "wb") as f:
        f.write(uid)
    os.rename(path + ".tmp", path)
else:
    for _ in range(6000):
        if os.path.exists(path):
            break
        time.sleep(0.01)
    with open(path, "rb") as f:
        uid = f.read()
symm.init(uid, rank, size)
if symm.my_pe() != rank or symm.n_pes() != size:
    print("uid_test: pe %d of %d, expected %d of %d" % (symm.my_pe(), symm.n_pes(), rank, size),
          file=sys.stderr)
    sys.exit(1)
a = symm.array(4, "int64")
a[:] = -1
symm.barrier()
nxt = (rank + 1) % size
far = symm.peer(a, nxt)
if far is not None:
    far[:] = rank
symm.barrier()
prev = (rank + size - 1) % size
if far is not None and not np.all(a == prev):
    print("uid_test: pe %d holds %s, expected %d" % (rank, a, prev), file=sys.stderr)
    sys.exit(1)
symm.barrier()
if rank == 0:
    print("uid_test: %d PEs ok" % size)
symm.free(a)
symm.finalize()
