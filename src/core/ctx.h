/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Communication contexts (ctx.c): the object and the inline checks on every RMA and AMO path.
 */
#ifndef SYMM_CORE_CTX_H
#define SYMM_CORE_CTX_H

#include "shmem.h"
#include "base/base.h"
#include "core/team.h"

/* A communication context. Contexts are never freed: a destroyed one keeps its memory with
 * magic SYMM_CTX_DEAD, so that its later use is reported instead of being undefined. Under
 * SHMEM_DEBUG a private context (SHMEM_CTX_PRIVATE) has magic SYMM_CTX_OWNED and its creator's
 * thread id, so that its every use takes the slow check, which compares the caller's. */
#define SYMM_CTX_LIVE 0x53594d4du
#define SYMM_CTX_OWNED 0x53594d50u
#define SYMM_CTX_DEAD 0xdeadc7c7u
struct symm_ctx {
    uint32_t magic;
    long options;
    struct symm_team *team;
    void *net;           /* the network transport's channel (tl/tl.h), made on first use */
    uint64_t thread;     /* SYMM_CTX_OWNED: the creator's thread id (symm_thread_id) */
};

/* 0 for SHMEM_CTX_INVALID (the operation does nothing), 1 for a live context; fatal for a
 * destroyed or unknown one, or a private one used by another thread (under SHMEM_DEBUG). */
SYMM_INLINE int symm_ctx_ok(shmem_ctx_t ctx, const char *call)
{
    extern int symm_ctx_check(shmem_ctx_t ctx, const char *call);

    if (SYMM_UNLIKELY(ctx == SHMEM_CTX_INVALID))
        return 0;
    if (SYMM_UNLIKELY(ctx->magic != SYMM_CTX_LIVE))
        return symm_ctx_check(ctx, call);
    return 1;
}

/* A new context of team (options checked; 1 and SHMEM_CTX_INVALID when out of memory). */
int symm_ctx_create(const char *call, long options, struct symm_team *team, shmem_ctx_t *ctx);

/* The world number of PE `pe` of a context's team: a context made from a team numbers PEs in
 * that team. */
SYMM_INLINE int symm_ctx_pe(shmem_ctx_t ctx, int pe, const char *call)
{
    extern void symm_ctx_pe_bad(shmem_ctx_t ctx, int pe, const char *call)
        __attribute__((noreturn));
    const symm_team_t *t = ctx->team;

    if (SYMM_LIKELY(t == &symm_team_world))
        return pe;
    if (SYMM_UNLIKELY((unsigned)pe >= (unsigned)t->size))
        symm_ctx_pe_bad(ctx, pe, call);
    return t->start + pe * t->stride;
}

#endif
