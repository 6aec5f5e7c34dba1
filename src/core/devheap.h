/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The device heap (core/devheap.c) and the start of the GPU part that sets it up (core/gpu.c),
 * for the files that run on the CUDA transport (tl/cuda/cuda.h), which holds the device, the
 * device window and the library's kernels. Built with CUDA only.
 */
#ifndef SYMM_CORE_DEVHEAP_H
#define SYMM_CORE_DEVHEAP_H

#include "core/gpu.h"
#include "core/core.h"
#include "tl/cuda/cuda.h"

typedef struct symm_devheap {
    size_t size;               /* SYMM_DEVICE_HEAP_SIZE, rounded to the granularity at start */
    size_t gran;               /* the driver's granularity of a mapping */
    symm_alloc_t alloc;        /* blocks, above the internal part (SYMM_DEV_INTERNAL_SIZE) */
    size_t reg_size;           /* SYMM_DEVICE_REGISTER_SIZE, rounded likewise */
    symm_alloc_t reg;          /* registered buffers: [size, size + reg_size) of the slot */
} symm_devheap_t;

extern symm_devheap_t symm_devheap_g;

/* Starts the GPU part if it has not started (collective); fatal when it cannot. */
void symm_gpu_start(const char *call);
/* Fatal unless the GPU part has started; binds the device to the calling thread. */
void symm_gpu_need(const char *call);

/* At start, with the device chosen: agrees on the size with every PE, reserves the window,
 * backs the internal part (zeroed) and maps it at every PE. Collective. */
void symm_devheap_init(const char *call);
/* At finalize: unmaps and releases every chunk, frees the window. */
void symm_devheap_fini(const char *call);
/* Writes the table of the teams this PE belongs to (core/gpu.h's symm_gpu_team_add) into the
 * internal part of this PE's device heap, at its start, once the part is zeroed. */
void symm_gpu_team_upload(const char *call);
/* The device state that the library's kernels and every module hold a copy of; set once the
 * part has started and unchanged after. */
const symm_dev_state_t *symm_gpu_state(void);
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
