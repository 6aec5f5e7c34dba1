/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Reduce-scatter (NVSHMEM's reducescatter): source holds one block of nreduce elements per
 * member of the team; dest on team PE i gets block i reduced over the team. After a team sync
 * (every source complete), each PE reads its block from every member in team order and
 * combines it through the [op][type] table (combine.c), so the result does not depend on who
 * arrived first; a second sync keeps the sources unchanged until every member has read, and
 * only then is dest written (it may overlap source). Buffers in the device heap run on the GPU
 * (coll/gpu_coll.h).
 */
#include <stdlib.h>
#include <string.h>

#include "coll/engine.h"

static int reducescatter(shmem_team_t team, const char *call, void *dest, const void *source,
                         size_t nreduce, symm_type_t type, symm_op_t op)
{
    symm_team_t *t = symm_team_get(team, call);
    size_t es = symm_type_size[type], nb;
    char *acc, *in;

    if (SYMM_UNLIKELY(on_device(dest, source))) {
        symm_gpu_host_rscatter(call, (void *)team, dest, source, nreduce, type, op);
        return 0;
    }
    if (__builtin_mul_overflow(nreduce, es * (size_t)t->size, &nb))
        symm_fatal("%s(nreduce=%zu): %d blocks of %zu elements overflow the address space", call,
                   nreduce, t->size, nreduce);
    nb = nreduce * es;
    symm_team_barrier(t);
    acc = malloc(nb ? nb : 1);
    in = malloc(nb ? nb : 1);
    if (!acc || !in)
        symm_fatal("%s(nreduce=%zu): out of memory for %zu bytes", call, nreduce, 2 * nb);
    for (int i = 0; i < t->size; i++) {
        const char *block = (const char *)source + nb * (size_t)t->me;
        int pe = symm_team_pe(t, i);
        const char *p = symm_xlate_fast(block, nb, pe);
        if (SYMM_LIKELY(p != NULL))
            memcpy(i ? in : acc, p, nb);
        else /* another node, the data segment; reports a bad address */
            symm_rma_slow(SHMEM_CTX_DEFAULT, call, i ? in : acc, block, nb, pe, SYMM_GET);
        if (i)
            symm_combine[op][type](acc, in, nreduce);
    }
    symm_team_barrier(t);
    memcpy(dest, acc, nb);
    free(in);
    free(acc);
    return 0;
}

/* The typed forms, NVSHMEM's half and bfloat16 on 16-bit words, written by cmake/gen_api.c. */
#include "coll/gen/typed_rscatter.c"
