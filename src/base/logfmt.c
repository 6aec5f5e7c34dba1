/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/* The prefix of the library's lines (base/logfmt.h). */
#include <stdio.h>
#include <unistd.h>

#include "base/logfmt.h"

int symm_log_prefix(char *buf, size_t len, long pe, const char *host)
{
    char name[64] = "?";
    int n;

    if (!host) {
        gethostname(name, sizeof(name));
        name[sizeof(name) - 1] = '\0';
        host = name;
    }
    n = snprintf(buf, len, "symm: [pe %ld %s %d] ", pe, host, (int)getpid());
    if (n < 0)
        n = 0;
    if ((size_t)n >= len)
        n = len ? (int)len - 1 : 0;
    return n;
}
