/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Sandia OpenSHMEM's names of shmemx.h, as a program written for it calls them:
 *  - block-strided RMA: shmemx_TYPE_ibput and _ibget for every type of the table with RMA,
 *    by element size (8 to 128 bits), in the context forms, and through the C11 generic
 *    names shmemx_ibput and shmemx_ibget (the rows with GEN); three blocks of two elements,
 *    one every 2 elements of the source and every 3 of the target, compared byte by byte;
 *  - shmemx_TYPE_sum_inscan and _exscan for every type with scans (the complex ones too), and
 *    the generic shmemx_sum_inscan and shmemx_sum_exscan;
 *  - shmemx_signal_add and shmemx_signal_set, the context forms and the generic names;
 *  - shmemx_register_gettid: under SHMEM_DEBUG=1 a private context asks the registered
 *    function for the thread at creation and at use.
 * With an argument, a bad call made by the last PE while the others wait in a barrier:
 * stride (a target stride below the block size), private (under SHMEM_DEBUG=1, a private
 * context used under another registered thread id), thread (the same from a second thread,
 * with the operating system's ids).
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include <shmemx.h>

#include "../harness.h"

#define NE 9 /* elements of each buffer: 3 blocks of 2, every 3rd of the target */

static int me, npes, right, left;
static shmem_ctx_t ctx;
static unsigned char *sa, *sb; /* symmetric, NE elements of up to 16 bytes */
static uint64_t *sig;          /* symmetric */

/* ---- Block-strided RMA --------------------------------------------------------------------
 * blk_NAME(form, b, a): form 0 ibput, 1 ctx ibput, 2 ibget, 3 ctx ibget, 4 generic ibput,
 * 5 generic ibget on the context; returns 0 for a form the row does not have. */
#define IB_TYPE(M, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN)              \
    SYMM_IF_##RMA(static int blk_##NAME(int form, void *vb, const void *va) {                   \
        T *b = vb;                                                                              \
        const T *a = va;                                                                        \
        switch (form) {                                                                         \
        case 0: shmemx_##NAME##_ibput(b, a, 3, 2, 2, 3, right); return 1;                       \
        case 1: shmemx_ctx_##NAME##_ibput(ctx, b, a, 3, 2, 2, 3, right); return 1;              \
        case 2: shmemx_##NAME##_ibget(b, a, 3, 2, 2, 3, left); return 1;                        \
        case 3: shmemx_ctx_##NAME##_ibget(ctx, b, a, 3, 2, 2, 3, left); return 1;               \
        SYMM_IF_##GEN(case 4: shmemx_ibput(b, a, 3, 2, 2, 3, right); return 1;                  \
                      case 5: shmemx_ibget(ctx, b, a, 3, 2, 2, 3, left); return 1;)             \
        }                                                                                       \
        return 0;                                                                               \
    })
TEST_EXPAND(SYMM_TYPES(TEST_DEFER_ROW, IB_TYPE))

#define IB_SIZED(BITS)                                                                           \
    static int blk_##BITS(int form, void *b, const void *a)                                     \
    {                                                                                           \
        switch (form) {                                                                         \
        case 0: shmemx_ibput##BITS(b, a, 3, 2, 2, 3, right); return 1;                          \
        case 1: shmemx_ctx_ibput##BITS(ctx, b, a, 3, 2, 2, 3, right); return 1;                 \
        case 2: shmemx_ibget##BITS(b, a, 3, 2, 2, 3, left); return 1;                           \
        case 3: shmemx_ctx_ibget##BITS(ctx, b, a, 3, 2, 2, 3, left); return 1;                  \
        }                                                                                       \
        return 0;                                                                               \
    }
SYMM_SIZES(IB_SIZED)

/* Byte i of PE pe's source. */
static unsigned char pattern(int pe, size_t i)
{
    return (unsigned char)(pe * 37 + i * 11 + 1);
}

static void run_blocked(const char *what, size_t es, int (*fn)(int, void *, const void *))
{
    for (int form = 0; form < 6; form++) {
        for (size_t i = 0; i < NE * es; i++) {
            sa[i] = pattern(me, i);
            sb[i] = 0;
        }
        shmem_barrier_all();
        int ran = fn(form, sb, sa);
        shmem_quiet();
        shmem_ctx_quiet(ctx);
        shmem_barrier_all();
        for (size_t e = 0; ran && e < NE; e++) {
            /* Element 3i + j of the target is element 2i + j of the source (j < 2). */
            size_t from = 2 * (e / 3) + e % 3;
            for (size_t k = 0; k < es; k++) {
                unsigned char want = e % 3 < 2 ? pattern(left, from * es + k) : 0;
                EXPECT(sb[e * es + k] == want, "%s form %d: element %zu byte %zu is %#x, not %#x",
                       what, form, e, k, sb[e * es + k], want);
            }
        }
        shmem_barrier_all();
    }
}

static void test_blocked(void)
{
#define IB_RUN(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN)                \
    SYMM_IF_##RMA(run_blocked("shmemx_" #NAME "_ibput/ibget", sizeof(T), blk_##NAME);)
    SYMM_TYPES(IB_RUN, _)
#define IB_RUN_SIZED(BITS) run_blocked("shmemx_ibput" #BITS "/ibget" #BITS, BITS / 8, blk_##BITS);
    SYMM_SIZES(IB_RUN_SIZED)
}

/* ---- Scans ----------------------------------------------------------------------------------
 * Element k of every PE's source is k + 1: the inclusive scan on PE i is (i + 1)(k + 1), the
 * exclusive one i (k + 1). Forms: typed, then generic (GEN rows). */
#define SCAN_TYPE(M, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN, BGEN, SCAN, \
                  TOALL, TOBIT, OLD, DEV)                                                       \
    SYMM_IF_##SCAN(static void scan_##NAME(void) {                                              \
        T *s = (T *)sa, *d = (T *)sb;                                                           \
        for (int form = 0; form < 4; form++) {                                                  \
            int ex = form % 2, rc = 0, count = ex ? me : me + 1;                                \
            for (int k = 0; k < NE; k++) {                                                      \
                s[k] = (T)(k + 1);                                                              \
                d[k] = (T)7;                                                                    \
            }                                                                                   \
            shmem_barrier_all();                                                                \
            switch (form) {                                                                     \
            case 0: rc = shmemx_##NAME##_sum_inscan(SHMEM_TEAM_WORLD, d, s, NE); break;         \
            case 1: rc = shmemx_##NAME##_sum_exscan(SHMEM_TEAM_WORLD, d, s, NE); break;         \
            SYMM_IF_##GEN(case 2: rc = shmemx_sum_inscan(SHMEM_TEAM_WORLD, d, s, NE); break;    \
                          case 3: rc = shmemx_sum_exscan(SHMEM_TEAM_WORLD, d, s, NE); break;)   \
            default: continue;                                                                  \
            }                                                                                   \
            EXPECT(rc == 0, "shmemx_%s_sum_%sscan returned %d", #NAME, ex ? "ex" : "in", rc);    \
            for (int k = 0; k < NE; k++)                                                        \
                EXPECT(d[k] == (T)(count * (k + 1)), "shmemx_%s_sum_%sscan form %d: [%d] wrong",  \
                       #NAME, ex ? "ex" : "in", form, k);                                       \
            shmem_barrier_all();                                                                \
        }                                                                                       \
    })
TEST_EXPAND(SYMM_TYPE_TABLE(TEST_DEFER_ROW, SCAN_TYPE))

static void test_scans(void)
{
#define SCAN_RUN(A, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN, BGEN, SCAN,  \
                 TOALL, TOBIT, OLD, DEV)                                                        \
    SYMM_IF_##SCAN(scan_##NAME();)
    SYMM_TYPE_TABLE(SCAN_RUN, _)
}

/* ---- Signals ---------------------------------------------------------------------------------
 * Each PE signals its right neighbour: adds 2, 3 (context form) and 4 (generic with a
 * context), then sets 5, 6 (context form) and 8 (generic with a context). */
static void expect_signal(uint64_t want, const char *what)
{
    shmem_quiet();
    shmem_ctx_quiet(ctx);
    EXPECT(shmem_signal_wait_until(sig, SHMEM_CMP_EQ, want) == want, "%s", what);
    shmem_barrier_all();
}

static void test_signals(void)
{
    *sig = 0;
    shmem_barrier_all();
    shmemx_signal_add(sig, 2, right);
    shmemx_ctx_signal_add(ctx, sig, 3, right);
    shmemx_signal_add(ctx, sig, 4, right);
    expect_signal(9, "shmemx_signal_add");
    shmemx_signal_set(sig, 5, right);
    expect_signal(5, "shmemx_signal_set");
    shmemx_ctx_signal_set(ctx, sig, 6, right);
    expect_signal(6, "shmemx_ctx_signal_set");
    shmemx_signal_set(ctx, sig, 8, right);
    expect_signal(8, "shmemx_signal_set (generic, context)");
    (shmemx_signal_add)(sig, 1, right);
    expect_signal(9, "shmemx_signal_add (the function)");
}

/* ---- Thread ids ------------------------------------------------------------------------------ */
static uint64_t fake_tid = 5;
static long tid_calls;

static uint64_t my_gettid(void)
{
    tid_calls++;
    return fake_tid;
}

static int debug_on(void)
{
    const char *d = getenv("SHMEM_DEBUG");

    return d && (strcmp(d, "1") == 0 || strcmp(d, "yes") == 0);
}

static void test_gettid(void)
{
    shmem_ctx_t p;
    long *w = (long *)sb;

    shmemx_register_gettid(my_gettid);
    REQUIRE(shmem_ctx_create(SHMEM_CTX_PRIVATE, &p) == 0, "shmem_ctx_create(PRIVATE) failed");
    *w = 0;
    shmem_barrier_all();
    shmem_ctx_long_p(p, w, me + 1, right);
    shmem_ctx_quiet(p);
    shmem_barrier_all();
    EXPECT(*w == left + 1, "a put on a private context left %ld", *w);
    shmem_barrier_all();
    if (debug_on())
        EXPECT(tid_calls >= 2, "the registered gettid was asked %ld times, not at creation and "
               "at use", tid_calls);
    shmem_ctx_destroy(p);
    shmemx_register_gettid(NULL);
    REQUIRE(shmem_ctx_create(SHMEM_CTX_PRIVATE, &p) == 0, "shmem_ctx_create(PRIVATE) failed");
    shmem_ctx_long_p(p, w, me + 2, right);
    shmem_ctx_quiet(p);
    shmem_ctx_destroy(p);
    shmem_barrier_all();
    EXPECT(*w == left + 2, "a put on a private context with the system's ids left %ld", *w);
    shmem_barrier_all();
}

/* ---- Bad calls ------------------------------------------------------------------------------- */
static void *use_ctx(void *arg)
{
    shmem_ctx_long_p(*(shmem_ctx_t *)arg, (long *)sb, 1, 0);
    return NULL;
}

static int bad(const char *mode)
{
    shmem_ctx_t p;
    pthread_t th;

    if (me != npes - 1) {
        shmem_barrier_all();
        return 1;
    }
    if (strcmp(mode, "stride") == 0) {
        shmemx_int_ibput((int *)sb, (int *)sa, 1, 2, 2, 3, 0);
    } else if (strcmp(mode, "private") == 0) {
        shmemx_register_gettid(my_gettid);
        shmem_ctx_create(SHMEM_CTX_PRIVATE, &p);
        fake_tid = 7;
        shmem_ctx_long_p(p, (long *)sb, 1, 0);
    } else if (strcmp(mode, "thread") == 0) {
        shmem_ctx_create(SHMEM_CTX_PRIVATE, &p);
        pthread_create(&th, NULL, use_ctx, &p);
        pthread_join(th, NULL);
    }
    fprintf(stderr, "sos: the bad call %s returned\n", mode);
    shmem_global_exit(1);
    return 1;
}

int main(int argc, char **argv)
{
    test_start();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    right = (me + 1) % npes;
    left = (me + npes - 1) % npes;
    if (shmem_ctx_create(0, &ctx) != 0)
        ctx = SHMEM_CTX_DEFAULT;
    sa = shmem_malloc(NE * 16);
    sb = shmem_malloc(NE * 16);
    sig = shmem_calloc(1, sizeof(*sig));
    REQUIRE(sa && sb && sig, "shmem_malloc failed");
    if (argc > 1)
        return bad(argv[1]);
    test_blocked();
    test_scans();
    test_signals();
    test_gettid();
    if (ctx != SHMEM_CTX_DEFAULT)
        shmem_ctx_destroy(ctx);
    shmem_free(sig);
    shmem_free(sb);
    shmem_free(sa);
    return test_finish("sos");
}
