/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * src/boot: the bootstraps, one file each, and what they share (proto.c, the launcher's wire
 * protocol; fdx.c, descriptor passing between the PEs of a host). Below core, beside tl: a
 * bootstrap calls only base; the core reaches it through the ops below.
 *
 * Bootstrap interface: how a PE learns its rank and size and exchanges setup data with the
 * other PEs of its job before the symmetric heap exists. One implementation per way of
 * starting: `launcher` (symmrun's private Unix socket), `pmix` (mpirun, srun), `uid` (processes
 * started by anything else, joined by a unique id), `mpi` (an MPI communicator the program
 * hands over) and `single` (a program started alone is a job of one PE). The core calls only
 * these ops; all of them are collective except abort.
 */
#ifndef SYMM_BOOT_H
#define SYMM_BOOT_H

#include <stddef.h>

#include "base/params.h"
#include "base/status.h"

typedef struct symm_boot_ops {
    const char *name;
    int rank;
    int size;
    /* The host of every rank, numbered in order of first appearance; NULL: all share one. */
    const int *host;
    /* Every PE contributes `len` bytes; `out` receives size * len bytes in rank order. */
    symm_status_t (*allgather)(const void *in, size_t len, void *out);
    /* Optional: every PE contributes `len` bytes, lengths differing; *out receives every
     * rank's back to back in rank order (malloc'd), lens[r] rank r's length. NULL: the
     * bootstrap has no way of its own, and symm_boot_allgatherv makes one of allgathers. */
    symm_status_t (*allgatherv)(const void *in, size_t len, void **out, size_t *lens);
    symm_status_t (*barrier)(void);
    /* Collective over the job, exchanged within groups of one host: every PE contributes `n`
     * file descriptors to the group of ranks [first, first + count) it belongs to; `out`
     * (size * n entries, in rank order) receives each member's as a new descriptor of this
     * process (the caller's own included), -1 for ranks outside the group. It need not end
     * in a barrier: the caller meets the other PEs (a barrier, another collective) before it
     * uses the peers' descriptors in a way they could notice. */
    symm_status_t (*exchange_fds)(const int *fds, int n, int first, int count, int *out);
    /* Bring the whole job down: the launcher stops every other PE and exits with `status`.
     * Returns only where there is no launcher to tell. */
    void (*abort)(int status, const char *why);
    /* Tell the launcher this PE finished cleanly, then release bootstrap resources. */
    void (*finalize)(void);
} symm_boot_ops_t;

/* Picks the bootstrap from the settings `params` (symmrun sets SYMM_BOOT=launcher), which it
 * keeps in symm_boot_params until the job ends, and connects. On success *out points to the
 * ops of the chosen bootstrap. `card` (`len` bytes) is what this PE tells every other at start;
 * *cards receives every rank's, in rank order (malloc'd, the caller frees it). The cards travel
 * in the bootstrap's first exchange, so that a start across hosts pays one fence for all of
 * them. `spans_hosts` (may be NULL) is called before
 * that exchange where the bootstrap knows by then that the job's PEs run on several hosts:
 * the caller starts there what the network needs and nothing of the other PEs, while the
 * job's last PEs are still starting. */
symm_status_t symm_boot_init(const symm_params_t *params, const void *card, size_t len,
                             void (*spans_hosts)(void), void **cards,
                             const symm_boot_ops_t **out);
extern const symm_params_t *symm_boot_params;

/* The card of this start and, once gathered, every rank's: symm_boot_init sets `mine` and
 * `len`; a bootstrap whose start gathers who runs where (fdx.h) fills `all` in the same
 * exchange, and symm_boot_init gathers it for the others. */
typedef struct symm_boot_cards {
    const void *mine;
    size_t len;
    void *all;
    void (*spans_hosts)(void);
} symm_boot_cards_t;
extern symm_boot_cards_t symm_boot_cards;

/* The allgatherv op of ops, or one of two allgathers (the lengths, then the bytes padded to
 * the longest) where the bootstrap has none. Same contract. */
symm_status_t symm_boot_allgatherv(const symm_boot_ops_t *ops, const void *in, size_t len,
                                   void **out, size_t *lens);

/* The bootstraps symm_boot_init chooses from; same contract. */
symm_status_t symm_boot_single_init(const symm_boot_ops_t **out);
symm_status_t symm_boot_launcher_init(const symm_boot_ops_t **out);
symm_status_t symm_boot_pmix_init(const symm_boot_ops_t **out);
symm_status_t symm_boot_uid_init(const symm_boot_ops_t **out);
symm_status_t symm_boot_mpi_init(const symm_boot_ops_t **out);

/* How the program asked to start (shmemx_init_attr): the bootstrap symm_boot_init takes
 * instead of the environment's, and its argument (the unique id and this process's rank and
 * job size; the MPI communicator). */
typedef enum { SYMM_BOOT_ENV, SYMM_BOOT_UID, SYMM_BOOT_MPI } symm_boot_how_t;
typedef struct symm_boot_request {
    symm_boot_how_t how;
    const void *uid; /* SYMM_BOOT_UID_BYTES bytes */
    int rank, size;
    void *mpi_comm; /* points to the program's MPI_Comm */
} symm_boot_request_t;
extern symm_boot_request_t symm_boot_req;

/* What the mpi plugin (libsymm_mpi.so, built against the program's MPI) lends the `mpi`
 * bootstrap: collectives over a duplicate of the program's communicator. Calls return 0 on
 * success. */
typedef struct symm_boot_mpi_fns {
    int rank;
    int size;
    int (*allgather)(const void *in, size_t len, void *out);
    int (*barrier)(void);
    void (*abort)(int status);
    void (*finalize)(void);
} symm_boot_mpi_fns_t;
#define SYMM_BOOT_MPI_OPEN "symm_boot_mpi_open"
typedef int (*symm_boot_mpi_open_t)(void *comm, symm_boot_mpi_fns_t *out, char *why,
                                    size_t why_len);

/* The unique id (shmemx_uniqueid_t's internal bytes): made by one process of the job, which
 * then serves the rendezvous; the others reach it at the address it holds. */
#define SYMM_BOOT_UID_BYTES 124
/* `addr`: the numeric address others reach the maker at (SYMM_BOOT_ADDR), empty: the first
 * interface that is up, else loopback. */
symm_status_t symm_boot_uid_make(void *uid, const char *addr);

#endif
