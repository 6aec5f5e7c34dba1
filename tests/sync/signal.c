/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Signals: put_signal and put_signal_nbi with SHMEM_SIGNAL_SET and SHMEM_SIGNAL_ADD, typed for
 * every type of the RMA column, sized (8 to 128 bits) and mem, with and without a context and
 * through the C11 _Generic selectors; shmem_signal_fetch; shmem_signal_wait_until with every
 * comparison; shmem_signal_add and shmem_signal_set with and without a context. Round after
 * round each PE sends a block to its right neighbour, which waits for the signal, finds the
 * whole block there, wipes it and acknowledges with a signal that counts down (an add of
 * 2^64 - 1 or a set). Then every PE adds into signals on PE 0, which waits for all of them and
 * finds every PE's last block.
 */
#include <stdint.h>
#include <string.h>

#include "../harness.h"

#define MAX_BYTES 32768
#define ROUNDS 480
#define FAN_ROUNDS 24
#define POISON 0xee

#define ROW_ID(A, NAME, ...) K_##NAME,
#define SIZE_ID(BITS) K_bits##BITS,
enum { SYMM_TYPES(ROW_ID, _) SYMM_SIZES(SIZE_ID) K_mem, NKIND };

static int me, npes, left, right;
static shmem_ctx_t my_ctx;
static unsigned char *buf;             /* symmetric: the receive block */
static _Alignas(16) unsigned char src[MAX_BYTES];
static uint64_t sig, ack;              /* globals: symmetric */
static uint64_t *fan_sigs;             /* symmetric: one per PE, on PE 0 */
static unsigned char *fan_buf;         /* symmetric: one slice per PE, on PE 0 */

static unsigned char pattern(int r, size_t e, int from)
{
    return (unsigned char)((r * 3 + e * 5 + (size_t)from) % 100 + 1);
}

/* Elements this round: mostly a few, sometimes a block big enough to take a while. */
static size_t count_of(int r, size_t size)
{
    return r % 16 == 5 ? MAX_BYTES / size : 1 + (size_t)(r * 7) % 37;
}

/* Variants: 0 plain, 1 ctx, 2 nbi, 3 ctx nbi; 4-7 the same through the _Generic selector
 * (types of the GEN column only; the others repeat 0-3). */
/* Typed: element e of round r is pattern(r, e, sender) as a T. */
#define TYPED_ROW(_, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN)            \
    SYMM_IF_##RMA(                                                                              \
    static void send_##NAME(int r, int variant, uint64_t sv, int op)                            \
    {                                                                                           \
        T *d = (T *)buf, *s = (T *)src;                                                         \
        size_t n = count_of(r, sizeof(T));                                                      \
        for (size_t e = 0; e < n; e++)                                                          \
            s[e] = (T)pattern(r, e, me);                                                        \
        switch (GEN ? variant : variant % 4) {                                                  \
        case 0: shmem_##NAME##_put_signal(d, s, n, &sig, sv, op, right); break;                 \
        case 1: shmem_ctx_##NAME##_put_signal(my_ctx, d, s, n, &sig, sv, op, right); break;     \
        case 2: shmem_##NAME##_put_signal_nbi(d, s, n, &sig, sv, op, right); shmem_quiet(); break;\
        case 3:                                                                                 \
            shmem_ctx_##NAME##_put_signal_nbi(my_ctx, d, s, n, &sig, sv, op, right);            \
            shmem_ctx_quiet(my_ctx);                                                            \
            break;                                                                              \
        SYMM_IF_##GEN(                                                                          \
        case 4: shmem_put_signal(d, s, n, &sig, sv, op, right); break;                          \
        case 5: shmem_put_signal(my_ctx, d, s, n, &sig, sv, op, right); break;                  \
        case 6: shmem_put_signal_nbi(d, s, n, &sig, sv, op, right); shmem_quiet(); break;       \
        case 7:                                                                                 \
            shmem_put_signal_nbi(my_ctx, d, s, n, &sig, sv, op, right);                         \
            shmem_ctx_quiet(my_ctx);                                                            \
            break;)                                                                             \
        }                                                                                       \
    }                                                                                           \
    static size_t check_##NAME(int r)                                                           \
    {                                                                                           \
        const T *d = (const T *)buf;                                                            \
        size_t n = count_of(r, sizeof(T));                                                      \
        size_t e = 0;                                                                           \
        while (e < n && d[e] == (T)pattern(r, e, left))                                         \
            e++;                                                                                \
        EXPECT(e == n, #NAME " round %d: element %zu of %zu is %Lg, expected %d", r, e, n,      \
               e < n ? (long double)d[e] : 0, pattern(r, e, left));                             \
        return n * sizeof(T);                                                                   \
    })

TEST_EXPAND(SYMM_TYPES(TEST_DEFER_ROW, TYPED_ROW))

/* Sized and mem: bytes. */
#define BYTES_SEND(NAME, PUT, UNIT)                                                              \
    static void send_##NAME(int r, int variant, uint64_t sv, int op)                            \
    {                                                                                           \
        size_t n = count_of(r, UNIT);                                                           \
        void *d = buf;                                                                          \
        for (size_t e = 0; e < n * UNIT; e++)                                                   \
            src[e] = pattern(r, e, me);                                                         \
        switch (variant % 4) {                                                                  \
        case 0: shmem_##PUT##_signal(d, src, n, &sig, sv, op, right); break;                    \
        case 1: shmem_ctx_##PUT##_signal(my_ctx, d, src, n, &sig, sv, op, right); break;        \
        case 2: shmem_##PUT##_signal_nbi(d, src, n, &sig, sv, op, right); shmem_quiet(); break; \
        default:                                                                                \
            shmem_ctx_##PUT##_signal_nbi(my_ctx, d, src, n, &sig, sv, op, right);               \
            shmem_ctx_quiet(my_ctx);                                                            \
            break;                                                                              \
        }                                                                                       \
    }                                                                                           \
    static size_t check_##NAME(int r)                                                           \
    {                                                                                           \
        size_t n = count_of(r, UNIT) * UNIT;                                                    \
        size_t e = 0;                                                                           \
        while (e < n && buf[e] == pattern(r, e, left))                                          \
            e++;                                                                                \
        EXPECT(e == n, #NAME " round %d: byte %zu of %zu is %d, expected %d", r, e, n,          \
               e < n ? buf[e] : 0, pattern(r, e, left));                                        \
        return n;                                                                               \
    }
#define SIZED(BITS) BYTES_SEND(bits##BITS, put##BITS, BITS / 8)
SYMM_SIZES(SIZED)
BYTES_SEND(mem, putmem, 1)

typedef struct kind {
    const char *name;
    void (*send)(int r, int variant, uint64_t sv, int op);
    size_t (*check)(int r);
} kind_t;

#define ROW_KIND(_, NAME, T, RMA, AMO, EXT, BIT, WAIT, BITRED, MINMAX, SUMPROD, GEN)             \
    SYMM_IF_##RMA([K_##NAME] = {#NAME, send_##NAME, check_##NAME},)
#define SIZE_KIND(BITS) [K_bits##BITS] = {"put" #BITS, send_bits##BITS, check_bits##BITS},
static const kind_t kinds[NKIND] = {
    SYMM_TYPES(ROW_KIND, _) SYMM_SIZES(SIZE_KIND)[K_mem] = {"putmem", send_mem, check_mem},
};

/* Round r: sig goes from r to r + 1 (a set of r + 1 or an add of 1); the acknowledgement
 * counts down from ROUNDS + 1 to ROUNDS - r (a set, or an add of 2^64 - 1). */
static void ring(void)
{
    static const int sig_cmp[4] = {SHMEM_CMP_EQ, SHMEM_CMP_GE, SHMEM_CMP_GT, SHMEM_CMP_NE};

    for (int r = 0; r < ROUNDS; r++) {
        const kind_t *k = &kinds[r % NKIND];
        int variant = (r / NKIND) % 8, op = (r / NKIND + r / (NKIND * 8)) % 2;
        uint64_t v, due = (uint64_t)ROUNDS - (uint64_t)r + 1;
        int c = sig_cmp[r % 4];
        size_t bytes;

        /* The right neighbour has wiped round r - 1: acknowledgement due or below. */
        if (r % 2)
            v = shmem_signal_wait_until(&ack, r % 4 == 1 ? SHMEM_CMP_LE : SHMEM_CMP_LT,
                                        r % 4 == 1 ? due : due + 1);
        else {
            shmem_uint64_wait_until(&ack, r % 4 == 0 ? SHMEM_CMP_LT : SHMEM_CMP_LE,
                                    r % 4 == 0 ? due + 1 : due);
            v = shmem_signal_fetch(&ack);
        }
        EXPECT(v == due, "round %d: acknowledgement %llu, expected %llu", r,
               (unsigned long long)v, (unsigned long long)due);
        k->send(r, variant, op == SHMEM_SIGNAL_SET ? (uint64_t)r + 1 : 1, op);

        v = shmem_signal_wait_until(&sig, c, c == SHMEM_CMP_EQ || c == SHMEM_CMP_GE
                                                 ? (uint64_t)r + 1 : (uint64_t)r);
        EXPECT(v == (uint64_t)r + 1 && shmem_signal_fetch(&sig) == (uint64_t)r + 1,
               "%s round %d variant %d op %d: signal %llu, expected %d", k->name, r, variant, op,
               (unsigned long long)v, r + 1);
        bytes = k->check(r);
        memset(buf, POISON, bytes);
        switch (r % 4) {
        case 0: shmem_signal_set(&ack, due - 1, left); break;
        case 1: shmem_signal_add(&ack, UINT64_MAX, left); break;
        case 2: shmem_ctx_signal_set(my_ctx, &ack, due - 1, left); break;
        default: shmem_ctx_signal_add(my_ctx, &ack, UINT64_MAX, left); break;
        }
    }
}

/* Every PE adds into its own signal and a shared one on PE 0, rewriting its slice each time;
 * PE 0 waits for all signals and finds every slice as its sender last wrote it. */
static void fan_in(void)
{
    const size_t slice = 256;
    unsigned char data[256];

    for (int r = 0; r < FAN_ROUNDS; r++) {
        for (size_t e = 0; e < slice; e++)
            data[e] = pattern(r, e, me);
        if (r % 2)
            shmem_putmem_signal(fan_buf + (size_t)me * slice, data, slice, &fan_sigs[me], 1,
                                SHMEM_SIGNAL_ADD, 0);
        else
            shmem_ctx_putmem_signal_nbi(my_ctx, fan_buf + (size_t)me * slice, data, slice,
                                        &fan_sigs[me], 1, SHMEM_SIGNAL_ADD, 0);
        shmem_ctx_quiet(my_ctx);
        shmem_signal_add(&fan_sigs[npes], 1, 0);
    }
    if (me == 0) {
        uint64_t total = shmem_signal_wait_until(&fan_sigs[npes], SHMEM_CMP_EQ,
                                                 (uint64_t)npes * FAN_ROUNDS);
        shmem_uint64_wait_until_all(fan_sigs, (size_t)npes, NULL, SHMEM_CMP_EQ, FAN_ROUNDS);
        EXPECT(total == (uint64_t)npes * FAN_ROUNDS, "fan-in total %llu",
               (unsigned long long)total);
        for (int pe = 0; pe < npes; pe++) {
            const unsigned char *got = fan_buf + (size_t)pe * slice;
            size_t e = 0;
            while (e < slice && got[e] == pattern(FAN_ROUNDS - 1, e, pe))
                e++;
            EXPECT(e == slice, "fan-in: byte %zu of pe %d's slice is %d", e, pe,
                   e < slice ? got[e] : 0);
        }
    }
}

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    left = (me + npes - 1) % npes;
    right = (me + 1) % npes;
    buf = shmem_align(16, MAX_BYTES);
    fan_buf = shmem_malloc((size_t)npes * 256);
    fan_sigs = shmem_calloc((size_t)npes + 1, sizeof(uint64_t));
    if (!buf || !fan_buf || !fan_sigs || shmem_ctx_create(0, &my_ctx) != 0)
        return 1;
    memset(buf, POISON, MAX_BYTES);
    ack = ROUNDS + 1;
    shmem_barrier_all();
    ring();
    shmem_barrier_all();
    fan_in();
    shmem_ctx_destroy(my_ctx);
    return test_finish("sync_signal");
}
