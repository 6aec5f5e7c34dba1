/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Sources that end where symmetric memory ends, exactly as long as the call reads, so a
 * collective that reads or checks past the end of what it needs is caught: in the last block
 * the heap can give (run with a small SHMEM_SYMMETRIC_SIZE), and in a global array at the end
 * of the program's data segment (symmetric too; it ends at the page after .bss). alltoalls with
 * a source stride above 1 reads ((n * nelems - 1) * sst + 1) elements, not n * nelems * sst.
 * Team forms and active-set forms.
 */
#include <unistd.h>

#include <shmemx.h>

#include "cases.h"

static long psync[SHMEM_SYNC_SIZE];

#define GTAIL 8192
static long gtail[GTAIL];
extern char _end[]; /* the end of .bss, from the linker */

/* alltoalls from the last bytes of gtail with a source stride that reaches past the end of the
 * data segment when the whole n * nelems * sst span is taken, nelems 1. */
static void data_tail(long *dest, int me, int n)
{
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t seg_end = ((uintptr_t)_end + page - 1) & ~(page - 1);
    size_t slack = seg_end - (uintptr_t)(gtail + GTAIL);
    ptrdiff_t sst = (ptrdiff_t)(slack / sizeof(long)) + 2;
    size_t extent;
    long *src;

    if (n < 2 || (size_t)(n - 1) * sst + 1 > GTAIL) {
        if (me == 0)
            printf("coll_edges: %zu bytes of data segment after the array, not tried\n", slack);
        return;
    }
    extent = (size_t)(n - 1) * sst + 1;
    src = gtail + GTAIL - extent;
    for (int j = 0; j < n; j++)
        src[j * sst] = me * 1000 + j;
    shmem_barrier_all();
    shmem_alltoalls64(dest, src, 1, sst, 1, 0, 0, n, psync);
    for (int j = 0; j < n; j++)
        EXPECT(dest[j] == j * 1000 + me, "shmem_alltoalls64 from the data segment's end, sst "
               "%td: [%d] is %ld", sst, j, dest[j]);
    shmem_barrier_all();
    shmem_long_alltoalls(SHMEM_TEAM_WORLD, dest, src, 1, sst, 1);
    for (int j = 0; j < n; j++)
        EXPECT(dest[j] == j * 1000 + me, "alltoalls from the data segment's end, sst %td: "
               "[%d] is %ld", sst, j, dest[j]);
    shmem_barrier_all();
}

int main(void)
{
    size_t lo = 0, hi, nelems = 4;
    char *tail, *end;
    long *dest, *src;
    int me, n;

    test_start();
    me = shmem_my_pe();
    n = shmem_n_pes();
    dest = shmem_malloc(64 << 10);
    /* The largest block left: it ends where the heap does, but for the allocator's rounding. */
    hi = shmemx_heap_size();
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        char *q = shmem_malloc(mid);
        if (q) {
            shmem_free(q);
            lo = mid;
        } else {
            hi = mid;
        }
    }
    tail = shmem_malloc(lo);
    EXPECT(tail != NULL && dest != NULL, "no block to work in");
    if (!tail || !dest)
        return test_finish("coll_edges");
    end = tail + lo;

    /* Team alltoalls, dest stride 1, source strides up to 8 (more than the allocator's
     * rounding): team PE j's block is at j * nelems * sst; the last element read is
     * (n * nelems - 1) * sst. */
    for (ptrdiff_t sst = 1; sst <= 8; sst++) {
        size_t extent = ((size_t)n * nelems - 1) * sst + 1;
        src = (long *)(end - extent * sizeof(long));
        for (size_t k = 0; k < (size_t)n * nelems; k++)
            src[k * sst] = me * 1000 + (long)k;
        memset(dest, 0, (size_t)n * nelems * sizeof(long));
        shmem_barrier_all();
        shmem_long_alltoalls(SHMEM_TEAM_WORLD, dest, src, 1, sst, nelems);
        for (int j = 0; j < n; j++)
            for (size_t i = 0; i < nelems; i++)
                EXPECT(dest[j * nelems + i] == j * 1000 + (long)(me * nelems + i),
                       "shmem_long_alltoalls sst %td: [%zu] from pe %d is %ld", sst,
                       j * nelems + i, j, dest[j * nelems + i]);
        shmem_barrier_all();
        /* The same through the active-set form. */
        memset(dest, 0, (size_t)n * nelems * sizeof(long));
        shmem_alltoalls64(dest, src, 1, sst, nelems, 0, 0, n, psync);
        for (int j = 0; j < n; j++)
            EXPECT(dest[j * nelems] == j * 1000 + (long)(me * nelems),
                   "shmem_alltoalls64 sst %td: block from pe %d starts with %ld", sst, j,
                   dest[j * nelems]);
        shmem_barrier_all();
    }

    /* The other kinds with their source in the last bytes. */
    src = (long *)(end - nelems * n * sizeof(long));
    for (size_t k = 0; k < nelems * n; k++)
        src[k] = me * 1000 + (long)k;
    shmem_barrier_all();
    shmem_long_alltoall(SHMEM_TEAM_WORLD, dest, src, nelems);
    EXPECT(dest[0] == (long)(me * nelems), "shmem_long_alltoall: %ld", dest[0]);
    src = (long *)(end - nelems * sizeof(long));
    for (size_t k = 0; k < nelems; k++)
        src[k] = me * 1000 + (long)k;
    shmem_barrier_all();
    shmem_long_fcollect(SHMEM_TEAM_WORLD, dest, src, nelems);
    EXPECT(dest[(n - 1) * nelems] == (n - 1) * 1000, "shmem_long_fcollect: %ld",
           dest[(n - 1) * nelems]);
    shmem_long_collect(SHMEM_TEAM_WORLD, dest, src, nelems);
    EXPECT(dest[(n - 1) * nelems] == (n - 1) * 1000, "shmem_long_collect: %ld",
           dest[(n - 1) * nelems]);
    shmem_long_broadcast(SHMEM_TEAM_WORLD, dest, src, nelems, n - 1);
    EXPECT(dest[nelems - 1] == (n - 1) * 1000 + (long)nelems - 1, "shmem_long_broadcast: %ld",
           dest[nelems - 1]);
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dest, src, nelems);
    EXPECT(dest[0] == 1000L * n * (n - 1) / 2, "shmem_long_sum_reduce: %ld", dest[0]);
    shmem_long_sum_inscan(SHMEM_TEAM_WORLD, dest, src, nelems);
    EXPECT(dest[0] == 1000L * me * (me + 1) / 2, "shmem_long_sum_inscan: %ld", dest[0]);
    shmem_collect64(dest, src, nelems, 0, 0, n, psync);
    EXPECT(dest[(n - 1) * nelems] == (n - 1) * 1000, "shmem_collect64: %ld",
           dest[(n - 1) * nelems]);
    shmem_long_sum_to_all(dest, src, (int)nelems, 0, 0, n, dest + 1024, psync);
    EXPECT(dest[0] == 1000L * n * (n - 1) / 2, "shmem_long_sum_to_all: %ld", dest[0]);
    shmem_barrier_all();
    data_tail(dest, me, n);
    shmem_free(tail);
    shmem_free(dest);
    return test_finish("coll_edges");
}
