/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Compiled, never run: the public header under strict C11 (and as C++), with a use of every
 * RMA family for one type, the sized and mem forms, and (in C) the type-generic selectors in
 * both their context and plain forms.
 */
#include <shmem.h>

void header_use(long *d, const long *s, size_t n, int pe);

void header_use(long *d, const long *s, size_t n, int pe)
{
    shmem_long_put(d, s, n, pe);
    shmem_ctx_long_get(SHMEM_CTX_DEFAULT, d, s, n, pe);
    shmem_long_iput(d, s, 2, 1, n, pe);
    shmem_long_p(d, shmem_long_g(s, pe), pe);
    shmem_put64_nbi(d, s, n, pe);
    shmem_ctx_iget128(SHMEM_CTX_DEFAULT, d, s, 1, 1, n / 2, pe);
    shmem_getmem(d, s, n, pe);
    shmem_quiet();
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__cplusplus)
    shmem_put(d, s, n, pe);
    shmem_put(SHMEM_CTX_DEFAULT, d, s, n, pe);
    shmem_get_nbi(d, s, n, pe);
    shmem_p(d, shmem_g(s, pe), pe);
    shmem_p(SHMEM_CTX_DEFAULT, d, shmem_g(SHMEM_CTX_DEFAULT, s, pe), pe);
    shmem_iget(SHMEM_CTX_DEFAULT, d, s, 1, 2, n, pe);
#endif
    shmem_barrier_all();
}
