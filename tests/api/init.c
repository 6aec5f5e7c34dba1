/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Start, queries and end: shmem_init_thread (or shmem_init with --plain) and
 * shmem_query_thread, version and name, shmem_my_pe and shmem_n_pes (and the deprecated
 * names) with every PE number taken exactly once, shmem_finalize (twice is harmless).
 * Usage: init N [--plain] [--heap SIZE] [--global-exit STATUS] [--bound]. N is the expected
 * number of PEs. --heap SIZE says what SHMEM_SYMMETRIC_SIZE was set to: a block of SIZE bytes
 * must fit in the empty heap and one of twice that must not (the value was parsed with its
 * suffix).
 * --global-exit makes the last PE end the job with shmem_global_exit(STATUS) while the others
 * wait in a barrier. --bound checks symmrun's binding: each PE on one CPU, a CPU each while
 * the PEs fit the launcher's CPUs (SYMM_CPUS), else consecutive PEs sharing one, in blocks that
 * differ by one PE at most.
 */
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"

static int seen[TEST_MAX_PES];
static int cpu_of[TEST_MAX_PES];

/* On PE 0: the PEs' CPUs (cpu_of) form runs of consecutive PEs, one run a CPU. */
static void check_binding(int n)
{
    const char *env = getenv("SYMM_CPUS");
    int ncpus = env ? atoi(env) : 0, runs = 0, lo = n, hi = 0;

    EXPECT(ncpus > 0, "SYMM_CPUS is '%s'", env ? env : "(unset)");
    if (ncpus <= 0)
        return;
    for (int pe = 0, len = 0; pe < n; pe++) {
        len++;
        if (pe + 1 < n && cpu_of[pe + 1] == cpu_of[pe])
            continue;
        for (int q = pe + 1; q < n; q++)
            EXPECT(cpu_of[q] != cpu_of[pe], "pes %d and %d share CPU %d, pe %d between them not",
                   pe, q, cpu_of[pe], pe + 1);
        runs++;
        lo = len < lo ? len : lo;
        hi = len > hi ? len : hi;
        len = 0;
    }
    EXPECT(runs == (n < ncpus ? n : ncpus), "%d PEs on %d CPUs of %d", n, runs, ncpus);
    EXPECT(hi - lo <= 1, "PEs per CPU from %d to %d", lo, hi);
}

/* SIZE as the documentation of SHMEM_SYMMETRIC_SIZE states it: K, M, G, T are powers of 1024,
 * optionally followed by "i" and "B". */
static size_t parse_size(const char *s)
{
    char *end;
    size_t v = strtoull(s, &end, 10);
    const char *units = "KMGT";
    const char *u = *end ? strchr(units, *end >= 'a' ? *end - 32 : *end) : NULL;

    if (u)
        for (long i = 0; i <= u - units; i++)
            v *= 1024;
    return v;
}

int main(int argc, char **argv)
{
    int expect_n = argc > 1 ? atoi(argv[1]) : -1, plain = 0, provided = -1, level = -1;
    int major = 0, minor = 0, exit_status = -1, bound = 0;
    size_t heap = 0;
    char name[SHMEM_MAX_NAME_LEN + 8];

    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--plain"))
            plain = 1;
        else if (!strcmp(argv[i], "--heap") && i + 1 < argc)
            heap = parse_size(argv[++i]);
        else if (!strcmp(argv[i], "--global-exit") && i + 1 < argc)
            exit_status = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--bound"))
            bound = 1;
    }
    if (plain) {
        shmem_init();
    } else {
        int rc = shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
        EXPECT(rc == 0, "shmem_init_thread returned %d", rc);
        EXPECT(provided >= SHMEM_THREAD_SINGLE && provided <= SHMEM_THREAD_MULTIPLE,
               "provided thread level %d", provided);
    }
    shmem_query_thread(&level);
    if (plain)
        EXPECT(level == SHMEM_THREAD_SINGLE, "thread level after shmem_init: %d", level);
    else
        EXPECT(level == provided, "shmem_query_thread %d, shmem_init_thread provided %d", level,
               provided);

    int me = shmem_my_pe(), n = shmem_n_pes();
    EXPECT(n == expect_n, "shmem_n_pes() = %d, the job has %d", n, expect_n);
    EXPECT(me >= 0 && me < n, "shmem_my_pe() = %d of %d", me, n);
    EXPECT(_my_pe() == me && _num_pes() == n, "_my_pe %d _num_pes %d", _my_pe(), _num_pes());
    if (n > TEST_MAX_PES || me < 0 || me >= n)
        return 1;

    shmem_info_get_version(&major, &minor);
    EXPECT(major == SHMEM_MAJOR_VERSION && minor == SHMEM_MINOR_VERSION && major == 1 &&
               minor == 5,
           "version %d.%d", major, minor);
    memset(name, 'x', sizeof(name));
    shmem_info_get_name(name);
    EXPECT(memchr(name, '\0', SHMEM_MAX_NAME_LEN) != NULL, "name not terminated within %d",
           SHMEM_MAX_NAME_LEN);
    EXPECT(!strcmp(name, SHMEM_VENDOR_STRING), "name '%.40s', want '%s'", name,
           SHMEM_VENDOR_STRING);

    /* Every PE number is taken once. */
    shmem_int_p(&seen[me], me + 1, 0);
    shmem_barrier_all();
    if (me == 0)
        for (int pe = 0; pe < n; pe++)
            EXPECT(seen[pe] == pe + 1, "pe %d reported %d", pe, seen[pe]);

    if (bound) {
        cpu_set_t mask;
        int ok = sched_getaffinity(0, sizeof(mask), &mask) == 0;
        EXPECT(ok && CPU_COUNT(&mask) == 1, "pe %d may run on %d CPUs", me,
               ok ? CPU_COUNT(&mask) : -1);
        shmem_int_p(&cpu_of[me], sched_getcpu(), 0);
        shmem_barrier_all();
        if (me == 0)
            check_binding(n);
    }
    if (heap) {
        void *p = shmem_malloc(heap), *q;
        EXPECT(p != NULL, "a block of SHMEM_SYMMETRIC_SIZE (%zu bytes) does not fit", heap);
        shmem_free(p);
        q = shmem_malloc(2 * heap);
        EXPECT(q == NULL, "a block of twice SHMEM_SYMMETRIC_SIZE (%zu bytes) fits", 2 * heap);
        shmem_free(q);
    }
    if (exit_status >= 0) {
        if (me == n - 1)
            shmem_global_exit(exit_status);
        shmem_barrier_all();
        EXPECT(0, "the job went on after shmem_global_exit");
    }

    int rc = test_finish(plain ? "init (shmem_init)" : "init");
    shmem_finalize();
    return rc;
}
