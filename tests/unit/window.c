/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The address arithmetic of the flat windows, on a hand-built state of 4 PEs (this process
 * plays PE 2): heap translation is base + pe * stride + offset for every byte of the heap and
 * NULL one byte outside it, whatever the length (no wrap-around); data-segment translation;
 * the internal part of every slot (at the same offset in each); and the fatal path of the checked translation (bad PE,
 * address outside symmetric memory, unreachable PE, call before init or after finalize), run
 * in a child process so that its message and exit status can be read.
 */
#include <regex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/core.h"
#define TEST_WITHOUT_SHMEM
#include "../harness.h"

#define NPES 4
#define ME 2
#define STRIDE ((size_t)2 << 20)
#define DSTRIDE ((size_t)1 << 20)

static char data_seg[3 * 4096] __attribute__((aligned(4096)));
static unsigned char reach[NPES] = {1, 1, 1, 1};

static char *reserve(size_t len)
{
    void *p = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

    if (p == MAP_FAILED) {
        perror("mmap");
        exit(2);
    }
    return p;
}

static void setup(void)
{
    symm_g.n_pes = NPES;
    symm_g.my_pe = ME;
    strcpy(symm_g.host, "unit-host");
    symm_g.stride = STRIDE;
    symm_g.heap_win = reserve(NPES * STRIDE);
    symm_g.heap_base = symm_g.heap_win + ME * STRIDE;
    symm_g.heap_len = STRIDE - 4096;
    symm_g.internal_off = STRIDE - 8192;
    symm_g.reach = reach;
    symm_g.data_lo = data_seg;
    symm_g.data_len = sizeof(data_seg);
    symm_g.data_stride = DSTRIDE;
    symm_g.data_win = reserve(NPES * DSTRIDE);
    symm_g.initialized = 1;
}

static void test_heap(void)
{
    const size_t offs[] = {0, 1, 63, 64, 4095, 4096, 65536, STRIDE - 8192 - 8};
    char *base = symm_g.heap_base, *win = symm_g.heap_win;
    size_t len = symm_g.internal_off; /* the user part; the internal part is not user memory */

    for (int pe = 0; pe < NPES; pe++) {
        for (size_t i = 0; i < sizeof(offs) / sizeof(offs[0]); i++) {
            char *want = win + pe * STRIDE + offs[i];
            EXPECT(symm_heap_xlate(base + offs[i], 8, pe) == want, "pe %d off %zu", pe, offs[i]);
            EXPECT(symm_xlate(base + offs[i], 8, pe) == want, "xlate pe %d off %zu", pe, offs[i]);
            EXPECT(symm_xlate_checked("t", base + offs[i], 8, pe) == want, "checked pe %d off %zu",
                   pe, offs[i]);
            /* shmem_ptr arithmetic: a peer's copy is a constant distance away. */
            EXPECT(symm_xlate(base + offs[i], 1, pe) - symm_xlate(base + offs[i], 1, ME) ==
                      (ptrdiff_t)(pe - ME) * (ptrdiff_t)STRIDE,
                   "distance pe %d", pe);
        }
        EXPECT(symm_heap_xlate(base + len - 1, 1, pe) == win + pe * STRIDE + len - 1,
               "last byte, pe %d", pe);
        EXPECT(symm_heap_xlate(base + len - 8, 8, pe) != NULL, "last 8 bytes, pe %d", pe);
        EXPECT(symm_heap_xlate(base, len, pe) == win + pe * STRIDE, "whole heap, pe %d", pe);
        EXPECT(symm_heap_xlate(base + len, 8, pe) == NULL, "internal part, pe %d", pe);
        EXPECT(symm_heap_xlate(base + len - 8, 9, pe) == NULL, "one byte past the end, pe %d", pe);
        EXPECT(symm_heap_xlate(base + len, 1, pe) == NULL, "first byte after, pe %d", pe);
        EXPECT(symm_heap_xlate(base - 1, 1, pe) == NULL, "byte before, pe %d", pe);
        EXPECT(symm_heap_xlate(base - 1, 2, pe) == NULL, "straddling the start, pe %d", pe);
        EXPECT(symm_heap_xlate(base, len + 1, pe) == NULL, "heap + 1, pe %d", pe);
        EXPECT(symm_heap_xlate(base + 64, SIZE_MAX, pe) == NULL, "SIZE_MAX, pe %d", pe);
        EXPECT(symm_heap_xlate(base + 64, SIZE_MAX - 32, pe) == NULL, "wrap, pe %d", pe);
        EXPECT(symm_heap_xlate(win + ((pe + 1) % NPES) * STRIDE, 1, pe) == NULL ||
                  (pe + 1) % NPES == ME,
               "a peer's slot is not this PE's heap, pe %d", pe);
        EXPECT((char *)symm_internal(pe) == win + pe * STRIDE + symm_g.internal_off,
               "internal part of pe %d", pe);
    }
    EXPECT(symm_heap_xlate(NULL, 1, 0) == NULL, "NULL");
}

static void test_data(void)
{
    char *lo = data_seg;
    size_t len = sizeof(data_seg);
    int on_stack;

    for (int pe = 0; pe < NPES; pe++) {
        char *want = pe == ME ? lo + 100 : symm_g.data_win + pe * DSTRIDE + 100;
        EXPECT(symm_data_xlate(lo + 100, 8, pe) == want, "data pe %d", pe);
        EXPECT(symm_xlate(lo + 100, 8, pe) == want, "xlate data pe %d", pe);
        EXPECT(symm_data_xlate(lo + len - 4, 4, pe) != NULL, "last word pe %d", pe);
        EXPECT(symm_data_xlate(lo + len - 4, 5, pe) == NULL, "past the end pe %d", pe);
        EXPECT(symm_data_xlate((char *)((uintptr_t)lo - 1), 1, pe) == NULL, "before pe %d", pe);
        EXPECT(symm_data_xlate(lo + 8, SIZE_MAX, pe) == NULL, "SIZE_MAX pe %d", pe);
        EXPECT(symm_xlate(&on_stack, sizeof(on_stack), pe) == NULL, "stack pe %d", pe);
    }
}

/* Runs fn in a child with stderr captured; returns the exit status, fills out. */
static int in_child(void (*fn)(void), char *out, size_t len)
{
    int fd[2], status = -1;
    ssize_t n, got = 0;
    pid_t pid;

    if (pipe(fd) != 0)
        return -1;
    fflush(NULL);
    pid = fork();
    if (pid == 0) {
        dup2(fd[1], STDERR_FILENO);
        close(fd[0]);
        fn();
        _exit(0);
    }
    close(fd[1]);
    while ((n = read(fd[0], out + got, len - 1 - got)) > 0)
        got += n;
    out[got] = '\0';
    close(fd[0]);
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void expect_fatal(const char *what, void (*fn)(void), const char *re)
{
    char out[4096];
    regex_t rx;
    int st = in_child(fn, out, sizeof(out));

    EXPECT(st != 0, "%s: exit status 0", what);
    if (regcomp(&rx, re, REG_EXTENDED | REG_NEWLINE) != 0) {
        EXPECT(0, "%s: bad regex %s", what, re);
        return;
    }
    EXPECT(regexec(&rx, out, 0, NULL, 0) == 0, "%s: output '%s' does not match '%s'", what, out,
           re);
    EXPECT(strchr(out, '\n') == out + strlen(out) - 1, "%s: not one line: '%s'", what, out);
    regfree(&rx);
}

static long stack_word;

static void pe_high(void)
{
    symm_xlate_checked("shmem_long_put", symm_g.heap_base + 64, 8, NPES);
}

static void pe_negative(void)
{
    symm_xlate_checked("shmem_long_get", symm_g.heap_base + 64, 8, -1);
}

static void not_symmetric(void)
{
    long local = 0;

    symm_xlate_checked("shmem_long_p", &local, sizeof(local), 1);
}

static void past_heap_end(void)
{
    symm_xlate_checked("shmem_putmem", symm_g.heap_base + symm_g.internal_off - 16, 32, 0);
}

static void unreachable(void)
{
    reach[3] = 0;
    symm_xlate_checked("shmem_int_put", data_seg + 128, 4, 3);
}

static void before_init(void)
{
    symm_g.initialized = 0;
    symm_check_init("shmem_malloc");
}

static void after_finalize(void)
{
    symm_g.initialized = 0;
    symm_g.finalized = 1;
    symm_xlate_checked("shmem_double_g", &stack_word, 8, 0);
}

static void test_fatal(void)
{
#define PFX "^symm: \\[pe 2 unit-host [0-9]+\\] "
    expect_fatal("pe high", pe_high,
                 PFX "shmem_long_put\\(addr=0x[0-9a-f]+, pe=4\\): pe 4 is out of range.*4 PEs");
    expect_fatal("pe -1", pe_negative, PFX "shmem_long_get\\(addr=0x[0-9a-f]+, pe=-1\\).*range");
    expect_fatal("stack address", not_symmetric,
                 PFX "shmem_long_p\\(addr=0x[0-9a-f]+, bytes=8, pe=1\\).*not symmetric");
    expect_fatal("past the heap end", past_heap_end,
                 PFX "shmem_putmem\\(addr=0x[0-9a-f]+, bytes=32, pe=0\\).*not symmetric");
    expect_fatal("unreachable", unreachable, PFX "shmem_int_put\\(.*pe=3\\).*cannot be reached");
    expect_fatal("before init", before_init, PFX "shmem_malloc: called before shmem_init");
    expect_fatal("after finalize", after_finalize,
                 PFX "shmem_double_g: called after shmem_finalize");
#undef PFX
}

int main(void)
{
    setup();
    test_heap();
    test_data();
    test_fatal();
    symm_g.initialized = 0;
    return test_finish("unit_window");
}
