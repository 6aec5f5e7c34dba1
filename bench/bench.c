/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * bench: the CPU benchmark of the OpenSHMEM API, one SPMD program written against the standard
 * OpenSHMEM interface only, so the same source builds with any implementation. Each case is a
 * row of the table cases[]: a name, a unit, who takes part (PE 0 alone against PE 1, PEs 0 and
 * 1 together, or every PE) and a kernel that runs a given number of iterations, or a measure
 * that makes its own trials (the lock's fairness). PE 0 times every trial with CLOCK_MONOTONIC:
 * warm-up trials find the iteration count that lasts about TRIAL_NS, then TRIALS timed trials
 * run and their median is reported (the fastest and slowest beside it). PE 0 alone decides the
 * length of every trial and hands it to the other PEs, so that collective kernels run the same
 * count everywhere; PEs outside a pair case sit in shmem_barrier_all. A collective case calls
 * the collective and then shmem_barrier_all in each iteration, and every trial is followed by a
 * trial of shmem_barrier_all alone with the same count: the figure is the median over trials of
 * the difference, the collective's own time. After the trials every PE checks the collective's
 * last result. The calls a case needs are chosen when it is compiled: BENCH_HAVE_SIGNAL (put
 * with signal) and BENCH_HAVE_TEAMS (the OpenSHMEM 1.5 team collectives; without them, the
 * active-set forms) default to what the header's SHMEM_MAJOR/MINOR_VERSION promises, and a
 * case whose calls are missing is reported as skipped. One case, the sweep, runs three
 * point-to-point kernels over message sizes, each size timed like a case of its own: putmem +
 * quiet and getmem latencies from 8 B to SWEEP_LAT_MAX, and putmem bandwidth from 8 B to
 * SWEEP_BW_MAX, doubling.
 * Output: one line per case, `case=NAME pes=N value=V unit=U stat=median ...` (or
 * `skip=NAME pes=N needs=CALL`), one per kernel and size for the sweep
 * (`case=sweep_KERNEL bytes=B pes=N ...`), then `done pes=N` once every case has run.
 *
 * Usage: bench [CASE...]   runs the named cases (default: all), in table order.
 */
#define _POSIX_C_SOURCE 200809L

#include <limits.h>
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SHMEM_V15 (SHMEM_MAJOR_VERSION > 1 || SHMEM_MINOR_VERSION >= 5)
#ifndef BENCH_HAVE_SIGNAL
#define BENCH_HAVE_SIGNAL SHMEM_V15
#endif
#ifndef BENCH_HAVE_TEAMS
#define BENCH_HAVE_TEAMS SHMEM_V15
#endif

#define TRIAL_NS 10e6 /* one trial lasts about 10 ms */
#define TRIALS 7
#define MIN_ITERS 16 /* a timed trial's least length, so one early barrier exit weighs little */
#define MAX_BYTES (64L << 20)    /* the largest putmem */
#define SWEEP_BW_MAX (16L << 20) /* the largest size of the sweep's bandwidths */
#define COLL_MAX (1L << 20)       /* the largest per-PE part of a collective */
#define FAIR_NS 50e6              /* one window of the lock's fairness count */
#define SWEEP_LAT_MAX (64L << 10) /* the largest size of the sweep's latencies */

/* Who runs a case's kernel: PE 0 alone (against PE 1), PEs 0 and 1, or every PE. */
typedef enum { BY_PAIR, BY_TWO, BY_ALL } bench_who_t;

/* A collective: one call with a part of `bytes` per PE, and the count of elements of this PE's
 * destination that differ from what the call should have left there. */
typedef struct {
    void (*call)(size_t bytes);
    long (*wrong)(size_t bytes);
} bench_coll_t;

typedef struct bench_case bench_case_t;
struct bench_case {
    const char *name;
    const char *unit; /* "ns": time per iteration; "GB/s": bytes moved per second, decimal;
                         "x": a ratio, from a measure */
    bench_who_t who;
    size_t bytes;
    int every_pe;             /* the time is divided among the iterations of all PEs together */
    const bench_coll_t *coll; /* a collective: its barrier is subtracted, its result checked */
    void (*kernel)(const bench_case_t *c, long iters);
    void (*measure)(const bench_case_t *c); /* instead of a kernel: makes and reports trials */
    const char *needs; /* with neither kernel nor measure: the call this build lacks */
    int sized;         /* one size of several under one name: the size is printed */
};

/* Symmetric objects (heap) and private buffers. */
static struct {
    long *ctl;  /* ctl[round % 2]: the next trial's iteration count from PE 0; 0 ends a case */
    long round; /* agree() calls so far, the same on every PE */
    long *word; /* target of p and g */
    long *amo;  /* target of the atomics */
    long *lock;
    long *count;   /* count[pe]: a PE's figure gathered on PE 0 (lock windows, result checks) */
    long *msg;     /* target of the put with signal */
    uint64_t *sig; /* its signal */
    uint64_t seq;  /* signals sent and awaited so far, the same on PEs 0 and 1 */
    char *dst;     /* target of putmem */
    char *src;     /* private source of putmem */
    long *csrc;    /* collective source: n_pes * COLL_MAX bytes */
    long *cdst;    /* collective destination: as large */
    long *psync;   /* active-set pSync, SHMEM_SYNC_SIZE longs per collective */
    long *pwrk;    /* active-set reduction work array */
    volatile long sink;
} bench;

static double now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* ---- point to point --------------------------------------------------------------------- */
static void k_put8_quiet(const bench_case_t *c, long iters)
{
    for (long i = 0; i < iters; i++) {
        shmem_long_p(bench.word, i, 1);
        shmem_quiet();
    }
}

static void k_g8(const bench_case_t *c, long iters)
{
    long sum = 0;

    for (long i = 0; i < iters; i++)
        sum += shmem_long_g(bench.word, 1);
    bench.sink = sum;
}

/* Bandwidth counts delivery: the trial ends with the quiet that completes the last put. */
static void k_putmem(const bench_case_t *c, long iters)
{
    for (long i = 0; i < iters; i++)
        shmem_putmem(bench.dst, bench.src, c->bytes, 1);
    shmem_quiet();
}

static void k_fetch_add(const bench_case_t *c, long iters)
{
    long sum = 0;

    for (long i = 0; i < iters; i++)
        sum += shmem_long_atomic_fetch_add(bench.amo, 1, 1);
    bench.sink = sum;
}

/* Every swap succeeds: the condition is the value the previous one left. */
static void k_compare_swap(const bench_case_t *c, long iters)
{
    long cur = shmem_long_atomic_fetch(bench.amo, 1);

    for (long i = 0; i < iters; i++) {
        long old = shmem_long_atomic_compare_swap(bench.amo, cur, cur + 1, 1);
        cur = old == cur ? cur + 1 : old;
    }
    bench.sink = cur;
}

#if BENCH_HAVE_SIGNAL
/* A round trip: PE 0 puts 8 bytes with a signal to PE 1 and waits for PE 1's answer, the
 * same put with signal back. Signal values only grow, so SHMEM_SIGNAL_SET never goes back. */
static void k_put_signal(const bench_case_t *c, long iters)
{
    int me = shmem_my_pe();

    for (long i = 0; i < iters; i++) {
        uint64_t s = ++bench.seq;
        long v = (long)s;
        if (me == 0)
            shmem_long_put_signal(bench.msg, &v, 1, bench.sig, s, SHMEM_SIGNAL_SET, 1);
        shmem_signal_wait_until(bench.sig, SHMEM_CMP_GE, s);
        if (me == 1)
            shmem_long_put_signal(bench.msg, &v, 1, bench.sig, s, SHMEM_SIGNAL_SET, 0);
    }
    bench.sink = *bench.msg;
}
#define PUT_SIGNAL_KERNEL .kernel = k_put_signal
#else
#define PUT_SIGNAL_KERNEL .needs = "shmem_long_put_signal"
#endif

/* ---- synchronization -------------------------------------------------------------------- */
static void k_barrier_all(const bench_case_t *c, long iters)
{
    for (long i = 0; i < iters; i++)
        shmem_barrier_all();
}

/* Every PE takes and releases the one lock; the closing barrier makes the trial last until the
 * last PE is done, so the trial's time covers all PEs' acquisitions. */
static void k_lock(const bench_case_t *c, long iters)
{
    for (long i = 0; i < iters; i++) {
        shmem_set_lock(bench.lock);
        shmem_clear_lock(bench.lock);
    }
    shmem_barrier_all();
}

/* ---- collectives ------------------------------------------------------------------------
 * PE p's source holds value(p, j) at element j; each check recomputes what the call leaves. */
static long value(int pe, size_t j)
{
    return ((long)(pe + 1) << 32) + (long)j;
}

/* An alltoall's size is what each PE sends in all (its source array), split evenly over the
 * PEs: the block for each pair, in whole 8-byte elements, at least one. */
static size_t pair_bytes(size_t nb)
{
    size_t b = nb / (size_t)shmem_n_pes() / 8 * 8;

    return b ? b : 8;
}

#if BENCH_HAVE_TEAMS
#define COLL_API "team"
static void c_broadcast(size_t nb)
{
    shmem_broadcastmem(SHMEM_TEAM_WORLD, bench.cdst, bench.csrc, nb, 0);
}

static void c_fcollect(size_t nb)
{
    shmem_fcollectmem(SHMEM_TEAM_WORLD, bench.cdst, bench.csrc, nb);
}

static void c_alltoall(size_t nb)
{
    shmem_alltoallmem(SHMEM_TEAM_WORLD, bench.cdst, bench.csrc, pair_bytes(nb));
}

static void c_sum_reduce(size_t nb)
{
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, bench.cdst, bench.csrc, nb / sizeof(long));
}
#else
#define COLL_API "active-set"
/* One pSync per collective, so that no two kinds of call share one. */
static long *psync(int which)
{
    return bench.psync + which * SHMEM_SYNC_SIZE;
}

static void c_broadcast(size_t nb)
{
    shmem_broadcast64(bench.cdst, bench.csrc, nb / 8, 0, 0, 0, shmem_n_pes(), psync(0));
}

static void c_fcollect(size_t nb)
{
    shmem_fcollect64(bench.cdst, bench.csrc, nb / 8, 0, 0, shmem_n_pes(), psync(1));
}

static void c_alltoall(size_t nb)
{
    shmem_alltoall64(bench.cdst, bench.csrc, pair_bytes(nb) / 8, 0, 0, shmem_n_pes(), psync(2));
}

static void c_sum_reduce(size_t nb)
{
    shmem_long_sum_to_all(bench.cdst, bench.csrc, (int)(nb / sizeof(long)), 0, 0, shmem_n_pes(),
                          bench.pwrk, psync(3));
}
#endif

/* The root's destination is not checked: the active-set broadcast leaves it alone. */
static long w_broadcast(size_t nb)
{
    long bad = 0;

    for (size_t k = 0; k < nb / 8 && shmem_my_pe() != 0; k++)
        bad += bench.cdst[k] != value(0, k);
    return bad;
}

static long w_fcollect(size_t nb)
{
    size_t ne = nb / 8;
    long bad = 0;

    for (int i = 0; i < shmem_n_pes(); i++)
        for (size_t k = 0; k < ne; k++)
            bad += bench.cdst[i * ne + k] != value(i, k);
    return bad;
}

static long w_alltoall(size_t nb)
{
    size_t ne = pair_bytes(nb) / 8, me = (size_t)shmem_my_pe();
    long bad = 0;

    for (int i = 0; i < shmem_n_pes(); i++)
        for (size_t k = 0; k < ne; k++)
            bad += bench.cdst[i * ne + k] != value(i, me * ne + k);
    return bad;
}

static long w_sum_reduce(size_t nb)
{
    long n = shmem_n_pes(), bad = 0;

    for (size_t k = 0; k < nb / 8; k++)
        bad += bench.cdst[k] != ((n * (n + 1) / 2) << 32) + n * (long)k;
    return bad;
}

static const bench_coll_t broadcast = {c_broadcast, w_broadcast};
static const bench_coll_t fcollect = {c_fcollect, w_fcollect};
static const bench_coll_t alltoall = {c_alltoall, w_alltoall};
static const bench_coll_t sum_reduce = {c_sum_reduce, w_sum_reduce};

static void k_coll(const bench_case_t *c, long iters)
{
    for (long i = 0; i < iters; i++) {
        c->coll->call(c->bytes);
        shmem_barrier_all();
    }
}

/* ---- fairness ---------------------------------------------------------------------------- */
static long agree(long iters);
static int cmp_double(const void *a, const void *b);

/* Every PE takes and releases the lock as often as it can until a deadline PE 0 sets FAIR_NS
 * ahead, counting its acquisitions; a window's figure is the most served PE's count over the
 * least served one's (a PE never served counts as 1). One window warms up, TRIALS are kept. */
static void m_lock_fair(const bench_case_t *c)
{
    int me = shmem_my_pe(), n = shmem_n_pes();
    double ratio[TRIALS];
    long fewest = LONG_MAX, most = 0;

    for (int t = -1; t < TRIALS; t++) {
        long deadline = agree(me == 0 ? (long)(now_ns() + FAIR_NS) : 0), got = 0;
        while (now_ns() < deadline) {
            shmem_set_lock(bench.lock);
            shmem_clear_lock(bench.lock);
            got++;
        }
        shmem_long_p(&bench.count[me], got, 0);
        shmem_quiet();
        shmem_barrier_all();
        if (me != 0 || t < 0)
            continue;
        long lo = LONG_MAX, hi = 0;
        for (int pe = 0; pe < n; pe++) {
            lo = bench.count[pe] < lo ? bench.count[pe] : lo;
            hi = bench.count[pe] > hi ? bench.count[pe] : hi;
        }
        ratio[t] = (double)hi / (lo > 0 ? lo : 1);
        fewest = lo < fewest ? lo : fewest;
        most = hi > most ? hi : most;
    }
    if (me != 0)
        return;
    qsort(ratio, TRIALS, sizeof(ratio[0]), cmp_double);
    printf("case=%s pes=%d value=%.4g unit=%s stat=median trials=%d window_ms=%.0f best=%.4g "
           "worst=%.4g fewest=%ld most=%ld\n",
           c->name, n, ratio[TRIALS / 2], c->unit, TRIALS, FAIR_NS / 1e6, ratio[0],
           ratio[TRIALS - 1], fewest, most);
    fflush(stdout);
}

/* ---- size sweep ------------------------------------------------------------------------- */
static void run_case(const bench_case_t *c);

static void k_putmem_quiet(const bench_case_t *c, long iters)
{
    for (long i = 0; i < iters; i++) {
        shmem_putmem(bench.dst, bench.src, c->bytes, 1);
        shmem_quiet();
    }
}

/* The private buffer putmem reads from is the destination: its contents are never checked. */
static void k_getmem(const bench_case_t *c, long iters)
{
    for (long i = 0; i < iters; i++)
        shmem_getmem(bench.src, bench.dst, c->bytes, 1);
}

/* Each kernel at each size is a case of its own, from PE 0 against PE 1. */
static void m_sweep(const bench_case_t *c)
{
    static const struct {
        bench_case_t one; /* all but the size */
        size_t most;      /* the largest size */
    } parts[] = {
        {{.name = "sweep_put_quiet", .unit = "ns", .kernel = k_putmem_quiet}, SWEEP_LAT_MAX},
        {{.name = "sweep_get", .unit = "ns", .kernel = k_getmem}, SWEEP_LAT_MAX},
        {{.name = "sweep_putmem", .unit = "GB/s", .kernel = k_putmem}, SWEEP_BW_MAX},
    };

    for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
        for (size_t nb = 8; nb <= parts[i].most; nb *= 2) {
            bench_case_t one = parts[i].one;
            one.who = BY_PAIR;
            one.bytes = nb;
            one.sized = 1;
            run_case(&one);
        }
    }
}

/* ---- the table --------------------------------------------------------------------------- */
static const bench_case_t cases[] = {
    {.name = "put8_quiet", .unit = "ns", .who = BY_PAIR, .bytes = 8, .kernel = k_put8_quiet},
    {.name = "g8", .unit = "ns", .who = BY_PAIR, .bytes = 8, .kernel = k_g8},
    {.name = "putmem_4k", .unit = "GB/s", .who = BY_PAIR, .bytes = 4096, .kernel = k_putmem},
    {.name = "putmem_64k", .unit = "GB/s", .who = BY_PAIR, .bytes = 64 << 10, .kernel = k_putmem},
    {.name = "putmem_1m", .unit = "GB/s", .who = BY_PAIR, .bytes = 1 << 20, .kernel = k_putmem},
    {.name = "putmem_4m", .unit = "GB/s", .who = BY_PAIR, .bytes = 4 << 20, .kernel = k_putmem},
    {.name = "putmem_16m", .unit = "GB/s", .who = BY_PAIR, .bytes = 16 << 20, .kernel = k_putmem},
    {.name = "putmem_64m", .unit = "GB/s", .who = BY_PAIR, .bytes = 64 << 20, .kernel = k_putmem},
    {.name = "fetch_add", .unit = "ns", .who = BY_PAIR, .bytes = 8, .kernel = k_fetch_add},
    {.name = "compare_swap", .unit = "ns", .who = BY_PAIR, .bytes = 8, .kernel = k_compare_swap},
    {.name = "put_signal_rt", .unit = "ns", .who = BY_TWO, .bytes = 8, PUT_SIGNAL_KERNEL},
    {.name = "barrier_all", .unit = "ns", .who = BY_ALL, .kernel = k_barrier_all},
    {.name = "lock", .unit = "ns", .who = BY_ALL, .every_pe = 1, .kernel = k_lock},
    {.name = "lock_fair", .unit = "x", .who = BY_ALL, .measure = m_lock_fair},
    {.name = "broadcast_8", .unit = "ns", .who = BY_ALL, .bytes = 8, .coll = &broadcast},
    {.name = "broadcast_4k", .unit = "ns", .who = BY_ALL, .bytes = 4096, .coll = &broadcast},
    {.name = "broadcast_1m", .unit = "ns", .who = BY_ALL, .bytes = 1 << 20, .coll = &broadcast},
    {.name = "fcollect_8", .unit = "ns", .who = BY_ALL, .bytes = 8, .coll = &fcollect},
    {.name = "fcollect_4k", .unit = "ns", .who = BY_ALL, .bytes = 4096, .coll = &fcollect},
    {.name = "fcollect_1m", .unit = "ns", .who = BY_ALL, .bytes = 1 << 20, .coll = &fcollect},
    {.name = "alltoall_8", .unit = "ns", .who = BY_ALL, .bytes = 8, .coll = &alltoall},
    {.name = "alltoall_4k", .unit = "ns", .who = BY_ALL, .bytes = 4096, .coll = &alltoall},
    {.name = "alltoall_1m", .unit = "ns", .who = BY_ALL, .bytes = 1 << 20, .coll = &alltoall},
    {.name = "sum_reduce_8", .unit = "ns", .who = BY_ALL, .bytes = 8, .coll = &sum_reduce},
    {.name = "sum_reduce_4k", .unit = "ns", .who = BY_ALL, .bytes = 4096, .coll = &sum_reduce},
    {.name = "sum_reduce_1m", .unit = "ns", .who = BY_ALL, .bytes = 1 << 20, .coll = &sum_reduce},
    {.name = "sweep", .unit = "ns, GB/s", .who = BY_PAIR, .measure = m_sweep},
};
#define NCASES (sizeof(cases) / sizeof(cases[0]))

/* ---- trials ------------------------------------------------------------------------------ */
/* PE 0 publishes its value of the trial length; every PE returns it. The barrier also separates
 * trials, so no PE is still inside the previous kernel when the next one is timed. Rounds
 * alternate between two slots: PE 0 may write round r + 1 while another PE has yet to read
 * round r, but it writes round r + 2 only after round r + 1's barrier, which every PE enters
 * after reading round r. */
static long agree(long iters)
{
    long *slot = &bench.ctl[bench.round++ % 2];

    if (shmem_my_pe() == 0) {
        for (int pe = 1; pe < shmem_n_pes(); pe++)
            shmem_long_p(slot, iters, pe);
        *slot = iters;
        shmem_quiet();
    }
    shmem_barrier_all();
    return *slot;
}

/* PE 0's schedule of one case: one single-iteration trial that pays any first-use costs, trials
 * of growing length until one lasts a quarter of TRIAL_NS, then warm-up trials at the length
 * scaled from it to TRIAL_NS until one lasts a quarter of TRIAL_NS again (the scheduler may
 * have stretched the trial the length was scaled from), then TRIALS timed trials. Only long
 * trials set the length: a short one may end early because the other PEs were already
 * waiting in the first barrier. */
enum { PLAN_FIRST = -3, PLAN_GROW = -2, PLAN_WARM = -1 };

typedef struct {
    long iters;
    int trial;          /* a PLAN_ phase, or the index of the timed trial that just ran */
    double ns[TRIALS];  /* the kernel's time in each timed trial */
    double bar[TRIALS]; /* the paired barrier-only trial's time (collectives), else 0 */
} bench_plan_t;

static long plan_next(bench_plan_t *p, double ns, double bar)
{
    switch (p->trial) {
    case PLAN_FIRST:
        p->trial = PLAN_GROW;
        return p->iters;
    case PLAN_GROW:
    case PLAN_WARM:
        if (ns < TRIAL_NS / 4) {
            p->iters *= 4;
            return p->iters;
        }
        if (p->trial == PLAN_GROW) {
            p->iters = (long)(p->iters * (TRIAL_NS / ns)) + 1;
            if (p->iters < MIN_ITERS)
                p->iters = MIN_ITERS;
            p->trial = PLAN_WARM;
            return p->iters;
        }
        break;
    default:
        p->ns[p->trial] = ns;
        p->bar[p->trial] = bar;
    }
    p->trial++;
    return p->trial < TRIALS ? p->iters : 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

/* Converts a trial's time to the case's unit. */
static double figure(const bench_case_t *c, long iters, double ns)
{
    if (strcmp(c->unit, "GB/s") == 0)
        return (double)c->bytes * iters / ns;
    return ns / iters / (c->every_pe ? shmem_n_pes() : 1);
}

static double median(double *v)
{
    qsort(v, TRIALS, sizeof(v[0]), cmp_double);
    return v[TRIALS / 2];
}

/* The figure is the median over trials of the kernel's time less its paired barrier trial's. */
static void report(const bench_case_t *c, bench_plan_t *p, long wrong)
{
    double net[TRIALS];

    for (int t = 0; t < TRIALS; t++)
        net[t] = p->ns[t] - p->bar[t];
    double med = figure(c, p->iters, median(net));
    printf("case=%s", c->name);
    if (c->sized)
        printf(" bytes=%zu", c->bytes);
    printf(" pes=%d value=%.4g unit=%s stat=median trials=%d iters=%ld best=%.4g worst=%.4g",
           shmem_n_pes(), med, c->unit, TRIALS, p->iters, figure(c, p->iters, net[0]),
           figure(c, p->iters, net[TRIALS - 1]));
    if (c->coll)
        printf(" with_barrier=%.4g barrier=%.4g api=%s check=%s",
               figure(c, p->iters, median(p->ns)), figure(c, p->iters, median(p->bar)), COLL_API,
               wrong ? "wrong" : "ok");
    printf("\n");
    fflush(stdout);
}

static double timed(const bench_case_t *c, void (*kernel)(const bench_case_t *, long), long iters)
{
    double t0 = now_ns();

    kernel(c, iters);
    return now_ns() - t0;
}

/* Fills the destination with a value no collective leaves. */
static void coll_prepare(void)
{
    memset(bench.cdst, 0xff, (size_t)shmem_n_pes() * COLL_MAX);
    shmem_barrier_all();
}

/* The count of PEs whose destination is wrong, on PE 0. */
static long coll_wrong(const bench_case_t *c)
{
    long bad = 0, mine = c->coll->wrong(c->bytes);

    if (mine)
        fprintf(stderr, "bench: %s: %ld wrong elements on PE %d\n", c->name, mine, shmem_my_pe());
    shmem_long_p(&bench.count[shmem_my_pe()], mine != 0, 0);
    shmem_quiet();
    shmem_barrier_all();
    for (int pe = 0; pe < shmem_n_pes() && shmem_my_pe() == 0; pe++)
        bad += bench.count[pe];
    shmem_barrier_all();
    return bad;
}

static void run_case(const bench_case_t *c)
{
    int me = shmem_my_pe();
    int runs = c->who == BY_ALL || me == 0 || (c->who == BY_TWO && me == 1);
    void (*kernel)(const bench_case_t *, long) = c->coll ? k_coll : c->kernel;
    bench_plan_t plan = {.iters = 1, .trial = PLAN_FIRST};
    long iters;

    if (c->measure) {
        c->measure(c);
        return;
    }
    if (!kernel) {
        if (me == 0)
            printf("skip=%s pes=%d needs=%s\n", c->name, shmem_n_pes(), c->needs);
        return;
    }
    if (c->coll)
        coll_prepare();
    iters = agree(1);
    while (iters > 0) {
        double ns = 0, bar = 0;
        if (runs)
            ns = timed(c, kernel, iters);
        if (c->coll)
            bar = timed(c, k_barrier_all, iters);
        iters = agree(me == 0 ? plan_next(&plan, ns, bar) : 0);
    }
    long wrong = c->coll ? coll_wrong(c) : 0;
    if (me == 0)
        report(c, &plan, wrong);
}

/* ---- setup ------------------------------------------------------------------------------- */
static const bench_case_t *find_case(const char *name)
{
    for (size_t i = 0; i < NCASES; i++)
        if (strcmp(cases[i].name, name) == 0)
            return &cases[i];
    return NULL;
}

/* With no names on the command line every case runs. */
static int wanted(const char *name, int argc, char **argv)
{
    if (argc < 2)
        return 1;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], name) == 0)
            return 1;
    return 0;
}

static int setup(void)
{
    int n = shmem_n_pes(), me = shmem_my_pe();
    size_t coll = (size_t)n * COLL_MAX, nwrk = COLL_MAX / 8 / 2 + 1;

    if (nwrk < SHMEM_REDUCE_MIN_WRKDATA_SIZE)
        nwrk = SHMEM_REDUCE_MIN_WRKDATA_SIZE;
    bench.ctl = shmem_calloc(2, sizeof(long));
    bench.word = shmem_calloc(1, sizeof(long));
    bench.amo = shmem_calloc(1, sizeof(long));
    bench.lock = shmem_calloc(1, sizeof(long));
    bench.count = shmem_calloc(n, sizeof(long));
    bench.msg = shmem_calloc(1, sizeof(long));
    bench.sig = shmem_calloc(1, sizeof(uint64_t));
    bench.dst = shmem_malloc(MAX_BYTES);
    bench.csrc = shmem_malloc(coll);
    bench.cdst = shmem_malloc(coll);
    bench.psync = shmem_malloc(4 * SHMEM_SYNC_SIZE * sizeof(long));
    bench.pwrk = shmem_malloc(nwrk * sizeof(long));
    bench.src = malloc(MAX_BYTES);
    if (!bench.ctl || !bench.word || !bench.amo || !bench.lock || !bench.count || !bench.msg ||
        !bench.sig || !bench.dst || !bench.csrc || !bench.cdst || !bench.psync || !bench.pwrk ||
        !bench.src)
        return -1;
    /* Touch every page now, so no trial pays for first-touch faults. */
    memset(bench.src, 1, MAX_BYTES);
    memset(bench.dst, 0, MAX_BYTES);
    memset(bench.cdst, 0, coll);
    memset(bench.pwrk, 0, nwrk * sizeof(long));
    for (size_t j = 0; j < coll / sizeof(long); j++)
        bench.csrc[j] = value(me, j);
    for (int i = 0; i < 4 * SHMEM_SYNC_SIZE; i++)
        bench.psync[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    return 0;
}

static void teardown(void)
{
    shmem_free(bench.pwrk);
    shmem_free(bench.psync);
    shmem_free(bench.cdst);
    shmem_free(bench.csrc);
    shmem_free(bench.dst);
    shmem_free(bench.sig);
    shmem_free(bench.msg);
    shmem_free(bench.count);
    shmem_free(bench.lock);
    shmem_free(bench.amo);
    shmem_free(bench.word);
    shmem_free(bench.ctl);
    free(bench.src);
}

static int check_args(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!find_case(argv[i])) {
            if (shmem_my_pe() == 0)
                fprintf(stderr, "bench: no case named %s\n", argv[i]);
            return -1;
        }
    }
    if (shmem_n_pes() < 2) {
        if (shmem_my_pe() == 0)
            fprintf(stderr, "bench: needs at least 2 PEs\n");
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    shmem_init();
    if (check_args(argc, argv) != 0) {
        shmem_finalize();
        return 1;
    }
    if (setup() != 0) {
        fprintf(stderr, "bench: PE %d: out of memory (symmetric heap too small?)\n", shmem_my_pe());
        shmem_global_exit(1);
    }
    for (size_t i = 0; i < NCASES; i++)
        if (wanted(cases[i].name, argc, argv))
            run_case(&cases[i]);
    teardown();
    if (shmem_my_pe() == 0) {
        printf("done pes=%d\n", shmem_n_pes());
        fflush(stdout);
    }
    shmem_finalize();
    return 0;
}
