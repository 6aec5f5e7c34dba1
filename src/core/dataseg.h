/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The symmetric data segment (dataseg.c): the program's globals and statics, shared with
 * the PEs of the node.
 */
#ifndef SYMM_CORE_DATASEG_H
#define SYMM_CORE_DATASEG_H

#include <stddef.h>
#include "base/status.h"

/* Re-backs the program's writable data with a shareable file; fd is -1 when not possible. */
symm_status_t symm_dataseg_share(int *fd, char **lo, size_t *len);
symm_status_t symm_dataseg_map_peers(const int *fds, const size_t *lens);
void symm_dataseg_fini(void);

#endif
