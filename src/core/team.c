/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The team object: an arithmetic progression of world PEs plus a slot of the heaps' internal
 * part (core/layout.h), the predefined teams (the world; the shared team, this PE's node), and
 * the hierarchy of a team whose members span nodes, which its barriers and collectives use.
 * Splits, which agree on slots and epochs with collectives, are coll/split.c's.
 */
#include <stdlib.h>

#include "core/gpu.h"
#include "core/core.h"

SYMM_EXPORT struct symm_team symm_team_world;
SYMM_EXPORT struct symm_team symm_team_shared;
/* NVSHMEMX_TEAM_SAME_MYPE_NODE: the PEs whose place in their node is this PE's, one a node.
 * It is a team (magic SYMM_TEAM_LIVE) only where every node has the same number of PEs (nodes
 * hold consecutive PEs, so it is then start = place, stride = PEs a node). */
static struct symm_team same_mype_node;

/* The hierarchy of a team whose members span nodes (see symm_team_t), in one pass over the
 * members: on one node it is the team itself, led by its first member. */
static void team_layout(symm_team_t *t)
{
    unsigned char *seen;
    int *leaders;

    t->lead = 0;
    t->local = t->size;
    t->nlead = 1;
    t->lead_idx = t->me ? -1 : 0;
    if (!symm_g.net)
        return;
    seen = calloc((size_t)symm_g.n_nodes, 1);
    leaders = malloc((size_t)t->size * sizeof(int));
    if (!seen || !leaders)
        symm_fatal("shmem_team_split: out of memory for a team of %d PEs", t->size);
    t->local = t->nlead = 0;
    for (int i = 0; i < t->size; i++) {
        int node = symm_g.node[symm_team_pe(t, i)];
        if (node != symm_g.my_node)
            t->net = 1;
        else if (t->local++ == 0)
            t->lead = i;
        if (!seen[node]) {
            seen[node] = 1;
            if (i == t->me)
                t->lead_idx = t->nlead;
            leaders[t->nlead++] = i;
        }
    }
    free(seen);
    if (t->net)
        t->leaders = leaders;
    else
        free(leaders);
}

void symm_team_set(symm_team_t *t, int start, int stride, int size, int me, int slot,
                   const char *name)
{
    *t = (symm_team_t){.magic = SYMM_TEAM_LIVE, .start = start, .stride = stride, .size = size,
                       .me = me, .slot = slot, .name = name};
    team_layout(t);
}

int symm_team_node_blocks(const symm_team_t *t, int per)
{
    if (t->size % per)
        return 0;
    for (int i = 1; i < t->size; i++) {
        int same = symm_g.node[symm_team_pe(t, i)] == symm_g.node[symm_team_pe(t, i - 1)];
        if (same != (i % per != 0))
            return 0;
    }
    return 1;
}

/* NVSHMEMX_TEAM_SAME_MYPE_NODE in slot 2, where every node has win_n PEs. */
static void same_place_init(void)
{
    const int per = symm_g.win_n;

    if (!symm_team_node_blocks(&symm_team_world, per))
        return;
    symm_team_set(&same_mype_node, symm_g.my_pe - symm_g.win_first, per, symm_g.n_pes / per,
                  symm_g.my_pe / per, 2, "NVSHMEMX_TEAM_SAME_MYPE_NODE");
    symm_g.slot_team[2] = &same_mype_node;
    symm_gpu_team_add(&same_mype_node);
}

void symm_team_init(void)
{
    int first = symm_g.win_first;

    /* SHMEM_TEAM_SHARED: the PEs of this node. */
    symm_team_set(&symm_team_world, 0, 1, symm_g.n_pes, symm_g.my_pe, 0, "SHMEM_TEAM_WORLD");
    symm_team_set(&symm_team_shared, first, 1, symm_g.win_n, symm_g.my_pe - first, 1,
                  "SHMEM_TEAM_SHARED");
    symm_g.slots_used = 7;
    symm_g.slot_team[0] = &symm_team_world;
    symm_g.slot_team[1] = &symm_team_shared;
    same_place_init();
}

int symm_team_predefined(const symm_team_t *t)
{
    return t == &symm_team_world || t == &symm_team_shared || t == &same_mype_node;
}

/* Teams by index (shmemx.h, NVSHMEM's numbering): the predefined teams 0 to 5 (world, shared,
 * node, same place in the node, and NVSHMEM's two internal ones), then slot s >= 3 is index
 * s + INDEX_SPLIT. */
#define INDEX_PREDEFINED 6
#define INDEX_SPLIT (INDEX_PREDEFINED - 3)

static shmem_team_t team_of_index(int index, const char *call)
{
    static const char *const absent[] = {"NVSHMEMI_TEAM_SAME_GPU", "NVSHMEMI_TEAM_GPU_LEADERS"};

    if (index == 0)
        return &symm_team_world;
    if (index == 1 || index == 2)
        return &symm_team_shared;
    if (index == 3 && same_mype_node.magic != SYMM_TEAM_LIVE)
        symm_fatal("%s(team=NVSHMEMX_TEAM_SAME_MYPE_NODE): not a team in this job: its nodes "
                   "have different numbers of PEs (this PE's has %d of %d)",
                   call, symm_g.win_n, symm_g.n_pes);
    if (index == 3)
        return &same_mype_node;
    if (index < INDEX_PREDEFINED)
        symm_fatal("%s(team=%d): NVSHMEM's team %s is not one of symm's", call, index,
                   absent[index - 4]);
    if (index - INDEX_SPLIT >= SYMM_TEAM_SLOTS || !symm_g.slot_team[index - INDEX_SPLIT])
        symm_fatal("%s(team=%d): not a team of this PE (a split team's index, or one destroyed)",
                   call, index);
    return symm_g.slot_team[index - INDEX_SPLIT];
}

int symm_team_index(const symm_team_t *t)
{
    return t->slot < 2 ? t->slot : t->slot == 2 ? 3 : t->slot + INDEX_SPLIT;
}

SYMM_EXPORT int shmemx_team_index(shmem_team_t team)
{
    if (team == SHMEM_TEAM_INVALID)
        return -1;
    return symm_team_index(symm_team_get(team, "shmemx_team_index"));
}

symm_team_t *symm_team_get(shmem_team_t team, const char *call)
{
    symm_check_init(call);
    if ((uintptr_t)team - 1 < INDEX_SPLIT + SYMM_TEAM_SLOTS) /* SHMEMX_TEAM_OF_INDEX */
        team = team_of_index((int)((uintptr_t)team - 1), call);
    if (team == SHMEM_TEAM_INVALID)
        symm_fatal("%s(team=SHMEM_TEAM_INVALID): not a valid team", call);
    if (team->magic != SYMM_TEAM_LIVE)
        symm_fatal("%s(team=%p): %s", call, (void *)team,
                   team->magic == SYMM_TEAM_DEAD ? "the team was destroyed (shmem_team_destroy)"
                                                 : "not a team");
    return team;
}

