/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * PEs stream puts and gets to a PE of another host and check every byte, for the network fault
 * tests (tests/hosts/fault.sh). Each round, PE i writes a block whose bytes follow from the
 * round and i into its own slot of PE (i + ppn) mod n (ppn: PEs a host, the first argument),
 * completes it with a quiet, reads it back with a get and compares; after a barrier every PE
 * checks the slots written into its own heap. A wrong byte anywhere is reported and ends the
 * job with status 3; a job that completes prints "stream: ... all checks right".
 *   stream PPN ROUNDS [BYTES]
 * Each PE prints "stream: pe N round R" every 16 rounds on stderr, so that a test sees the
 * job is streaming before it cuts the network.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <shmem.h>

static uint64_t word(uint64_t round, uint64_t pe, uint64_t k)
{
    uint64_t x = (round << 40) ^ (pe << 24) ^ k;

    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return x;
}

static void fill(uint64_t *p, size_t n, int round, int pe)
{
    for (size_t k = 0; k < n; k++)
        p[k] = word((uint64_t)round, (uint64_t)pe, k);
}

static void check(const uint64_t *p, size_t n, int round, int pe, const char *what)
{
    for (size_t k = 0; k < n; k++)
        if (p[k] != word((uint64_t)round, (uint64_t)pe, k)) {
            fprintf(stderr,
                    "stream: pe %d round %d: wrong value in %s of pe %d at word %zu: %016" PRIx64
                    "\n",
                    shmem_my_pe(), round, what, pe, k, p[k]);
            shmem_global_exit(3);
        }
}

int main(int argc, char **argv)
{
    int ppn = argc > 1 ? atoi(argv[1]) : 1, rounds = argc > 2 ? atoi(argv[2]) : 100;
    size_t bytes = argc > 3 ? strtoul(argv[3], NULL, 0) : 65536, n = bytes / sizeof(uint64_t);
    int me, npes, to;
    uint64_t *slots, *mine, *back;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    to = (me + ppn) % npes;
    slots = shmem_malloc((size_t)npes * n * sizeof(uint64_t));
    mine = malloc(n * sizeof(uint64_t));
    back = malloc(n * sizeof(uint64_t));
    if (!slots || !mine || !back || n == 0) {
        fprintf(stderr, "stream: pe %d: no memory for blocks of %zu bytes\n", me, bytes);
        shmem_global_exit(2);
    }
    for (int r = 0; r < rounds; r++) {
        fill(mine, n, r, me);
        shmem_putmem(slots + (size_t)me * n, mine, n * sizeof(uint64_t), to);
        shmem_quiet();
        shmem_getmem(back, slots + (size_t)me * n, n * sizeof(uint64_t), to);
        check(back, n, r, me, "the block read back");
        shmem_barrier_all();
        for (int from = 0; from < npes; from++)
            if ((from + ppn) % npes == me)
                check(slots + (size_t)from * n, n, r, from, "the slot written");
        if (r % 16 == 0)
            fprintf(stderr, "stream: pe %d round %d\n", me, r);
        shmem_barrier_all();
    }
    if (me == 0)
        printf("stream: %d PEs, %d rounds of %zu bytes, all checks right\n", npes, rounds, bytes);
    shmem_free(slots);
    free(mine);
    free(back);
    shmem_finalize();
    return 0;
}
