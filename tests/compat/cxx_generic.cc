/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The generic names in C++: every family of shmem.h's overloads (RMA, put with signal,
 * atomics, waits and tests, collectives, reductions), plain and with a context, and the C++
 * forms of Sandia OpenSHMEM's names in shmemx.h (shmemx_ibput, shmemx_ibget,
 * shmemx_sum_inscan, shmemx_sum_exscan, shmemx_signal_add and shmemx_signal_set on a context),
 * called with every type of the rows their C11 selectors take. Each call goes by the generic
 * name only, so a row without its overload fails the build, and each result is checked.
 *
 * PE me puts to its right neighbour and gets from its left one; the atomics of a PE go to its
 * right neighbour's word, one writer per word, so every old value is known.
 */
#include <complex>

#include <shmemx.h>

#include "../harness.h"

#define NB 8         /* elements of an RMA or a reduction */
#define BUF 4096     /* bytes of each symmetric buffer */

static int me, npes, right, left;
static shmem_ctx_t ctx;
static void *sym_a, *sym_b; /* symmetric */
static uint64_t *sig;       /* symmetric */

/* Element k of PE pe's data: small enough for every type. */
template <typename T> static T val(int pe, int k)
{
    return T((pe * 5 + k) % 60 + 1);
}

/* a: this PE's data; b: zero. */
template <typename T> static void reset(T *a, T *b, int n)
{
    for (int k = 0; k < n; k++) {
        a[k] = val<T>(me, k);
        b[k] = T(0);
    }
    shmem_barrier_all();
}

/* ---- RMA and put with signal ----------------------------------------------------------- */
#define NRMA 20
template <typename T> static void rma_form(int form, T *a, T *b)
{
    switch (form) {
    case 0: shmem_put(b, a, NB, right); break;
    case 1: shmem_put(ctx, b, a, NB, right); break;
    case 2: shmem_put_nbi(b, a, NB, right); break;
    case 3: shmem_put_nbi(ctx, b, a, NB, right); break;
    case 4: shmem_get(b, a, NB, left); break;
    case 5: shmem_get(ctx, b, a, NB, left); break;
    case 6: shmem_get_nbi(b, a, NB, left); break;
    case 7: shmem_get_nbi(ctx, b, a, NB, left); break;
    case 8: for (int k = 0; k < NB; k++) shmem_p(b + k, a[k], right); break;
    case 9: for (int k = 0; k < NB; k++) shmem_p(ctx, b + k, a[k], right); break;
    case 10: for (int k = 0; k < NB; k++) b[k] = shmem_g(a + k, left); break;
    case 11: for (int k = 0; k < NB; k++) b[k] = shmem_g(ctx, a + k, left); break;
    /* Strided: element k of b is element 2k of a, for the first NB / 2. */
    case 12: shmem_iput(b, a, 1, 2, NB / 2, right); break;
    case 13: shmem_iput(ctx, b, a, 1, 2, NB / 2, right); break;
    case 14: shmem_iget(b, a, 1, 2, NB / 2, left); break;
    case 15: shmem_iget(ctx, b, a, 1, 2, NB / 2, left); break;
    case 16: shmem_put_signal(b, a, NB, sig, 1, SHMEM_SIGNAL_ADD, right); break;
    case 17: shmem_put_signal(ctx, b, a, NB, sig, 1, SHMEM_SIGNAL_SET, right); break;
    case 18: shmem_put_signal_nbi(b, a, NB, sig, 1, SHMEM_SIGNAL_ADD, right); break;
    default: shmem_put_signal_nbi(ctx, b, a, NB, sig, 1, SHMEM_SIGNAL_SET, right); break;
    }
}

template <typename T> static void test_rma(const char *ty)
{
    T *a = static_cast<T *>(sym_a), *b = static_cast<T *>(sym_b);

    for (int form = 0; form < NRMA; form++) {
        int strided = form >= 12 && form < 16, n = strided ? NB / 2 : NB;
        reset(a, b, NB);
        rma_form(form, a, b);
        shmem_quiet();
        shmem_ctx_quiet(ctx);
        if (form >= 16)
            shmem_signal_wait_until(sig, SHMEM_CMP_EQ, 1);
        shmem_barrier_all();
        for (int k = 0; k < NB; k++) {
            T want = k < n ? val<T>(left, strided ? 2 * k : k) : T(0);
            EXPECT(b[k] == want, "%s form %d: element %d is not what pe %d sent", ty, form, k,
                   left);
        }
        *sig = 0;
        shmem_barrier_all();
    }
}

/* ---- Atomics ------------------------------------------------------------------------------- */
/* fetch, set, swap and their _nbi forms, plain (c 0) and on the context (c 1). */
template <typename T> static void test_ext(const char *ty)
{
    T *w = static_cast<T *>(sym_a), got, f = T(0);

    for (int c = 0; c < 2; c++) {
        *w = val<T>(me, 1);
        shmem_barrier_all();
        got = c ? shmem_atomic_fetch(ctx, w, left) : shmem_atomic_fetch(w, left);
        EXPECT(got == val<T>(left, 1), "%s: shmem_atomic_fetch (ctx %d)", ty, c);
        c ? shmem_atomic_fetch_nbi(ctx, &f, w, left) : shmem_atomic_fetch_nbi(&f, w, left);
        shmem_quiet();
        shmem_ctx_quiet(ctx);
        EXPECT(f == val<T>(left, 1), "%s: shmem_atomic_fetch_nbi (ctx %d)", ty, c);
        shmem_barrier_all();
        c ? shmem_atomic_set(ctx, w, val<T>(me, 2), right) : shmem_atomic_set(w, val<T>(me, 2), right);
        shmem_quiet();
        shmem_ctx_quiet(ctx);
        shmem_barrier_all();
        EXPECT(*w == val<T>(left, 2), "%s: shmem_atomic_set (ctx %d)", ty, c);
        shmem_barrier_all();
        got = c ? shmem_atomic_swap(ctx, w, val<T>(me, 3), right)
                : shmem_atomic_swap(w, val<T>(me, 3), right);
        EXPECT(got == val<T>(me, 2), "%s: shmem_atomic_swap's old value (ctx %d)", ty, c);
        c ? shmem_atomic_swap_nbi(ctx, &f, w, val<T>(me, 4), right)
          : shmem_atomic_swap_nbi(&f, w, val<T>(me, 4), right);
        shmem_quiet();
        shmem_ctx_quiet(ctx);
        EXPECT(f == val<T>(me, 3), "%s: shmem_atomic_swap_nbi's old value (ctx %d)", ty, c);
        shmem_barrier_all();
        EXPECT(*w == val<T>(left, 4), "%s: shmem_atomic_swap_nbi (ctx %d)", ty, c);
        shmem_barrier_all();
    }
}

/* inc, fetch_inc, add, fetch_add, compare_swap and the _nbi forms on the right neighbour's
 * word, this PE its only writer: 10 becomes 11, 12, 15, 17, 40, 41, 42, 44. */
template <typename T> static void test_amo(const char *ty)
{
    T *w = static_cast<T *>(sym_a), f = T(0);

    for (int c = 0; c < 2; c++) {
        *w = T(10);
        shmem_barrier_all();
        c ? shmem_atomic_inc(ctx, w, right) : shmem_atomic_inc(w, right);
        EXPECT((c ? shmem_atomic_fetch_inc(ctx, w, right) : shmem_atomic_fetch_inc(w, right)) ==
                   T(11), "%s: shmem_atomic_fetch_inc (ctx %d)", ty, c);
        c ? shmem_atomic_add(ctx, w, T(3), right) : shmem_atomic_add(w, T(3), right);
        EXPECT((c ? shmem_atomic_fetch_add(ctx, w, T(2), right)
                  : shmem_atomic_fetch_add(w, T(2), right)) == T(15),
               "%s: shmem_atomic_fetch_add (ctx %d)", ty, c);
        EXPECT((c ? shmem_atomic_compare_swap(ctx, w, T(17), T(40), right)
                  : shmem_atomic_compare_swap(w, T(17), T(40), right)) == T(17),
               "%s: shmem_atomic_compare_swap (ctx %d)", ty, c);
        c ? shmem_atomic_compare_swap_nbi(ctx, &f, w, T(40), T(41), right)
          : shmem_atomic_compare_swap_nbi(&f, w, T(40), T(41), right);
        shmem_quiet();
        shmem_ctx_quiet(ctx);
        EXPECT(f == T(40), "%s: shmem_atomic_compare_swap_nbi (ctx %d)", ty, c);
        c ? shmem_atomic_fetch_inc_nbi(ctx, &f, w, right) : shmem_atomic_fetch_inc_nbi(&f, w, right);
        shmem_quiet();
        shmem_ctx_quiet(ctx);
        EXPECT(f == T(41), "%s: shmem_atomic_fetch_inc_nbi (ctx %d)", ty, c);
        c ? shmem_atomic_fetch_add_nbi(ctx, &f, w, T(2), right)
          : shmem_atomic_fetch_add_nbi(&f, w, T(2), right);
        shmem_quiet();
        shmem_ctx_quiet(ctx);
        EXPECT(f == T(42), "%s: shmem_atomic_fetch_add_nbi (ctx %d)", ty, c);
        shmem_barrier_all();
        EXPECT(*w == T(44), "%s: the word after every atomic (ctx %d)", ty, c);
        shmem_barrier_all();
    }
}

/* and, or, xor, fetching and _nbi, on the right neighbour's word, this PE its only writer. */
template <typename T> static void test_bit(const char *ty)
{
    T *w = static_cast<T *>(sym_a), f = T(0), want;

    for (int c = 0; c < 2; c++) {
        *w = T(0xf0);
        shmem_barrier_all();
        want = T(0xf0);
        c ? shmem_atomic_and(ctx, w, T(0x3c), right) : shmem_atomic_and(w, T(0x3c), right);
        want = T(want & T(0x3c));
        c ? shmem_atomic_or(ctx, w, T(0x05), right) : shmem_atomic_or(w, T(0x05), right);
        want = T(want | T(0x05));
        c ? shmem_atomic_xor(ctx, w, T(0xff), right) : shmem_atomic_xor(w, T(0xff), right);
        want = T(want ^ T(0xff));
        EXPECT((c ? shmem_atomic_fetch_and(ctx, w, T(0x7e), right)
                  : shmem_atomic_fetch_and(w, T(0x7e), right)) == want,
               "%s: shmem_atomic_fetch_and (ctx %d)", ty, c);
        want = T(want & T(0x7e));
        EXPECT((c ? shmem_atomic_fetch_or(ctx, w, T(0x101), right)
                  : shmem_atomic_fetch_or(w, T(0x101), right)) == want,
               "%s: shmem_atomic_fetch_or (ctx %d)", ty, c);
        want = T(want | T(0x101));
        EXPECT((c ? shmem_atomic_fetch_xor(ctx, w, T(0x33), right)
                  : shmem_atomic_fetch_xor(w, T(0x33), right)) == want,
               "%s: shmem_atomic_fetch_xor (ctx %d)", ty, c);
        want = T(want ^ T(0x33));
        c ? shmem_atomic_fetch_and_nbi(ctx, &f, w, T(0x1f0), right)
          : shmem_atomic_fetch_and_nbi(&f, w, T(0x1f0), right);
        shmem_quiet();
        shmem_ctx_quiet(ctx);
        EXPECT(f == want, "%s: shmem_atomic_fetch_and_nbi (ctx %d)", ty, c);
        want = T(want & T(0x1f0));
        c ? shmem_atomic_fetch_or_nbi(ctx, &f, w, T(0x2), right)
          : shmem_atomic_fetch_or_nbi(&f, w, T(0x2), right);
        shmem_quiet();
        shmem_ctx_quiet(ctx);
        EXPECT(f == want, "%s: shmem_atomic_fetch_or_nbi (ctx %d)", ty, c);
        want = T(want | T(0x2));
        c ? shmem_atomic_fetch_xor_nbi(ctx, &f, w, T(0x41), right)
          : shmem_atomic_fetch_xor_nbi(&f, w, T(0x41), right);
        shmem_quiet();
        shmem_ctx_quiet(ctx);
        EXPECT(f == want, "%s: shmem_atomic_fetch_xor_nbi (ctx %d)", ty, c);
        want = T(want ^ T(0x41));
        shmem_barrier_all();
        EXPECT(*w == want, "%s: the word after every bitwise atomic (ctx %d)", ty, c);
        shmem_barrier_all();
    }
}

/* ---- Waits and tests ----------------------------------------------------------------------
 * The left neighbour stores k + 1 into element k; this PE waits for them, then every form
 * finds what it must. */
template <typename T> static void test_wait(const char *ty)
{
    T *iv = static_cast<T *>(sym_a), cmpv[NB];
    size_t idx[NB], n;
    int status[NB] = {0};

    for (int k = 0; k < NB; k++) {
        iv[k] = T(0);
        cmpv[k] = T(k + 1);
    }
    shmem_barrier_all();
    for (int k = 0; k < NB; k++)
        shmem_p(iv + k, T(k + 1), right);
    shmem_quiet();
    shmem_wait_until_all(iv, NB, status, SHMEM_CMP_GT, T(0));
    shmem_wait_until(iv + 1, SHMEM_CMP_EQ, T(2));
    EXPECT(shmem_wait_until_any(iv, NB, NULL, SHMEM_CMP_EQ, T(4)) == 3,
           "%s: shmem_wait_until_any", ty);
    n = shmem_wait_until_some(iv, NB, idx, NULL, SHMEM_CMP_LE, T(2));
    EXPECT(n == 2 && idx[0] == 0 && idx[1] == 1, "%s: shmem_wait_until_some found %zu", ty, n);
    shmem_wait_until_all_vector(iv, NB, NULL, SHMEM_CMP_EQ, cmpv);
    status[0] = 1;
    EXPECT(shmem_wait_until_any_vector(iv, NB, status, SHMEM_CMP_EQ, cmpv) >= 1,
           "%s: shmem_wait_until_any_vector took an excluded element", ty);
    n = shmem_wait_until_some_vector(iv, NB, idx, status, SHMEM_CMP_GE, cmpv);
    EXPECT(n == NB - 1, "%s: shmem_wait_until_some_vector found %zu", ty, n);
    EXPECT(shmem_test(iv + 2, SHMEM_CMP_EQ, T(3)) == 1, "%s: shmem_test", ty);
    EXPECT(shmem_test(iv + 2, SHMEM_CMP_NE, T(3)) == 0, "%s: shmem_test", ty);
    EXPECT(shmem_test_all(iv, NB, NULL, SHMEM_CMP_GE, T(1)) == 1, "%s: shmem_test_all", ty);
    EXPECT(shmem_test_any(iv, NB, NULL, SHMEM_CMP_EQ, T(8)) == 7, "%s: shmem_test_any", ty);
    EXPECT(shmem_test_any(iv, NB, NULL, SHMEM_CMP_GT, T(8)) == SIZE_MAX, "%s: shmem_test_any",
           ty);
    n = shmem_test_some(iv, NB, idx, NULL, SHMEM_CMP_GT, T(6));
    EXPECT(n == 2 && idx[0] == 6 && idx[1] == 7, "%s: shmem_test_some found %zu", ty, n);
    EXPECT(shmem_test_all_vector(iv, NB, status, SHMEM_CMP_EQ, cmpv) == 1,
           "%s: shmem_test_all_vector", ty);
    EXPECT(shmem_test_any_vector(iv, NB, NULL, SHMEM_CMP_LT, cmpv) == SIZE_MAX,
           "%s: shmem_test_any_vector", ty);
    n = shmem_test_some_vector(iv, NB, idx, NULL, SHMEM_CMP_LE, cmpv);
    EXPECT(n == NB, "%s: shmem_test_some_vector found %zu", ty, n);
    shmem_barrier_all();
}

/* ---- Collectives and reductions ------------------------------------------------------------ */
template <typename T> static void test_coll(const char *ty)
{
    T *s = static_cast<T *>(sym_a), *d = static_cast<T *>(sym_b);
    const int nd = npes * NB;
    int rc;

    reset(s, d, nd);
    rc = shmem_broadcast(SHMEM_TEAM_WORLD, d, s, NB, npes - 1);
    for (int k = 0; k < NB; k++)
        EXPECT(rc == 0 && d[k] == val<T>(npes - 1, k), "%s: shmem_broadcast [%d]", ty, k);
    shmem_barrier_all();
    reset(s, d, nd);
    rc = shmem_fcollect(SHMEM_TEAM_WORLD, d, s, 2);
    for (int i = 0; i < 2 * npes; i++)
        EXPECT(rc == 0 && d[i] == val<T>(i / 2, i % 2), "%s: shmem_fcollect [%d]", ty, i);
    shmem_barrier_all();
    reset(s, d, nd);
    rc = shmem_collect(SHMEM_TEAM_WORLD, d, s, 2);
    for (int i = 0; i < 2 * npes; i++)
        EXPECT(rc == 0 && d[i] == val<T>(i / 2, i % 2), "%s: shmem_collect [%d]", ty, i);
    shmem_barrier_all();
    reset(s, d, nd);
    rc = shmem_alltoall(SHMEM_TEAM_WORLD, d, s, 1);
    for (int i = 0; i < npes; i++)
        EXPECT(rc == 0 && d[i] == val<T>(i, me), "%s: shmem_alltoall [%d]", ty, i);
    shmem_barrier_all();
    reset(s, d, nd);
    rc = shmem_alltoalls(SHMEM_TEAM_WORLD, d, s, 2, 1, 1);
    for (int i = 0; i < npes; i++)
        EXPECT(rc == 0 && d[2 * i] == val<T>(i, me), "%s: shmem_alltoalls [%d]", ty, i);
    shmem_barrier_all();
}

/* One reduction: src[k] = v(i, k) on PE i, dest against want(k). */
template <typename T, typename V, typename W, typename F>
static void reduce_one(const char *ty, const char *op, V v, W want, F call)
{
    T *s = static_cast<T *>(sym_a), *d = static_cast<T *>(sym_b);

    for (int k = 0; k < NB; k++) {
        s[k] = v(me, k);
        d[k] = T(0);
    }
    shmem_barrier_all();
    EXPECT(call(d, s) == 0, "%s: shmem_%s_reduce returned non-zero", ty, op);
    for (int k = 0; k < NB; k++)
        EXPECT(d[k] == want(k), "%s: shmem_%s_reduce [%d]", ty, op, k);
    shmem_barrier_all();
}

template <typename T> static T bitval(int i, int k)
{
    return T(1 << ((i + k) % 7));
}

template <typename T> static void test_bitred(const char *ty)
{
    auto v = bitval<T>;
    auto fold = [](int k, int op) {
        T r = bitval<T>(0, k);
        for (int i = 1; i < npes; i++)
            r = op == 0 ? T(r & bitval<T>(i, k)) : op == 1 ? T(r | bitval<T>(i, k))
                                                            : T(r ^ bitval<T>(i, k));
        return r;
    };
    reduce_one<T>(ty, "and", v, [&](int k) { return fold(k, 0); },
                  [](T *d, T *s) { return shmem_and_reduce(SHMEM_TEAM_WORLD, d, s, NB); });
    reduce_one<T>(ty, "or", v, [&](int k) { return fold(k, 1); },
                  [](T *d, T *s) { return shmem_or_reduce(SHMEM_TEAM_WORLD, d, s, NB); });
    reduce_one<T>(ty, "xor", v, [&](int k) { return fold(k, 2); },
                  [](T *d, T *s) { return shmem_xor_reduce(SHMEM_TEAM_WORLD, d, s, NB); });
}

template <typename T> static void test_minmax(const char *ty)
{
    auto v = [](int i, int k) { return T((i + k) % npes + 1); };
    reduce_one<T>(ty, "max", v, [](int) { return T(npes); },
                  [](T *d, T *s) { return shmem_max_reduce(SHMEM_TEAM_WORLD, d, s, NB); });
    reduce_one<T>(ty, "min", v, [](int) { return T(1); },
                  [](T *d, T *s) { return shmem_min_reduce(SHMEM_TEAM_WORLD, d, s, NB); });
}

template <typename T> static void test_sumprod(const char *ty)
{
    reduce_one<T>(ty, "sum", [](int i, int k) { return T(i + 1 + k); },
                  [](int k) { return T(npes * (npes + 1) / 2 + npes * k); },
                  [](T *d, T *s) { return shmem_sum_reduce(SHMEM_TEAM_WORLD, d, s, NB); });
    reduce_one<T>(ty, "prod", [](int i, int k) { return T(i == k % npes ? 2 : 1); },
                  [](int) { return T(2); },
                  [](T *d, T *s) { return shmem_prod_reduce(SHMEM_TEAM_WORLD, d, s, NB); });
}

/* ---- Sandia OpenSHMEM's names ---------------------------------------------------------------
 * Three blocks of 2 elements, one every 2 elements of the source (sst 2), one every 3 of the
 * target (tst 3): element 3i + j of b is element 2i + j of a. */
template <typename T> static void test_blocked(const char *ty)
{
    T *a = static_cast<T *>(sym_a), *b = static_cast<T *>(sym_b);

    for (int form = 0; form < 4; form++) {
        reset(a, b, NB + 1);
        switch (form) {
        case 0: shmemx_ibput(b, a, 3, 2, 2, 3, right); break;
        case 1: shmemx_ibput(ctx, b, a, 3, 2, 2, 3, right); break;
        case 2: shmemx_ibget(b, a, 3, 2, 2, 3, left); break;
        default: shmemx_ibget(ctx, b, a, 3, 2, 2, 3, left); break;
        }
        shmem_quiet();
        shmem_ctx_quiet(ctx);
        shmem_barrier_all();
        for (int e = 0; e < NB + 1; e++) {
            T want = e % 3 < 2 ? val<T>(left, 2 * (e / 3) + e % 3) : T(0);
            EXPECT(b[e] == want, "%s: shmemx_ib%s form %d: element %d", ty,
                   form < 2 ? "put" : "get", form, e);
        }
        shmem_barrier_all();
    }
}

template <typename T> static void test_scan(const char *ty)
{
    T *s = static_cast<T *>(sym_a), *d = static_cast<T *>(sym_b);

    for (int ex = 0; ex < 2; ex++) {
        int last = ex ? me : me + 1; /* PEs 0..last-1 count */
        for (int k = 0; k < NB; k++) {
            s[k] = T(k + 1);
            d[k] = T(7);
        }
        shmem_barrier_all();
        int rc = ex ? shmemx_sum_exscan(SHMEM_TEAM_WORLD, d, s, NB)
                    : shmemx_sum_inscan(SHMEM_TEAM_WORLD, d, s, NB);
        for (int k = 0; k < NB; k++)
            EXPECT(rc == 0 && d[k] == T(last * (k + 1)), "%s: shmemx_sum_%sscan [%d]", ty,
                   ex ? "ex" : "in", k);
        shmem_barrier_all();
    }
}

static void test_signal(void)
{
    *sig = 0;
    shmem_barrier_all();
    shmemx_signal_add(ctx, sig, 3, right);
    shmemx_signal_add(ctx, sig, 4, right);
    shmem_ctx_quiet(ctx);
    EXPECT(shmem_signal_wait_until(sig, SHMEM_CMP_EQ, 7) == 7, "shmemx_signal_add (ctx)");
    shmem_barrier_all();
    shmemx_signal_set(ctx, sig, 11, right);
    shmem_ctx_quiet(ctx);
    EXPECT(shmem_signal_wait_until(sig, SHMEM_CMP_EQ, 11) == 11, "shmemx_signal_set (ctx)");
    shmem_barrier_all();
    *sig = 0;
    shmem_barrier_all();
}

/* ---- Every row of the type table that the generic names take ----------------------------- */
#define BITS_00(...)
#define BITS_01(...) __VA_ARGS__
#define BITS_10(...) __VA_ARGS__
#define BITS_11(...) __VA_ARGS__
#define ROW(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN, BGEN, SCAN,      \
            TOALL, TOBIT, OLD, DEV)                                                             \
    SYMM_IF_##GEN(SYMM_IF_##RMA(test_rma<T>(#NAME); test_coll<T>(#NAME);                        \
                                test_blocked<T>(#NAME);)                                        \
                  SYMM_IF_##EXT(test_ext<T>(#NAME);) SYMM_IF_##AMO(test_amo<T>(#NAME);)         \
                  SYMM_IF_##WAIT(test_wait<T>(#NAME);) SYMM_IF_##MINMAX(test_minmax<T>(#NAME);) \
                  SYMM_IF_##SUMPROD(test_sumprod<T>(#NAME);) SYMM_IF_##SCAN(test_scan<T>(#NAME);)) \
    BITS_##GEN##BGEN(SYMM_IF_##BIT(test_bit<T>(#NAME);) SYMM_IF_##BITRED(test_bitred<T>(#NAME);))

int main()
{
    test_start();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    right = (me + 1) % npes;
    left = (me + npes - 1) % npes;
    if (shmem_ctx_create(0, &ctx) != 0)
        ctx = SHMEM_CTX_DEFAULT;
    sym_a = shmem_malloc(BUF);
    sym_b = shmem_malloc(BUF);
    sig = static_cast<uint64_t *>(shmem_calloc(1, sizeof(uint64_t)));
    REQUIRE(sym_a && sym_b && sig, "shmem_malloc failed");
    SYMM_TYPE_TABLE(ROW, _)
    test_signal();
    if (ctx != SHMEM_CTX_DEFAULT)
        shmem_ctx_destroy(ctx);
    shmem_free(sig);
    shmem_free(sym_b);
    shmem_free(sym_a);
    return test_finish("cxx_generic");
}
