/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Compiled, never run: the public headers under strict C11 (and as C++), with a use of every
 * RMA family for one type, the sized and mem forms, the complex reductions (std::complex in
 * C++, and the C complex types in GNU C++), the profiling names, and the generic names (C11
 * selectors in C, overloads in C++) in both their context and plain forms, and (in C) with the
 * types whose routines are another row's under a second name.
 */
#include <pshmem.h>
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
#if (defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L) || defined(__cplusplus)
    shmem_put(d, s, n, pe);
    shmem_put(SHMEM_CTX_DEFAULT, d, s, n, pe);
    shmem_get_nbi(d, s, n, pe);
    shmem_p(d, shmem_g(s, pe), pe);
    shmem_p(SHMEM_CTX_DEFAULT, d, shmem_g(SHMEM_CTX_DEFAULT, s, pe), pe);
    shmem_iget(SHMEM_CTX_DEFAULT, d, s, 1, 2, n, pe);
#endif
    shmem_barrier_all();
    pshmem_long_put(d, s, n, pe);
    pshmem_barrier_all();
    shmem_pcontrol(1);
    shmem_pcontrol(3, "tool", n);
}

#ifdef __cplusplus
void header_complex(std::complex<float> *f, std::complex<double> *d, size_t n, long *psync);

void header_complex(std::complex<float> *f, std::complex<double> *d, size_t n, long *psync)
#else
void header_complex(float _Complex *f, double _Complex *d, size_t n, long *psync);

void header_complex(float _Complex *f, double _Complex *d, size_t n, long *psync)
#endif
{
    shmem_complexf_sum_reduce(SHMEM_TEAM_WORLD, f, f + n, n);
    shmem_complexd_prod_reduce(SHMEM_TEAM_WORLD, d, d + n, n);
    shmem_complexd_sum_to_all(d, d + n, (int)n, 0, 0, 1, d + 2 * n, psync);
    shmem_complexf_prod_to_all(f, f + n, (int)n, 0, 0, 1, f + 2 * n, psync);
}

#if defined(__cplusplus) && defined(__GNUC__) && !defined(__STRICT_ANSI__)
/* GNU C++ has the C complex types too; programs written for other implementations pass them. */
__extension__ typedef float _Complex header_cf;
__extension__ typedef double _Complex header_cd;
void header_gnu_complex(header_cf *f, header_cd *d, size_t n, long *psync);

void header_gnu_complex(header_cf *f, header_cd *d, size_t n, long *psync)
{
    shmem_complexf_sum_reduce(SHMEM_TEAM_WORLD, f, f + n, n);
    shmem_complexd_prod_to_all(d, d + n, (int)n, 0, 0, 1, d + 2 * n, psync);
}
#endif

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__cplusplus)
void header_generic(int32_t *a, int64_t *b, int8_t *c, int16_t *e, uint32_t *u, size_t *z,
                    float _Complex *f, double _Complex *d);

/* The bitwise families on int32_t and int64_t, the bitwise reductions on every fixed width, the
 * sums and products of the complex types. */
void header_generic(int32_t *a, int64_t *b, int8_t *c, int16_t *e, uint32_t *u, size_t *z,
                    float _Complex *f, double _Complex *d)
{
    int32_t a0 = shmem_atomic_fetch_and(a, 1, 0);
    int64_t b0;

    shmem_atomic_or(SHMEM_CTX_DEFAULT, b, 2, 0);
    shmem_atomic_fetch_xor_nbi(SHMEM_CTX_DEFAULT, &b0, b, a0, 0);
    shmem_atomic_xor(u, 4u, 0);
    shmem_and_reduce(SHMEM_TEAM_WORLD, c, c + 1, 1);
    shmem_or_reduce(SHMEM_TEAM_WORLD, e, e + 1, 1);
    shmem_xor_reduce(SHMEM_TEAM_WORLD, a, a + 1, 1);
    shmem_and_reduce(SHMEM_TEAM_WORLD, b, b + 1, 1);
    shmem_max_reduce(SHMEM_TEAM_WORLD, z, z + 1, 1);
    shmem_sum_reduce(SHMEM_TEAM_WORLD, c, c + 1, 1);
    shmem_sum_reduce(SHMEM_TEAM_WORLD, d, d + 1, 1);
    shmem_prod_reduce(SHMEM_TEAM_WORLD, f, f + 1, 1);
}
#endif
