/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Waiting without burning the machine. A wait spins for a while (long when every PE has a CPU
 * of its own, briefly when PEs outnumber CPUs), then yields, then sleeps on the futex word
 * `doorbell` in the internal part of its own heap, which lives in shared memory so that a
 * peer process can wake it. A wait for a word that a PE on this very CPU will write skips the
 * spin: that PE needs this CPU to write it.
 *
 * No lost wake-up: the sleeper counts itself in `sleepers` and publishes what it waits on
 * before it re-checks its condition; a writer stores its data and then reads `sleepers` and
 * the watch (all sequentially consistent), so either the sleeper sees the data or the writer
 * sees the sleeper and rings. Writes to other objects do not ring, and only the first writer
 * of a burst makes the system call. Writes that ring no doorbell (a plain put, which checks
 * without a fence) are still seen: a sleep is bounded.
 *
 * Writes from other nodes land through the network transport: a waiting PE progresses it
 * between checks, and while it sleeps the transport's progress thread rings the doorbell when
 * anything arrives.
 */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sync/sync.h"
#include "core/gpu.h"
#include "core/core.h"

#define SLEEP_NS 2000000L
/* Across nodes a PE that shares its CPU keeps yielding and polling the network this long
 * before it sleeps: a message that lands meanwhile is taken by the PE itself, where a
 * sleeper needs the transport's thread to take it and then to wake the PE. */
#define NET_YIELD_NS 500000L

static long now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

static long cpus;

/* CPUs the job's PEs share: symmrun passes the count it was given; otherwise the CPUs of all
 * the PEs' affinity masks together (a launcher such as mpirun may bind each PE to a CPU of its
 * own: two PEs bound to two CPUs share two), from the start's cards. */
static long job_cpus(void)
{
    cpu_set_t set, one;

    CPU_ZERO(&set);
    for (int i = 0; i < symm_g.n_pes; i++) {
        memcpy(&one, symm_g.cards[i].cpus, sizeof(one));
        CPU_OR(&set, &set, &one);
    }
    if (symm_g.params.cpus > 0)
        return symm_g.params.cpus;
    return CPU_COUNT(&set) > 0 ? CPU_COUNT(&set) : sysconf(_SC_NPROCESSORS_ONLN);
}

void symm_wait_card(symm_card_t *card)
{
    cpu_set_t set;

    _Static_assert(sizeof(set) <= sizeof(card->cpus), "a CPU set fits the card");
    if (sched_getaffinity(0, sizeof(set), &set) != 0)
        CPU_ZERO(&set);
    memset(card->cpus, 0, sizeof(card->cpus));
    memcpy(card->cpus, &set, sizeof(set));
}

long symm_job_cpus(void)
{
    return cpus > 0 ? cpus : 1;
}

void symm_wait_init(void)
{
    cpus = job_cpus();

    symm_g.oversubscribed = cpus > 0 && symm_g.n_pes > cpus;
    if (symm_g.params.spin_us >= 0)
        symm_g.spin_ns = symm_g.params.spin_us * 1000L;
    else
        symm_g.spin_ns = symm_g.oversubscribed ? 0 : 20000L;
    symm_g.yields = (int)symm_g.params.yields;
}

void symm_wait_sleep(_Atomic uint32_t *word, uint32_t seen)
{
    struct timespec ts = {0, SLEEP_NS};

    symm_net_rest(1);
    syscall(SYS_futex, word, FUTEX_WAIT, seen, &ts, NULL, 0);
    symm_net_rest(0);
}

/* Publishes what this PE's sleepers wait on. A second concurrent sleeper (another thread)
 * widens the watch to anything. */
static void watch(symm_internal_t *me, const void *p, size_t len)
{
    int pe = -1;
    uint64_t off = 0;

    if (atomic_fetch_add_explicit(&me->sleepers.v, 1, memory_order_seq_cst) == 0 && p)
        symm_locate(p, &pe, &off);
    atomic_store_explicit(&me->watch.lo, off, memory_order_seq_cst);
    atomic_store_explicit(&me->watch.hi, off + len, memory_order_seq_cst);
    atomic_store_explicit(&me->watch.pe, pe, memory_order_seq_cst);
}

/* The spin phase of a wait: 1 when ready(arg) came true in it. */
static int spin_for(int (*ready)(const void *arg), const void *arg, long spin_ns)
{
    long t0;

    for (int i = 0; i < 64; i++) {
        if (ready(arg))
            return 1;
        symm_cpu_relax();
    }
    t0 = now_ns();
    while (now_ns() - t0 < spin_ns) {
        /* Across nodes the network is polled between the checks: 64 pauses (several
         * microseconds) would delay every message this PE must serve. */
        for (int i = 0; i < 64; i++) {
            if (ready(arg))
                return 1;
            if (symm_g.net)
                symm_net_progress_slow();
            else
                symm_cpu_relax();
        }
    }
    return 0;
}

/* How a wait goes before it sleeps: WAIT_SPIN spins first (else it yields at once);
 * WAIT_LOCAL waits for a word that a PE of this node writes, so it does not keep yielding and
 * polling the network past its yields (NET_YIELD_NS): a PE that shares its CPU with the one it
 * waits for hands the CPU over sooner by sleeping. */
enum { WAIT_SPIN = 1, WAIT_LOCAL = 2, WAIT_BUSY = 4 };

/* How long a wait for PEs busy on a call's data spins (with PEs sharing CPUs: yields) before it
 * sleeps, unless SYMM_SPIN_US sets every spin: they are copying, not blocked, and a sleep's
 * wake-up (an idle CPU woken by another) costs more than the rest of the wait (2 PEs, a
 * broadcast of 1 MiB whose root copies nothing: 36-41 to 26 us, where the root slept after
 * 20 us; 3 PEs on 2 CPUs, an alltoall of 1 MiB, where the PE alone on its CPU slept after 16
 * yields: 176 to 135 us). */
#define BUSY_SPIN_NS 1000000L

static void wait_for(int (*ready)(const void *arg), const void *arg, const void *p, size_t len,
                     int how)
{
    symm_internal_t *me;
    uint32_t bell;
    long spin_ns = symm_g.spin_ns;

    long until = 0;

    if ((how & WAIT_BUSY) && symm_g.params.spin_us < 0 && spin_ns > 0 && spin_ns < BUSY_SPIN_NS)
        spin_ns = BUSY_SPIN_NS;
    if ((how & WAIT_SPIN) && spin_for(ready, arg, spin_ns))
        return;
    if (symm_g.net && !(how & WAIT_LOCAL))
        until = now_ns() + NET_YIELD_NS;
    if ((how & WAIT_BUSY) && symm_g.params.spin_us < 0 && symm_g.oversubscribed)
        until = now_ns() + BUSY_SPIN_NS;
    for (long i = 0; i < symm_g.yields || (until && now_ns() < until); i++) {
        sched_yield();
        symm_net_progress();
        if (ready(arg))
            return;
    }
    me = symm_internal(symm_g.my_pe);
    while (!ready(arg)) {
        /* Order matters: watch (with the sleeper count), then the doorbell value, then re-arm
         * `rung`, then the last check. A writer that rings after the re-arm changes the
         * doorbell after it was read, so the futex wait does not block. */
        watch(me, p, len);
        bell = atomic_load_explicit(&me->doorbell.v, memory_order_seq_cst);
        atomic_store_explicit(&me->watch.rung, 0, memory_order_seq_cst);
        if (!ready(arg))
            symm_wait_sleep(&me->doorbell.v, bell);
        atomic_fetch_sub_explicit(&me->sleepers.v, 1, memory_order_seq_cst);
        symm_net_progress();
        /* A wait must not outlive a faulted kernel of this PE. */
        symm_gpu_poll("a wait");
    }
}

void symm_wait_for(int (*ready)(const void *arg), const void *arg, const void *p, size_t len)
{
    wait_for(ready, arg, p, len, WAIT_SPIN);
}

typedef struct reach_arg {
    _Atomic uint32_t *w;
    uint32_t target;
} reach_arg_t;

static int reached(const void *arg)
{
    const reach_arg_t *r = arg;

    return (int32_t)(atomic_load_explicit(r->w, memory_order_acquire) - r->target) >= 0;
}

void symm_wait_reach(_Atomic uint32_t *w, uint32_t target)
{
    reach_arg_t r = {w, target};

    if (!reached(&r))
        wait_for(reached, &r, (const void *)w, sizeof(*w), WAIT_SPIN);
}

void symm_wait_reach_busy(_Atomic uint32_t *w, uint32_t target, int beside)
{
    reach_arg_t r = {w, target};

    if (!reached(&r))
        wait_for(reached, &r, (const void *)w, sizeof(*w), (beside ? 0 : WAIT_SPIN) | WAIT_BUSY);
}

void symm_wait_reach_yielding(_Atomic uint32_t *w, uint32_t target)
{
    reach_arg_t r = {w, target};

    if (!reached(&r))
        wait_for(reached, &r, (const void *)w, sizeof(*w), 0);
}

void symm_wait_reach_local(_Atomic uint32_t *w, uint32_t target)
{
    reach_arg_t r = {w, target};

    if (!reached(&r))
        wait_for(reached, &r, (const void *)w, sizeof(*w), WAIT_SPIN | WAIT_LOCAL);
}
