# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The symm authors
"""A fault the Python layer cannot see from one PE: PEs that ask for blocks of different sizes.
The C library finds it in the allocation's agreement and ends the job with its one line
(symm: [pe N host pid] shmem_malloc: collective allocation #K differs across PEs: ...), as it
does for a C program; nothing after the call runs.

    symmrun -n 2 python3 tests/python/fatal.py"""

import symm

symm.init()
symm.array(10 if symm.my_pe() == 0 else 20, "float32")
print("fatal.py: the allocation returned")
