/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The symmetric heap: one memfd per PE, mapped into the heap window at every PE of the node,
 * and the collective allocation calls on top of the allocator.
 *
 * The memfd is sized to the whole heap at start but stays sparse: pages exist only once
 * touched. An allocation that reaches above the high-water mark backs the new pages on its own
 * PE, and after the allocation's barrier maps them at every peer, so that later puts and gets
 * take no page faults (symm_heap_prefault). The collective allocation calls, which agree across
 * PEs, are coll/heap.c's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "coll/coll.h"
#include "core/core.h"

/* Reserves n slots of stride bytes, aligned to SYMM_SLOT_ALIGN, mapping nothing. */
static char *reserve(size_t n, size_t stride)
{
    size_t len = n * stride + SYMM_SLOT_ALIGN;
    char *p = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    char *q;

    if (p == MAP_FAILED)
        return NULL;
    q = (char *)symm_round_up((uintptr_t)p, SYMM_SLOT_ALIGN);
    if (q > p)
        munmap(p, q - p);
    if (p + len > q + n * stride)
        munmap(q + n * stride, p + len - (q + n * stride));
    return q;
}

static symm_status_t map_at(char *at, size_t len, int fd)
{
    void *p = mmap(at, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0);

    return p == MAP_FAILED ? SYMM_ERR_SYS : SYMM_OK;
}

static void check_heap_sizes(void)
{
    uint64_t mine = symm_g.heap_len;

    for (int pe = 0; pe < symm_g.n_pes; pe++)
        if (symm_g.cards[pe].heap_len != mine)
            symm_fatal("shmem_init: SHMEM_SYMMETRIC_SIZE differs across PEs: pe %d has a heap of "
                       "%llu bytes, pe %d one of %llu", symm_g.my_pe, (unsigned long long)mine,
                       pe, (unsigned long long)symm_g.cards[pe].heap_len);
}

static int data_fd = -1;

void symm_heap_card(symm_card_t *card)
{
    symm_g.internal_off = symm_round_up(symm_g.params.symmetric_size, SYMM_HEAP_ALIGN);
    symm_g.heap_len = symm_g.internal_off + SYMM_INTERNAL_SIZE;
    symm_g.stride = symm_round_up(symm_g.heap_len, SYMM_SLOT_ALIGN);
    data_fd = -1;
    symm_g.data_lo = NULL;
    symm_g.data_len = 0;
    if (symm_g.params.static_data &&
        symm_dataseg_share(&data_fd, &symm_g.data_lo, &symm_g.data_len) != SYMM_OK) {
        data_fd = -1;
        symm_g.data_lo = NULL;
        symm_g.data_len = 0;
    }
    card->heap_len = symm_g.heap_len;
    card->data_len = symm_g.data_len;
}

symm_status_t symm_heap_init(void)
{
    int n = symm_g.n_pes, fds[2], *all = NULL;
    size_t *lens = NULL;
    symm_status_t st = SYMM_ERR_SYS;
    char *data_lo = symm_g.data_lo;
    size_t data_len = symm_g.data_len;

    check_heap_sizes();
    symm_g.data_lo = NULL;
    symm_g.data_len = 0;
    symm_g.heap_fd = memfd_create("symm-heap", MFD_CLOEXEC);
    if (symm_g.heap_fd < 0 || ftruncate(symm_g.heap_fd, symm_g.heap_len) != 0)
        return SYMM_ERR_SYS;
    symm_g.heap_win = reserve(n, symm_g.stride);
    if (!symm_g.heap_win)
        return SYMM_ERR_NOMEM;
    symm_g.heap_base = symm_g.heap_win + (size_t)symm_g.my_pe * symm_g.stride;
    if (map_at(symm_g.heap_base, symm_g.heap_len, symm_g.heap_fd) != SYMM_OK)
        return SYMM_ERR_SYS;

    fds[0] = symm_g.heap_fd;
    fds[1] = data_fd;
    data_fd = -1;
    if (fds[1] < 0)
        fds[1] = symm_g.heap_fd; /* placeholder: every PE sends two descriptors */
    symm_g.reach = calloc(n, 1);
    all = malloc(sizeof(int) * 2 * n);
    lens = malloc(sizeof(size_t) * n);
    if (!symm_g.reach || !all || !lens)
        goto out;
    for (int pe = 0; pe < n; pe++)
        lens[pe] = (size_t)symm_g.cards[pe].data_len;
    /* Across nodes the network's start meets every PE before any touches a peer's heap. */
    st = symm_g.boot->exchange_fds(fds, 2, symm_g.win_first, symm_g.win_n, all);
    if (st == SYMM_OK && !symm_g.net)
        st = symm_g.boot->barrier();
    if (st != SYMM_OK)
        goto out;
    /* PEs of this node are mapped; the others are reached over the network. */
    for (int pe = 0; pe < n; pe++) {
        symm_g.reach[pe] = SYMM_REACH_NET;
        if (symm_g.node[pe] != symm_g.my_node)
            continue;
        if (pe != symm_g.my_pe &&
            map_at(symm_g.heap_win + (size_t)pe * symm_g.stride, symm_g.heap_len, all[2 * pe]))
            goto out_sys;
        symm_g.reach[pe] = SYMM_REACH_WINDOW;
    }
    symm_g.data_lo = data_lo;
    symm_g.data_len = data_len;
    st = symm_dataseg_map_peers(all, lens);
    goto out;
out_sys:
    st = SYMM_ERR_SYS;
out:
    for (int i = 0; all && i < 2 * n; i++)
        if (all[i] >= 0)
            close(all[i]);
    if (fds[1] != symm_g.heap_fd)
        close(fds[1]);
    free(all);
    free(lens);
    if (st == SYMM_OK)
        st = symm_alloc_init(&symm_g.alloc, 0, symm_g.params.symmetric_size);
    symm_g.prefaulted = 0;
    return st;
}

void symm_heap_fini(void)
{
    if (symm_g.heap_win)
        munmap(symm_g.heap_win, (size_t)symm_g.n_pes * symm_g.stride);
    if (symm_g.heap_fd > 0)
        close(symm_g.heap_fd);
    symm_alloc_fini(&symm_g.alloc);
    /* A call after finalize takes the slow path, which reports it. */
    symm_g.win_n = 0;
    if (symm_g.reach)
        memset(symm_g.reach, 0, (size_t)symm_g.n_pes);
    symm_g.heap_win = symm_g.heap_base = NULL;
    symm_g.heap_len = 0;
    symm_dataseg_fini();
}

/* Backs [from, to) of the heap on this PE (before the barrier) or maps the peers' pages (after
 * it). Failure only costs page faults later. */
void symm_heap_prefault(size_t from, size_t to, int peers)
{
    if (!symm_g.params.prefault || to <= from)
        return;
    for (int pe = 0; pe < symm_g.n_pes; pe++) {
        if ((pe == symm_g.my_pe) == peers || symm_g.reach[pe] != SYMM_REACH_WINDOW)
            continue;
        char *p = symm_g.heap_win + (size_t)pe * symm_g.stride + from;
        if (madvise(p, to - from, MADV_POPULATE_WRITE) != 0)
            symm_g.params.prefault = 0;
    }
}
