/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Compiled, never run: a generic name called with a pointer of a type that has no routine in
 * its family, one case each (-DCASE=N), must not compile (no overload takes it, and no pointer
 * converts); CASE 0 makes the same calls with right types and must compile.
 */
#include <complex>

#include <shmemx.h>

void wrong(shmem_ctx_t ctx, long *l, int *i, unsigned *u, float *f, short *s, bool *b,
           void *v, std::complex<double> *z);

void wrong(shmem_ctx_t ctx, long *l, int *i, unsigned *u, float *f, short *s, bool *b,
           void *v, std::complex<double> *z)
{
#if CASE == 0
    shmem_put(l, l, 1, 0);
    shmem_atomic_add(l, 1L, 0);
    shmem_atomic_and(u, 1u, 0);
    shmem_sum_reduce(SHMEM_TEAM_WORLD, z, z, 1);
    shmem_wait_until(i, SHMEM_CMP_EQ, 0);
    shmem_iget(ctx, u, u, 1, 1, 1, 0);
    shmemx_ibput(i, i, 1, 1, 1, 1, 0);
    shmem_getmem_nbi(v, v, 1, 0);
    shmem_max_reduce(SHMEM_TEAM_WORLD, f, f, 1);
    shmem_g(s, 0);
    shmemx_sum_exscan(SHMEM_TEAM_WORLD, l, l, 1);
    (void)b;
#elif CASE == 1 /* dest long, source int */
    shmem_put(l, i, 1, 0);
#elif CASE == 2 /* float: no fetch-and-add family */
    shmem_atomic_add(f, 1.0f, 0);
#elif CASE == 3 /* short: no bitwise atomics */
    shmem_atomic_and(s, (short)1, 0);
#elif CASE == 4 /* bool: no row */
    shmem_sum_reduce(SHMEM_TEAM_WORLD, b, b, 1);
#elif CASE == 5 /* float: no waits */
    shmem_wait_until(f, SHMEM_CMP_EQ, 0.0f);
#elif CASE == 6 /* dest unsigned, source int, on a context */
    shmem_iget(ctx, u, i, 1, 1, 1, 0);
#elif CASE == 7 /* target int, source long */
    shmemx_ibput(i, l, 1, 1, 1, 1, 0);
#elif CASE == 8 /* void: no typed routine */
    shmem_get_nbi(v, v, 1, 0);
#elif CASE == 9 /* complex: no max */
    shmem_max_reduce(SHMEM_TEAM_WORLD, z, z, 1);
#elif CASE == 10 /* dest long, source int */
    shmemx_sum_exscan(SHMEM_TEAM_WORLD, l, i, 1);
#endif
}
