/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The device heap (coll/devheap.c) and the start of the GPU part that sets it up, for the files
 * of the GPU part above core: its collective allocation (coll/devalloc.c), the collectives on
 * a stream (coll/on_stream.c) and the public calls that reach the GPU (api/). Built with CUDA
 * only; what a build without CUDA has as well is coll/gpu_coll.h's.
 */
#ifndef SYMM_COLL_DEVHEAP_H
#define SYMM_COLL_DEVHEAP_H

#include "core/gpu_cuda.h"

typedef struct symm_devheap {
    size_t size;               /* SYMM_DEVICE_HEAP_SIZE, rounded to the granularity at start */
    size_t gran;               /* the driver's granularity of a mapping */
    symm_alloc_t alloc;        /* blocks, above the internal part (SYMM_DEV_INTERNAL_SIZE) */
    size_t reg_size;           /* SYMM_DEVICE_REGISTER_SIZE, rounded likewise */
    symm_alloc_t reg;          /* registered buffers: [size, size + reg_size) of the slot */
} symm_devheap_t;

extern symm_devheap_t symm_devheap_g;

/* Starts the GPU part if it has not started (collective; the device bound to the calling thread
 * then): core's first half (core/gpu_cuda.h), then the window, which every PE agrees on and
 * reserves, and the internal part, backed, zeroed and mapped at every PE, then core's second
 * half. Fatal when it cannot. */
void symm_devheap_start(const char *call);
/* An allocation's block ends at offset top: backs this PE's heap up to top when it is not
 * backed yet (*grew 1), mapped in the own slot only until symm_devheap_share. SYMM_ERR_NOMEM
 * when the GPU has not the memory (nothing changed then); *why says so. */
symm_status_t symm_devheap_grow(const char *call, size_t top, int *grew, char *why,
                                size_t why_len);
/* Undoes the last symm_devheap_grow (an allocation that failed on another PE). */
void symm_devheap_shrink(const char *call);
/* Collective, after the allocation's barrier, on every PE that grew: maps the new chunk at
 * every PE. */
void symm_devheap_share(const char *call);
/* A buffer of this PE's GPU that the program made with cuMemCreate (POSIX file descriptor
 * handle), at the start of its allocation, is mapped at offset off of every slot (placed in
 * the registered part by the caller, the same on every PE) and reachable as a part of the
 * heap. Collective over the node's PEs. */
void symm_devheap_register(const char *call, void *buf, size_t len, size_t off);
/* Checks buf as symm_devheap_register will map it: fatal, naming call, unless it is such a
 * buffer of at least len bytes. */
void symm_devheap_register_check(const char *call, void *buf, size_t len);
/* Unmaps the registered buffer at off from every slot of the node. SYMM_ERR_INVALID when no
 * buffer is registered there. */
symm_status_t symm_devheap_unregister(const char *call, size_t off);

/* Fatal, naming call and the argument what, unless [addr, addr + n) lies in this PE's backed
 * device heap. */
void symm_devheap_check(const char *call, const char *what, const void *addr, size_t n);

#endif
