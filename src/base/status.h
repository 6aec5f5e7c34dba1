/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/* Internal status codes: 0 is success, errors are negative. */
#ifndef SYMM_STATUS_H
#define SYMM_STATUS_H

typedef enum symm_status {
    SYMM_OK = 0,
    SYMM_ERR_INVALID = -1,   /* bad argument */
    SYMM_ERR_NOMEM = -2,     /* out of memory or heap */
    SYMM_ERR_SYS = -3,       /* a system call failed; errno tells more */
    SYMM_ERR_BOOT = -4,      /* bootstrap protocol or peer failure */
    SYMM_ERR_UNSUPPORTED = -5,
} symm_status_t;

const char *symm_status_str(symm_status_t status);

#endif
