/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The proxy's request ring (src/tl/proxy/ring.c) with host threads on both sides, the protocol
 * kernels follow on the GPU: producers that post far more requests than the ring holds, each
 * in its own order, some waiting for answers; a consumer that takes them in order and answers.
 * Checked: nothing lost, nothing taken twice, each producer's requests in its order, every
 * answer reaching its own request; a full ring holds its producers at exactly SYMM_PX_SLOTS
 * published requests (none overwritten); and an answer not yet taken holds tail at its index,
 * so its slot is not reused.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tl/proxy/ring.h"
#define TEST_WITHOUT_SHMEM
#include "../harness.h"

#define PRODUCERS 4
#define PER 20000 /* requests a producer: PRODUCERS * PER is about 20 rings */

static symm_px_ring_t *ring;
static unsigned long long head;
static int answers; /* the producers ask for answers */

/* Producer p posts PER requests: value = its count; every 7th asks for an answer, which must be
 * value * 3 + p. */
static void *producer(void *arg)
{
    const int p = (int)(intptr_t)arg;

    for (unsigned long long k = 0; k < PER; k++) {
        symm_px_req_t q = {.op = SYMM_PX_P,
                           .pe = p,
                           .len = 8,
                           .value = k,
                           .flags = answers && k % 7 == 0 ? SYMM_PX_ANSWER : 0};
        unsigned long long idx = symm_px_post_host(ring, &head, &q);
        if (q.flags) {
            unsigned long long v = symm_px_await_host(ring, idx);
            EXPECT(v == k * 3 + (unsigned long long)p, "producer %d request %llu: answer %llu", p,
                   k, v);
        }
    }
    return NULL;
}

static unsigned long long published(void)
{
    unsigned long long n = 0;

    for (unsigned i = 0; i < SYMM_PX_SLOTS; i++)
        n += atomic_load((_Atomic unsigned long long *)&ring->req[i].seq) != 0;
    return n;
}

/* Takes every request; answers those that ask. Returns how many it took. */
static unsigned long long consume(symm_px_cons_t *c, unsigned long long total)
{
    unsigned long long next[PRODUCERS] = {0}, taken = 0;
    time_t until = time(NULL) + TEST_WAIT_SECONDS;
    symm_px_req_t q;

    while (taken < total) {
        if (!symm_px_peek(c, &q)) {
            symm_px_release(c);
            REQUIRE(time(NULL) <= until, "the consumer took %llu of %llu requests", taken, total);
            sched_yield();
            continue;
        }
        REQUIRE(q.pe >= 0 && q.pe < PRODUCERS, "request %llu: producer %d", q.seq, q.pe);
        EXPECT(q.value == next[q.pe], "producer %d: request %llu came where %llu was due", q.pe,
               q.value, next[q.pe]);
        next[q.pe] = q.value + 1;
        symm_px_take(c, &q);
        if (q.flags & SYMM_PX_ANSWER)
            symm_px_answer(c, q.seq, q.value * 3 + (unsigned long long)q.pe);
        taken++;
        if (taken % 64 == 0)
            symm_px_release(c);
    }
    for (int p = 0; p < PRODUCERS; p++)
        EXPECT(next[p] == PER, "producer %d: %llu requests taken", p, next[p]);
    return taken;
}

/* An empty ring, its consumer, and the producers started (asking for answers or not). */
static void start(symm_px_cons_t *c, pthread_t *th, int with_answers)
{
    memset(ring, 0, sizeof(*ring));
    head = 0;
    answers = with_answers;
    REQUIRE(symm_px_cons_init(c, ring), "symm_px_cons_init");
    for (int p = 0; p < PRODUCERS; p++)
        REQUIRE(pthread_create(&th[p], NULL, producer, (void *)(intptr_t)p) == 0, "thread");
}

/* The ring full: producers stop at SYMM_PX_SLOTS published requests until the consumer moves. */
static void full_ring(void)
{
    pthread_t th[PRODUCERS];
    symm_px_cons_t c;

    start(&c, th, 0);
    TEST_WAIT(atomic_load((_Atomic unsigned long long *)&head) >= SYMM_PX_SLOTS + PRODUCERS,
              "the producers to fill the ring");
    TEST_WAIT(published() == SYMM_PX_SLOTS, "every slot published");
    struct timespec ts = {0, 20 * 1000 * 1000};
    nanosleep(&ts, NULL);
    EXPECT(published() == SYMM_PX_SLOTS && ring->tail == 0,
           "a full ring: %llu slots published, tail %llu", published(), ring->tail);
    EXPECT(ring->req[0].seq == 1, "slot 0 overwritten: seq %llu", ring->req[0].seq);
    EXPECT(consume(&c, (unsigned long long)PRODUCERS * PER) == (unsigned long long)PRODUCERS * PER,
           "every request taken");
    for (int p = 0; p < PRODUCERS; p++)
        pthread_join(th[p], NULL);
    EXPECT(head == (unsigned long long)PRODUCERS * PER, "head %llu", head);
    symm_px_cons_fini(&c);
}

/* An answer its thread has not taken holds tail, then lets it go. */
static void held_answer(void)
{
    symm_px_cons_t c;
    symm_px_req_t q = {.op = SYMM_PX_G, .len = 8, .flags = SYMM_PX_ANSWER}, r;
    unsigned long long idx, v;

    memset(ring, 0, sizeof(*ring));
    head = 0;
    REQUIRE(symm_px_cons_init(&c, ring), "symm_px_cons_init");
    idx = symm_px_post_host(ring, &head, &q);
    q.flags = 0;
    for (int i = 0; i < 10; i++)
        symm_px_post_host(ring, &head, &q);
    for (int i = 0; i < 11; i++) {
        REQUIRE(symm_px_peek(&c, &r), "request %d published", i);
        symm_px_take(&c, &r);
        if (r.flags & SYMM_PX_ANSWER)
            symm_px_answer(&c, r.seq, 42);
    }
    symm_px_release(&c);
    EXPECT(ring->tail == idx, "tail %llu passed the answer at %llu not yet taken", ring->tail, idx);
    EXPECT(!symm_px_peek(&c, &r), "a request that was never posted");
    v = symm_px_await_host(ring, idx);
    EXPECT(v == 42, "answer %llu", v);
    symm_px_release(&c);
    EXPECT(ring->tail == 11, "tail %llu after the answer was taken", ring->tail);
    symm_px_cons_fini(&c);
}

/* Producers and the consumer at once, with answers. */
static void mixed(void)
{
    pthread_t th[PRODUCERS];
    symm_px_cons_t c;

    start(&c, th, 1);
    consume(&c, (unsigned long long)PRODUCERS * PER);
    for (int p = 0; p < PRODUCERS; p++)
        pthread_join(th[p], NULL);
    symm_px_release(&c);
    EXPECT(ring->tail == head, "tail %llu, head %llu after every answer was taken", ring->tail,
           head);
    symm_px_cons_fini(&c);
}

int main(void)
{
    ring = aligned_alloc(64, sizeof(*ring));
    REQUIRE(ring != NULL, "out of memory");
    held_answer();
    full_ring();
    mixed();
    free(ring);
    return test_finish("unit_ring");
}
