/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Start and end of a PE: settings, bootstrap, heap and data windows, and the implicit
 * finalize at exit. Start is cheap by design (no page is touched that an allocation does not
 * need) so that a job starts in milliseconds.
 */
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "api/api.h"
#include "coll/coll.h"
#include "coll/gpu_coll.h"
#include "core/core.h"
#include "core/watch.h"
#include "sync/sync.h"
#include "symm/config.h"

static void at_exit(void)
{
    if (symm_g.initialized)
        symm_finalize();
}

static void print_banner(void)
{
    if (symm_g.my_pe != 0)
        return;
    if (symm_g.params.version || symm_g.params.info)
        printf("symm %s (OpenSHMEM %d.%d), %d PEs, bootstrap %s\n", SYMM_VERSION_STRING,
               SYMM_SHMEM_MAJOR, SYMM_SHMEM_MINOR, symm_g.n_pes, symm_g.boot->name);
    if (symm_g.params.info)
        symm_params_print(&symm_g.params, stdout, "  ");
    fflush(stdout);
}

/* Seconds since `*t`, which becomes now: the time of each step of the start, for the debug
 * level's lines. */
static double step(struct timespec *t)
{
    struct timespec now;
    double d;

    clock_gettime(CLOCK_MONOTONIC, &now);
    d = (double)(now.tv_sec - t->tv_sec) + (double)(now.tv_nsec - t->tv_nsec) * 1e-9;
    *t = now;
    return d;
}

void symm_init(const char *call, int requested)
{
    static int registered;
    char why[256];
    symm_card_t card;
    char watch_card[256];
    size_t watch_len;
    void *cards, *watch_cards;
    struct timespec t;
    symm_status_t st;

    if (symm_g.initialized)
        return;
    clock_gettime(CLOCK_MONOTONIC, &t);
    if (symm_g.finalized)
        symm_fatal("%s: the library was finalized; it cannot be initialized again", call);
    if (symm_params_load(&symm_g.params, why, sizeof(why)) != SYMM_OK)
        symm_fatal("%s: %s", call, why);
    gethostname(symm_g.host, sizeof(symm_g.host) - 1);
    symm_heap_card(&card);
    symm_wait_card(&card);
    st = symm_boot_init(&symm_g.params, &card, sizeof(card), symm_net_open, &cards, &symm_g.boot);
    if (st != SYMM_OK)
        symm_fatal("%s: cannot start the bootstrap: %s", call, symm_status_str(st));
    symm_g.cards = cards;
    symm_g.my_pe = symm_g.boot->rank;
    symm_g.n_pes = symm_g.boot->size;
    symm_g.thread_level = requested > SHMEM_THREAD_MULTIPLE ? SHMEM_THREAD_MULTIPLE : requested;
    symm_debug("%s: the %s bootstrap started pe %d of %d (%.3f s)", call, symm_g.boot->name,
               symm_g.my_pe, symm_g.n_pes, step(&t));
    symm_wait_init();
    symm_nodes_init();
    symm_team_init();
    st = symm_heap_init();
    if (st != SYMM_OK)
        symm_fatal("%s: cannot set up the symmetric heap (%zu bytes): %s", call,
                   symm_g.params.symmetric_size, symm_status_str(st));
    symm_debug("%s: heap window of %d slots of %zu bytes (PEs %d to %d share memory; %.3f s)",
               call, symm_g.win_n, symm_g.stride, symm_g.win_first,
               symm_g.win_first + symm_g.win_n - 1, step(&t));
    free(symm_g.cards);
    symm_g.cards = NULL;
    watch_len = symm_watch_card(watch_card, sizeof(watch_card));
    if (symm_net_init(watch_card, watch_len, &watch_cards, why, sizeof(why)) != SYMM_OK)
        symm_fatal("%s: %s", call, why);
    symm_debug("%s: the network %s (%.3f s)", call, symm_g.net ? "started" : "is not used",
               step(&t));
    if (symm_g.net && symm_g.my_pe == 0 && symm_g.params.info)
        printf("  network: %s\n", symm_net_describe());
    if (symm_copy_setup(symm_g.params.cache_info, symm_g.win_n, why, sizeof(why)) != SYMM_OK)
        symm_fatal("%s: %s", call, why);
    symm_watch_start(watch_cards);
    free(watch_cards);
    symm_info("%s: pe %d of %d on %s, %d PEs of its node share memory, %s", call, symm_g.my_pe,
              symm_g.n_pes, symm_g.host, symm_g.win_n,
              symm_g.net ? "the others are reached over the network" : "no network");
    symm_g.initialized = 1;
    symm_devheap_init();
    if (!registered) {
        registered = 1;
        atexit(at_exit);
    }
    symm_debug("%s: copies, host watch and GPU set up (%.3f s)", call, step(&t));
    symm_barrier_world();
    symm_debug("%s: the first barrier (%.3f s)", call, step(&t));
    /* The start's tables of every PE (cards, records) are freed by now: their pages go back,
     * so what a PE holds after start is what it keeps. */
    malloc_trim(0);
    print_banner();
}

void symm_finalize(void)
{
    if (!symm_g.initialized)
        return;
    symm_full_fence();
    symm_net_quiet(SHMEM_CTX_DEFAULT);
    symm_barrier_world();
    if (symm_g.net) {
        /* The barrier's own signals must have landed before a peer closes its end: complete
         * them, then meet out of band. */
        symm_net_quiet_all();
        symm_g.boot->barrier();
    }
    /* No PE waits for another any more. */
    symm_watch_leave(1);
    symm_devheap_fini();
    symm_net_fini();
    symm_g.initialized = 0;
    symm_g.finalized = 1;
    symm_heap_fini();
    symm_g.boot->finalize();
}
