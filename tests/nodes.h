/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The node of a PE as the tests expect it: one node, or the virtual nodes of SYMM_NODES
 * (symmrun --nodes), or the hosts that tests/boot/as_host.sh makes up (SYMM_TEST_HOSTS, placed
 * alike): node j holds PEs [ceil(j n / K), ceil((j + 1) n / K)).
 */
#ifndef SYMM_TEST_NODES_H
#define SYMM_TEST_NODES_H

#include <stdlib.h>

static inline int test_nodes(void)
{
    const char *env = getenv("SYMM_NODES");

    if (!env || !*env)
        env = getenv("SYMM_TEST_HOSTS");

    return env && atoi(env) > 1 ? atoi(env) : 1;
}

static inline int test_node_of(int pe, int npes)
{
    return (int)((long)pe * test_nodes() / npes);
}

/* The first PE of node j, and the one past its last. */
static inline int test_node_first(int node, int npes)
{
    return (int)(((long)node * npes + test_nodes() - 1) / test_nodes());
}

#endif
