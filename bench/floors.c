/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * floors: what the hardware and the kernel allow on this machine, with no OpenSHMEM at all, as
 * the lower bounds against which the benchmark figures are read. Each floor is a row of the
 * table floors[]. One process alone: a store to a shared page followed by a full fence (the
 * cost of a put that is complete at once), a load that hits the cache (the cost of a g from a
 * mapped peer), and a 2-input sum of 1 MiB of longs, c[i] = a[i] + b[i], that reads 2 MiB and
 * writes 1 MiB on one core with the arrays as warm as a loop leaves them (what one PE's share
 * of a 1 MiB sum reduction must move at the least), and copies of 1 and 2 MiB into buffers as
 * large, every other pass backwards in 16 KiB pieces so that each pass starts on the lines the
 * last one left in the cache (the copying one core does in an alltoall of 1 MiB: the PE's own
 * at 2 PEs, two PEs' at 4 PEs on 2 CPUs). Two processes (fork) sharing one
 * MAP_SHARED anonymous page: a barrier, each raising its flag and spinning on the other's (the
 * cost of a two-PE barrier), and a ping-pong, each writing 8 bytes and then a flag on another
 * cache line into the other's half of the page and spinning on the flag in its own half (the
 * round trip of a put with signal answered by one), and taking turns on one flag, each raising
 * it and spinning until the other has raised it again (the round trip of one line, what a
 * broadcast followed by a barrier needs between two PEs at the least: the data goes out, the
 * arrival comes back); and the two pinned to one CPU taking turns, each yielding the CPU until
 * the other has taken its turn (a round trip of two context switches: what PEs that share a
 * CPU pay when each waits for the other). Four processes, two pinned to each of two CPUs: what
 * a broadcast of 8 bytes adds to a barrier when the barrier switches each CPU once (a loop of
 * broadcast + barrier less a loop of barriers alone, the broadcast's own figure at 4 PEs): the
 * steps any such pair of calls takes, with no library around them (the barrier: each process
 * counts itself in on its CPU's counter, the last of a CPU on the global one, the last of all
 * raises the release; a waiter spins while its CPU-mate has arrived too, else yields. The
 * broadcast: the root stores the value (its epoch) in one line; its CPU-mate yields until the
 * line has it, the other CPU's processes spin 64 pauses, then spin while their mate waits as
 * well and yield while it has not posted; the root's mate yields at once in the barrier after
 * it, so that the root has the CPU at the release). Trials and output follow bench.c: the
 * median of TRIALS trials of about TRIAL_NS each, one line per floor,
 * `case=NAME pes=N value=V unit=ns stat=median ...`.
 */
#define _GNU_SOURCE

#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TRIAL_NS 10e6
#define TRIALS 7
#define MIN_ITERS 16
#define STOP (-1L)
#define SUM_LONGS ((1 << 20) / sizeof(long))

/* The shared page: each word on a cache line of its own, so the two processes do not contend
 * for a line they do not both need. */
typedef struct {
    _Alignas(64) atomic_long v;
} floors_line_t;

/* A process's half of the ping-pong, written by the other process. */
typedef struct {
    floors_line_t data;
    floors_line_t flag; /* the last round the other process sent, or STOP */
} floors_half_t;

/* The four processes of yield_bcast_add: process p runs on CPU p / 2. */
#define QUAD 4
typedef struct {
    floors_line_t go;       /* the session number process 0 started, or STOP */
    floors_line_t iters;    /* its length */
    floors_line_t cell;     /* the broadcast's value, its epoch */
    floors_line_t count;    /* the CPUs arrived at the barrier */
    floors_line_t group[2]; /* the processes of each CPU arrived */
    floors_line_t release;  /* the last barrier completed */
    floors_line_t arrived[QUAD];
    floors_line_t posted[QUAD];
} floors_quad_t;

typedef struct {
    floors_line_t word;    /* target of the store */
    floors_line_t chase;   /* target of the load; always 0 */
    floors_line_t flag[2]; /* flag[i]: the last barrier process i entered; STOP ends the partner */
    floors_half_t half[2]; /* half[i]: process i's */
    floors_quad_t quad;
} floors_page_t;

static floors_page_t *page;
static long rounds; /* this process's barriers or ping-pongs, continued across trials */
static long sum_a[SUM_LONGS], sum_b[SUM_LONGS], sum_c[SUM_LONGS];
static _Alignas(64) char copy_src[2 << 20], copy_dst[2 << 20];
static volatile long sink;

typedef void (*floors_kernel_t)(long iters);

typedef struct {
    const char *name;
    int procs;
    floors_kernel_t kernel;      /* run by process 0, which times it */
    double (*timed)(long iters); /* instead: a kernel that returns the time it measures, in ns */
    void (*partner)(void);       /* the other processes' side; returns on STOP */
    int one_cpu;                 /* process 1 shares process 0's CPU */
} floors_case_t;

static void k_store_fence(long iters)
{
    for (long i = 0; i < iters; i++) {
        atomic_store_explicit(&page->word.v, i, memory_order_relaxed);
        atomic_thread_fence(memory_order_seq_cst);
    }
}

/* Each load's address depends on the previous load's value (chase stays 0), so the loop measures
 * load latency, not the throughput of independent loads. */
static void k_cached_load(long iters)
{
    long x = 0;

    for (long i = 0; i < iters; i++)
        x = atomic_load_explicit(&(&page->chase.v)[x], memory_order_relaxed);
    sink = x;
}

/* The signal fence keeps the compiler from merging passes that store the same values. */
static void k_sum_1m(long iters)
{
    for (long i = 0; i < iters; i++) {
        for (size_t j = 0; j < SUM_LONGS; j++)
            sum_c[j] = sum_a[j] + sum_b[j];
        atomic_signal_fence(memory_order_seq_cst);
    }
    sink = sum_c[(size_t)iters % SUM_LONGS];
}

#define COPY_PIECE (16 << 10)

static void copy_passes(long iters, size_t n)
{
    for (long i = 0; i < iters; i++) {
        if (i & 1) {
            for (size_t off = n; off > 0; off -= COPY_PIECE)
                memcpy(copy_dst + off - COPY_PIECE, copy_src + off - COPY_PIECE, COPY_PIECE);
        } else {
            memcpy(copy_dst, copy_src, n);
        }
        atomic_signal_fence(memory_order_seq_cst);
    }
    sink = copy_dst[(size_t)iters % n];
}

static void k_copy_1m(long iters)
{
    copy_passes(iters, 1 << 20);
}

static void k_copy_2m(long iters)
{
    copy_passes(iters, 2 << 20);
}

/* Raises flag[me] to round n and waits until the other flag reaches it; 0 on STOP. */
static int flag_barrier(int me, long n)
{
    long v;

    atomic_store_explicit(&page->flag[me].v, n, memory_order_release);
    while ((v = atomic_load_explicit(&page->flag[!me].v, memory_order_acquire)) < n && v != STOP)
        ;
    return v != STOP;
}

static void k_flag_barrier(long iters)
{
    for (long i = 0; i < iters; i++)
        flag_barrier(0, ++rounds);
}

static void partner_barrier(void)
{
    while (flag_barrier(1, ++rounds))
        ;
}

/* Sends round n into the other's half: the data, then the flag that publishes it. */
static void pong_send(int to, long n)
{
    atomic_store_explicit(&page->half[to].data.v, n, memory_order_relaxed);
    atomic_store_explicit(&page->half[to].flag.v, n, memory_order_release);
}

/* Waits for round n in my half and reads its data; 0 on STOP. */
static int pong_wait(int me, long n)
{
    long v;

    while ((v = atomic_load_explicit(&page->half[me].flag.v, memory_order_acquire)) < n &&
           v != STOP)
        ;
    sink = atomic_load_explicit(&page->half[me].data.v, memory_order_relaxed);
    return v != STOP;
}

static void k_pingpong(long iters)
{
    for (long i = 0; i < iters; i++) {
        long n = ++rounds;
        pong_send(1, n);
        pong_wait(0, n);
    }
}

static void partner_pingpong(void)
{
    for (long n = ++rounds; pong_wait(1, n); n = ++rounds)
        pong_send(0, n);
}

/* Turns: process 0 takes odd turns, process 1 even ones; each hands the turn over and waits
 * until it comes back, spinning (two CPUs: the flag's line crosses twice a round trip) or
 * yielding (one CPU: two context switches a round trip). flag[0] holds the last turn taken,
 * or STOP. */
static int yields; /* the pair shares one CPU (set before the partner is forked) */

static long turn_wait(long turn)
{
    long v;

    while ((v = atomic_load_explicit(&page->flag[0].v, memory_order_acquire)) < turn && v != STOP)
        if (yields)
            sched_yield();
    return v;
}

static void k_turns(long iters)
{
    for (long i = 0; i < iters; i++) {
        long n = ++rounds;
        atomic_store_explicit(&page->flag[0].v, 2 * n - 1, memory_order_release);
        turn_wait(2 * n);
    }
}

static void partner_turns(void)
{
    for (long n = ++rounds; turn_wait(2 * n - 1) != STOP; n = ++rounds)
        atomic_store_explicit(&page->flag[0].v, 2 * n, memory_order_release);
}

static double now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static inline void floors_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* ---- yield_bcast_add ---- */
static int quad_me;         /* this process's number */
static long quad_e, quad_k; /* its barriers and broadcasts so far, continued across sessions */

static long quad_load(floors_line_t *l)
{
    return atomic_load_explicit(&l->v, memory_order_acquire);
}

static void quad_barrier(int early)
{
    floors_quad_t *q = &page->quad;
    long e = ++quad_e;
    atomic_long *group = &q->group[quad_me / 2].v;

    atomic_store_explicit(&q->arrived[quad_me].v, e, memory_order_relaxed);
    if (atomic_fetch_add(group, 1) == 1) {
        atomic_store_explicit(group, 0, memory_order_relaxed);
        if (atomic_fetch_add(&q->count.v, 1) == 1) {
            atomic_store_explicit(&q->count.v, 0, memory_order_relaxed);
            atomic_store(&q->release.v, e);
            return;
        }
    }
    if (early)
        sched_yield();
    while (quad_load(&q->release) < e) {
        if (atomic_load_explicit(&q->arrived[quad_me ^ 1].v, memory_order_relaxed) >= e)
            for (int i = 0; i < 16; i++)
                floors_relax();
        else
            sched_yield();
    }
}

static void quad_broadcast(void)
{
    floors_quad_t *q = &page->quad;
    long k = ++quad_k;
    int spins = 0;

    if (quad_me == 0) {
        atomic_store_explicit(&q->cell.v, k, memory_order_release);
        return;
    }
    atomic_store_explicit(&q->posted[quad_me].v, k, memory_order_relaxed);
    while (quad_load(&q->cell) < k) {
        if (quad_me == 1)
            sched_yield();
        else if (spins < 64 || quad_load(&q->posted[quad_me ^ 1]) >= k) {
            floors_relax();
            spins++;
        } else {
            sched_yield();
        }
    }
    sink = atomic_load_explicit(&q->cell.v, memory_order_relaxed);
}

/* One session: n barriers, then n broadcasts each followed by a barrier; the second loop's time
 * less the first's. */
static double quad_session(long n)
{
    double t0 = now_ns(), t1, t2;

    for (long i = 0; i < n; i++)
        quad_barrier(0);
    t1 = now_ns();
    for (long i = 0; i < n; i++) {
        quad_broadcast();
        quad_barrier(quad_me == 1);
    }
    t2 = now_ns();
    return (t2 - t1) - (t1 - t0);
}

static double k_bcast_add(long iters)
{
    atomic_store_explicit(&page->quad.iters.v, iters, memory_order_relaxed);
    atomic_fetch_add(&page->quad.go.v, 1);
    return quad_session(iters);
}

static void partner_quad(void)
{
    long seen = 0, go;

    for (;;) {
        while ((go = quad_load(&page->quad.go)) == seen)
            sched_yield();
        if (go == STOP)
            return;
        seen = go;
        quad_session(atomic_load_explicit(&page->quad.iters.v, memory_order_relaxed));
    }
}

static const floors_case_t floors[] = {
    {.name = "store_fence", .procs = 1, .kernel = k_store_fence},
    {.name = "cached_load", .procs = 1, .kernel = k_cached_load},
    {.name = "sum_1m", .procs = 1, .kernel = k_sum_1m},
    {.name = "copy_1m", .procs = 1, .kernel = k_copy_1m},
    {.name = "copy_2m", .procs = 1, .kernel = k_copy_2m},
    {.name = "flag_barrier", .procs = 2, .kernel = k_flag_barrier, .partner = partner_barrier},
    {.name = "flag_pingpong", .procs = 2, .kernel = k_pingpong, .partner = partner_pingpong},
    {.name = "flag_turns", .procs = 2, .kernel = k_turns, .partner = partner_turns},
    {.name = "yield_pingpong",
     .procs = 2,
     .kernel = k_turns,
     .partner = partner_turns,
     .one_cpu = 1},
    {.name = "yield_bcast_add", .procs = QUAD, .timed = k_bcast_add, .partner = partner_quad},
};
#define NFLOORS (sizeof(floors) / sizeof(floors[0]))

/* Runs the case's kernel for iters; returns the wall time, and in *value the time the case
 * measures (the wall time, or what a timed kernel returns). */
static double time_kernel(const floors_case_t *f, long iters, double *value)
{
    double t0 = now_ns(), wall;

    if (f->timed) {
        *value = f->timed(iters);
        return now_ns() - t0;
    }
    f->kernel(iters);
    wall = now_ns() - t0;
    *value = wall;
    return wall;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

/* As bench.c plans a case: one trial that pays first-use costs (the partner's start), trials of
 * growing length until one lasts a quarter of TRIAL_NS, the length scaled from it to TRIAL_NS,
 * then warm-up trials, growing again while they end short (the scheduler may have stretched
 * the trial the length was scaled from), then TRIALS timed trials. */
static void measure(const floors_case_t *f)
{
    long iters = 1;
    double ns[TRIALS], t, v;

    time_kernel(f, iters, &v);
    while ((t = time_kernel(f, iters, &v)) < TRIAL_NS / 4)
        iters *= 4;
    iters = (long)(iters * (TRIAL_NS / t)) + 1;
    if (iters < MIN_ITERS)
        iters = MIN_ITERS;
    while (time_kernel(f, iters, &v) < TRIAL_NS / 4)
        iters *= 4;
    for (int k = 0; k < TRIALS; k++) {
        time_kernel(f, iters, &v);
        ns[k] = v / iters;
    }
    qsort(ns, TRIALS, sizeof(ns[0]), cmp_double);
    printf("case=%s pes=%d value=%.4g unit=ns stat=median trials=%d iters=%ld best=%.4g "
           "worst=%.4g\n",
           f->name, f->procs, ns[TRIALS / 2], TRIALS, iters, ns[0], ns[TRIALS - 1]);
    fflush(stdout);
}

static cpu_set_t allowed; /* the CPUs this program was started on */

/* Pins the calling process to the index-th CPU of allowed, when there is one; the floor is the
 * best case, two processes on two cores that nothing else takes. */
static void pin(int index)
{
    cpu_set_t one;

    for (int cpu = 0, seen = 0; cpu < CPU_SETSIZE; cpu++) {
        if (!CPU_ISSET(cpu, &allowed) || seen++ != index)
            continue;
        CPU_ZERO(&one);
        CPU_SET(cpu, &one);
        sched_setaffinity(0, sizeof(one), &one);
        return;
    }
}

/* A two-process floor from a clean page: the partner runs until process 0 raises STOP in every
 * word a partner may be waiting on. */
static int run_pair(const floors_case_t *f)
{
    pid_t child;

    memset(page, 0, sizeof(*page));
    rounds = 0;
    yields = f->one_cpu;
    child = fork();
    if (child < 0) {
        perror("floors: fork");
        return -1;
    }
    if (child == 0) {
        pin(f->one_cpu ? 0 : 1);
        f->partner();
        _exit(0);
    }
    measure(f);
    atomic_store_explicit(&page->flag[0].v, STOP, memory_order_release);
    atomic_store_explicit(&page->half[1].flag.v, STOP, memory_order_release);
    if (waitpid(child, NULL, 0) != child) {
        kill(child, SIGKILL);
        return -1;
    }
    return 0;
}

/* A floor of QUAD processes, two on each of the first two CPUs this program may use (none
 * with fewer: the floor is of PEs that share CPUs two by two). Process 0 starts each session of
 * the partners and ends them with STOP. */
static int run_quad(const floors_case_t *f)
{
    pid_t child[QUAD];
    int rc = 0, started = 0;

    if (CPU_COUNT(&allowed) < 2)
        return 0;
    memset(page, 0, sizeof(*page));
    quad_me = 0;
    for (int p = 1; p < QUAD; p++) {
        child[p] = fork();
        if (child[p] < 0) {
            perror("floors: fork");
            rc = -1;
            break;
        }
        if (child[p] == 0) {
            quad_me = p;
            pin(p / 2);
            f->partner();
            _exit(0);
        }
        started = p;
    }
    if (rc == 0)
        measure(f);
    atomic_store_explicit(&page->quad.go.v, STOP, memory_order_release);
    for (int p = 1; p <= started; p++)
        if (waitpid(child[p], NULL, 0) != child[p]) {
            kill(child[p], SIGKILL);
            rc = -1;
        }
    return rc;
}

int main(void)
{
    int rc = 0;

    page = mmap(NULL, sizeof(*page), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED) {
        perror("floors: mmap");
        return 1;
    }
    if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0)
        CPU_ZERO(&allowed);
    pin(0);
    for (size_t j = 0; j < SUM_LONGS; j++) {
        sum_a[j] = (long)j;
        sum_b[j] = 2 * (long)j;
    }
    memset(copy_src, 1, sizeof(copy_src));
    for (size_t i = 0; i < NFLOORS; i++) {
        if (floors[i].procs == 1)
            measure(&floors[i]);
        else if (floors[i].procs == QUAD) {
            if (run_quad(&floors[i]) != 0)
                rc = 1;
        } else if (run_pair(&floors[i]) != 0)
            rc = 1;
    }
    return rc;
}
