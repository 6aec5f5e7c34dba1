/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The team object: an arithmetic progression of world PEs plus a slot of the heaps' internal
 * part (core/state.h), the predefined teams (the world; the shared team, this PE's node), and
 * the hierarchy of a team whose members span nodes, which its barriers and collectives use.
 * Splits, which agree on slots and epochs with collectives, are coll/team.c's.
 */
#include <stdlib.h>

#include "core/state.h"

SYMM_EXPORT struct symm_team symm_team_world;
SYMM_EXPORT struct symm_team symm_team_shared;

/* The hierarchy of a team whose members span nodes (see symm_team_t). */
static void team_layout(symm_team_t *t)
{
    int mine = symm_g.my_node;

    t->net = 0;
    t->lead = t->me;
    t->local = 0;
    t->nlead = 0;
    t->lead_idx = -1;
    for (int i = 0; i < t->size; i++) {
        int node = symm_g.node[symm_team_pe(t, i)], first = 1;
        for (int j = 0; j < i && first; j++)
            first = symm_g.node[symm_team_pe(t, j)] != node;
        if (node != mine)
            t->net = 1;
        else if (t->local++ == 0)
            t->lead = i;
        t->nlead += first;
    }
    if (!t->net)
        return;
    t->leaders = malloc((size_t)t->nlead * sizeof(int));
    if (!t->leaders)
        symm_fatal("shmem_team_split: out of memory for a team of %d nodes", t->nlead);
    t->nlead = 0;
    for (int i = 0; i < t->size; i++) {
        int node = symm_g.node[symm_team_pe(t, i)], first = 1;
        for (int j = 0; j < i && first; j++)
            first = symm_g.node[symm_team_pe(t, j)] != node;
        if (!first)
            continue;
        if (i == t->me)
            t->lead_idx = t->nlead;
        t->leaders[t->nlead++] = i;
    }
}

void symm_team_set(symm_team_t *t, int start, int stride, int size, int me, int slot,
                   const char *name)
{
    *t = (symm_team_t){.magic = SYMM_TEAM_LIVE, .start = start, .stride = stride, .size = size,
                       .me = me, .slot = slot, .name = name};
    team_layout(t);
}

void symm_team_init(void)
{
    int first = symm_g.my_pe, last = symm_g.my_pe;

    /* SHMEM_TEAM_SHARED: the PEs of this node (consecutive). */
    while (first > 0 && symm_g.node[first - 1] == symm_g.my_node)
        first--;
    while (last + 1 < symm_g.n_pes && symm_g.node[last + 1] == symm_g.my_node)
        last++;
    symm_team_set(&symm_team_world, 0, 1, symm_g.n_pes, symm_g.my_pe, 0, "SHMEM_TEAM_WORLD");
    symm_team_set(&symm_team_shared, first, 1, last - first + 1, symm_g.my_pe - first, 1,
                  "SHMEM_TEAM_SHARED");
    symm_g.slots_used = 3;
}

symm_team_t *symm_team_get(shmem_team_t team, const char *call)
{
    symm_check_init(call);
    if (team == SHMEM_TEAM_INVALID)
        symm_fatal("%s(team=SHMEM_TEAM_INVALID): not a valid team", call);
    if (team->magic != SYMM_TEAM_LIVE)
        symm_fatal("%s(team=%p): %s", call, (void *)team,
                   team->magic == SYMM_TEAM_DEAD ? "the team was destroyed (shmem_team_destroy)"
                                                 : "not a team");
    return team;
}

