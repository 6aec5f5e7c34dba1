/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * Large copies (copy.c): past the cache, or in the direction that finds what the last call
 * left in it.
 */
#ifndef SYMM_CORE_COPY_H
#define SYMM_CORE_COPY_H

#include <stddef.h>
#include <stdint.h>
#include "base/status.h"

/* Copies that move (read plus write) more than symm_cache_share() bytes go past the cache
 * (core/copy.c); symm_copy_stream ends with the store fence, the _nofence form leaves
 * symm_copy_stream_fence to the caller. Smaller copies of SYMM_SWEEP_BYTES or more alternate
 * direction call to call (symm_copy_swept: forward, or backwards when `back`);
 * symm_copy_large picks the way for a copy of SYMM_SWEEP_BYTES or more. */
#define SYMM_SWEEP_BYTES (256u << 10)
/* symm_copy_setup finds the cache sizes as SYMM_CACHE_INFO (`info`) says and sets the share of
 * each of `pes` PEs; with no size found the share is SYMM_CACHE_UNKNOWN: the collectives never
 * stream, symm_copy_large only past 32 MiB. symm_cache_sizes: the L2 and last-level sizes found
 * (0: none). */
#define SYMM_CACHE_UNKNOWN (SIZE_MAX / 4)
symm_status_t symm_copy_setup(const char *info, int pes, char *why, size_t why_len);
void symm_cache_sizes(size_t *l2, size_t *llc);
size_t symm_cache_share(void);
void symm_copy_stream(void *dest, const void *src, size_t n);
void symm_copy_stream_nofence(void *dest, const void *src, size_t n);
void symm_copy_stream_fence(void);
void symm_copy_swept(void *dest, const void *src, size_t n, int back);
void symm_copy_large(void *dest, const void *src, size_t n);

#endif
