/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The host part of a bootstrap whose collectives travel elsewhere (PMIx, an MPI communicator,
 * the TCP rendezvous of a unique id): who runs where, and the descriptor exchange between the
 * PEs of one host, which only a Unix socket can carry.
 *
 * Each PE listens on a Unix socket in the abstract namespace, named by a job key and its rank.
 * In round k of an exchange each PE of a group sends its descriptors to the member k ahead
 * (SCM_RIGHTS) and then takes one sender's. Messages carry their exchange's number: a member
 * that finished an exchange may send for the next while another still waits for this one's,
 * and that message is kept for the next. No barrier ends an exchange: the caller meets the
 * others before it touches what the peers' descriptors reach. A connection is taken only from the process that the
 * rank it names announced at start-up (SO_PEERCRED), so no other process slips descriptors in.
 */
#ifndef SYMM_BOOT_FDX_H
#define SYMM_BOOT_FDX_H

#include <stdint.h>
#include <sys/types.h>

#include "boot/boot.h"

typedef struct symm_fdx {
    symm_boot_ops_t *ops; /* rank, size, allgather, barrier; host is filled by start */
    const char *what;     /* the bootstrap's name, for messages */
    uint64_t key;         /* the job, the same at every PE */
    int listen_fd;
    pid_t *pids; /* every rank's process */
    uint32_t seq;                  /* exchanges done */
    struct symm_fdx_early *early; /* messages of the next exchange, taken early */
    int n_early;
} symm_fdx_t;

/* Collective: listens, then gathers every rank's host and process and the start's cards
 * (symm_boot_cards); fills ops->host. */
symm_status_t symm_fdx_start(symm_fdx_t *x);

/* The exchange_fds op of symm_boot_ops_t over x (collective over the whole job). */
symm_status_t symm_fdx_exchange(symm_fdx_t *x, const int *fds, int n, int first, int count,
                                int *out);

void symm_fdx_close(symm_fdx_t *x);

/* One line on stderr: "symm: [pe R host pid] bootstrap (WHAT): ...". */
void symm_boot_error(const symm_boot_ops_t *ops, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
