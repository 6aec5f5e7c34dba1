/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * What the network transports share: the progress thread that serves a PE's peers while the
 * PE is busy elsewhere, and the library's own messages (a flag, data with a count) applied at
 * their receiver.
 *
 * The thread stays out of the way while the PE progresses the network itself (a waiting PE
 * spins on it; a second thread taking the transport's lock and a CPU for every message, or
 * waking every 200 us, made a put + quiet several times slower on two CPUs). It rests, looking
 * every SYMM_TL_IDLE_MS; when the PE has not touched the network since the last look, or says
 * it goes to sleep (symm_tl_serve_rest), it serves the transport until the PE comes back,
 * sleeping on the transport's descriptor when there is nothing to do.
 */
#ifndef SYMM_TL_SERVE_H
#define SYMM_TL_SERVE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "tl/tl.h"

#define SYMM_TL_IDLE_MS 20

typedef struct symm_tl_serve {
    /* The transport's: serves its target once (2: data for this PE arrived, 1: other work was
     * done, 0: nothing), and, before the thread sleeps on fd (-1: none, look again every
     * 200 us), arms it (0: events are pending, serve again). */
    int (*serve)(void);
    int (*arm)(void);
    int fd;
    const symm_tl_env_t *env;
    /* The thread's. */
    pthread_t thread;
    int running, wakefd;
    _Atomic int stop, sleeping;
    _Atomic uint64_t activity; /* the PE's own progress calls and operations */
} symm_tl_serve_t;

/* The PE itself is using the network: the thread may rest. */
static inline void symm_tl_serve_active(symm_tl_serve_t *s)
{
    atomic_fetch_add_explicit(&s->activity, 1, memory_order_relaxed);
}

symm_status_t symm_tl_serve_start(symm_tl_serve_t *s);
void symm_tl_serve_stop(symm_tl_serve_t *s);
/* The PE goes to sleep in a wait (on 1) or is back (on 0). */
void symm_tl_serve_rest(symm_tl_serve_t *s, int on);

/* Whether [off, off + n) lies in segment seg of this PE. */
static inline int symm_tl_in_segment(const symm_tl_env_t *env, uint32_t seg, uint64_t off,
                                     size_t n)
{
    return seg < SYMM_SEGS && off <= env->len[seg] && n <= env->len[seg] - off;
}

/* A library flag arrived: the 4-byte word at off of segment seg takes value. */
void symm_tl_flag_apply(const symm_tl_env_t *env, uint32_t seg, uint64_t off, uint32_t value);
/* A note arrived: len bytes of data at off of seg, then the counter at coff of cseg counts one. */
void symm_tl_note_apply(const symm_tl_env_t *env, uint32_t seg, uint64_t off, const void *data,
                        size_t len, uint32_t cseg, uint64_t coff);

#endif
