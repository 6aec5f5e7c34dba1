/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The profiling interface, as a tool uses it: this program defines shmem_long_put,
 * shmem_barrier_all and shmem_pcontrol itself, counts the calls and passes them on to the
 * library through their pshmem_ names. Its calls by name and through the type-generic
 * selector reach the wrappers, and the data and the synchronisation still arrive; its calls of
 * the pshmem_ names go to the library directly, the library's own shmem_pcontrol among them.
 */
#include <pshmem.h>

#include "../harness.h"

#define N 8

static long puts_seen, barriers_seen, pcontrol_level = -1;
static long dst[N], src[N];

void shmem_long_put(long *dest, const long *source, size_t nelems, int pe)
{
    puts_seen++;
    pshmem_long_put(dest, source, nelems, pe);
}

void shmem_barrier_all(void)
{
    barriers_seen++;
    pshmem_barrier_all();
}

void shmem_pcontrol(const int level, ...)
{
    pcontrol_level = level;
}

/* Each PE puts a block to its right neighbour, by name and by type, and the blocks arrive. */
static void ring(int me, int npes, int gen)
{
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;

    for (int i = 0; i < N; i++)
        src[i] = 1000 * (gen + 1) + 10 * me + i;
    if (gen)
        shmem_put(dst, src, N, right);
    else
        shmem_long_put(dst, src, N, right);
    shmem_barrier_all();
    for (int i = 0; i < N; i++)
        EXPECT(dst[i] == 1000 * (gen + 1) + 10 * left + i, "%s: [%d] = %ld from pe %d",
               gen ? "shmem_put" : "shmem_long_put", i, dst[i], left);
    shmem_barrier_all();
}

int main(void)
{
    int me, npes;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();

    /* The library's shmem_pcontrol, reached by its pshmem_ name (the program's own stands in
     * the shmem_ name), takes every level, with and without further arguments. */
    pshmem_pcontrol(0);
    pshmem_pcontrol(1);
    pshmem_pcontrol(2);
    pshmem_pcontrol(3, "level three", 1.5, &puts_seen);
    shmem_pcontrol(2, "flush");
    EXPECT(pcontrol_level == 2, "shmem_pcontrol(2) did not reach the program's own");

    ring(me, npes, 0);
    ring(me, npes, 1);
    EXPECT(puts_seen == 2, "the put wrapper saw %ld calls, not 2", puts_seen);
    EXPECT(barriers_seen == 4, "the barrier wrapper saw %ld calls, not 4", barriers_seen);

    /* The pshmem_ names called directly go past the wrappers. */
    src[0] = 77 + me;
    pshmem_long_put(dst, src, 1, (me + 1) % npes);
    pshmem_barrier_all();
    EXPECT(dst[0] == 77 + (me + npes - 1) % npes, "pshmem_long_put: %ld", dst[0]);
    EXPECT(puts_seen == 2 && barriers_seen == 4, "pshmem_ calls reached the wrappers");
    pshmem_barrier_all();
    return test_finish("profile");
}
