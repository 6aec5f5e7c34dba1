/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The network transports' progress thread and the library's own messages (see serve.h).
 */
#include <poll.h>
#include <sched.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "tl/serve.h"

/* After a message, the thread keeps serving this long before it sleeps: a peer's next request
 * of a burst (each get, atomic or flush of a loop) would otherwise wait for the thread to
 * wake. Not where PEs outnumber CPUs: the poll would hold a CPU a PE needs. */
#define SERVE_SPIN_NS 200000L

static long now_ns(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000L + t.tv_nsec;
}

static void drain(int fd)
{
    uint64_t v;

    if (read(fd, &v, sizeof(v)) < 0) {
        /* Nothing to drain. */
    }
}

static int serving(symm_tl_serve_t *s, uint64_t seen)
{
    return !atomic_load_explicit(&s->stop, memory_order_acquire) &&
           (atomic_load_explicit(&s->sleeping, memory_order_acquire) ||
            atomic_load_explicit(&s->activity, memory_order_relaxed) == seen);
}

/* Until the transport has nothing to do, or the PE is back. A wake by the transport's
 * descriptor counts as data arrived, whatever the serve after it reports: a peer's write
 * lands as the provider is progressed and leaves no completion at the target (libfabric's
 * RMA and atomics), so the serve that landed it saw nothing, and without the spin the next
 * request of a burst would wait for the thread to wake again. */
static void serve(symm_tl_serve_t *s, uint64_t seen, struct pollfd *p)
{
    long last = 0;
    int did, woke = 0;

    while (serving(s, seen)) {
        did = s->serve();
        if (did == 2 || woke) {
            s->env->arrived();
            last = s->env->crowded ? 0 : now_ns();
            woke = 0;
        }
        if (did)
            continue;
        if (last && now_ns() - last < SERVE_SPIN_NS)
            continue;
        if (s->fd < 0) {
            struct timespec ts = {0, 200000};
            nanosleep(&ts, NULL);
            continue;
        }
        if (!s->arm())
            continue;
        if (poll(p, 2, SYMM_TL_IDLE_MS) > 0) {
            if (p[0].revents)
                drain(s->wakefd);
            woke = p[1].revents != 0;
        }
    }
}

static void *serve_main(void *arg)
{
    symm_tl_serve_t *s = arg;

    while (!atomic_load_explicit(&s->stop, memory_order_acquire)) {
        uint64_t seen = atomic_load_explicit(&s->activity, memory_order_relaxed);
        struct pollfd p[2] = {{.fd = s->wakefd, .events = POLLIN},
                              {.fd = s->fd, .events = POLLIN}};
        if (poll(p, 1, SYMM_TL_IDLE_MS) > 0)
            drain(s->wakefd);
        serve(s, seen, p);
    }
    return NULL;
}

symm_status_t symm_tl_serve_start(symm_tl_serve_t *s)
{
    s->wakefd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (s->wakefd < 0)
        return SYMM_ERR_SYS;
    atomic_store_explicit(&s->stop, 0, memory_order_relaxed);
    if (pthread_create(&s->thread, NULL, serve_main, s) != 0) {
        close(s->wakefd);
        s->wakefd = -1;
        return SYMM_ERR_SYS;
    }
    s->running = 1;
    return SYMM_OK;
}

void symm_tl_serve_stop(symm_tl_serve_t *s)
{
    uint64_t one = 1;

    if (s->running) {
        atomic_store_explicit(&s->stop, 1, memory_order_release);
        if (write(s->wakefd, &one, sizeof(one)) < 0) {
            /* The thread still sees `stop` within SYMM_TL_IDLE_MS. */
        }
        pthread_join(s->thread, NULL);
        s->running = 0;
    }
    if (s->wakefd >= 0)
        close(s->wakefd);
    s->wakefd = -1;
    atomic_store_explicit(&s->sleeping, 0, memory_order_relaxed);
}

void symm_tl_serve_rest(symm_tl_serve_t *s, int on)
{
    uint64_t one = 1;

    if (!s->running)
        return;
    atomic_store_explicit(&s->sleeping, on, memory_order_release);
    if (on && write(s->wakefd, &one, sizeof(one)) < 0) {
        /* The thread looks again within SYMM_TL_IDLE_MS. */
    }
}

void symm_tl_flag_apply(const symm_tl_env_t *env, uint32_t seg, uint64_t off, uint32_t value)
{
    if (!symm_tl_in_segment(env, seg, off, 4) || off % 4)
        env->fatal("symm_peer_flag: a flag for offset %#llx of segment %u arrived",
                   (unsigned long long)off, seg);
    atomic_store_explicit((_Atomic uint32_t *)((char *)env->base[seg] + off), value,
                          memory_order_release);
}

void symm_tl_note_apply(const symm_tl_env_t *env, uint32_t seg, uint64_t off, const void *data,
                        size_t len, uint32_t cseg, uint64_t coff)
{
    if (!symm_tl_in_segment(env, seg, off, len) || !symm_tl_in_segment(env, cseg, coff, 4) ||
        coff % 4)
        env->fatal("symm_peer_put_note: %zu bytes for offset %#llx of segment %u arrived", len,
                   (unsigned long long)off, seg);
    memcpy((char *)env->base[seg] + off, data, len);
    atomic_fetch_add_explicit((_Atomic uint32_t *)((char *)env->base[cseg] + coff), 1,
                              memory_order_release);
}
