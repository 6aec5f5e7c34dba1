/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Distributed locks: shmem_set_lock, shmem_test_lock and shmem_clear_lock on a lock that is a
 * global and one in the heap. Mutual exclusion: under the lock every PE increments a counter
 * on PE 0 by a plain get and put with a yield between them, and marks itself the owner and
 * finds its mark still there at the end; the counts are exact. test_lock fails on a held lock
 * and, on a free one, exactly one of all the PEs trying wins. Fairness, as the ticket lock of
 * src/sync/lock.c defines it (tickets served in the low 32 bits of the lock word on PE 0,
 * tickets taken in the high 32): each holder reads how many tickets wait behind its own and
 * logs it; on PE 0 the log then shows those waiters, all different PEs and none of them the
 * holder, as the very next holders. That holds in every interleaving, so it cannot flake.
 * And a queue: while PE 0 holds a lock, every other PE blocks in shmem_set_lock; the lock
 * word counts all of them as waiting (a lock that does not queue its waiters never does, and
 * the job times out), and they then get it one by one, the queue shrinking by one each time.
 */
#include <sched.h>
#include <stdint.h>

#include "../harness.h"

#define ME_ROUNDS 16
#define FAIR_ROUNDS 12
#define TEST_ROUNDS 3

typedef struct entry {
    long pe, waiting, served;
} entry_t;

static int me, npes;
static long lock_global;                /* a lock in the data segment */
static long *lock_heap;                 /* a lock in the symmetric heap */
static long *lock_fair;
static long owner[2], count[2];         /* on PE 0, per mutual-exclusion lock */
static long fair_count, winners;        /* on PE 0 */
static entry_t *fair_log;               /* on PE 0: one entry per acquisition */
static long *lock_queue, queue_go, queue_count;
static entry_t *queue_log;              /* on PE 0 */

/* Reads the held lock's word on PE 0: the ticket being served and how many wait behind it. */
static entry_t ticket_state(long *lock)
{
    unsigned long word = (unsigned long)shmem_long_atomic_fetch(lock, 0);
    uint32_t served = (uint32_t)word, taken = (uint32_t)(word >> 32);
    entry_t e = {me, (long)(taken - served) - 1, served};

    EXPECT(taken - served >= 1 && taken - served <= (uint32_t)npes,
           "held lock word %#lx is no ticket lock with at most %d tickets out", word, npes);
    return e;
}

static void acquire(long *lock, int how)
{
    if (how == 0) {
        shmem_set_lock(lock);
        return;
    }
    TEST_WAIT(!shmem_test_lock(lock), "shmem_test_lock to take the lock");
}

static void mutual_exclusion(void)
{
    for (int i = 0; i < ME_ROUNDS; i++) {
        int which = (i + me) % 2;
        long *lock = which ? lock_heap : &lock_global, c, o;

        acquire(lock, i % 3 == 2);
        o = shmem_long_g(&owner[which], 0);
        EXPECT(o == 0, "lock %d: pe %ld holds it too", which, o - 1);
        shmem_long_p(&owner[which], me + 1, 0);
        c = shmem_long_g(&count[which], 0);
        sched_yield();
        shmem_long_p(&count[which], c + 1, 0);
        o = shmem_long_g(&owner[which], 0);
        EXPECT(o == me + 1, "lock %d: pe %ld took it while this PE held it", which, o - 1);
        shmem_long_p(&owner[which], 0, 0);
        shmem_clear_lock(lock);
    }
}

static void test_lock_rounds(void)
{
    for (int r = 0; r < TEST_ROUNDS; r++) {
        int holder = r % npes, won;

        if (me == holder)
            shmem_set_lock(lock_heap);
        shmem_barrier_all();
        if (me != holder)
            EXPECT(shmem_test_lock(lock_heap) != 0, "test_lock took a lock pe %d holds", holder);
        shmem_barrier_all();
        if (me == holder)
            shmem_clear_lock(lock_heap);
        shmem_barrier_all();
        won = shmem_test_lock(lock_heap) == 0;
        shmem_long_atomic_add(&winners, won, 0);
        shmem_barrier_all();
        if (me == 0)
            EXPECT(shmem_long_atomic_swap(&winners, 0, 0) == 1,
                   "round %d: not exactly one PE won test_lock on a free lock", r);
        if (won)
            shmem_clear_lock(lock_heap);
        shmem_barrier_all();
    }
}

static void fairness_run(void)
{
    for (int i = 0; i < FAIR_ROUNDS; i++) {
        entry_t e;
        long k;

        shmem_set_lock(lock_fair);
        sched_yield(); /* let the others queue up behind this holder */
        e = ticket_state(lock_fair);
        k = shmem_long_g(&fair_count, 0);
        shmem_putmem(&fair_log[k], &e, sizeof(e), 0);
        shmem_long_p(&fair_count, k + 1, 0);
        shmem_clear_lock(lock_fair);
    }
}

/* On PE 0: acquisitions k + 1 .. k + waiting(k) are by distinct PEs other than holder k. */
static void fairness_check(void)
{
    long n = (long)npes * FAIR_ROUNDS, per_pe[TEST_MAX_PES] = {0}, contended = 0;

    EXPECT(fair_count == n, "fairness: %ld acquisitions logged, expected %ld", fair_count, n);
    if (fair_count != n)
        return;
    for (long k = 0; k < n; k++) {
        int seen[TEST_MAX_PES] = {0};
        const entry_t *e = &fair_log[k];

        per_pe[e->pe]++;
        EXPECT(e->served == fair_log[0].served + k, "fairness: acquisition %ld served ticket "
               "%ld, expected %ld", k, e->served, fair_log[0].served + k);
        contended += e->waiting > 0;
        seen[e->pe] = 1;
        for (long j = k + 1; j <= k + e->waiting && j < n; j++) {
            EXPECT(!seen[fair_log[j].pe], "fairness: acquisition %ld by pe %ld had %ld waiting, "
                   "yet acquisition %ld went to pe %ld again", k, e->pe, e->waiting, j,
                   fair_log[j].pe);
            seen[fair_log[j].pe] = 1;
        }
    }
    for (int pe = 0; pe < npes; pe++)
        EXPECT(per_pe[pe] == FAIR_ROUNDS, "fairness: pe %d got the lock %ld times", pe,
               per_pe[pe]);
    printf("sync_lock: %ld of %ld acquisitions found others waiting\n", contended, n);
}

static void queue_run(void)
{
    entry_t e;
    long k;

    if (me == 0) {
        shmem_set_lock(lock_queue);
        for (int pe = 1; pe < npes; pe++)
            shmem_long_atomic_set(&queue_go, 1, pe);
        TEST_WAIT((e = ticket_state(lock_queue)).waiting >= npes - 1,
                  "%d PEs to queue for the lock (%ld do)", npes - 1, e.waiting);
    } else {
        shmem_long_wait_until(&queue_go, SHMEM_CMP_EQ, 1);
        shmem_set_lock(lock_queue);
        e = ticket_state(lock_queue);
    }
    k = shmem_long_g(&queue_count, 0);
    shmem_putmem(&queue_log[k], &e, sizeof(e), 0);
    shmem_long_p(&queue_count, k + 1, 0);
    shmem_clear_lock(lock_queue);
    shmem_barrier_all();
    if (me != 0)
        return;
    EXPECT(queue_count == npes, "queue: %ld acquisitions, expected %d", queue_count, npes);
    for (k = 0; k < queue_count && k < npes; k++)
        EXPECT(queue_log[k].waiting == npes - 1 - k && (k > 0 || queue_log[k].pe == 0),
               "queue: holder %ld (pe %ld) saw %ld waiting, expected %ld", k, queue_log[k].pe,
               queue_log[k].waiting, npes - 1 - k);
}

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    lock_heap = shmem_calloc(1, sizeof(long));
    lock_fair = shmem_calloc(1, sizeof(long));
    fair_log = shmem_calloc((size_t)npes * FAIR_ROUNDS, sizeof(entry_t));
    lock_queue = shmem_calloc(1, sizeof(long));
    queue_log = shmem_calloc((size_t)npes, sizeof(entry_t));
    if (!lock_heap || !lock_fair || !fair_log || !lock_queue || !queue_log ||
        npes > TEST_MAX_PES)
        return 1;

    mutual_exclusion();
    shmem_barrier_all();
    if (me == 0)
        for (int w = 0; w < 2; w++)
            EXPECT(count[w] == (long)npes * ME_ROUNDS / 2, "lock %d: count %ld, expected %ld",
                   w, count[w], (long)npes * ME_ROUNDS / 2);
    test_lock_rounds();
    fairness_run();
    shmem_barrier_all();
    if (me == 0)
        fairness_check();
    queue_run();
    /* Every lock is free again: a test_lock wins at once. */
    shmem_barrier_all();
    if (me == npes - 1) {
        EXPECT(shmem_test_lock(&lock_global) == 0 && shmem_test_lock(lock_fair) == 0,
               "a lock was left held");
        shmem_clear_lock(&lock_global);
        shmem_clear_lock(lock_fair);
    }
    return test_finish("sync_lock");
}
