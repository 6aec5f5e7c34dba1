/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * src/api: the public shells (shmem_, shmemx_, nvshmem_ names: setup.c, rma.c, amo.c, ep.c,
 * register.c, stream.c) and the library's start and end (init.c). The top of the order: it may
 * call every folder below it, and nothing calls it but programs. This header declares what
 * the folder's files share among themselves.
 */
#ifndef SYMM_API_H
#define SYMM_API_H

/* Start and end (init.c). */
void symm_init(const char *call, int requested);
void symm_finalize(void);

#endif
