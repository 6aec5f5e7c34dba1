/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * shmem_malloc_with_hints: hints are advice, so bits the library does not know are ignored.
 * With the standard hints, with unknown bits alone, with both kinds together and with every
 * bit set (SHMEMX_MALLOC_DEVICE, symm's one hint that moves the block to the GPU, included:
 * among unknown bits it is ignored too), every PE gets a host block at the same offset of its
 * heap, peers write both ends of it and the bytes arrive, and it frees; size 0 gives NULL
 * whatever the hints.
 */
#include <shmemx.h>

#include "../harness.h"

static int me, npes, right, left;
static long offset_slot;

static void expect_block(long hints, size_t size)
{
    char *p = shmem_malloc_with_hints(size, hints);
    char mine[2] = {(char)(1 + me), (char)(100 + me)};

    EXPECT(p != NULL, "shmem_malloc_with_hints(size=%zu, hints=%#lx) gave NULL", size, hints);
    if (!p) {
        shmem_barrier_all();
        return;
    }
    offset_slot = (long)((char *)p - (char *)shmemx_heap_base(me));
    shmem_barrier_all();
    for (int pe = 0; pe < npes; pe++) {
        long o = shmem_long_g(&offset_slot, pe);
        EXPECT(o == offset_slot, "hints=%#lx: the block is at offset %ld here, %ld on pe %d", hints,
               offset_slot, o, pe);
    }
    shmem_putmem(p, &mine[0], 1, right);
    shmem_putmem(p + size - 1, &mine[1], 1, right);
    shmem_barrier_all();
    EXPECT(p[0] == (char)(1 + left) && p[size - 1] == (char)(100 + left),
           "hints=%#lx: bytes put by pe %d at both ends of %zu bytes did not arrive (%d %d)", hints,
           left, size, p[0], p[size - 1]);
    shmem_free(p);
}

int main(void)
{
    static const long unknown[] = {
        0x100,
        1L << 20,
        1L << (sizeof(long) * 8 - 2),
        -1L & ~SHMEMX_MALLOC_DEVICE,
        ~SHMEM_MALLOC_ATOMICS_REMOTE,
        -1L,
        SHMEM_MALLOC_ATOMICS_REMOTE | 0x40,
        SHMEM_MALLOC_ATOMICS_REMOTE | SHMEM_MALLOC_SIGNAL_REMOTE | (1L << 30),
    };

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    right = (me + 1) % npes;
    left = (me + npes - 1) % npes;
    expect_block(0, 64);
    expect_block(SHMEM_MALLOC_ATOMICS_REMOTE, 64);
    expect_block(SHMEM_MALLOC_SIGNAL_REMOTE | SHMEM_MALLOC_ATOMICS_REMOTE, 4096);
    for (size_t i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++)
        expect_block(unknown[i], 64 + 1000 * i);
    EXPECT(shmem_malloc_with_hints(0, 0x100) == NULL, "shmem_malloc_with_hints(0, 0x100)");
    return test_finish("hints");
}
