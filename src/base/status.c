/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/* The names of the internal status codes (base/status.h). */
#include "base/status.h"

const char *symm_status_str(symm_status_t status)
{
    switch (status) {
    case SYMM_OK: return "success";
    case SYMM_ERR_INVALID: return "invalid argument";
    case SYMM_ERR_NOMEM: return "out of memory";
    case SYMM_ERR_SYS: return "system call failed";
    case SYMM_ERR_BOOT: return "bootstrap failure (the launcher or a peer is gone)";
    case SYMM_ERR_UNSUPPORTED: return "not supported";
    }
    return "unknown status";
}
