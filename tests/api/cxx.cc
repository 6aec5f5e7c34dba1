/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The complex reductions from C++: buffers of std::complex<float> and std::complex<double>
 * passed to shmem_complexf_ and shmem_complexd_ sums and products, in the team forms and the
 * active-set forms, give exact results. PE i gives (i + 1) + k i to element k of a sum, and i
 * to element k of a product on PE k % npes (1 elsewhere), so every product is i.
 */
#include <complex>

#include "../harness.h"

#define NRED 5

static long psync[SHMEM_REDUCE_SYNC_SIZE];
static std::complex<double> dsrc[NRED], ddst[NRED], dwrk[NRED + SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static std::complex<float> fsrc[NRED], fdst[NRED], fwrk[NRED + SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static int me, npes;

template <typename T> static void fill(std::complex<T> *s, int prod)
{
    for (int k = 0; k < NRED; k++)
        s[k] = prod ? (me == k % npes ? std::complex<T>(0, 1) : std::complex<T>(1, 0))
                    : std::complex<T>(T(me + 1), T(k));
}

template <typename T> static void expect(const char *call, const std::complex<T> *d, int prod)
{
    for (int k = 0; k < NRED; k++) {
        std::complex<T> want =
            prod ? std::complex<T>(0, 1) : std::complex<T>(T(npes * (npes + 1) / 2), T(npes * k));
        EXPECT(d[k] == want, "%s: [%d] = %g%+gi, not %g%+gi", call, k, double(d[k].real()),
               double(d[k].imag()), double(want.real()), double(want.imag()));
    }
    shmem_barrier_all();
}

int main()
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        psync[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();

    fill(dsrc, 0);
    shmem_complexd_sum_reduce(SHMEM_TEAM_WORLD, ddst, dsrc, NRED);
    expect("shmem_complexd_sum_reduce", ddst, 0);
    fill(dsrc, 1);
    shmem_complexd_prod_reduce(SHMEM_TEAM_WORLD, ddst, dsrc, NRED);
    expect("shmem_complexd_prod_reduce", ddst, 1);
    fill(fsrc, 0);
    shmem_complexf_sum_reduce(SHMEM_TEAM_WORLD, fdst, fsrc, NRED);
    expect("shmem_complexf_sum_reduce", fdst, 0);
    fill(fsrc, 1);
    shmem_complexf_prod_reduce(SHMEM_TEAM_WORLD, fdst, fsrc, NRED);
    expect("shmem_complexf_prod_reduce", fdst, 1);

    fill(dsrc, 0);
    shmem_complexd_sum_to_all(ddst, dsrc, NRED, 0, 0, npes, dwrk, psync);
    expect("shmem_complexd_sum_to_all", ddst, 0);
    fill(dsrc, 1);
    shmem_complexd_prod_to_all(ddst, dsrc, NRED, 0, 0, npes, dwrk, psync);
    expect("shmem_complexd_prod_to_all", ddst, 1);
    fill(fsrc, 0);
    shmem_complexf_sum_to_all(fdst, fsrc, NRED, 0, 0, npes, fwrk, psync);
    expect("shmem_complexf_sum_to_all", fdst, 0);
    fill(fsrc, 1);
    shmem_complexf_prod_to_all(fdst, fsrc, NRED, 0, 0, npes, fwrk, psync);
    expect("shmem_complexf_prod_to_all", fdst, 1);
    return test_finish("cxx");
}
