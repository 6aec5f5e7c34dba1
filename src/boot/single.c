/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The `single` bootstrap: a program started without a launcher is a job of one PE. Collectives
 * only copy; there is nobody to tell on abort, so abort returns and the caller exits.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "boot/boot.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static symm_status_t single_allgather(const void *in, size_t len, void *out)
{
    if (len)
        memmove(out, in, len);
    return SYMM_OK;
}

static symm_status_t single_barrier(void)
{
    return SYMM_OK;
}

static symm_status_t single_exchange_fds(const int *fds, int n, int first, int count, int *out)
{
    if (n < 0 || first != 0 || count != 1)
        return SYMM_ERR_INVALID;
    for (int i = 0; i < n; i++) {
        out[i] = fcntl(fds[i], F_DUPFD_CLOEXEC, 0);
        if (out[i] < 0) {
            int err = errno;

            while (i--)
                close(out[i]);
            errno = err;
            return SYMM_ERR_SYS;
        }
    }
    return SYMM_OK;
}

static void single_abort(int status, const char *why)
{
    (void)status;
    (void)why;
}

static void single_finalize(void)
{
}

static const symm_boot_ops_t single_ops = {
    .name = "single",
    .rank = 0,
    .size = 1,
    .allgather = single_allgather,
    .barrier = single_barrier,
    .exchange_fds = single_exchange_fds,
    .abort = single_abort,
    .finalize = single_finalize,
};

symm_status_t symm_boot_single_init(const symm_boot_ops_t **out)
{
    *out = &single_ops;
    return SYMM_OK;
}
