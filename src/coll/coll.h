/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/* The collective engine, for the public shells and for the library's own agreement steps. */
#ifndef SYMM_COLL_H
#define SYMM_COLL_H

#include <sched.h>
#include <stddef.h>
#include <stdint.h>

#include "core/state.h"

/* Combines n elements of `in` into `acc` (acc = acc op in). */
typedef void (*symm_combine_fn)(void *acc, const void *in, size_t n);

/* The rows of the type table (SYMM_TYPE_float, ...), then NVSHMEM's (SYMM_TYPE_half,
 * SYMM_TYPE_bfloat16: 16-bit words), and the reduction operators (SYMM_OP_and, ...), in the
 * table's order. */
#define SYMM_TYPE_ID(_, NAME, ...) SYMM_TYPE_##NAME,
typedef enum {
    SYMM_TYPE_TABLE(SYMM_TYPE_ID, _) SYMM_TYPE_TABLE_NV(SYMM_TYPE_ID, _) SYMM_TYPE_COUNT
} symm_type_t;
#undef SYMM_TYPE_ID
#define SYMM_OP_ID(A, B, OP) SYMM_OP_##OP,
typedef enum { SYMM_OPS(SYMM_OP_ID, _, _) SYMM_OP_COUNT } symm_op_t;
#undef SYMM_OP_ID
/* The [op][type] table (combine.c): the combiner of an operator on a row's elements, NULL where
 * the row has no such operator; and each row's element size. */
extern const symm_combine_fn symm_combine[SYMM_OP_COUNT][SYMM_TYPE_COUNT];
/* Whether fn gives the same result in any order of combination (the integer rows). */
int symm_combine_any_order(symm_combine_fn fn);
extern const size_t symm_type_size[SYMM_TYPE_COUNT];

/* Fatal when dest or source lies in the device heap: for the collectives without a GPU form. */
void symm_coll_host_only(const char *call, const void *dest, const void *source);
/* Reduction over team t, elements of `size` bytes combined by fn in team order. */
void symm_coll_reduce(symm_team_t *t, const char *call, void *dest, const void *source,
                      size_t nelems, size_t size, symm_combine_fn fn, uint64_t op);
/* Starts this PE's record of the team in slot `slot`, whose epochs begin at base. */
void symm_coll_slot_init(int slot, uint32_t base);
/* With more PEs than CPUs: records in this PE's slot s the CPU it runs on now, which CPU-mates
 * waiting in a barrier or a collective read; returns it. */
static inline uint32_t symm_slot_note_cpu(symm_slot_t *s)
{
    uint32_t cpu = (uint32_t)sched_getcpu();

    if (atomic_load_explicit(&s->cpu.v, memory_order_relaxed) != cpu)
        atomic_store_explicit(&s->cpu.v, cpu, memory_order_relaxed);
    return cpu;
}
/* CPUs the job's PEs share (sync/wait.c). */
long symm_job_cpus(void);
/* With more PEs than CPUs, symmrun binds consecutive PEs to one CPU in blocks as even as they
 * can be (PE r of n on CPU r * cpus / n). The same blocks of a team of n members: how many
 * (one per CPU, at most n), the block of member i, and the first member of block k. */
static inline int symm_cpu_blocks(int n)
{
    long cpus = symm_job_cpus();

    return cpus < n ? (int)cpus : n;
}
static inline int symm_cpu_block(int i, int n, int blocks)
{
    return (int)((long)i * blocks / n);
}
static inline int symm_cpu_block_first(int k, int n, int blocks)
{
    return (int)(((long)k * n + blocks - 1) / blocks);
}
/* symm_wait_reach for a word that a PE on this CPU will write: yields at once (sync/wait.c). */
void symm_wait_reach_yielding(_Atomic uint32_t *w, uint32_t target);
/* symm_wait_reach for a word that PEs busy on a call's data will write: spins (with PEs sharing
 * CPUs: yields, at once when the writer is `beside` on this CPU) longer before it sleeps,
 * unless SYMM_SPIN_US sets every spin (sync/wait.c). */
void symm_wait_reach_busy(_Atomic uint32_t *w, uint32_t target, int beside);
/* With more PEs than CPUs, the first phase of a wait for ready(arg) beside CPU-mates: spins
 * (at most `spins` pauses in all) while idle(arg) says that no CPU-mate needs this CPU (each
 * waits as well, for a PE on another CPU), else yields, where a spin would hold the CPU from a
 * mate that has work and a yield to a mate that only waits would cost a context switch for
 * nothing. 1 when ready, 0 when its yields ran out and the caller should sleep. */
/* Pauses in all that such a wait spins for at most before it yields only. */
#define SYMM_BESIDE_SPINS 2048
static inline int symm_wait_beside(int (*ready)(const void *arg), int (*idle)(const void *arg),
                                   const void *arg, int spins)
{
    for (int i = 0; i < symm_g.yields;) {
        if (ready(arg))
            return 1;
        if (spins > 0 && idle(arg)) {
            for (int k = 0; k < 16; k++, spins--) {
                if (ready(arg))
                    return 1;
                symm_cpu_relax();
            }
            continue;
        }
        sched_yield();
        i++;
    }
    return 0;
}
/* Whether every other member of t last seen on CPU `cpu` has raised the word at offset
 * `field` of its slot (posted, arrived) to epoch: the idle test of a wait beside CPU-mates. */
static inline int symm_mates_reached(const symm_team_t *t, uint32_t cpu, size_t field,
                                     uint32_t epoch)
{
    for (int i = 0; i < t->size; i++) {
        symm_slot_t *s = symm_slot(t, i);
        _Atomic uint32_t *w = (_Atomic uint32_t *)((char *)s + field);
        if (i != t->me && atomic_load_explicit(&s->cpu.v, memory_order_relaxed) == cpu &&
            (int32_t)(atomic_load_explicit(w, memory_order_relaxed) - epoch) < 0)
            return 0;
    }
    return 1;
}
/* symm_wait_reach for a word that a PE of this node writes: across nodes it sleeps after its
 * yields instead of polling the network on (sync/wait.c). */
void symm_wait_reach_local(_Atomic uint32_t *w, uint32_t target);
/* The active-set collectives whose set is every PE of the job run as the world team's (move.c,
 * reduce.c): one call of the engine, where the pSync form meets in two barriers around the
 * data. The broadcast leaves the root's dest alone, as the active-set form does; gather is
 * fcollect, or alltoall when `all`. */
void symm_world_broadcast(const char *call, void *dest, const void *source, size_t nb, int root);
void symm_world_gather(const char *call, void *dest, const void *source, size_t nb, int all);
void symm_world_collect(const char *call, void *dest, const void *source, size_t nb);
void symm_world_alltoalls(const char *call, void *dest, const void *source, ptrdiff_t dst,
                          ptrdiff_t sst, size_t nelems, size_t es);
/* The id of a reduction call for the comparison of arguments under SHMEM_DEBUG (0 without). */
uint64_t symm_coll_op_id(const char *call);
/* Bitwise AND of one 64-bit word over team t. */
void symm_coll_and64(symm_team_t *t, uint64_t *out, uint64_t in);
/* Maximum of one 64-bit word over team t. */
void symm_coll_max64(symm_team_t *t, uint64_t *out, uint64_t in);

/* Collectives of teams whose members span nodes (span.c); dest and source are symmetric. */
/* root_dest: whether the root copies source into its dest (0: dest is source, or the
 * active-set form, which leaves the root's dest alone). */
void symm_span_broadcast(symm_team_t *t, void *dest, const void *source, size_t nb, int root,
                         int root_dest);
/* Member i's part for this PE: nb bytes at source + pick * (this PE's index) on i. */
void symm_span_gather(symm_team_t *t, void *dest, const void *source, size_t nb, size_t pick);
void symm_span_collect(symm_team_t *t, const char *call, void *dest, const void *source,
                       size_t nb);
void symm_span_alltoalls(symm_team_t *t, void *dest, const void *source, ptrdiff_t dst,
                         ptrdiff_t sst, size_t nelems, size_t es);
void symm_span_reduce(symm_team_t *t, const char *call, void *dest, const void *source,
                      size_t nelems, size_t es, symm_combine_fn fn);
void symm_span_scan(symm_team_t *t, const char *call, void *dest, const void *source,
                    size_t nelems, size_t es, symm_combine_fn fn, int exclusive);

#endif
