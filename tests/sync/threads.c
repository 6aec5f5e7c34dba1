/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Threads: shmem_init_thread(SHMEM_THREAD_MULTIPLE) provides SHMEM_THREAD_MULTIPLE, and
 * shmem_query_thread says so. Then 4 threads on every PE run at once, each with a private
 * context of its own besides the default one: atomics on PE 0 and spread over every PE (exact
 * totals, fetched values rising), put_signal blocks passed on to the next thread of the next
 * PE (the receiver waits for the signal, finds the block, wipes it and acknowledges), and
 * counters that each thread raises for the next thread of its own PE and waits on. With one
 * PE every exchange is between threads of one process, which is what a ThreadSanitizer build
 * (SYMM_SANITIZE=thread) checks for data races.
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "../harness.h"

#define T 4
#define BLK 512
#define ROUNDS 64
#define ATOMICS 256
#define POISON 0xee

static int me, npes, left, right;
static long total;                      /* on PE 0 */
static long spread[T];                  /* on every PE */
static long tick[T];                    /* thread t waits on tick[t], raised by thread t - 1 */
static uint64_t sig[T], ack[T];
static unsigned char (*data)[BLK];      /* symmetric: one block per receiving thread */

static unsigned char pattern(int r, int e, int pe, int th)
{
    return (unsigned char)((r * 7 + e * 3 + pe * 11 + th * 13) % 200 + 1);
}

static void atomics(int th, shmem_ctx_t mine)
{
    long last = -1;

    for (int i = 0; i < ATOMICS; i++) {
        shmem_ctx_t c = i % 2 ? mine : SHMEM_CTX_DEFAULT;
        long got = shmem_ctx_long_atomic_fetch_add(c, &total, 1 + th, 0);
        EXPECT(got > last, "thread %d: fetch_add returned %ld after %ld", th, got, last);
        last = got;
        shmem_ctx_long_atomic_inc(c, &spread[th], (me + i) % npes);
    }
}

/* Thread th of this PE sends to thread th + 1 of the right PE and receives from thread th - 1
 * of the left PE: sig[s] is written by one sender only, ack[th] by one receiver only. */
static void blocks(int th, shmem_ctx_t mine)
{
    int to = (th + 1) % T, from = (th + T - 1) % T;
    unsigned char src[BLK];

    for (int r = 0; r < ROUNDS; r++) {
        shmem_ctx_t c = r % 2 ? mine : SHMEM_CTX_DEFAULT;
        int e;

        shmem_uint64_wait_until(&ack[th], SHMEM_CMP_GE, (uint64_t)r);
        for (e = 0; e < BLK; e++)
            src[e] = pattern(r, e, me, th);
        if (r % 3 == 0)
            shmem_ctx_putmem_signal(c, data[to], src, BLK, &sig[to], (uint64_t)r + 1,
                                    SHMEM_SIGNAL_SET, right);
        else
            shmem_ctx_putmem_signal_nbi(c, data[to], src, BLK, &sig[to], 1, SHMEM_SIGNAL_ADD,
                                        right);
        shmem_ctx_quiet(c);

        shmem_signal_wait_until(&sig[th], SHMEM_CMP_EQ, (uint64_t)r + 1);
        for (e = 0; e < BLK && data[th][e] == pattern(r, e, left, from); e++)
            ;
        EXPECT(e == BLK, "thread %d round %d: byte %d of the block is %d, expected %d", th, r, e,
               e < BLK ? data[th][e] : 0, e < BLK ? pattern(r, e, left, from) : 0);
        memset(data[th], POISON, BLK);
        shmem_ctx_uint64_atomic_add(c, &ack[from], 1, left);
    }
}

static void ticks(int th, shmem_ctx_t mine)
{
    for (int r = 0; r < ROUNDS; r++) {
        shmem_ctx_long_atomic_inc(r % 2 ? mine : SHMEM_CTX_DEFAULT, &tick[(th + 1) % T], me);
        shmem_long_wait_until(&tick[th], SHMEM_CMP_GE, r + 1);
    }
}

static void *thread_main(void *arg)
{
    int th = (int)(intptr_t)arg;
    shmem_ctx_t mine;

    EXPECT(shmem_ctx_create(SHMEM_CTX_PRIVATE, &mine) == 0, "thread %d: no private context", th);
    atomics(th, mine);
    blocks(th, mine);
    ticks(th, mine);
    shmem_ctx_quiet(mine);
    shmem_ctx_destroy(mine);
    return NULL;
}

int main(void)
{
    pthread_t tid[T];
    int provided = -1, queried = -1;
    long expect;

    int rc = shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);

    EXPECT(rc == 0, "shmem_init_thread returned %d", rc);
    EXPECT(provided == SHMEM_THREAD_MULTIPLE, "provided thread level %d", provided);
    shmem_query_thread(&queried);
    EXPECT(queried == SHMEM_THREAD_MULTIPLE, "shmem_query_thread says %d", queried);
    me = shmem_my_pe();
    npes = shmem_n_pes();
    left = (me + npes - 1) % npes;
    right = (me + 1) % npes;
    data = shmem_malloc(sizeof(*data) * T);
    if (!data)
        return 1;
    memset(data, POISON, sizeof(*data) * T);
    shmem_barrier_all();
    for (int t = 0; t < T; t++)
        if (pthread_create(&tid[t], NULL, thread_main, (void *)(intptr_t)t) != 0) {
            fprintf(stderr, "sync_threads: pthread_create failed\n");
            return 1;
        }
    for (int t = 0; t < T; t++)
        pthread_join(tid[t], NULL);
    shmem_barrier_all();

    if (me == 0)
        EXPECT(total == (long)npes * ATOMICS * (T * (T + 1) / 2), "total %ld, expected %ld",
               total, (long)npes * ATOMICS * (T * (T + 1) / 2));
    expect = 0;
    for (int pe = 0; pe < npes; pe++)
        for (int i = 0; i < ATOMICS; i++)
            expect += (pe + i) % npes == me;
    for (int t = 0; t < T; t++) {
        EXPECT(spread[t] == expect, "thread %d's spread counter is %ld, expected %ld", t,
               spread[t], expect);
        EXPECT(tick[t] == ROUNDS, "tick %d is %ld", t, tick[t]);
        EXPECT(ack[t] == ROUNDS && sig[t] == ROUNDS, "thread %d: ack %llu sig %llu", t,
               (unsigned long long)ack[t], (unsigned long long)sig[t]);
    }
    shmem_free(data);
    return test_finish("sync_threads");
}
