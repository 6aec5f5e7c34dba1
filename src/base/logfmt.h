/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The symm authors */
/*
 * The format of every line the library writes for a user: "symm: [pe N host pid] ", so that in
 * the interleaved output of a job each line names its PE. The core's logger (core/log.h) and the
 * bootstraps' error lines write it alike.
 */
#ifndef SYMM_BASE_LOGFMT_H
#define SYMM_BASE_LOGFMT_H

#include <stddef.h>

/* Writes the prefix of PE pe on host (NULL: this machine's name) into buf; returns its length
 * (at most len - 1). */
int symm_log_prefix(char *buf, size_t len, long pe, const char *host);

#endif
