/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Atomic memory operations. To a load/store peer an AMO is one locked instruction on the
 * peer's object through the window; it is atomic against every other PE's AMOs on that object
 * because they all reach the same physical page. The only other work is the doorbell check
 * after the operation (a sleeping waiter there is woken) and, in the slow path, the argument
 * checks. cmake/gen_api.c writes each row's typed steps and the shells over them, context
 * and plain forms, into gen/typed_amo.c, included at the end.
 */
#include <string.h>

#include "core/core.h"
#include "tl/tl.h"

/* The target of an AMO: symmetric, on a reachable PE, naturally aligned; NULL when the PE is
 * on another node, where *net is the word's place there for net_op. */
SYMM_INLINE void *amo_at(const char *call, const void *p, size_t size, int pe, symm_tl_amo_t *net)
{
    void *q;

    if (SYMM_UNLIKELY((uintptr_t)p & (size - 1)))
        symm_fatal("%s(dest=%p, pe=%d): address is not aligned to the %zu-byte element", call, p,
                   pe, size);
    q = symm_xlate_fast(p, size, pe);
    return SYMM_LIKELY(q != NULL) ? q : symm_amo_target(call, p, size, pe, net);
}

/* A value of an AMO type as the bits of a word, and back. */
SYMM_INLINE uint64_t bits_of(const void *v, size_t size)
{
    uint64_t b = 0;

    memcpy(&b, v, size);
    return b;
}
/* The operation op over the network on the word amo_at placed in *a; it waits for the reply,
 * and the old value lands in *out. */
SYMM_INLINE void net_op(shmem_ctx_t ctx, const char *call, symm_tl_amo_t *a, symm_amo_op_t op,
                        const void *v, const void *cond, void *out)
{
    uint64_t r;

    a->op = op;
    a->value = bits_of(v, a->size);
    a->cond = cond ? bits_of(cond, a->size) : 0;
    r = symm_amo_net(ctx, call, a, SYMM_TL_WAIT);
    memcpy(out, &r, a->size);
}

#include "api/gen/typed_amo.c"

/* The deprecated untyped name, of long. */
SYMM_EXPORT long shmem_swap(long *dest, long value, int pe)
{
    return long_swap(SHMEM_CTX_DEFAULT, "shmem_swap", dest, value, pe);
}
