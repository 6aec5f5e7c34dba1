/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The one error path and the logger. Every message a user sees starts with
 * "symm: [pe N host pid]" so that, in the interleaved output of a job, it names its PE. A fatal
 * error is written with a single write(2) (lines of several PEs do not mix) and brings the job
 * down through the bootstrap.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/logfmt.h"
#include "core/core.h"
#include "core/watch.h"

/* Before the start knows the PE, the launcher's rank names it (SYMM_RANK), read from the
 * settings where shmem_init loaded them, else from the table now. */
static int prefix(char *buf, size_t len)
{
    const char *rank = symm_g.params.rank;
    symm_params_t p;
    char why[8];

    if (symm_g.n_pes > 0)
        return symm_log_prefix(buf, len, symm_g.my_pe, symm_g.host);
    if (!rank && symm_params_load(&p, why, sizeof(why)) == SYMM_OK)
        rank = p.rank;
    return symm_log_prefix(buf, len, rank ? atol(rank) : 0, NULL);
}

static void emit(const char *fmt, va_list ap, char *msg, size_t len)
{
    char buf[2048];
    int n = prefix(buf, sizeof(buf));
    int m = vsnprintf(buf + n, sizeof(buf) - n - 1, fmt, ap);

    if (m < 0)
        m = 0;
    if ((size_t)(n + m) > sizeof(buf) - 2)
        m = (int)sizeof(buf) - 2 - n;
    if (msg)
        snprintf(msg, len, "%s", buf + n);
    buf[n + m] = '\n';
    if (write(STDERR_FILENO, buf, n + m + 1) < 0) {
        /* Nowhere left to report to. */
    }
}

void symm_fatal(const char *fmt, ...)
{
    char msg[1024];
    va_list ap;

    va_start(ap, fmt);
    emit(fmt, ap, msg, sizeof(msg));
    va_end(ap);
    fflush(stdout);
    /* The launcher ends the job: the peers' watches are told this is no lost host. */
    symm_watch_leave(0);
    if (symm_g.boot)
        symm_g.boot->abort(1, msg);
    _exit(1);
}

/* Whether a message of `level` is written: up to SYMM_LOG_LEVEL once shmem_init has read the
 * settings, up to warn before. */
int symm_log_on(symm_level_t level)
{
    return level <= symm_g.params.log_level;
}

void symm_log(symm_level_t level, const char *fmt, ...)
{
    va_list ap;

    if (!symm_log_on(level))
        return;
    va_start(ap, fmt);
    emit(fmt, ap, NULL, 0);
    va_end(ap);
}

void symm_check_init(const char *call)
{
    if (SYMM_UNLIKELY(!symm_g.initialized))
        symm_fatal("%s: called %s shmem_init", call, symm_g.finalized ? "after shmem_finalize, without"
                                                                     : "before");
}
