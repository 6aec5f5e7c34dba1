/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Communication contexts. To load/store peers every operation completes when its call
 * returns, so a context carries no queue of its own: quiet on one context is a fence. To PEs
 * of other nodes a context has a channel of the network transport of its own (a UCX worker),
 * made on first use, so that threads with contexts of their own do not contend.
 * Contexts are not freed (a destroyed one is marked), so that using one after
 * shmem_ctx_destroy is reported instead of reading freed memory. Under SHMEM_DEBUG a private
 * context is checked to be used only by the thread that made it, by the thread ids the program
 * registered (shmemx_register_gettid) or the operating system's.
 */
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/core.h"

SYMM_EXPORT struct symm_ctx symm_ctx_default = {.magic = SYMM_CTX_LIVE, .team = &symm_team_world};

/* The program's thread ids (shmemx_register_gettid), else the operating system's. */
static uint64_t (*gettid_fn)(void);

SYMM_EXPORT void shmemx_register_gettid(uint64_t (*fn)(void))
{
    __atomic_store_n(&gettid_fn, fn, __ATOMIC_RELEASE);
}

static uint64_t symm_thread_id(void)
{
    uint64_t (*fn)(void) = __atomic_load_n(&gettid_fn, __ATOMIC_ACQUIRE);

    return fn ? fn() : (uint64_t)syscall(SYS_gettid);
}

static void symm_ctx_bad(shmem_ctx_t ctx, const char *call) __attribute__((noreturn));

static void symm_ctx_bad(shmem_ctx_t ctx, const char *call)
{
    symm_fatal("%s(ctx=%p): %s", call, (void *)ctx,
               ctx->magic == SYMM_CTX_DEAD ? "the context was destroyed (shmem_ctx_destroy)"
                                           : "not a context made by shmem_ctx_create");
}

int symm_ctx_check(shmem_ctx_t ctx, const char *call)
{
    uint64_t me;

    if (ctx->magic != SYMM_CTX_OWNED)
        symm_ctx_bad(ctx, call);
    me = symm_thread_id();
    if (me != ctx->thread)
        symm_fatal("%s(ctx=%p): a private context (SHMEM_CTX_PRIVATE) of thread %llu used by "
                   "thread %llu", call, (void *)ctx, (unsigned long long)ctx->thread,
                   (unsigned long long)me);
    return 1;
}

void symm_ctx_pe_bad(shmem_ctx_t ctx, int pe, const char *call)
{
    symm_fatal("%s(ctx=%p, pe=%d): pe %d is out of range of the context's team (%d PEs)", call,
               (void *)ctx, pe, pe, ctx->team->size);
}

int symm_ctx_create(const char *call, long options, symm_team_t *team, shmem_ctx_t *ctx)
{
    long known = SHMEM_CTX_SERIALIZED | SHMEM_CTX_PRIVATE | SHMEM_CTX_NOSTORE;
    shmem_ctx_t c;

    symm_check_init(call);
    if (options & ~known)
        symm_fatal("%s(options=%#lx): unknown option bits %#lx", call, options, options & ~known);
    c = malloc(sizeof(*c));
    if (!c) {
        *ctx = SHMEM_CTX_INVALID;
        return 1;
    }
    c->magic = SYMM_CTX_LIVE;
    c->options = options;
    c->team = team;
    c->net = NULL;
    c->thread = 0;
    if ((options & SHMEM_CTX_PRIVATE) && symm_g.params.debug) {
        c->magic = SYMM_CTX_OWNED;
        c->thread = symm_thread_id();
    }
    *ctx = c;
    return 0;
}

SYMM_EXPORT int shmem_ctx_create(long options, shmem_ctx_t *ctx)
{
    return symm_ctx_create("shmem_ctx_create", options, &symm_team_world, ctx);
}

SYMM_EXPORT void shmem_ctx_destroy(shmem_ctx_t ctx)
{
    if (ctx == SHMEM_CTX_INVALID)
        return;
    if (ctx == SHMEM_CTX_DEFAULT)
        symm_fatal("shmem_ctx_destroy(ctx=SHMEM_CTX_DEFAULT): the default context cannot be "
                   "destroyed");
    /* Any thread may destroy a private context, once its thread is done with it. */
    if (ctx->magic != SYMM_CTX_OWNED)
        symm_ctx_ok(ctx, "shmem_ctx_destroy");
    symm_full_fence();
    symm_net_quiet(ctx);
    symm_net_ctx_release(ctx);
    ctx->magic = SYMM_CTX_DEAD;
}
