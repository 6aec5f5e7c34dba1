/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The team object (team.c): world numbering of a team's members and its synchronisation
 * state; splits and the teams' collectives are coll's.
 */
#ifndef SYMM_CORE_TEAM_H
#define SYMM_CORE_TEAM_H

#include "shmem.h"
#include "base/base.h"
#include "core/layout.h"

/* A team: PEs start + i * stride (world numbers) for i in [0, size). Teams are not freed: a
 * destroyed one keeps its memory with magic SYMM_TEAM_DEAD so that its use is reported. */
#define SYMM_TEAM_LIVE 0x5445414du
#define SYMM_TEAM_DEAD 0xdeadbeefu
struct symm_team {
    uint32_t magic;
    int start;
    int stride;
    int size;
    int me;              /* this PE's index in the team */
    int slot;
    uint32_t bar_epoch;  /* barriers so far */
    /* With more PEs than CPUs: bar_epoch when this PE last entered a broadcast whose root ran on
     * its CPU (the barrier after such a one gives the CPU up early, sync/barrier.c). */
    uint32_t mate_root_bar;
    uint32_t coll_epoch; /* collectives so far */
    uint32_t landed;     /* parts pushed to this PE that it has taken (teams across nodes) */
    /* Teams across nodes: small broadcasts since the team's last barrier (each lands in cell
     * [unsynced] of the receivers' slots), and how many each of this PE's cells has taken. */
    uint32_t unsynced;
    uint32_t boxed[SYMM_CELLS];
    uint32_t sweeps;     /* cache-sized copying collectives so far (their direction) */
    long config_mask;
    int num_contexts;
    const char *name;
    /* Teams whose members span nodes (net != 0) synchronise hierarchically: the members of
     * each node through the slot of the node's first member (`lead`, a team index; `local`
     * members on this node), the first members of all nodes among themselves (`leaders`,
     * team indices, `nlead` of them; `lead_idx` this PE's place there, or -1). */
    int net;
    int lead;
    int local;
    int nlead;
    int lead_idx;
    int *leaders;
};
typedef struct symm_team symm_team_t;

SYMM_INLINE int symm_team_pe(const symm_team_t *t, int idx)
{
    return t->start + idx * t->stride;
}

/* The team object (team.c; splits are coll/split.c's). */
void symm_team_init(void);
int symm_team_predefined(const symm_team_t *t); /* world, shared, same place in the node */
/* Whether t's members are groups of `per` consecutive members, one group a node. */
int symm_team_node_blocks(const symm_team_t *t, int per);
/* Makes *t the team of world PEs start + i * stride, i < size, this PE being member me. */
void symm_team_set(symm_team_t *t, int start, int stride, int size, int me, int slot,
                   const char *name);
/* The team behind a handle (symm's, or SHMEMX_TEAM_OF_INDEX of an index), or fatal
 * ("call(team=...): invalid/destroyed team"). */
symm_team_t *symm_team_get(shmem_team_t team, const char *call);
/* The team's index (shmemx_team_index). */
int symm_team_index(const symm_team_t *t);

#endif
