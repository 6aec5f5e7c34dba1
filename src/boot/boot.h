/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Bootstrap interface: how a PE learns its rank and size and exchanges setup data with the
 * other PEs of its job before the symmetric heap exists. One implementation per launcher:
 * `launcher` (symmrun's private Unix socket) and `single` (a program started alone is a job
 * of one PE). The core calls only these ops; all of them are collective except abort.
 */
#ifndef SYMM_BOOT_H
#define SYMM_BOOT_H

#include <stddef.h>

#include "core/status.h"

typedef struct symm_boot_ops {
    const char *name;
    int rank;
    int size;
    /* Every PE contributes `len` bytes; `out` receives size * len bytes in rank order. */
    symm_status_t (*allgather)(const void *in, size_t len, void *out);
    symm_status_t (*barrier)(void);
    /* Every PE contributes `n` file descriptors; `out` receives size * n descriptors in rank
     * order, each a new descriptor of this process (the caller's own entries included). */
    symm_status_t (*exchange_fds)(const int *fds, int n, int *out);
    /* Bring the whole job down: the launcher stops every other PE and exits with `status`.
     * Returns only where there is no launcher to tell. */
    void (*abort)(int status, const char *why);
    /* Tell the launcher this PE finished cleanly, then release bootstrap resources. */
    void (*finalize)(void);
} symm_boot_ops_t;

/* Picks the bootstrap from the environment (symmrun sets SYMM_BOOT=launcher) and connects.
 * On success *out points to the ops of the chosen bootstrap. */
symm_status_t symm_boot_init(const symm_boot_ops_t **out);

/* The bootstraps symm_boot_init chooses from; same contract. */
symm_status_t symm_boot_single_init(const symm_boot_ops_t **out);
symm_status_t symm_boot_launcher_init(const symm_boot_ops_t **out);
symm_status_t symm_boot_pmix_init(const symm_boot_ops_t **out);

#endif
