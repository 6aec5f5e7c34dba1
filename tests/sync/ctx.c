/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Contexts: shmem_ctx_create with every option and combination of options, many contexts at
 * once, destroyed and created again; on each context puts, gets, strided and non-blocking
 * transfers, atomics and put_signal, through the typed names and the _Generic selectors;
 * message passing ordered by shmem_ctx_fence and completed by shmem_ctx_quiet. Operations on
 * SHMEM_CTX_INVALID do nothing: puts, atomics and signals leave the target as it was, gets
 * and fetch_nbi leave the destination, g and fetches return 0, and quiet, fence and destroy
 * return. (Using a destroyed context is an error; the bad_ctx_* cases check that.) Brief
 * contexts: created, used once or not at all and destroyed at once, over and over, while the
 * last PE sleeps outside the library; across nodes each opens and closes a network channel of
 * its own, which must not leave the peers anything to answer after it is gone.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "../harness.h"

#define N 8
#define NOPT 8
#define MANY 64
#define ROUNDS 40

static const long options[NOPT] = {
    0,
    SHMEM_CTX_SERIALIZED,
    SHMEM_CTX_PRIVATE,
    SHMEM_CTX_NOSTORE,
    SHMEM_CTX_SERIALIZED | SHMEM_CTX_PRIVATE,
    SHMEM_CTX_SERIALIZED | SHMEM_CTX_NOSTORE,
    SHMEM_CTX_PRIVATE | SHMEM_CTX_NOSTORE,
    SHMEM_CTX_SERIALIZED | SHMEM_CTX_PRIVATE | SHMEM_CTX_NOSTORE,
};

static int me, npes, left, right;
static long dst[NOPT][N], strided[NOPT][2 * N], counter[NOPT], flag[NOPT], many_count;
static uint64_t sigs[NOPT];
static int ints[NOPT][N];
static long mp_data[N], mp_flag, mp_ack;

static long value(int pe, int opt, int i)
{
    return 1000L * pe + 100L * opt + i;
}

static void create_all(shmem_ctx_t *ctx)
{
    for (int o = 0; o < NOPT; o++) {
        int rc = shmem_ctx_create(options[o], &ctx[o]);
        EXPECT(rc == 0 && ctx[o] != SHMEM_CTX_INVALID && ctx[o] != SHMEM_CTX_DEFAULT,
               "shmem_ctx_create(%#lx) returned %d", options[o], rc);
        for (int p = 0; p < o; p++)
            EXPECT(ctx[p] != ctx[o], "contexts %d and %d are the same", p, o);
    }
}

/* Every transfer kind on each context, to the right neighbour; checked after a barrier. */
static void transfers(shmem_ctx_t *ctx)
{
    long src[2 * N], got[N];
    int isrc[N];

    for (int o = 0; o < NOPT; o++) {
        shmem_ctx_t c = ctx[o];
        for (int i = 0; i < 2 * N; i++)
            src[i] = value(me, o, i);
        for (int i = 0; i < N; i++)
            isrc[i] = (int)value(me, o, i);
        switch (o % 4) {
        case 0: shmem_ctx_long_put(c, dst[o], src, N, right); break;
        case 1: shmem_ctx_long_put_nbi(c, dst[o], src, N, right); break;
        case 2: shmem_put(c, dst[o], src, N, right); break;
        default:
            for (int i = 0; i < N; i++)
                shmem_ctx_long_p(c, &dst[o][i], src[i], right);
            break;
        }
        shmem_ctx_long_iput(c, strided[o], src, 2, 1, N, right);
        shmem_ctx_put32_nbi(c, ints[o], isrc, N, right);
        shmem_ctx_long_atomic_add(c, &counter[o], o + 1, right);
        shmem_atomic_inc(c, &counter[o], right);
        shmem_ctx_long_put_signal(c, &flag[o], &src[0], 1, &sigs[o], (uint64_t)o + 7,
                                  SHMEM_SIGNAL_SET, right);
        shmem_ctx_quiet(c);
    }
    shmem_barrier_all();
    for (int o = 0; o < NOPT; o++) {
        shmem_ctx_t c = ctx[o];
        int bad = 0;
        for (int i = 0; i < N; i++) {
            bad += dst[o][i] != value(left, o, i);
            bad += strided[o][2 * i] != value(left, o, i);
            bad += ints[o][i] != (int)value(left, o, i);
        }
        EXPECT(!bad, "context %d: %d elements from pe %d wrong", o, bad, left);
        EXPECT(counter[o] == o + 2, "context %d: counter %ld", o, counter[o]);
        EXPECT(sigs[o] == (uint64_t)o + 7 && flag[o] == value(left, o, 0),
               "context %d: put_signal", o);
        /* Gets from the right neighbour, which holds what this PE put there. */
        memset(got, 0, sizeof(got));
        shmem_ctx_long_get(c, got, dst[o], N, right);
        EXPECT(got[N - 1] == value(me, o, N - 1), "context %d: get", o);
        memset(got, 0, sizeof(got));
        shmem_ctx_long_get_nbi(c, got, dst[o], N, right);
        shmem_ctx_quiet(c);
        EXPECT(got[0] == value(me, o, 0), "context %d: get_nbi", o);
        shmem_ctx_long_iget(c, got, strided[o], 1, 2, N, right);
        EXPECT(got[3] == value(me, o, 3), "context %d: iget", o);
        EXPECT(shmem_ctx_long_g(c, &dst[o][2], right) == value(me, o, 2), "context %d: g", o);
        EXPECT(shmem_g(c, &dst[o][5], right) == value(me, o, 5), "context %d: generic g", o);
        EXPECT(shmem_ctx_long_atomic_fetch(c, &counter[o], right) == o + 2,
               "context %d: atomic fetch", o);
    }
    shmem_barrier_all();
}

/* Message passing on one context: data by put_nbi, fence, then the flag; the receiver
 * waits for the flag and finds the data, then acknowledges. */
static void message_passing(shmem_ctx_t c)
{
    long data[N];

    for (int r = 1; r <= ROUNDS; r++) {
        shmem_long_wait_until(&mp_ack, SHMEM_CMP_GE, r - 1);
        for (int i = 0; i < N; i++)
            data[i] = value(me, r, i);
        shmem_ctx_long_put_nbi(c, mp_data, data, N, right);
        shmem_ctx_fence(c);
        shmem_ctx_long_atomic_set(c, &mp_flag, r, right);
        shmem_ctx_quiet(c);
        shmem_long_wait_until(&mp_flag, SHMEM_CMP_EQ, r);
        for (int i = 0; i < N; i++)
            if (mp_data[i] != value(left, r, i)) {
                EXPECT(0, "message passing round %d: element %d is %ld", r, i, mp_data[i]);
                break;
            }
        shmem_ctx_long_atomic_inc(c, &mp_ack, left);
    }
    shmem_barrier_all();
}

/* SHMEM_CTX_INVALID: every operation does nothing. Targets hold -1 before and after. */
static long inv_dst[N], inv_ctr;
static uint64_t inv_sig;

static void invalid_context(void)
{
    const shmem_ctx_t c = SHMEM_CTX_INVALID;
    long src[N] = {1, 2, 3, 4, 5, 6, 7, 8}, got[N], fetched = -5;

    for (int i = 0; i < N; i++)
        inv_dst[i] = -1;
    inv_ctr = -1;
    inv_sig = 77;
    shmem_barrier_all();
    shmem_ctx_long_put(c, inv_dst, src, N, right);
    shmem_ctx_long_put_nbi(c, inv_dst, src, N, right);
    shmem_ctx_long_p(c, &inv_dst[0], 9, right);
    shmem_ctx_long_iput(c, inv_dst, src, 2, 1, N / 2, right);
    shmem_ctx_putmem(c, inv_dst, src, sizeof(src), right);
    shmem_ctx_put64_nbi(c, inv_dst, src, N, right);
    shmem_put(c, inv_dst, src, N, right);
    shmem_ctx_long_atomic_add(c, &inv_ctr, 5, right);
    shmem_ctx_long_atomic_set(c, &inv_ctr, 5, right);
    shmem_atomic_inc(c, &inv_ctr, right);
    EXPECT(shmem_ctx_long_atomic_fetch_add(c, &inv_ctr, 5, right) == 0, "fetch_add returned");
    EXPECT(shmem_ctx_long_atomic_swap(c, &inv_ctr, 5, right) == 0, "swap returned");
    EXPECT(shmem_ctx_long_atomic_compare_swap(c, &inv_ctr, -1, 5, right) == 0, "cswap returned");
    EXPECT(shmem_ctx_long_atomic_fetch(c, &inv_ctr, right) == 0, "fetch returned");
    EXPECT(shmem_atomic_fetch_or(c, (unsigned long *)&inv_ctr, 1UL, right) == 0,
           "generic fetch_or returned");
    shmem_ctx_long_atomic_fetch_inc_nbi(c, &fetched, &inv_ctr, right);
    shmem_ctx_long_atomic_fetch_nbi(c, &fetched, &inv_ctr, right);
    shmem_ctx_ulong_atomic_fetch_xor_nbi(c, (unsigned long *)&fetched, (unsigned long *)&inv_ctr,
                                         3UL, right);
    shmem_ctx_long_put_signal(c, inv_dst, src, N, &inv_sig, 1, SHMEM_SIGNAL_ADD, right);
    shmem_ctx_putmem_signal_nbi(c, inv_dst, src, 8, &inv_sig, 5, SHMEM_SIGNAL_SET, right);
    shmem_ctx_signal_add(c, &inv_sig, 1, right);
    shmem_ctx_signal_set(c, &inv_sig, 1, right);
    shmem_ctx_quiet(c);
    shmem_ctx_fence(c);
    EXPECT(fetched == -5, "fetch_nbi on SHMEM_CTX_INVALID wrote %ld", fetched);
    for (int i = 0; i < N; i++)
        got[i] = -3;
    shmem_ctx_long_get(c, got, inv_dst, N, right);
    shmem_ctx_long_get_nbi(c, got, inv_dst, N, right);
    shmem_ctx_long_iget(c, got, inv_dst, 1, 1, N, right);
    shmem_ctx_getmem(c, got, inv_dst, sizeof(got), right);
    shmem_get(c, got, inv_dst, N, right);
    EXPECT(shmem_ctx_long_g(c, &inv_dst[0], right) == 0, "g returned");
    for (int i = 0; i < N; i++)
        EXPECT(got[i] == -3, "get on SHMEM_CTX_INVALID wrote element %d: %ld", i, got[i]);
    shmem_ctx_destroy(c);
    shmem_barrier_all();
    for (int i = 0; i < N; i++)
        EXPECT(inv_dst[i] == -1, "a put on SHMEM_CTX_INVALID wrote element %d: %ld", i,
               inv_dst[i]);
    EXPECT(inv_ctr == -1, "an atomic on SHMEM_CTX_INVALID changed the target to %ld", inv_ctr);
    EXPECT(inv_sig == 77, "a signal on SHMEM_CTX_INVALID changed it to %llu",
           (unsigned long long)inv_sig);
    shmem_barrier_all();
}

/* Many contexts at once, each used, all destroyed, then as many again. */
static void many_contexts(void)
{
    shmem_ctx_t ctx[MANY];

    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < MANY; i++)
            EXPECT(shmem_ctx_create(options[i % NOPT], &ctx[i]) == 0, "context %d of %d", i,
                   MANY);
        for (int i = 0; i < MANY; i++) {
            shmem_ctx_long_atomic_inc(ctx[i], &many_count, (me + i) % npes);
            shmem_ctx_quiet(ctx[i]);
        }
        for (int i = 0; i < MANY; i++)
            shmem_ctx_destroy(ctx[i]);
    }
    shmem_barrier_all();
    {
        long total = 0;
        for (int pe = 0; pe < npes; pe++)
            total += shmem_long_atomic_fetch(&many_count, pe);
        EXPECT(total == 2L * MANY * npes, "many contexts: %ld increments, expected %ld", total,
               2L * MANY * npes);
    }
}

static long brief_dst[ROUNDS];

static void brief_contexts(void)
{
    int far = (me + npes / 2) % npes;

    memset(brief_dst, 0, sizeof(brief_dst));
    shmem_barrier_all();
    if (me == npes - 1) {
        struct timespec nap = {0, 100 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    for (int r = 0; r < ROUNDS; r++) {
        shmem_ctx_t ctx;
        EXPECT(shmem_ctx_create(options[r % NOPT], &ctx) == 0, "brief context %d", r);
        if (r % 2)
            shmem_ctx_long_p(ctx, &brief_dst[r], 1000L * me + r, far);
        shmem_ctx_quiet(ctx);
        shmem_ctx_destroy(ctx);
    }
    shmem_barrier_all();
    {
        int from = (me - npes / 2 + npes) % npes;
        for (int r = 0; r < ROUNDS; r++) {
            long want = r % 2 ? 1000L * from + r : 0;
            EXPECT(brief_dst[r] == want, "brief context %d: %ld, expected %ld", r, brief_dst[r],
                   want);
        }
    }
}

int main(void)
{
    shmem_ctx_t ctx[NOPT];

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    left = (me + npes - 1) % npes;
    right = (me + 1) % npes;
    create_all(ctx);
    shmem_barrier_all();
    transfers(ctx);
    message_passing(ctx[me % NOPT]);
    for (int o = 0; o < NOPT; o++)
        shmem_ctx_destroy(ctx[o]);
    invalid_context();
    many_contexts();
    brief_contexts();
    shmem_ctx_fence(SHMEM_CTX_DEFAULT);
    shmem_ctx_quiet(SHMEM_CTX_DEFAULT);
    return test_finish("sync_ctx");
}
