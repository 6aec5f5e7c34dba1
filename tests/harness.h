/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The harness of every test program, CPU and GPU.
 *
 * EXPECT counts a check and, when it fails, prints `FAIL [pe N] file:line: message` (the first
 * TEST_PRINT_LIMIT failures of a process) and goes on, so one run reports every broken case.
 * REQUIRE prints the same line and ends the job at once: for a check whose failure leaves
 * nothing sensible to do next. TEST_WAIT spins until a condition holds; when it does not hold
 * within TEST_WAIT_SECONDS it ends the job with a line naming what it waited for, so a test
 * that would hang fails with a message instead. The counters are atomic: threads may check.
 *
 * test_finish (collective over the world) adds every PE's failures on PE 0, which prints the
 * job's one report line `NAME: N PEs, C checks on pe 0, F failures in all`, finalizes, and
 * returns the exit status: non-zero on every PE when any PE failed. test_report is the same
 * without finalizing. test_start is shmem_init for a program that keeps TEST_MAX_PES-sized
 * tables.
 *
 * A program that does not start symm through shmem_init (unit tests of internal functions,
 * the bootstrap's own test) defines TEST_WITHOUT_SHMEM before including this: its lines name
 * the PE in test_pe once the program set it, REQUIRE and TEST_WAIT end the process, and
 * test_finish prints `NAME: C checks, F failures` for this process alone.
 *
 * Compiled by nvcc, this adds the GPU part: CUDA_CHECK and KERNEL_CHECK (a CUDA error ends the
 * job through symm's error path), test_gpu_init (exits with TEST_SKIP where no GPU is visible),
 * DEXPECT in kernels (failures counted in test_dev_errors, mapped host memory) and
 * test_gpu_collect, which folds the kernels' failures into the host's count.
 *
 * Last, what loops over the type table use: TEST_IS_FLOAT and TEST_IS_SIGNED to pick values a
 * type can hold, and TEST_EXPAND(SYMM_TYPES(TEST_DEFER_ROW, M)) for a row macro M that itself
 * calls a _Generic selector (which expands SYMM_TYPES, refused by the preprocessor inside an
 * expansion of SYMM_TYPES): M(M, row...) is expanded once the table is.
 */
#ifndef SYMM_TEST_HARNESS_H
#define SYMM_TEST_HARNESS_H

#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef TEST_WITHOUT_SHMEM
#include <shmem.h>
#endif

#define TEST_MAX_PES 64
#define TEST_PRINT_LIMIT 20
#define TEST_WAIT_SECONDS 30
#define TEST_STR(x) #x
#define TEST_XSTR(x) TEST_STR(x)

static long test_checks, test_failures;

#define TEST_ADD(counter, n) __atomic_fetch_add(&(counter), (n), __ATOMIC_RELAXED)
#define TEST_LOAD(counter) __atomic_load_n(&(counter), __ATOMIC_RELAXED)

#ifdef TEST_WITHOUT_SHMEM
static int test_pe = -1; /* the PE a line names, where the program knows it */

static inline int test_my_pe(void)
{
    return test_pe;
}

static inline __attribute__((noreturn)) void test_end(void)
{
    exit(1);
}
#else
static inline int test_my_pe(void)
{
    return shmem_my_pe();
}

static inline __attribute__((noreturn)) void test_end(void)
{
    shmem_global_exit(1);
    exit(1);
}
#endif

/* One line, written at once so that the lines of threads do not mix. */
static inline void test_vline(const char *file, int line, const char *what, const char *fmt,
                              va_list ap)
{
    char msg[512];
    int pe = test_my_pe();

    vsnprintf(msg, sizeof(msg), fmt, ap);
    if (pe >= 0)
        fprintf(stderr, "FAIL [pe %d] %s:%d: %s%s\n", pe, file, line, what, msg);
    else
        fprintf(stderr, "FAIL %s:%d: %s%s\n", file, line, what, msg);
    fflush(stderr);
}

static inline void test_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static inline void test_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;

    if (TEST_ADD(test_failures, 1) >= TEST_PRINT_LIMIT)
        return;
    va_start(ap, fmt);
    test_vline(file, line, "", fmt, ap);
    va_end(ap);
}

/* A failure after which the test cannot go on: the line, then the job ends. */
static inline __attribute__((noreturn)) void test_abort(const char *file, int line,
                                                        const char *what, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static inline void test_abort(const char *file, int line, const char *what, const char *fmt, ...)
{
    va_list ap;

    TEST_ADD(test_failures, 1);
    va_start(ap, fmt);
    test_vline(file, line, what, fmt, ap);
    va_end(ap);
    test_end();
}

#define EXPECT(cond, ...)                                                                          \
    do {                                                                                           \
        TEST_ADD(test_checks, 1);                                                                  \
        if (!(cond))                                                                               \
            test_fail(__FILE__, __LINE__, __VA_ARGS__);                                            \
    } while (0)

#define REQUIRE(cond, ...)                                                                         \
    do {                                                                                           \
        TEST_ADD(test_checks, 1);                                                                  \
        if (!(cond))                                                                               \
            test_abort(__FILE__, __LINE__, "", __VA_ARGS__);                                       \
    } while (0)

/* Spins (yielding the CPU) until cond holds; the message says what is awaited. */
#define TEST_WAIT(cond, ...)                                                                       \
    do {                                                                                           \
        time_t until_ = time(NULL) + TEST_WAIT_SECONDS;                                            \
        while (!(cond)) {                                                                          \
            if (time(NULL) > until_)                                                               \
                test_abort(                                                                        \
                    __FILE__, __LINE__,                                                            \
                    "still waiting after " TEST_XSTR(TEST_WAIT_SECONDS) " s: ", __VA_ARGS__);      \
            sched_yield();                                                                         \
        }                                                                                          \
    } while (0)

#ifdef TEST_WITHOUT_SHMEM
static inline int test_finish(const char *name)
{
    long failures = TEST_LOAD(test_failures);

    printf("%s: %ld checks, %ld failures\n", name, TEST_LOAD(test_checks), failures);
    fflush(stdout);
    return failures ? 1 : 0;
}
#else
static inline void test_start(void)
{
    shmem_init();
    if (shmem_n_pes() > TEST_MAX_PES) {
        fprintf(stderr, "more than %d PEs\n", TEST_MAX_PES);
        exit(1);
    }
}

/* Collective: every PE's failures summed on PE 0, which prints the report line. */
static inline int test_report(const char *name)
{
    static long job_failures; /* a static: symmetric */
    long mine = TEST_LOAD(test_failures), total;

    shmem_barrier_all();
    shmem_long_atomic_add(&job_failures, mine, 0);
    shmem_barrier_all();
    total = shmem_long_atomic_fetch(&job_failures, 0);
    if (shmem_my_pe() == 0) {
        printf("%s: %d PEs, %ld checks on pe 0, %ld failures in all\n", name, shmem_n_pes(),
               TEST_LOAD(test_checks), total);
        fflush(stdout);
    }
    return (mine || total) ? 1 : 0;
}

static inline int test_finish(const char *name)
{
    int status = test_report(name);

    shmem_finalize();
    return status;
}
#endif

/* ---- The GPU part ---------------------------------------------------------------------------- */
#ifdef __CUDACC__
#include <string.h>

#include <shmemx_gpu.h>
#include <symm/device.cuh>

#define TEST_SKIP 77

#define CUDA_CHECK(expr)                                                                           \
    do {                                                                                           \
        cudaError_t e_ = (expr);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            char w_[256];                                                                          \
            snprintf(w_, sizeof(w_), "%s:%d: %s", __FILE__, __LINE__, cudaGetErrorString(e_));     \
            shmemx_gpu_fail(#expr, w_);                                                            \
        }                                                                                          \
    } while (0)

/* After a launch: the launch itself, then the kernel's completion. */
#define KERNEL_CHECK()                                                                             \
    do {                                                                                           \
        CUDA_CHECK(cudaGetLastError());                                                            \
        CUDA_CHECK(cudaDeviceSynchronize());                                                       \
    } while (0)

static unsigned long long *test_dev_errors; /* kernels' failures, in mapped host memory */

/* In a kernel: count a failure in *errs (and print the first few). */
#define DEXPECT(errs, cond, fmt, ...)                                                              \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            if (atomicAdd((errs), 1ull) < 8)                                                       \
                printf("FAIL [pe %d] %s:%d: " fmt "\n", shmem_my_pe(), __FILE__, __LINE__,         \
                       ##__VA_ARGS__);                                                             \
        }                                                                                          \
    } while (0)

/* Starts the job on this PE's GPU; exits with TEST_SKIP where there is no GPU. */
static inline void test_gpu_init(void)
{
    int n = 0;

    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
        printf("no GPU: skipped\n");
        exit(TEST_SKIP);
    }
    shmem_init();
    if (shmemx_gpu_device() < 0)
        shmemx_gpu_fail("test_gpu_init", "the GPU part did not start at shmem_init");
    CUDA_CHECK(cudaSetDevice(shmemx_gpu_device()));
    CUDA_CHECK(
        cudaHostAlloc((void **)&test_dev_errors, sizeof(*test_dev_errors), cudaHostAllocMapped));
    *test_dev_errors = 0;
}

/* The failures kernels counted so far, folded into the host's count as one check. With
 * SYMM_TEST_TRACE set, each step's name and time go to stderr (where a slow run stands). */
static inline void test_gpu_collect(const char *what)
{
    CUDA_CHECK(cudaDeviceSynchronize());
    if (getenv("SYMM_TEST_TRACE")) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        fprintf(stderr, "[pe %d %ld.%03ld] %s\n", shmem_my_pe(), (long)ts.tv_sec,
                ts.tv_nsec / 1000000, what);
    }
    TEST_ADD(test_checks, 1);
    if (*test_dev_errors) {
        TEST_ADD(test_failures, (long)*test_dev_errors);
        fprintf(stderr, "FAIL [pe %d] %s: %llu device checks failed\n", shmem_my_pe(), what,
                *test_dev_errors);
        *test_dev_errors = 0;
    }
}
#endif

/* ---- Loops over the type table ------------------------------------------------------------- */
#define TEST_IS_FLOAT(T) ((T)0.5 != (T)0)
#define TEST_IS_SIGNED(T) ((T)-1 < (T)1)

#define TEST_EMPTY()
#define TEST_DEFER(m) m TEST_EMPTY()
#define TEST_EXPAND(...) __VA_ARGS__
#define TEST_DEFER_ROW(M, ...) TEST_DEFER(M)(M, __VA_ARGS__)

#endif
