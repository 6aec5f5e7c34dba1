/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The heap's registration with the network transport (route.c). At start the transport
 * registers the heap's internal part, a first extent of its user part and the data segment.
 * When an allocation raises the heap's high-water mark above the registered part, every PE
 * registers the next extent (at least doubling the registered part) before the allocation's
 * barrier, publishes its key in its heap's internal part, and after the barrier reads every
 * peer's key over the network: the key exchange rides on the allocation's agreement step.
 */
#ifndef SYMM_NET_H
#define SYMM_NET_H

#include <stddef.h>
#include <stdint.h>

#include "base/status.h"

/* Before the barrier of allocation call seq, whose block ends at heap offset top: registers
 * the next extent when top lies above the registered part (*grew 1) and publishes its key.
 * An error (warned, naming call) means this PE cannot back the block. */
symm_status_t symm_net_heap_grow(const char *call, uint64_t seq, size_t top, int *grew);
/* After the barrier, on the PEs that grew: with every PE's allocation done (ok), reads and
 * uses the peers' keys of the new extent (fatal when a peer published another); otherwise
 * forgets the extent. */
void symm_net_heap_agree(const char *call, uint64_t seq, int ok);
/* Bytes of this PE's heap (user and internal part) that PEs of other nodes reach. */
size_t symm_net_heap_registered(void);

#endif
