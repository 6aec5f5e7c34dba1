/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Communication contexts. To load/store peers every operation completes when its call
 * returns, so a context carries no queue of its own: quiet on one context is a fence. To PEs
 * of other nodes a context has a channel of the network transport of its own (a UCX worker),
 * made on first use, so that threads with contexts of their own do not contend.
 * Contexts are not freed (a destroyed one is marked), so that using one after
 * shmem_ctx_destroy is reported instead of reading freed memory.
 */
#include <stdlib.h>

#include "core/state.h"

SYMM_EXPORT struct symm_ctx symm_ctx_default = {.magic = SYMM_CTX_LIVE, .team = &symm_team_world};

void symm_ctx_bad(shmem_ctx_t ctx, const char *call)
{
    symm_fatal("%s(ctx=%p): %s", call, (void *)ctx,
               ctx->magic == SYMM_CTX_DEAD ? "the context was destroyed (shmem_ctx_destroy)"
                                           : "not a context made by shmem_ctx_create");
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
    symm_ctx_ok(ctx, "shmem_ctx_destroy");
    symm_full_fence();
    symm_net_quiet(ctx);
    symm_net_ctx_release(ctx);
    ctx->magic = SYMM_CTX_DEAD;
}
