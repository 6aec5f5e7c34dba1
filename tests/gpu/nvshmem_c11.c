/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Host code of an NVSHMEM program in plain C11 (compiled, not run: nvshmem_malloc needs a
 * GPU): the NVSHMEM names and constants resolve to symm's, with the types NVSHMEM gives them.
 */
#include <nvshmem.h>
#include <nvshmemx.h>

int main(void)
{
    nvshmemx_init_attr_t attr = NVSHMEMX_INIT_ATTR_INITIALIZER;
    nvshmemx_uniqueid_t id = NVSHMEMX_UNIQUEID_INITIALIZER;
    nvshmem_team_t node;
    struct CUstream_st *stream = NULL;
    uint64_t *sig;
    int *buf, me, rc;

    nvshmemx_get_uniqueid(&id);
    nvshmemx_set_attr_uniqueid_args(0, 1, &id, &attr);
    nvshmemx_init_attr(NVSHMEMX_INIT_WITH_UNIQUEID, &attr);
    me = nvshmem_my_pe();
    node = NVSHMEMX_TEAM_NODE;
    buf = (int *)nvshmem_malloc(64 * sizeof(int));
    sig = (uint64_t *)nvshmem_calloc(1, sizeof(uint64_t));
    nvshmem_int_p(buf, me, (me + 1) % nvshmem_n_pes());
    nvshmemx_putmem_signal_on_stream(buf, buf + 32, 4, sig, 1, NVSHMEM_SIGNAL_SET,
                                     nvshmem_team_my_pe(node), stream);
    nvshmemx_signal_wait_until_on_stream(sig, NVSHMEM_CMP_GE, 1, stream);
    rc = nvshmemx_int_sum_reduce_on_stream(NVSHMEM_TEAM_WORLD, buf, buf + 32, 8, stream);
    nvshmemx_signal_op(sig, 1, NVSHMEM_SIGNAL_ADD, me);
    rc |= nvshmem_barrier(NVSHMEM_TEAM_WORLD);
    nvshmem_barrier_all();
    nvshmem_free(sig);
    nvshmem_free(buf);
    nvshmem_finalize();
    return rc;
}
