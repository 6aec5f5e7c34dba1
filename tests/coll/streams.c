/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Long runs of small collectives with nothing between them, so that every PE's cells (parts
 * of up to a cache line less a word) and scratch buffers are reused many times over while some
 * PEs lag behind (one of them sleeps now and then): broadcasts from one root, which waits for
 * nobody and so runs ahead until the others have read the cell it is about to reuse; then
 * mixed broadcasts, fcollects, alltoalls and reductions whose parts straddle the cell size and
 * the scratch size, with rotating roots. Every result is checked on every PE.
 */
#include <unistd.h>

#include "cases.h"

#define MAX_PART (66 << 10)

static unsigned char *src, *dst;
static int *isrc, *idst;
static int me, npes;

static unsigned char byte_of(int pe, size_t j, int it)
{
    return (unsigned char)(pe * 31 + j * 7 + it);
}

/* One PE in turn sleeps a little, so the others run ahead of it. */
static void lag(int it)
{
    if (it % 23 == 0 && me == (it / 23) % npes)
        usleep(200);
}

static void fill(size_t len, int it)
{
    for (size_t j = 0; j < len; j++)
        src[j] = byte_of(me, j, it);
}

static void broadcast(size_t len, int root, int it)
{
    size_t bad = 0;

    fill(len, it);
    shmem_broadcastmem(SHMEM_TEAM_WORLD, dst, src, len, root);
    for (size_t j = 0; j < len; j++)
        bad += dst[j] != byte_of(root, j, it);
    EXPECT(!bad, "broadcast of %zu bytes from %d, call %d: %zu bytes wrong", len, root, it, bad);
}

static void fcollect(size_t len, int it)
{
    size_t bad = 0;

    fill(len, it);
    shmem_fcollectmem(SHMEM_TEAM_WORLD, dst, src, len);
    for (int p = 0; p < npes; p++)
        for (size_t j = 0; j < len; j++)
            bad += dst[p * len + j] != byte_of(p, j, it);
    EXPECT(!bad, "fcollect of %zu bytes, call %d: %zu bytes wrong", len, it, bad);
}

static void alltoall(size_t len, int it)
{
    size_t bad = 0;

    fill(len * npes, it);
    shmem_alltoallmem(SHMEM_TEAM_WORLD, dst, src, len);
    for (int p = 0; p < npes; p++)
        for (size_t j = 0; j < len; j++)
            bad += dst[p * len + j] != byte_of(p, me * len + j, it);
    EXPECT(!bad, "alltoall of %zu bytes per pair, call %d: %zu bytes wrong", len, it, bad);
}

static void sum(size_t nelems, int it, int in_place)
{
    int *out = in_place ? isrc : idst;
    size_t bad = 0;

    for (size_t j = 0; j < nelems; j++)
        isrc[j] = me * 1000 + (int)j + it;
    shmem_int_sum_reduce(SHMEM_TEAM_WORLD, out, isrc, nelems);
    for (size_t j = 0; j < nelems; j++)
        bad += out[j] != 1000 * npes * (npes - 1) / 2 + npes * ((int)j + it);
    EXPECT(!bad, "sum of %zu ints%s, call %d: %zu wrong", nelems, in_place ? " in place" : "",
           it, bad);
}

int main(void)
{
    /* Part sizes in bytes: inside a cell, its exact size and one byte more, a line, scratch. */
    static const size_t sizes[] = {1, 8, 56, 60, 61, 64, 200, 4096};
    const int nsizes = sizeof(sizes) / sizeof(sizes[0]);
    int it = 0;

    test_start();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    src = shmem_malloc(MAX_PART * npes);
    dst = shmem_malloc(MAX_PART * npes);
    isrc = shmem_malloc(MAX_PART);
    idst = shmem_malloc(MAX_PART);
    if (!src || !dst || !isrc || !idst) {
        fprintf(stderr, "streams: out of memory\n");
        return 1;
    }
    /* Runs of broadcasts from one root: 8 bytes (cells), then 200 bytes (scratch). */
    for (int root = 0; root < npes && root < 3; root++) {
        for (int k = 0; k < 100; k++, it++) {
            lag(it);
            broadcast(8, root, it);
        }
        for (int k = 0; k < 20; k++, it++) {
            lag(it);
            broadcast(200, root, it);
        }
    }
    /* Mixed calls, every size, roots rotating. */
    for (int k = 0; k < 160; k++) {
        size_t len = sizes[k % nsizes];
        lag(it);
        broadcast(len, k % npes, it++);
        fcollect(len, it++);
        alltoall(len / npes ? len / npes : 1, it++);
        sum(len / sizeof(int) ? len / sizeof(int) : 1, it++, k % 2);
        if (k % 40 == 39) {
            /* Now and then a part over the scratch size, read from the users' buffers. */
            broadcast(MAX_PART, k % npes, it++);
            sum(MAX_PART / sizeof(int), it++, 0);
        }
    }
    shmem_free(idst);
    shmem_free(isrc);
    shmem_free(dst);
    shmem_free(src);
    return test_finish("coll_streams");
}
