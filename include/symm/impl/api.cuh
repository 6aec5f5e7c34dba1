/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Device bodies of the names the host library also defines (shmem_int_p, shmem_putmem,
 * shmem_barrier_all, ...). Included by device.cuh in the device compilation pass only: there
 * each name becomes an inline function of C linkage with the host declaration's signature, so
 * a kernel's call compiles to the body below while the host pass keeps calling the library.
 * Every signature must match shmem.h exactly (C linkage admits no overloads).
 */
#ifndef SYMM_IMPL_API_CUH
#define SYMM_IMPL_API_CUH

/* ---- Queries --------------------------------------------------------------------------------- */
SYMM_DEV_API int shmem_my_pe(void)
{
    return symm_dev_c.my_pe;
}

SYMM_DEV_API int shmem_n_pes(void)
{
    return symm_dev_c.n_pes;
}

SYMM_DEV_API void *shmem_ptr(const void *dest, int pe)
{
    return symm_dev_ptr(dest, pe);
}

SYMM_DEV_API int shmem_pe_accessible(int pe)
{
    return (unsigned)pe < (unsigned)symm_dev_c.n_pes;
}

SYMM_DEV_API int shmem_addr_accessible(const void *addr, int pe)
{
    return symm_dev_ptr(addr, pe) != NULL;
}

SYMM_DEV_API int shmem_team_my_pe(shmem_team_t team)
{
    if (team == SHMEM_TEAM_INVALID)
        return -1;
    return symm_dev_team("shmem_team_my_pe", team).me;
}

SYMM_DEV_API int shmem_team_n_pes(shmem_team_t team)
{
    if (team == SHMEM_TEAM_INVALID)
        return -1;
    return symm_dev_team("shmem_team_n_pes", team).size;
}

SYMM_DEV_API int shmem_team_translate_pe(shmem_team_t src_team, int src_pe,
                                         shmem_team_t dest_team)
{
    if (src_team == SHMEM_TEAM_INVALID || dest_team == SHMEM_TEAM_INVALID)
        return -1;
    symm_dev_tv_t s = symm_dev_team("shmem_team_translate_pe", src_team);
    symm_dev_tv_t d = symm_dev_team("shmem_team_translate_pe", dest_team);
    if (src_pe < 0 || src_pe >= s.size)
        return -1;
    int off = symm_dev_member(s, src_pe) - d.start;
    if (off < 0 || off % d.stride || off / d.stride >= d.size)
        return -1;
    return off / d.stride;
}

/* ---- RMA ------------------------------------------------------------------------------------ */
#define SYMM_API_RMA(NAME, T)                                                                    \
    SYMM_DEV_API void shmem_##NAME##_put(T *dest, const T *source, size_t nelems, int pe)       \
    {                                                                                           \
        symm_dev_put<SYMM_THREAD, false>("shmem_" #NAME "_put", dest, source,                   \
                                         nelems * sizeof(T), pe);                               \
    }                                                                                           \
    SYMM_DEV_API void shmem_##NAME##_get(T *dest, const T *source, size_t nelems, int pe)       \
    {                                                                                           \
        symm_dev_get<SYMM_THREAD>("shmem_" #NAME "_get", dest, source, nelems * sizeof(T), pe); \
    }                                                                                           \
    SYMM_DEV_API void shmem_##NAME##_put_nbi(T *dest, const T *source, size_t nelems, int pe)   \
    {                                                                                           \
        symm_dev_put<SYMM_THREAD, true>("shmem_" #NAME "_put_nbi", dest, source,                \
                                        nelems * sizeof(T), pe);                                \
    }                                                                                           \
    SYMM_DEV_API void shmem_##NAME##_get_nbi(T *dest, const T *source, size_t nelems, int pe)   \
    {                                                                                           \
        symm_dev_get<SYMM_THREAD, true>("shmem_" #NAME "_get_nbi", dest, source,                \
                                        nelems * sizeof(T), pe);                                \
    }                                                                                           \
    SYMM_DEV_API void shmem_##NAME##_p(T *dest, T value, int pe)                                \
    {                                                                                           \
        symm_dev_p("shmem_" #NAME "_p", dest, value, pe);                                       \
    }                                                                                           \
    SYMM_DEV_API T shmem_##NAME##_g(const T *source, int pe)                                    \
    {                                                                                           \
        return symm_dev_g("shmem_" #NAME "_g", source, pe);                                     \
    }                                                                                           \
    SYMM_DEV_API void shmem_##NAME##_iput(T *dest, const T *source, ptrdiff_t dst,              \
                                          ptrdiff_t sst, size_t nelems, int pe)                 \
    {                                                                                           \
        symm_dev_iput<SYMM_THREAD>("shmem_" #NAME "_iput", dest, source, dst, sst, nelems,      \
                                   sizeof(T), pe);                                              \
    }                                                                                           \
    SYMM_DEV_API void shmem_##NAME##_iget(T *dest, const T *source, ptrdiff_t dst,              \
                                          ptrdiff_t sst, size_t nelems, int pe)                 \
    {                                                                                           \
        symm_dev_iget<SYMM_THREAD>("shmem_" #NAME "_iget", dest, source, dst, sst, nelems,      \
                                   sizeof(T), pe);                                              \
    }                                                                                           \
    SYMM_DEV_API void shmem_##NAME##_put_signal(T *dest, const T *source, size_t nelems,        \
                                                uint64_t *sig_addr, uint64_t signal, int sig_op,\
                                                int pe)                                         \
    {                                                                                           \
        symm_dev_put_signal<SYMM_THREAD, false>("shmem_" #NAME "_put_signal", dest, source,     \
                                                nelems * sizeof(T),                             \
                                                (unsigned long long *)sig_addr, signal, sig_op, \
                                                pe);                                            \
    }                                                                                           \
    SYMM_DEV_API void shmem_##NAME##_put_signal_nbi(T *dest, const T *source, size_t nelems,    \
                                                    uint64_t *sig_addr, uint64_t signal,        \
                                                    int sig_op, int pe)                         \
    {                                                                                           \
        symm_dev_put_signal<SYMM_THREAD, true>("shmem_" #NAME "_put_signal_nbi", dest, source,  \
                                               nelems * sizeof(T),                              \
                                               (unsigned long long *)sig_addr, signal, sig_op,  \
                                               pe);                                             \
    }
#define SYMM_API_RMA_ROW(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN,     \
                         BGEN, SCAN, TOALL, TOBIT, OLD, DEV)                                    \
    SYMM_IF_##DEV(SYMM_IF_##RMA(SYMM_API_RMA(NAME, T)))
SYMM_TYPE_TABLE(SYMM_API_RMA_ROW, _)

/* Sized (putSIZE, ...) and byte (putmem, ...) forms: PUT and GET are the names' stems. */
#define SYMM_API_BYTES(PUT, GET, SIZE, STRIDED)                                                  \
    SYMM_DEV_API void shmem_##PUT(void *dest, const void *source, size_t nelems, int pe)        \
    {                                                                                           \
        symm_dev_put<SYMM_THREAD, false>("shmem_" #PUT, dest, source, nelems * (SIZE), pe);     \
    }                                                                                           \
    SYMM_DEV_API void shmem_##GET(void *dest, const void *source, size_t nelems, int pe)        \
    {                                                                                           \
        symm_dev_get<SYMM_THREAD>("shmem_" #GET, dest, source, nelems * (SIZE), pe);            \
    }                                                                                           \
    SYMM_DEV_API void shmem_##PUT##_nbi(void *dest, const void *source, size_t nelems, int pe)  \
    {                                                                                           \
        symm_dev_put<SYMM_THREAD, true>("shmem_" #PUT "_nbi", dest, source, nelems * (SIZE),    \
                                        pe);                                                    \
    }                                                                                           \
    SYMM_DEV_API void shmem_##GET##_nbi(void *dest, const void *source, size_t nelems, int pe)  \
    {                                                                                           \
        symm_dev_get<SYMM_THREAD, true>("shmem_" #GET "_nbi", dest, source, nelems * (SIZE),    \
                                        pe);                                                    \
    }                                                                                           \
    SYMM_DEV_API void shmem_##PUT##_signal(void *dest, const void *source, size_t nelems,       \
                                           uint64_t *sig_addr, uint64_t signal, int sig_op,     \
                                           int pe)                                              \
    {                                                                                           \
        symm_dev_put_signal<SYMM_THREAD, false>("shmem_" #PUT "_signal", dest, source,          \
                                                nelems * (SIZE),                                \
                                                (unsigned long long *)sig_addr, signal, sig_op, \
                                                pe);                                            \
    }                                                                                           \
    SYMM_DEV_API void shmem_##PUT##_signal_nbi(void *dest, const void *source, size_t nelems,   \
                                               uint64_t *sig_addr, uint64_t signal, int sig_op, \
                                               int pe)                                          \
    {                                                                                           \
        symm_dev_put_signal<SYMM_THREAD, true>("shmem_" #PUT "_signal_nbi", dest, source,       \
                                               nelems * (SIZE),                                 \
                                               (unsigned long long *)sig_addr, signal, sig_op,  \
                                               pe);                                             \
    }                                                                                           \
    STRIDED(PUT, GET, SIZE)
#define SYMM_API_STRIDED(PUT, GET, SIZE)                                                         \
    SYMM_DEV_API void shmem_i##PUT(void *dest, const void *source, ptrdiff_t dst,               \
                                   ptrdiff_t sst, size_t nelems, int pe)                        \
    {                                                                                           \
        symm_dev_iput<SYMM_THREAD>("shmem_i" #PUT, dest, source, dst, sst, nelems, SIZE, pe);   \
    }                                                                                           \
    SYMM_DEV_API void shmem_i##GET(void *dest, const void *source, ptrdiff_t dst,               \
                                   ptrdiff_t sst, size_t nelems, int pe)                        \
    {                                                                                           \
        symm_dev_iget<SYMM_THREAD>("shmem_i" #GET, dest, source, dst, sst, nelems, SIZE, pe);   \
    }
#define SYMM_API_NO_STRIDED(PUT, GET, SIZE)
#define SYMM_API_SIZED(BITS) SYMM_API_BYTES(put##BITS, get##BITS, BITS / 8, SYMM_API_STRIDED)
SYMM_SIZES(SYMM_API_SIZED)
SYMM_API_BYTES(putmem, getmem, 1, SYMM_API_NO_STRIDED)

/* ---- Atomics ----------------------------------------------------------------------------------
 * Non-blocking fetching forms complete on return here (the result is in *fetch). */
#define SYMM_API_AMO_EXT(NAME, T)                                                                \
    SYMM_DEV_API T shmem_##NAME##_atomic_fetch(const T *source, int pe)                         \
    {                                                                                           \
        return symm_dev_amo<SYMM_AMO_FETCH, T>("shmem_" #NAME "_atomic_fetch", (T *)source,     \
                                               (T)0, (T)0, pe);                                 \
    }                                                                                           \
    SYMM_DEV_API void shmem_##NAME##_atomic_set(T *dest, T value, int pe)                       \
    {                                                                                           \
        symm_dev_amo<SYMM_AMO_SET, T>("shmem_" #NAME "_atomic_set", dest, value, (T)0, pe);     \
    }                                                                                           \
    SYMM_DEV_API T shmem_##NAME##_atomic_swap(T *dest, T value, int pe)                         \
    {                                                                                           \
        return symm_dev_amo<SYMM_AMO_SWAP, T>("shmem_" #NAME "_atomic_swap", dest, value, (T)0, \
                                              pe);                                              \
    }                                                                                           \
    SYMM_DEV_API void shmem_##NAME##_atomic_fetch_nbi(T *fetch, const T *source, int pe)        \
    {                                                                                           \
        *fetch = symm_dev_amo<SYMM_AMO_FETCH, T>("shmem_" #NAME "_atomic_fetch_nbi",            \
                                                 (T *)source, (T)0, (T)0, pe);                  \
    }                                                                                           \
    SYMM_DEV_API void shmem_##NAME##_atomic_swap_nbi(T *fetch, T *dest, T value, int pe)        \
    {                                                                                           \
        *fetch = symm_dev_amo<SYMM_AMO_SWAP, T>("shmem_" #NAME "_atomic_swap_nbi", dest, value, \
                                                (T)0, pe);                                      \
    }
#define SYMM_API_AMO_STD(NAME, T)                                                                \
    SYMM_DEV_API T shmem_##NAME##_atomic_compare_swap(T *dest, T cond, T value, int pe)         \
    {                                                                                           \
        return symm_dev_amo<SYMM_AMO_CSWAP, T>("shmem_" #NAME "_atomic_compare_swap", dest,     \
                                               value, cond, pe);                                \
    }                                                                                           \
    SYMM_DEV_API T shmem_##NAME##_atomic_fetch_inc(T *dest, int pe)                             \
    {                                                                                           \
        return symm_dev_amo<SYMM_AMO_ADD, T>("shmem_" #NAME "_atomic_fetch_inc", dest, (T)1,    \
                                             (T)0, pe);                                         \
    }                                                                                           \
    SYMM_DEV_API void shmem_##NAME##_atomic_inc(T *dest, int pe)                                \
    {                                                                                           \
        symm_dev_amo<SYMM_AMO_ADD, T, false>("shmem_" #NAME "_atomic_inc", dest, (T)1, (T)0,    \
                                             pe);                                               \
    }                                                                                           \
    SYMM_DEV_API T shmem_##NAME##_atomic_fetch_add(T *dest, T value, int pe)                    \
    {                                                                                           \
        return symm_dev_amo<SYMM_AMO_ADD, T>("shmem_" #NAME "_atomic_fetch_add", dest, value,   \
                                             (T)0, pe);                                         \
    }                                                                                           \
    SYMM_DEV_API void shmem_##NAME##_atomic_add(T *dest, T value, int pe)                       \
    {                                                                                           \
        symm_dev_amo<SYMM_AMO_ADD, T, false>("shmem_" #NAME "_atomic_add", dest, value, (T)0,   \
                                             pe);                                               \
    }                                                                                           \
    SYMM_DEV_API void shmem_##NAME##_atomic_compare_swap_nbi(T *fetch, T *dest, T cond,         \
                                                             T value, int pe)                   \
    {                                                                                           \
        *fetch = symm_dev_amo<SYMM_AMO_CSWAP, T>("shmem_" #NAME "_atomic_compare_swap_nbi",     \
                                                 dest, value, cond, pe);                        \
    }                                                                                           \
    SYMM_DEV_API void shmem_##NAME##_atomic_fetch_inc_nbi(T *fetch, T *dest, int pe)            \
    {                                                                                           \
        *fetch = symm_dev_amo<SYMM_AMO_ADD, T>("shmem_" #NAME "_atomic_fetch_inc_nbi", dest,    \
                                               (T)1, (T)0, pe);                                 \
    }                                                                                           \
    SYMM_DEV_API void shmem_##NAME##_atomic_fetch_add_nbi(T *fetch, T *dest, T value, int pe)   \
    {                                                                                           \
        *fetch = symm_dev_amo<SYMM_AMO_ADD, T>("shmem_" #NAME "_atomic_fetch_add_nbi", dest,    \
                                               value, (T)0, pe);                                \
    }
#define SYMM_API_AMO_BIT1(NAME, T, OPN, OP)                                                      \
    SYMM_DEV_API T shmem_##NAME##_atomic_fetch_##OPN(T *dest, T value, int pe)                  \
    {                                                                                           \
        return symm_dev_amo<OP, T>("shmem_" #NAME "_atomic_fetch_" #OPN, dest, value, (T)0,     \
                                   pe);                                                         \
    }                                                                                           \
    SYMM_DEV_API void shmem_##NAME##_atomic_##OPN(T *dest, T value, int pe)                     \
    {                                                                                           \
        symm_dev_amo<OP, T, false>("shmem_" #NAME "_atomic_" #OPN, dest, value, (T)0, pe);      \
    }                                                                                           \
    SYMM_DEV_API void shmem_##NAME##_atomic_fetch_##OPN##_nbi(T *fetch, T *dest, T value,       \
                                                              int pe)                           \
    {                                                                                           \
        *fetch = symm_dev_amo<OP, T>("shmem_" #NAME "_atomic_fetch_" #OPN "_nbi", dest, value,  \
                                     (T)0, pe);                                                 \
    }
#define SYMM_API_AMO_BIT(NAME, T)                                                                \
    SYMM_API_AMO_BIT1(NAME, T, and, SYMM_AMO_AND)                                               \
    SYMM_API_AMO_BIT1(NAME, T, or, SYMM_AMO_OR) SYMM_API_AMO_BIT1(NAME, T, xor, SYMM_AMO_XOR)
#define SYMM_API_AMO_ROW(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN)    \
    SYMM_IF_##EXT(SYMM_API_AMO_EXT(NAME, T)) SYMM_IF_##AMO(SYMM_API_AMO_STD(NAME, T))          \
        SYMM_IF_##BIT(SYMM_API_AMO_BIT(NAME, T))
SYMM_TYPES(SYMM_API_AMO_ROW, _)

/* ---- Signals ------------------------------------------------------------------------------ */
SYMM_DEV_API uint64_t shmem_signal_fetch(const uint64_t *sig_addr)
{
    return symm_dev_ld_acquire((const unsigned long long *)sig_addr);
}

SYMM_DEV_API uint64_t shmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value)
{
    return symm_dev_wait("shmem_signal_wait_until", (unsigned long long *)sig_addr, cmp,
                         (unsigned long long)cmp_value);
}

SYMM_DEV_API void shmem_signal_add(uint64_t *sig_addr, uint64_t signal, int pe)
{
    symm_dev_signal_op("shmem_signal_add", (unsigned long long *)sig_addr, signal,
                       SHMEM_SIGNAL_ADD, pe);
}

SYMM_DEV_API void shmem_signal_set(uint64_t *sig_addr, uint64_t signal, int pe)
{
    symm_dev_signal_op("shmem_signal_set", (unsigned long long *)sig_addr, signal,
                       SHMEM_SIGNAL_SET, pe);
}

/* ---- Point-to-point synchronization -------------------------------------------------------- */
#define SYMM_API_WAIT(NAME, T)                                                                   \
    SYMM_DEV_API void shmem_##NAME##_wait_until(T *ivar, int cmp, T cmp_value)                  \
    {                                                                                           \
        symm_dev_wait("shmem_" #NAME "_wait_until", ivar, cmp, cmp_value);                      \
    }                                                                                           \
    SYMM_DEV_API void shmem_##NAME##_wait_until_all(T *ivars, size_t nelems, const int *status, \
                                                    int cmp, T cmp_value)                       \
    {                                                                                           \
        symm_dev_wait_all("shmem_" #NAME "_wait_until_all", ivars, nelems, status, cmp,         \
                          &cmp_value, false);                                                   \
    }                                                                                           \
    SYMM_DEV_API size_t shmem_##NAME##_wait_until_any(T *ivars, size_t nelems,                  \
                                                      const int *status, int cmp, T cmp_value)  \
    {                                                                                           \
        return symm_dev_wait_any("shmem_" #NAME "_wait_until_any", ivars, nelems, status, cmp,  \
                                 &cmp_value, false);                                            \
    }                                                                                           \
    SYMM_DEV_API size_t shmem_##NAME##_wait_until_some(T *ivars, size_t nelems,                 \
                                                       size_t *indices, const int *status,      \
                                                       int cmp, T cmp_value)                    \
    {                                                                                           \
        return symm_dev_wait_some("shmem_" #NAME "_wait_until_some", ivars, nelems, indices,    \
                                  status, cmp, &cmp_value, false);                              \
    }                                                                                           \
    SYMM_DEV_API void shmem_##NAME##_wait_until_all_vector(T *ivars, size_t nelems,             \
                                                           const int *status, int cmp,          \
                                                           T *cmp_values)                       \
    {                                                                                           \
        symm_dev_wait_all("shmem_" #NAME "_wait_until_all_vector", ivars, nelems, status, cmp,  \
                          (const T *)cmp_values, true);                                         \
    }                                                                                           \
    SYMM_DEV_API size_t shmem_##NAME##_wait_until_any_vector(T *ivars, size_t nelems,           \
                                                             const int *status, int cmp,        \
                                                             T *cmp_values)                     \
    {                                                                                           \
        return symm_dev_wait_any("shmem_" #NAME "_wait_until_any_vector", ivars, nelems,        \
                                 status, cmp, (const T *)cmp_values, true);                     \
    }                                                                                           \
    SYMM_DEV_API size_t shmem_##NAME##_wait_until_some_vector(T *ivars, size_t nelems,          \
                                                              size_t *indices,                  \
                                                              const int *status, int cmp,       \
                                                              T *cmp_values)                    \
    {                                                                                           \
        return symm_dev_wait_some("shmem_" #NAME "_wait_until_some_vector", ivars, nelems,      \
                                  indices, status, cmp, (const T *)cmp_values, true);           \
    }                                                                                           \
    SYMM_DEV_API int shmem_##NAME##_test(T *ivar, int cmp, T cmp_value)                         \
    {                                                                                           \
        return symm_dev_test("shmem_" #NAME "_test", ivar, cmp, cmp_value);                     \
    }                                                                                           \
    SYMM_DEV_API int shmem_##NAME##_test_all(T *ivars, size_t nelems, const int *status,        \
                                             int cmp, T cmp_value)                              \
    {                                                                                           \
        return symm_dev_test_all("shmem_" #NAME "_test_all", ivars, nelems, status, cmp,        \
                                 &cmp_value, false);                                            \
    }                                                                                           \
    SYMM_DEV_API size_t shmem_##NAME##_test_any(T *ivars, size_t nelems, const int *status,     \
                                                int cmp, T cmp_value)                           \
    {                                                                                           \
        return symm_dev_test_any("shmem_" #NAME "_test_any", ivars, nelems, status, cmp,        \
                                 &cmp_value, false);                                            \
    }                                                                                           \
    SYMM_DEV_API size_t shmem_##NAME##_test_some(T *ivars, size_t nelems, size_t *indices,      \
                                                 const int *status, int cmp, T cmp_value)       \
    {                                                                                           \
        return symm_dev_test_some("shmem_" #NAME "_test_some", ivars, nelems, indices, status,  \
                                  cmp, &cmp_value, false);                                      \
    }                                                                                           \
    SYMM_DEV_API int shmem_##NAME##_test_all_vector(T *ivars, size_t nelems, const int *status, \
                                                    int cmp, T *cmp_values)                     \
    {                                                                                           \
        return symm_dev_test_all("shmem_" #NAME "_test_all_vector", ivars, nelems, status, cmp, \
                                 (const T *)cmp_values, true);                                  \
    }                                                                                           \
    SYMM_DEV_API size_t shmem_##NAME##_test_any_vector(T *ivars, size_t nelems,                 \
                                                       const int *status, int cmp,              \
                                                       T *cmp_values)                           \
    {                                                                                           \
        return symm_dev_test_any("shmem_" #NAME "_test_any_vector", ivars, nelems, status, cmp, \
                                 (const T *)cmp_values, true);                                  \
    }                                                                                           \
    SYMM_DEV_API size_t shmem_##NAME##_test_some_vector(T *ivars, size_t nelems,                \
                                                        size_t *indices, const int *status,     \
                                                        int cmp, T *cmp_values)                 \
    {                                                                                           \
        return symm_dev_test_some("shmem_" #NAME "_test_some_vector", ivars, nelems, indices,   \
                                  status, cmp, (const T *)cmp_values, true);                    \
    }                                                                                           \
    SYMM_DEV_API void shmem_##NAME##_wait(T *ivar, T cmp_value)                                 \
    {                                                                                           \
        symm_dev_wait("shmem_" #NAME "_wait", ivar, SHMEM_CMP_NE, cmp_value);                   \
    }
#define SYMM_API_WAIT_ROW(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN)   \
    SYMM_IF_##WAIT(SYMM_API_WAIT(NAME, T))
SYMM_TYPES(SYMM_API_WAIT_ROW, _)

SYMM_DEV_API void shmem_wait(long *ivar, long cmp_value)
{
    symm_dev_wait("shmem_wait", ivar, SHMEM_CMP_NE, cmp_value);
}

SYMM_DEV_API void shmem_wait_until(long *ivar, int cmp, long cmp_value)
{
    symm_dev_wait("shmem_wait_until", ivar, cmp, cmp_value);
}

/* ---- Ordering and barriers ------------------------------------------------------------------ */
/* The proxy takes requests in order and its peers apply each PE's in order: a fence orders
 * them already. quiet waits for the proxy when the job spans nodes. */
SYMM_DEV_API void shmem_fence(void)
{
    symm_dev_fence_sys();
}

SYMM_DEV_API void shmem_quiet(void)
{
    symm_dev_fence_sys();
    symm_dev_px_quiet();
}

SYMM_DEV_API void shmem_barrier_all(void)
{
    symm_dev_barrier<SYMM_THREAD>(true);
}

SYMM_DEV_API void shmem_sync_all(void)
{
    symm_dev_barrier<SYMM_THREAD>(false);
}

SYMM_DEV_API int shmem_team_sync(shmem_team_t team)
{
    symm_dev_team_barrier<SYMM_THREAD>(symm_dev_team("shmem_team_sync", team), false);
    return 0;
}

/* ---- Collectives: one thread per member, on any team ---------------------------------------- */
SYMM_DEV_API int shmem_alltoallmem(shmem_team_t team, void *dest, const void *source,
                                   size_t nelems)
{
    return symm_dev_exchange_group<SYMM_THREAD, true>("shmem_alltoallmem", team, dest, source,
                                                      nelems);
}

SYMM_DEV_API int shmem_fcollectmem(shmem_team_t team, void *dest, const void *source,
                                   size_t nelems)
{
    return symm_dev_exchange_group<SYMM_THREAD, false>("shmem_fcollectmem", team, dest, source,
                                                       nelems);
}

SYMM_DEV_API int shmem_broadcastmem(shmem_team_t team, void *dest, const void *source,
                                    size_t nelems, int PE_root)
{
    return symm_dev_broadcast_group<SYMM_THREAD>("shmem_broadcastmem", team, dest, source,
                                                 nelems, PE_root);
}

#define SYMM_API_COLL(NAME, T)                                                                   \
    SYMM_DEV_API int shmem_##NAME##_alltoall(shmem_team_t team, T *dest, const T *source,       \
                                             size_t nelems)                                     \
    {                                                                                           \
        return symm_dev_exchange_group<SYMM_THREAD, true>("shmem_" #NAME "_alltoall", team,     \
                                                          dest, source, nelems * sizeof(T));    \
    }                                                                                           \
    SYMM_DEV_API int shmem_##NAME##_fcollect(shmem_team_t team, T *dest, const T *source,       \
                                             size_t nelems)                                     \
    {                                                                                           \
        return symm_dev_exchange_group<SYMM_THREAD, false>("shmem_" #NAME "_fcollect", team,    \
                                                           dest, source, nelems * sizeof(T));   \
    }                                                                                           \
    SYMM_DEV_API int shmem_##NAME##_broadcast(shmem_team_t team, T *dest, const T *source,      \
                                              size_t nelems, int PE_root)                       \
    {                                                                                           \
        return symm_dev_broadcast_group<SYMM_THREAD>("shmem_" #NAME "_broadcast", team, dest,   \
                                                     source, nelems * sizeof(T), PE_root);      \
    }
#define SYMM_API_COLL_ROW(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN,    \
                          BGEN, SCAN, TOALL, TOBIT, OLD, DEV)                                   \
    SYMM_IF_##DEV(SYMM_IF_##RMA(SYMM_API_COLL(NAME, T)))
SYMM_TYPE_TABLE(SYMM_API_COLL_ROW, _)

#define SYMM_API_REDUCE(NAME, T, OP)                                                             \
    SYMM_DEV_API int shmem_##NAME##_##OP##_reduce(shmem_team_t team, T *dest, const T *source,  \
                                                  size_t nreduce)                               \
    {                                                                                           \
        return symm_dev_reduce_group<SYMM_THREAD, SYMM_DEV_OP_##OP, T>(                         \
            "shmem_" #NAME "_" #OP "_reduce", team, dest, source, nreduce);                     \
    }
#define SYMM_API_REDUCE_ROW(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN,  \
                            BGEN, SCAN, TOALL, TOBIT, OLD, DEV)                                 \
    SYMM_DEV_ROW_OPS(SYMM_API_REDUCE, NAME, T, BITRED, MINMAX, SUMPROD, DEV)
SYMM_TYPE_TABLE(SYMM_API_REDUCE_ROW, _)

/* shmemx.h's reduce-scatter (NVSHMEM's nvshmem_TYPE_OP_reducescatter): team PE i's dest gets
 * part i, nreduce elements, of the reduction of every PE's source. */
#define SYMM_API_RSCATTER(NAME, T, OP)                                                           \
    SYMM_DEV_API int shmemx_##NAME##_##OP##_reducescatter(shmem_team_t team, T *dest,           \
                                                          const T *source, size_t nreduce)      \
    {                                                                                           \
        return symm_dev_reducescatter_group<SYMM_THREAD, SYMM_DEV_OP_##OP, T>(                  \
            "shmemx_" #NAME "_" #OP "_reducescatter", team, dest, source, nreduce);             \
    }
#define SYMM_API_RSCATTER_ROW(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD,     \
                              GEN, BGEN, SCAN, TOALL, TOBIT, OLD, DEV)                          \
    SYMM_DEV_ROW_OPS(SYMM_API_RSCATTER, NAME, T, BITRED, MINMAX, SUMPROD, DEV)
SYMM_TYPE_TABLE(SYMM_API_RSCATTER_ROW, _)

#endif
